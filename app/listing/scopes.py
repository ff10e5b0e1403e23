"""Which collection requests are *plain*: answered from the materialised calendars and listings
(app/listing/calendar.py, app/listing/listings.py) instead of reading every matching source.

A request is plain when its filter names only its translations, its node types (one, several or
every type: app.listing.sources folds every type condition into one), the realms it may not see
(what build_query adds without any filter parameter), the blocks hidden from it (the hide_blocks
clause: `hide_blocks_clause`), the nodes' visibility (`node.visible`), tags in one of the shapes
app/listing/tag_conditions.py folds them into (one tag; two or three tags, any of them or all of
them, when the site lists the combinations a page walks and counts those a total needs:
Scope.has_listings; tags left out, up to three: their sources are taken away, which gives totals
and pages, and the months of an archive), the nodes left out by id (`node.home=false`: the home
node, whose sources the site model holds; `not[node.id]`, whose sources it reads, with the fields
that tell which listings hold each: `Scope.left`) and at most one parent by equality
(`node.parent`) among the site's listed parents (those with more than PARENT_LISTED children;
fewer are read along the `parent_*` indexes, a bounded range), and, for a page, a span of
publication dates or a range of positions (Span; or any of several positions: Scope.spans).
`plain_scope` turns such a filter into a Scope, the groups it reads with the role of each
(Role); any other filter is answered by the indexed queries, whose cost follows the number of
matches (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from app.listing.tag_conditions import (
    TAG_IDS,
    TAG_PATHS,
    TAG_SLUGS,
    TagSet,
    counted_together,
    fold,
    tag_sets,
)
from app.membership import Listing, calendar_group, listings_of
from app.query_plan import ALL_TYPES, Group, parent_group, tags_group

if TYPE_CHECKING:
    from app.site import SiteModel

VISIBLE = "node.visible"
NO_INDEX = "no_index"
PARENT = "node.parent"
HOME = "node.home"
NODE_ID = "node_id"
PLAIN_KEYS = frozenset(
    {"locale", "type", "node.realm_ids", VISIBLE, NO_INDEX, TAG_SLUGS, TAG_IDS, PARENT}
)
# Where app.listing.params.QueryBuilder puts a clause (the hide_blocks one).
CLAUSES = "$and"
# The stored path of the publication date filters (`publishedAt[...]`).
PUBLISHED_AT = "published_at"
# The stored path of the position filters (`node.position[...]`).
POSITION = "node.position"


class Role(StrEnum):
    """The role of one of a scope's groups of calendars and listings (Scope.groups, whose tags
    Scope._tag_sets names): `own` (what it lists: a tag's, or the group of all the tags it asks
    for), `also` (a second listed group, which it lists too), `overlap` (the sources of both,
    counted in both: taken away from `also`'s counts), `left_out` (the sources of `own` that
    carry a tag left out), `left_also` (those of `also` that carry it, or those of `own` that
    carry a second tag left out) and `left_overlap` (those counted in both of these: taken away
    from `left_also`'s); with three tags any of, `third` (the third tag's, which it lists too),
    `third_own` and `third_also` (the pairs of the third and each other tag, taken away from
    `third`'s) and `all_three` (the three tags', counted in both those pairs: given back); with
    three tags left out, `left_third`, `left_third_own`, `left_third_also` and `left_all_three`,
    the same for what is left out."""

    OWN = "own"
    ALSO = "also"
    OVERLAP = "overlap"
    LEFT_OUT = "left_out"
    LEFT_ALSO = "left_also"
    LEFT_OVERLAP = "left_overlap"
    THIRD = "third"
    THIRD_OWN = "third_own"
    THIRD_ALSO = "third_also"
    ALL_THREE = "all_three"
    LEFT_THIRD = "left_third"
    LEFT_THIRD_OWN = "left_third_own"
    LEFT_THIRD_ALSO = "left_third_also"
    LEFT_ALL_THREE = "left_all_three"

    @property
    def sign(self) -> int:
        """How its sources count in the scope: those listed, less those counted twice (the
        pair of two tags any of), plus those taken away twice (the three tags of three any of),
        less those left out."""
        return SIGNS[self]

    @property
    def walked(self) -> bool:
        """Whether a page walks its listings (an overlap only counts: its sources come in the
        listings of its tags)."""
        return self.listed or self.taken

    @property
    def listed(self) -> bool:
        """Whether a page merges its listings (LISTED_ROLES)."""
        return self in LISTED_ROLES

    @property
    def taken(self) -> bool:
        """Whether a page takes its listings' entries away from those merged (TAKEN_ROLES)."""
        return self in TAKEN_ROLES


