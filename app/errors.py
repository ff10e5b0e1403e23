"""Domain errors and their one translation into application/problem+json."""

from __future__ import annotations

import logging

from flask import Flask, Response, g, request
from werkzeug.exceptions import HTTPException

from app.jsonld import json_response
from app.redact import public_full_path

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error with an HTTP status and a message that is safe to show to the client."""

    status = 500

    def __init__(self, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.headers = headers or {}


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class ServiceUnavailable(ApiError):
    status = 503


def problem(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """The problem+json response every error of the service is sent as."""
    body = {
        "@context": "/api/contexts/Error",
        "@id": f"/api/errors/{status}",
        "@type": "hydra:Error",
        "title": "An error occurred",
        "detail": message,
        "status": status,
        "type": f"/errors/{status}",
        "description": message,
        "hydra:title": "An error occurred",
        "hydra:description": message,
    }
    response = json_response(body, status=status, mimetype="application/problem+json")
    response.headers["Cache-Control"] = "no-store"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _logged(status: int, message: str) -> None:
    """Every error is logged once, with the request id the response carries."""
    level = logging.ERROR if status >= 500 else logging.INFO
    log.log(level, "%s %s -> %d %s [request %s]", request.method, public_full_path(), status,
            message, g.get("request_id", "-"))  # fmt: skip


def init_app(app: Flask) -> None:
    """Route every error, expected or not, through problem()."""

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError) -> Response:
        _logged(error.status, error.message)
        return problem(error.status, error.message, error.headers)

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        status = error.code or 500
        message = error.description if status < 500 else "Internal Server Error"
        _logged(status, message)
        headers = {}
        if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
            headers["Allow"] = ", ".join(sorted(error.valid_methods))  # type: ignore[attr-defined]
        return problem(status, message, headers)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        from pymongo.errors import ConnectionFailure

        if isinstance(error, ConnectionFailure):
            _logged(503, f"database unreachable: {type(error).__name__}")
            return problem(503, "Service Unavailable: the database does not answer.")
        log.exception("unhandled error [request %s]", g.get("request_id", "-"))
        return problem(500, "Internal Server Error")
