"""What each request costs: latency, database commands and their time, response-cache outcome,
generation served; recorded as metrics (app.metrics) and one log line (app.logs) per request."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from flask import Flask, Response, current_app, g, request
from pymongo import monitoring

from app import logs, metrics
from app.redact import public_query


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


def init_app(app: Flask) -> None:
    """Register the hooks; before app.requests' own, so that a request refused by its checks is
    measured too."""
    if app.config.get("ACCESS_LOG"):
        logs.install()
    record_metrics = metrics.enabled(app)
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
