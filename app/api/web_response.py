"""GET /api/web_response_by_path: the WebResponse of the item at a path."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request
from flask_smorest import Blueprint

from app.api.arguments import QueryParser, WebResponseQuery
from app.api.caching import respond
from app.api.redact import iri
from app.paths import normalise_path
from app.web_response import web_response_reply

blp = Blueprint(
    "WebResponse",
    __name__,
    url_prefix="/api",
    description="A resource looked up by its public path, wrapped in a WebResponse object.",
)
blp.ARGUMENTS_PARSER = QueryParser()


@blp.route("/web_response_by_path", methods=["GET"])
@blp.arguments(WebResponseQuery, location="query")
@blp.doc(
    operationId="web_response_by_path",
    summary="Get a resource by its path wrapped in a WebResponse object",
)
def web_response_by_path(query: dict[str, Any]) -> Response:
    transformer = current_app.extensions["cms.transformer"]
    # Only `path` changes the answer (preview is never cached): other parameters, cache-busters
    # included, are neither keyed nor echoed in @id.
    path = normalise_path(query["path"])
    return respond(
        lambda context: web_response_reply(context, query["path"], transformer),
        answer=(path,),
        iri=iri(request.path, [("path", path)]),
    )
