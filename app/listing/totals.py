"""Totals of plain requests with a span (app/listing/plain.py): a span of dates from the
calendar but for the months across its edges, counted from their entries in the date listing
(`span_total`); a range of positions (or any of several) from the tallies of the position
listings but for the chunks across its bounds, counted from their entries (`position_total`).
The reads follow the span's edges, not the site.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from app.listing import walk
from app.listing.scopes import INF, Scope
from app.listing.walk import DATE, POSITION, Bound, Chunk, Entry, Key, Order, Reads
from app.membership import group_key
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
    the scope's groups that count (Role.sign), each once; within a span of dates
    (Scope.dates), the chunk 0 of their date listings too (`rectangle_total`)."""
    keys = [key for _, key in _counted(scope, visibility)]
    found = [walk.tally_doc_id(key) for key in keys]
    if scope.dates is not None:
        found += [walk.listing_chunk_id(key, 0, DATE.name) for key in keys]
    return list(dict.fromkeys(found))


def _counted(scope: Scope, visibility: Visibility) -> list[tuple[int, Key]]:
    """The listings of the scope's groups that count (not those only walked), with the sign
    each counts with (Role.sign)."""
    return [
        (role.sign, key)
        for role in scope.groups
        if role.sign
        for key in scope.listings(role, visibility.preview)
    ]


def rectangle_total(reads: Reads, scope: Scope) -> int:
    """The sources of a range of positions (or any of several) within a span of dates
    (Scope.dates) the request may see, per listing that counts (combined by sign, as the
    calendars are), from its tally, its date listing's chunk 0 (read already) and its grid
    (app/fixture/listings.py): the position chunks wholly inside the range by the date chunks
    wholly inside the span (up to now, outside preview) from the difference of two rows of the
    grid (less the sources left out by id among them); the position chunks across the range's
    bounds, and the date chunks across the span's (and now) for the positions of the chunks
    between, from their entries. The rows and the chunks across are read in one read. So the
    reads are two rows and the chunks of the four edges, whatever the size of the range and of
    the span."""
    visibility = reads.visibility
    dates = walk.window(scope, visibility, DATE, descending=False)
    parts: list[_Rectangle] = []
    for sign, key in _counted(scope, visibility):
        tally = reads.get(walk.tally_doc_id(key))
        head = reads.get(walk.listing_chunk_id(key, 0, DATE.name))
        if not tally or not tally["chunks"] or head is None:
            continue
        inner_dates, date_edges = _date_chunks(head, dates)
        for part in walk.per_range(scope):
            positions = walk.window(part, visibility, POSITION, descending=False)
            inner, edges = _position_chunks(tally, scope, *positions)
            parts.append(_Rectangle(sign, key, positions, inner, edges, inner_dates,
                                    date_edges if inner else [], head, tally))  # fmt: skip
    reads.read_missing([chunk_id for part in parts for chunk_id in part.to_read()])
    return sum(part.sign * part.count(reads, scope) for part in parts)


