"""The edge of every request: hygiene checks, request ids, and the RequestContext of the domain."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime

from flask import Flask, Response, current_app, g, request

from app.api import negotiation
from app.api.encoding import LD_JSON
from app.api.redact import public_full_path
from app.auth import check_preview, request_credentials, wants_preview
from app.errors import ApiError, BadRequest
from app.publication import Visibility
from app.request_context import RequestContext
from app.site import current_site

MAX_URL_LENGTH = 4096
# Parameters the service reads: each may be given once (unknown ones are ignored, as in the
# reference implementation).
SINGLE_PARAMETERS = frozenset(
    {"path", "_locale", "_preview", "password", "page", "itemsPerPage", "node.visible"}
)
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
JSON_TYPES = (LD_JSON, "application/json", "application/problem+json")


class UriTooLong(ApiError):
    status = 414


class NotAcceptable(ApiError):
    status = 406


def _check_request() -> None:
    """Refuse malformed requests before any work: one rule each, exact messages."""
    if len(request.full_path) > MAX_URL_LENGTH:
        raise UriTooLong(f"The request URL is longer than {MAX_URL_LENGTH} characters.")
    for name in request.args:
        if (name in SINGLE_PARAMETERS or name.startswith("order[")) and len(
            request.args.getlist(name)
        ) > 1:
            raise BadRequest(f'"{name}" must be given once')
    if (
        request.path.startswith("/api/")
        and not request.path.startswith("/api/docs")
        and not negotiation.has_suffix(request)
    ):
        accepted = request.accept_mimetypes
        if request.headers.get("Accept") and not any(accepted[t] for t in JSON_TYPES):
            raise NotAcceptable(
                "Requested format is not supported: use application/ld+json or application/json."
            )


def init_app(app: Flask) -> None:
    @app.before_request
    def _before() -> None:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        _check_request()

    @app.after_request
    def _after(response: Response) -> Response:
        response.headers["X-Request-Id"] = g.get("request_id", "")
        return response


def request_context() -> RequestContext:
    site = current_site()
    credentials = request_credentials(request, current_app.config.get("JWT_SECRET"))
    preview = wants_preview(request)
    if preview:
        check_preview(credentials)
    return RequestContext(
        site=site,
        visibility=Visibility(now=datetime.now(UTC), preview=preview),
        schemas=current_app.extensions["cms.schemas"],
        definitions=current_app.extensions["cms.walker_definitions"],
        request_iri=public_full_path(),
        password=credentials.password,
        claims=credentials.claims,
    )
