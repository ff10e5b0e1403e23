"""The edge of every request: hygiene checks, request ids, and the RequestContext of the domain."""

from __future__ import annotations

import re
import uuid
from collections.abc import Container
from datetime import UTC, datetime
from urllib.parse import unquote_to_bytes

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import NotFound as WerkzeugNotFound

from app.api import docs, negotiation
from app.api.encoding import LD_JSON
from app.api.problems import allow_header
from app.api.redact import public_full_path
from app.auth import check_preview, request_credentials, wants_preview
from app.errors import ApiError, BadRequest, given_twice
from app.hydra import API_DOCUMENTATION_LINK
from app.publication import Visibility
from app.request_context import RequestContext
from app.site import current_site

MAX_URL_LENGTH = 4096
# Parameters read outside the lists' Params (which refuses any of its one-value parameters given
# twice: app.listing.params.Params.get): each may be given once, on every route.
SINGLE_PARAMETERS = frozenset({"path", "_locale", "_preview", "password"})
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# The formats a success is served in (a problem's own type is no format of a resource: API
# Platform answers `Accept: application/problem+json` alone with a 406 too).
JSON_TYPES = (LD_JSON, "application/json")


class UriTooLong(ApiError):
    status = 414


# The detail of a 414, whether the app or the server (gunicorn.conf.py) refuses the URL.
URL_TOO_LONG = f"The request URL is longer than {MAX_URL_LENGTH} characters."


class NotAcceptable(ApiError):
    status = 406


def _check_request() -> Response | None:
    """Refuse malformed requests before any work: one rule each, exact messages. A GET of an API
    route asked for HTML only (`Accept: text/html`, no JSON type) answers the Swagger UI, as API
    Platform does; any other Accept without a JSON type is a 406. A request the router refuses
    (404, 405) is refused first, whatever its parameters and whatever it accepts."""
    if len(request.full_path) > MAX_URL_LENGTH:
        raise UriTooLong(URL_TOO_LONG)
    if request.environ.get("PATH_INFO", "").startswith("//"):
        raise WerkzeugNotFound()  # werkzeug routes `//api/pages` as `/api/pages`: not as written
    if request.routing_exception is not None:
        return None  # the router's 404 or 405, whatever the parameters
    check_encoding(SINGLE_PARAMETERS)
    for name in request.args:
        if name in SINGLE_PARAMETERS and len(request.args.getlist(name)) > 1:
            raise given_twice(name)
        if (base := name.partition("[")[0]) in SINGLE_PARAMETERS and base != name:
            # PHP reads `path[]=/a` as a list under `path`: Roadiz refuses it too
            raise BadRequest(f'"{base}" is one value: give {base}=…, not {name[:40]}=…')
    if _negotiated() and request.method in ("GET", "HEAD"):
        if request.headers.get("Accept") and not any(
            negotiation.quality(request, t) for t in JSON_TYPES
        ):
            if negotiation.quality(request, "text/html"):
                page = docs.swagger_ui()
                page.headers["Vary"] = "Accept"
                return page
            raise NotAcceptable(
                "Requested format is not supported: use application/ld+json or application/json."
            )
    return None


def _api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def _negotiated() -> bool:
    """Whether the request's route answers by its Accept header: JSON-LD, JSON, the Swagger UI or
    406 (the docs routes have one type each; a `.json`/`.jsonld` suffix decides alone)."""
    return (
        _api_path(request.path)
        and not request.path.startswith("/api/docs")
        and not negotiation.has_suffix(request)
    )


def _options() -> Response:
    """OPTIONS of any route: 204 with Allow (app.cors adds the preflight headers), no body."""
    response = current_app.make_default_options_response()
    response.status_code = 204
    response.headers["Allow"] = allow_header(response.allow)
    response.headers.pop("Content-Type", None)
    response.headers["Cache-Control"] = "no-store"
    return response


def check_encoding(names: Container[str] | None = None) -> None:
    """Refuse a parameter whose value is not percent-encoded UTF-8 (werkzeug would pass invalid
    bytes on re-encoded as `%FF`, indistinguishable from the text `%FF`): those of `names` (the
    SINGLE_PARAMETERS, on every route), else every one (a list's, whose every parameter is read
    or refused: app.api.resources.request_args). A parameter a route ignores is not read."""
    for pair in request.query_string.split(b"&"):
        raw_name, _, raw_value = pair.partition(b"=")
        try:
            name = unquote_to_bytes(raw_name.replace(b"+", b" ")).decode()
        except UnicodeDecodeError:
            continue  # not a name the service reads (a list refuses it as unknown)
        if names is not None and name not in names:
            continue
        try:
            unquote_to_bytes(raw_value.replace(b"+", b" ")).decode()
        except UnicodeDecodeError:
            raise BadRequest(f"{name} is not valid percent-encoded UTF-8") from None


def init_app(app: Flask) -> None:
    @app.before_request
    def _before() -> Response | None:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        answered = _check_request()  # the Swagger UI, for HTML only
        if answered is not None:
            return answered
        if request.method == "OPTIONS" and request.routing_exception is None:
            return _options()
        return None

    @app.after_request
    def _after(response: Response) -> Response:
        response.headers["X-Request-Id"] = g.get("request_id", "")
        # a body is read as the type it is sent with, never sniffed (JSON echoing a parameter
        # is never run as HTML or script by a browser)
        response.headers["X-Content-Type-Options"] = "nosniff"
        if _negotiated():  # the entry point and contexts too, and errors (406 or not)
            response.vary.add("Accept")
        if _api_path(request.path):  # errors, the entry point and contexts too
            links = response.headers.get("Link")
            response.headers["Link"] = (
                f"{links},{API_DOCUMENTATION_LINK}" if links else API_DOCUMENTATION_LINK
            )
        return response


def request_context() -> RequestContext:
    site = current_site()
    config = current_app.config
    credentials = request_credentials(
        request, config.get("JWT_SECRET"), float(config["JWT_MAX_LIFETIME"])
    )
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
