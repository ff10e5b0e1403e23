"""A page by number passing the chunks before it (app/listing/listings.py, `_ordered`): the
chunks of its listings wholly before where it starts are counted, not read. A page past the
chunks 0 reads its listings' tallies with them (`passes`); each listing's chunks of the window
(`Passable`: their marks, and what each holds of the entries the request lists, from its tally,
less the nodes left out by id: `left_between`) give the furthest mark before which at most the
entries the page skips can lie (`passed_by`). The walk (app/listing/walk.py, `kept_entries`)
starts there and reads the chunks that hold the page, however deep it lies. A span walked in
another order passes the same way, by the counts of its chunks in the grids
(`counted_passable`, from app/listing/listings.py `_counted_passing`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.listing.scopes import LeftOut, Scope
from app.listing.walk import (
    Bound,
    Entry,
    Key,
    Order,
    Reads,
    ahead,
    between,
    chunk_starts,
    chunks_needed,
    dated,
    first_chunks,
    just_past,
    listing_chunk_id,
    listing_entries,
    listing_numbers,
    shown,
    span_order,
    tally_doc_id,
    walked_keys,
)
from app.publication import Visibility


def passes(scope: Scope, visibility: Visibility, order: Order) -> list[Key]:
    """The listings whose tallies (read with the chunks 0: `tally_doc_id`) let a page by number
    pass chunks without reading them (`page_start`): those it walks and those it counts, for a
    page that walks its listings in their own order (no second order key, no span in another
    order, no span of dates besides a range of positions: their walks are the counted ones of
    app/listing/listings.py) and whose counted groups all have listings (not a calendar only):
    the entries it lists are then those of its counted listings by sign, as its total counts
    them (a tag any of, less the pair's; less a tag left out...). No listing for any other page."""
    spanned = span_order(scope)
    counted = [role for role in scope.groups if role.sign]
    if (
        order.then is not None
        or scope.dates is not None
        or scope.spans
        or (spanned is not None and spanned.name != order.name)
        or not all(scope.has_listings(role) for role in counted)
    ):
        return []
    preview = visibility.preview
    signed = [key for role in counted for key in scope.listings(role, preview)]
    return list(dict.fromkeys([*walked_keys(scope, visibility), *signed]))


@dataclass
class Passable:
    """One listing of a page that passes chunks (`passed_by`): its chunks in reading order
    (`found`), the mark before each (`marks`, exclusive: the first's is None), what each holds
    of the entries listed when its count is known (its tally's, or a span's from the grids:
    `exact`, else None), at most (`most`), and whether it may hold one (`holds`).

    A mark of a chunk of its own divides it from the chunk before; a mark of another listing's
    may fall inside one of its chunks, across which it then lies. Its marks are bisected and
    its counts summed once (`_least`, `_most`: what the chunks before each hold, at least and at
    most), so a page tries a cut in a few steps, not one per chunk of its window."""

    found: list[int]
    marks: list[Bound | None]
    exact: list[int | None]
    most: list[int]
    holds: list[bool]
    _least: list[int] = field(init=False, repr=False)
    _most: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._least = list(itertools.accumulate((e or 0 for e in self.exact), initial=0))
        upper = (most if e is None else e for e, most in zip(self.exact, self.most, strict=True))
        self._most = list(itertools.accumulate(upper, initial=0))

    def before(self, cut: Bound, descending: bool) -> int:
        """How many of its chunks lie wholly before `cut` (a mark of the walk's reading order):
        those whose following mark is not past it. Its marks (from the second) run in reading
        order, so the first one past `cut` is bisected."""
        low, high = 1, len(self.marks)
        while low < high:
            middle = (low + high) // 2
            mark = self.marks[middle]
            if cut > mark if descending else cut < mark:  # past `cut`
                high = middle
            else:
                low = middle + 1
        return low - 1

    def bounds(self, cut: Bound, descending: bool, sign: int) -> tuple[int, int]:
        """At least and at most the entries it lists before `cut`, counted `sign` times: those
        of the chunks wholly before it and of the one across it."""
        whole = self.before(cut, descending)
        least, most = self._least[whole], self._most[whole]
        most += self.most[whole] if self.across(cut, descending, whole) else 0
        return (sign * least, sign * most) if sign > 0 else (sign * most, sign * least)

    def after(self, cut: Bound, descending: bool) -> list[tuple[int, int | None, bool]]:
        """Its chunks from the one across `cut` (or just after it) on: number, exact, holds."""
        whole = self.before(cut, descending)
        return list(zip(self.found, self.exact, self.holds, strict=True))[whole:]

    def across(self, cut: Bound, descending: bool, whole: int | None = None) -> bool:
        """Whether its first chunk not wholly before `cut` may hold entries before it (`whole`:
        how many lie wholly before it, when known)."""
        whole = self.before(cut, descending) if whole is None else whole
        return whole < len(self.found) and self.marks[whole] != cut


def page_start(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    start: Bound | None,
    stop: Bound | None,
    skip: int,
    needed: int,
) -> tuple[Bound | None, int, dict[Key, list[int]] | None]:
    """Where a page by number starts its walk (`passes`), by its listings' tallies: `passed_by`,
    its counted listings by sign, what it lists being what they count (Scope.keeps)."""
    visibility = reads.visibility
    found = {key: _passable(reads, scope, order, descending, start, stop, key)
             for key in passes(scope, visibility, order)}  # fmt: skip
    listings = {key: listing for key, listing in found.items() if listing is not None}
    if len(listings) < len(found):  # a tally not known
        return start, 0, None
    counted = [(role.sign, key) for role in scope.groups if role.sign
               for key in scope.listings(role, visibility.preview)]  # fmt: skip
    walked = walked_keys(scope, visibility)
    return passed_by(reads, scope, order, descending, (start, stop), skip, needed, listings,
                     counted, walked)  # fmt: skip


def passed_by(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    window: tuple[Bound | None, Bound | None],
    skip: int,
    needed: int,
    listings: dict[Key, Passable],
    counted: list[tuple[int, Key]],
    walked_keys: list[Key],
    keep: Callable[[Entry], bool] = lambda entry: True,
) -> tuple[Bound | None, int, dict[Key, list[int]] | None]:
    """Where a page by number starts its walk: an exclusive mark of its reading order, how many
    of the entries it lists lie before it, and the chunks of each listing it walks from there
    (None: from the start of the `window`, none passed). The mark is one before a chunk of one of
    its `listings`, the furthest at which at most `skip` entries can lie before it, counted in
    its `counted` listings by sign (those it lists: the entries Scope.keeps and `keep`). The
    chunks wholly before it whose count is known are counted and not read; the others before it
    (the first of the window, a chunk holding a source still to come, one whose count is not
    known) and a chunk of another listing across the mark are read and their entries before
    the mark counted, in one read with the chunks the walk reads first from the mark that may
    hold an entry listed. So a page by number reads the chunks that hold it, however deep it
    lies."""
    visibility = reads.visibility
    start, _ = window
    counted = [(sign, key) for sign, key in counted if listings[key].found]

    def bounds(cut: Bound) -> tuple[int, int]:
        found = [listings[key].bounds(cut, descending, sign) for sign, key in counted]
        return sum(least for least, _ in found), sum(most for _, most in found)

    # the furthest mark in reading order before which at most `skip` entries lie
    marks = (mark for listing in listings.values() for mark in listing.marks[1:])
    cuts = sorted(marks, reverse=descending)
    cut = next((c for c in reversed(cuts) if bounds(c)[1] <= skip), None)
    if cut is None:
        return start, 0, None
    passed, to_count = 0, {}  # the chunks before the cut counted from their entries
    for sign, key in counted:
        listing = listings[key]
        whole = listing.before(cut, descending)
        passed += sign * sum(e for e in listing.exact[:whole] if e is not None)
        pairs = zip(listing.found[:whole], listing.exact[:whole], strict=True)
        to_count[key] = [n for n, e in pairs if e is None]
        if listing.across(cut, descending) and listing.holds[whole]:
            to_count[key].append(listing.found[whole])
    forward = order.forward(descending)
    # from the cut: the chunks that may hold an entry listed, as far as the page reaches, at most
    # what it takes less what the cut passes at least, and the sources left out by id it may meet
    walked = {key: [n for n, _, held in listings[key].after(cut, descending) if held]
              for key in walked_keys}  # fmt: skip
    need = needed + len(scope.left) - bounds(cut)[0]
    reach = chunks_needed(reads, walked, order, need, backwards=not forward)
    firsts = first_chunks(walked, order, reach)
    for key in walked:  # and as far as their counts reach the entries it takes
        listing, reached = listings[key], 0
        across = listing.across(cut, descending)
        for at, (number, exact, held) in enumerate(listing.after(cut, descending)):
            if reached >= need:
                break
            firsts += [listing_chunk_id(key, number, order.name)] if held else []
            reached += 0 if at == 0 and across else exact or 0  # across: some before the cut
    reads.read_missing([*first_chunks(to_count, order, reach=None), *firsts])
    lower, upper = (cut, start) if descending else (start, cut)
    for sign, key in counted:
        entries = listing_entries(reads, key, to_count[key], order.name, forward,
                                  within=(lower, upper))  # fmt: skip
        passed += sign * sum(1 for e in entries if shown(scope, visibility, e) and keep(e))
    return cut, passed, walked


def _passable(
    reads: Reads,
    scope: Scope,
    order: Order,
    descending: bool,
    start: Bound | None,
    stop: Bound | None,
    key: Key,
) -> Passable | None:
    """A listing's chunks of the window in reading order, as a page by number passes them
    (`Passable`); None when its chunk 0 or its tally was not read (a page that starts within
    the chunks 0: Scope.head) or it has no tally (a generation written before them)."""
    head_id, tally_id = listing_chunk_id(key, 0, order.name), tally_doc_id(key, order.name)
    if reads.missing([head_id, tally_id]):  # not read with the chunks 0 (`passes`)
        return None
    head, tally = reads.get(head_id), reads.get(tally_id)
    found = listing_numbers(head, order, descending, start, stop)
    if head is None or not found:
        return Passable([], [None], [], [], [])  # no entry
    if tally is None:
        return None
    starts = chunk_starts(head, order)
    exact: list[int | None] = []
    most: list[int] = []
    holds: list[bool] = []
    for at, number in enumerate(found):
        groups = tally["chunks"][number]["groups"] if number < len(tally["chunks"]) else None
        held = len(head["ids"]) if number == 0 else head["size"]
        most.append(sum(g["count"] for g in groups) if groups is not None else held)
        allowed = [g for g in groups or () if scope.allows(g)]
        holds.append(groups is None or bool(allowed))
        if groups is not None and not allowed:  # nothing the request lists
            exact.append(0)
            continue
        # the first of the window, unless it starts the listing, and the last may lie across it
        window = (at == 0 and start is not None) or at == len(found) - 1
        if groups is None or window or ahead(allowed, reads.visibility):
            exact.append(None)  # read and counted from its entries when passed
            continue
        left = _left_in_chunk(scope, reads.visibility, key, order, starts, number)
        exact.append(sum(g["count"] for g in allowed) - left)
    return Passable(found, _marks(starts, found, order, descending), exact, most, holds)


def counted_passable(
    reads: Reads,
    scope: Scope,
    key: Key,
    order: Order,
    descending: bool,
    found: list[int],
    counts: dict[int, int],
    within: Callable[[Entry], bool],
) -> Passable:
    """A listing's chunks of the window in reading order (`found`, its chunk 0 read), as a page
    by number passes them when `counts` says how many entries of each (not across the window's
    bounds) it lists: of a span walked in another order (app/listing/listings.py). A chunk
    holding a source left out by id (`within` the span) is read and counted from its entries:
    the counts take some of those in (the grids'), and not others (those across the span's
    bounds, counted from their entries)."""
    head = reads.get(listing_chunk_id(key, 0, order.name))
    if head is None or not found:
        return Passable([], [None], [], [], [])  # no entry
    starts = chunk_starts(head, order)
    exact: list[int | None] = []
    for number in found:
        count = counts.get(number)
        if count and _left_in_chunk(scope, reads.visibility, key, order, starts, number, within):
            count = None
        exact.append(count)
    most = [len(head["ids"]) if number == 0 else head["size"] for number in found]
    holds = [count != 0 for count in exact]
    return Passable(found, _marks(starts, found, order, descending), exact, most, holds)


def _marks(
    starts: Sequence[Bound], found: list[int], order: Order, descending: bool
) -> list[Bound | None]:
    """The mark before each of a listing's chunks (`found`, in reading order) that divides it
    from the chunk before (None for the first), exclusive: between their entries."""
    forward = order.forward(descending)
    marks: list[Bound | None] = [None]
    for at in range(1, len(found)):
        first = starts[found[at]] if forward else starts[found[at - 1]]
        marks.append(just_past(first, not descending) if forward else just_past(first, descending))
    return marks


def _left_in_chunk(
    scope: Scope,
    visibility: Visibility,
    key: Key,
    order: Order,
    starts: Sequence[Bound],
    number: int,
    within: Callable[[Entry], bool] = lambda entry: True,
) -> int:
    """The sources left out by id that chunk `number` of a listing holds (`left_between`; none
    to look for when the request leaves none out, as most do)."""
    if not scope.left:
        return 0
    return left_between(scope, visibility, key, order, *_chunk_marks(starts, number, order), within)


def _chunk_marks(starts: Sequence[Bound], number: int, order: Order) -> tuple[Bound, Bound | None]:
    """The keys of chunk `number` of a listing as exclusive marks (lower, upper), ascending."""
    following = starts[number + 1] if number + 1 < len(starts) else None
    if order.stored_descending:
        return following, just_past(starts[number], descending=False)
    return just_past(starts[number], descending=True), following


def left_between(
    scope: Scope,
    visibility: Visibility,
    key: Key,
    order: Order,
    lower: Bound | None,
    upper: Bound | None,
    within: Callable[[Entry], bool] = lambda entry: True,
) -> int:
    """The sources left out by id (Scope.left) that a listing's tally counts between two
    exclusive marks of its order (`between`): held by the listing, published (any, in preview)
    and in a group the request lists (Scope.admits); known from their own fields, with no
    read. `within`: a span's, in another order, that the counts are of."""
    return sum(
        1
        for source in scope.left
        if key in source.listings
        and between(order.key(_left_entry(source)), lower, upper)
        and within(_left_entry(source))
        and (visibility.preview or _published(source.published_at, visibility.now))
        and scope.admits(list(source.realm_ids), source.visible, source.block, source.no_index)
    )


def _published(moment: Any, now: Any) -> bool:
    return moment is not None and moment <= now


def _left_entry(source: LeftOut) -> Entry:
    """A source left out by id as an entry of its listings (its order keys)."""
    return (dated(source.published_at), source.source_id, [], source.position, True, False, False)
