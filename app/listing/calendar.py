"""Archives and totals of unfiltered collections, from the materialised calendars
(app/fixture/calendars.py) instead of reading every matching source.

A request is *plain* when its filter names only its translation, at most one node type and the
realms it may not see (what build_query adds without any filter parameter). Any other filter is
answered by the indexed queries, whose cost follows the number of matches (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.publication import Visibility
from app.query_plan import ALL_TYPES

PLAIN_KEYS = frozenset({"locale", "type", "node.realm_ids"})


@dataclass(frozen=True)
class Scope:
    """What a plain request lists: a type (or ALL_TYPES), a translation, realms denied to it."""

    node_type: str
    locale: str
    denied: frozenset[int]

    def allows(self, group: dict[str, Any]) -> bool:
        return not self.denied.intersection(group["realm_ids"])


def plain_scope(query: dict[str, Any]) -> Scope | None:
    """The scope of a plain request's filter; None when it filters on anything else."""
    if not set(query) <= PLAIN_KEYS:
        return None
    locale, node_type = query["locale"], query.get("type", ALL_TYPES)
    realms = query.get("node.realm_ids", {"$nin": []})
    if not isinstance(locale, str) or not isinstance(node_type, str) or set(realms) != {"$nin"}:
        return None
    return Scope(node_type, locale, frozenset(realms["$nin"]))


def months(calendar: dict[str, Any], scope: Scope, visibility: Visibility) -> list[str]:
    """`YYYY-MM` of the months having a source the request may see, newest first (preview sees
    every date, as its archives do)."""
    return [
        month["month"]
        for month in calendar["months"]
        if any(
            scope.allows(group) and (visibility.preview or group["first"] <= visibility.now)
            for group in month["groups"]
        )
    ]


def total(
    calendar: dict[str, Any], scope: Scope, visibility: Visibility, scheduled: Callable[[], int]
) -> int:
    """Sources the request may see: in preview every counted one (undated included); otherwise
    the dated ones minus those still to come, which `scheduled` counts (one query, only when the
    calendar has an allowed date after now)."""
    dated = [g for month in calendar["months"] for g in month["groups"] if scope.allows(g)]
    if visibility.preview:
        undated = (g for g in calendar["undated"] if scope.allows(g))
        return sum(g["count"] for g in dated) + sum(g["count"] for g in undated)
    counted = sum(g["count"] for g in dated)
    if any(g["last"] > visibility.now for g in dated):
        counted -= scheduled()
    return counted
