"""Totals of plain requests with a span (app/listing/plain.py): a span of dates from the
calendar but for the months across its edges, counted from their entries in the date listing
(`span_total`); a range of positions (or any of several) from the tallies of the position
listings but for the chunks across its bounds, counted from their entries (`position_total`).
The reads follow the span's edges, not the site.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.listing import walk
from app.listing.scopes import INF, Scope
from app.listing.walk import DATE, POSITION, Bound, Key, Reads
from app.publication import Visibility


def span_total(reads: Reads, found: dict[str, Any], scope: Scope) -> int:
    """The sources of a span of dates the request may see. A month whose calendar groups (its
    sources of one realm set, with their first and last date) lie wholly inside or outside the
    span is counted from the calendar; a month where a group straddles a bound of the span or
    now (at most the months of the two bounds and of now) is counted from its entries in the
    date listing, where they are contiguous: the reads follow the span's edges, not the site."""
    lower, upper = walk.window(scope, reads.visibility, DATE, descending=False)
    counted = 0
    for month in found["months"]:
        allowed = [g for g in month["groups"] if scope.allows(g)]
        sides = [_side(g, lower, upper) for g in allowed]
        if 0 not in sides:
            counted += sum(g["count"] for g, side in zip(allowed, sides, strict=True) if side > 0)
            continue
        # newest first from the month's last date (or the span's end) to its first (or start)
        least = (min(g["first"] for g in month["groups"]), -INF)
        most = (max(g["last"] for g in month["groups"]), INF)
        start = walk.least_of(upper, most)
        stop = least if lower is None else max(lower, least)
        kept = walk.kept_entries(reads, scope, DATE, True, start, stop)
        counted += sum(1 for _ in kept)
    return counted


def tally_ids(scope: Scope, visibility: Visibility) -> list[str]:
    """The `_id` of the tally of each position listing a range of positions counts: those of
    the scope's groups that count (Role.sign), each once."""
    keys = [
        key
        for role in scope.groups
        if role.sign
        for key in scope.listings(role, visibility.preview)
    ]
    return list(dict.fromkeys(walk.tally_doc_id(key) for key in keys))


def position_total(reads: Reads, scope: Scope) -> int:
    """The sources of a span of positions the request may see, from the tallies of its groups'
    position listings (read already), combined by sign (Role.sign) as the calendars are: a chunk
    wholly inside the span whose allowed groups hold nothing still to come (their last
    published_at is past; any, in preview) is counted from its tally, less the sources left out
    by id that it holds (`_left_between`), one wholly outside not at all, and the others (at most
    the two across the span's bounds, and those holding a source scheduled ahead) from their
    entries, read in one read. So the reads are the tallies and the chunks of the span's edges,
    not the span."""
    visibility = reads.visibility
    across: list[tuple[int, Key, int, Bound | None, Bound | None]] = []  # from entries
    counted = 0
    # any of several ranges (Scope.spans): each (disjoint), in the same reads
    bounds = [
        walk.window(part, visibility, POSITION, descending=False) for part in walk.per_range(scope)
    ]
    for role in [role for role in scope.groups if role.sign]:  # not those only walked
        for key in scope.listings(role, visibility.preview):
            tally = reads.get(walk.tally_doc_id(key))
            for number, chunk in enumerate(tally["chunks"] if tally else ()):
                allowed = [g for g in chunk["groups"] if scope.allows(g)]
                if not allowed:
                    continue
                first = (chunk["from"]["position"], chunk["from"]["id"])
                last = (chunk["to"]["position"], chunk["to"]["id"])
                ahead = not visibility.preview and any(
                    g["last"] > visibility.now for g in allowed if "last" in g
                )
                for lower, upper in bounds:
                    if (lower is not None and last <= lower) or (
                        upper is not None and first >= upper
                    ):
                        continue
                    inside = (lower is None or first > lower) and (upper is None or last < upper)
                    if inside and not ahead:
                        left = _left_between(scope, visibility, key, first, last)
                        counted += role.sign * (sum(g["count"] for g in allowed) - left)
                    else:
                        across.append((role.sign, key, number, lower, upper))
    edges = [walk.listing_chunk_id(key, number, POSITION.name) for _, key, number, *_ in across]
    reads.read_missing(edges)
    for sign, key, number, lower, upper in across:
        entries = walk.listing_entries(reads, key, [number], POSITION.name, forward=True)
        counted += sign * sum(
            1
            for e in entries
            if walk.between(POSITION.key(e), lower, upper)
            and (visibility.preview or e[0] <= visibility.now)
            and scope.keeps(e[1], e[2], e[4], e[5], e[6])
        )
    return counted


def _left_between(scope: Scope, visibility: Visibility, key: Key, first: Bound, last: Bound) -> int:
    """The sources left out by id (Scope.left) that a chunk of a position listing counts in its
    tally: held by the listing, between the chunk's first and last entries (position, `_id`),
    published (any, in preview) and in a group the request lists (Scope.admits); known from
    their own fields, with no read."""
    return sum(
        1
        for source in scope.left
        if key in source.listings
        and first <= (source.position, source.source_id) <= last
        and (visibility.preview or _published(source.published_at, visibility.now))
        and scope.admits(list(source.realm_ids), source.visible, source.block, source.no_index)
    )


def _published(moment: datetime | None, now: datetime) -> bool:
    return moment is not None and moment <= now


def _side(group: dict[str, Any], lower: Bound | None, upper: Bound | None) -> int:
    """1 when a calendar group lies wholly inside the bounds, -1 wholly outside, 0 across."""
    least, most = (group["first"], -INF), (group["last"], INF)
    if (lower is not None and most <= lower) or (upper is not None and least >= upper):
        return -1
    return 1 if (lower is None or least >= lower) and (upper is None or most <= upper) else 0
