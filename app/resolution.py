"""Resolving the `path` of web_response_by_path: redirections, urls and aliases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.audience import addressable_source, translation_visible
from app.errors import NotFound
from app.paths import normalise_url_path
from app.publication import Visibility
from app.site import SiteModel

MAX_REDIRECT_HOPS = 5
NOT_RESOLVED = "None of the chained PathResolverInterface were able to resolve path"


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
    if translation is not None and not translation_visible(translation, preview=visibility.preview):
        return NotFound(f'"{first}" translation was not found.')
    return NotFound(NOT_RESOLVED)


def _visible_source(site: SiteModel, source_id: int, visibility: Visibility) -> dict | None:
    source = addressable_source(site, source_id, visibility)
    return source if source is not None and source["reachable"] else None


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
