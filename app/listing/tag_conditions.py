"""The tag conditions of a collection filter folded into the one shape a plain scope answers
(app/listing/calendar.py): no tag, one tag, two tags any of or both, one or two tags left out, or
one tag and another left out.

A filter may name tags several ways, each compiled by app/listing/filters.py into a condition on
the tag ids or slugs a source stores: `node.nodesTags.tag.tagName=a` (equality), `...[]=a&...[]=b`
(`$in`: any of), `intersect[...]` (`$all`: every one), `not[...]` (`$nin`: none of) and
`tagGroup[]=a,b` (a clause `$in`, every group: all of them). Together they are a conjunction of
clauses over tags, which `fold` simplifies (a clause met by a required tag is dropped, a tag left
out is taken out of the clauses that name it, a clause holding another or repeated is dropped) and
names when what is left is one of the shapes above (by tag id or slug alike: `not[...]` is offered
by slug only, but a condition left out on the ids reads the same); any other (three tags, any of
two and one left out...) stays on the index.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The stored paths of the tag filters (app/listing/sources.py compiles them).
TAG_SLUGS = "node.tag_slugs"
TAG_IDS = "node.tag_ids"
TAG_PATHS = (TAG_SLUGS, TAG_IDS)


@dataclass(frozen=True)
class Tags:
    """What a filter asks of tags: `tag` (None: nothing), and with `also` either of them
    (`both` False) or both (`both` True); `without`: a tag whose sources are left out (with
    `without_also`, a second one; with `tag`, not with `also`, alone); `void`: nothing can match
    (a required tag slug no tag has, a tag both required and left out, a clause whose tags are
    all unknown or left out)."""

    tag: int | None = None
    also: int | None = None
    both: bool = False
    without: int | None = None
    without_also: int | None = None
    void: bool = False


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


def _shape(required: set[int], any_of: list[set[int]], left_out: set[int]) -> Tags | None:
    """The plain shapes: any of two tags alone; up to two tags required, or up to two left out,
    or one of each (what the calendars and listings of tags and pairs of tags count exactly)."""
    if any_of:
        if required or left_out or len(any_of) > 1 or len(any_of[0]) > 2:
            return None
        tag, also = sorted(any_of[0])
        return Tags(tag=tag, also=also)
    if len(required) + len(left_out) > 2:
        return None
    tags, gone = sorted(required), sorted(left_out)
    return Tags(
        tag=tags[0] if tags else None, also=tags[1] if len(tags) > 1 else None,
        both=len(tags) > 1, without=gone[0] if gone else None,
        without_also=gone[1] if len(gone) > 1 else None,
    )  # fmt: skip
