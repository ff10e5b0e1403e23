"""The application factory: configuration, store, extension points, blueprints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Config, Flask
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from app import db
from app.api import access_log, cors, hygiene, negotiation, observe, problems
from app.api.response_cache import ResponseCache
from app.auth import check_secret, token_command
from app.config import DEFAULTS, REPO_ROOT, check_config, plain_environment, texts_as_written
from app.extension_points import walker_definitions, web_response_transformer
from app.site import SiteCache
from schemas.items import SchemaRegistry

API_SETTINGS = {
    "API_TITLE": "Content Delivery API",
    "API_VERSION": "1.0",
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": None,  # the document is served by app.api.docs, per site generation
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "Read-only JSON-LD content delivery of a headless CMS: a resource by "
            "its public path wrapped in a WebResponse, the content every page shares, and the "
            "resources they link to by @id. Errors are application/problem+json.",
            "contact": {"name": "Content Delivery API"},
        }
    },
}


def settings(config: Mapping[str, Any] | None = None) -> Config:
    """Defaults, then the environment (MONGODB_URI..., CMS_*), then `config`."""
    settled = Config(str(REPO_ROOT))
    settled.from_mapping(DEFAULTS)
    settled.from_mapping(API_SETTINGS)
    settled.from_mapping(plain_environment())
    settled.from_prefixed_env(prefix="CMS")
    texts_as_written(settled)
    if config:
        settled.from_mapping(config)
    return settled


def check_startup(config: Mapping[str, Any]) -> None:
    """Every setting the service cannot start with, as a ConfigError (one line, no traceback).
    create_app runs it, and gunicorn's master before any worker starts (gunicorn.conf.py)."""
    check_config(config)
    check_secret(config)
    db.check_uri(config["MONGODB_URI"])


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app on `settings(config)`, checked first (check_startup)."""
    # No implicit /static route: the docs assets have their own (app/api/docs.py).
    app = Flask(__name__, static_folder=None)
    app.config.update(settings(config))
    check_startup(app.config)
    access_log.install()  # the dev server's request log never shows `password=` values
    db.init_app(app)
    app.cli.add_command(token_command)
    app.extensions["cms.site"] = SiteCache(
        app.extensions["cms.store"], float(app.config["SITE_VERSION_TTL"])
    )
    app.extensions["cms.schemas"] = SchemaRegistry()
    app.extensions["cms.response_cache"] = ResponseCache(
        int(app.config["RESPONSE_CACHE_SIZE"]),
        enabled=bool(app.config["RESPONSE_CACHE"]),
        max_bytes=int(app.config["RESPONSE_CACHE_BYTES"]),
    )
    app.extensions["cms.walker_definitions"] = walker_definitions(app)
    app.extensions["cms.transformer"] = web_response_transformer(app)

    from app.api import BLUEPRINTS
    from app.api.resources import AsciiInteger

    app.url_map.converters["int"] = AsciiInteger  # before any route is added
    # One URL per resource: `/api//pages` is a 404 like `/api/pages/`, not Werkzeug's redirect
    # with an HTML body.
    app.url_map.merge_slashes = False
    api = Api(app)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    app.extensions["cms.api"] = api
    problems.init_app(app)  # after Api(), whose own HTTPException handler it replaces
    observe.init_app(app)  # before hygiene: refused requests are measured and logged too
    hygiene.init_app(app)
    cors.init_app(app)
    from app.api import contexts, docs

    app.register_blueprint(docs.blp)
    app.register_blueprint(contexts.blp)
    app.register_blueprint(contexts.hydra_blp)
    proxies = int(app.config["PROXY_COUNT"])
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    app.wsgi_app = negotiation.FormatSuffix(app.wsgi_app)  # type: ignore[method-assign]
    return app
