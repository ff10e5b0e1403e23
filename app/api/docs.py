"""The OpenAPI document, rebuilt for each site generation (node types live in the database), and
the Swagger UI page that renders it, served offline: its assets come from this service (vendored
in app/static/docs), never from a CDN."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory, url_for
from markupsafe import escape

from app.api.encoding import json_response
from app.openapi import build_document
from app.site import current_site

blp = Blueprint("docs", __name__, url_prefix="/api")

ASSETS = Path(__file__).resolve().parent.parent / "static" / "docs"
SWAGGER_UI_VERSION = "5.35.0"  # npm swagger-ui-dist, see app/static/docs/README.md
ASSET_MAX_AGE = 3600
# Explicit types (mimetypes' guesses vary by platform); anything else is served as text/plain.
_MIMETYPES = {".js": "text/javascript", ".css": "text/css", ".md": "text/markdown"}

# The initialiser reads the document's URL from its element, so that its text (and the hash the
# Content-Security-Policy allows it by) is constant. validatorUrl null: no call to Swagger's
# online validator.
_INIT_SCRIPT = """
window.addEventListener("load", function () {
  var element = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: element.getAttribute("data-url"),
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    validatorUrl: null
  });
});
"""
_INIT_HASH = base64.b64encode(hashlib.sha256(_INIT_SCRIPT.encode()).digest()).decode()
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        f"script-src 'self' 'sha256-{_INIT_HASH}'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'self'",
    )
)

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - API documentation</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{css}">
</head>
<body>
<noscript>The API documentation needs JavaScript; the OpenAPI document is at
<a href="{document}">{document}</a>.</noscript>
<div id="swagger-ui" data-url="{document}"></div>
<script src="{js}"></script>
<script>{init}</script>
</body>
</html>
"""


@blp.route("/docs.json")
def openapi_document() -> Response:
    return json_response(_openapi(), mimetype="application/json")


@blp.route("/docs.jsonopenapi")
def openapi_document_as_api_platform_names_it() -> Response:
    """The same document at API Platform's address (roadiz-read-surface.md §6), as its type."""
    return json_response(_openapi(), mimetype="application/vnd.openapi+json")


def _openapi() -> dict:
    site = current_site()
    document = site.cache.get("openapi")
    if document is None:
        api = current_app.extensions["cms.api"]
        transformer = current_app.extensions["cms.transformer"]
        extra = getattr(transformer, "openapi_properties", None)
        document = site.cache["openapi"] = build_document(
            api.spec.to_dict(),
            site,
            current_app.extensions["cms.schemas"],
            transformer.schema_class,
            extra,
        )
    return document


def _asset_url(filename: str) -> str:
    # The version in the query string makes a new vendored release bypass cached copies.
    return url_for("docs.asset", filename=filename, v=SWAGGER_UI_VERSION)


@blp.route("/docs")
def swagger_ui() -> Response:
    """Swagger UI over /api/docs.json, every asset same-origin."""
    page = _PAGE.format(
        title=escape(current_app.config.get("API_TITLE", "API")),
        css=escape(_asset_url("swagger-ui.css")),
        js=escape(_asset_url("swagger-ui-bundle.js")),
        document=escape(url_for("docs.openapi_document")),
        init=_INIT_SCRIPT,
    )
    response = Response(page, mimetype="text/html")
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/docs/assets/<path:filename>")
def asset(filename: str) -> Response:
    """The vendored Swagger UI files (send_from_directory refuses paths outside ASSETS)."""
    mimetype = _MIMETYPES.get(Path(filename).suffix, "text/plain")
    response = send_from_directory(ASSETS, filename, mimetype=mimetype, max_age=ASSET_MAX_AGE)
    return response
