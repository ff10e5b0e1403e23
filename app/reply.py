"""What every builder answers: one Reply, the body and everything its HTTP caching depends on.
The HTTP layer (app.api.caching.respond) turns it into a response the same way for every view."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

# Cache tags in Roadiz's compact form (CompactTagPurger): the IRI without `/api/`, then these
# replacements in order, then `_blocks/` -> `_b/`. IRIs with a query, contexts and blank nodes
# (`/.well-known/genid/...`) carry none.
_COMPACT = (("documents/", "d/"), ("nodes/", "n/"), ("nodes_sources/", "ns/"), ("tags/", "t/"),
            ("translations/", "tl/"), ("pages/", "p/"), ("custom_forms/", "cf/"),
            ("folders/", "f/"))  # fmt: skip


@functools.lru_cache(maxsize=65536)  # the IRIs of a site repeat in every response
def compact_tag(iri: str) -> str | None:
    """`/api/pages/7` -> `p/7`, `/api/content_blocks/9` -> `content_b/9`, `/api/pages` ->
    `pages`."""
    if not iri.startswith("/api/") or "?" in iri or iri.startswith("/api/contexts/"):
        return None
    tag = iri[len("/api/") :]
    for long, short in _COMPACT:
        tag = tag.replace(long, short)
    return tag.replace("_blocks/", "_b/") or None


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
        """Compact tags (compact_tag) of the collection path and every IRI in the body, in order of
        appearance, de-duplicated: purging a tag purges every response showing that resource."""
        seen: dict[str, None] = {}

        def visit(value: dict[str, Any] | list[Any]) -> None:
            if isinstance(value, dict):
                iri = value.get("@id")
                if isinstance(iri, str) and (tag := compact_tag(iri)):
                    seen.setdefault(tag)
                value = value.values()  # type: ignore[assignment]
            for child in value:  # scalars are skipped without a call
                if isinstance(child, (dict, list)):
                    visit(child)

        if isinstance(self.body, (dict, list)):
            visit(self.body)
        return list(seen)
