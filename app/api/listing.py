"""Collections and items of translations, tags and documents (app/listing/resources.py)."""

from __future__ import annotations

from flask import Response, request
from flask_smorest import Blueprint

from app.api.resources import ID, _reply
from app.listing import resources as listing
from app.listing.openapi import parameters
from app.resources import Reply

blp = Blueprint(
    "Listings",
    __name__,
    url_prefix="/api",
    description="Translations, tags and documents, with Roadiz's filters.",
)


@blp.route("/translations")
@blp.doc(summary="Translations (hydra:Collection)", operationId="translation_collection",
         parameters=parameters(listing.TRANSLATION_VARIABLES))  # fmt: skip
def translation_collection() -> Response:
    return _reply(lambda c: Reply(listing.translations(c, request.path, request.args)))


@blp.route(f"/translations/<{ID}:translation_id>")
@blp.doc(summary="A translation, by id", operationId="translation_get")
def translation_get(translation_id: int) -> Response:
    return _reply(lambda c: Reply(listing.translation_item(c, translation_id)))


@blp.route("/tags")
@blp.doc(summary="Tags (hydra:Collection)", operationId="tag_collection",
         parameters=parameters(listing.TAG_VARIABLES))  # fmt: skip
def tag_collection() -> Response:
    return _reply(lambda c: Reply(listing.tags(c, request.path, request.args),
                                  request.args.get("_locale")))  # fmt: skip


@blp.route("/documents")
@blp.doc(summary="Public documents (hydra:Collection)", operationId="document_collection",
         parameters=parameters(listing.DOCUMENT_VARIABLES))  # fmt: skip
def document_collection() -> Response:
    return _reply(lambda c: Reply(listing.documents(c, request.path, request.args),
                                  request.args.get("_locale")))  # fmt: skip