# The roles whose listings a page merges (any of their sources is listed), and those whose
# listings it takes away from them, type by type and translation by translation.
LISTED_ROLES = (Role.OWN, Role.ALSO, Role.THIRD)
TAKEN_ROLES = (Role.LEFT_OUT, Role.LEFT_ALSO, Role.LEFT_THIRD)


SIGNS = {Role.OWN: 1, Role.ALSO: 1, Role.OVERLAP: -1, Role.LEFT_OUT: -1, Role.LEFT_ALSO: -1,
         Role.LEFT_OVERLAP: 1, Role.THIRD: 1, Role.THIRD_OWN: -1, Role.THIRD_ALSO: -1,
         Role.ALL_THREE: 1, Role.LEFT_THIRD: -1, Role.LEFT_THIRD_OWN: 1, Role.LEFT_THIRD_ALSO: 1,
         Role.LEFT_ALL_THREE: -1}  # fmt: skip

INF = float("inf")
# A date bound as a mark on the date listing's keys (published_at, _id): `lower < key < upper`.
# `$gte d` keeps (d, any id), so its mark is (d, -inf); `$gt d` drops them: (d, inf).
_MARKS = {"$gte": ("lower", -INF), "$gt": ("lower", INF), "$lte": ("upper", INF),
          "$lt": ("upper", -INF)}  # fmt: skip
Mark = tuple[datetime | int | float, float]


@dataclass(frozen=True)
class Span:
    """A range of publication dates (`publishedAt[after|before|strictly_...|archive]`) or of
    node positions (`node.position`, `[between]`, `[gt|gte|lt|lte]`: `order` "position"), as
    exclusive bounds on the keys of the listing of that order, (published_at, _id) or
    (position, _id): a source is in it when `lower < key < upper` (None: unbounded). Entries in a
    span are contiguous in that listing, so a page of them starts at the chunk of a bound
    (app/listing/walk.py)."""

    lower: Mark | None
    upper: Mark | None
    order: str = "date"


# A source left out by id as `calendar.read` takes it away: (published_at, realm ids, node
# visible, a block in a realm, not to be indexed), the keys of a calendar's groups.
Found = tuple[datetime | None, list[int], bool, bool, bool]


class LeftOut(NamedTuple):
    """A source of a node left out by id (`node.home=false`, `not[node.id]`): its `_id`, its
    translation, the listings and calendars that hold it (app.membership.listings_of), how
    a calendar counts it (`found`) and its node's position (where a position listing holds it:
    a range of positions takes it away from the tally of its chunk, app/listing/totals.py)."""

    source_id: int
    locale: str
    listings: frozenset[Listing]
    published_at: datetime | None
    realm_ids: tuple[int, ...]
    visible: bool
    block: bool
    no_index: bool
    position: float

    @classmethod
    def of(cls, source: dict[str, Any], parents: frozenset[int], largest: int) -> LeftOut:
        """From a source with app.membership.MEMBERSHIP_FIELDS (`parents`: the site's listed
        parents; `largest`: its tag combinations)."""
        listings = listings_of(source, parents, largest=largest)
        return cls(source["_id"], source["locale"], listings, source.get("published_at"),
                   *calendar_group(source), position=source["node"]["position"])  # fmt: skip

    @property
    def found(self) -> Found:
        return (self.published_at, list(self.realm_ids), self.visible, self.block, self.no_index)


