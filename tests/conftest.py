"""Fixtures: app -> client -> site, on the tier chosen with --tier (mongomock or ferretdb)."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from app import create_app
from app.config import DEMO_FIXTURE, DEMO_TRANSFORMER
from app.db import get_store
from app.fixture.load import load_site
from tests.realserver import FerretDB, ferretdb_binary

JWT_SECRET = "test-secret-of-at-least-thirty-two-bytes!!"
_databases = itertools.count(1)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier",
        choices=("mongomock", "ferretdb"),
        default="mongomock",
        help="mongomock (in-process) or ferretdb (a real MongoDB-protocol server)",
    )


def pytest_report_header(config: pytest.Config) -> str:
    return f"storage tier: {config.getoption('--tier')}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "ferretdb_rows(*kept, **kept_by_argument): the parametrize rows (indices) that also run on "
        "the FerretDB tier; the others run on mongomock only",
    )
    config.addinivalue_line(
        "markers",
        "reads_counted: the test pins the commands or chunks a request reads, the same on any "
        "engine (the store counts them); it runs on the mongomock tier only",
    )
    if config.getoption("--tier") != "ferretdb":
        return
    if os.environ.get("TEST_MONGODB_URI") or ferretdb_binary():
        return
    message = "ferretdb tier: no ferretdb binary on PATH or in $GOPATH/bin and no TEST_MONGODB_URI"
    if os.environ.get("CI") == "true":
        raise pytest.UsageError(message + " (required under CI=true)")
    pytest.exit(message + "; skipped", returncode=0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the FerretDB tier, skip the rows a `ferretdb_rows` marker leaves to mongomock: rows
    whose cases repeat the reads of the rows kept (each read there decodes its collection whole:
    a comparison row of the listings takes 1 to 4 minutes), checked exhaustively on mongomock."""
    if config.getoption("--tier") != "ferretdb":
        return
    for item in items:
        if item.get_closest_marker("reads_counted") is not None:
            item.add_marker(pytest.mark.skip(reason="reads counted, the same on any engine: "
                                                    "mongomock tier"))  # fmt: skip
            continue
        marker = item.get_closest_marker("ferretdb_rows")
        if marker is not None and hasattr(item, "callspec") and not _kept(item, marker):
            item.add_marker(pytest.mark.skip(reason="a row of the same reads: mongomock tier"))


def _kept(item: pytest.Item, marker: pytest.Mark) -> bool:
    """Positional indices: the rows of the test's one parametrize marker; by argument: the index
    of the item's value among that argument's own values."""
    if marker.args and not set(item.callspec.indices.values()) <= set(marker.args):
        return False
    return all(_row_of(item, argument) in kept for argument, kept in marker.kwargs.items())


def _row_of(item: pytest.Item, argument: str) -> int:
    """The index of the item's value of `argument` among its own parametrize values (pytest's
    callspec.indices number the rows of stacked parametrize markers together), or of a
    parametrised fixture's params."""
    value = item.callspec.params[argument]
    for mark in item.iter_markers("parametrize"):
        names = mark.args[0]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        if argument in names:
            rows = list(mark.args[1])
            if len(names) > 1:
                rows = [row[names.index(argument)] for row in rows]
            return rows.index(value)
    return item.callspec.indices[argument]


@pytest.fixture(scope="session")
def tier(pytestconfig: pytest.Config) -> str:
    return pytestconfig.getoption("--tier")


@pytest.fixture(scope="session")
def real_server(tier: str):
    """The real server (None on the mongomock tier)."""
    if tier != "ferretdb":
        yield None
        return
    uri = os.environ.get("TEST_MONGODB_URI")
    if uri:
        yield uri
        return
    server = FerretDB(ferretdb_binary()).start()
    yield server
    server.close()


def _uri(real_server: Any) -> str | None:
    if real_server is None or isinstance(real_server, str):
        return real_server
    return real_server.uri


# The demo's realm password (`letmein`) hashed at bcrypt's lowest cost, 4, with a fixed salt: the
# demo's own hash costs 10, about 0.1 s a check on a CI core, and every request carrying the
# password pays one (thousands in the listing comparisons); the rule checked is the same.
DEMO_PASSWORD_HASH = "$2b$04$testsaltoftheproject.uSvkT0SOMFNRdUZm.x2qbmG0MlExvMsW"


def demo_site() -> dict[str, Any]:
    """seed/demo.json, its password realm's hash at cost 4 (DEMO_PASSWORD_HASH)."""
    site = json.loads(Path(DEMO_FIXTURE).read_text(encoding="utf-8"))
    for realm in site["realms"]:
        if realm["type"] == "plain_password":
            realm["password"] = DEMO_PASSWORD_HASH
    return site


@pytest.fixture(scope="session")
def make_app(real_server: Any, tmp_path_factory: pytest.TempPathFactory):
    """Build an app serving `site` (a fixture dict), on a fresh database of the tier."""

    def factory(site: dict[str, Any] | None = None, *, embedded: bool = False, **config: Any):
        """`embedded`: the in-process store on either tier (a reference run beside the real
        server's)."""
        site = site if site is not None else demo_site()
        # The demo configuration (`make run`): the shipped example transformer adds `fooBar`.
        # No time budget and a generous connection timeout (90 s a command) unless a test sets
        # them (tests/test_outage.py): tests compare answers and count commands, never times,
        # and a slow CI machine must not turn a read into a 503 (a tag's collection page at
        # 1,000 sources ran past the 5 s budget on FerretDB 1.24; building the site model at
        # 1,000 sources took near 3 s beside another worker's load; a read of the crawl's
        # listings, 1 to 2 s, more on a loaded machine, may pass the default 10 s).
        settings = {"SITE_VERSION_TTL": 0, "JWT_SECRET": JWT_SECRET, "QUERY_TIMEOUT_MS": 0,
                    "MONGODB_TIMEOUT_MS": 30000, "WEB_RESPONSE_TRANSFORMER": DEMO_TRANSFORMER,
                    **config}  # fmt: skip
        settings["MONGODB_DB"] = f"test_{os.getpid()}_{next(_databases)}"
        uri = None if embedded else _uri(real_server)
        if uri is None:
            path = tmp_path_factory.mktemp("site") / "site.json"
            path.write_text(json.dumps(site), encoding="utf-8")
            return create_app({"MONGODB_URI": None, "SITE_FIXTURE": str(path), **settings})
        app = create_app({"MONGODB_URI": uri, **settings})
        with app.app_context():
            load_site(get_store(), site)
        return app

    return factory


@pytest.fixture(scope="session")
def app(make_app):
    """The demo site (shared by read-only tests)."""
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def store(app):
    with app.app_context():
        yield get_store()
