"""What every builder answers: one Reply, the body and everything its HTTP caching depends on.
The HTTP layer (app.api.caching.respond) turns it into a response the same way for every view."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# Compact cache tags of the resources a body contains, by the kind of their IRI (s: a source).
_IRI = re.compile(r"^/api/(?P<kind>[a-z_]+)/(?P<id>\d+)$")
_TAG_PREFIX = {"nodes": "n", "documents": "d", "tags": "t", "realms": "r"}


@dataclass(frozen=True)
class Reply:
    body: dict[str, Any]
    #: Content-Language: the translation the body is in.
    locale: str
    #: The node's ttl in minutes (its s-maxage); None: the configured default.
    ttl_minutes: int | None = None
    #: Covered by a realm: never stored in a shared cache, whatever the request's credentials.
    protected: bool = False
    #: The item's other translations this request may see (Link hreflang alternates).
    alternates: list[dict[str, Any]] = field(default_factory=list)
    #: The canonical url, when the item was reached by another path (Content-Location).
    content_location: str | None = None

    def cache_tags(self) -> list[str]:
        """Tags of every node source (s), node (n), document (d), tag (t) and realm (r) IRI in
        the body, in order of appearance (purging a tag purges every response showing it)."""
        seen: dict[str, None] = {}

        def visit(value: Any) -> None:
            if isinstance(value, dict):
                iri = value.get("@id")
                if isinstance(iri, str) and (match := _IRI.match(iri)):
                    seen.setdefault(_TAG_PREFIX.get(match["kind"], "s") + match["id"])
                for child in value.values():
                    visit(child)
            elif isinstance(value, list):
                for child in value:
                    visit(child)

        visit(self.body)
        return list(seen)
