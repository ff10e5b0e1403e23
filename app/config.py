"""Configuration defaults and the environment variables that override them."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEMO_FIXTURE = REPO_ROOT / "seed" / "demo.json"

DEFAULTS: dict[str, object] = {
    # MongoDB server; None runs the embedded in-process store (mongomock) seeded from SITE_FIXTURE.
    "MONGODB_URI": None,
    "MONGODB_DB": "cms",
    "SITE_FIXTURE": str(DEMO_FIXTURE),
    # How long (seconds) a worker trusts its copy of the live site version before asking again.
    # 0 asks on every request (tests use it so that command counts are deterministic).
    "SITE_VERSION_TTL": 1.0,
    "MONGODB_TIMEOUT_MS": 3000,
    # The time one content request may take on a server (MONGODB_URI) once its request context
    # is ready, reads and Python work (app/api/time_budget.py): pymongo's operation timeout
    # (`pymongo.timeout`: the remainder is sent with each read as maxTimeMS, so the server stops
    # the query too), then a 503 problem. It bounds what a filter the materialised documents do
    # not serve may cost on an engine that sorts a range in full (docs/performance.md). 0: no
    # limit. The embedded store is not limited.
    "QUERY_TIMEOUT_MS": 5000,
    # The socket timeout of a load's connection (`flask seed`, `make seed`, on a server): the
    # longest one command of a load (a batch of writes, an index build) may take. The request
    # path's connection waits 3 x MONGODB_TIMEOUT_MS (at least 10 s), which one write of a large
    # site can exceed on a slow server. Waiting for a server to answer at all stays
    # MONGODB_TIMEOUT_MS. 0: no limit.
    "LOAD_TIMEOUT_MS": 600_000,
    # Dotted path of a project transformer wrapping the built-in one (docs/extending.md); None uses
    # the built-in one alone. Only the demo configuration (`make run`) enables DEMO_TRANSFORMER.
    "WEB_RESPONSE_TRANSFORMER": None,
    # Dotted paths of modules that register walker definitions when the app is built.
    "WALKER_DEFINITION_MODULES": ["walkers.article_feed"],
    # Production mode (CMS_PRODUCTION=true) refuses to start without a strong JWT_SECRET.
    "PRODUCTION": False,
    "JWT_SECRET": None,
    # Longest lifetime (seconds) of a bearer token: exp - iat (exp - now without iat).
    "JWT_MAX_LIFETIME": 86400,
    # In-process cache of serialised public responses, per site generation (docs/performance.md).
    "RESPONSE_CACHE": True,
    "RESPONSE_CACHE_SIZE": 4096,
    # ... and bytes of it (keys, payloads and headers), per worker.
    "RESPONSE_CACHE_BYTES": 64 * 2**20,
    # Origins allowed to read the API from a browser: "*" (public content) or a list of origins.
    "CORS_ORIGINS": "*",
    # s-maxage (seconds) when a node has no ttl.
    "DEFAULT_S_MAXAGE": 300,
    # The base of the JSON-LD vocabulary (`@vocab` of every context): an absolute IRI from
    # configuration, never from the request's Host (contexts are cached publicly).
    "VOCAB_BASE": "http://localhost/",
    # /metrics (docs/operations.md): METRICS=true serves it to anyone, METRICS_TOKEN to
    # `Authorization: Bearer <token>` only; neither: no endpoint, nothing recorded.
    "METRICS": False,
    "METRICS_TOKEN": None,
    # One JSON line per request on the `cms.access` logger (app/logs.py).
    "ACCESS_LOG": True,
    # Proxies in front of the service whose X-Forwarded-For/-Proto are trusted (werkzeug's
    # ProxyFix); 0 trusts none. Responses never depend on these headers.
    "PROXY_COUNT": 0,
}

# The shipped example transformer (adds `fooBar`, seed.md's example): the demo configuration's.
DEMO_TRANSFORMER = "app.transformers.foo_bar:FooBarTransformer"

# Variables read without prefix, because operators and CI set them under these names.
PLAIN_ENV = ("MONGODB_URI", "MONGODB_DB", "SITE_FIXTURE", "JWT_SECRET")


def plain_environment() -> dict[str, str]:
    """The unprefixed variables that are set (empty values count as unset)."""
    return {name: os.environ[name] for name in PLAIN_ENV if os.environ.get(name)}
