"""Configuration defaults and the environment variables that override them."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import click

from app.paths import is_absolute_http_url

REPO_ROOT = Path(__file__).resolve().parent.parent
DEMO_FIXTURE = REPO_ROOT / "seed" / "demo.json"

DEFAULTS: dict[str, object] = {
    # MongoDB server; None runs the embedded in-process store (mongomock) seeded from SITE_FIXTURE.
    "MONGODB_URI": None,
    # The database: MONGODB_DB when set, else the one MONGODB_URI names, else DEFAULT_DATABASE.
    "MONGODB_DB": None,
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

DEFAULT_DATABASE = "cms"

# The shipped example transformer (adds `fooBar`, seed.md's example): the demo configuration's.
DEMO_TRANSFORMER = "app.transformers.foo_bar:FooBarTransformer"

# Variables read without prefix, because operators and CI set them under these names.
PLAIN_ENV = ("MONGODB_URI", "MONGODB_DB", "SITE_FIXTURE", "JWT_SECRET")


def plain_environment() -> dict[str, str]:
    """The unprefixed variables that are set (empty values count as unset)."""
    return {name: os.environ[name] for name in PLAIN_ENV if os.environ.get(name)}


class ConfigError(click.ClickException):
    """A setting the service cannot run with. The CLI (`make run`, `flask seed`) prints the
    message alone, without a traceback, and exits with status 1."""


def variable_name(setting: str) -> str:
    """The environment variable an operator sets for `setting`."""
    return setting if setting in PLAIN_ENV else f"CMS_{setting}"


# What each setting must hold: (the check, what the message says it must be). Environment values
# reach the config parsed as JSON (Flask's from_prefixed_env), or as the raw string when they are
# not JSON: CMS_RESPONSE_CACHE=yes stays "yes", which no check below accepts.
def _whole(minimum: int) -> tuple[Callable[[Any], bool], str]:
    def holds(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= minimum

    return holds, f"a whole number >= {minimum}"


def _text(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _optional_text(value: Any) -> bool:
    return value is None or _text(value)


def _amount(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e12


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(_text(item) for item in value)


def _origins(value: Any) -> bool:
    return value == "*" or _texts(value)


def _absolute_http_iri(value: Any) -> bool:
    return isinstance(value, str) and is_absolute_http_url(value)


_FLAG = (lambda value: isinstance(value, bool), "true or false")
_TEXT = (_text, "a non-empty string")
_OPTIONAL_TEXT = (_optional_text, "a non-empty string, or unset")

SETTING_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "MONGODB_URI": _OPTIONAL_TEXT,
    "MONGODB_DB": _OPTIONAL_TEXT,
    "SITE_FIXTURE": _TEXT,
    "SITE_VERSION_TTL": (_amount, "a number of seconds >= 0"),
    "MONGODB_TIMEOUT_MS": _whole(1),
    "QUERY_TIMEOUT_MS": (_amount, "a number of milliseconds >= 0"),
    "LOAD_TIMEOUT_MS": _whole(0),
    "WEB_RESPONSE_TRANSFORMER": _OPTIONAL_TEXT,
    "WALKER_DEFINITION_MODULES": (_texts, "a JSON list of module paths"),
    "PRODUCTION": _FLAG,
    "JWT_SECRET": _OPTIONAL_TEXT,
    "JWT_MAX_LIFETIME": _whole(1),
    "RESPONSE_CACHE": _FLAG,
    "RESPONSE_CACHE_SIZE": _whole(0),
    "RESPONSE_CACHE_BYTES": _whole(0),
    "CORS_ORIGINS": (_origins, '"*" or a JSON list of origins'),
    "DEFAULT_S_MAXAGE": _whole(0),
    "VOCAB_BASE": (_absolute_http_iri, "an absolute http(s) IRI"),
    "METRICS": _FLAG,
    "METRICS_TOKEN": _OPTIONAL_TEXT,
    "ACCESS_LOG": _FLAG,
    "PROXY_COUNT": _whole(0),
}


def texts_as_written(config: dict[str, Any]) -> None:
    """A text setting's `CMS_` variable as written where JSON reads it as another kind:
    CMS_METRICS_TOKEN=123456 is the token "123456", not the number (a JSON string such as
    '"abc"' still reads as abc). An optional one written `null` is unset, as JSON reads it
    (CMS_WEB_RESPONSE_TRANSFORMER=null: the built-in transformer alone)."""
    for name, rule in SETTING_RULES.items():
        written = os.environ.get(f"CMS_{name}")
        value = config.get(name)
        if rule is _OPTIONAL_TEXT and value is None:
            continue
        if rule in (_TEXT, _OPTIONAL_TEXT) and written and not isinstance(value, str):
            config[name] = written


def check_config(config: Mapping[str, Any]) -> None:
    """Refuse to start on a setting of the wrong kind (ConfigError naming every one), rather
    than fail on the first request or, worse, run with it read another way."""
    wrong = [
        f"{variable_name(name)} must be {expected}, got {config[name]!r}"
        for name, (holds, expected) in SETTING_RULES.items()
        if name in config and not holds(config[name])
    ]
    if wrong:
        raise ConfigError("invalid configuration: " + "; ".join(wrong))