@dataclass(frozen=True)
class Scope:
    """What a plain request lists: types (ALL_TYPES alone: every type; several: their disjoint
    calendars and listings merged), translations, realms denied to it, realms whose blocks are
    hidden from it (`hiding`: a hide_blocks realm not granted), a tag and a listed parent (None:
    any), the nodes' visibility and the sources' noIndex (None: either). `also`: a second tag, whose
    sources it lists too (`both` False: the sources of either tag, the calendars of the second less
    those of the pair, and both listings merged) or alone with the first (`both` True: the pair's
    calendars and listings); `third`: a third one, the same way (any of three: the third's calendars
    less those of its pairs with the others, plus the three's, and the three listings merged; all
    three: the three's calendars and listings). `within`: a tag that every source it lists
    carries too (any of two tags and a third: the groups of each with the third, their overlap
    the three's). `void`: nothing matches (a required tag slug that no tag has:
    app/listing/tag_conditions.py; no type: a type condition that no type of the site meets).
    `without`: a tag whose sources it leaves out (`not[node.nodesTags.tag.tagName]`: the
    calendars and listings of the tag, or with a tag of the pair, are taken away from the
    scope's; in a span, the span's edge months are counted from the entries left), `without_also`
    a second one (not with a second listed tag; as `also`, the second tag's less the pair's:
    Scope._tag_sets), `without_third` a third (with no listed tag: as `third`). `span`: a range
    of publication dates, which only the date listing answers (a calendar counts whole months:
    `calendar.total` and `calendar.months` take no span); `spans`: any of several ranges of
    positions (`node.position[]`: each position, within the other bounds; disjoint, ascending),
    each answered as a span is, instead of `span`. `left`: the sources of the nodes it leaves out
    by id (`node.home=false`, `not[node.id]`, LeftOut): their entries are dropped from its
    listings, and `calendar.read` takes those it lists (`found_left`) away from its calendar.
    `tag_sets`: the groups of a general tag condition (tag_conditions.tag_sets), instead of the
    named ones.
    `listed_tags`: the most tags a group with listings combines (Site.tag_combinations; None:
    every group has them): a group of more has a calendar only (`has_listings`)."""

    node_types: tuple[str, ...]
    locales: tuple[str, ...]
    denied: frozenset[int]
    tag: int | None = None
    void: bool = False
    span: Span | None = None
    spans: tuple[Span, ...] = ()
    visible: bool | None = None
    no_index: bool | None = None
    parent: int | None = None
    hiding: frozenset[int] = frozenset()
    without: int | None = None
    also: int | None = None
    third: int | None = None
    both: bool = False
    within: int | None = None
    without_also: int | None = None
    without_third: int | None = None
    tag_sets: tuple[TagSet, ...] = ()
    left: tuple[LeftOut, ...] = ()
    listed_tags: int | None = None

    @cached_property
    def left_ids(self) -> frozenset[int]:
        return frozenset(source.source_id for source in self.left)

    @cached_property
    def groups(self) -> dict[Role | TagSet, Group]:
        """The groups of the calendars and listings it reads besides type and translation, by
        Role (always `own`, and the others when it has them) or, for a general tag condition,
        by TagSet; either tells how a group counts (`sign`) and whether a page walks it."""
        if self.tag_sets:
            return {found: self._group_of(*found.tags) for found in self.tag_sets}
        return {role: self._group_of(*tags) for role, tags in self._tag_sets.items()}

    @cached_property
    def _tag_sets(self) -> dict[Role, tuple[int, ...]]:
        """The tags every source of each of its groups carries, by Role (no tag: all of them):
        what it lists (`own`, with `also`, `third` and their overlaps when it lists any of
        several), every one within its `within` tag, then what it leaves out of that: the
        sources of the listed groups that carry a tag left out (`left_out`, with `left_also`
        and `left_overlap` for a second listed group or a second tag left out, and the `left_third`
        roles for a third tag left out)."""
        within = () if self.within is None else (self.within,)
        tag, also, third = self.tag, self.also, self.third
        if tag is None:
            found: dict[Role, tuple[int, ...]] = {Role.OWN: ()}
        elif also is None:
            found = {Role.OWN: (tag, *within)}
        elif self.both:
            found = {Role.OWN: tuple(t for t in (tag, also, third) if t is not None)}
        else:
            found = {Role.OWN: (tag, *within), Role.ALSO: (also, *within),
                     Role.OVERLAP: (tag, also, *within)}  # fmt: skip
            if third is not None:
                found |= {Role.THIRD: (third,), Role.THIRD_OWN: (tag, third),
                          Role.THIRD_ALSO: (also, third),
                          Role.ALL_THREE: (tag, also, third)}  # fmt: skip
        if self.without is None:
            return found
        own, second = found[Role.OWN], found.get(Role.ALSO)
        gone, gone_also = self.without, self.without_also
        found[Role.LEFT_OUT] = (*own, gone)
        if second is not None:  # the second listed group's sources that carry it
            found |= {Role.LEFT_ALSO: (*second, gone), Role.LEFT_OVERLAP: (*own, *second, gone)}
        elif gone_also is not None:  # those that carry the second tag left out
            found |= {Role.LEFT_ALSO: (*own, gone_also), Role.LEFT_OVERLAP: (*own, gone, gone_also)}
        if self.without_third is not None:  # and the third (three left out: `own` is all)
            gone_third = self.without_third
            found |= {Role.LEFT_THIRD: (*own, gone_third),
                      Role.LEFT_THIRD_OWN: (*own, gone, gone_third),
                      Role.LEFT_THIRD_ALSO: (*own, gone_also, gone_third),
                      Role.LEFT_ALL_THREE: (*own, gone, gone_also, gone_third)}  # fmt: skip
        return found

    @property
    def combined(self) -> int:
        """The most tags one of its groups combines (Site.counted_combinations: pairs,
        triples...)."""
        return max(map(self._combines, self.groups))

    @property
    def walks_combined(self) -> int:
        """The most tags one of the groups a page walks combines (Site.tag_combinations)."""
        return max((self._combines(role) for role in self.groups if role.walked), default=0)

    def has_listings(self, role: Role | TagSet) -> bool:
        """Whether its group of `role` has listings, or a calendar only (`listed_tags`)."""
        return self.listed_tags is None or self._combines(role) <= self.listed_tags

    def tags_of(self, role: Role | TagSet) -> frozenset[int]:
        """The tags every source of its group of `role` carries."""
        return frozenset(role.tags if isinstance(role, TagSet) else self._tag_sets[role])

    def _combines(self, role: Role | TagSet) -> int:
        """How many tags its group of `role` combines."""
        return len(self.tags_of(role))

    def listed_within(self, role: Role | TagSet, preview: bool) -> list[Listing]:
        """Listings that list every source of its group of `role`: the group's own, or, for a
        group with a calendar only, those of its first `listed_tags` tags (a subset: their
        sources include the group's), as `listings` gives them."""
        if self.has_listings(role) or self.listed_tags is None:
            return self.listings(role, preview)
        return self._of_group(self._group_of(*sorted(self.tags_of(role))[: self.listed_tags]),
                              preview)  # fmt: skip

    @property
    def exact_dates(self) -> bool:
        """Whether its calendar's first and last dates are those of its own sources: not when
        some are taken away (what it leaves out, the pair from the second tag's, the sources
        left out by id: those of whole groups, bounds only: `calendar.read`)."""
        return set(self.groups) == {Role.OWN} and not self.left

    def _group_of(self, *tags: int) -> Group:
        """The group of the sources carrying all these tags (none: all of them; two or more:
        their tags_group), within its parent, if it names one."""
        ids = sorted(set(tags))
        group = tags_group(*ids) if len(ids) > 1 else (ids[0] if ids else None)
        return group if self.parent is None else parent_group(self.parent, group)

    def listings(self, role: Role | TagSet, preview: bool) -> list[Listing]:
        """The listings (and calendars) of its group of `role` (`groups`) in a visibility class:
        one per type and translation (disjoint: merged when read), in the same order for every
        role (none when it has no group of that role)."""
        return self._of_group(self.groups[role], preview) if role in self.groups else []

    def _of_group(self, group: Group, preview: bool) -> list[Listing]:
        """The listings of a group in a visibility class, one per type and translation."""
        return [(node_type, locale, group, preview)
                for node_type in self.node_types for locale in self.locales]  # fmt: skip

    def lists(self, listings: frozenset[Listing], preview: bool) -> bool:
        """Whether its listings list a source that these listings hold, as app.listing.walk
        merges them: type by type and translation by translation, in a listing of a listed
        group (Role.listed) and in none of what it leaves out (Role.taken)."""
        listed = [self.listings(role, preview) for role in self.groups if role.listed]
        taken = [self.listings(role, preview) for role in self.groups if role.taken]
        return any(
            any(rows[at] in listings for rows in listed)
            and not any(rows[at] in listings for rows in taken)
            for at in range(len(self.node_types) * len(self.locales))
        )

    def found_left(self, preview: bool) -> list[Found]:
        """The sources it leaves out by id that its listings list, as `calendar.read` takes them
        away (one a listing does not hold, of another type, status or tag, is not taken away)."""
        if self.void:
            return []
        return [source.found for source in self.left if self.lists(source.listings, preview)]

    def keeps(
        self, source_id: int, realm_ids: list[int], visible: bool, block: bool, no_index: bool
    ) -> bool:
        """Whether the request lists this source of its listings (`admits`), not left out."""
        return self.admits(realm_ids, visible, block, no_index) and source_id not in self.left_ids

    def admits(self, realm_ids: list[int], visible: bool, block: bool, no_index: bool) -> bool:
        """Whether the request lists sources in these realms whose node has this visibility
        (`block`: sources that are not reachable, which a hiding realm hides) and whose noIndex
        is this."""
        return (
            not self.denied.intersection(realm_ids)
            and self.visible in (None, visible)
            and self.no_index in (None, no_index)
            and not (block and self.hiding.intersection(realm_ids))
        )

    def allows(self, group: dict[str, Any]) -> bool:
        """Whether the request lists a calendar group's sources."""
        return self.admits(group["realm_ids"], group["visible"], group["block"], group["no_index"])


