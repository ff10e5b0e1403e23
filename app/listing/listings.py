"""Collection pages from the materialised listings (app/fixture/listings.py) instead of an index
range that engines unable to walk an index in order sort in full before the limit
(docs/performance.md, bounded listed pages).

A page by number of a plain request (app/listing/plain.py) ordered by `publishedAt` or
`node.position` alone, one then the other, or in the default order (`_id`), reads its total (the
calendar, app/listing/calendar.py; a span's: app/listing/totals.py), the first chunk (the head:
LISTING_HEAD entries) of each of its listings of its visibility class in one read, the chunks
that hold the page in one more when it lies deeper, then its sources by `_id`: three or four
reads whatever the size of the site. The listings are merged and the entries the request may
see kept by app/listing/walk.py (`walk.kept_entries`); two order keys sort the runs of the
first's values by the second (`walk.runs_sorted`). By date, a span of publication dates
(scopes.Span) starts at the chunk of its bound; in another order, it is walked in that order's
listings as far as the page's chunks, else read whole from the date listing and sorted
(`_ordered`). A range of positions is the same in the position listing; any of several positions
is one such range per position, walked one after the other by position, else walked once keeping
the entries of any of them (`_ordered`). A range within a span of dates (Scope.dates) keeps the
entries of both, counted by `totals.rectangle_total`. By date, a range's page, by position, a
span's (or a range's within one), and in the default order, a range's or a span's, walk the
chunks the grids count entries of it in when the chunks a page walks first do not hold it
(`_counted_walk`). A cursor page (`cursor_page`) reads
the chunk where its cursor falls, and no total.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from app.listing import calendar, passing, totals, walk
from app.listing.params import Page
from app.listing.scopes import INF, Role, Scope
from app.listing.tag_conditions import TagSet
from app.listing.walk import BY_FIELD, DATE, DEFAULT, POSITION, Entry, Key, Order, Reads
from app.publication import Visibility
from app.query_plan import month_span
from app.store import Generation


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
    of dates (in any order) is counted by `totals.span_count`, one of positions (or any of several:
    each counted so, their chunks across bounds in one read) by `totals.position_total` (with no
    calendar: the tallies come with the first chunks, in one read)."""
    if scope.void:
        return [], 0
    heads = _first_read(scope, visibility, order)
    if page_.skip >= (scope.head or 1):  # what counts the chunks a page past the chunks 0
        for key in passing.passes(scope, visibility, order):  # passes: their tallies
            heads += [walk.listing_chunk_id(key, 0, order.name), walk.tally_doc_id(key, order.name)]
    reads = Reads(generation, visibility)
    if walk.span_order(scope) is POSITION:
        reads.read_missing([*heads, *totals.tally_ids(scope, visibility, order)])
        counting = _counting_reads(reads, scope, order)
        if reads.missing(counting.edges):  # with the edges its total reads: no command more
            reads.read_missing(counting.ids())
        if scope.dates is not None:  # within a span of dates
            total = totals.rectangle_total(reads, scope)
        else:
            total = totals.position_total(reads, scope)
        return _page(reads, scope, page_, order, descending, totals.SpanCount.known(total))
    dated = walk.head_ids(scope, visibility, DATE, counting=True)
    found = calendar.read(generation, scope, visibility, total_only=True)
    to_come = scope.span is None and calendar.to_come(found, scope, visibility)
    # a span of dates: where the months across its edges lie (`totals.span_count`)
    spanned = totals.span_head_ids(scope, visibility, found) if scope.span is not None else []
    reads.read_missing([*heads, *(dated if to_come else []), *spanned])

    def scheduled() -> int:  # plus a second tag's, less the pair's and those left out...
        counted = [role for role in scope.groups if role.sign]  # not those only walked
        ahead: dict[Role | TagSet, list[int]] = {}
        for role in counted:
            keys = scope.listed_within(role, visibility.preview)
            firsts = [reads.get(walk.listing_chunk_id(key, 0, DATE.name)) for key in keys]
            found = walk.scheduled_ids(firsts, scope, visibility)
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
        counting = totals.span_count(reads, found, scope)
    else:
        counting = totals.SpanCount.known(calendar.total(found, scope, visibility, scheduled))
    return _page(reads, scope, page_, order, descending, counting)


