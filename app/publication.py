"""The publication rule: which sources a visibility (a moment, preview or not) shows. What a
request may see beyond it (translations, realms) is decided in app.audience."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

PUBLIC_STATUSES = ("published",)
PREVIEW_STATUSES = ("draft", "pending", "published")


@dataclass(frozen=True)
class Visibility:
    """What a request may see: the moment it is made and whether it previews unpublished content."""

    now: datetime
    preview: bool = False

    def statuses(self) -> tuple[str, ...]:
        return PREVIEW_STATUSES if self.preview else PUBLIC_STATUSES


def stored_moment(moment: datetime) -> datetime:
    """An aware moment as MongoDB stores it (BSON): in UTC, cut to the millisecond. Cut on the
    UTC instant, since an offset may itself have digits below the millisecond."""
    utc = moment.astimezone(UTC)
    return utc - timedelta(microseconds=utc.microsecond % 1000)


def source_filter(visibility: Visibility, *, listed: bool = False) -> dict[str, Any]:
    """MongoDB filter on `sources` documents matching what `visibility` may see.

    `listed` adds the rule for walkers, feeds, menus and breadcrumbs: only visible nodes.
    A source without published_at counts as not yet published (outside preview).
    """
    query: dict[str, Any] = {"node.status": {"$in": list(visibility.statuses())}}
    if not visibility.preview:
        query["published_at"] = {"$lte": visibility.now}
    if listed:
        query["node.visible"] = True
    return query


def is_shown(source: dict[str, Any], visibility: Visibility, *, listed: bool = False) -> bool:
    """The same rule as source_filter(), for a document (or an embedded summary) already in hand."""
    node = source["node"]
    if node["status"] not in visibility.statuses():
        return False
    if not visibility.preview:
        published_at = source.get("published_at")
        if published_at is None or published_at > visibility.now:
            return False
    return not listed or bool(node["visible"])
