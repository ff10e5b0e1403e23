"""Walking the materialised listings (app/fixture/listings.py): a listing's chunks read as entries
in reading order, and what a plain request keeps of them (app/listing/listings.py pages them,
app/listing/totals.py counts spans from them).

A listing is one type, translation, group and visibility class (Key) in one order (Order: by
date, by position, or by `_id`); its chunk 0 names the first entry of every chunk (`starts`), so
`chunk_numbers` tells which chunks hold a window of keys (`window`: a span, now, a cursor) and
`chunks_needed` how many of them hold a page. `kept_entries` merges a scope's listings in
reading order (a second or third tag's side by side, an entry in several once: `_union`; what
the scope leaves out dropped: `_less`), reading a chunk only when it is reached, and keeps the
entries the request may see: published (any, in preview), in realms it may see, not left out by
id. What a request has read is its `Reads` (the chunks by `_id`, each read once; those known up
front in one read: `Reads.read_missing`), passed from function to function.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.listing.scopes import INF, Scope
from app.membership import Listing
from app.publication import Visibility
from app.query_plan import (
    LISTING_ORDERS,
    UNDATED,
    column_id,
    grid_id,
    id_grid_id,
    listing_id,
    tally_id,
)
from app.store import Generation

# (published_at, source id, realm ids, node position, node visible, a block in a realm, not to be
# indexed: Scope.admits)
Entry = tuple[Any, int, list[int], int | None, bool, bool, bool]
# (type or ALL_TYPES, translation, group, preview class): one listing
Key = Listing
Bound = Any  # a mark in an order's key space (Order.key), exclusive
# a listing chunk or tally as stored (app/fixture/listings.py)
Chunk = dict[str, Any]


@dataclass
class Reads:
    """What one request reads of the listings: from `generation`, for `visibility` (its class
    and now), each chunk once, kept by `_id` in `chunks` (None: no such chunk, the listing ends
    before it), so that a walk of the same listing again reads nothing; `pending`: chunks to
    read with the next read that reads some (`along`)."""

    generation: Generation
    visibility: Visibility
    chunks: dict[str, Chunk | None] = field(default_factory=dict)
    # read with the next read, if any (`along`)
    pending: list[str] = field(default_factory=list)

    def read_missing(self, chunk_ids: list[str]) -> None:
        """Reads the chunks not read yet, in one read, with those pending (`along`)."""
        if self.unread(chunk_ids):
            missing = self.unread([*chunk_ids, *self.pending])
            self.pending = []
            found = self.generation.listing_chunks(missing)
            self.chunks.update({chunk_id: found.get(chunk_id) for chunk_id in missing})

    def along(self, chunk_ids: list[str]) -> None:
        """Reads these chunks with the next read that reads some (none: whoever needs them reads
        them): what a total counts later goes in the page's first read (totals.SpanCount)."""
        self.pending += chunk_ids

    def unread(self, chunk_ids: list[str]) -> list[str]:
        """The chunks not read yet, each once."""
        return list(dict.fromkeys(c for c in chunk_ids if c not in self.chunks))

    def missing(self, chunk_ids: list[str]) -> int:
        """How many of the chunks are not read yet."""
        return len(self.unread(chunk_ids))

    def get(self, chunk_id: str) -> Chunk | None:
        """A chunk read already (None: not read, or no such chunk)."""
        return self.chunks.get(chunk_id)


@dataclass(frozen=True)
class Order:
    """A listing order: its name in chunk ids (app.query_plan.LISTING_ORDERS says whether its
    chunks are stored descending), what its entries are ordered by (`key`), and the same key of
    a keyset cursor's (sort value, `_id`) (`mark`, app/keyset.py). `then`: the direction (1, -1)
    of a second order key, which orders the sources sharing the first (then `_id` in the same
    direction) instead of `_id` in the first key's direction: by date, the node's position; by
    position, the date (`runs`: the entry fields of the first key and of the second)."""

    name: str
    key: Callable[[Entry], Any]
    mark: Callable[[tuple[Any, int]], Any]
    then: int | None = None
    runs: tuple[int, int] | None = None

    @property
    def stored_descending(self) -> bool:
        return LISTING_ORDERS[self.name]

    def forward(self, descending: bool) -> bool:
        """Whether a request in this direction reads the chunks in their stored order."""
        return descending == self.stored_descending


