"""Item and collection entry points of the resources that responses link to by `@id`."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint
from werkzeug.datastructures import MultiDict

from app import resources
from app.api.arguments import CollectionQuerySchema, LocaleQuery, Query, QueryParser
from app.api.caching import respond
from app.api.redact import canonical_pairs
from app.resources import CollectionQuery

# Ids are BSON int64: a larger number matches no route (404) instead of reaching the driver.
ID = "int(max=9223372036854775807)"

blp = Blueprint(
    "Resources",
    __name__,
    url_prefix="/api",
    description="Entry points of the resources the WebResponse links to by @id.",
)
blp.ARGUMENTS_PARSER = QueryParser()


@blp.route(f"/<string:plural>/<{ID}:source_id>")
@blp.arguments(Query, location="query")
@blp.doc(summary="A node source of a reachable node type, by id", operationId="source_get")
def source_get(query: dict[str, Any], plural: str, source_id: int) -> Response:
    return respond(lambda context: resources.source_item(context, plural, source_id))


@blp.route("/<string:plural>")
@blp.arguments(CollectionQuerySchema, location="query")
@blp.doc(
    summary="Node sources of a reachable node type (hydra:Collection)",
    operationId="source_collection",
)
def source_collection(query: CollectionQuery, plural: str) -> Response:
    # canonical order: two spellings of one query are one cache entry with the same hydra links
    path, args = request.path, MultiDict(canonical_pairs(request.args))
    return respond(lambda c: resources.source_collection(c, plural, query, path, args))


@blp.route(f"/nodes/<{ID}:node_id>")
@blp.arguments(LocaleQuery, location="query")
@blp.doc(summary="A node, by id", operationId="node_get")
def node_get(query: dict[str, Any], node_id: int) -> Response:
    return respond(lambda context: resources.node_item(context, node_id, query.get("locale")))


@blp.route(f"/documents/<{ID}:document_id>")
@blp.arguments(LocaleQuery, location="query")
@blp.doc(summary="A public document, by id", operationId="document_get")
def document_get(query: dict[str, Any], document_id: int) -> Response:
    locale = query.get("locale")
    return respond(lambda context: resources.document_item(context, document_id, locale))


@blp.route(f"/tags/<{ID}:tag_id>")
@blp.arguments(LocaleQuery, location="query")
@blp.doc(summary="A tag, by id", operationId="tag_get")
def tag_get(query: dict[str, Any], tag_id: int) -> Response:
    return respond(lambda context: resources.tag_item(context, tag_id, query.get("locale")))


@blp.route(f"/realms/<{ID}:realm_id>")
@blp.arguments(Query, location="query")
@blp.doc(summary="A realm (public description), by id", operationId="realm_get")
def realm_get(query: dict[str, Any], realm_id: int) -> Response:
    return respond(lambda context: resources.realm_item(context, realm_id))
