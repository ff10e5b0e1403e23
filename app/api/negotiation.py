"""Content negotiation as API Platform: JSON-LD by default, plain JSON on request.

`Accept: application/json` or a `.json` suffix (`/api/pages/7.json`) gives the JSON format
(app.plain_format: what it keeps of a JSON-LD body). A `.jsonld` / `.json` suffix beats `Accept`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Request

from app.api.encoding import LD_JSON

JSON = "application/json"
SUFFIXES = {".jsonld": LD_JSON, ".json": JSON}
FORMAT_KEY = "cms.format"
# Served under these names on purpose (OpenAPI and Hydra documents): never a format suffix.
NO_SUFFIX_PREFIX = "/api/docs"


class FormatSuffix:
    """WSGI middleware: `/api/x.jsonld` is `/api/x` asked in JSON-LD (`environ["cms.format"]`)."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]]):
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        path = environ.get("PATH_INFO", "")
        if path.startswith("/api/") and not path.startswith(NO_SUFFIX_PREFIX):
            for suffix, mimetype in SUFFIXES.items():
                if path.endswith(suffix) and len(path) > len("/api/") + len(suffix):
                    environ["PATH_INFO"] = path[: -len(suffix)]
                    environ[FORMAT_KEY] = mimetype
                    break
        return self.wsgi_app(environ, start_response)


def has_suffix(request: Request) -> bool:
    return FORMAT_KEY in request.environ


def quality(request: Request, media_type: str) -> float:
    """How much Accept wants `media_type` as the service sends it (`; charset=utf-8`): werkzeug
    matches a range with parameters only against a type with the same ones, so that
    `application/json; charset=utf-8` would otherwise accept nothing."""
    accepted = request.accept_mimetypes
    return max(accepted[media_type], accepted[f"{media_type}; charset=utf-8"])


def mimetype(request: Request) -> str:
    """The suffix's format, else JSON when Accept prefers it to JSON-LD, else JSON-LD."""
    chosen = request.environ.get(FORMAT_KEY)
    if chosen is not None:
        return chosen
    return JSON if quality(request, JSON) > quality(request, LD_JSON) else LD_JSON
