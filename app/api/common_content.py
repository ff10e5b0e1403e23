"""GET /api/common_content: the content every page shares (home, head, menus and footer)."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from app.api.arguments import CommonContentQuery, LanguageHeaders, QueryParser
from app.api.caching import respond
from app.common_content import common_content_reply
from app.locale import resolve_translation
from app.request_context import RequestContext

blp = Blueprint(
    "CommonContent",
    __name__,
    url_prefix="/api",
    description="Content shared by every page of a translation, fetched once by a client.",
)
blp.ARGUMENTS_PARSER = QueryParser()


@blp.route("/common_content", methods=["GET"])
@blp.arguments(LanguageHeaders, location="headers")
@blp.arguments(CommonContentQuery, location="query")
@blp.doc(
    operationId="common_content",
    summary="Get the content every page shares: home, head, menus and footer",
)
# webargs passes stacked arguments in the order of the decorators, top first.
def common_content(headers: dict[str, Any], query: dict[str, Any]) -> Response:
    accept_language = headers.get("accept_language")

    def translation(context: RequestContext) -> tuple:
        """The answer depends on the translation only (from _locale or Accept-Language): other
        parameters, cache-busters included, are not keyed."""
        found = resolve_translation(
            context.site,
            locale=query.get("locale"),
            accept_language=accept_language,
            preview=context.visibility.preview,
        )
        return (found.locale,)

    return respond(
        lambda context: common_content_reply(
            context, locale=query.get("locale"), accept_language=accept_language
        ),
        answer=translation,
    )