def _page(
    reads: Reads,
    scope: Scope,
    page_: Page,
    order: Order,
    descending: bool,
    counting: totals.SpanCount,
) -> tuple[list[dict[str, Any]], int]:
    """The page's sources (none past the total), read by `_id` in order, and the total: what
    it still counts (a span's dense months: totals.SpanCount) read with the page's first read,
    unless the page is past what the total may reach, or empty."""
    if page_.skip >= counting.most or page_.size == 0:
        return [], counting.total(reads, scope)
    reads.along(counting.to_read)
    kept = _ordered(reads, scope, order, descending, page_.skip + page_.size, skip=page_.skip)
    ids = [e[1] for e in itertools.islice(kept, page_.size)]
    total = counting.total(reads, scope)
    if page_.skip >= total:
        return [], total
    return reads.generation.listed_in_order(ids, reads.visibility), total


def months(generation: Generation, scope: Scope, visibility: Visibility) -> list[str]:
    """`YYYY-MM` of the months of a scope having a source the request may see, newest first
    (calendar.months): from its calendar, or, for a month whose calendar knows only bounds (a
    scope leaving sources out), from that month's entries in the date listing, newest first from
    now or the month's end, to the first one kept."""
    reads = Reads(generation, visibility)
    found = calendar.read(generation, scope, visibility)
    # its dates are bounds only if sources were taken away (Scope.exact_dates)
    told = scope if scope.found_left(visibility.preview) else replace(scope, left=())

    def published_in(month: str) -> bool:
        start, end = month_span(month)
        reads.read_missing(walk.head_ids(scope, visibility, DATE))
        newest = min((end, -INF), (visibility.now, INF))
        entries = walk.kept_entries(reads, scope, DATE, True, newest, (start, -INF))
        return next(entries, None) is not None

    return calendar.months(found, told, visibility, published_in)


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
    reads = Reads(generation, visibility)
    reads.read_missing(_first_read(scope, visibility, order))
    kept = _ordered(reads, scope, order, descending, limit, after)
    ids = [e[1] for e in itertools.islice(kept, limit)]
    return generation.listed_in_order(ids, visibility)


def _first_read(scope: Scope, visibility: Visibility, order: Order) -> list[str]:
    """The chunks 0 a page reads first, in one read: its order's listings', and, for a span in
    another order, its order's listings' too, where the span lies (`_ordered`); by date or in
    the default order, a range of positions' tallies (`_counted_walk`)."""
    heads = walk.head_ids(scope, visibility, order)
    spanned = walk.span_order(scope)
    if spanned is not None and spanned.name != order.name:
        heads += walk.head_ids(scope, visibility, spanned)
    if scope.dates is not None and order.name != DATE.name:  # where the span of dates lies
        heads += walk.head_ids(scope, visibility, DATE)
    if _walks_counted(scope, order) and _own_span(scope, order)[1] is POSITION:
        heads += totals.tally_ids(scope, visibility, order)  # what counts a range in another order
    return heads


def _ordered(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None = None,
    skip: int = 0,
) -> Iterator[Entry]:
    """The entries a request lists from the `skip`-th on (a page by number's), in its order, after
    a cursor's `after`: a walk of its listings in their own order passes the chunks wholly
    before them that their tallies count (app/listing/passing.py); any other walks them
    (`_walked`)."""
    if skip and passing.passes(scope, reads.visibility, order):
        start, stop = walk.window(scope, reads.visibility, order, descending, after)
        cut, passed, numbers = passing.page_start(
            reads, scope, order, descending, start, stop, skip, needed
        )
        kept = walk.kept_entries(reads, scope, order, descending, cut, stop, needed - passed,
                                 numbers, tallied=True)  # fmt: skip
        return itertools.islice(kept, skip - passed, None)
    if skip >= (scope.head or 1) and _passes_counted(scope, order):
        return _counted_walk(reads, scope, order, descending, needed, after, skip=skip)
    return itertools.islice(_walked(reads, scope, order, descending, needed, after), skip, None)