@dataclass(frozen=True)
class _Rectangle:
    """One listing's share of a range of positions within a span of dates (`rectangle_total`):
    its position chunks wholly inside the range (`inner`) and across its bounds (`edges`), its
    date chunks wholly inside the span (`inner_dates`) and across it (`date_edges`: read only for
    the positions of the inner chunks, none without them)."""

    sign: int
    key: Key
    positions: tuple[Bound | None, Bound | None]
    inner: list[int]
    edges: list[int]
    inner_dates: list[int]
    date_edges: list[int]
    head: Chunk
    tally: Chunk

    def to_read(self) -> list[str]:
        """The grid rows and the chunks across the edges it counts from."""
        found = [walk.listing_chunk_id(self.key, n, POSITION.name) for n in self.edges]
        found += [walk.listing_chunk_id(self.key, n, DATE.name) for n in self.date_edges]
        if self.inner and self.inner_dates:
            rows = (self.inner[0] - 1, self.inner[-1])
            found += [walk.grid_row_id(self.key, n) for n in rows if n >= 0]
        return found

    def count(self, reads: Reads, scope: Scope) -> int:
        """Its sources the request may see (walk.shown)."""
        visibility = reads.visibility

        def kept(entries: Iterator[Entry], positions: tuple[Bound | None, Bound | None]) -> int:
            return sum(
                1
                for e in entries
                if walk.between(POSITION.key(e), *positions) and walk.shown(scope, visibility, e)
            )

        counted = kept(self._entries(reads, self.edges, POSITION), self.positions)
        if not self.inner:
            return counted
        # the positions of the inner chunks, as exclusive marks: just outside the first and last
        first, _ = _tally_bounds(self.tally["chunks"][self.inner[0]])
        _, last = _tally_bounds(self.tally["chunks"][self.inner[-1]])
        between = (walk.just_past(first, descending=True), walk.just_past(last, descending=False))
        counted += kept(self._entries(reads, self.date_edges, DATE), between)
        if not self.inner_dates:
            return counted
        below = _row(reads, self.key, self.inner[0] - 1)
        for key, group in _row(reads, self.key, self.inner[-1]).items():
            if scope.allows(group):
                before = below.get(key, {"counts": [0] * len(group["counts"])})["counts"]
                counted += sum(group["counts"][n] - before[n] for n in self.inner_dates)
        starts = walk.chunk_starts(self.head, DATE)
        # the date keys of the inner date chunks: from the next chunk's first to their first
        newest, older = starts[self.inner_dates[0]], starts[self.inner_dates[-1] + 1]
        return counted - sum(
            1
            for source in scope.left
            if self.key in source.listings
            and walk.between((source.position, source.source_id), *between)
            and older < (walk.dated(source.published_at), source.source_id) <= newest
            and scope.admits(list(source.realm_ids), source.visible, source.block, source.no_index)
        )

    def _entries(self, reads: Reads, numbers: list[int], order: Order) -> Iterator[Entry]:
        return itertools.chain.from_iterable(
            walk.listing_entries(reads, self.key, [n], order.name, forward=True) for n in numbers
        )


def _row(reads: Reads, key: Key, number: int) -> dict[tuple[Any, ...], dict[str, Any]]:
    """A grid row's groups by their key (none before the first chunk), read already."""
    return _cells(reads, walk.grid_row_id(key, number) if number >= 0 else None)


def _cells(reads: Reads, grid_id: str | None) -> dict[tuple[Any, ...], dict[str, Any]]:
    """A grid row's or column's groups by their key (none: no such document), read already."""
    found = reads.get(grid_id) if grid_id is not None else None
    return {group_key(g): g for g in (found["groups"] if found else ())}


# one listing's range of positions: its bounds (exclusive marks), its position chunks wholly
# inside it and those across them (`_position_chunks`)
_Part = tuple[Key, tuple[Bound | None, Bound | None], list[int], list[int]]


def _range_parts(reads: Reads, scope: Scope, keys: list[Key]) -> list[_Part]:
    """Each range of a scope (walk.per_range) in each listing of `keys`, from its tally (read
    already)."""
    found: list[_Part] = []
    for key in keys:
        tally = reads.get(walk.tally_doc_id(key))
        for part in walk.per_range(scope) if tally else ():
            positions = walk.window(part, reads.visibility, POSITION, descending=False)
            found.append((key, positions, *_position_chunks(tally, scope, *positions)))
    return found


class Counting(NamedTuple):
    """What counts a span's entries per chunk of the other order's listings: the chunks across
    its bounds (`edges`: those its total reads too) and the grid documents (`grids`)."""

    edges: list[str]
    grids: list[str]

    def ids(self) -> list[str]:
        return [*self.edges, *self.grids]


def range_reads(reads: Reads, scope: Scope, keys: list[Key]) -> Counting:
    """What `range_counts` reads of the listings `keys` once their tallies are read: the
    position chunks across each range's bounds (those a total of the range reads too:
    `position_total`) and two grid rows per range (before its first whole position chunk and of
    its last)."""
    found = Counting([], [])
    for key, _, inner, edges in _range_parts(reads, scope, keys):
        found.edges.extend(walk.listing_chunk_id(key, n, POSITION.name) for n in edges)
        rows = (inner[0] - 1, inner[-1]) if inner else ()
        found.grids.extend(walk.grid_row_id(key, n) for n in rows if n >= 0)
    return found


