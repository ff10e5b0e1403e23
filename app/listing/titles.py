"""Partial matches (`title`, `metaTitle`, `metaDescription`) as the ids of the sources that may
hold their values, read from the title keys (app/title_index.py; query_plan.TITLE_*).

The request's filter keeps its `$regex` clauses and gains `_id: {$in: candidates}`, so the
database tries them on those sources only, along `_id_` (query_plan.order_index), and sorts the
few it finds. Two reads at most: the first chunk of every bucket the values start with, then the
other chunks that hold them. Each partial filter (a clause: any of its values) bounds the read on
its own, so the candidates are those of the filters the keys can tell, intersected. A filter is
left to the others when a value is empty, when it has more than TITLE_LOOKUPS_MAX values x
translations, or when its keys beyond chunk 0 or its candidates are more than
TITLE_CANDIDATES_MAX; none left, or a generation without title keys: the filter stays as
it was, on the index. Nodes named by id (`node.id`) bound the read better: left as they are.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from app.listing.filters import partial_values
from app.listing.plain import locales_of
from app.query_plan import (
    TITLE_BUCKET,
    TITLE_CANDIDATES_MAX,
    TITLE_FIELDS,
    TITLE_KEY,
    TITLE_LOOKUPS_MAX,
    names_ids,
    title_keys_id,
)
from app.store import Generation
from app.title_index import caseless

# (field, translation, bucket, rest of the key): one value looked for in one translation
_Lookup = tuple[str, str, str, str]


def restrict(query: dict[str, Any], generation: Generation, *, chunk: int | None) -> None:
    """Add to `query` the ids of the sources its partial matches may hold, when the title keys
    (`chunk` keys per document; None: none written) tell them for one filter at least."""
    if chunk is None or "_id" in query or names_ids(query.get("node_id")):
        return
    locales = locales_of(query.get("locale"))
    if locales is None:
        return
    clauses = [_lookups(values, locales) for c in query.get("$and", [])
               if (values := partial_values(c)) is not None]  # fmt: skip
    bounded = [clause for clause in clauses if clause is not None]
    if not bounded:
        return
    heads = generation.title_key_chunks(sorted({_head(lookup) for c in bounded for lookup in c}))
    wanted = [{lookup: _chunks_of(lookup, heads.get(_head(lookup))) for lookup in clause}
              for clause in bounded]  # fmt: skip
    beyond = [(w, _beyond(w, heads)) for w in wanted]
    beyond = [(w, ids) for w, ids in beyond if len(ids) * chunk <= TITLE_CANDIDATES_MAX]
    affordable = [w for w, _ in beyond]
    more = sorted(set().union(*(ids for _, ids in beyond)))
    chunks = {**heads, **generation.title_key_chunks(more)}  # none more: no read
    candidates: set[int] | None = None
    for clause in affordable:
        found = set().union(*(_sources(lookup, ids, chunks) for lookup, ids in clause.items()))
        if len(found) <= TITLE_CANDIDATES_MAX:
            candidates = found if candidates is None else candidates & found
    if candidates is not None:
        query["_id"] = {"$in": sorted(candidates)}


def _lookups(values: list[tuple[str, str]], locales: tuple[str, ...]) -> list[_Lookup] | None:
    """What one partial filter looks for, or None when the keys cannot bound it."""
    if len(values) * len(locales) > TITLE_LOOKUPS_MAX:
        return None
    found = []
    for field, value in values:
        key = caseless(value)[:TITLE_KEY]
        if field not in TITLE_FIELDS or len(key) < TITLE_BUCKET:
            return None  # an empty value: every source holds it
        found += [(field, locale, key[:TITLE_BUCKET], key[TITLE_BUCKET:]) for locale in locales]
    return found


def _head(lookup: _Lookup) -> str:
    field, locale, bucket, _ = lookup
    return title_keys_id(field, locale, bucket, 0)


def _chunks_of(lookup: _Lookup, head: dict[str, Any] | None) -> list[str]:
    """The chunks of a lookup's bucket that may hold its keys (none: no such bucket)."""
    if head is None:
        return []
    field, locale, bucket, rest = lookup
    return [title_keys_id(field, locale, bucket, n) for n in _chunks_holding(head["starts"], rest)]


def _beyond(wanted: dict[_Lookup, list[str]], heads: dict[str, Any]) -> set[str]:
    return {chunk_id for ids in wanted.values() for chunk_id in ids} - set(heads)


def _sources(lookup: _Lookup, chunk_ids: list[str], chunks: dict[str, Any]) -> set[int]:
    """The sources of the keys that start with the lookup's value."""
    rest = lookup[3]
    return {
        source_id
        for chunk_id in chunk_ids
        for key, source_id in zip(
            chunks[chunk_id]["keys"], chunks[chunk_id]["sources"], strict=True
        )
        if key.startswith(rest)
    }


def _chunks_holding(starts: list[str], rest: str) -> list[int]:
    """The chunks whose keys may start with `rest` (keys are sorted; chunk n holds the keys from
    starts[n] to starts[n + 1], both included: equal keys may span two chunks)."""
    first = max(bisect_left(starts, rest) - 1, 0)
    numbers = []
    for number in range(first, len(starts)):
        start = starts[number]
        if start > rest and not start.startswith(rest):
            break  # keys starting with `rest` are contiguous: this chunk starts after them
        numbers.append(number)
    return numbers