# A page of a span walked in another order reaching no further than this many chunks of each
# listing walks them from the start (one read, with what counts the span, and often all it
# reads: `_span_walked`); a deeper one passes those before it (`_counted_passing`: a read more
# for the counts, then the page's chunks).
PASSING_REACH = 3


def _passes_counted(scope: Scope, order: Order) -> bool:
    """Whether a page by number of a span walked in another order by the counts of its chunks
    (`_counted_walk`) may pass the chunks before it: one group walked (any types and
    translations: disjoint), no second order key."""
    walked = [role for role in scope.groups if role.walked]
    return _walks_counted(scope, order) and order.then is None and len(walked) == 1


def _walked(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None = None,
) -> Iterator[Entry]:
    """The entries a request lists (`walk.kept_entries`), in its order, after a cursor's `after`,
    of which it takes the first `needed`: walked in that order's listings. A span in another
    order (of dates by position or in the default order, of positions by date or in the default
    order) is walked there too, keeping the span's entries, as far as the chunks that would hold
    `needed` entries reach (`_span_walked`); when they hold fewer of the span's, the chunks the
    grids count its entries in (`_counted_walk`), else (a range within a span of dates in the
    default order, tags left out) its entries in its own order's listing are read whole (its
    chunks in one read: `_span_read`) and sorted. So the reads are the page's
    chunks, plus those the grids count it in, or there the span's, when those do not hold the
    page (a narrow span, or one whose sources come late in the order). A second order key
    (Order.then) sorts the runs of the first's values (`walk.runs_sorted`); a counted walk reads
    on to the end of the run its chunks end in (`_run_closed`). Any of several
    ranges of positions (Scope.spans) is walked once in another order, keeping the entries of
    any of them; by position, the ranges follow each other (`_one_after_another`)."""
    spanned = walk.span_order(scope)
    if scope.spans and order.name == POSITION.name:
        return _one_after_another(reads, scope, order, descending, needed, after)
    if _walks_counted(scope, order):
        return _counted_walk(reads, scope, order, descending, needed, after)
    if scope.dates is not None and order.name == POSITION.name:
        return _within_dates(reads, scope, order, descending, needed, after)
    if spanned is None or order.name == spanned.name:
        start, stop = walk.window(scope, reads.visibility, order, descending, after)
        kept = walk.kept_entries(reads, scope, order, descending, start, stop, needed)
        return kept if order.then is None else walk.runs_sorted(kept, order)
    walked = _span_walked(reads, scope, order, descending, needed, after)
    if walked is not None:
        return iter(walked)
    return _sorted_after(_span_read(reads, scope, spanned), order, descending, after)


