"""What a plain request lists (app/listing/plain.py says which requests are plain and builds
their Scope): its types, translations and groups of calendars and listings, each with its role
(Role: whether a page merges its listings or takes them away, and the sign its calendar counts
with), the realms it may not see, a span of dates or range of positions (Span), and the nodes it
leaves out by id (LeftOut, with the fields that tell which listings and calendars hold each).
app/listing/calendar.py counts a Scope, app/listing/listings.py pages it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from typing import Any, NamedTuple

from app.listing.tag_conditions import TagSet
from app.membership import Listing, calendar_group, listings_of
from app.query_plan import UNDATED, Group, parent_group, tags_group


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

    @property
    def date_marks(self) -> tuple[Mark, Mark | None]:
        """A span of dates as exclusive marks on the date listing's keys: no undated source is
        in it (they sort before every date: UNDATED)."""
        return max(self.lower or (UNDATED, INF), (UNDATED, INF)), self.upper


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
    each answered as a span is, instead of `span`. `dates`: a span of publication dates that a
    range of positions (`span` or `spans`) is within too (its entries are kept only inside it;
    its total counted from the position listings' grids: `totals.rectangle_total`). `left`: the
    sources of the nodes it leaves out by id (`node.home=false`, `not[node.id]`, LeftOut): their
    entries are dropped from its listings, and `calendar.read` takes those it lists
    (`found_left`) away from its calendar.
    `tag_sets`: the groups of a general tag condition (tag_conditions.tag_sets), instead of the
    named ones.
    `listed_tags`: the most tags a group with listings combines (Site.tag_combinations; None:
    every group has them): a group of more has a calendar only (`has_listings`).
    `head`: the most entries a listing's chunk 0 holds (Site.listing_head; None: unknown): a
    page that starts past them may pass chunks (app/listing/walk.py, `passes`).
    `chunk`: the entries each other chunk of a listing holds but the last (Site.listing_chunk;
    None: unknown): a span's month holding fewer sources than a few chunks is not dense
    (app/listing/totals.py, `span_head_ids`)."""

    node_types: tuple[str, ...]
    locales: tuple[str, ...]
    denied: frozenset[int]
    tag: int | None = None
    void: bool = False
    span: Span | None = None
    spans: tuple[Span, ...] = ()
    dates: Span | None = None
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
    head: int | None = None
    chunk: int | None = None

    @cached_property
    def date_marks(self) -> tuple[Mark | None, Mark | None]:
        """Its span of dates besides a range of positions (`dates`) as exclusive marks
        (Span.date_marks; None: unbounded), made once: a walk checks every entry against it."""
        return (None, None) if self.dates is None else self.dates.date_marks

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

    @property
    def counts_once(self) -> bool:
        """Whether every source its calendars count is one it lists: its groups are a tag's or
        a union of tags' (each source in them counted once in all, by inclusion and exclusion),
        none taken away (a tag left out, a general tag condition's sets, the sources left out by
        id). Its calendars' months summed then tell a source still to come as the months do
        (`calendar.read`, `total_only`)."""
        return not self.left and all(
            isinstance(role, Role) and not role.taken for role in self.groups
        )

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
            self.denied.isdisjoint(realm_ids)
            and self.visible in (None, visible)
            and self.no_index in (None, no_index)
            and not (block and not self.hiding.isdisjoint(realm_ids))
        )

    def allows(self, group: dict[str, Any]) -> bool:
        """Whether the request lists a calendar group's sources."""
        return self.admits(group["realm_ids"], group["visible"], group["block"], group["no_index"])
