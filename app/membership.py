"""Which materialised calendars and listings hold a source: the one home of that rule, for the
loader that writes them (app/fixture/listings.py, app/fixture/calendars.py) and for the read path
that takes the sources of nodes left out by id away from a calendar (app/listing/plain.py): it
tells from a source's own fields (MEMBERSHIP_FIELDS) whether a scope lists it, with no listing
read.

A source is held, per visibility class (`listed_classes`), by the calendars and listings of its
type and of every type (ALL_TYPES), each alone, per tag and per combination of two up to `largest`
of its tags (the site's `tag_combinations`), and, under a listed parent, per parent, per parent and
tag and per parent and combination (`scope_groups`).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

from app.publication import PREVIEW_STATUSES, PUBLIC_STATUSES
from app.query_plan import ALL_TYPES, Group, parent_group, tags_group

# (type or ALL_TYPES, locale, group, preview class): the group as a sortable tuple, (0,) none,
# (1, tag id), (2, parent id), (3, parent id, tag id), (4, tag ids: two or more, the smallest
# first) or (5, parent id, tag ids: two or more under a listed parent) (group_of gives the
# stored one)
GroupKey = tuple[int, ...]
NO_GROUP: GroupKey = (0,)
# (type or ALL_TYPES, locale, stored group, preview class): one listing, one calendar
Listing = tuple[str, str, Group, bool]
# The fields of a source that `listings_of` reads, and where its position listings hold it
# (node.position: app.listing.scopes.LeftOut), a projection of the `sources` collection.
MEMBERSHIP_FIELDS = (
    "locale", "type", "published_at", "reachable", "node.status", "node.tag_ids", "node.parent",
    "node.realm_ids", "node.visible", "no_index", "node.position",
)  # fmt: skip


def group_of(key: GroupKey) -> Group:
    """The stored group (query_plan.Group) of a sortable one."""
    kind, *values = key
    if kind == 0:
        return None
    if kind == 4:
        return tags_group(*values)
    if kind == 5:
        return parent_group(values[0], tags_group(*values[1:]))
    return values[0] if kind == 1 else parent_group(*values)


def tag_combinations_of(source: dict[str, Any], largest: int) -> list[tuple[int, ...]]:
    """The combinations of two tags up to `largest` tags that a source carries."""
    tags = sorted(set(source["node"]["tag_ids"]))
    return [combo for size in range(2, largest + 1) for combo in itertools.combinations(tags, size)]


def scope_groups(
    source: dict[str, Any], parents: set[int] | frozenset[int], *, largest: int
) -> list[tuple[str, GroupKey]]:
    """(type or ALL_TYPES, group) of the calendars and listings that hold `source`: its type and
    every type, each alone, per tag and per combination of two up to `largest` of its tags
    (tag_combinations_of), and, under a listed parent (`parents`), per parent, per parent and
    tag and per parent and combination."""
    node_type, node, parent = source["type"], source["node"], source["node"]["parent"]
    tags = sorted(set(node["tag_ids"]))
    combinations = tag_combinations_of(source, largest)
    groups: list[GroupKey] = [NO_GROUP, *((1, tag) for tag in tags)]
    groups += [(4, *combo) for combo in combinations]
    if parent in parents:
        groups += [(2, parent), *((3, parent, tag) for tag in tags)]
        groups += [(5, parent, *combo) for combo in combinations]
    return [(kind, group) for group in groups for kind in (node_type, ALL_TYPES)]


def listed_classes(source: dict[str, Any]) -> dict[bool, bool]:
    """Whether the listings of each visibility class (preview or not) list `source`: the public
    class its published sources that have a published_at (what a request outside preview may
    list), the preview class its draft, pending and published sources, dated or not."""
    status = source["node"]["status"]
    return {
        False: status in PUBLIC_STATUSES and source["published_at"] is not None,
        True: status in PREVIEW_STATUSES,
    }


# The key of a calendar group: its realm set, its node's visibility, `block` (a source that is
# not reachable, in a realm: a hide_blocks realm hides it) and `no_index` (the `noIndex` filter).
CalendarGroup = tuple[tuple[int, ...], bool, bool, bool]


def calendar_group(source: dict[str, Any]) -> CalendarGroup:
    """The group of a calendar month that counts `source`."""
    realm_ids = tuple(sorted(source["node"]["realm_ids"]))
    block = bool(realm_ids) and not source["reachable"]
    return realm_ids, bool(source["node"]["visible"]), block, bool(source["no_index"])


def group_document(key: CalendarGroup, count: int) -> dict[str, Any]:
    """A calendar group as stored (without its dates): its key's fields and its count."""
    realm_ids, visible, block, no_index = key
    return {"realm_ids": list(realm_ids), "visible": visible, "block": block,
            "no_index": no_index, "count": count}  # fmt: skip


def group_key(document: dict[str, Any]) -> CalendarGroup:
    """The key of a calendar group as stored (`group_document`)."""
    return (tuple(document["realm_ids"]), document["visible"], document["block"],
            document["no_index"])  # fmt: skip


def calendar_groups(sources: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Count and earliest and latest date (`first`, `last`: none when none is dated) of
    `sources` per realm set, node visibility (the `node.visible` filter), `block` (blocks in a
    realm: sources that are not reachable, which a hide_blocks realm hides) and `no_index` (the
    `noIndex` filter), in that order: the groups of a calendar month (app/fixture/calendars.py)
    and of a position tally (app/fixture/listings.py)."""
    by_group: dict[CalendarGroup, list[dict[str, Any]]] = defaultdict(list)
    for source in sources:
        by_group[calendar_group(source)].append(source)
    groups = []
    for key, members in sorted(by_group.items()):
        dates = [s["published_at"] for s in members if s["published_at"] is not None]
        group = group_document(key, len(members))
        if dates:
            group["first"], group["last"] = min(dates), max(dates)
        groups.append(group)
    return groups


def listings_of(
    source: dict[str, Any], parents: set[int] | frozenset[int], *, largest: int
) -> frozenset[Listing]:
    """Every listing that lists `source` (a document with MEMBERSHIP_FIELDS)."""
    classes = [preview for preview, listed in listed_classes(source).items() if listed]
    return frozenset(
        (node_type, source["locale"], group_of(group), preview)
        for node_type, group in scope_groups(source, parents, largest=largest)
        for preview in classes
    )