def _counted_walk(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None,
    skip: int = 0,
) -> Iterator[Entry]:
    """A span in another order, by the counts of its entries in each chunk of the order walked
    (`_walks_counted` says when; `totals.chunk_counts`): by date, a range of positions' (or any
    of several; within a span of dates too), from the grids' rows; by position, a span of
    dates' (or a range of positions' within one), from their columns; in the default order, a
    range of positions' (or any of several) or a span of dates', from the grids of the `id`
    order. The
    listings of the order are walked only in the chunks that hold some, as far as the chunks
    whose counts reach `needed` and the sources left out by id, read in one read; a chunk across
    the window's bounds, whose count is not known, is walked too. Or, when the span's own chunks
    are as few to read (and, as many, as few in all), its entries are read from them and sorted
    (`_span_sorted`). So a page of a sparse span reads the chunks holding the page or the span,
    whichever are fewer. The chunks a page would walk first (`_span_walked`) are read with what
    counts it, in one read (none when they are read already: chunks 0): when they hold the page,
    that is all. `skip` (a page by
    number past the chunks 0: `_passes_counted`): the entries from the `skip`-th on; deeper
    than PASSING_REACH chunks, the walk passes the chunks before them that the counts tell
    (`_counted_passing`)."""
    visibility = reads.visibility
    start, stop = walk.window(scope, visibility, order, descending, after)
    numbers = walk.chunk_numbers(reads, scope, order, descending, start, stop)
    backwards = not order.forward(descending)
    reach = walk.chunks_needed(reads, numbers, order, needed, backwards=backwards)
    if skip:  # deeper than the chunks a first walk reads: passing those before the page
        if reach > PASSING_REACH:
            passing = _counted_passing(reads, scope, order, descending, needed, numbers, skip)
            if passing is not None:
                return passing
        walked = _counted_walk(reads, scope, order, descending, needed, after)
        return itertools.islice(walked, skip, None)
    own, spanned = _own_span(scope, order)
    counted = totals.counting_reads(reads, scope, list(numbers), spanned, order)
    # (a second order key's runs are walked by the counts only: `_span_walked` walks none)
    first = walk.first_chunks(numbers, order, reach) if order.then is None else []
    if reads.missing(first):  # else (a head) the walk first, and what counts only if needed
        reads.read_missing([*first, *counted.ids()])
    whole = scope if scope.dates is not None and order.name == POSITION.name else None
    walked = _span_walked(reads, scope, order, descending, needed, after, whole, wider=False)
    if walked is not None:  # the chunks a page would walk first hold it
        return iter(walked)
    window = (stop, start) if descending else (start, stop)  # ascending, a cursor's side kept
    counts = totals.chunk_counts(reads, scope, numbers, window, spanned, order)
    wanted = needed + len(scope.left)
    held: dict[Key, list[int]] = {}
    for key, found in numbers.items():
        counted = counts.get(key, {})
        held[key] = _run_closed(reads, key, found, _holding(found, counted, wanted), counted,
                                order, backwards)  # fmt: skip
    to_walk = walk.first_chunks(held, order, reach=None)
    # fewer chunks to read, else (as many: one read either way) fewer entries to make
    span = _span_chunks(reads, own, spanned, None)
    if (reads.missing(span), len(span)) <= (reads.missing(to_walk), len(to_walk)):
        return _span_sorted(reads, scope, order, descending, after)
    reads.read_missing(to_walk)
    kept = walk.kept_entries(reads, scope, order, descending, start, stop, needed, numbers=held)
    bounds = [walk.window(p, visibility, spanned, descending=False) for p in walk.per_range(own)]
    in_span = (e for e in kept if any(walk.between(spanned.key(e), *b) for b in bounds))
    return in_span if order.then is None else walk.runs_sorted(in_span, order)


def _counted_passing(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    needed: int,
    numbers: dict[Key, list[int]],
    skip: int,
) -> Iterator[Entry] | None:
    """The entries of a span in another order from the `skip`-th on (`_counted_walk`), the
    walk starting at the mark `passing.passed_by` finds from the counts of its chunks
    (`totals.chunk_counts`, read first), then reading the chunks that hold the page; None when
    no mark passes a chunk."""
    visibility = reads.visibility
    start, stop = walk.window(scope, visibility, order, descending)
    own, spanned = _own_span(scope, order)
    reads.read_missing(totals.counting_reads(reads, scope, list(numbers), spanned, order).ids())
    window = (stop, start) if descending else (start, stop)  # ascending
    counts = totals.chunk_counts(reads, scope, numbers, window, spanned, order)
    bounds = [walk.window(p, visibility, spanned, descending=False) for p in walk.per_range(own)]

    def in_span(entry: Entry) -> bool:
        return any(walk.between(spanned.key(entry), *b) for b in bounds)

    listings = {
        key: passing.counted_passable(reads, scope, key, order, descending, found,
                                      counts.get(key, {}), in_span)
        for key, found in numbers.items()
    }  # fmt: skip
    signed = [(1, key) for key in numbers]
    cut, passed, from_cut = passing.passed_by(reads, scope, order, descending, (start, stop),
                                              skip, needed, listings, signed, list(numbers),
                                              in_span)  # fmt: skip
    if from_cut is None:
        return None
    wanted = needed - passed + len(scope.left)
    held = {}
    for key, found in from_cut.items():  # the first chunk across the mark: its count not reached
        first = found[:1] if listings[key].across(cut, descending) else []
        held[key] = first + _holding(found[len(first) :], counts.get(key, {}), wanted)
    reads.read_missing(walk.first_chunks(held, order, reach=None))
    kept = walk.kept_entries(reads, scope, order, descending, cut, stop, needed - passed,
                             numbers=held)  # fmt: skip
    return itertools.islice((e for e in kept if in_span(e)), skip - passed, None)


