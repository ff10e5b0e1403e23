"""HTTP caching and content headers of successful responses."""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Response, request

from app.context import RequestContext
from app.jsonld import LD_JSON, dumps

VARY = "Accept, Accept-Language, Authorization, Origin, Accept-Encoding"
MAX_AGE = 60
STALE_WHILE_REVALIDATE = 3600


def send(
    body: Any,
    context: RequestContext,
    *,
    locale: str,
    s_maxage: int,
    headers: dict[str, str] | None = None,
) -> Response:
    """A JSON-LD response with ETag (304 on If-None-Match), Cache-Control, Vary, Content-Language."""
    payload = dumps(body)
    etag = hashlib.sha256(payload).hexdigest()[:32]
    if context.visibility.preview:
        cache_control = "private, no-store"
    elif context.used_credentials:
        cache_control = f"private, max-age={MAX_AGE}"
    else:
        cache_control = (
            f"public, max-age={MAX_AGE}, s-maxage={s_maxage}, "
            f"stale-while-revalidate={STALE_WHILE_REVALIDATE}"
        )
    mimetype = "application/json" if _prefers_plain_json() else LD_JSON
    response = Response(payload, mimetype=mimetype)
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    response.headers["Vary"] = VARY
    response.headers["Content-Language"] = locale
    if context.visibility.preview:
        response.headers["X-Preview"] = "1"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response.make_conditional(request)


def _prefers_plain_json() -> bool:
    accepted = request.accept_mimetypes
    return accepted.best_match([LD_JSON, "application/json"]) == "application/json" and (
        accepted["application/json"] > accepted[LD_JSON]
    )
