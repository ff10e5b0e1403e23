"""Content values placed in response headers, made safe whatever the loaded site contains.

The loader refuses realm names and locales that would need this (app/fixture/rules.py); these
functions are the second line: a header never carries a quote, a backslash, a control character
(CR/LF: no header injection) or a character outside ASCII (werkzeug refuses what Latin-1 cannot
encode). Anything else is percent-encoded (UTF-8), so the value stays readable and unambiguous.
"""

from __future__ import annotations

from urllib.parse import quote

# Printable ASCII that may stay as is inside a quoted-string (RFC 9110 qdtext, minus `%`).
_QUOTED_SAFE = " !#$&'()*+,-./:;<=>?@[]^_`{|}~"
# Characters of a URI reference that may stay as is between `<` and `>` of a Link.
_URI_SAFE = "/-._~!$&'()*+,;=:@%?#"


def quoted_string(text: str) -> str:
    """`text` as the inside of a quoted-string (`realm="…"`)."""
    return quote(text, safe=_QUOTED_SAFE)


def token(text: str) -> str:
    """`text` as a header token such as a language tag (letters, digits, `-`, `_`)."""
    return quote(text, safe="-_")


def uri_reference(text: str) -> str:
    """`text` as a URI reference inside `<…>` (Link)."""
    return quote(text, safe=_URI_SAFE)
