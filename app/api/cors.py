"""CORS: browser front-ends on other origins may read the API (an allow-list, `*` by default)."""

from __future__ import annotations

from flask import Flask, Response, current_app, request

ALLOWED_HEADERS = "Authorization, Accept, Accept-Language, If-None-Match, X-Request-Id"
EXPOSED_HEADERS = (
    "ETag, Link, Content-Language, Content-Location, Cache-Tags, X-Request-Id, X-Preview, "
    "X-Roadiz-Preview, WWW-Authenticate"
)
PREFLIGHT_MAX_AGE = 600


def allowed_origin(origin: str) -> str | None:
    """The Access-Control-Allow-Origin value for `origin`, or None when it is not allowed."""
    allowed = current_app.config["CORS_ORIGINS"]
    if allowed == "*" or allowed == ["*"]:
        return "*"  # no cookies are read, so the wildcard is safe even with Authorization
    return origin if origin in allowed else None


def init_app(app: Flask) -> None:
    @app.after_request
    def _cors(response: Response) -> Response:
        origin = request.headers.get("Origin")
        value = allowed_origin(origin) if origin else None
        if current_app.config["CORS_ORIGINS"] not in ("*", ["*"]):
            # With an allow-list every answer depends on Origin (echoed, or left out): a shared
            # cache must not give one origin's answer to another.
            response.vary.add("Origin")
        if value is None:
            return response
        response.headers["Access-Control-Allow-Origin"] = value
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response.headers["Access-Control-Allow-Methods"] = "GET, HEAD, OPTIONS"
            response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response.headers["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
        return response
