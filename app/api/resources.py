"""Item and collection entry points of the resources that responses link to by `@id`."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint
from werkzeug.datastructures import MultiDict
from werkzeug.routing import IntegerConverter

from app import resources
from app.api.arguments import LocaleQuery, Query, QueryParser
from app.api.caching import respond
from app.api.hygiene import check_encoding
from app.api.redact import canonical_pairs
from app.listing import archives
from app.listing import sources as sources_listing
from app.listing.openapi import parameters
from app.listing.resources import tag_item

# Ids are BSON int64: a larger number matches no route (404) instead of reaching the driver.
ID = "int(max=9223372036854775807)"


class AsciiInteger(IntegerConverter):
    """The `int` of every route (app.factory): ASCII digits only. Werkzeug's `\\d+` also takes
    other scripts' digits (`/api/pages/١١٠١`, `/api/pages/１１０１`), which would serve one
    resource at many URLs; those now get the 404 of any identifier that is not a number."""

    regex = r"[0-9]+"


blp = Blueprint(
    "Resources",
    __name__,
    url_prefix="/api",
    description="Entry points of the resources the WebResponse links to by @id.",
)
blp.ARGUMENTS_PARSER = QueryParser()


@blp.route(f"/<string:plural>/<{ID}:source_id>")
@blp.arguments(Query, location="query")
@blp.doc(
    summary="A node source of a reachable node type, by id",
    operationId="source_get",
    description="The item of a reachable type at its @id, under the publication and realm rules "
    "of web_response_by_path.",
)
def source_get(query: dict[str, Any], plural: str, source_id: int) -> Response:
    return respond(lambda context: resources.source_item(context, plural, source_id))


def request_args() -> MultiDict:
    """Parameters without secrets in canonical order (app.api.redact.canonical_pairs: `order[]`
    keys keep their relative order): two spellings of one query are one cache entry with the
    same hydra links. Each must be percent-encoded UTF-8 (app.api.hygiene.check_encoding)."""
    check_encoding()
    return MultiDict(canonical_pairs(request.args))


@blp.route("/<string:plural>")
@blp.arguments(Query, location="query")
@blp.doc(
    summary="Node sources of a reachable node type, or of every type (/api/nodes_sources)",
    operationId="source_collection",
    description="A page of the published sources of a type (`/api/nodes_sources`: of every type), "
    "with Roadiz's filters, orders, pagination (or a keyset `cursor`) and `properties[]`.",
    parameters=parameters(sources_listing.VARIABLES, cursor=True),
)
def source_collection(query: dict[str, Any], plural: str) -> Response:
    """Filters are parsed by app.listing (Roadiz's grammar: refused when unknown or malformed)."""
    path, args = request.path, request_args()
    return respond(lambda c: resources.source_collection(c, plural, path, args))


@blp.route("/<string:plural>/archives")
@blp.arguments(Query, location="query")
@blp.doc(
    summary="Years and months of publication of a publishable type (or of every type)",
    operationId="source_archives",
    description="The distinct publication dates of the matching published sources, grouped by "
    "year then month, newest first (unpaginated); the collection's filters apply.",
    parameters=parameters(sources_listing.VARIABLES, sparse=False),
)
def source_archives(query: dict[str, Any], plural: str) -> Response:
    path, args = request.path, request_args()
    return respond(lambda c: archives.archives(c, plural, path, args))


@blp.route(f"/nodes/<{ID}:node_id>")
@blp.arguments(LocaleQuery, location="query")
@blp.doc(
    summary="A node, by id",
    operationId="node_get",
    description="A node that has a source this request may see, with its tags in `_locale`.",
)
def node_get(query: dict[str, Any], node_id: int) -> Response:
    return respond(lambda context: resources.node_item(context, node_id, query.get("locale")))


@blp.route(f"/documents/<{ID}:document_id>")
@blp.arguments(LocaleQuery, location="query")
@blp.doc(
    summary="A document, by id",
    operationId="document_get",
    description="A document (private ones too, never processable), alternative text in `_locale`.",
)
def document_get(query: dict[str, Any], document_id: int) -> Response:
    locale = query.get("locale")
    return respond(lambda context: resources.document_item(context, document_id, locale))


@blp.route(f"/tags/<{ID}:tag_id>")
@blp.arguments(LocaleQuery, location="query")
@blp.doc(
    summary="A tag, by id",
    operationId="tag_get",
    description="A tag with its name in `_locale` (else the default translation's, else its slug).",
)
def tag_get(query: dict[str, Any], tag_id: int) -> Response:
    return respond(lambda context: tag_item(context, tag_id, query.get("locale")))


@blp.route(f"/realms/<{ID}:realm_id>")
@blp.arguments(Query, location="query")
@blp.doc(
    summary="A realm (public description), by id",
    operationId="realm_get",
    description="What a realm protects with and how: its behaviour, type and authentication "
    "scheme (never its secrets).",
)
def realm_get(query: dict[str, Any], realm_id: int) -> Response:
    return respond(lambda context: resources.realm_item(context, realm_id))
