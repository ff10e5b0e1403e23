"""Project decorations of the WebResponse (see docs/extending.md)."""
