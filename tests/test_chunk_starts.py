"""A listing's chunks for a span, from its chunk 0's starts (`starts`: each chunk's first entry,
app/fixture/listings.py): found by bisection (app.listing.walk.Starts), so that a span costs the
same in a listing of any length, and the same chunks as the rule says, one chunk at a time: stored
ascending, chunk n holds the keys from its first entry to before the next chunk's; stored
descending (by date, newest first), the keys after the next chunk's first entry up to its own.
A chunk's own entries within a span are found by the same bisection (`within`).
"""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest

from app.listing import totals, walk
from app.listing.walk import DATE, DEFAULT, POSITION, Order

ORDERS = [DATE, POSITION, DEFAULT]
START = datetime(2023, 1, 1, tzinfo=UTC)


def _head(order: Order, firsts: list[tuple[datetime | None, int, float]]) -> dict:
    """A listing's chunk 0 whose chunks start with these entries (published_at, _id, position)."""
    return {
        "chunks": len(firsts),
        "starts": {
            "published_at": [moment for moment, _, _ in firsts],
            "ids": [source_id for _, source_id, _ in firsts],
            "positions": [position for _, _, position in firsts],
        },
    }


def _stored(rng: random.Random, order: Order, count: int):
    """`count` random entries (published_at, _id, position; some undated) stored in the order,
    and their keys."""
    entries = [
        (START + timedelta(days=rng.randint(0, 30)) if rng.random() > 0.1 else None,
         source_id, float(rng.randint(0, 30)))
        for source_id in rng.sample(range(1, 10_000), count)
    ]  # fmt: skip

    def key(e):
        return order.key((walk.dated(e[0]), e[1], [], e[2], True, False))

    stored = sorted(entries, key=key, reverse=order.stored_descending)
    return stored, [key(e) for e in stored]


def _random_listing(rng: random.Random, order: Order, chunks: int):
    """A listing of `chunks` chunks of 1 to 4 entries, stored in its order, and its keys."""
    stored, keys = _stored(rng, order, chunks * 4)
    cuts = [0, *sorted(rng.sample(range(1, len(stored)), chunks - 1))]
    return _head(order, [stored[at] for at in cuts]), keys


def _holder(starts: list, key, descending: bool) -> int:
    """The chunk that holds a key, one chunk at a time (the rule)."""
    held = [
        n
        for n, first in enumerate(starts)
        if (key <= first if descending else key >= first)
        and (n + 1 == len(starts) or (key > starts[n + 1] if descending else key < starts[n + 1]))
    ]
    return held[0] if held else -1


def _marks(rng: random.Random, keys: list):
    """A mark (exclusive) on a listing's keys: none, a key, or just past one either way."""
    if rng.random() < 0.2:
        return None
    key = rng.choice(keys)
    return key if rng.random() < 0.3 else walk.just_past(key, rng.random() < 0.5)


def _span(rng: random.Random, keys: list):
    """Two marks in ascending order (either may be none)."""
    lower, upper = _marks(rng, keys), _marks(rng, keys)
    if lower is not None and upper is not None and lower > upper:
        return upper, lower
    return lower, upper


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: o.name)
def test_the_chunk_of_a_key_and_the_chunks_inside_a_span_are_those_of_the_rule(order):
    rng = random.Random(order.name)
    descending = order.stored_descending
    for _ in range(300):
        head, keys = _random_listing(rng, order, rng.randint(1, 12))
        starts = list(walk.chunk_starts(head, order))
        lower, upper = _span(rng, keys)
        inside, chunk_of = totals._walked_chunks(head, order, (lower, upper))
        for key in keys:
            assert chunk_of(key) == _holder(starts, key, descending)
        # wholly inside: every key it may hold lies strictly between the marks
        expected = []
        for n, first in enumerate(starts):
            following = starts[n + 1] if n + 1 < len(starts) else None
            if descending:
                newest_in = upper is None or first < upper
                oldest_in = following is not None and (lower is None or following >= lower)
                if newest_in and oldest_in and (lower is None or first > lower):
                    expected.append(n)
            elif (lower is None or first > lower) and (
                upper is None or (following is not None and following <= upper)
            ):
                expected.append(n)
        assert list(inside) == expected, (lower, upper, starts)


def test_a_span_of_dates_is_split_into_chunks_inside_and_across_as_the_rule_says():
    rng = random.Random(7)
    for _ in range(500):
        head, keys = _random_listing(rng, DATE, rng.randint(1, 12))
        starts = list(walk.chunk_starts(head, DATE))
        lower, upper = _span(rng, keys)
        inner, across = totals._date_chunks(head, (lower, upper))
        for n, newest in enumerate(starts):
            older = starts[n + 1] if n + 1 < len(starts) else None
            reached = not (lower is not None and newest <= lower) and not (
                upper is not None and older is not None and older >= upper
            )
            inside = (upper is None or newest < upper) and (
                older is not None and (lower is None or older >= lower)
            )
            assert (n in inner) == (reached and inside), (n, lower, upper, starts)
            assert (n in across) == (reached and not inside), (n, lower, upper, starts)


