"""The tag conditions of a collection filter folded into the one shape a plain scope answers
(app/listing/plain.py): no tag, or at most three tags in all: one tag, two or three any of
them or all of them, any of two and a third, one or two tags left out of these, three left out.

A filter may name tags several ways, each compiled by app/listing/filters.py into a condition on
the tag ids or slugs a source stores: `node.nodesTags.tag.tagName=a` (equality), `...[]=a&...[]=b`
(`$in`: any of), `intersect[...]` (`$all`: every one), `not[...]` (`$nin`: none of) and
`tagGroup[]=a,b` (a clause `$in`, every group: all of them). Together they are a conjunction of
clauses over tags, which `fold` simplifies (a clause met by a required tag is dropped, a tag left
out is taken out of the clauses that name it, a clause holding another or repeated is dropped) and
names when what is left is one of the shapes above (by tag id or slug alike: `not[...]` is offered
by slug only, but a condition left out on the ids reads the same). Any other (four tags, any of two
in two clauses...) is `Tags.general`: `tag_sets` expands it, by inclusion and exclusion, into the
groups of sources carrying a set of tags (TagSet) that list it and count it, which a site whose
sources carry no more tags than its largest listed combination has (beyond those, a set has no
source); else, or above TAG_SETS_MAX groups, it stays on the index.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

# The stored paths of the tag filters (app/listing/sources.py compiles them).
TAG_SLUGS = "node.tag_slugs"
TAG_IDS = "node.tag_ids"
TAG_PATHS = (TAG_SLUGS, TAG_IDS)
# The most groups of tag sets a general tag condition reads (`tag_sets`; each is a calendar and,
# listed or taken, a listing per type and translation); more stay on the index.
TAG_SETS_MAX = 200
# A general condition: the tags required, the clauses (any of each), the tags left out.
General = tuple[frozenset[int], tuple[frozenset[int], ...], frozenset[int]]


def counted_together(largest: int, counted: int | None) -> int:
    """The most tags a group with a calendar combines: those with calendars only (`counted`;
    None: not recorded), never fewer than those listed (`largest`), which have calendars too."""
    return largest if counted is None else max(counted, largest)


@dataclass(frozen=True)
class Tags:
    """What a filter asks of tags: `tag` (None: nothing), and with `also` (and `third`) any of
    them (`both` False) or all of them (`both` True); `within`: a tag that any of two requires
    too; `without`: a tag whose sources are left out (with `without_also`, a second one, and with
    `without_third` a third, when it requires none; not with `third` or `within`); `general`:
    any other condition (`tag_sets` expands it); `void`: nothing can match (a required tag slug
    no tag has, a tag both required and left out, a clause whose tags are all unknown or left
    out)."""

    tag: int | None = None
    also: int | None = None
    third: int | None = None
    both: bool = False
    within: int | None = None
    without: int | None = None
    without_also: int | None = None
    without_third: int | None = None
    general: General | None = None
    void: bool = False


class TagSet(NamedTuple):
    """One group of a general tag condition (`tag_sets`): the sources carrying every one of
    `tags`, counted `sign` times in its total (0: not counted), `listed` (a page merges its
    listings: a conjunction the condition admits) or `taken` (a page takes its listings' entries
    away: a conjunction admitted with a tag left out). It keys a scope's groups as a Role does."""

    tags: tuple[int, ...]
    sign: int
    listed: bool
    taken: bool

    @property
    def walked(self) -> bool:
        return self.listed or self.taken


class _TooMany(Exception):
    """A tag set larger than the site's counted combinations (or, walked by a page, its listed
    ones) that some source may carry, or more than TAG_SETS_MAX of them."""


def tag_sets(
    general: General, *, largest: int, most: int | None, counted: int | None = None
) -> tuple[TagSet, ...] | None:
    """The groups of a general condition (Tags.general): every tag set its sources count by
    (inclusion and exclusion: a source carrying all required tags, some tag of each clause and
    none left out is counted once), and the sets a page merges (the conjunctions it admits) and
    takes away (those with a tag left out). A set of more than `most` tags (the most a source
    carries; None: unknown) has no source and is dropped; None (the index) when a set that may
    have sources has more tags than the site counts together (`counted`, calendars; None:
    `largest`) or, for a set a page walks, lists together (`largest`, listings), or when there
    are more than TAG_SETS_MAX groups."""
    required, clauses, left_out = general
    limit = counted_together(largest, counted)
    # the largest sets worth naming: those of more tags have no source, or make it not plain
    bound = limit + 1 if most is None else most

    def fits(tags: frozenset[int], within: int) -> bool:  # it may have sources: within reach
        if most is not None and len(tags) > most:
            return False
        if len(tags) > within:
            raise _TooMany
        return True

    counts = functools.partial(fits, within=limit)  # it then has a calendar
    walks = functools.partial(fits, within=largest)  # and listings
    try:
        counted_sets: dict[frozenset[int], int] = (
            {frozenset(required): 1} if counts(required) else {}
        )
        for clause in clauses:  # some tag of it: the sum over its tag sets, odd ones added
            counted_sets = _times(counted_sets, _some_of(clause, bound), counts)
        for tag in left_out:  # none of them: less those carrying it
            counted_sets = _times(counted_sets, {frozenset(): 1, frozenset({tag}): -1}, counts)
        # the conjunctions, grown a clause at a time (a set only grows: one of more tags than a
        # source carries is dropped at once, not after the product of every clause)
        listed = {frozenset(required)} if walks(required) else set()
        for clause in clauses:
            listed = _least({tags | {tag} for tags in listed for tag in clause}, walks)
        taken = _least({tags | {tag} for tags in listed for tag in left_out}, walks)
    except _TooMany:
        return None
    groups = {*listed, *taken, *(tags for tags, sign in counted_sets.items() if sign)}
    if len(groups) > TAG_SETS_MAX:
        return None
    return tuple(
        TagSet(tuple(sorted(tags)), counted_sets.get(tags, 0), tags in listed, tags in taken)
        for tags in sorted(groups, key=lambda tags: (len(tags), sorted(tags)))
    )


