"""Archives and totals of plain collections (app/listing/plain.py), from the materialised
calendars (app/fixture/calendars.py) instead of reading every matching source: `read` takes the
calendars of a scope's types, translations and groups in one read and combines them by role
(Role.sign: a second tag's added less the pair's, a tag left out taken away, a general tag
condition's sets by inclusion and exclusion, the sources left out by id taken away); `months`
gives its archive and `total` its count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.listing.scopes import Found, Role, Scope
from app.listing.tag_conditions import TagSet
from app.membership import CalendarGroup, group_document
from app.publication import Visibility
from app.query_plan import month_of
from app.store import Generation

# The one month of a calendar read for a total only (`read`): every month together.
EVERY_MONTH = "*"


def read(
    generation: Generation, scope: Scope, visibility: Visibility, *, total_only: bool = False
) -> dict[str, Any]:
    """The calendar of a scope: the calendars of its types and translations in one read, merged
    (months newest first; types and translations are disjoint); an empty one when no source is in
    it. The calendars of its other groups (Scope.groups) come in the same read: a second tag's
    less the pair's (the sources of both, counted with the first tag's) is merged with the
    first's, and what it leaves out (one tag's, two as those listed, or the pair of its tag and
    the tag left out) is taken away, group by group, and so are the sources it leaves out by id
    that it lists (Scope.found_left: known from their own fields, with no read).
    The totals are exact, but such a group's first and last dates are those of the whole group
    (bounds: `months` tells a month from them when it can). `total_only` (for `total` and
    `to_come`): with no span of dates and nothing taken away (Scope.counts_once), each calendar's
    months are read as one, EVERY_MONTH (its `dated`), so what a total reads and sums does not
    grow with the months the site spans. Not when something is taken away: a source still to
    come that it leaves out empties its month's group, but summed, its group's last date stays
    after now, and the total would ask for the scheduled count (exact, one command more)."""
    if scope.void:
        return _merged([])
    summed = total_only and scope.span is None and scope.counts_once
    groups = scope.groups
    found = generation.calendars(
        list(scope.node_types), list(scope.locales), visibility, groups=list(groups.values()),
        summed=summed,
    )  # fmt: skip
    if summed:
        found = {key: _every_month(calendar) for key, calendar in found.items()}

    calendars = []
    for node_type in scope.node_types:
        for locale in scope.locales:
            of = {role: found.get((node_type, locale, group)) for role, group in groups.items()}
            own = _combined(of)
            if own is not None:
                calendars.append(own)
    left = scope.found_left(visibility.preview)
    if not left:
        return _merged(calendars)
    return _without(_summed(_merged(calendars)), _calendar_of(left))


def _every_month(calendar: dict[str, Any]) -> dict[str, Any]:
    """A calendar read `summed` with its months as one (EVERY_MONTH): its `dated`, or, written
    before it, its months' groups summed."""
    if "dated" in calendar:
        dated = calendar["dated"]
    else:
        dated = _summed_groups([group for month in calendar["months"] for group in month["groups"]])
    months = [{"month": EVERY_MONTH, "groups": dated}] if dated else []
    return {"months": months, "undated": calendar["undated"]}


def _calendar_of(found: list[Found]) -> dict[str, Any]:
    """The calendar of a few sources (each in the group of its realm set, visibility, block and
    noIndex; one group per key and month, as `_without` takes them)."""
    months: dict[str, list[dict[str, Any]]] = {}
    undated: list[dict[str, Any]] = []
    for moment, realm_ids, *flags in found:
        group = group_document((tuple(sorted(realm_ids)), *flags), 1)
        if moment is None:
            undated.append(group)
            continue
        months.setdefault(month_of(moment), []).append(group)
    return _summed({"months": [{"month": m, "groups": g} for m, g in months.items()],
                    "undated": undated})  # fmt: skip


def _combined(of: dict[Role | TagSet, dict[str, Any] | None]) -> dict[str, Any] | None:
    """The calendar of one type and translation from those of a scope's groups by role
    (Scope.groups; None: no source); None when it has no source."""
    if any(isinstance(key, TagSet) for key in of):
        return _signed(of)
    listed = _any_of(of, Role.OWN, Role.ALSO, Role.OVERLAP,
                     (Role.THIRD, Role.THIRD_OWN, Role.THIRD_ALSO, Role.ALL_THREE))  # fmt: skip
    if listed is None or Role.LEFT_OUT not in of:
        return listed
    # less its own type's and translation's sources left out (a subset of those listed)
    taken = _any_of(of, Role.LEFT_OUT, Role.LEFT_ALSO, Role.LEFT_OVERLAP,
                    (Role.LEFT_THIRD, Role.LEFT_THIRD_OWN, Role.LEFT_THIRD_ALSO,
                     Role.LEFT_ALL_THREE))  # fmt: skip
    return _without(_summed(listed), _summed(taken or _merged([])))


def _signed(of: dict[Role | TagSet, dict[str, Any] | None]) -> dict[str, Any] | None:
    """The calendar of a general tag condition's groups (TagSet: each counted its sign times,
    by inclusion and exclusion): those added, summed, less those taken away, summed (the
    counts are exact; a group's first and last dates are bounds); None when it has no source."""
    added = [found for key, found in of.items() if found for _ in range(max(key.sign, 0))]
    taken = [found for key, found in of.items() if found for _ in range(max(-key.sign, 0))]
    if not added:
        return None
    counted = _summed(_merged(added))
    return _without(counted, _summed(_merged(taken))) if taken else counted


