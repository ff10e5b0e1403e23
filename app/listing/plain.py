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
publication dates, a range of positions (Span; or any of several positions: Scope.spans) or both
(Scope.dates: the span of dates the range is within).
`plain_scope` turns such a filter into a Scope (app/listing/scopes.py), the groups it reads with
the role of each (Role); any other filter is answered by the indexed queries, whose cost follows
the number of matches (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.listing.scopes import INF, LeftOut, Mark, Scope, Span
from app.listing.tag_conditions import (
    TAG_IDS,
    TAG_PATHS,
    TAG_SLUGS,
    TagSet,
    counted_together,
    fold,
    tag_sets,
)
from app.query_plan import ALL_TYPES

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

# A date bound as a mark on the date listing's keys (published_at, _id): `lower < key < upper`.
# `$gte d` keeps (d, any id), so its mark is (d, -inf); `$gt d` drops them: (d, inf).
_MARKS = {"$gte": ("lower", -INF), "$gt": ("lower", INF), "$lte": ("upper", INF),
          "$lt": ("upper", -INF)}  # fmt: skip


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
                       counted=site.counted_combinations, head=site.listing_head,
                       chunk=site.listing_chunk, homes=list(site.homes.values()),
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
    head: int | None = None,
    chunk: int | None = None,
    homes: Iterable[dict[str, Any]] = (),
    sources_of: Callable[[list[int]], list[dict[str, Any]]] | None = None,
) -> Scope | None:
    """The scope of a plain request's filter (`tag_ids`: the site's tag ids by slug; `parents`:
    its listed parents; `combinations`: the most tags its listed groups combine,
    Site.tag_combinations: 1, pairs 2, triples 3...; `counted`: the most tags its groups with
    calendars only combine (Site.counted_combinations; None: `combinations`); `most_tags`: the
    most tags a source carries (None: unknown), which a general tag condition needs
    (tag_conditions.tag_sets); `head` and `chunk`: Scope.head and Scope.chunk (Site.listing_head,
    Site.listing_chunk); `homes`: the
    home node's sources, which `node.home=false` leaves out; `sources_of`: the sources of nodes,
    read when `not[node.id]` leaves them out: both Scope.left, with
    app.membership.MEMBERSHIP_FIELDS at least); None when it filters on anything else. With
    `dated`, a range of publication dates or one of node positions is plain too (the scope's
    `span`; both: the positions' `span` within the `dates`)."""
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
    spans = _position_spans(positions) if positions else None
    dated_span = _span(dates) if dates else None
    # a range of positions is the span (several: `spans`), a span of dates with it `dates`
    span = spans[0] if spans and len(spans) == 1 else None if positions else dated_span
    parent = rest.pop(PARENT, None)
    tags = fold(conditions, tag_ids)
    if hiding is None or tags is None or not set(rest) <= PLAIN_KEYS or "locale" not in rest:
        return None
    if (
        (dates and dated_span is None)
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
        void=void, span=span, spans=spans if spans and len(spans) > 1 else (),
        dates=dated_span if positions else None, visible=visible,
        no_index=no_index, parent=parent,
        hiding=hiding, without=tags.without, also=tags.also, third=tags.third, both=tags.both,
        within=tags.within, without_also=tags.without_also, without_third=tags.without_third,
        listed_tags=combinations, head=head, chunk=chunk,
    )  # fmt: skip
    # groups of more tags than the site counts, or walked, than it lists
    if (
        scope.combined > counted_together(combinations, counted)
        or scope.walks_combined > combinations
    ):
        return None
    # a range of positions is counted from the tallies (within a span of dates, the grids) of
    # its groups' position listings, which a group with a calendar only has not
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
