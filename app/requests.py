"""Turning the current Flask request into a RequestContext (one place for every endpoint)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import current_app, request

from app.auth import check_preview, request_credentials, wants_preview
from app.context import RequestContext
from app.publication import Visibility
from app.site import current_site


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
        request_iri=request.full_path.rstrip("?"),
        password=credentials.password,
        claims=credentials.claims,
    )