# a preview cursor after an undated source carries no date (app/keyset.py): UNDATED in the listing
DATE = Order(
    "date", key=lambda e: e[:2], mark=lambda after: (dated(after[0]), after[1]), runs=(0, 3)
)
# the default order's cursor value is the `_id` itself (app.keyset.decode checks it)
DEFAULT = Order("id", key=lambda e: e[1], mark=lambda after: after[1])
POSITION = Order("position", key=lambda e: (e[3], e[1]), mark=lambda after: after, runs=(3, 0))
BY_FIELD = {"published_at": DATE, "node.position": POSITION}
BY_NAME = {order.name: order for order in (DATE, DEFAULT, POSITION)}


def span_order(scope: Scope) -> Order | None:
    """The order of the listing in which a scope's span is contiguous (None: no span); that of
    positions for any of several (Scope.spans)."""
    if scope.spans:
        return POSITION
    return None if scope.span is None else BY_NAME[scope.span.order]


def per_range(scope: Scope) -> list[Scope]:
    """A scope of any of several ranges of positions (Scope.spans) as one scope per range,
    ascending; any other, itself."""
    return [replace(scope, span=span, spans=()) for span in scope.spans] or [scope]


def chunks_needed(
    reads: Reads,
    numbers: dict[Key, list[int]],
    order: Order,
    needed: int,
    *,
    whole_chunk: bool = False,
    backwards: bool = False,
) -> int:
    """How many chunks of each listing to read from where a walk starts so that they hold
    `needed` entries (`whole_chunk`: at least `size`, as many as a chunk holds), from chunk 0 of
    its listings (the keys of `numbers`, read already): the shortest head of a listing of several
    chunks, then chunks of its `size`; one more `backwards`, where the walk starts at the last
    chunk, which may hold one entry. Each listing of a page is read so far, though the page may
    take its entries from one. A walk keeping fewer (entries denied or left out, a walk starting
    inside a chunk) reads on, a chunk at a time."""
    heads = [reads.get(listing_chunk_id(key, 0, order.name)) for key in numbers]
    several = [h for h in heads if h is not None and h["chunks"] > 1]
    if not several:
        return 1
    head = min(len(h["ids"]) for h in several)
    size = min(h["size"] for h in several)
    beyond = max(needed, size if whole_chunk else 0) - head
    return 1 + max(0, -(-beyond // size)) + backwards


def just_past(key: Any, descending: bool) -> Bound:
    """An exclusive mark just past `key` in reading order (keys end with the source's `_id`)."""
    shift = -0.5 if descending else 0.5
    return key[:-1] + (key[-1] + shift,) if isinstance(key, tuple) else key + shift


def window(
    scope: Scope,
    visibility: Visibility,
    order: Order,
    descending: bool,
    after: tuple[Any, int] | None = None,
) -> tuple[Bound | None, Bound | None]:
    """Where a request's entries start and stop in reading order, both excluded (None: the end
    of the listing): its span, in the span's own order (a span of dates, which no undated source
    is in, by date; one of positions by position), now (in the date order the rest is to come,
    outside preview) and the cursor's `after`."""
    span = scope.span if scope.span is not None and scope.span.order == order.name else None
    lower, upper = (span.lower, span.upper) if span else (None, None)
    if span is not None and order.name == DATE.name:
        lower, upper = span.date_marks
    if scope.dates is not None and order.name == DATE.name:  # within a range of positions
        lower, upper = scope.date_marks
    if order.name == DATE.name and not visibility.preview:
        upper = least_of(upper, (visibility.now, INF))
    if after is not None:
        mark = order.mark(after)
        if descending:
            upper = least_of(upper, mark)
        else:
            lower = mark if lower is None else max(lower, mark)
    return (upper, lower) if descending else (lower, upper)


def between(key: Any, lower: Bound | None, upper: Bound | None) -> bool:
    """Whether a key lies strictly between two marks (None: unbounded)."""
    return (lower is None or key > lower) and (upper is None or key < upper)


def least_of(bound: Bound | None, other: Bound) -> Bound:
    return other if bound is None else min(bound, other)


def kept_entries(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    start: Bound | None = None,
    stop: Bound | None = None,
    needed: int = 1,
    numbers: dict[Key, list[int]] | None = None,
    tallied: bool | None = None,
) -> Iterator[Entry]:
    """The entries a request may list (`_listed`): published (any, in preview), in realms it may
    see, not left out by id (Scope.left: `needed` counts them, so that the chunks read up front
    hold the page however many of them it passes), within its span of dates when it has one
    besides a range of positions (Scope.dates). `numbers`: the chunks of each listing to walk
    (by default, all those of the window: `chunk_numbers`); `tallied`: past the first ones,
    read by their tallies (by default, when not told which chunks to walk; a page passing the
    chunks before it: app/listing/passing.py)."""
    tallied = numbers is None if tallied is None else tallied
    needed += len(scope.left)
    listed = _listed(reads, scope, order, descending, start, stop, needed, numbers, tallied)
    return (e for e in listed if shown(scope, reads.visibility, e))


def shown(scope: Scope, visibility: Visibility, entry: Entry) -> bool:
    """Whether a request lists a listing entry: published (any, in preview), in realms it may
    see (and of the visibility and noIndex it asks for), not left out by id, within its span of
    dates when it has one besides a range of positions (Scope.dates)."""
    return (
        (visibility.preview or entry[0] <= visibility.now)
        and between(DATE.key(entry), *scope.date_marks)
        and scope.keeps(entry[1], entry[2], entry[4], entry[5], entry[6])
    )


def _listed(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    start: Bound | None = None,
    stop: Bound | None = None,
    needed: int = 1,
    numbers: dict[Key, list[int]] | None = None,
    tallied: bool = True,
) -> Iterator[Entry]:
    """The entries of a scope's listings (types, translations) merged in reading order, strictly
    between `start` and `stop` (`window`). Each listing's chunk 0 is read already (its `starts`
    name the chunk where `start` lies); the first chunks to read of each listing, as many as hold
    the `needed` entries a request takes (`chunks_needed`), are read with the others' in one read
    (reading backwards: the last chunks), any further one when reached. `numbers`: the chunks to
    walk of each listing, when not all those of the window (`tallied`: read past the first ones
    by their tallies, as all of them are, else each when reached)."""
    preview = reads.visibility.preview
    listed_keys = [scope.listings(role, preview) for role in scope.groups if role.listed]
    taken_keys = [scope.listings(role, preview) for role in scope.groups if role.taken]
    orders = numbers or chunk_numbers(reads, scope, order, descending, start, stop)
    forward = order.forward(descending)
    reach = chunks_needed(reads, orders, order, needed, backwards=not forward)
    reads.read_missing(first_chunks(orders, order, reach))
    # past the chunks read first, by the tallies (not when told which chunks to walk)
    tallies = _Tallies(reads, scope, order, orders, needed) if tallied else None

    def read(key: Key) -> Iterator[Entry]:
        return listing_entries(reads, key, orders[key], order.name, forward, tallies)

    def listed(firsts: list[Key], *others: list[Key]) -> list[Iterator[Entry]]:
        """Each listing, with the other tags' (a second, a third) of the same type and
        translation if any."""
        streams = [read(key) for key in firsts]
        for other in others:
            if other:
                streams = [
                    _union(stream, read(key), order, descending)
                    for stream, key in zip(streams, other, strict=True)
                ]
        return streams

    streams = listed(*listed_keys)
    if taken_keys:  # each listing less its entries in the listings of what it leaves out
        streams = [
            _less(stream, taken, order, descending)
            for stream, taken in zip(streams, listed(*taken_keys), strict=True)
        ]
    merged: Iterator[Entry] = heapq.merge(*streams, key=order.key, reverse=descending)
    if descending:
        if start is not None:
            merged = itertools.dropwhile(lambda e: order.key(e) >= start, merged)
        if stop is not None:
            merged = itertools.takewhile(lambda e: order.key(e) > stop, merged)
    else:
        if start is not None:
            merged = itertools.dropwhile(lambda e: order.key(e) <= start, merged)
        if stop is not None:
            merged = itertools.takewhile(lambda e: order.key(e) < stop, merged)
    return merged


def chunk_numbers(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    start: Bound | None,
    stop: Bound | None,
) -> dict[Key, list[int]]:
    """The chunk numbers to read of each listing of a scope's groups that `_listed` merges, in
    reading order (`listing_numbers`), from their chunk 0, read already."""
    return {
        key: listing_numbers(
            reads.get(listing_chunk_id(key, 0, order.name)), order, descending, start, stop
        )
        for key in walked_keys(scope, reads.visibility)
    }


def walked_keys(scope: Scope, visibility: Visibility) -> list[Key]:
    """The listings of the scope's groups that a page walks (Role.walked), of the request's
    class."""
    return [
        key
        for role in scope.groups
        if role.walked
        for key in scope.listings(role, visibility.preview)
    ]


def first_chunks(numbers: dict[Key, list[int]], order: Order, reach: int | None = 1) -> list[str]:
    """The first `reach` chunks to read of each listing (None: all of them)."""
    return [
        listing_chunk_id(key, number, order.name)
        for key, found in numbers.items()
        for number in found[:reach]
    ]


def runs_sorted(entries: Iterator[Entry], order: Order) -> Iterator[Entry]:
    """Entries in `order` with the sources sharing its value (contiguous) sorted by the second
    order key then `_id` in `order.then`'s direction, as a sort on (first, second, _id) does: a
    run is read whole before it is given. By date then position, a run is the sources of one
    date (few: sources rarely share a date); by position then date, the sources of one position
    (one per parent and translation at most: few under one parent or a listed one, many across
    a site of many small parents, as many as the index would sort)."""
    assert order.runs is not None and order.then is not None
    first, second = order.runs
    for _, run in itertools.groupby(entries, key=lambda e: e[first]):
        yield from sorted(run, key=lambda e: (e[second], e[1]), reverse=order.then < 0)


def listing_chunk_id(key: Key, number: int, order: str) -> str:
    node_type, locale, group, preview = key
    return listing_id(node_type, locale, group, number, order, preview=preview)


def tally_doc_id(key: Key, order: str = "position") -> str:
    node_type, locale, group, preview = key
    return tally_id(node_type, locale, group, preview=preview, order=order)


def ahead(groups: list[dict[str, Any]], visibility: Visibility) -> bool:
    """Whether a chunk's calendar groups hold a source still to come (published after now),
    outside preview (in preview every source is shown)."""
    return not visibility.preview and any(g["last"] > visibility.now for g in groups if "last" in g)


def grid_doc_id(key: Key, number: int, spanned: Order, walked: Order) -> str:
    """The `_id` of the grid document of chunk `number` of a listing in the `spanned` order
    (position or date) that counts its chunks' sources in each chunk of the `walked` order's
    (app/fixture/listings.py `_grid`): a row (by date), a column (by position) or one of the
    `id` order's."""
    node_type, locale, group, preview = key
    if walked.name == DEFAULT.name:
        return id_grid_id(node_type, locale, group, number, spanned.name, preview=preview)
    document_id = grid_id if spanned.name == POSITION.name else column_id
    return document_id(node_type, locale, group, number, preview=preview)


def head_ids(
    scope: Scope, visibility: Visibility, order: Order, *, counting: bool = False
) -> list[str]:
    """The `_id` of chunk 0 of each listing of the scope's groups (Scope.groups) in `order`, of
    the request's class, that a page walks; `counting`: of every group, the overlaps too (by date:
    what counts the sources still to come, `listings.page`; for a group with a calendar only, the
    listings of a listed subset of its tags: Scope.listed_within), each once."""
    roles = [role for role in scope.groups if role.walked or counting]
    keys = [key for role in roles for key in scope.listed_within(role, visibility.preview)]
    return list(dict.fromkeys(listing_chunk_id(key, 0, order.name) for key in keys))


def _union(
    entries: Iterator[Entry], others: Iterator[Entry], order: Order, descending: bool
) -> Iterator[Entry]:
    """Two listings merged in reading order, an entry in both once (it has the same key in
    both, so the two copies come together)."""
    last = None
    for entry in heapq.merge(entries, others, key=order.key, reverse=descending):
        if entry[1] != last:
            yield entry
        last = entry[1]


def _less(
    entries: Iterator[Entry], taken: Iterator[Entry], order: Order, descending: bool
) -> Iterator[Entry]:
    """The entries of a listing that are not in `taken`, a listing of a subset of its sources in
    the same reading order (which may start earlier): both are walked once, side by side."""

    def before(one: Entry, other: Entry) -> bool:  # earlier in reading order (keys are unique)
        first, second = order.key(one), order.key(other)
        return first > second if descending else first < second

    next_taken = next(taken, None)
    for entry in entries:
        while next_taken is not None and before(next_taken, entry):
            next_taken = next(taken, None)
        if next_taken is not None and next_taken[1] == entry[1]:
            next_taken = next(taken, None)
            continue
        yield entry


def dated(moment: Any) -> Any:
    """A listing's published_at as its order compares it (an undated source: UNDATED)."""
    return UNDATED if moment is None else moment


def listing_numbers(
    head: Chunk | None,
    order: Order,
    descending: bool,
    start: Bound | None = None,
    stop: Bound | None = None,
) -> list[int]:
    """Chunk numbers of a listing in reading order (none: the scope has no source), from the
    chunk that holds the first entry past `start` (`starts`: each chunk's first entry) to the
    last that holds one before `stop` (a walk merging listings would otherwise read the next
    chunk of each to see that its first entry is past `stop`)."""
    count = head["chunks"] if head is not None else 0
    forward = order.forward(descending)
    if head is None or (start is None and stop is None):
        return list(range(count)) if forward else list(range(count - 1, -1, -1))
    starts = chunk_starts(head, order)

    def before(first: Any, mark: Bound) -> bool:  # strictly before `mark` in the stored order
        return first > mark if order.stored_descending else first < mark

    if forward:  # from the last chunk starting at or before `start`
        at = starts.leading(start, inclusive=True) if start is not None else 0
        ends = starts.leading(stop, inclusive=False) if stop is not None else len(starts)
        return list(range(max(at - 1, 0), ends if ends < len(starts) else count))
    earlier = starts.leading(start, inclusive=False) if start is not None else len(starts)
    # back to the last chunk holding a key before `stop` in reading order: chunk n's keys come
    # after the next chunk's first entry (keys end with an integer `_id`: just past it at least)
    return list(
        itertools.takewhile(
            lambda n: (
                stop is None or n + 1 >= count or before(stop, just_past(starts[n + 1], descending))
            ),
            range(earlier - 1, -1, -1),
        )
    )


def chunk_starts(head: Chunk, order: Order) -> Starts:
    """The key (Order.key) of the first entry of each chunk of a listing, from its chunk 0
    (`starts`)."""
    return Starts(head["starts"], order)


class Starts(Sequence[Bound]):
    """The key (Order.key) of the first entry of each chunk of a listing in its stored order,
    from its chunk 0's parallel arrays (`starts`), each made when asked for: a request bisects
    them (`leading`) and reads the few it needs, not one per chunk of the listing."""

    def __init__(self, firsts: dict[str, Any], order: Order) -> None:
        self._moments = firsts["published_at"]
        self._ids = firsts["ids"]
        self._positions = firsts.get("positions")
        self.order = order

    def __len__(self) -> int:
        return len(self._ids)

    def __getitem__(self, number: Any) -> Bound:  # an index (no slice: none is taken)
        position = self._positions[number] if self._positions else None
        entry = (dated(self._moments[number]), self._ids[number], [], position, True, False)
        return self.order.key(entry)

    def leading(self, mark: Any, inclusive: bool) -> int:
        """How many chunks start before `mark` in the stored order (at it too, `inclusive`):
        they lead the listing, so it is a bisection."""
        if not self.order.stored_descending:
            return (bisect.bisect_right if inclusive else bisect.bisect_left)(self, mark)
        after = (bisect.bisect_left if inclusive else bisect.bisect_right)(_Ascending(self), mark)
        return len(self) - after


class _Ascending(Sequence[Bound]):
    """The starts of a listing stored descending, oldest first (to bisect)."""

    def __init__(self, starts: Starts) -> None:
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, number: Any) -> Any:
        return self._starts[len(self._starts) - 1 - number]


@dataclass
class _Tallies:
    """How a walk (`_listed`) reads the chunks past those it reads first, from its listings'
    tallies (per chunk, its calendar groups: app/fixture/listings.py): the first chunk reached
    that is not read yet is read with every walked listing's tally, in one read, as before
    (when the tallies came with an earlier read, as a page past the chunks 0 reads them to count
    what it passes, it is read as any further one is); any further one, with the chunks after
    it in its listing that hold an entry the request may see (an allowed group), as far as
    those (not holding a source still to come: `ahead`) count `needed` entries, in one read,
    and so for every walked listing from its first chunk not read yet (where its walk goes
    on). A chunk that holds none is not read at all. So a walk keeping few of the entries (a
    rare group: `node.visible=false`, `noIndex=true`, a realm few sources are in) reads the
    chunks that hold its page in a few reads, not one read per chunk; entries the counts
    include that the walk drops (left out by id, outside a span) make it read on the same
    way."""

    reads: Reads
    scope: Scope
    order: Order
    numbers: dict[Key, list[int]]
    needed: int
    known: bool = False

    def read_from(self, key: Key, number: int) -> bool:
        """Reads chunk `number` of listing `key` (reached, not read yet), with the tallies
        (unless read already) or the chunks after it that hold the walk; True when it holds no
        entry the request may see (not read)."""
        order = self.order.name
        if not self.known:
            self.known = True
            tallies = [tally_doc_id(other, order) for other in self.numbers]
            if self.reads.unread(tallies):
                self.reads.read_missing([listing_chunk_id(key, number, order), *tallies])
                return False
        if self._allowed(key, number) == []:
            return True
        self.reads.read_missing([c for other in self.numbers for c in self._holding(other)])
        return False

    def _holding(self, key: Key) -> list[str]:
        """The chunks of a listing not read yet, in reading order, that hold an entry the
        request may see, as far as those not holding one still to come count `needed`."""
        found, reached = [], 0
        for number in self.numbers[key]:
            chunk_id = listing_chunk_id(key, number, self.order.name)
            groups = self._allowed(key, number)
            if chunk_id in self.reads.chunks or groups == []:
                continue
            found.append(chunk_id)
            if groups is None:  # not in the tally: read as reached, as without one
                break
            if not ahead(groups, self.reads.visibility):
                reached += sum(g["count"] for g in groups)
            if reached >= self.needed:
                break
        return found

    def _allowed(self, key: Key, number: int) -> list[dict[str, Any]] | None:
        """The groups of a chunk that the request may see (None: not known)."""
        tally = self.reads.get(tally_doc_id(key, self.order.name))
        if tally is None or number >= len(tally["chunks"]):
            return None
        return [g for g in tally["chunks"][number]["groups"] if self.scope.allows(g)]


def listing_entries(
    reads: Reads,
    key: Key,
    numbers: list[int],
    order: str,
    forward: bool,
    tallies: _Tallies | None = None,
    within: tuple[Bound | None, Bound | None] | None = None,
) -> Iterator[Entry]:
    """The entries of one listing in reading order; a chunk not read yet is read when reached,
    and kept (a walk of the same listing again does not read it again); with `tallies`, with
    the chunks after it that hold the walk, and not at all when it holds no entry the request
    may see (`_Tallies`). `within`: only those strictly between two marks of the order's key
    (ascending, exclusive; None: unbounded), found in each chunk by bisection (`_slice`), so
    that counting a chunk across a span's edge makes entries of the part inside only."""
    for number in numbers:
        chunk_id = listing_chunk_id(key, number, order)
        if chunk_id not in reads.chunks and tallies is not None:
            if tallies.read_from(key, number):
                continue  # it holds nothing the request may see
        reads.read_missing([chunk_id])
        chunk = reads.get(chunk_id)
        if chunk is None:  # not written: the listing ends here
            return
        at = _slice(chunk, BY_NAME[order], within) if within is not None else slice(None)
        positions = chunk.get("positions") or [None] * len(chunk["ids"])
        entries = list(
            zip(map(dated, chunk["published_at"][at]), chunk["ids"][at], _realms(chunk)[at],
                positions[at], _visible(chunk)[at], _blocks(chunk)[at], _no_index(chunk)[at],
                strict=True)
        )  # fmt: skip
        yield from (entries if forward else reversed(entries))


def _slice(chunk: Chunk, order: Order, within: tuple[Bound | None, Bound | None]) -> slice:
    """Where a chunk's entries (in its stored order) lie strictly between two ascending
    exclusive marks of the order's key: its keys bisected as its chunk 0's starts are."""
    keys = Starts(chunk, order)
    first, second = within[::-1] if order.stored_descending else within
    start = keys.leading(first, inclusive=True) if first is not None else 0
    stop = keys.leading(second, inclusive=False) if second is not None else len(keys)
    return slice(start, max(start, stop))


def scheduled_ids(
    heads: list[Chunk | None], scope: Scope, visibility: Visibility
) -> list[int] | None:
    """The ids of the allowed entries still to come (published_at > now), found in the first
    chunks of the date listings when they hold all of them (they lead them); None when a first
    chunk is all to come and more chunks follow."""
    found: list[int] = []
    for head in heads:
        if head is None:
            continue
        dates = head["published_at"]
        if head["chunks"] > 1 and dates and dates[-1] > visibility.now:
            return None
        found += [
            source_id
            for moment, source_id, realms, visible, block, no_index in zip(
                dates,
                head["ids"],
                _realms(head),
                _visible(head),
                _blocks(head),
                _no_index(head),
                strict=True,
            )
            if moment > visibility.now and scope.keeps(source_id, realms, visible, block, no_index)
        ]
    return found


def _realms(chunk: Chunk) -> list[list[int]]:
    """The realm ids of each entry of a chunk (stored only for the entries that have some)."""
    realms: list[list[int]] = [[]] * len(chunk["ids"])
    for entry in chunk["realms"]:
        realms[entry["at"]] = entry["ids"]
    return realms


def _blocks(chunk: Chunk) -> list[bool]:
    """Whether each entry is a block (a source that is not reachable) in a realm: stored with
    its realms (a hiding realm hides it)."""
    blocks = [False] * len(chunk["ids"])
    for entry in chunk["realms"]:
        blocks[entry["at"]] = entry["block"]
    return blocks


def _marked(chunk: Chunk, name: str) -> list[bool]:
    """Whether each entry of a chunk is at one of the positions stored in `name`."""
    marked = [False] * len(chunk["ids"])
    for at in chunk[name]:
        marked[at] = True
    return marked


def _visible(chunk: Chunk) -> list[bool]:
    """Whether each entry's node is visible (the hidden ones are stored)."""
    return [not hidden for hidden in _marked(chunk, "hidden")]


def _no_index(chunk: Chunk) -> list[bool]:
    """Whether each entry's source is not to be indexed (those are stored)."""
    return _marked(chunk, "no_index")