def _walks_counted(scope: Scope, order: Order) -> bool:
    """Whether a page walks a span in another order by the counts of its chunks
    (`_counted_walk`): by date, a range of positions; by position, a span of dates, or a range
    within one (Scope.dates); in the default order, a range of positions or a span of dates
    (not both: the `id` order's grids count one); with a second order key too (the walk reads
    on to the end of its last run: `_run_closed`), not with tags left out (their listings'
    entries are taken away, and their chunks are not counted)."""
    if any(role.taken for role in scope.groups):
        return False
    spanned = walk.span_order(scope)
    if order.name == DATE.name:
        return spanned is POSITION
    if order.name == DEFAULT.name:
        return spanned is not None and scope.dates is None
    return order.name == POSITION.name and (scope.dates is not None or spanned is DATE)


def _counting_reads(reads: Reads, scope: Scope, order: Order) -> totals.Counting:
    """What a counted walk (`_counted_walk`) of a range of positions counts from, read with the
    edges its total reads (when it reads some), once the chunks 0 and the tallies are read
    (`totals.counting_reads`): the range's edges and the grids' rows (by date; by position, for
    the total within a span of dates) or those of the `id` order (in the default order); within
    a span of dates, their columns and the span's edges too, which its total reads as well. (A
    span of dates alone reads what counts it only when the chunks 0 do not hold its page.)"""
    if not _walks_counted(scope, order):
        return totals.Counting([], [])
    keys = walk.walked_keys(scope, reads.visibility)
    walked = order if order.name == DEFAULT.name else DATE  # the rows, by date and by position
    found = totals.counting_reads(reads, scope, keys, POSITION, walked)
    if scope.dates is not None:
        dated = totals.counting_reads(reads, scope, keys, DATE, POSITION)
        found = totals.Counting(found.edges + dated.edges, found.grids + dated.grids)
    return found


def _own_span(scope: Scope, order: Order) -> tuple[Scope, Order]:
    """A scope's span in another order than `order`, as a scope whose span that is, and its
    order: by date, its range of positions; by position, its span of dates (Scope.dates: as its
    span); in the default order, its span."""
    if order.name == DATE.name:
        return scope, POSITION
    if order.name == DEFAULT.name:
        spanned = walk.span_order(scope)
        assert spanned is not None
        return scope, spanned
    if scope.dates is None:
        return scope, DATE
    return replace(scope, span=scope.dates, dates=None, spans=()), DATE


def _span_sorted(
    reads: Reads, scope: Scope, order: Order, descending: bool, after: tuple[Any, int] | None
) -> Iterator[Entry]:
    """The entries of a span in another order than `order`, read whole from its own order's
    listings (`_span_read`, in one read), then sorted in `order` after a cursor's `after`; a
    range of positions within a span of dates, the span's, kept in the range."""
    own, spanned = _own_span(scope, order)
    found = _span_read(reads, own, spanned)
    if own is not scope and scope.dates is not None:
        positions = walk.window(scope, reads.visibility, POSITION, descending=False)
        found = [e for e in found if walk.between(POSITION.key(e), *positions)]
    return _sorted_after(found, order, descending, after)


