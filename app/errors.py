"""Domain errors and their one translation into application/problem+json."""

from __future__ import annotations

import logging

from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from app.jsonld import json_response

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


def init_app(app: Flask) -> None:
    """Route every error, expected or not, through problem()."""

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError) -> Response:
        return problem(error.status, error.message, error.headers)

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        status = error.code or 500
        message = error.description if status < 500 else "Internal Server Error"
        headers = {}
        if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
            headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
        return problem(status, message, headers)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        from pymongo.errors import ConnectionFailure

        if isinstance(error, ConnectionFailure):
            log.warning("database unreachable: %s", error)
            return problem(503, "Service Unavailable: the database does not answer.")
        log.exception("unhandled error")
        return problem(500, "Internal Server Error")
