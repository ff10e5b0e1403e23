"""GET /api/contexts/<Type>: the JSON-LD context of each type the API emits; and the Hydra entry
point (GET /api) and API documentation (GET /api/docs.jsonld), on a blueprint of their own."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from app import hydra
from app.api.conditional import answer_conditionally, strong_etag
from app.api.encoding import LD_JSON, json_response
from app.errors import NotFound
from app.jsonld_contexts import context_document, vocabulary
from app.site import current_site

MAX_AGE = 3600


def public_document(document: dict) -> Response:
    """A JSON-LD document the same for every request of a site generation: public for an
    hour, tagged, answered conditionally (its Vary: app.api.hygiene)."""
    response = json_response(document, mimetype=LD_JSON)
    response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
    response.headers["ETag"] = strong_etag(response.get_data())
    return answer_conditionally(response)


# A plain Flask blueprint: contexts are not API operations, so they stay out of the OpenAPI paths.
blp = Blueprint("contexts", __name__, url_prefix="/api/contexts")


@blp.route("/<name>")
def context(name: str) -> Response:
    # @vocab from configuration: the context is cached publicly, so it never follows the Host.
    document = context_document(current_site(), name, current_app.config["VOCAB_BASE"])
    if document is None:
        raise NotFound(f'No context for type "{name}"')
    return public_document(document)


# GET /api and /api/docs.jsonld: Hydra documents, not API operations either.
hydra_blp = Blueprint("hydra", __name__, url_prefix="/api")


@hydra_blp.route("", strict_slashes=False)
def entrypoint() -> Response:
    return public_document(hydra.entrypoint(current_site()))


@hydra_blp.route("/docs.jsonld")
def documentation() -> Response:
    config = current_app.config
    site = current_site()
    vocab = vocabulary(config["VOCAB_BASE"])
    document = site.cache.get(("docs.jsonld", vocab))
    if document is None:  # built once per site generation, from its node types
        description = config.get("API_DESCRIPTION", "A read-only JSON-LD API")
        transformer = current_app.extensions["cms.transformer"]
        extra = list(getattr(transformer, "openapi_properties", None) or ())
        document = hydra.documentation(site, config["API_TITLE"], description, vocab, extra)
        site.cache[("docs.jsonld", vocab)] = document
    return public_document(document)
