"""GET /api/common_content: the content every page shares (home, head, menus and footer)."""

from __future__ import annotations

from flask import Response, current_app, request
from flask_smorest import Blueprint

from app.common_content import build_common_content
from app.http import cached, send
from app.locale import resolve_translation
from app.requests import request_context

blp = Blueprint(
    "CommonContent",
    __name__,
    url_prefix="/api",
    description="Content shared by every page of a translation, fetched once by a client.",
)

PARAMETERS = [
    {
        "name": "_locale",
        "in": "query",
        "required": False,
        "description": "Locale of the translation to use; else Accept-Language, else the default.",
        "schema": {"type": "string"},
    },
    {
        "name": "Accept-Language",
        "in": "header",
        "required": False,
        "description": "Preferred languages, used when `_locale` is absent.",
        "schema": {"type": "string"},
    },
]


@blp.route("/common_content", methods=["GET"])
@blp.doc(
    operationId="common_content",
    summary="Get the content every page shares: home, head, menus and footer",
    parameters=PARAMETERS,
)
def common_content() -> Response:
    context = request_context()
    translation = resolve_translation(
        context.site,
        locale=request.args.get("_locale"),
        accept_language=request.headers.get("Accept-Language"),
        preview=context.visibility.preview,
    )
    # The answer depends on the translation only (from _locale or Accept-Language): other
    # parameters, cache-busters included, are not keyed.
    key, hit = cached(context, (translation.locale,))
    if hit is not None:
        return hit
    body = build_common_content(context, translation)
    s_maxage = int(current_app.config["DEFAULT_S_MAXAGE"])
    return send(body, context, locale=translation.locale, s_maxage=s_maxage, cache_key=key)
