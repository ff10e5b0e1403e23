"""The lists beside node sources: collections and items of translations, tags and documents
(app/listing/resources.py), and full-text search at /api/search and at Roadiz's earlier route
/api/nodes_sources/search (app/search.py). Node-source collections are app/api/resources.py."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_smorest import Blueprint

from app import search
from app.api.arguments import Query, QueryParser
from app.api.caching import respond
from app.api.resources import ID, request_args
from app.listing import resources as list_resources
from app.listing.openapi import parameters

blp = Blueprint(
    "Listings",
    __name__,
    url_prefix="/api",
    description="Translations, tags and documents, with Roadiz's filters.",
)
blp.ARGUMENTS_PARSER = QueryParser()


@blp.route("/translations")
@blp.arguments(Query, location="query")
@blp.doc(summary="Translations (hydra:Collection)", operationId="translation_collection",
         description="Translations of the site, filtered by availability, default, locale, name.",
         parameters=parameters(list_resources.TRANSLATION_VARIABLES))  # fmt: skip
def translation_collection(query: dict[str, Any]) -> Response:
    path, args = request.path, request_args()
    return respond(lambda c: list_resources.translations(c, path, args))


@blp.route(f"/translations/<{ID}:translation_id>")
@blp.arguments(Query, location="query")
@blp.doc(
    summary="A translation, by id",
    operationId="translation_get",
    description="A translation of the site (name, locale, availability).",
)
def translation_get(query: dict[str, Any], translation_id: int) -> Response:
    return respond(lambda c: list_resources.translation_item(c, translation_id))


@blp.route("/tags")
@blp.arguments(Query, location="query")
@blp.doc(summary="Tags (hydra:Collection)", operationId="tag_collection",
         description="Tags with their names in `_locale`, with Roadiz's tag filters.",
         parameters=parameters(list_resources.TAG_VARIABLES))  # fmt: skip
def tag_collection(query: dict[str, Any]) -> Response:
    path, args = request.path, request_args()
    return respond(lambda c: list_resources.tags(c, path, args))


@blp.route("/documents")
@blp.arguments(Query, location="query")
@blp.doc(summary="Documents (hydra:Collection)", operationId="document_collection",
         description="Documents (private ones too, never processable), with Roadiz's filters.",
         parameters=parameters(list_resources.DOCUMENT_VARIABLES))  # fmt: skip
def document_collection(query: dict[str, Any]) -> Response:
    path, args = request.path, request_args()
    return respond(lambda c: list_resources.documents(c, path, args))


SEARCH_PARAMETERS = [
    {"name": "search", "in": "query", "required": True, "schema": {"type": "string"},
     "description": f"Words to find (titles, text fields, tag names); at most {search.MAX_WORDS} "
                    "distinct words"},
    {"name": "_locale", "in": "query", "required": False, "schema": {"type": "string"},
     "description": "Translation (default: the default translation)"},
    {"name": "page", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": 1_000_000}, "description": "Page"},
    {"name": "itemsPerPage", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 0, "maximum": search.MAX_ITEMS_PER_PAGE},
     "description": "Hits per page (default 20; also itemPerPage, item_per_page)"},
    {"name": "node_type[]", "in": "query", "required": False,
     "schema": {"type": "array", "items": {"type": "string"}}, "description": "Node type names"},
    {"name": "tag_name[]", "in": "query", "required": False,
     "schema": {"type": "array", "items": {"type": "string"}},
     "description": "Translated names of visible tags"},
]  # fmt: skip


@blp.route("/search")
@blp.arguments(Query, location="query")
@blp.doc(summary="Full-text search of published pages (Roadiz 2.7.31)", operationId="search",
         description="Published, visible pages matching the words of `search` (titles, text "
         "fields, tag names), ranked by matches then recency, with highlighting and facets. "
         "Each word contributes at most its 200 best results that the request may see.",
         parameters=SEARCH_PARAMETERS)  # fmt: skip
def search_get(query: dict[str, Any]) -> Response:
    path, args = request.path, request_args()
    return respond(lambda c: search.search(c, path, args))


@blp.route("/nodes_sources/search")
@blp.arguments(Query, location="query")
@blp.doc(summary="Full-text search (the route of Roadiz 2.1-2.7.30)",
         operationId="nodes_sources_search",
         description="The same search as /api/search, at the route of Roadiz 2.1-2.7.30.",
         parameters=SEARCH_PARAMETERS)  # fmt: skip
def nodes_sources_search(query: dict[str, Any]) -> Response:
    path, args = request.path, request_args()
    return respond(lambda c: search.search(c, path, args))