def range_counts(
    reads: Reads,
    scope: Scope,
    numbers: dict[Key, list[int]],
    dates: tuple[Bound | None, Bound | None],
) -> dict[Key, dict[int, int]]:
    """How many entries of a range of positions (or any of several; within a span of dates too)
    each chunk of a walked date listing (`numbers`: its chunks in the window) holds in the groups
    the request may see, for the chunks wholly inside the window's dates (`dates`, ascending
    exclusive marks: walk.window); the others (across its bounds) are not known. From the
    listing's tally (read if not yet), then, in one read, what `range_reads` names: the
    difference of the two rows gives the sources of the position chunks between in each date
    chunk, the chunks across the range's bounds are counted from their entries. The sources left
    out by id are counted too (a walk reads past as many). So a page by date of a sparse range
    reads the date chunks holding it, not the range (app/listing/listings.py)."""
    visibility = reads.visibility
    keys = list(numbers)
    reads.read_missing([walk.tally_doc_id(key) for key in keys])
    reads.read_missing(range_reads(reads, scope, keys).ids())
    found: dict[Key, dict[int, int]] = {}
    for key, positions, inner, edges in _range_parts(reads, scope, keys):
        head = reads.get(walk.listing_chunk_id(key, 0, DATE.name))
        if head is None:
            continue
        inner_dates, _ = _date_chunks(head, dates)
        counts = found.setdefault(key, dict.fromkeys(inner_dates, 0))
        starts = walk.chunk_starts(head, DATE)[::-1]  # oldest chunk's first entry first
        for number in edges:
            for e in walk.listing_entries(reads, key, [number], POSITION.name, forward=True):
                if walk.between(POSITION.key(e), *positions) and walk.shown(scope, visibility, e):
                    # chunk n holds the keys after the next chunk's first entry up to its own
                    date_chunk = len(starts) - 1 - bisect.bisect_left(starts, DATE.key(e))
                    if date_chunk in counts:
                        counts[date_chunk] += 1
        if not inner:
            continue
        below = _row(reads, key, inner[0] - 1)
        for group_id, group in _row(reads, key, inner[-1]).items():
            if scope.allows(group):
                before = below.get(group_id, {"counts": [0] * len(group["counts"])})["counts"]
                for number in inner_dates:
                    counts[number] += group["counts"][number] - before[number]
    return found


def span_reads(reads: Reads, scope: Scope, keys: list[Key]) -> Counting:
    """What `span_counts` reads of the listings `keys` once their date listings' chunks 0 are
    read: the date chunks across the span's bounds (and now: those a total of the span within a
    range reads too, `rectangle_total`) and two grid columns (before the span's first whole
    date chunk and of its last)."""
    found = Counting([], [])
    for key, inner_dates, date_edges in _date_parts(reads, scope, keys):
        found.edges.extend(walk.listing_chunk_id(key, n, DATE.name) for n in date_edges)
        columns = (inner_dates[0] - 1, inner_dates[-1]) if inner_dates else ()
        found.grids.extend(walk.grid_column_id(key, n) for n in columns if n >= 0)
    return found


def _date_parts(
    reads: Reads, scope: Scope, keys: list[Key]
) -> Iterator[tuple[Key, list[int], list[int]]]:
    """Each listing of `keys` whose date listing has a chunk 0 (read already), with its date
    chunks wholly inside the scope's span of dates (a span, or Scope.dates; up to now outside
    preview) and those across its bounds (`_date_chunks`)."""
    dates = walk.window(scope, reads.visibility, DATE, descending=False)
    for key in keys:
        head = reads.get(walk.listing_chunk_id(key, 0, DATE.name))
        if head is not None:
            yield key, *_date_chunks(head, dates)


