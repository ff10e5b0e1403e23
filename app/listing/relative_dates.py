"""PHP's relative date formats, as Roadiz's date filters read them (strtotime, "any PHP-parsable
date": roadiz-read-surface.md §2), the part a front-end sends: `now`, `today`, `midnight`, `noon`,
`yesterday`, `tomorrow`, then relative items such as `-1 week`, `+2 days 3 hours`, `next month`,
`1 year ago`. Weekday names, `first day of` and absolute English dates are not read (a 400).

Like PHP, months and years move the calendar month and let the day overflow (January 31 + 1 month
is March 2 or 3), then days and time are added; `ago` negates every item before it. The server's
zone is UTC, as for a date without an offset.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

_BASES = {
    "now": None,
    "today": (0, 0),
    "midnight": (0, 0),
    "noon": (0, 12),
    "yesterday": (-1, 0),
    "tomorrow": (1, 0),
}
# unit -> (months, seconds) per one of it
_UNITS = {
    "sec": (0, 1), "second": (0, 1), "min": (0, 60), "minute": (0, 60), "hour": (0, 3600),
    "day": (0, 86400), "week": (0, 7 * 86400), "fortnight": (0, 14 * 86400), "month": (1, 0),
    "year": (12, 0),
}  # fmt: skip
_WORD_NUMBERS = {"next": 1, "last": -1, "previous": -1, "this": 0}
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_ITEM = re.compile(
    rf"\s*(?:([+-]?)\s*([0-9]{{1,9}})|({'|'.join(_WORD_NUMBERS)}))\s*({_UNIT})s?\b", re.IGNORECASE
)
_BASE = re.compile(rf"\s*({'|'.join(_BASES)})\b", re.IGNORECASE)
_AGO = re.compile(r"\s*ago\s*$", re.IGNORECASE)


def relative_date(text: str, now: datetime) -> datetime | None:
    """The moment `text` names relative to `now` (aware), or None when it is not one of these
    formats. Raises OverflowError when it leaves the years 1-9999."""
    position, moment = 0, now
    if base := _BASE.match(text):
        shift = _BASES[base.group(1).lower()]
        if shift is not None:
            days, hour = shift
            moment = now.replace(hour=hour, minute=0, second=0, microsecond=0)
            moment += timedelta(days=days)
        position = base.end()
    months = seconds = 0
    items = 0
    while item := _ITEM.match(text, position):
        sign, digits, word, unit = item.groups()
        count = _WORD_NUMBERS[word.lower()] if word else int(digits) * (-1 if sign == "-" else 1)
        per_months, per_seconds = _UNITS[unit.lower()]
        months += count * per_months
        seconds += count * per_seconds
        position, items = item.end(), items + 1
    rest = text[position:]
    if items and _AGO.fullmatch(rest):
        months, seconds, rest = -months, -seconds, ""
    if rest.strip() or (position == 0):
        return None
    if months:
        month_index = moment.year * 12 + moment.month - 1 + months
        year, month = divmod(month_index, 12)
        if not 1 <= year <= 9999:
            raise OverflowError(text)
        day = moment.day
        moment = moment.replace(year=year, month=month + 1, day=1) + timedelta(days=day - 1)
    return moment + timedelta(seconds=seconds)
