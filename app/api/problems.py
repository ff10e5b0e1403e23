"""The one translation of every error into application/problem+json."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from flask import Flask, Response, current_app, g, request
from pymongo.errors import ConnectionFailure, PyMongoError
from werkzeug.exceptions import HTTPException

from app.api.encoding import json_response
from app.api.redact import public_full_path
from app.errors import ITEM_NOT_FOUND, ApiError
from app.naming import context_iri, error_iri, error_type
from app.paths import InvalidPath
from app.site import current_site
from schemas import shared
from schemas.shapes import ProblemSchema

log = logging.getLogger(__name__)

# Roadiz's details of an item route whose id is not one (API Platform's ReadProvider): a number
# out of range is an item that is not found, anything else an identifier it cannot convert.
INVALID_IDENTIFIER = "Invalid identifier value or configuration."
_NUMBER = re.compile(r"-?[0-9]+")


def problem(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """The problem+json response every error of the service is sent as."""
    body = shared(ProblemSchema).dump({
        "@context": context_iri("Error"),
        "@id": error_iri(status),
        "@type": "hydra:Error",
        "title": "An error occurred",
        "detail": message,
        "status": status,
        "type": error_type(status),
        "description": message,
        "hydra:title": "An error occurred",
        "hydra:description": message,
    })  # fmt: skip
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


def allow_header(methods: Iterable[str]) -> str:
    """The Allow value of a route, in one order for OPTIONS and 405 (`GET, HEAD, OPTIONS`)."""
    return ", ".join(sorted(set(methods)))


def unmatched_identifier(path: str) -> str | None:
    """The detail of a path that matched no route because its last segment is not an id an item
    route takes (`/api/pages/abc`, `/api/tags/-1`), else None: the same path with an id in its
    place matches a route ending with an integer (for a node source, of a reachable type)."""
    head, _, segment = path.rpartition("/")
    if not segment or not head.startswith("/api/"):
        return None
    try:
        rule, values = current_app.create_url_adapter(request).match(  # type: ignore[union-attr]
            f"{head}/0", method=request.method, return_rule=True
        )
    except HTTPException:
        return None
    if not rule.rule.rpartition("/")[2].startswith("<int"):
        return None
    if "plural" in values and not _reachable_plural(values["plural"]):
        return None  # `/api/foo/abc` is no item route, as `/api/foo/1` is none
    return ITEM_NOT_FOUND if _NUMBER.fullmatch(segment) else INVALID_IDENTIFIER


def _reachable_plural(plural: str) -> bool:
    """Whether `plural` names a reachable node type of the live site (False when the site cannot
    be read: the error stays the router's)."""
    try:
        site = current_site()
    except (ApiError, PyMongoError):
        return False
    return any(t.plural == plural for t in site.reachable_types())


def init_app(app: Flask) -> None:
    """Route every error, expected or not, through problem()."""

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError) -> Response:
        _logged(error.status, error.message)
        return problem(error.status, error.message, error.headers)

    @app.errorhandler(InvalidPath)
    def _invalid_path(error: InvalidPath) -> Response:
        _logged(400, str(error))
        return problem(400, str(error))

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        status = error.code or 500
        message = error.description if status < 500 else "Internal Server Error"
        if status == 404 and request.url_rule is None:
            message = unmatched_identifier(request.path) or message
        _logged(status, message)
        headers = {}
        if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
            headers["Allow"] = allow_header(error.valid_methods)  # type: ignore[attr-defined]
        return problem(status, message, headers)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        # the request's time budget running out is app.api.time_budget.BudgetSpent, an ApiError;
        # a timeout outside it (a server-side limit, a socket) is a database that does not answer
        if isinstance(error, ConnectionFailure) or (
            isinstance(error, PyMongoError) and error.timeout
        ):
            _logged(503, f"database unreachable: {type(error).__name__}")
            return problem(503, "Service Unavailable: the database does not answer.")
        log.exception("unhandled error [request %s]", g.get("request_id", "-"))
        return problem(500, "Internal Server Error")
