"""Prometheus metrics (prometheus_client) and the database command counter.

Off unless configured: CMS_METRICS=true serves /metrics to anyone, CMS_METRICS_TOKEN serves it to
`Authorization: Bearer <token>` only; without either the route does not exist and nothing is
recorded. Under gunicorn, set PROMETHEUS_MULTIPROC_DIR (an empty directory) so that every worker
writes its values there and /metrics adds them up (gunicorn.conf.py marks dead workers).
See docs/operations.md for the metrics and their alert thresholds.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from pymongo import monitoring

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
COMMAND_BUCKETS = (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64)

REQUESTS = Counter("cms_http_requests", "Requests by route and status.", ["route", "status"])
LATENCY = Histogram(
    "cms_http_request_duration_seconds", "Request latency by route.", ["route"],
    buckets=LATENCY_BUCKETS,
)  # fmt: skip
CACHE = Counter("cms_response_cache_lookups", "Response-cache lookups: hit or miss.", ["result"])
DB_COMMANDS = Histogram(
    "cms_db_commands_per_request", "Database commands per request, by route.", ["route"],
    buckets=COMMAND_BUCKETS,
)  # fmt: skip
DB_TIME = Histogram(
    "cms_db_time_per_request_seconds",
    "Time of a request's database commands as the driver measures them (round trip), by route;"
    " not observed on the embedded store.",
    ["route"],
    buckets=LATENCY_BUCKETS,
)
GENERATION = Gauge(
    "cms_site_generation", "The live site generation the processes serve.",
    multiprocess_mode="livemax",
)  # fmt: skip
GENERATION_LOADED = Gauge(
    "cms_site_generation_loaded_timestamp_seconds",
    "When the generation the processes serve was loaded (Unix time).",
    multiprocess_mode="livemax",
)
REBUILDS = Counter(
    "cms_site_model_rebuilds", "Site models built (once per generation and process)."
)


def enabled(config: Any) -> bool:
    """Whether /metrics is served (and metrics recorded): METRICS or METRICS_TOKEN is set."""
    return bool(config.get("METRICS") or config.get("METRICS_TOKEN"))


def record_request(route: str, status: int, seconds: float, cache: str | None,
                   db_commands: int, db_seconds: float | None) -> None:  # fmt: skip
    REQUESTS.labels(route, str(status)).inc()
    LATENCY.labels(route).observe(seconds)
    if cache in ("hit", "miss"):
        CACHE.labels(cache).inc()
    DB_COMMANDS.labels(route).observe(db_commands)
    if db_seconds is not None:
        DB_TIME.labels(route).observe(db_seconds)


def site_model_built(version: int, loaded_at: datetime | None) -> None:
    """A process built the site model of a generation (app.site.SiteCache)."""
    REBUILDS.inc()
    GENERATION.set(version)
    if loaded_at is not None:
        GENERATION_LOADED.set(loaded_at.timestamp())


def exposition() -> bytes:
    """Every metric in the Prometheus text format; summed over the workers in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


@dataclass
class _Commands:
    count: int = 0
    micros: int = 0


class CommandCounter(monitoring.CommandListener):
    """pymongo command monitoring: counts and times the commands of the current thread's request
    (pymongo calls listeners on the thread that sends the command)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def begin(self) -> None:
        self._local.current = _Commands()

    def end(self) -> _Commands:
        current = getattr(self._local, "current", None) or _Commands()
        self._local.current = None
        return current

    def _finished(self, event) -> None:
        current = getattr(self._local, "current", None)
        if current is not None:
            current.count += 1
            current.micros += event.duration_micros

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        pass

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        self._finished(event)

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        self._finished(event)


COMMANDS = CommandCounter()
