"""The database time budget of one content request (CMS_QUERY_TIMEOUT_MS, app/config.py).

On a server (`MONGODB_URI`), `pymongo.timeout` sends the remaining time with each command as
`maxTimeMS`, bounds socket reads and server selection by it, and refuses to send a command once
it is spent. However the budget ran out (the server stopped the query, the socket or the wait for
a server or a connection timed out, or nothing was left to send a read with), the request is the
same 503 problem naming the budget. A timeout before the deadline is a database that does not
answer (app/api/problems.py), as is any pymongo timeout outside a budget. The embedded store is
in-process: pymongo.timeout does not reach it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

import pymongo
from flask import current_app
from pymongo.errors import ExecutionTimeout, PyMongoError

from app.errors import ServiceUnavailable

log = logging.getLogger(__name__)


class BudgetSpent(ServiceUnavailable):
    """The request's database reads ran past CMS_QUERY_TIMEOUT_MS."""


def context_limit() -> AbstractContextManager[None]:
    """The limit of a request's context phase (the live site pointer and, once per generation,
    the site model's build): the connection's timeout, CMS_MONGODB_TIMEOUT_MS, for the whole
    phase. A timeout there is a database that does not answer, as for any timeout outside the
    budget (app/api/problems.py)."""
    return pymongo.timeout(_seconds("MONGODB_TIMEOUT_MS"))


def budget_seconds() -> float | None:
    """The seconds a request's database reads may take together (None: no limit)."""
    return _seconds("QUERY_TIMEOUT_MS")


def _seconds(setting: str) -> float | None:
    """A limit in milliseconds of the configuration, in seconds (0: None, no limit)."""
    limit = float(current_app.config[setting])
    return limit / 1000 if limit > 0 else None


@contextmanager
def query_budget() -> Iterator[None]:
    """Run the block's database reads under the request's time budget."""
    limit = budget_seconds()
    started = time.monotonic()
    try:
        with pymongo.timeout(limit):
            yield
    except PyMongoError as error:
        if limit is not None and spent(error, time.monotonic() - started, limit):
            log.warning("database time budget spent: %s", type(error).__name__)
            milliseconds = current_app.config["QUERY_TIMEOUT_MS"]
            raise BudgetSpent(
                f"Service Unavailable: the database did not answer within {milliseconds} ms."
            ) from error
        raise


def spent(error: PyMongoError, elapsed: float, limit: float) -> bool:
    """Whether `error` is the budget running out: the server stopped the query (maxTimeMS), or
    any timeout once the deadline has passed (pymongo's own deadline starts after `started`, so
    a timeout it raised at its deadline is never early by this clock)."""
    return isinstance(error, ExecutionTimeout) or (error.timeout and elapsed >= limit)
