"""What every builder answers: one Reply, the body and everything its HTTP caching depends on.
The HTTP layer (app.api.caching.respond) turns it into a response the same way for every view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Roadiz's compact cache tags (CompactTagPurger): an IRI without `/api/`, then these
# replacements in this order (roadiz-read-surface.md §7): `/api/pages/7` -> `p/7`.
API_PREFIX = "/api/"
COMPACT = (
    ("documents/", "d/"),
    ("nodes/", "n/"),
    ("nodes_sources/", "ns/"),
    ("tags/", "t/"),
    ("translations/", "tl/"),
    ("pages/", "p/"),
    ("custom_forms/", "cf/"),
    ("folders/", "f/"),
    ("_blocks/", "_b/"),
)
GENID = "/.well-known/genid/"


def compact_tag(iri: str) -> str | None:
    """The cache tag of a resource IRI (or of a collection path); None for what is no resource
    (blank nodes, genids, IRIs with a query such as a WebResponse's or a hydra:view's)."""
    if not iri.startswith(API_PREFIX) or "?" in iri or GENID in iri:
        return None
    tag = iri.removeprefix(API_PREFIX)
    for long, short in COMPACT:
        tag = tag.replace(long, short)
    return tag


@dataclass(frozen=True)
class Reply:
    body: dict[str, Any]
    #: Content-Language: the translation the body is in.
    locale: str
    #: The node's ttl in minutes (its s-maxage); None: the configured default.
    ttl_minutes: int | None = None
    #: Covered by a realm: never stored in a shared cache, whatever the request's credentials.
    protected: bool = False
    #: The item's translations this request may see, its own included, each `locale`, `url`
    #: and translation `name` (Link alternates, app.audience.shown_alternates).
    alternates: list[dict[str, Any]] = field(default_factory=list)
    #: The canonical url, when the item was reached by another path (Content-Location).
    content_location: str | None = None

    def cache_tags(self) -> list[str]:
        """Roadiz's compact tags (compact_tag) of the collection path, when the body is a
        collection, then of every resource IRI (`@id`) in the body, in order of appearance,
        de-duplicated (purging a tag purges every response showing it)."""
        seen: dict[str, None] = {}

        def add(iri: Any) -> None:
            if isinstance(iri, str) and (tag := compact_tag(iri)):
                seen.setdefault(tag)

        def visit(value: Any) -> None:
            if isinstance(value, dict):
                add(value.get("@id"))
                for child in value.values():
                    visit(child)
            elif isinstance(value, list):
                for child in value:
                    visit(child)

        if self.body.get("@type") == "hydra:Collection":
            add(str(self.body.get("@id", "")).split("?", 1)[0])
        visit(self.body)
        return list(seen)