def hide_blocks_clause(hidden: list[int]) -> dict[str, Any]:
    """The clause of a collection that may list blocks (sources that are not reachable) when
    hide_blocks realms are not granted to the request: reachable sources, or sources in none of
    those realms."""
    return {"$or": [{"reachable": True}, {"node.realm_ids": {"$nin": hidden}}]}


def _hiding(clauses: Any) -> frozenset[int] | None:
    """The realms of a query's clauses when they are one hide_blocks clause, else None."""
    if not isinstance(clauses, list) or len(clauses) != 1:
        return None
    try:
        hidden = clauses[0]["$or"][1]["node.realm_ids"]["$nin"]
    except (KeyError, IndexError, TypeError):
        return None
    if not isinstance(hidden, list) or clauses[0] != hide_blocks_clause(hidden):
        return None
    return frozenset(hidden)


def _left_nodes(condition: Any) -> list[int] | None:
    """The node ids of a `node_id` `$nin` of integers (`not[node.id]`; a node named twice counts
    once; app.api.hygiene's MAX_URL_LENGTH bounds how many a request names)."""
    if not isinstance(condition, dict) or set(condition) != {"$nin"}:
        return None
    ids = condition["$nin"]
    if not isinstance(ids, list) or not all(type(i) is int for i in ids):
        return None
    return sorted(set(ids)) if ids else None


