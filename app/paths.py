"""Resolving the `path` of web_response_by_path: normalisation, redirections, urls and aliases."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from app.errors import BadRequest, NotFound
from app.publication import Visibility
from app.site import SiteModel

MAX_PATH_LENGTH = 2048
MAX_REDIRECT_HOPS = 5
NOT_RESOLVED = "None of the chained PathResolverInterface were able to resolve path"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SUFFIX = re.compile(r"\.(json|html)$")


def normalise_path(raw: str | None) -> str:
    """The canonical form of a requested path (behaviour.md, path resolution 1-2).

    `raw` is the `path` parameter as the query string carried it, percent-decoded once already
    (by werkzeug, app.requests refusing invalid UTF-8): it is not decoded again, so `%252F` is
    the text `%2F`, never a slash."""
    if raw is None or raw == "":
        raise BadRequest("path query parameter is mandatory")
    if len(raw) > MAX_PATH_LENGTH:
        raise BadRequest(f"path is longer than {MAX_PATH_LENGTH} characters")
    path = raw
    if _CONTROL.search(path):
        raise BadRequest("path contains control characters")
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
        raise BadRequest("path is not valid percent-encoded UTF-8") from error
    return normalise_path(decoded)


@dataclass(frozen=True)
class Resolution:
    """What a path leads to: a source (with the canonical url when reached by redirection),
    or an external redirection."""

    source: dict[str, Any] | None = None
    content_location: str | None = None
    redirection: dict[str, Any] | None = None


def _not_found(path: str, site: SiteModel, visibility: Visibility) -> NotFound:
    first = path.strip("/").split("/", 1)[0]
    translation = site.translation(first) if first else None
    if translation is not None and not (translation.available or visibility.preview):
        return NotFound(f'"{first}" translation was not found.')
    return NotFound(NOT_RESOLVED)


def _visible_source(site: SiteModel, source_id: int, visibility: Visibility) -> dict | None:
    source = site.generation.source(source_id, visibility)
    if source is None or not source["reachable"]:
        return None
    translation = site.translations[source["locale"]]
    if not (translation.available or visibility.preview):
        return None
    return source


def resolve_path(path: str, site: SiteModel, visibility: Visibility) -> Resolution:
    """Follow redirections (at most MAX_REDIRECT_HOPS internal hops, no loops) to a source."""
    seen: set[str] = set()
    current, redirected = path, False
    while True:
        entry = site.generation.path(current)
        if entry is None:
            raise _not_found(current, site, visibility)
        if entry["kind"] != "redirection":
            source = _visible_source(site, entry["source_id"], visibility)
            if source is None:
                raise _not_found(current, site, visibility)
            return Resolution(source=source, content_location=source["url"] if redirected else None)
        seen.add(current)
        if entry.get("redirect_source_id") is not None:
            source = _visible_source(site, entry["redirect_source_id"], visibility)
            if source is None:
                raise NotFound(NOT_RESOLVED)
            return Resolution(source=source, content_location=source["url"])
        uri = entry["redirect_uri"]
        if not uri.startswith("/"):
            return Resolution(
                redirection={
                    "@type": "Redirection",
                    "redirectUri": uri,
                    "type": entry["redirect_type"],
                }
            )
        current, redirected = normalise_url_path(uri), True
        if current in seen or len(seen) > MAX_REDIRECT_HOPS:
            raise NotFound(NOT_RESOLVED)
