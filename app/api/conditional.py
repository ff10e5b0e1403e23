"""Conditional requests (RFC 9110 §13): one home for If-Match and If-None-Match on the
representations the service tags (content responses, contexts, the entry point, docs.jsonld)."""

from __future__ import annotations

import hashlib

from flask import Response, request

from app.errors import ApiError


class PreconditionFailed(ApiError):
    status = 412


def strong_etag(payload: bytes) -> str:
    """The ETag of a body: strong (behaviour.md, HTTP caching), 32 hex digits of its SHA-256."""
    return f'"{hashlib.sha256(payload).hexdigest()[:32]}"'


def answer_conditionally(response: Response) -> Response:
    """`response`, tagged with its ETag; a 304 when If-None-Match holds it, a 412 problem (not the
    representation) when If-Match is given and does not (strong comparison, `*` holds any)."""
    etag, _ = response.get_etag()
    if request.if_match and not request.if_match.contains(etag or ""):
        raise PreconditionFailed("The representation's ETag does not match If-Match.")
    # If-Match held (or was absent): If-None-Match decides alone (§13.2.2). werkzeug would
    # answer a held If-Match 200 over a matching If-None-Match, and a failed one 412 with the body.
    environ = {k: v for k, v in request.environ.items() if k != "HTTP_IF_MATCH"}
    response = response.make_conditional(environ)
    # make_conditional adds a Date; the server (gunicorn, werkzeug's) writes its own, and two
    # are a malformed response (RFC 9110 §6.6.1: nginx drops one with a warning).
    response.headers.pop("Date", None)
    return response
