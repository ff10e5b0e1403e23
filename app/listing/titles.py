"""Partial matches (`title`, `metaTitle`, `metaDescription`) as the ids of the sources that may
hold their values, read from the title keys (app/title_index.py; query_plan.TITLE_*).

The request's filter keeps its `$regex` clauses and gains `_id: {$in: candidates}`, so the
database tries them on those sources only, along `_id_` (query_plan.order_index), and sorts the
few it finds. Two reads at most: the first chunk of every bucket the values start with, then the
other chunks that hold them. A value shorter than TITLE_BUCKET, more than TITLE_CANDIDATES_MAX
keys, or a generation without title keys: the filter is left as it was, to the index.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from app.listing.filters import partial_values
from app.query_plan import (
    TITLE_BUCKET,
    TITLE_CANDIDATES_MAX,
    TITLE_FIELDS,
    TITLE_KEY,
    title_keys_id,
)
from app.store import Generation
from app.title_index import caseless

# (field, translation, bucket, rest of the key): one value looked for in one translation
_Lookup = tuple[str, str, str, str]


def restrict(query: dict[str, Any], generation: Generation, *, chunk: int | None) -> None:
    """Add to `query` the ids of the sources its partial matches may hold (every clause's
    candidates, the union of its values'), when the title keys (`chunk` keys per document; None:
    none written) tell them cheaply."""
    clauses = [partial_values(c) for c in query.get("$and", [])]
    matches = [values for values in clauses if values is not None]
    if chunk is None or not matches or "_id" in query:
        return
    locales = _locales(query.get("locale"))
    if locales is None or any(field not in TITLE_FIELDS for v in matches for field, _ in v):
        return
    lookups = []
    for values in matches:
        clause = []
        for field, value in values:
            key = caseless(value)[:TITLE_KEY]
            if len(key) < TITLE_BUCKET:
                return  # a bucket is TITLE_BUCKET characters: shorter values span many
            for locale in locales:
                clause.append((field, locale, key[:TITLE_BUCKET], key[TITLE_BUCKET:]))
        lookups.append(clause)
    found = _candidates(generation, [lookup for clause in lookups for lookup in clause], chunk)
    if found is None:
        return
    candidates: set[int] | None = None
    for clause in lookups:
        either = set().union(*(found[lookup] for lookup in clause))
        candidates = either if candidates is None else candidates & either
    ids = sorted(candidates or ())
    if len(ids) <= TITLE_CANDIDATES_MAX:
        query["_id"] = {"$in": ids}


def _locales(condition: Any) -> list[str] | None:
    if isinstance(condition, str):
        return [condition]
    if isinstance(condition, dict) and set(condition) == {"$in"}:
        return list(condition["$in"])
    return None


def _candidates(
    generation: Generation, lookups: list[_Lookup], chunk: int
) -> dict[_Lookup, set[int]] | None:
    """The sources of each lookup's keys, or None when the chunks to read hold more than
    TITLE_CANDIDATES_MAX keys."""
    heads = generation.title_key_chunks(
        sorted({title_keys_id(field, locale, bucket, 0) for field, locale, bucket, _ in lookups})
    )
    wanted: dict[_Lookup, list[str]] = {}
    for lookup in lookups:
        field, locale, bucket, rest = lookup
        head = heads.get(title_keys_id(field, locale, bucket, 0))
        numbers = _chunks_holding(head["starts"], rest) if head else []
        wanted[lookup] = [title_keys_id(field, locale, bucket, n) for n in numbers]
    more = sorted({i for ids in wanted.values() for i in ids} - set(heads))
    if len(more) * chunk > TITLE_CANDIDATES_MAX:
        return None
    chunks = {**heads, **generation.title_key_chunks(more)} if more else heads
    return {
        lookup: {
            source_id
            for chunk_id in ids
            for key, source_id in zip(
                chunks[chunk_id]["keys"], chunks[chunk_id]["sources"], strict=True
            )
            if key.startswith(lookup[3])
        }
        for lookup, ids in wanted.items()
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
