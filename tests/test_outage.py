"""Database outages: 503 problem+json within a bounded time, then recovery without restart."""

from __future__ import annotations

import time

import pytest
from pymongo.errors import (
    ExecutionTimeout,
    NetworkTimeout,
    PyMongoError,
    ServerSelectionTimeoutError,
    WaitQueueTimeoutError,
)

from app import create_app, web_response
from app.fixture.load import load_site
from app.site import SiteCache
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import get_path, problem_detail
from tests.realserver import FerretDB, ferretdb_binary, free_port

UNAVAILABLE = "Service Unavailable: the database does not answer."
TIMEOUT_MS = 1000
# Generous: server selection (TIMEOUT_MS) plus connection attempts, far below a client's patience.
BOUND_SECONDS = 15


def outage_answers(client):
    started = time.monotonic()
    page = get_path(client, "/about")
    elapsed = time.monotonic() - started
    assert page.status_code == 503
    assert problem_detail(page) == UNAVAILABLE
    assert elapsed < BOUND_SECONDS
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert problem_detail(ready) == UNAVAILABLE
    assert client.get("/healthz").status_code == 200  # the process itself is fine


def test_unreachable_server_is_503(tmp_path):
    app = create_app(
        {
            "MONGODB_URI": f"mongodb://127.0.0.1:{free_port()}/",
            "MONGODB_TIMEOUT_MS": TIMEOUT_MS,
            "SITE_VERSION_TTL": 0,
            "JWT_SECRET": JWT_SECRET,
        }
    )
    outage_answers(app.test_client())


def test_server_stopped_mid_run_then_back(tier):
    if tier != "ferretdb":
        pytest.skip("needs the real server: runs in the ferretdb tier")
    binary = ferretdb_binary()
    if binary is None:
        pytest.skip("the ferretdb tier runs on TEST_MONGODB_URI, which this test cannot stop")
    server = FerretDB(binary).start()
    try:
        app = create_app(
            {
                "MONGODB_URI": server.uri,
                "MONGODB_DB": "outage",
                "MONGODB_TIMEOUT_MS": TIMEOUT_MS,
                "SITE_VERSION_TTL": 0,
                "RESPONSE_CACHE": False,
                "JWT_SECRET": JWT_SECRET,
            }
        )
        with app.app_context():
            load_site(app.extensions["cms.store"], demo_site())
        client = app.test_client()
        assert get_path(client, "/about").status_code == 200

        server.stop()
        outage_answers(client)

        server.start()  # same port, same data directory
        assert get_path(client, "/about").status_code == 200
        assert client.get("/readyz").status_code == 200
    finally:
        server.close()


BUDGET_SPENT = "Service Unavailable: the database did not answer within 1e-06 ms."


def test_a_request_past_its_database_time_budget_is_503(make_app, tier):
    """QUERY_TIMEOUT_MS bounds the database time of a request on a server: past it, a 503
    problem (the budget here is spent before the first read is sent: no timing involved); the
    embedded store (the mongomock tier) is in-process and not limited. The site model is built
    before the budget starts (under the connection's timeout), so a slow first build does not
    turn every request into a 503. Health checks are not content requests: no budget."""
    app = make_app(QUERY_TIMEOUT_MS=1e-06, RESPONSE_CACHE=False)
    client = app.test_client()
    for url in ("/api/web_response_by_path?path=/about", "/api/articles", "/api/common_content"):
        response = client.get(url)
        if tier == "mongomock":
            assert response.status_code == 200, url
            continue
        assert response.status_code == 503, url
        assert response.headers["Content-Type"] == "application/problem+json; charset=utf-8"
        assert problem_detail(response) == BUDGET_SPENT
        assert app.extensions["cms.site"]._model is not None, "the model build ran in the budget"
    assert client.get("/readyz").status_code == 200
    unlimited = make_app(QUERY_TIMEOUT_MS=0).test_client()
    assert get_path(unlimited, "/about").status_code == 200


def timing_out(error: PyMongoError):
    def read(*args, **kwargs):
        raise error

    return read


TIMEOUTS = [
    ExecutionTimeout("operation exceeded time limit", 50),
    NetworkTimeout("127.0.0.1:27017: timed out"),
    ServerSelectionTimeoutError("127.0.0.1:27017: timed out"),
    WaitQueueTimeoutError("timed out while checking out a connection from the pool"),
]


@pytest.mark.parametrize("error", TIMEOUTS, ids=lambda error: type(error).__name__)
def test_every_way_of_spending_the_budget_names_it(make_app, monkeypatch, error):
    """However the budget runs out (the server stops the query, or the socket, the wait for a
    server or for a pooled connection times out at pymongo's deadline), the answer names the
    budget. The read raises once the budget (1 ns) is over: no timing involved."""
    app = make_app(QUERY_TIMEOUT_MS=1e-06, RESPONSE_CACHE=False)
    monkeypatch.setattr(web_response, "resolve_path", timing_out(error))
    response = get_path(app.test_client(), "/about")
    assert response.status_code == 503
    assert problem_detail(response) == BUDGET_SPENT


@pytest.mark.parametrize("error", TIMEOUTS, ids=lambda error: type(error).__name__)
def test_a_timeout_of_the_request_context_is_a_database_that_does_not_answer(
    make_app, monkeypatch, error
):
    """The live site pointer and the site model's build come before the budget, limited by the
    connection's timeout (CMS_MONGODB_TIMEOUT_MS): any timeout there, even with the budget
    spent, is a database that does not answer."""
    monkeypatch.setattr(SiteCache, "current", timing_out(error))
    response = get_path(make_app(QUERY_TIMEOUT_MS=1e-06).test_client(), "/about")
    assert response.status_code == 503
    assert problem_detail(response) == UNAVAILABLE


def test_a_timeout_outside_any_budget_is_a_database_that_does_not_answer(make_app, monkeypatch):
    """/readyz has no budget: a server-side time limit there is a 503, not a 500."""
    monkeypatch.setattr(SiteCache, "current", timing_out(TIMEOUTS[0]))
    ready = make_app().test_client().get("/readyz")
    assert ready.status_code == 503
    assert problem_detail(ready) == UNAVAILABLE


@pytest.mark.parametrize("error", TIMEOUTS[1:], ids=lambda error: type(error).__name__)
def test_a_timeout_within_the_budget_is_a_database_that_does_not_answer(
    make_app, monkeypatch, error
):
    """A timeout well within the budget (a minute) is the connection's own (CMS_MONGODB_TIMEOUT_MS):
    the database does not answer; a query the server stopped (maxTimeMS) is always the budget."""
    app = make_app(QUERY_TIMEOUT_MS=60000, RESPONSE_CACHE=False)
    monkeypatch.setattr(web_response, "resolve_path", timing_out(error))
    response = get_path(app.test_client(), "/about")
    assert response.status_code == 503
    assert problem_detail(response) == UNAVAILABLE