def locales_of(condition: Any) -> tuple[str, ...] | None:
    """The translations of a `locale` equality or `$in` of strings."""
    if isinstance(condition, str):
        return (condition,)
    if isinstance(condition, dict) and set(condition) == {"$in"}:
        values = condition["$in"]
        if values and all(isinstance(v, str) for v in values):
            return tuple(dict.fromkeys(values))
    return None


def _types(condition: Any) -> tuple[str, ...] | None:
    """The types of a `type` equality or `$in` of strings (none: every type, ALL_TYPES)."""
    if condition is None:
        return (ALL_TYPES,)
    if isinstance(condition, str):
        return (condition,)
    if isinstance(condition, dict) and set(condition) == {"$in"}:
        values = condition["$in"]
        if all(isinstance(v, str) for v in values):
            return tuple(sorted(set(values)))
    return None


def _span(conditions: list[Any]) -> Span | None:
    """The span of conditions on the publication date (all of them hold) made only of bounds
    ($gt, $gte, $lt, $lte on dates, as app.listing.filters.Date builds them: `[archive]` two,
    each other parameter one): the tightest bound on each side; None for any other."""
    return _bounds(conditions, lambda value: type(value) is datetime and value.tzinfo is not None)


def _position_spans(conditions: list[Any]) -> tuple[Span, ...] | None:
    """The spans of conditions on the node position (all of them hold), as
    app.listing.filters.Range builds them: an integer (`node.position=n`: both bounds), bounds
    on integers (`[between]` two, `[gt|gte|lt|lte]` one), and at most one `$in` of integers
    (`node.position[]`: any of several, each within the bounds: one span per position, the
    empty ones dropped, ascending); None for any other."""
    any_of = [c for c in conditions if isinstance(c, dict) and set(c) == {"$in"}]
    rest = [c for c in conditions if not (isinstance(c, dict) and set(c) == {"$in"})]
    bounded = [{"$gte": c, "$lte": c} if type(c) is int else c for c in rest]
    found = _bounds(bounded, lambda value: type(value) is int)
    if found is None or len(any_of) > 1:
        return None
    span = replace(found, order="position")
    if not any_of:
        return (span,)
    values = any_of[0]["$in"]
    if not isinstance(values, list) or not values or any(type(v) is not int for v in values):
        return None
    within = [_within(span, value) for value in sorted(set(values))]
    return tuple(part for part in within if part is not None)