def span_counts(
    reads: Reads,
    scope: Scope,
    numbers: dict[Key, list[int]],
    positions: tuple[Bound | None, Bound | None],
) -> dict[Key, dict[int, int]]:
    """How many entries of a span of dates (or of a range of positions within one) each chunk of
    a walked position listing (`numbers`: its chunks in the window) holds in the groups the
    request may see, for the chunks wholly inside the window's positions (`positions`,
    ascending exclusive marks: walk.window); the others are not known. Read in one read, what
    `span_reads` names: the difference of the two columns gives the sources of the date chunks
    between in each position chunk, the date chunks across the span's bounds are counted from
    their entries. The sources left out by id are counted too (a walk reads past as many). So a
    page by position of a narrow span reads the position chunks holding it, not the span
    (app/listing/listings.py)."""
    visibility = reads.visibility
    keys = list(numbers)
    reads.read_missing(span_reads(reads, scope, keys).ids())
    dates = walk.window(scope, visibility, DATE, descending=False)
    found: dict[Key, dict[int, int]] = {}
    for key, inner_dates, date_edges in _date_parts(reads, scope, keys):
        head = reads.get(walk.listing_chunk_id(key, 0, POSITION.name))
        if head is None:
            continue
        starts = walk.chunk_starts(head, POSITION)
        counts = found.setdefault(key, dict.fromkeys(_inside(starts, *positions), 0))
        for number in date_edges:
            for e in walk.listing_entries(reads, key, [number], DATE.name, forward=True):
                if (
                    walk.between(DATE.key(e), *dates)
                    and walk.between(POSITION.key(e), *positions)
                    and walk.shown(scope, visibility, e)
                ):
                    # chunk n holds the keys from its first entry to the next chunk's first
                    position_chunk = bisect.bisect_right(starts, POSITION.key(e)) - 1
                    if position_chunk in counts:
                        counts[position_chunk] += 1
        if not inner_dates:
            continue
        first = inner_dates[0] - 1  # the column before the first, none before chunk 0
        before = _cells(reads, walk.grid_column_id(key, first) if first >= 0 else None)
        for group_id, group in _cells(reads, walk.grid_column_id(key, inner_dates[-1])).items():
            if scope.allows(group):
                below = before.get(group_id, {"counts": [0] * len(group["counts"])})["counts"]
                for number in counts:
                    counts[number] += group["counts"][number] - below[number]
    return found


def _inside(starts: list[Bound], lower: Bound | None, upper: Bound | None) -> list[int]:
    """The chunks of a listing stored ascending (`starts`: each chunk's first entry) wholly
    inside exclusive marks: chunk n holds the keys from its first entry to before the next
    chunk's; the last one's end is not recorded, so it is inside only with no upper mark."""
    return [
        number
        for number, first in enumerate(starts)
        if (lower is None or first > lower)
        and (upper is None or (number + 1 < len(starts) and starts[number + 1] <= upper))
    ]


def _tally_bounds(chunk: dict[str, Any]) -> tuple[Bound, Bound]:
    """The keys (position, `_id`) of the first and last entries of a tally's chunk."""
    return (
        (chunk["from"]["position"], chunk["from"]["id"]),
        (chunk["to"]["position"], chunk["to"]["id"]),
    )


def _date_chunks(
    head: Chunk, dates: tuple[Bound | None, Bound | None]
) -> tuple[list[int], list[int]]:
    """The chunks of a date listing (stored newest first; `head`: its chunk 0) wholly inside a
    span of dates (exclusive marks) and those across its bounds: chunk n holds the keys after
    the next chunk's first entry up to its own first (`starts`); the last one's earliest is not
    recorded, so it is across when the span reaches it."""
    lower, upper = dates
    starts = walk.chunk_starts(head, DATE)
    inner: list[int] = []
    across: list[int] = []
    for number, newest in enumerate(starts):
        older = starts[number + 1] if number + 1 < len(starts) else None
        if (lower is not None and newest <= lower) or (
            upper is not None and older is not None and older >= upper
        ):
            continue
        inside = (upper is None or newest < upper) and (
            older is not None and (lower is None or older >= lower)
        )
        (inner if inside else across).append(number)
    return inner, across


def _position_chunks(
    tally: Chunk, scope: Scope, lower: Bound | None, upper: Bound | None
) -> tuple[list[int], list[int]]:
    """The chunks of a position listing (its tally's) wholly inside a range of positions
    (exclusive marks) and those across its bounds that hold a source the request may see."""
    inner: list[int] = []
    across: list[int] = []
    for number, chunk in enumerate(tally["chunks"]):
        first, last = _tally_bounds(chunk)
        if (lower is not None and last <= lower) or (upper is not None and first >= upper):
            continue
        if (lower is None or first > lower) and (upper is None or last < upper):
            inner.append(number)
        elif any(scope.allows(g) for g in chunk["groups"]):
            across.append(number)
    return inner, across


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
                first, last = _tally_bounds(chunk)
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
            if walk.between(POSITION.key(e), lower, upper) and walk.shown(scope, visibility, e)
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