def _holding(numbers: list[int], counts: dict[int, int], wanted: int) -> list[int]:
    """The chunks of a listing (`numbers`, in reading order) that hold some of the entries
    counted (`counts`; one not counted may), up to the one where their counts reach `wanted`."""
    held, reached = [], 0
    for number in numbers:
        if counts.get(number) != 0:
            held.append(number)
            reached += counts.get(number, 0)
        if reached >= wanted:
            break
    return held


def _run_closed(
    reads: Reads,
    key: Key,
    numbers: list[int],
    held: list[int],
    counts: dict[int, int],
    order: Order,
    backwards: bool,
) -> list[int]:
    """With a second order key (Order.then), the chunks of a listing a counted walk holds
    (`held`, from `numbers` in reading order) and after them those that may hold more of the
    run of the first key's value where they end, as `walk.runs_sorted` sorts a run whole: the
    next chunk (holding some entries counted), and on while the chunks start (`starts`) with the
    value the run may have. So a page reads the chunks holding it and the rest of its last run,
    not the span. Without a second key, or when the held chunks are all there are, `held`."""
    if order.then is None or not held or held[-1] == numbers[-1]:
        return held
    head = reads.get(walk.listing_chunk_id(key, 0, order.name))
    assert head is not None
    starts = walk.chunk_starts(head, order)  # a chunk's first value: starts[n][0]
    rest = numbers[numbers.index(held[-1]) + 1 :]
    # reading forward, the next chunk may start the run on; backwards, the last one read ends
    # on the value it starts with (stored order), which the next chunks may hold
    value = starts[held[-1]][0] if backwards else starts[rest[0]][0]
    closed = list(held)
    for number in rest:
        if not backwards and starts[number][0] != value:
            break  # it starts past the run, and so do those after it
        if counts.get(number) != 0:
            closed.append(number)
        if backwards and starts[number][0] != value:
            break  # it starts before the run: those after it hold none of it
    return closed


def _sorted_after(
    entries: list[Entry], order: Order, descending: bool, after: tuple[Any, int] | None
) -> Iterator[Entry]:
    """Entries read out of order, sorted in `order` (its second key's runs too), after a
    cursor's `after`."""
    kept = iter(sorted(entries, key=order.key, reverse=descending))
    if after is not None:
        mark = order.mark(after)
        kept = itertools.dropwhile(
            lambda e: order.key(e) >= mark if descending else order.key(e) <= mark, kept
        )
    return kept if order.then is None else walk.runs_sorted(kept, order)


def _within_dates(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None,
) -> Iterator[Entry]:
    """By position, with tags left out (else `_counted_walk`), a range of positions within a
    span of dates (Scope.dates): the range walked
    in the position listing, keeping the span's entries, as far as the chunks that would hold
    `needed` entries reach (`_span_walked`); when they hold fewer, the span's entries read whole
    from the date listing (its chunks in one read), kept in the range and sorted. So a narrow
    span does not walk the range a chunk at a time."""
    walked = _span_walked(reads, scope, order, descending, needed, after, whole=scope)
    if walked is not None:
        return iter(walked)
    return _span_sorted(reads, scope, order, descending, after)


def _span_read(reads: Reads, scope: Scope, spanned: Order) -> list[Entry]:
    """The entries a request lists of its span (of each of its ranges of positions:
    `walk.per_range`), from the listings of the span's own order, their chunks in one read."""
    stored = spanned.stored_descending
    reads.read_missing(_span_chunks(reads, scope, spanned, None))
    found: list[Entry] = []
    for part in walk.per_range(scope):
        bounds = walk.window(part, reads.visibility, spanned, stored)
        found += walk.kept_entries(reads, part, spanned, stored, *bounds)
    return found


