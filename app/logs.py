"""Structured logs: one JSON line per request on the `cms.access` logger.

The line names the request (id, client address, method, route, path, query without secrets), its
outcome (status, latency, response-cache hit or miss, database commands and their time) and the
site generation served. It never holds headers (credentials) nor the realm `password`
(app.api.redact).
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

ACCESS = logging.getLogger("cms.access")
_handler: logging.Handler | None = None


def install() -> None:
    """Write the lines to stderr (gunicorn's error log, the container's), once per process."""
    global _handler
    ACCESS.setLevel(logging.INFO)
    if _handler is None:
        _handler = logging.StreamHandler(sys.stderr)
        _handler.setFormatter(logging.Formatter("%(message)s"))
        ACCESS.addHandler(_handler)


def request_line(fields: dict[str, Any]) -> str:
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False, default=str)


def log_request(fields: dict[str, Any]) -> None:
    if ACCESS.isEnabledFor(logging.INFO):
        ACCESS.info(request_line(fields))
