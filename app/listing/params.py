"""Query parameters of filterable collections, read as API Platform reads them, refused when wrong.

API Platform ignores an unknown filter or a malformed value and answers unfiltered; this service
refuses both with a 400 naming the parameter and what it accepts (no silently wrong data).
`x[]=a&x[]=b` and `x[0]=a&x[1]=b` are the same list (the official client sends indices).
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from werkzeug.datastructures import MultiDict

from app.errors import BadRequest, given_twice
from app.listing.relative_dates import relative_date
from app.publication import stored_moment

_INDEX = re.compile(r"\[[0-9]+\]")
# An id, as `integer` takes it (and the OpenAPI patterns of id filters say: app.listing.filters)
ID_DIGITS = re.compile(r"[0-9]{1,18}")  # ASCII only: str.isdigit() also accepts "²"
_SIGNED = re.compile(r"-?[0-9]{1,18}")  # a value the database takes (8-byte integers)
_COUNT = re.compile(r"-?[0-9]+")  # page and itemsPerPage: compared with their bounds first
_ARCHIVE = re.compile(r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?")
_DATE_ONLY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_LOST_PLUS = re.compile(r" ([0-9]{2}:?[0-9]{2})$")
TRUE = ("true", "1")
FALSE = ("false", "0")
LOOSE_TRUE = ("1", "true", "on", "yes")
LOOSE_FALSE = ("0", "false", "off", "no")
ARCHIVE_MESSAGE = "“archive” filter must be a valid archive specification."
DATE_STRATEGIES = ("before", "strictly_before", "after", "strictly_after")
DATE_OPERATORS = {
    "before": "$lte",
    "strictly_before": "$lt",
    "after": "$gte",
    "strictly_after": "$gt",
}
RANGE_OPERATORS = {"gt": "$gt", "gte": "$gte", "lt": "$lt", "lte": "$lte"}
# Parameters every collection reads besides its filters.
PAGINATION = ("page", "itemsPerPage", "pagination")
GLOBAL = ("_preview", "password")


def normalise(name: str) -> str:
    """`node.parent[0]` -> `node.parent[]`, `properties[node][1]` -> `properties[node][]`."""
    return _INDEX.sub("[]", name)


class Params:
    """The request's parameters by normalised name, each a list of values in query order."""

    def __init__(self, args: MultiDict):
        self.values: dict[str, list[str]] = {}
        self.names: list[str] = []  # normalised names, in query order (order[...] keys apply so)
        for raw, value in args.items(multi=True):
            name = normalise(raw)
            if name not in self.values:
                self.names.append(name)
            self.values.setdefault(name, []).append(value)

    def get(self, name: str) -> str | None:
        """The one value of a parameter that takes one (a filter of several values reads
        `all`): given twice, it is a 400, not the last value (which the `hydra:view` link would
        contradict)."""
        values = self.values.get(name)
        if not values:
            return None
        if len(values) > 1:
            raise given_twice(name)
        return values[0]

    def all(self, name: str) -> list[str]:
        return self.values.get(name, [])

    def has(self, name: str) -> bool:
        return name in self.values

    def check_known(self, accepted: Iterable[str], path: str, *, sparse: bool = True) -> None:
        """A 400 for a name not in `accepted`, pagination or the global ones; `sparse`: and the
        property filter's (`properties[]`, `properties[node][]`...), where members are sparse."""
        known = set(accepted) | set(PAGINATION) | set(GLOBAL)
        for name in self.names:
            if name not in known and not (sparse and name.startswith("properties")):
                listed = (known - set(GLOBAL)) | ({"properties[]"} if sparse else set())
                raise BadRequest(
                    f'Unknown parameter "{name}" for {path}; accepted: {", ".join(sorted(listed))}'
                )


@dataclass
class QueryBuilder:
    """A MongoDB filter assembled condition by condition (conditions on one field are ANDed)."""

    query: dict[str, Any] = field(default_factory=dict)

    def add(self, path: str, condition: Any) -> None:
        current = self.query.get(path)
        if current is None and path not in self.query:
            self.query[path] = condition
            return
        self.query.setdefault("$and", []).append({path: condition})

    def add_clause(self, clause: dict[str, Any]) -> None:
        self.query.setdefault("$and", []).append(clause)


def boolean(name: str, value: str, *, loose: bool = False) -> bool:
    true, false = (LOOSE_TRUE, LOOSE_FALSE) if loose else (TRUE, FALSE)
    if value in true:
        return True
    if value in false:
        return False
    raise BadRequest(f'"{name}" must be one of {", ".join(true + false)}')


