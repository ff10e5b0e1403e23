"""The OpenAPI document, rebuilt for each site generation (node types live in the database)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from app.jsonld import json_response
from app.openapi import build_document
from app.site import current_site

blp = Blueprint("docs", __name__, url_prefix="/api")


@blp.route("/docs.json")
def openapi_document() -> Response:
    site = current_site()
    document = site.cache.get("openapi")
    if document is None:
        api = current_app.extensions["cms.api"]
        transformer = current_app.extensions["cms.transformer"]
        extra = getattr(transformer, "openapi_properties", None)
        document = site.cache["openapi"] = build_document(
            api.spec.to_dict(), site, current_app.extensions["cms.schemas"], extra
        )
    return json_response(document, mimetype="application/json")
