"""A page by number trying where to start (app/listing/passing.py, `Passable`): how many chunks
lie wholly before a cut and how many entries they hold, at least and at most, are those the rule
gives chunk by chunk, and cost a bisection, not a step per chunk of the window."""

from __future__ import annotations

import random
from functools import total_ordering

import pytest

from app.listing.passing import Passable


def _rule_before(marks: list, cut, descending: bool) -> int:
    """The chunks whose following mark is not past `cut` in reading order, counted one by one."""
    return sum(1 for mark in marks[1:] if not (cut > mark if descending else cut < mark))


def _rule_bounds(listing: Passable, cut, descending: bool, sign: int) -> tuple[int, int]:
    whole = _rule_before(listing.marks, cut, descending)
    least = sum(e or 0 for e in listing.exact[:whole])
    most = sum(listing.most[at] if e is None else e for at, e in enumerate(listing.exact[:whole]))
    across = whole < len(listing.found) and listing.marks[whole] != cut
    most += listing.most[whole] if across else 0
    return (sign * least, sign * most) if sign > 0 else (sign * most, sign * least)


def _listing(rng: random.Random, chunks: int, descending: bool) -> Passable:
    keys = sorted(rng.sample(range(0, 10 * chunks + 10, 2), chunks), reverse=descending)
    most = [rng.randint(1, 5) for _ in range(chunks)]
    exact = [None if rng.random() < 0.3 else rng.randint(0, m) for m in most]
    holds = [e != 0 for e in exact]
    return Passable(list(range(chunks)), [None, *keys[1:]], exact, most, holds)


@pytest.mark.parametrize("descending", [False, True])
def test_the_chunks_before_a_cut_and_their_bounds_are_the_rules(descending):
    rng = random.Random(15 + descending)
    for _ in range(400):
        listing = _listing(rng, rng.randint(1, 12), descending)
        for cut in range(-1, 10 * len(listing.found) + 12):  # on and between the marks
            assert listing.before(cut, descending) == _rule_before(listing.marks, cut, descending)
            for sign in (1, -1):
                found = listing.bounds(cut, descending, sign)
                assert found == _rule_bounds(listing, cut, descending, sign)


@total_ordering
class _Counted:
    """A mark that counts how often it is compared."""

    compared = 0

    def __init__(self, value: int) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        _Counted.compared += 1
        return isinstance(other, _Counted) and self.value == other.value

    def __lt__(self, other: _Counted) -> bool:
        _Counted.compared += 1
        return self.value < other.value

    __hash__ = None  # type: ignore[assignment]


def test_a_cut_in_a_window_of_many_chunks_is_bisected():
    chunks = 1 << 14
    marks = [None, *(_Counted(2 * n) for n in range(1, chunks))]
    listing = Passable(list(range(chunks)), marks, [1] * chunks, [1] * chunks, [True] * chunks)
    _Counted.compared = 0
    assert listing.bounds(_Counted(2 * 9000 + 1), False, 1) == (9000, 9001)
    assert _Counted.compared <= 2 * 15 + 2  # a bisection (and the mark across), not 16,384