def _span_chunks(reads: Reads, scope: Scope, spanned: Order, reach: int | None) -> list[str]:
    """The chunks of the span's own order's listings where each of its ranges lies
    (`walk.per_range`), the first `reach` from where each starts (None: all of them)."""
    stored = spanned.stored_descending
    found = []
    for part in walk.per_range(scope):
        start, stop = walk.window(part, reads.visibility, spanned, stored)
        numbers = walk.chunk_numbers(reads, part, spanned, stored, start, stop)
        found += walk.first_chunks(numbers, spanned, reach)
    return found


def _one_after_another(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None,
) -> Iterator[Entry]:
    """The entries of any of several ranges of positions (Scope.spans: disjoint, ascending) by
    position: each range's, in the page's direction, a range walked (`_ordered`) only when the
    page reaches it; the chunk where each starts is read first, all in one read."""
    reads.read_missing(_span_chunks(reads, scope, POSITION, 1))
    parts = walk.per_range(scope)
    return itertools.chain.from_iterable(
        _ordered(reads, part, order, descending, needed, after)
        for part in (reversed(parts) if descending else parts)
    )


def _span_walked(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    needed: int,
    after: tuple[Any, int] | None,
    whole: Scope | None = None,
    wider: bool = True,
) -> list[Entry] | None:
    """The first `needed` entries of a span in `order` (not the span's own), walked in
    that order's listings up to the end of the chunks that would hold `needed` entries from
    where the walk starts, and kept when in the span; when that reach holds fewer and a listing
    goes on, walked again as far as a whole chunk's entries at least (a head holds fewer), its
    further chunks in one read; None when that holds fewer too (then the span is read:
    `_ordered`). Not with a second order key, whose runs may go past that reach (those are
    counted: `_counted_walk`, `_run_closed`). Any of several
    ranges of positions (Scope.spans) is walked once, keeping the entries of any of them.
    `whole`: the scope whose listing window is walked (by default, the scope without its span;
    a range within a span of dates: the scope itself, whose entries kept are in the span).
    `wider`: whether to walk on past the first reach."""
    if order.then is not None:
        return None
    whole = replace(scope, span=None, spans=()) if whole is None else whole
    start, stop = walk.window(whole, reads.visibility, order, descending, after)
    numbers = walk.chunk_numbers(reads, whole, order, descending, start, stop)
    forward = order.forward(descending)
    spanned = walk.span_order(scope)
    assert spanned is not None
    bounds = [walk.window(p, reads.visibility, spanned, False) for p in walk.per_range(scope)]

    def walked(reach: int) -> tuple[list[Entry], bool]:
        """The span's entries in `reach` chunks of each listing (read in one read), and whether
        a listing goes on past them."""
        reads.read_missing(walk.first_chunks(numbers, order, reach))
        ends = [  # the last entry of each listing's reach, of a listing that goes on past it
            order.key(next(walk.listing_entries(reads, key, found[reach - 1 : reach], order.name,
                                                not forward)))
            for key, found in numbers.items()
            if len(found) > reach
        ]  # fmt: skip
        last = stop
        if ends:  # no further than the nearest of them in reading order, that one included
            mark = walk.just_past(max(ends) if descending else min(ends), descending)
            last = mark if stop is None else (max if descending else min)(stop, mark)
        kept = walk.kept_entries(reads, whole, order, descending, start, last)
        in_span = [e for e in kept if any(walk.between(spanned.key(e), *b) for b in bounds)]
        return in_span, bool(ends)

    reach = walk.chunks_needed(reads, numbers, order, needed, backwards=not forward)
    in_span, goes_on = walked(reach)
    further = walk.chunks_needed(
        reads, numbers, order, needed, whole_chunk=True, backwards=not forward
    )
    if len(in_span) < needed and goes_on and further > reach and wider:
        in_span, goes_on = walked(further)
    return in_span if len(in_span) >= needed or not goes_on else None
