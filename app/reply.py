"""What every builder answers: one Reply, the body and everything its HTTP caching depends on.
The HTTP layer (app.api.caching.respond) turns it into a response the same way for every view."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

import orjson

# Cache tags in Roadiz's compact form (CompactTagPurger): the IRI without `/api/`, then these
# replacements in order, then `_blocks/` -> `_b/`. IRIs with a query, contexts and blank nodes
# (`/.well-known/genid/...`) carry none.
_COMPACT = (("documents/", "d/"), ("nodes/", "n/"), ("nodes_sources/", "ns/"), ("tags/", "t/"),
            ("translations/", "tl/"), ("pages/", "p/"), ("custom_forms/", "cf/"),
            ("folders/", "f/"))  # fmt: skip


# The largest delta-seconds a cache reads (RFC 9111, 1.2.2: a sender should not send more); a
# node's ttl (any number of minutes the fixture allows) is sent as at most that.
MAX_DELTA_SECONDS = 2**31


def ttl_seconds(minutes: int | None) -> int:
    """A node's ttl in minutes as seconds (Roadiz: × 60; none: 0), at most MAX_DELTA_SECONDS."""
    return min(int(minutes or 0) * 60, MAX_DELTA_SECONDS)


# The string value of an `@id` member in JSON text (escapes kept). In valid JSON this text is
# always one: a quote inside a string is escaped, and a string followed by `:` is a key.
_ID_MEMBER = re.compile(rb'"@id":"([^"\\]*(?:\\.[^"\\]*)*)"')


def cache_tags(payload: bytes) -> list[str]:
    """Compact tags (compact_tag) of every `@id` of a serialised body, in order of appearance,
    de-duplicated: purging a tag purges every response showing that resource. One regular
    expression over the bytes costs a fraction of walking the body."""
    tags: dict[str, None] = {}
    for raw in dict.fromkeys(_ID_MEMBER.findall(payload)):
        if tag := _tag_of_member(raw):
            tags.setdefault(tag)
    return list(tags)


@functools.lru_cache(maxsize=65536)  # the IRIs of a site repeat in every response
def _tag_of_member(raw: bytes) -> str | None:
    """The compact tag of an `@id` member's JSON string content."""
    return compact_tag(orjson.loads(b'"' + raw + b'"') if b"\\" in raw else raw.decode())


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