def _least(found: set[frozenset[int]], fits: Any) -> set[frozenset[int]]:
    """The sets that may have sources (`fits`) and hold none of the others (the sources of a set
    are among those of any set it holds: merged, their listings list the same without it);
    _TooMany above TAG_SETS_MAX."""
    found = {tags for tags in found if fits(tags)}
    if len(found) > TAG_SETS_MAX:
        raise _TooMany
    return {tags for tags in found if not any(other < tags for other in found)}


def _some_of(clause: frozenset[int], bound: int) -> dict[frozenset[int], int]:
    """`some tag of clause` as a signed sum over its tag sets of up to `bound` tags (the larger
    ones are checked by the product's `fits`: they have no source or make it not plain)."""
    terms = {}
    for size in range(1, min(len(clause), bound) + 1):
        for tags in itertools.combinations(sorted(clause), size):
            terms[frozenset(tags)] = 1 if size % 2 else -1
            if len(terms) > TAG_SETS_MAX:
                raise _TooMany
    return terms


def _times(
    terms: Mapping[frozenset[int], int],
    factor: Mapping[frozenset[int], int],
    fits: Any,
) -> dict[frozenset[int], int]:
    """The product of two signed sums over tag sets (the sources carrying A and those carrying B
    are those carrying A | B), less the sets that have no source."""
    if len(terms) * len(factor) > TAG_SETS_MAX**2:  # a bounded amount of work per clause
        raise _TooMany
    found: dict[frozenset[int], int] = defaultdict(int)
    for (tags, sign), (more, times) in itertools.product(terms.items(), factor.items()):
        union = tags | more
        if fits(union):
            found[union] += sign * times
            if len(found) > TAG_SETS_MAX:
                raise _TooMany
    return {tags: sign for tags, sign in found.items() if sign}


_VOID = Tags(void=True)


def _ids(path: str, values: list[Any], tag_ids: Mapping[str, int]) -> list[int | None] | None:
    """The tag ids of a condition's values (None for a slug no tag has); None when a value is
    not what the path stores (a slug as a string, an id as an integer)."""
    if path == TAG_IDS:
        return list(values) if all(type(v) is int for v in values) else None
    if not all(isinstance(v, str) for v in values):
        return None
    return [tag_ids.get(v) for v in values]


def fold(conditions: list[tuple[str, Any]], tag_ids: Mapping[str, int]) -> Tags | None:
    """The tag shape of a conjunction of conditions on TAG_PATHS ((path, condition) pairs), or
    None when it has no plain shape."""
    required: set[int] = set()
    clauses: list[set[int]] = []  # any of each
    left_out: set[int] = set()
    for path, condition in conditions:
        operator, values = "$eq", [condition]
        if isinstance(condition, dict):
            if len(condition) != 1 or not isinstance(next(iter(condition.values())), list):
                return None
            operator, values = next(iter(condition.items()))
        ids = _ids(path, values, tag_ids)
        if ids is None or operator not in ("$eq", "$in", "$all", "$nin"):
            return None
        known = {i for i in ids if i is not None}
        if operator == "$nin":
            left_out |= known
        elif operator == "$in":
            clauses.append(known)
        elif None in ids or not ids:  # a required slug that no tag has; `$all` of none
            return _VOID
        else:
            required |= known
    if required & left_out:
        return _VOID
    any_of: list[set[int]] = []
    for clause in clauses:
        if clause & required:
            continue
        clause = clause - left_out
        if not clause:
            return _VOID
        if len(clause) == 1:
            required |= clause
        else:
            any_of.append(clause)
    any_of = [c for c in any_of if not c & required]
    # a clause holding another is met whenever that one is (`tagGroup[]=a,b&tagGroup[]=a,b,c`)
    least = [c for n, c in enumerate(any_of) if not any(o < c or (o == c and m < n)
                                                      for m, o in enumerate(any_of))]  # fmt: skip
    return _shape(required, least, left_out)


def _shape(required: set[int], any_of: list[set[int]], left_out: set[int]) -> Tags:
    """The named shapes, what the calendars and listings of tags and of combinations of two and
    three tags count exactly: any of two or three tags; any of two and a third required, or a
    third left out; up to three tags required or left out, three in all at most (a tag and one or
    two left out, two and one left out, three left out...); any other is general."""
    general = (frozenset(required), tuple(frozenset(c) for c in any_of), frozenset(left_out))
    if any_of:
        clause = sorted(any_of[0])
        if len(any_of) > 1 or len(clause) + len(required) + len(left_out) > 3:
            return Tags(general=general)
        if len(clause) == 3:
            return Tags(tag=clause[0], also=clause[1], third=clause[2])
        return Tags(
            tag=clause[0], also=clause[1], within=min(required, default=None),
            without=min(left_out, default=None),
        )  # fmt: skip
    if len(required) + len(left_out) > 3:
        return Tags(general=general)
    tags, gone = sorted(required), sorted(left_out)
    return Tags(
        tag=tags[0] if tags else None, also=tags[1] if len(tags) > 1 else None,
        third=tags[2] if len(tags) > 2 else None, both=len(tags) > 1,
        without=gone[0] if gone else None, without_also=gone[1] if len(gone) > 1 else None,
        without_third=gone[2] if len(gone) > 2 else None,
    )  # fmt: skip