def integer(name: str, value: str, iri_prefix: str | None = None) -> int:
    """A numeric id, or the IRI `<iri_prefix><id>` when the filter accepts IRIs."""
    text = value
    if iri_prefix and value.startswith(iri_prefix):
        text = value[len(iri_prefix) :]
    if ID_DIGITS.fullmatch(text):
        return int(text)
    accepted = "a non-negative integer (at most 18 digits)"
    if iri_prefix:
        accepted += f" or an IRI {iri_prefix}<id>"
    raise BadRequest(f'"{name}" must be {accepted}, not "{value[:80]}"')


def number(name: str, value: str) -> int:
    if _SIGNED.fullmatch(value):
        return int(value)
    raise BadRequest(f'"{name}" must be an integer, not "{value[:80]}"')


def parse_date(name: str, value: str, now: datetime) -> datetime:
    """An ISO 8601 date or date-time, without an offset in the server's zone (UTC), or a date
    relative to `now` as PHP reads it (app.listing.relative_dates: `yesterday`, `-1 week`)."""
    text = value.strip()
    text = _LOST_PLUS.sub(r"+\1", text)  # an unencoded "+02:00" arrives as " 02:00"
    if text.endswith("z"):  # RFC 3339 allows a lower-case zone designator; fromisoformat does not
        text = text[:-1] + "Z"
    out_of_range = BadRequest(
        f'"{name}" must be a date between the years 1 and 9999 in UTC, not "{value[:80]}"'
    )
    try:
        if not text.isprintable():  # fromisoformat stops at a NUL and reads the rest as valid
            raise ValueError(text)
        moment = datetime.fromisoformat(text + "T00:00:00" if _DATE_ONLY.fullmatch(text) else text)
    except ValueError:
        try:
            moment = relative_date(text, now) if text.isprintable() else None
        except OverflowError:
            raise out_of_range from None
        if moment is None:
            raise BadRequest(
                f'"{name}" must be a date (ISO 8601: 2024-05-01 or 2024-05-01T10:00:00+02:00; or '
                f'relative, as PHP reads it: now, today, yesterday, -1 week), not "{value[:80]}"'
            ) from None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    try:  # a date MongoDB can store, with room for stored_bound's millisecond
        (moment + timedelta(milliseconds=1)).astimezone(UTC)
    except OverflowError:
        raise out_of_range from None
    return moment


def stored_bound(operator: str, moment: datetime) -> datetime:
    """A date bound as it compares with stored dates, which are whole milliseconds (BSON): a
    bound with finer digits is moved to the millisecond that keeps the same sources (up for
    `$gte` and `$lt`, down for `$lte` and `$gt`), since the server would cut it (down) and the
    listings compare it whole."""
    cut = stored_moment(moment)
    if cut == moment or operator in ("$lte", "$gt"):
        return cut
    return cut + timedelta(milliseconds=1)


def archive_bounds(value: str, now: datetime) -> tuple[datetime, datetime]:
    """`YYYY`, `YYYY-MM` or `YYYY-MM-DD` -> [start, min(end - 1 s, now)]."""
    match = _ARCHIVE.fullmatch(value)
    if match is None:
        raise BadRequest(ARCHIVE_MESSAGE)
    year, month, day = (int(g) if g else None for g in match.groups())
    try:  # its last second, not the next period's start less one (past 9999 in 9999-12-31)
        start = datetime(year, 1 if month is None else month, 1 if day is None else day, tzinfo=UTC)
        last_month = 12 if month is None else month
        last_day = monthrange(year, last_month)[1] if day is None else day
        last = datetime(year, last_month, last_day, 23, 59, 59, tzinfo=UTC)
    except ValueError:
        raise BadRequest(ARCHIVE_MESSAGE) from None
    return start, min(last, now)


def direction(name: str, value: str) -> int:
    lowered = value.lower()
    if lowered == "asc":
        return 1
    if lowered == "desc":
        return -1
    raise BadRequest(f'"{name}" must be asc or desc (any case), not "{value[:80]}"')


@dataclass(frozen=True)
class Page:
    number: int
    size: int

    @property
    def skip(self) -> int:
        return (self.number - 1) * self.size


MAX_PAGE = 1_000_000


def pagination(params: Params, *, default: int, maximum: int) -> Page:
    """`page` (from 1) and `itemsPerPage` (0 = count only; larger than `maximum` is clamped)."""
    page_value = params.get("page")
    number_ = 1
    if page_value is not None:
        if not _COUNT.fullmatch(page_value) or int(page_value) < 1:
            raise BadRequest("Page should not be less than 1")
        number_ = int(page_value)
        if number_ > MAX_PAGE:
            raise BadRequest(f"Page should not be greater than {MAX_PAGE}")
    size = default
    size_value = params.get("itemsPerPage")
    if size_value is not None:
        if not _COUNT.fullmatch(size_value):
            raise BadRequest(f'"itemsPerPage" must be an integer, not "{size_value[:80]}"')
        size = int(size_value)
        if size < 0:
            raise BadRequest("Limit should not be less than 0")
        size = min(size, maximum)
    return Page(number_, size)
