"""Collection pages from the materialised listings (app/fixture/listings.py) instead of an index
range that engines unable to walk an index in order sort in full before the limit
(docs/performance.md, bounded listed pages).

A page by number of a plain request (app/listing/scopes.py) ordered by `publishedAt` or
`node.position` alone, or in the default order (`_id`), reads the calendar (its total), the first
chunk (the head: LISTING_HEAD entries) of each of its listings (one per type and translation) of its
visibility class in one read, the chunks that hold the page in one more when it lies deeper, then
its sources by `_id`: three or four reads whatever the size of the site. Entries are kept when
published_at <= now (any, in preview) and none of their realms is denied; the listings, which are
disjoint, are merged in their order (published_at, position or nothing, then `_id`). A scope of two
or three tags, any of them, reads each tag's listing of the same type and translation and merges
them, an entry found in several once (`_union`); a scope leaving a tag out reads, with each listing,
the tag's listing of the same type and translation, and drops the entries found in both (`_less`:
the tag's is a subset in the same order). Two order keys (date then position, position then date)
read the first key's listing and sort the runs of its values by the second (`_runs_sorted`). By
date, a span of publication dates (scopes.Span) starts at the chunk of its bound and is counted
from the calendar but for the months of its edges, which are counted from their entries; in another
order, it is walked in that order's listings as far as the page's chunks, else read whole from the
date listing and sorted (`_ordered`). A range of positions is the same in the position listing,
and is counted from the tallies of its position listings but for the chunks across its bounds,
which are counted from their entries (`_position_total`); any of several positions is one such
range per position, counted together, walked one after the other by position, else walked once
keeping the entries of any of them (`_ordered`). The sources of the nodes a scope leaves out by
id (Scope.left: `node.home=false`, `not[node.id]`) are dropped from its entries (a page reads
that many entries more), and those it lists are taken away from its calendar (calendar.read) or
from a range's tallies (`_left_between`).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from app.listing import calendar
from app.listing.params import Page
from app.listing.scopes import INF, Role, Scope
from app.listing.tag_conditions import TagSet
from app.membership import Listing
from app.publication import Visibility
from app.query_plan import LISTING_ORDERS, UNDATED, listing_id, month_span, tally_id
from app.store import Generation

# (published_at, source id, realm ids, node position, node visible, a block in a realm, not to be
# indexed: Scope.admits)
Entry = tuple[Any, int, list[int], int | None, bool, bool, bool]


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
    "date", key=lambda e: e[:2], mark=lambda after: (_dated(after[0]), after[1]), runs=(0, 3)
)
# the default order's cursor value is the `_id` itself (app.keyset.decode checks it)
DEFAULT = Order("id", key=lambda e: e[1], mark=lambda after: after[1])
POSITION = Order("position", key=lambda e: (e[3], e[1]), mark=lambda after: after, runs=(3, 0))
BY_FIELD = {"published_at": DATE, "node.position": POSITION}
BY_NAME = {order.name: order for order in (DATE, DEFAULT, POSITION)}


def serves(sort: list[tuple[str, int]]) -> Order | None:
    """The listing order that answers a plain request in `sort` order (the order keys, then
    `_id`): `publishedAt` or `node.position` alone (either direction), one then the other (the
    first's listing, the sources sharing its value sorted by the second: `then`), or the default
    order (`_id` ascending); None for any other."""
    if sort == [("_id", 1)]:
        return DEFAULT
    if len(sort) == 2 and sort[0][0] in BY_FIELD and sort[1] == ("_id", sort[0][1]):
        return BY_FIELD[sort[0][0]]
    if len(sort) == 3 and {sort[0][0], sort[1][0]} == set(BY_FIELD) and sort[2][0] == "_id":
        if sort[1][1] == sort[2][1]:
            return replace(BY_FIELD[sort[0][0]], then=sort[1][1])
    return None


def page(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    page_: Page,
    *,
    order: Order,
    descending: bool,
    count_scheduled: Callable[[], int],
) -> tuple[list[dict[str, Any]], int]:
    """One page of a plain scope in `order` and its total: the calendar's count minus the
    sources still to come. When the calendar shows some, the first chunks of the date listing
    count them (in another order they are read with its own first chunks, in one read), or,
    when those do not hold them all, `count_scheduled` (the indexed count); for a group with a
    calendar only (Scope.has_listings), the first chunks of a listed subset of its tags
    (Scope.listed_within), whose sources still to come are read by `_id` to keep those that
    carry all its tags (one read more, of those few). A scope with a span
    of dates (in any order) is counted by `_span_total`, one of positions (or any of several:
    each counted so, their chunks across bounds in one read) by `_position_total` (with no
    calendar: the tallies come with the first chunks, in one read)."""
    if scope.void:
        return [], 0
    heads = _first_read(scope, visibility, order)
    chunks: dict[str, dict[str, Any] | None] = {}
    if _spanned(scope) is POSITION:
        _read_missing(generation, chunks, [*heads, *_tallies(scope, visibility)])
        total = _position_total(generation, scope, visibility, chunks)
        return _page(generation, scope, visibility, chunks, page_, order, descending, total)
    dated = _heads(scope, visibility, DATE, counting=True)
    found = calendar.read(generation, scope, visibility)
    to_come = scope.span is None and calendar.to_come(found, scope, visibility)
    _read_missing(generation, chunks, [*heads, *(dated if to_come else [])])

    def scheduled() -> int:  # plus a second tag's, less the pair's and those left out...
        counted = [role for role in scope.groups if role.sign]  # not those only walked
        ahead: dict[Role | TagSet, list[int]] = {}
        for role in counted:
            keys = scope.listed_within(role, visibility.preview)
            found = _to_come([chunks.get(_chunk_id(key, 0, DATE.name)) for key in keys],
                             scope, visibility)  # fmt: skip
            if found is None:
                return count_scheduled()
            ahead[role] = found
        # a group with a calendar only: those of a listed subset of its tags that carry them all
        unlisted = [role for role in counted if not scope.has_listings(role)]
        ids = sorted({source_id for role in unlisted for source_id in ahead[role]})
        tags = {s["_id"]: set(s["node"]["tag_ids"]) for s in generation.sources_by_ids(ids)}
        for role in unlisted:
            ahead[role] = [i for i in ahead[role] if scope.tags_of(role) <= tags.get(i, set())]
        return sum(role.sign * len(ahead[role]) for role in counted)

    if scope.span is not None:
        total = _span_total(generation, found, scope, visibility, chunks)
    else:
        total = calendar.total(found, scope, visibility, scheduled)
    return _page(generation, scope, visibility, chunks, page_, order, descending, total)


def _page(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    page_: Page,
    order: Order,
    descending: bool,
    total: int,
) -> tuple[list[dict[str, Any]], int]:
    """The page's sources (none past the total), read by `_id` in order, and the total."""
    if page_.skip >= total or page_.size == 0:
        return [], total
    kept = _ordered(generation, scope, visibility, chunks, order, descending,
                    needed=page_.skip + page_.size)  # fmt: skip
    ids = [e[1] for e in itertools.islice(kept, page_.skip, page_.skip + page_.size)]
    return generation.listed_in_order(ids, visibility), total


def months(generation: Generation, scope: Scope, visibility: Visibility) -> list[str]:
    """`YYYY-MM` of the months of a scope having a source the request may see, newest first
    (calendar.months): from its calendar, or, for a month whose calendar knows only bounds (a
    scope leaving sources out), from that month's entries in the date listing, newest first from
    now or the month's end, to the first one kept."""
    chunks: dict[str, dict[str, Any] | None] = {}
    found = calendar.read(generation, scope, visibility)
    # its dates are bounds only if sources were taken away (Scope.exact_dates)
    told = scope if scope.found_left(visibility.preview) else replace(scope, left=())

    def published_in(month: str) -> bool:
        start, end = month_span(month)
        _read_missing(generation, chunks, _heads(scope, visibility, DATE))
        entries = _kept(generation, scope, visibility, chunks, DATE, True,
                        min((end, -INF), (visibility.now, INF)), (start, -INF))  # fmt: skip
        return next(entries, None) is not None

    return calendar.months(found, told, visibility, published_in)


def _read_missing(
    generation: Generation, chunks: dict[str, dict[str, Any] | None], chunk_ids: list[str]
) -> None:
    """Reads the chunks not read yet in one read (None: the chunk does not exist)."""
    missing = list(dict.fromkeys(c for c in chunk_ids if c not in chunks))
    if missing:
        found = generation.listing_chunks(missing)
        chunks.update({chunk_id: found.get(chunk_id) for chunk_id in missing})


def cursor_page(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    limit: int,
    after: tuple[Any, int] | None,
    *,
    order: Order,
    descending: bool,
) -> list[dict[str, Any]]:
    """Up to `limit` sources of a plain scope in `order` after `after` (the sort value and `_id`
    of the previous page's last member, app/keyset.py; None: the first page). No total, as on
    the index: chunk 0 of every listing of the scope in one read, whose `starts` name the chunk
    where the page begins (read next when it is not chunk 0), then the page's sources by `_id`.
    So a page costs the same reads however deep it lies; a span of dates in another order, what
    `_ordered` reads (a narrow one, its entries, again for each page)."""
    if scope.void:
        return []
    chunks: dict[str, dict[str, Any] | None] = {}
    _read_missing(generation, chunks, _first_read(scope, visibility, order))
    kept = _ordered(generation, scope, visibility, chunks, order, descending, limit, after)
    ids = [e[1] for e in itertools.islice(kept, limit)]
    return generation.listed_in_order(ids, visibility)


Bound = Any  # a mark in an order's key space (Order.key), exclusive


def _first_read(scope: Scope, visibility: Visibility, order: Order) -> list[str]:
    """The chunks 0 a page reads first, in one read: its order's listings', and, for a span in
    another order, its order's listings' too, where the span lies (`_ordered`)."""
    heads = _heads(scope, visibility, order)
    spanned = _spanned(scope)
    if spanned is not None and spanned.name != order.name:
        heads += _heads(scope, visibility, spanned)
    return heads


def _spanned(scope: Scope) -> Order | None:
    """The order of the listing in which a scope's span is contiguous (None: no span); that of
    positions for any of several (Scope.spans)."""
    if scope.spans:
        return POSITION
    return None if scope.span is None else BY_NAME[scope.span.order]


def _parts(scope: Scope) -> list[Scope]:
    """A scope of any of several ranges of positions (Scope.spans) as one scope per range,
    ascending; any other, itself."""
    return [replace(scope, span=span, spans=()) for span in scope.spans] or [scope]


def _ordered(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None = None,
) -> Iterator[Entry]:
    """The entries a request lists (`_kept`), in its order, after a cursor's `after`, of which it
    takes the first `needed`: walked in that order's listings. A span in another order (of
    dates by position or in the default order, of positions by date or in the default order) is
    walked there too, keeping the span's entries, as far as the chunks that would hold `needed`
    entries reach (`_span_walked`); when they hold fewer of the span's, its entries in its own
    order's listing are read whole (its chunks in one read: `_span_read`) and sorted. So the
    reads are the page's chunks, plus the span's when those do not hold the page (a narrow span,
    or one whose sources come late in the order). A second order key (Order.then) sorts the runs
    of the first's values (`_runs_sorted`). Any of several ranges of positions (Scope.spans) is
    walked once in another order, keeping the entries of any of them; by position, the ranges
    follow each other (`_one_after_another`)."""
    spanned = _spanned(scope)
    if scope.spans and order.name == POSITION.name:
        return _one_after_another(generation, scope, visibility, chunks, order, descending,
                                  needed, after)  # fmt: skip
    if spanned is None or order.name == spanned.name:
        start, stop = _window(scope, visibility, order, descending, after)
        kept = _kept(generation, scope, visibility, chunks, order, descending, start, stop, needed)
        return kept if order.then is None else _runs_sorted(kept, order)
    walked = _span_walked(generation, scope, visibility, chunks, order, descending, needed, after)
    if walked is not None:
        return iter(walked)
    span = _span_read(generation, scope, visibility, chunks, spanned)
    kept = iter(sorted(span, key=order.key, reverse=descending))
    if after is not None:
        mark = order.mark(after)
        kept = itertools.dropwhile(
            lambda e: order.key(e) >= mark if descending else order.key(e) <= mark, kept
        )
    return kept if order.then is None else _runs_sorted(kept, order)


def _span_read(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    spanned: Order,
) -> list[Entry]:
    """The entries a request lists of its span (of each of its ranges of positions: `_parts`),
    from the listings of the span's own order, their chunks in one read."""
    stored = spanned.stored_descending
    _read_missing(generation, chunks, _span_chunks(scope, visibility, chunks, spanned, None))
    return [
        entry
        for part in _parts(scope)
        for entry in _kept(
            generation,
            part,
            visibility,
            chunks,
            spanned,
            stored,
            *_window(part, visibility, spanned, stored),
        )  # fmt: skip
    ]


def _span_chunks(
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    spanned: Order,
    reach: int | None,
) -> list[str]:
    """The chunks of the span's own order's listings where each of its ranges lies (`_parts`),
    the first `reach` from where each starts (None: all of them)."""
    stored = spanned.stored_descending
    found = []
    for part in _parts(scope):
        start, stop = _window(part, visibility, spanned, stored)
        numbers = _chunk_numbers(part, visibility, chunks, spanned, stored, start, stop)
        found += _firsts(numbers, spanned, reach)
    return found


def _one_after_another(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None,
) -> Iterator[Entry]:
    """The entries of any of several ranges of positions (Scope.spans: disjoint, ascending) by
    position: each range's, in the page's direction, a range walked (`_ordered`) only when the
    page reaches it; the chunk where each starts is read first, all in one read."""
    _read_missing(generation, chunks, _span_chunks(scope, visibility, chunks, POSITION, 1))
    parts = _parts(scope)
    return itertools.chain.from_iterable(
        _ordered(generation, part, visibility, chunks, order, descending, needed, after)
        for part in (reversed(parts) if descending else parts)
    )


def _span_walked(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None,
) -> list[Entry] | None:
    """The first `needed` entries of a span in `order` (not the span's own), walked in
    that order's listings up to the end of the chunks that would hold `needed` entries from
    where the walk starts, and kept when in the span; when that reach holds fewer and a listing
    goes on, walked again as far as a whole chunk's entries at least (a head holds fewer), its
    further chunks in one read; None when that holds fewer too (then the span is read:
    `_ordered`). Not with a second order key, whose runs may go past that reach. Any of several
    ranges of positions (Scope.spans) is walked once, keeping the entries of any of them."""
    if order.then is not None:
        return None
    whole = replace(scope, span=None, spans=())
    start, stop = _window(whole, visibility, order, descending, after)
    numbers = _chunk_numbers(whole, visibility, chunks, order, descending, start, stop)
    forward = order.forward(descending)
    spanned = _spanned(scope)
    assert spanned is not None
    bounds = [_window(part, visibility, spanned, False) for part in _parts(scope)]

    def walked(reach: int) -> tuple[list[Entry], bool]:
        """The span's entries in `reach` chunks of each listing (read in one read), and whether
        a listing goes on past them."""
        _read_missing(generation, chunks, _firsts(numbers, order, reach))
        ends = [  # the last entry of each listing's reach, of a listing that goes on past it
            order.key(next(_entries(generation, chunks, key, found[reach - 1 : reach],
                                    order.name, not forward)))
            for key, found in numbers.items()
            if len(found) > reach
        ]  # fmt: skip
        last = stop
        if ends:  # no further than the nearest of them in reading order, that one included
            mark = _beyond(max(ends) if descending else min(ends), descending)
            last = mark if stop is None else (max if descending else min)(stop, mark)
        kept = _kept(generation, whole, visibility, chunks, order, descending, start, last)
        in_span = [e for e in kept if any(_between(spanned.key(e), *b) for b in bounds)]
        return in_span, bool(ends)

    reach = _reach(chunks, numbers, order, needed, backwards=not forward)
    in_span, goes_on = walked(reach)
    wider = _reach(chunks, numbers, order, needed, whole_chunk=True, backwards=not forward)
    if len(in_span) < needed and goes_on and wider > reach:
        in_span, goes_on = walked(wider)
    return in_span if len(in_span) >= needed or not goes_on else None


def _reach(
    chunks: dict[str, dict[str, Any] | None],
    numbers: dict[Key, list[int]],
    order: Order,
    needed: int,
    *,
    whole_chunk: bool = False,
    backwards: bool = False,
) -> int:
    """How many chunks of each listing to read from where a walk starts so that they hold
    `needed` entries (`whole_chunk`: at least `size`, as many as a chunk holds), from chunk 0 of
    its listings (the keys of `numbers`, in `chunks`): the shortest head of a listing of several
    chunks, then chunks of its `size`; one more `backwards`, where the walk starts at the last
    chunk, which may hold one entry. Each listing of a page is read so far, though the page may
    take its entries from one. A walk keeping fewer (entries denied or left out, a walk starting
    inside a chunk) reads on, a chunk at a time."""
    heads = [chunks.get(_chunk_id(key, 0, order.name)) for key in numbers]
    several = [h for h in heads if h is not None and h["chunks"] > 1]
    if not several:
        return 1
    head = min(len(h["ids"]) for h in several)
    size = min(h["size"] for h in several)
    beyond = max(needed, size if whole_chunk else 0) - head
    return 1 + max(0, -(-beyond // size)) + backwards


def _beyond(key: Any, descending: bool) -> Bound:
    """An exclusive mark just past `key` in reading order (keys end with the source's `_id`)."""
    shift = -0.5 if descending else 0.5
    return key[:-1] + (key[-1] + shift,) if isinstance(key, tuple) else key + shift


def _window(
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
        lower = max(lower or (UNDATED, INF), (UNDATED, INF))
    if order.name == DATE.name and not visibility.preview:
        upper = _least(upper, (visibility.now, INF))
    if after is not None:
        mark = order.mark(after)
        if descending:
            upper = _least(upper, mark)
        else:
            lower = mark if lower is None else max(lower, mark)
    return (upper, lower) if descending else (lower, upper)


def _between(key: Any, lower: Bound | None, upper: Bound | None) -> bool:
    """Whether a key lies strictly between two marks (None: unbounded)."""
    return (lower is None or key > lower) and (upper is None or key < upper)


def _least(bound: Bound | None, other: Bound) -> Bound:
    return other if bound is None else min(bound, other)


def _span_total(
    generation: Generation,
    found: dict[str, Any],
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
) -> int:
    """The sources of a span of dates the request may see. A month whose calendar groups (its
    sources of one realm set, with their first and last date) lie wholly inside or outside the
    span is counted from the calendar; a month where a group straddles a bound of the span or
    now (at most the months of the two bounds and of now) is counted from its entries in the
    date listing, where they are contiguous: the reads follow the span's edges, not the site."""
    lower, upper = _window(scope, visibility, DATE, descending=False)
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
        start = _least(upper, most)
        stop = least if lower is None else max(lower, least)
        counted += sum(1 for _ in _kept(generation, scope, visibility, chunks, DATE, True,
                                        start, stop))  # fmt: skip
    return counted


def _tallies(scope: Scope, visibility: Visibility) -> list[str]:
    """The `_id` of the tally of each position listing a range of positions counts: those of
    the scope's groups that count (Role.sign), each once."""
    keys = [key for role in scope.groups if role.sign for key in _keys(scope, visibility, role)]
    return list(dict.fromkeys(_tally_id(key) for key in keys))


def _position_total(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
) -> int:
    """The sources of a span of positions the request may see, from the tallies of its groups'
    position listings (in `chunks`), combined by sign (Role.sign) as the calendars are: a chunk
    wholly inside the span whose allowed groups hold nothing still to come (their last
    published_at is past; any, in preview) is counted from its tally, less the sources left out
    by id that it holds (`_left_between`), one wholly outside not at all, and the others (at most
    the two across the span's bounds, and those holding a source scheduled ahead) from their
    entries, read in one read. So the reads are the tallies and the chunks of the span's edges,
    not the span."""
    across: list[tuple[int, Key, int, Bound | None, Bound | None]] = []  # from entries
    counted = 0
    # any of several ranges (Scope.spans): each (disjoint), in the same reads
    bounds = [_window(part, visibility, POSITION, descending=False) for part in _parts(scope)]
    for role in [role for role in scope.groups if role.sign]:  # not those only walked
        for key in _keys(scope, visibility, role):
            tally = chunks.get(_tally_id(key))
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
    _read_missing(generation, chunks, [_chunk_id(key, number, POSITION.name)
                                       for _, key, number, *_ in across])  # fmt: skip
    for sign, key, number, lower, upper in across:
        entries = _entries(generation, chunks, key, [number], POSITION.name, forward=True)
        counted += sign * sum(
            1
            for e in entries
            if _between(POSITION.key(e), lower, upper)
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


def _kept(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    order: Order,
    descending: bool,
    start: Bound | None = None,
    stop: Bound | None = None,
    needed: int = 1,
) -> Iterator[Entry]:
    """The entries a request may list (`_listed`): published (any, in preview), in realms it may
    see, not left out by id (Scope.left: `needed` counts them, so that the chunks read up front
    hold the page however many of them it passes)."""
    listed = _listed(generation, scope, visibility, chunks, order, descending, start, stop,
                     needed + len(scope.left))  # fmt: skip
    preview = visibility.preview
    return (
        e
        for e in listed
        if (preview or e[0] <= visibility.now) and scope.keeps(e[1], e[2], e[4], e[5], e[6])
    )


def _listed(
    generation: Generation,
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    order: Order,
    descending: bool,
    start: Bound | None = None,
    stop: Bound | None = None,
    needed: int = 1,
) -> Iterator[Entry]:
    """The entries of a scope's listings (types, translations) merged in reading order, strictly
    between `start` and `stop` (`_window`). `chunks` holds each listing's chunk 0 (its `starts`
    name the chunk where `start` lies); the first chunks to read of each listing, as many as hold
    the `needed` entries a request takes (`_reach`), are read with the others' in one read
    (reading backwards: the last chunks), any further one when reached."""
    listed_keys = [_keys(scope, visibility, role) for role in scope.groups if role.listed]
    taken_keys = [_keys(scope, visibility, role) for role in scope.groups if role.taken]
    orders = _chunk_numbers(scope, visibility, chunks, order, descending, start, stop)
    forward = order.forward(descending)
    reach = _reach(chunks, orders, order, needed, backwards=not forward)
    _read_missing(generation, chunks, _firsts(orders, order, reach))

    def read(key: Key) -> Iterator[Entry]:
        return _entries(generation, chunks, key, orders[key], order.name, forward)

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


def _chunk_numbers(
    scope: Scope,
    visibility: Visibility,
    chunks: dict[str, dict[str, Any] | None],
    order: Order,
    descending: bool,
    start: Bound | None,
    stop: Bound | None,
) -> dict[Key, list[int]]:
    """The chunk numbers to read of each listing of a scope's groups that `_listed` merges, in
    reading order (`_numbers`), from their chunk 0 in `chunks`."""
    return {
        key: _numbers(chunks.get(_chunk_id(key, 0, order.name)), order, descending, start, stop)
        for role in scope.groups
        if role.walked
        for key in _keys(scope, visibility, role)
    }


def _firsts(numbers: dict[Key, list[int]], order: Order, reach: int | None = 1) -> list[str]:
    """The first `reach` chunks to read of each listing (None: all of them)."""
    return [
        _chunk_id(key, number, order.name)
        for key, found in numbers.items()
        for number in found[:reach]
    ]


def _runs_sorted(entries: Iterator[Entry], order: Order) -> Iterator[Entry]:
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


# (type or ALL_TYPES, translation, group, preview class): one listing
Key = Listing


def _keys(scope: Scope, visibility: Visibility, role: Role | TagSet) -> list[Key]:
    """The listings of a scope's group of `role` in the request's class (Scope.listings)."""
    return scope.listings(role, visibility.preview)


def _chunk_id(key: Key, number: int, order: str) -> str:
    node_type, locale, group, preview = key
    return listing_id(node_type, locale, group, number, order, preview=preview)


def _tally_id(key: Key) -> str:
    node_type, locale, group, preview = key
    return tally_id(node_type, locale, group, preview=preview)


def _heads(
    scope: Scope, visibility: Visibility, order: Order, *, counting: bool = False
) -> list[str]:
    """The `_id` of chunk 0 of each listing of the scope's groups (Scope.groups) in `order`, of
    the request's class, that a page walks; `counting`: of every group, the overlaps too (by date:
    what counts the sources still to come, `page`; for a group with a calendar only, the
    listings of a listed subset of its tags: Scope.listed_within), each once."""
    roles = [role for role in scope.groups if role.walked or counting]
    keys = [key for role in roles for key in scope.listed_within(role, visibility.preview)]
    return list(dict.fromkeys(_chunk_id(key, 0, order.name) for key in keys))


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


def _dated(moment: Any) -> Any:
    """A listing's published_at as its order compares it (an undated source: UNDATED)."""
    return UNDATED if moment is None else moment


def _numbers(
    head: dict[str, Any] | None,
    order: Order,
    descending: bool,
    start: Bound | None = None,
    stop: Bound | None = None,
) -> list[int]:
    """Chunk numbers of a listing in reading order (none: the scope has no source), from the
    chunk that holds the first entry past `start` (`starts`: each chunk's first entry) and, read
    forward, to the last chunk that starts before `stop` (the next one holds none to keep)."""
    count = head["chunks"] if head is not None else 0
    forward = order.forward(descending)
    if head is None or (start is None and (stop is None or not forward)):
        return list(range(count)) if forward else list(range(count - 1, -1, -1))
    firsts = head["starts"]
    positions = firsts.get("positions") or [None] * len(firsts["ids"])
    starts = [
        order.key((_dated(moment), source_id, [], position, True, False))
        for moment, source_id, position in zip(firsts["published_at"], firsts["ids"], positions,
                                                strict=True)
    ]  # fmt: skip

    def before(first: Any, mark: Bound) -> bool:  # strictly before `mark` in the stored order
        return first > mark if order.stored_descending else first < mark

    if forward:  # from the last chunk starting at or before `start`
        at = [n for n, first in enumerate(starts) if start is not None and not before(start, first)]
        ends = [n for n, first in enumerate(starts) if stop is not None and not before(first, stop)]
        return list(range(at[-1] if at else 0, ends[0] if ends else count))
    earlier = [n for n, first in enumerate(starts) if before(first, start)]
    return list(range(earlier[-1], -1, -1)) if earlier else []


def _entries(
    generation: Generation,
    chunks: dict[str, dict[str, Any] | None],
    key: Key,
    numbers: list[int],
    order: str,
    forward: bool,
) -> Iterator[Entry]:
    """The entries of one listing in reading order; a chunk not read yet is read when reached,
    and kept in `chunks` (a walk of the same listing again does not read it again)."""
    for number in numbers:
        chunk_id = _chunk_id(key, number, order)
        _read_missing(generation, chunks, [chunk_id])
        chunk = chunks[chunk_id]
        if chunk is None:  # not written: the listing ends here
            return
        positions = chunk.get("positions") or [None] * len(chunk["ids"])
        entries = list(
            zip(map(_dated, chunk["published_at"]), chunk["ids"], _realms(chunk), positions,
                _visible(chunk), _blocks(chunk), _no_index(chunk), strict=True)
        )  # fmt: skip
        yield from (entries if forward else reversed(entries))


def _to_come(
    heads: list[dict[str, Any] | None], scope: Scope, visibility: Visibility
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


def _realms(chunk: dict[str, Any]) -> list[list[int]]:
    """The realm ids of each entry of a chunk (stored only for the entries that have some)."""
    realms: list[list[int]] = [[]] * len(chunk["ids"])
    for entry in chunk["realms"]:
        realms[entry["at"]] = entry["ids"]
    return realms


def _blocks(chunk: dict[str, Any]) -> list[bool]:
    """Whether each entry is a block (a source that is not reachable) in a realm: stored with
    its realms (a hiding realm hides it)."""
    blocks = [False] * len(chunk["ids"])
    for entry in chunk["realms"]:
        blocks[entry["at"]] = entry["block"]
    return blocks


def _marked(chunk: dict[str, Any], field: str) -> list[bool]:
    """Whether each entry of a chunk is at one of the positions stored in `field`."""
    marked = [False] * len(chunk["ids"])
    for at in chunk[field]:
        marked[at] = True
    return marked


def _visible(chunk: dict[str, Any]) -> list[bool]:
    """Whether each entry's node is visible (the hidden ones are stored)."""
    return [not hidden for hidden in _marked(chunk, "hidden")]


def _no_index(chunk: dict[str, Any]) -> list[bool]:
    """Whether each entry's source is not to be indexed (those are stored)."""
    return _marked(chunk, "no_index")
