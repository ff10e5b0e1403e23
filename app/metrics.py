"""Prometheus metrics (prometheus_client) and the /metrics endpoint.

Off unless configured: CMS_METRICS=true serves /metrics to anyone, CMS_METRICS_TOKEN serves it to
`Authorization: Bearer <token>` only; without either the route does not exist and nothing is
recorded. Under gunicorn, set PROMETHEUS_MULTIPROC_DIR (an empty directory) so that every worker
writes its values there and /metrics adds them up (gunicorn.conf.py marks dead workers).
See docs/operations.md for the metrics and their alert thresholds.
"""

from __future__ import annotations

import hmac
import os
from datetime import datetime

from flask import Flask, Response, current_app, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from app.errors import problem

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


def enabled(app: Flask) -> bool:
    return bool(app.config.get("METRICS") or app.config.get("METRICS_TOKEN"))


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


def metrics_endpoint() -> Response:
    token = current_app.config.get("METRICS_TOKEN")
    if token:
        given = request.headers.get("Authorization", "")
        expected = f"Bearer {token}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            return problem(401, "Unauthorized: /metrics needs its bearer token.",
                           {"WWW-Authenticate": 'Bearer realm="metrics"'})  # fmt: skip
    response = Response(exposition(), mimetype=None)
    response.headers["Content-Type"] = CONTENT_TYPE_LATEST
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    token = app.config.get("METRICS_TOKEN")
    if token is not None:
        app.config["METRICS_TOKEN"] = str(token)  # CMS_METRICS_TOKEN=123 is parsed as a number
    if enabled(app):
        app.add_url_rule("/metrics", "metrics", metrics_endpoint, methods=["GET"])