def _within(span: Span, position: int) -> Span | None:
    """The span of one position within a span's bounds (None: outside them)."""
    lower = max(m for m in ((position, -INF), span.lower) if m is not None)
    upper = min(m for m in ((position, INF), span.upper) if m is not None)
    return Span(lower, upper, order="position") if lower < upper else None


def _bounds(conditions: list[Any], valid: Callable[[Any], bool]) -> Span | None:
    """The tightest bound on each side of conditions made only of $gt, $gte, $lt, $lte on
    `valid` values; None for any other."""
    bounds: dict[str, list[Mark]] = {"lower": [], "upper": []}
    for condition in conditions:
        if not isinstance(condition, dict) or not condition or not set(condition) <= set(_MARKS):
            return None
        for operator, value in condition.items():
            if not valid(value):
                return None
            side, edge = _MARKS[operator]
            bounds[side].append((value, edge))
    lower, upper = bounds["lower"], bounds["upper"]
    return Span(max(lower) if lower else None, min(upper) if upper else None)


def site_scope(query: dict[str, Any], site: SiteModel, *, dated: bool = False) -> Scope | None:
    """`plain_scope` with what the site tells: its tags, listed parents, combinations of tags,
    homes and the sources of nodes left out by id (with the fields that tell which listings
    hold them)."""
    return plain_scope(query, site.tag_ids, dated=dated, parents=site.listed_parents,
                       combinations=site.tag_combinations, most_tags=site.most_tags,
                       counted=site.counted_combinations,
                       homes=list(site.homes.values()),
                       sources_of=site.generation.memberships_of_nodes)  # fmt: skip


