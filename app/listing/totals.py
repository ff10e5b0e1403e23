"""Totals of plain requests with a span (app/listing/plain.py): a span of dates from the
calendar but for the months across its edges, counted from their entries in the date listing
(a dense one from its tally but for the chunks across its part's bounds: `span_count`); a range
of positions (or any of several) from the tallies of the position listings but for the chunks
across its bounds, counted from their entries (`position_total`). The reads follow the span's
edges, not the site.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from app.listing import passing, walk
from app.listing.scopes import INF, Scope
from app.listing.walk import DATE, DEFAULT, POSITION, Bound, Chunk, Entry, Key, Order, Reads
from app.membership import group_key
from app.publication import Visibility

# A month across a span's edges whose part inside the span lies in no more than this many chunks
# of each listing wholly inside it is counted from its entries (`span_count`): its chunks in one
# read, often those the page then walks. A denser one is counted chunk by chunk (`_by_chunks`):
# the date tally and the chunks across the part's bounds, whatever the sources the month holds,
# read with the page's first read (SpanCount).
WALKED_MONTH_CHUNKS = 4


@dataclass(frozen=True)
class SpanCount:
    """A total counted in two steps: what is counted already (`counted`), and the parts of dense
    months across a span's edges still to count chunk by chunk (`parts`: `_by_chunks`), whose
    documents (`to_read`) a page reads with its own first read (Reads.along). `most`: at least
    the total (for a dense month, the lesser of its groups' sources not wholly outside the span
    and what its listings that add hold in their part's chunks: `_Window.most`), so that a page
    past it reads nothing more; one between the total and it walks, and finds none. Any other
    total is known at once (`known`)."""

    counted: int
    parts: list[_Window]
    most: int

    @classmethod
    def known(cls, total: int) -> SpanCount:
        return cls(total, [], total)

    @property
    def to_read(self) -> list[str]:
        """What counting its parts reads (`_Window.to_read`)."""
        return _to_read(self.parts)

    def total(self, reads: Reads, scope: Scope) -> int:
        """The total, its documents read if the page's read did not (one read)."""
        return self.counted + (_by_chunks(reads, scope, self.parts) if self.parts else 0)


def span_count(reads: Reads, found: dict[str, Any], scope: Scope) -> SpanCount:
    """The sources of a span of dates the request may see. A month whose calendar groups (its
    sources of one realm set, with their first and last date) lie wholly inside or outside the
    span is counted from the calendar; a month where a group straddles a bound of the span or
    now (at most the months of the two bounds and of now) is counted, between the span's
    bounds and the month's first and last date, from its entries in the date listings, where
    they are contiguous, or, when its part holds more than WALKED_MONTH_CHUNKS chunks of a
    listing, chunk by chunk, later (SpanCount): the reads follow the span's edges, not the
    site."""
    lower, upper = walk.window(scope, reads.visibility, DATE, descending=False)
    by_chunks = _by_tallies(scope)
    parts: list[_Window] = []  # the months across, by chunks: each listing's share
    counted = held_across = 0
    for seen in _months(scope, (lower, upper), found):
        month, allowed, sides = seen
        if not seen.across:
            counted += sum(g["count"] for g, side in zip(allowed, sides, strict=True) if side > 0)
            continue
        # newest first from the month's last date (or the span's end) to its first (or start)
        least = (min(g["first"] for g in month["groups"]), -INF)
        most = (max(g["last"] for g in month["groups"]), INF)
        start = walk.least_of(upper, most)
        stop = least if lower is None else max(lower, least)
        shares = _windows(reads, scope, (stop, start)) if by_chunks else []
        if any(len(share.inner) > WALKED_MONTH_CHUNKS for share in shares):  # dense
            parts += shares
            # at least its part's: its groups not wholly outside, or its part's chunks' entries
            reaching = [
                abs(g["count"]) for g, side in zip(allowed, sides, strict=True) if side >= 0
            ]
            held_across += min(sum(reaching), sum(share.most(scope) for share in shares))
            continue
        # all of the month's (its chunks that hold some, in one read: not one a read)
        held = sum(g["count"] for g in month["groups"])
        kept = walk.kept_entries(reads, scope, DATE, True, start, stop, needed=held)
        counted += sum(1 for _ in kept)
    return SpanCount(counted, parts, counted + held_across)


def span_head_ids(scope: Scope, visibility: Visibility, found: dict[str, Any]) -> list[str]:
    """The `_id` of the date listings' chunks 0 that find where a span's months across its
    edges lie (`_by_chunks`), read with the page's chunks 0: those of each listing that
    counts; none for a scope whose months are walked (`_by_tallies`), nor when no month across
    the span's edges may be dense (`_may_be_dense`, from its calendar `found`)."""
    if not _by_tallies(scope) or not _may_be_dense(scope, visibility, found):
        return []
    keys = [key for _, key in _counted(scope, visibility)]
    return list(dict.fromkeys(walk.listing_chunk_id(key, 0, DATE.name) for key in keys))


def _may_be_dense(scope: Scope, visibility: Visibility, found: dict[str, Any]) -> bool:
    """Whether a month across a span's edges (`span_count`) may hold more than
    WALKED_MONTH_CHUNKS chunks of a listing that counts wholly inside its part (dense): it
    holds at least as many sources as one more chunk than that holds at least. A chunk wholly
    inside is never a listing's last (`_date_chunks`), so it is full: Scope.chunk entries, or
    Scope.head for chunk 0, at most one of them (either unknown: any month may). A listing that
    counts lists some of the month's sources (a scope counted by tallies counts each once:
    `_by_tallies`), of its own type and translation, so it holds no more entries in the month
    than the scope's calendar counts in all."""
    if scope.head is None or scope.chunk is None:
        return True
    least = WALKED_MONTH_CHUNKS * scope.chunk + min(scope.head, scope.chunk)
    bounds = walk.window(scope, visibility, DATE, descending=False)
    return any(
        sum(g["count"] for g in seen.month["groups"]) >= least
        for seen in _months(scope, bounds, found)
        if seen.across
    )


class _Month(NamedTuple):
    """A calendar month seen from a span (`_months`): its groups the scope allows and each
    one's side of the span's bounds (`_side`)."""

    month: dict[str, Any]
    allowed: list[dict[str, Any]]
    sides: list[int]

    @property
    def across(self) -> bool:
        """Whether one of its groups straddles a bound of the span (or now)."""
        return 0 in self.sides


def _months(
    scope: Scope, bounds: tuple[Bound | None, Bound | None], found: dict[str, Any]
) -> Iterator[_Month]:
    """The months of a calendar `found`, each with its groups the scope allows and their sides of
    a span's ascending exclusive `bounds` (walk.window)."""
    for month in found["months"]:
        allowed = [g for g in month["groups"] if scope.allows(g)]
        yield _Month(month, allowed, [_side(g, *bounds) for g in allowed])


def _by_tallies(scope: Scope) -> bool:
    """Whether the date listings of a scope's groups count its sources by sign, chunk by chunk:
    each source it lists counted once, none taken away (Scope.counts_once), every group with
    listings. Else its months across a span's edges are walked (`span_count`)."""
    return scope.counts_once and all(scope.has_listings(role) for role in scope.groups)


class _Window(NamedTuple):
    """One listing's share of a part of a month across a span's edges (`_by_chunks`): the
    part's ascending exclusive marks, the listing's date chunks wholly inside them and across."""

    sign: int
    key: Key
    marks: tuple[Bound, Bound]
    inner: range
    edges: list[int]

    def chunk_ids(self, numbers: Sequence[int]) -> list[str]:
        return [walk.listing_chunk_id(self.key, n, DATE.name) for n in numbers]

    def most(self, scope: Scope) -> float:
        """At least what it adds to a total (`_by_chunks`): none when it takes away (sign -1),
        else a full chunk (Scope.head or Scope.chunk entries) for each chunk inside or across
        its part, which holds all of the part's entries (no bound when either size is unknown)."""
        if self.sign < 0:
            return 0
        if scope.head is None or scope.chunk is None:
            return INF
        return (len(self.inner) + len(self.edges)) * max(scope.head, scope.chunk)

    def to_read(self) -> list[str]:
        """Its date tally (when chunks lie wholly inside) and its chunks across the bounds."""
        tally = [walk.tally_doc_id(self.key, DATE.name)] if self.inner else []
        return [*tally, *self.chunk_ids(self.edges)]


def _windows(reads: Reads, scope: Scope, marks: tuple[Bound, Bound]) -> list[_Window]:
    """Each listing that counts with its share of a part of a month across a span's edges
    (`marks`: ascending exclusive), from its date chunk 0 (none without one: no source); none
    at all unless every such chunk 0 is read (`span_head_ids` reads them only when a month may
    be dense), so that a dense month is counted by every listing that counts, or walked."""
    counted = _counted(scope, reads.visibility)
    heads = [walk.listing_chunk_id(key, 0, DATE.name) for _, key in counted]
    if reads.missing(heads):
        return []
    return [
        _Window(sign, key, marks, *_date_chunks(head, marks))
        for (sign, key), head_id in zip(counted, heads, strict=True)
        if (head := reads.get(head_id)) is not None
    ]


def _to_read(parts: Sequence[_Window | _Rectangle]) -> list[str]:
    """What counting these parts reads (their `to_read`)."""
    return [chunk_id for part in parts for chunk_id in part.to_read()]


def _by_chunks(reads: Reads, scope: Scope, parts: list[_Window]) -> int:
    """The sources the request may see in the parts of the months across a span's edges
    (`parts`: within the span, up to now outside preview: `span_count`), per listing that
    counts, combined by sign as the calendars are: its date chunks wholly inside a part from
    its date tally (allowed groups; none holds a source still to come: a part ends at now), the
    chunks across a part's bounds from their entries (those inside it, bisected:
    walk.listing_entries `within`). The tallies and the chunks across are read in one read, if
    the page's did not read them (a generation written before the date tallies: the chunks
    inside too, in one read more). So the entries looked at are those of at most two chunks per
    part, whatever the sources a month holds."""
    visibility = reads.visibility
    reads.read_missing(_to_read(parts))
    untallied = [p for p in parts if p.inner and not reads.get(walk.tally_doc_id(p.key, DATE.name))]
    reads.read_missing([c for part in untallied for c in part.chunk_ids(part.inner)])
    counted = 0
    for part in parts:
        walked = part.edges
        if part in untallied:
            walked = [*part.inner, *part.edges]
        elif part.inner:
            rows = reads.get(walk.tally_doc_id(part.key, DATE.name))["chunks"]  # type: ignore[index]
            counted += part.sign * sum(
                g["count"] for n in part.inner for g in rows[n]["groups"] if scope.allows(g)
            )
        entries = walk.listing_entries(reads, part.key, walked, DATE.name, True, within=part.marks)
        counted += part.sign * sum(1 for e in entries if walk.shown(scope, visibility, e))
    return counted


def tally_ids(scope: Scope, visibility: Visibility, order: Order) -> list[str]:
    """The `_id` of what finds the chunks of each position listing a range of positions counts
    (those of the scope's groups that count, Role.sign, each once: `_PositionChunks`): its tally;
    within a span of dates (Scope.dates), the chunk 0 of their date listings too
    (`rectangle_total`), and, for a page by position, their own chunk 0 in place of the tally
    (the page reads the chunks 0 of its order anyway, and a tally holds an entry per chunk)."""
    keys = [key for _, key in _counted(scope, visibility)]
    if scope.dates is not None and order.name == POSITION.name:
        found = [walk.listing_chunk_id(key, 0, POSITION.name) for key in keys]
    else:
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
    calendars are), from its position chunks (`_PositionChunks`), its date listing's chunk 0
    (read already) and its grid (app/fixture/listings.py): the position chunks wholly inside
    the range by the date chunks wholly inside the span (up to now, outside preview) from the
    difference of two rows of the grid (less the sources left out by id among them); the
    position chunks across the range's
    bounds, and the date chunks across the span's (and now) for the positions of the chunks
    between, from their entries. The rows and the chunks across are read in one read. So the
    reads are two rows and the chunks of the four edges, whatever the size of the range and of
    the span."""
    visibility = reads.visibility
    dates = walk.window(scope, visibility, DATE, descending=False)
    parts: list[_Rectangle] = []
    for sign, key in _counted(scope, visibility):
        chunks = _PositionChunks.of(reads, key)
        head = reads.get(walk.listing_chunk_id(key, 0, DATE.name))
        if chunks is None or head is None:
            continue
        inner_dates, date_edges = _date_chunks(head, dates)
        for part in walk.per_range(scope):
            positions = walk.window(part, visibility, POSITION, descending=False)
            inner, edges = chunks.split(scope, *positions)
            parts.append(_Rectangle(sign, key, positions, dates, inner, edges, inner_dates,
                                    date_edges if inner else [], head, chunks))  # fmt: skip
    reads.read_missing(_to_read(parts))
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
    dates: tuple[Bound | None, Bound | None]
    inner: Sequence[int]
    edges: list[int]
    inner_dates: Sequence[int]
    date_edges: list[int]
    head: Chunk
    chunks: _PositionChunks

    def to_read(self) -> list[str]:
        """The grid rows and the chunks across the edges it counts from."""
        found = [walk.listing_chunk_id(self.key, n, POSITION.name) for n in self.edges]
        found += [walk.listing_chunk_id(self.key, n, DATE.name) for n in self.date_edges]
        if self.inner and self.inner_dates:
            rows = (self.inner[0] - 1, self.inner[-1])
            found += [walk.grid_doc_id(self.key, n, POSITION, DATE) for n in rows if n >= 0]
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

        counted = kept(self._entries(reads, self.edges, POSITION, self.positions), self.positions)
        if not self.inner:
            return counted
        between = self.chunks.around(self.inner)
        counted += kept(self._entries(reads, self.date_edges, DATE, self.dates), between)
        if not self.inner_dates:
            return counted
        run = (self.inner[0], self.inner[-1])
        counted += sum(_between(reads, scope, self.key, run, POSITION, DATE,
                                self.inner_dates).values())  # fmt: skip
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

    def _entries(
        self,
        reads: Reads,
        numbers: list[int],
        order: Order,
        within: tuple[Bound | None, Bound | None],
    ) -> Iterator[Entry]:
        """The entries of chunks `numbers` in `order` strictly within its marks `within`."""
        return walk.listing_entries(reads, self.key, numbers, order.name, True, within=within)


def _between(
    reads: Reads,
    scope: Scope,
    key: Key,
    run: tuple[int, int],
    spanned: Order,
    walked: Order,
    numbers: Sequence[int],
) -> dict[int, int]:
    """The sources of chunks `run` (first, last) of a listing in the `spanned` order, of the
    groups the request may see, in each chunk `numbers` of its `walked` order's: the difference
    of two grid documents (the one before the first, none before chunk 0, and the last's), read
    already."""
    first, last = run
    below = _cells(reads, walk.grid_doc_id(key, first - 1, spanned, walked) if first else None)
    found = dict.fromkeys(numbers, 0)
    for group_id, group in _cells(reads, walk.grid_doc_id(key, last, spanned, walked)).items():
        if scope.allows(group):
            before = below.get(group_id, {"counts": [0] * len(group["counts"])})["counts"]
            for number in numbers:
                found[number] += group["counts"][number] - before[number]
    return found


def _cells(reads: Reads, grid_id: str | None) -> dict[tuple[Any, ...], dict[str, Any]]:
    """A grid document's groups by their key (none: no such document), read already."""
    found = reads.get(grid_id) if grid_id is not None else None
    return {group_key(g): g for g in (found["groups"] if found else ())}


class _Part(NamedTuple):
    """One listing's share of a span counted per chunk of another order (`chunk_counts`): the
    span's bounds in its own order (exclusive marks), the first and last of that order's chunks
    wholly inside it, counted from the grid (None: none), the chunks across its bounds, counted
    from their entries, and the chunks inside whose sources still to come are taken away from
    the grid's counts (`ahead`: by position in the default order)."""

    key: Key
    bounds: tuple[Bound | None, Bound | None]
    inner: tuple[int, int] | None
    edges: list[int]
    ahead: list[int]


def _parts(
    reads: Reads, scope: Scope, keys: list[Key], spanned: Order, walked: Order
) -> list[_Part]:
    """Each listing of `keys` with its share of the scope's span in the `spanned` order: of a
    range of positions (each of several: walk.per_range), from its tally (read already), in the
    default order with the chunks inside that hold a source still to come (the `id` order does
    not set those apart, as the date order does: walk.ahead); of a span of dates (a span, or
    Scope.dates; up to now outside preview), from its date listing's chunk 0 (read already:
    `_date_chunks`)."""
    visibility = reads.visibility
    found: list[_Part] = []
    if spanned.name == DATE.name:
        dates = walk.window(scope, visibility, DATE, descending=False)
        for key in keys:
            head = reads.get(walk.listing_chunk_id(key, 0, DATE.name))
            if head is not None:
                inner, edges = _date_chunks(head, dates)
                found.append(_Part(key, dates, _first_last(inner), edges, []))
        return found
    for key in keys:
        chunks = _PositionChunks.of(reads, key)
        if chunks is None or (walked.name == DEFAULT.name and chunks.tally is None):
            continue  # the default order sets apart the chunks ahead by their tallies
        for part in walk.per_range(scope):
            positions = walk.window(part, visibility, POSITION, descending=False)
            inner, edges = chunks.split(scope, *positions)
            ahead = [
                number
                for number in inner
                if walked.name == DEFAULT.name
                and walk.ahead(chunks.allowed(scope, number), visibility)
            ]
            found.append(_Part(key, positions, _first_last(inner), edges, ahead))
    return found


def _first_last(numbers: Sequence[int]) -> tuple[int, int] | None:
    """The first and last of consecutive chunk numbers (None: none)."""
    return (numbers[0], numbers[-1]) if numbers else None


class Counting(NamedTuple):
    """What counts a span's entries per chunk of another order's listings: the chunks across
    its bounds (`edges`: those its total reads too) and the grid documents (`grids`)."""

    edges: list[str]
    grids: list[str]

    def ids(self) -> list[str]:
        return [*self.edges, *self.grids]


def counting_reads(
    reads: Reads, scope: Scope, keys: list[Key], spanned: Order, walked: Order
) -> Counting:
    """What `chunk_counts` reads of the listings `keys` once their tallies (a range of
    positions) or their date listings' chunks 0 (a span of dates) are read: the chunks across
    the span's bounds in its own order (those a total of the span reads too: `position_total`,
    `rectangle_total`; by position in the default order, with the chunks inside holding a source
    still to come, which `position_total` reads too) and the two grid documents that count the
    chunks wholly inside it."""
    found = Counting([], [])
    for part in _parts(reads, scope, keys, spanned, walked):
        chunks = [*part.edges, *part.ahead]
        found.edges.extend(walk.listing_chunk_id(part.key, n, spanned.name) for n in chunks)
        if part.inner is not None:
            first, last = part.inner
            found.grids.extend(
                walk.grid_doc_id(part.key, n, spanned, walked) for n in (first - 1, last) if n >= 0
            )
    return found


def chunk_counts(
    reads: Reads,
    scope: Scope,
    numbers: dict[Key, list[int]],
    window: tuple[Bound | None, Bound | None],
    spanned: Order,
    walked: Order,
) -> dict[Key, dict[int, int]]:
    """How many entries of a span in the `spanned` order (a range of positions, or any of
    several, within a span of dates too; or a span of dates, or a range of positions within one)
    each chunk of a listing in the `walked` order (`numbers`: its chunks in the window) holds in
    the groups the request may see, for the chunks wholly inside the window (`window`, ascending
    exclusive marks: walk.window); the others (across its bounds) are not known. Read in one
    read (a range's tallies first if not yet), what `counting_reads` names: the difference of two
    grid documents gives the sources of the chunks between in each walked chunk (less, by
    position in the default order, those still to come of the chunks holding some, from their
    entries), the chunks across the span's bounds are counted from their entries. The sources
    left out by id are counted too (a walk reads past as many). So a page of a sparse span in
    another order reads the chunks holding it, not the span (app/listing/listings.py)."""
    visibility = reads.visibility
    keys = list(numbers)
    if spanned.name == POSITION.name:
        reads.read_missing([walk.tally_doc_id(key) for key in keys])
    reads.read_missing(counting_reads(reads, scope, keys, spanned, walked).ids())
    found: dict[Key, dict[int, int]] = {}
    for part in _parts(reads, scope, keys, spanned, walked):
        head = reads.get(walk.listing_chunk_id(part.key, 0, walked.name))
        if head is None:
            continue
        inside, chunk_of = _walked_chunks(head, walked, window)
        counts = found.setdefault(part.key, dict.fromkeys(inside, 0))

        for numbers, step in ((part.edges, 1), (part.ahead, -1)):
            # across the span's bounds, only its entries inside them count
            within = part.bounds if step > 0 else None
            for e in walk.listing_entries(reads, part.key, numbers, spanned.name, True,
                                          within=within):  # fmt: skip
                number = chunk_of(walked.key(e))
                if not walk.between(walked.key(e), *window) or number not in counts:
                    continue
                if step > 0:  # across the span's bounds: those in it the request lists
                    kept = walk.between(spanned.key(e), *part.bounds)
                    counts[number] += kept and walk.shown(scope, visibility, e)
                elif e[0] > visibility.now and scope.admits(e[2], e[4], e[5], e[6]):
                    counts[number] -= 1  # counted by the grid, not shown yet
        if part.inner is not None:
            for number, count in _between(reads, scope, part.key, part.inner, spanned, walked,
                                          list(counts)).items():  # fmt: skip
                counts[number] += count
    return found


def _walked_chunks(
    head: Chunk, walked: Order, window: tuple[Bound | None, Bound | None]
) -> tuple[Sequence[int], Callable[[Any], int]]:
    """The chunks of a listing in the `walked` order (`head`: its chunk 0) wholly inside a
    window (ascending exclusive marks), and the chunk that holds a key: stored ascending, chunk n
    holds the keys from its first entry to before the next chunk's; by date (newest first), the
    keys after the next chunk's first entry up to its own."""
    starts = walk.chunk_starts(head, walked)
    inside = _date_chunks(head, window)[0] if walked.name == DATE.name else _inside(starts, *window)
    return inside, lambda key: starts.leading(key, inclusive=True) - 1


def _inside(starts: walk.Starts, lower: Bound | None, upper: Bound | None) -> range:
    """The chunks of a listing stored ascending (`starts`: each chunk's first entry) wholly
    inside exclusive marks: chunk n holds the keys from its first entry to before the next
    chunk's; the last one's end is not recorded, so it is inside only with no upper mark."""
    first = starts.leading(lower, inclusive=True) if lower is not None else 0
    last = starts.leading(upper, inclusive=True) - 1 if upper is not None else len(starts)
    return range(first, max(first, last))


def _tally_bounds(chunk: dict[str, Any]) -> tuple[Bound, Bound]:
    """The keys (position, `_id`) of the first and last entries of a tally's chunk."""
    return (
        (chunk["from"]["position"], chunk["from"]["id"]),
        (chunk["to"]["position"], chunk["to"]["id"]),
    )


def _date_chunks(head: Chunk, dates: tuple[Bound | None, Bound | None]) -> tuple[range, list[int]]:
    """The chunks of a date listing (stored newest first; `head`: its chunk 0) wholly inside a
    span of dates (exclusive marks) and those across its bounds: chunk n holds the keys after
    the next chunk's first entry up to its own first (`starts`); the last one's earliest is not
    recorded, so it is across when the span reaches it. Bisected: a span costs the same in a
    listing of any length."""
    lower, upper = dates
    starts = walk.chunk_starts(head, DATE)
    # newest at or past `upper`: before it; their next chunk's keys may reach past it
    past_upper = starts.leading(upper, inclusive=True) if upper is not None else 0
    from_lower = starts.leading(lower, inclusive=True) if lower is not None else len(starts)
    after_lower = starts.leading(lower, inclusive=False) if lower is not None else len(starts)
    reached = range(max(past_upper - 1, 0), after_lower)  # holding some keys of the span
    # wholly inside: its newest before `upper`, its older (the next chunk's first) from `lower`
    return _split(reached, past_upper, min(len(starts), from_lower) - 1)


@dataclass(frozen=True)
class _PositionChunks:
    """The chunks of a position listing as a range of positions finds them: from its tally when
    read (each chunk's first and last key, and its groups: a chunk across the range's bounds that
    holds no source the request may see is left out), else from its chunk 0's starts (chunk n
    holds the keys from its first entry to before the next chunk's; a chunk whose keys end below
    a bound but whose next chunk starts past it counts as across it, read and counted from its
    entries). Bisected either way (the keys ascend): a range costs the same in a listing of any
    length."""

    tally: Chunk | None
    starts: walk.Starts | None

    @classmethod
    def of(cls, reads: Reads, key: Key) -> _PositionChunks | None:
        """From what is read of the listing `key` (None: neither, or no chunk)."""
        tally = reads.get(walk.tally_doc_id(key))
        if tally is not None:
            return cls(tally, None) if tally["chunks"] else None
        head = reads.get(walk.listing_chunk_id(key, 0, POSITION.name))
        return cls(None, walk.chunk_starts(head, POSITION)) if head is not None else None

    def split(
        self, scope: Scope, lower: Bound | None, upper: Bound | None
    ) -> tuple[range, list[int]]:
        """Its chunks wholly inside a range of positions (exclusive marks) and those across its
        bounds that may hold a source the request may see."""
        if self.tally is None:
            starts = self.starts
            assert starts is not None
            reached = range(
                max(starts.leading(lower, inclusive=True) - 1, 0) if lower is not None else 0,
                starts.leading(upper, inclusive=False) if upper is not None else len(starts),
            )
            inside = _inside(starts, lower, upper)
            return _split(reached, inside.start, inside.stop)
        chunks = self.tally["chunks"]

        def first(chunk: dict[str, Any]) -> Bound:
            return _tally_bounds(chunk)[0]

        def last(chunk: dict[str, Any]) -> Bound:
            return _tally_bounds(chunk)[1]

        reached = range(
            bisect.bisect_right(chunks, lower, key=last) if lower is not None else 0,
            bisect.bisect_left(chunks, upper, key=first) if upper is not None else len(chunks),
        )
        inner, across = _split(
            reached,
            bisect.bisect_right(chunks, lower, key=first) if lower is not None else 0,
            bisect.bisect_left(chunks, upper, key=last) if upper is not None else len(chunks),
        )
        return inner, [n for n in across if self.allowed(scope, number=n)]

    def allowed(self, scope: Scope, number: int) -> list[dict[str, Any]]:
        """The groups of chunk `number` the request may see, from the tally (read)."""
        assert self.tally is not None
        return [g for g in self.tally["chunks"][number]["groups"] if scope.allows(g)]

    def around(self, inner: Sequence[int]) -> tuple[Bound, Bound | None]:
        """The keys of consecutive chunks (`inner`, some) as exclusive marks: just before the
        first one's first key, and just past the last one's last key (from the starts: the next
        chunk's first key; none past the last chunk)."""
        if self.tally is None:
            assert self.starts is not None
            starts = self.starts
            following = starts[inner[-1] + 1] if inner[-1] + 1 < len(starts) else None
            return walk.just_past(starts[inner[0]], descending=True), following
        first, _ = _tally_bounds(self.tally["chunks"][inner[0]])
        _, last = _tally_bounds(self.tally["chunks"][inner[-1]])
        return walk.just_past(first, descending=True), walk.just_past(last, descending=False)


def _split(reached: range, start: int, stop: int) -> tuple[range, list[int]]:
    """The chunks a span reaches (`reached`, consecutive) wholly inside it (from `start` to
    before `stop`) and the others, across its bounds (the few at its ends)."""
    inner = range(max(start, reached.start), max(min(stop, reached.stop), start, reached.start))
    if not inner:
        return inner, list(reached)
    return inner, [*range(reached.start, inner.start), *range(inner.stop, reached.stop)]


def position_total(reads: Reads, scope: Scope) -> int:
    """The sources of a span of positions the request may see, from the tallies of its groups'
    position listings (read already), combined by sign (Role.sign) as the calendars are: a chunk
    wholly inside the span whose allowed groups hold nothing still to come (their last
    published_at is past; any, in preview) is counted from its tally, less the sources left out
    by id that it holds (`passing.left_between`), one wholly outside not at all, and the others
    (at most the two across the span's bounds, and those holding a source scheduled ahead) from
    their entries, read in one read. So the reads are the tallies and the chunks of the span's
    edges, not the span."""
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
                ahead = walk.ahead(allowed, visibility)
                for lower, upper in bounds:
                    if (lower is not None and last <= lower) or (
                        upper is not None and first >= upper
                    ):
                        continue
                    inside = (lower is None or first > lower) and (upper is None or last < upper)
                    if inside and not ahead:
                        marks = walk.just_past(first, True), walk.just_past(last, False)
                        left = passing.left_between(scope, visibility, key, POSITION, *marks)
                        counted += role.sign * (sum(g["count"] for g in allowed) - left)
                    else:
                        across.append((role.sign, key, number, lower, upper))
    edges = [walk.listing_chunk_id(key, number, POSITION.name) for _, key, number, *_ in across]
    reads.read_missing(edges)
    for sign, key, number, lower, upper in across:
        entries = walk.listing_entries(
            reads, key, [number], POSITION.name, forward=True, within=(lower, upper)
        )
        counted += sign * sum(1 for e in entries if walk.shown(scope, visibility, e))
    return counted


def _side(group: dict[str, Any], lower: Bound | None, upper: Bound | None) -> int:
    """1 when a calendar group lies wholly inside the bounds, -1 wholly outside, 0 across."""
    least, most = (group["first"], -INF), (group["last"], INF)
    if (lower is not None and most <= lower) or (upper is not None and least >= upper):
        return -1
    return 1 if (lower is None or least >= lower) and (upper is None or most <= upper) else 0
