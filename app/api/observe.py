"""What each request costs: latency, database commands and their time, response-cache outcome,
generation served; recorded as metrics (app.metrics) and one log line (app.logs) per request.
Also the /metrics endpoint, when configured (app.metrics)."""

from __future__ import annotations

import hmac
import time

from flask import Flask, Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST

from app import logs, metrics
from app.api.problems import problem
from app.api.redact import public_query
from app.metrics import COMMANDS


def init_app(app: Flask) -> None:
    """Register the hooks; before app.api.hygiene's, so that a request refused by its checks is
    measured too."""
    if app.config.get("ACCESS_LOG"):
        logs.install()
    record_metrics = metrics.enabled(app.config)
    if record_metrics:
        app.add_url_rule("/metrics", "metrics", metrics_endpoint, methods=["GET"])
    real_server = bool(app.config["MONGODB_URI"])

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()
        g.store_commands = current_app.extensions["cms.store"].commands
        COMMANDS.begin()

    @app.after_request
    def _finish(response: Response) -> Response:
        started = g.get("started")
        if started is None:  # a response made before the hooks ran
            return response
        seconds = time.perf_counter() - started
        sent = COMMANDS.end()
        if real_server:
            db_commands, db_seconds = sent.count, sent.micros / 1e6
        else:  # mongomock has no command monitoring: the store's own counter
            store = current_app.extensions["cms.store"]
            db_commands, db_seconds = store.commands - g.store_commands, None
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        cache = g.get("cache")
        if record_metrics:
            metrics.record_request(
                route, response.status_code, seconds, cache, db_commands, db_seconds
            )
        logs.log_request(
            {
                "event": "request",
                "request_id": g.get("request_id"),
                "client": request.remote_addr,  # X-Forwarded-For only under PROXY_COUNT
                "method": request.method,
                "route": route,
                "path": request.path,
                "query": public_query(),
                "status": response.status_code,
                "latency_ms": round(seconds * 1000, 3),
                "cache": cache,
                "db_commands": db_commands,
                "db_ms": None if db_seconds is None else round(db_seconds * 1000, 3),
                "generation": g.get("generation"),
            }
        )
        return response


def metrics_endpoint() -> Response:
    token = current_app.config.get("METRICS_TOKEN")
    if token:
        given = request.headers.get("Authorization", "")
        expected = f"Bearer {token}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            return problem(401, "Unauthorized: /metrics needs its bearer token.",
                           {"WWW-Authenticate": 'Bearer realm="metrics"'})  # fmt: skip
    response = Response(metrics.exposition(), mimetype=None)
    response.headers["Content-Type"] = CONTENT_TYPE_LATEST
    response.headers["Cache-Control"] = "no-store"
    return response
