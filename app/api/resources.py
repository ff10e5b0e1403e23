"""Item and collection entry points of the resources that responses link to by `@id`."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, current_app, request
from flask_smorest import Blueprint

from app import resources
from app.context import RequestContext
from app.http import cached, send
from app.listing import sources as sources_listing
from app.listing.openapi import parameters
from app.listing.resources import tag_item
from app.requests import request_context
from app.resources import Reply

# Ids are BSON int64: a larger number matches no route (404) instead of reaching the driver.
ID = "int(max=9223372036854775807)"

blp = Blueprint(
    "Resources",
    __name__,
    url_prefix="/api",
    description="Entry points of the resources the WebResponse links to by @id.",
)


def _reply(build: Callable[[RequestContext], Reply]) -> Response:
    """Every entry point: the response cache for anonymous requests, then `build`; replies
    covered by a realm are never stored."""
    context = request_context()
    key, hit = cached(context, language=False)
    if hit is not None:
        return hit
    reply = build(context)
    ttl = reply.ttl_minutes
    s_maxage = ttl * 60 if ttl else int(current_app.config["DEFAULT_S_MAXAGE"])
    locale = reply.locale or context.site.default_translation.locale
    return send(reply.body, context, locale=locale, s_maxage=s_maxage, source=reply.source,
                cache_key=None if reply.protected else key)  # fmt: skip


@blp.route(f"/<string:plural>/<{ID}:source_id>")
@blp.doc(summary="A node source of a reachable node type, by id", operationId="source_get")
def source_get(plural: str, source_id: int) -> Response:
    return _reply(lambda context: resources.source_item(context, plural, source_id))


@blp.route("/<string:plural>")
@blp.doc(
    summary="Node sources of a reachable node type, or of every type (/api/nodes_sources)",
    operationId="source_collection",
    parameters=parameters(sources_listing.VARIABLES),
)
def source_collection(plural: str) -> Response:
    return _reply(lambda c: resources.source_collection(c, plural, request.path, request.args))


@blp.route(f"/nodes/<{ID}:node_id>")
@blp.doc(summary="A node, by id", operationId="node_get")
def node_get(node_id: int) -> Response:
    return _reply(lambda context: resources.node_item(context, node_id, request.args))


@blp.route(f"/documents/<{ID}:document_id>")
@blp.doc(summary="A public document, by id", operationId="document_get")
def document_get(document_id: int) -> Response:
    return _reply(lambda context: resources.document_item(context, document_id, request.args))


@blp.route(f"/tags/<{ID}:tag_id>")
@blp.doc(summary="A tag, by id", operationId="tag_get")
def tag_get(tag_id: int) -> Response:
    return _reply(lambda c: Reply(tag_item(c, tag_id, request.args), request.args.get("_locale")))


@blp.route(f"/realms/<{ID}:realm_id>")
@blp.doc(summary="A realm (public description), by id", operationId="realm_get")
def realm_get(realm_id: int) -> Response:
    return _reply(lambda context: resources.realm_item(context, realm_id))
