"""PHP's relative dates (strtotime), read by the date filters (app.listing.relative_dates)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.listing.relative_dates import relative_date

NOW = datetime(2024, 1, 31, 15, 30, 45, 123000, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("now", "2024-01-31T15:30:45.123000"),
        ("today", "2024-01-31T00:00:00"),
        ("midnight", "2024-01-31T00:00:00"),
        ("noon", "2024-01-31T12:00:00"),
        ("yesterday", "2024-01-30T00:00:00"),
        ("Tomorrow", "2024-02-01T00:00:00"),
        ("-1 week", "2024-01-24T15:30:45.123000"),
        ("-1week", "2024-01-24T15:30:45.123000"),
        ("+2 days 3 hours", "2024-02-02T18:30:45.123000"),
        ("2 days", "2024-02-02T15:30:45.123000"),
        ("3 mins", "2024-01-31T15:33:45.123000"),
        ("10 secs ago", "2024-01-31T15:30:35.123000"),
        ("1 fortnight", "2024-02-14T15:30:45.123000"),
        # months move the calendar month and let the day overflow, as PHP does (2024 is leap)
        ("+1 month", "2024-03-02T15:30:45.123000"),
        ("next month", "2024-03-02T15:30:45.123000"),
        ("last month", "2023-12-31T15:30:45.123000"),
        ("1 year ago", "2023-01-31T15:30:45.123000"),
        ("-1 month -1 day", "2023-12-30T15:30:45.123000"),
        ("1 month 1 day ago", "2023-12-30T15:30:45.123000"),  # ago negates every item
        ("today -1 day", "2024-01-30T00:00:00"),
        ("yesterday +12 hours", "2024-01-30T12:00:00"),
    ],
)
def test_a_relative_date_is_read_as_php_reads_it(text, expected):
    assert relative_date(text, NOW) == datetime.fromisoformat(expected).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    "text", ["", "ago", "now ago", "monday", "last monday", "1 dayz", "1 day 2", "first day of"]
)
def test_what_is_not_a_relative_date_is_none(text):
    assert relative_date(text, NOW) is None


@pytest.mark.parametrize("text", ["99999 years", "-3000 years", "999999999 days"])
def test_a_date_beyond_the_years_1_to_9999_overflows(text):
    with pytest.raises(OverflowError):
        relative_date(text, NOW)