def _any_of(
    of: dict[Role, dict[str, Any] | None],
    first: Role,
    second: Role,
    overlap: Role,
    thirds: tuple[Role, Role, Role, Role],
) -> dict[str, Any] | None:
    """The calendar of the sources of any of a scope's groups in these roles (the second and
    the third when it has them; `overlap`: the sources of the first two; `thirds`: the third,
    its overlaps with the first and with the second, and the sources of all three)."""
    found = _union(of[first], of.get(second), of.get(overlap))
    third, third_first, third_second, all_three = thirds
    if third in of:  # (A or B) and C are (A and C) or (B and C)
        both = _union(of[third_first], of[third_second], of[all_three])
        found = _union(found, of[third], both and _summed(both))
    return found


def _union(
    first: dict[str, Any] | None, second: dict[str, Any] | None, both: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The calendar of the sources of either of two groups: the first's and the second's less
    those of both (counted in the first's); None when neither has a source."""
    parts = [first] if first is not None else []
    if second is not None:
        parts.append(_without(second, both or _merged([])))
    return _merged(parts) if parts else None


def _summed(calendar: dict[str, Any]) -> dict[str, Any]:
    """A calendar with one group per key and month (merged calendars may have several), as
    `_without` takes them."""
    return {
        "months": [
            {**month, "groups": _summed_groups(month["groups"])} for month in calendar["months"]
        ],
        "undated": _summed_groups(calendar["undated"]),
    }


def _summed_groups(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One group per key: the counts of the same key's added, their first and last dates the
    outermost."""
    found: dict[CalendarGroup, dict[str, Any]] = {}
    for group in groups:
        key = _group_key(group)
        if key not in found:
            found[key] = group
            continue
        same = found[key] = {**found[key], "count": found[key]["count"] + group["count"]}
        if "first" in group:
            same["first"] = min(same["first"], group["first"])
            same["last"] = max(same["last"], group["last"])
    return list(found.values())


def _merged(found: list[dict[str, Any]]) -> dict[str, Any]:
    if len(found) == 1:
        return found[0]
    months: dict[str, list[dict[str, Any]]] = {}
    for calendar in found:
        for month in calendar["months"]:
            months.setdefault(month["month"], []).extend(month["groups"])
    return {
        "months": [{"month": m, "groups": months[m]} for m in sorted(months, reverse=True)],
        "undated": [group for calendar in found for group in calendar["undated"]],
    }


def _group_key(group: dict[str, Any]) -> CalendarGroup:
    return tuple(group["realm_ids"]), group["visible"], group["block"], group["no_index"]


def _less(groups: list[dict[str, Any]], taken: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The groups of one calendar month (one per realm set, node visibility, block and noIndex) less
    the sources counted in the same groups of another calendar over a subset of its sources; the
    groups left empty dropped. A group left keeps its first and last dates (bounds of the rest:
    `to_come` may then ask for the scheduled count, which is exact)."""
    counts = {_group_key(group): group["count"] for group in taken}
    left = []
    for group in groups:
        count = group["count"] - counts.get(_group_key(group), 0)
        if count:
            left.append({**group, "count": count})
    return left


def _without(calendar: dict[str, Any], left_out: dict[str, Any]) -> dict[str, Any]:
    """A calendar less the sources of another of the same type and translation over a subset of
    its sources (a tag's); calendars of several types or translations are merged after."""
    taken = {month["month"]: month["groups"] for month in left_out["months"]}
    months = [
        {"month": month["month"], "groups": _less(month["groups"], taken.get(month["month"], []))}
        for month in calendar["months"]
    ]
    return {
        "months": [month for month in months if month["groups"]],
        "undated": _less(calendar["undated"], left_out["undated"]),
    }


def months(
    calendar: dict[str, Any],
    scope: Scope,
    visibility: Visibility,
    published_in: Callable[[str], bool],
) -> list[str]:
    """`YYYY-MM` of the months having a source the request may see, newest first (preview sees
    every date, as its archives do). A scope leaving sources out (a tag, or by id) knows only
    bounds of its groups' dates (`Scope.exact_dates`): a group left with sources shows its month
    when its last date is past, not when its first is to come; when a month has only groups with
    dates on both sides of now, the calendar cannot tell, and `published_in` (the month's entries,
    app.listing.listings.months) does."""
    now, found = visibility.now, []
    for month in calendar["months"]:
        groups = [group for group in month["groups"] if scope.allows(group)]
        if any(
            visibility.preview
            or group["last"] <= now
            or (scope.exact_dates and group["first"] <= now)
            for group in groups
        ):
            found.append(month["month"])
        elif any(group["first"] <= now for group in groups) and published_in(month["month"]):
            found.append(month["month"])  # only bounds: its entries tell
    return found


def total(
    calendar: dict[str, Any], scope: Scope, visibility: Visibility, scheduled: Callable[[], int]
) -> int:
    """Sources the request may see: in preview every counted one (undated included); otherwise
    the dated ones minus those still to come, which `scheduled` counts (one query, only when the
    calendar has an allowed date after now)."""
    dated = _dated(calendar, scope)
    if visibility.preview:
        undated = (g for g in calendar["undated"] if scope.allows(g))
        return sum(g["count"] for g in dated) + sum(g["count"] for g in undated)
    counted = sum(g["count"] for g in dated)
    if to_come(calendar, scope, visibility):
        counted -= scheduled()
    return counted


def to_come(calendar: dict[str, Any], scope: Scope, visibility: Visibility) -> bool:
    """Whether a source the request may see is scheduled after now (outside preview): only then
    does its total ask for the scheduled count."""
    return not visibility.preview and any(
        g["last"] > visibility.now for g in _dated(calendar, scope)
    )


def _dated(calendar: dict[str, Any], scope: Scope) -> list[dict[str, Any]]:
    return [g for month in calendar["months"] for g in month["groups"] if scope.allows(g)]
