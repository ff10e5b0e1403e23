"""GET /api/web_response_by_path: the WebResponse of the item at a path."""

from __future__ import annotations

from flask import Response, current_app, request
from flask_smorest import Blueprint

from app.errors import NotFound
from app.http import cached, send
from app.paths import NOT_RESOLVED, normalise_path, resolve_path
from app.redact import iri
from app.requests import request_context

blp = Blueprint(
    "WebResponse",
    __name__,
    url_prefix="/api",
    description="A resource looked up by its public path, wrapped in a WebResponse object.",
)

PATH_PARAMETER = {
    "name": "path",
    "in": "query",
    "required": True,
    "description": "Resource path of the item; `/` designates the home page.",
    "schema": {"type": "string", "minLength": 1},
}


@blp.route("/web_response_by_path", methods=["GET"])
@blp.doc(
    operationId="web_response_by_path",
    summary="Get a resource by its path wrapped in a WebResponse object",
    parameters=[PATH_PARAMETER],
)
def web_response_by_path() -> Response:
    context = request_context()
    # Only `path` changes the answer (preview is never cached): other parameters, cache-busters
    # included, are neither keyed nor echoed in @id.
    path = normalise_path(request.args.get("path"))
    context.request_iri = iri(request.path, [("path", path)])
    key, hit = cached(context, (path,))
    if hit is not None:
        return hit
    resolution = resolve_path(path, context.site, context.visibility)
    transformer = current_app.extensions["cms.transformer"]
    web_response = transformer.transform(resolution, context)
    if web_response is None:
        raise NotFound(NOT_RESOLVED)
    body = transformer.schema_class().dump(web_response)
    source = resolution.source
    headers = {}
    if resolution.content_location:
        headers["Content-Location"] = resolution.content_location
    if source is None:
        locale, ttl = context.site.default_translation.locale, None
    else:
        locale, ttl = source["locale"], source["node"]["ttl"]
    s_maxage = ttl * 60 if ttl else int(current_app.config["DEFAULT_S_MAXAGE"])
    # Realm-protected responses are never stored, whatever the request's credentials.
    return send(
        body,
        context,
        locale=locale,
        s_maxage=s_maxage,
        source=source,
        headers=headers,
        cache_key=None if web_response.realms else key,
    )