class _Counted(walk.Starts):
    """Starts that count how many of them a request makes."""

    made = 0

    def __getitem__(self, number):
        _Counted.made += 1
        return super().__getitem__(number)


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: o.name)
def test_a_span_costs_the_same_few_starts_in_a_listing_of_any_length(order, monkeypatch):
    """Bisected: the starts a span makes grow with the logarithm of the listing's chunks (here
    at most six bisections of 2^17 chunks), not with their number."""
    monkeypatch.setattr(walk, "chunk_starts", lambda head, o: _Counted(head["starts"], o))
    chunks = 2**17
    firsts = [(START + timedelta(minutes=n), n + 1, float(n)) for n in range(chunks)]
    head = _head(order, firsts[::-1] if order.stored_descending else firsts)
    keys = sorted(walk.chunk_starts(head, order))
    lower, upper = keys[chunks // 3], keys[chunks // 3 + 5]
    _Counted.made = 0
    inner, _ = totals._walked_chunks(head, order, (lower, upper))
    # read forward (in the stored order), from the mark it starts at to the one it stops at
    start, stop = (upper, lower) if order.stored_descending else (lower, upper)
    numbers = walk.listing_numbers(head, order, order.stored_descending, start, stop)
    assert len(inner) == 4 and 5 <= len(numbers) <= 7
    assert _Counted.made <= 6 * (math.log2(chunks) + 2)


def test_a_range_of_positions_found_from_chunk_0_holds_every_key_of_the_range():
    """Without its tally (a page by position reads its chunk 0 anyway), a position listing's
    chunks for a range come from its starts: the chunks wholly inside hold only keys of the
    range, every key of the range lies in one of them or in a chunk across, and the marks around
    the inner chunks set apart exactly their keys."""
    rng = random.Random(11)
    for _ in range(500):
        head, keys = _random_listing(rng, POSITION, rng.randint(1, 12))
        listing = ("Article", "en", None, False)
        found = totals._PositionChunks.of(_Read({"|position|0": head}), listing)
        starts = list(walk.chunk_starts(head, POSITION))
        lower, upper = _span(rng, keys)
        inner, across = found.split(None, lower, upper)
        assert not set(inner) & set(across)
        for key in keys:
            holder = _holder(starts, key, descending=False)
            if walk.between(key, lower, upper):
                assert holder in inner or holder in across, (key, lower, upper, starts)
            if holder in inner:
                assert walk.between(key, lower, upper), (key, lower, upper, starts)
        if inner:
            around = found.around(inner)
            for key in keys:
                assert walk.between(key, *around) == (_holder(starts, key, False) in inner)


class _Read:
    """What a request has read (walk.Reads.get), by the end of the chunk's `_id`."""

    def __init__(self, chunks: dict) -> None:
        self.chunks = chunks

    def get(self, chunk_id: str):
        return next((c for end, c in self.chunks.items() if chunk_id.endswith(end)), None)


def _chunk(rng: random.Random, order: Order, size: int) -> dict:
    """A listing chunk of `size` entries stored in its order, as app/fixture/listings.py writes
    one (its parallel arrays; realms, hidden and no_index at a few entries)."""
    stored, _ = _stored(rng, order, size)
    marked = sorted(rng.sample(range(size), min(size, 3)))
    return {
        "published_at": [moment for moment, _, _ in stored],
        "ids": [source_id for _, source_id, _ in stored],
        "positions": [position for _, _, position in stored],
        "realms": [{"at": at, "ids": [at + 1], "block": at % 2 == 0} for at in marked],
        "hidden": marked[:1],
        "no_index": marked[1:2],
    }


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: o.name)
def test_the_entries_within_marks_are_those_of_the_whole_chunk_strictly_between_them(order):
    """A chunk across a span's edge is counted from the entries inside it only, found by
    bisection (walk.listing_entries `within`): the same entries, with the same fields, in the
    same reading order, as the whole chunk filtered by the marks."""
    rng = random.Random(f"within {order.name}")
    key = ("Article", "en", "-", False)
    for _ in range(300):
        chunk = _chunk(rng, order, rng.randint(1, 12))
        chunk_id = walk.listing_chunk_id(key, 0, order.name)
        reads = walk.Reads(generation=None, visibility=None, chunks={chunk_id: chunk})
        keys = [order.key(e) for e in walk.listing_entries(reads, key, [0], order.name, True)]
        lower, upper = _span(rng, keys)
        for forward in (True, False):
            whole = walk.listing_entries(reads, key, [0], order.name, forward)
            expected = [e for e in whole if walk.between(order.key(e), lower, upper)]
            within = walk.listing_entries(
                reads, key, [0], order.name, forward, within=(lower, upper)
            )
            assert list(within) == expected, (lower, upper, keys)
