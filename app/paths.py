"""The canonical form of a requested path: one rule, shared by the loader (redirection queries are
stored as requests are looked up) and the read path (app.resolution)."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

MAX_PATH_LENGTH = 2048
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SUFFIX = re.compile(r"\.(json|html)$")


class InvalidPath(ValueError):
    """A requested path that has no canonical form; the message names the problem (the HTTP layer
    answers 400 with it, the loader reports it as a fixture problem)."""


# Roadiz's detail of a web_response_by_path without a path (the query schema and the resolver).
PATH_REQUIRED = "path query parameter is mandatory"


def normalise_path(raw: str | None) -> str:
    """The canonical form of a requested path (behaviour.md, path resolution 1-2).

    `raw` is the `path` parameter percent-decoded once already (by werkzeug; app.api.hygiene
    refuses invalid UTF-8): it is not decoded again, so `%252F` is the text `%2F`, not a slash."""
    if raw is None or raw == "":
        raise InvalidPath(PATH_REQUIRED)
    if len(raw) > MAX_PATH_LENGTH:
        raise InvalidPath(f"path is longer than {MAX_PATH_LENGTH} characters")
    path = raw
    if _CONTROL.search(path):
        raise InvalidPath("path contains control characters")
    if not path.startswith("/"):
        path = "/" + path
    path = _SUFFIX.sub("", path)
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    return path


def normalise_url_path(text: str) -> str:
    """The canonical form of a path written as in a URL (a redirection's query or target in the
    site fixture): percent-decoded once, as a request's `path` is, then normalised."""
    try:
        decoded = unquote(text, errors="strict")
    except UnicodeDecodeError as error:
        raise InvalidPath("path is not valid percent-encoded UTF-8") from error
    return normalise_path(decoded)


def unrequestable(path: str) -> str | None:
    """Why a stored path (a source's url, an alias's) can never be requested as it is, or None:
    a request for it is normalised to another path (a final `.json` or `.html` is read as a
    format and dropped), or it has a `.` or `..` segment, which clients resolve before sending."""
    if any(segment in (".", "..") for segment in path.split("/")):
        return f'path "{path}" has a "." or ".." segment, which clients resolve away'
    if _SUFFIX.search(path):
        return f'path "{path}" cannot be requested: a final .json or .html is read as a format'
    return None


def is_absolute_http_url(text: str) -> bool:
    """An absolute http(s) URL with a host (a redirection's target, the JSON-LD vocabulary base);
    not one urlsplit refuses (`https://[::1`, a host NFKC would change)."""
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)
