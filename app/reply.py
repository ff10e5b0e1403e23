"""What every builder answers: one Reply, the body and everything its HTTP caching depends on.
The HTTP layer (app.api.caching.respond) turns it into a response the same way for every view."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import orjson

# Cache tags in Roadiz's compact form (CompactTagPurger): the IRI without `/api/`, then these
# replacements in order, then `_blocks/` -> `_b/`. IRIs with a query, contexts and blank nodes
# (`/.well-known/genid/...`) carry none.
_COMPACT = (("documents/", "d/"), ("nodes/", "n/"), ("nodes_sources/", "ns/"), ("tags/", "t/"),
            ("translations/", "tl/"), ("pages/", "p/"), ("custom_forms/", "cf/"),
            ("folders/", "f/"))  # fmt: skip


# An `@id` member with a string value in JSON text. In valid JSON this text is always one: a
# quote inside a string is escaped, and a string followed by `:` is a key.
_ID_MEMBER = b'"@id":"'
_BACKSLASH = 0x5C


def cache_tags(payload: bytes) -> list[str]:
    """Compact tags (compact_tag) of every `@id` of a serialised body, in order of appearance,
    de-duplicated: purging a tag purges every response showing that resource. Splitting the
    bytes costs a fraction of walking the body."""
    raws = dict.fromkeys(_string_at_start(part) for part in payload.split(_ID_MEMBER)[1:])
    tags: dict[str, None] = {}
    for raw in raws:
        iri = orjson.loads(b'"' + raw + b'"') if _BACKSLASH in raw else raw.decode()
        if tag := compact_tag(iri):
            tags.setdefault(tag)
    return list(tags)


def _string_at_start(text: bytes) -> bytes:
    """The JSON string content `text` starts with (escapes kept), up to its closing quote: the
    first quote not preceded by an odd number of backslashes."""
    end = text.index(b'"')
    while text[end - 1] == _BACKSLASH and _escaped(text, end):
        end = text.index(b'"', end + 1)
    return text[:end]


def _escaped(text: bytes, quote: int) -> bool:
    """Whether the quote at `quote` is escaped: preceded by an odd number of backslashes."""
    before = quote
    while before and text[before - 1] == _BACKSLASH:
        before -= 1
    return (quote - before) % 2 == 1


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