def plain_scope(
    query: dict[str, Any],
    tag_ids: Mapping[str, int],
    *,
    dated: bool = False,
    parents: frozenset[int] = frozenset(),
    combinations: int = 1,
    most_tags: int | None = None,
    counted: int | None = None,
    homes: Iterable[dict[str, Any]] = (),
    sources_of: Callable[[list[int]], list[dict[str, Any]]] | None = None,
) -> Scope | None:
    """The scope of a plain request's filter (`tag_ids`: the site's tag ids by slug; `parents`:
    its listed parents; `combinations`: the most tags its listed groups combine,
    Site.tag_combinations: 1, pairs 2, triples 3...; `counted`: the most tags its groups with
    calendars only combine (Site.counted_combinations; None: `combinations`); `most_tags`: the
    most tags a source carries (None: unknown), which a general tag condition needs
    (tag_conditions.tag_sets); `homes`: the
    home node's sources, which `node.home=false` leaves out; `sources_of`: the sources of nodes,
    read when `not[node.id]` leaves them out: both Scope.left, with
    app.membership.MEMBERSHIP_FIELDS at least); None when it filters on anything else. With
    `dated`, a range of publication dates or one of node positions is plain too (the scope's
    `span`; not both)."""
    rest = dict(query)
    home = rest.pop(HOME, None)
    if HOME in query and home is not False:  # `node.home=true`: the home node by id (sources)
        return None
    left_nodes = _left_nodes(rest.pop(NODE_ID, None))
    if NODE_ID in query and (left_nodes is None or sources_of is None):
        return None
    clauses = rest.pop(CLAUSES, [])
    conditions = [(path, rest.pop(path)) for path in TAG_PATHS if path in rest]
    if not isinstance(clauses, list) or (CLAUSES in query and not clauses):
        return None
    others = []
    # the date and position conditions, one per `publishedAt[...]` or `node.position[...]` (from
    # the second on, clauses of `$and`)
    ranged = (PUBLISHED_AT, POSITION) if dated else ()
    ranges: dict[str, list[Any]] = {path: [rest.pop(path)] if path in rest else []
                                    for path in ranged}  # fmt: skip
    for clause in clauses:  # the tag clauses (a tag path repeated, `tagGroup[]`), ranges, the rest
        single = isinstance(clause, dict) and len(clause) == 1
        if single and next(iter(clause)) in TAG_PATHS:
            conditions.extend(clause.items())
        elif single and next(iter(clause)) in ranges:
            path, condition = next(iter(clause.items()))
            ranges[path].append(condition)
        else:
            others.append(clause)
    hiding = _hiding(others) if others else frozenset()
    dates, positions = ranges.get(PUBLISHED_AT, []), ranges.get(POSITION, [])
    if dates and positions:  # one span at a time: the other reads the index
        return None
    spans = _position_spans(positions) if positions else None
    span = _span(dates) if dates else spans[0] if spans and len(spans) == 1 else None
    parent = rest.pop(PARENT, None)
    tags = fold(conditions, tag_ids)
    if hiding is None or tags is None or not set(rest) <= PLAIN_KEYS or "locale" not in rest:
        return None
    if (
        (dates and span is None)
        or (positions and spans is None)
        or (PARENT in query and (type(parent) is not int or parent not in parents))
    ):
        return None
    locales, node_types = locales_of(rest["locale"]), _types(rest.get("type"))
    realms = rest.get("node.realm_ids", {"$nin": []})
    visible, no_index = rest.get(VISIBLE), rest.get(NO_INDEX)
    if locales is None or node_types is None or set(realms) != {"$nin"}:
        return None
    if any(flag is not None and type(flag) is not bool for flag in (visible, no_index)):
        return None
    found_sets: tuple[TagSet, ...] = ()
    if tags.general is not None:
        found = tag_sets(tags.general, largest=combinations, counted=counted, most=most_tags)
        if found is None:
            return None
        found_sets = found
    # a general condition none of whose conjunctions has a source (more tags than any carries)
    void = (
        tags.void
        or not node_types
        or (tags.general is not None and not any(found.listed for found in found_sets))
        or spans == ()  # any of several positions, none within the bounds
    )
    scope = Scope(
        node_types, locales, frozenset(realms["$nin"]), tag=tags.tag, tag_sets=found_sets,
        void=void, span=span, spans=spans if spans and len(spans) > 1 else (), visible=visible,
        no_index=no_index, parent=parent,
        hiding=hiding, without=tags.without, also=tags.also, third=tags.third, both=tags.both,
        within=tags.within, without_also=tags.without_also, without_third=tags.without_third,
        listed_tags=combinations,
    )  # fmt: skip
    # groups of more tags than the site counts, or walked, than it lists
    if (
        scope.combined > counted_together(combinations, counted)
        or scope.walks_combined > combinations
    ):
        return None
    # a range of positions is counted from the tallies of its groups' position listings, which
    # a group with a calendar only has not
    if positions and not all(scope.has_listings(role) for role in scope.groups if role.sign):
        return None
    left_out = [] if scope.void else [*(homes if HOME in query else ()),
                                      *(sources_of(left_nodes) if left_nodes else ())]  # fmt: skip
    left = tuple(
        {  # a source once, though both its node's id and `node.home=false` leave it out
            source["_id"]: LeftOut.of(source, parents, combinations)
            for source in left_out
            if source["locale"] in locales
        }.values()
    )
    return replace(scope, left=left) if left else scope
