"""Which index would MongoDB use for a query? A small model of its planner, for the index tests.

FerretDB (the real tier) evaluates most filters after a full scan, so the tests cannot observe
index use on it; this model states the rule the indexes are designed to: a query is served by an
index when the index's leading key is bounded by the filter (equality, `$in` or a range), and, when
the query sorts, the sort keys follow the index's equality prefix in the index's order or in its
exact reverse (no in-memory sort), unless that prefix binds a key of SMALL_RANGES: a parent's
children are at most PARENT_LISTED (a parent with more is read from its listings), and a node (by
id or by name) has one source per translation, so they are sorted after the read. Among the indexes
that serve a query, one that binds a key of SMALL_RANGES wins (the trial run's few entries end it
first), then the one that binds the most keys by equality, then one that needs no sort, then the
first declared. The `_id` index serves any equality or `$in` on `_id` (in any order: the ids bound
the read, at most app.query_plan.TITLE_CANDIDATES_MAX, and are sorted after it), and a whole read
in `_id` order.

Every read of the store names this model's choice with `cursor.hint` (tests/test_indexes.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EQUALITY = "equality"  # a value or {$eq: value}
IN = "in"  # {$in: [...]}: MongoDB merges the sorted runs of each value
RANGE = "range"  # $gt, $gte, $lt, $lte
RESIDUAL = "residual"  # anything else ($ne, $nin, $all, ...): checked on the fetched documents
RANGE_OPERATORS = {"$gt", "$gte", "$lt", "$lte"}
# Keys whose equality bounds a read to a few entries: a parent's children
# (app.query_plan.PARENT_LISTED at most), a node's sources (one per translation), those of the
# node of a name (node names name one node in Roadiz).
SMALL_RANGES = {"node.parent", "node_id", "node.node_name"}


@dataclass
class Query:
    """One read as the store issued it: collection kind, filter and sort."""

    kind: str
    method: str
    filter: dict[str, Any]
    sort: list[tuple[str, int]] = field(default_factory=list)
    #: the index the query names (`cursor.hint` or `hint=`), None when it names none
    hint: str | None = None

    def describe(self) -> str:
        sort = f".sort({dict(self.sort)})" if self.sort else ""
        return f"{self.kind}.{self.method}({shape(self.filter)}){sort}"


def predicate(condition: Any) -> str:
    if isinstance(condition, dict) and condition and all(k.startswith("$") for k in condition):
        operators = set(condition)
        if operators == {"$eq"}:
            return EQUALITY
        if operators == {"$in"}:
            return IN
        if operators <= RANGE_OPERATORS:
            return RANGE
        return RESIDUAL
    return EQUALITY


def shape(filter_: dict[str, Any]) -> dict[str, str]:
    """{field: predicate kind}; top-level operators ($or, $and...) are residual."""
    return {k: RESIDUAL if k.startswith("$") else predicate(v) for k, v in filter_.items()}


def _sort_follows(keys: list[tuple[str, int]], sort: list[tuple[str, int]]) -> bool:
    if [k for k, _ in keys[: len(sort)]] != [k for k, _ in sort]:
        return False
    same = all(d == s for (_, d), (_, s) in zip(keys, sort, strict=False))
    reverse = all(d == -s for (_, d), (_, s) in zip(keys, sort, strict=False))
    return same or reverse


def bounded_fields(query: Query, keys: list[tuple[str, int]]) -> list[str] | None:
    """The filter fields an index decides (its equality prefix, then a range on the key after it),
    or None when it bounds nothing or cannot yield the query's order."""
    predicates = shape(query.filter)
    prefix = 0
    while prefix < len(keys) and predicates.get(keys[prefix][0]) in (EQUALITY, IN):
        prefix += 1
    small = any(key in SMALL_RANGES for key, _ in keys[:prefix])
    if query.sort and not small and not _sort_follows(keys[prefix:], query.sort):
        return None
    fields = [key for key, _ in keys[:prefix]]
    if prefix < len(keys) and predicates.get(keys[prefix][0]) == RANGE:
        fields.append(keys[prefix][0])
    return fields or None


def serving_index(query: Query, indexes: dict[str, list[tuple[str, int]]]) -> str | None:
    """The name of an index that bounds the query and yields its order, or None."""
    by_id = _sort_follows([("_id", 1)], query.sort)
    if query.filter and shape(query.filter).get("_id") in (EQUALITY, IN):
        return "_id_"  # the ids bound the read: sorted after it (app.query_plan.order_index)
    if not query.filter and query.sort and by_id:
        return "_id_"
    # a bound to a few entries, else the longest equality prefix (the most selective bound, as
    # the planner's trial run would find); ties: the first declared
    predicates = shape(query.filter)
    best, most = None, (False, -1, False)
    for name, keys in indexes.items():
        fields = bounded_fields(query, keys)
        if not fields:
            continue
        prefix = sum(1 for f in fields if predicates.get(f) in (EQUALITY, IN))
        small = any(f in SMALL_RANGES for f in fields[:prefix])
        ordered = not query.sort or _sort_follows(keys[prefix:], query.sort)
        if (small, prefix, ordered) > most:
            best, most = name, (small, prefix, ordered)
    return best
