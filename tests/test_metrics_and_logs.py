"""/metrics (Prometheus text format) and the JSON access log: values move as requests are made."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.api.access_log import redact_query
from app.db import get_store
from app.fixture.load import load_site
from tests.conftest import demo_site
from tests.helpers import WR, get_path, node

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "metrics-token-for-tests"
ARTICLES = "/api/<string:plural>"


def scrape(client, **kwargs) -> dict[tuple[str, tuple], float]:
    """Every sample of /metrics by (name, sorted labels)."""
    response = client.get("/metrics", **kwargs)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture(scope="module")
def metered(make_app):
    return make_app(METRICS=True)


def test_metrics_are_off_unless_configured(client):
    assert client.get("/metrics").status_code == 404


def test_a_metrics_token_is_required_when_configured(make_app):
    client = make_app(METRICS_TOKEN=TOKEN).test_client()
    refused = client.get("/metrics")
    assert refused.status_code == 401
    assert refused.mimetype == "application/problem+json"
    assert refused.headers["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    samples = scrape(client, headers={"Authorization": f"Bearer {TOKEN}"})
    assert ("cms_site_model_rebuilds_total", ()) in samples


def test_requests_latency_and_cache_move(metered):
    client = metered.test_client()
    get_path(client, "/about")  # the site model is built, the response may be cached already
    before = scrape(client)
    assert client.get(f"{WR}?path=/about&junk=1").status_code == 200  # a hit
    assert get_path(client, "/no/such/page").status_code == 404  # a miss
    assert client.get("/api/articles?page=1&_locale=en").status_code == 200  # a miss
    after = scrape(client)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    route = "/api/web_response_by_path"
    assert moved("cms_http_requests_total", route=route, status="200") == 1
    assert moved("cms_http_requests_total", route=route, status="404") == 1
    assert moved("cms_http_requests_total", route=ARTICLES, status="200") == 1
    assert moved("cms_http_request_duration_seconds_count", route=route) == 2
    assert moved("cms_http_request_duration_seconds_sum", route=route) > 0
    assert moved("cms_http_request_duration_seconds_bucket", route=route, le="+Inf") == 2
    assert moved("cms_response_cache_lookups_total", result="hit") == 1
    assert moved("cms_response_cache_lookups_total", result="miss") == 2
    # database commands per request: none for the hit (the pointer is re-read: TTL 0), more
    # for the cold page and the collection
    assert moved("cms_db_commands_per_request_count", route=route) == 2
    assert moved("cms_db_commands_per_request_sum", route=ARTICLES) >= 2


def test_db_time_is_observed_on_a_real_server(metered, tier):
    client = metered.test_client()
    before = scrape(client)
    assert client.get("/api/articles?page=2").status_code == 200
    after = scrape(client)
    name = "cms_db_time_per_request_seconds_count"
    observed = value(after, name, route=ARTICLES) - value(before, name, route=ARTICLES)
    assert observed == (1 if tier == "ferretdb" else 0)  # mongomock has no command monitoring


def test_generation_gauge_load_time_and_rebuilds(make_app):
    app = make_app(METRICS=True)
    client = app.test_client()
    client.get("/readyz")
    with app.app_context():
        store = get_store()
        before = scrape(client)
        site = demo_site()
        node(site, "about")["sources"]["en"]["title"] = "About the town"
        load_site(store, site)
        live = store.live()
    get_path(client, "/about")
    after = scrape(client)
    assert value(after, "cms_site_generation") == live["version"]
    loaded = live["loaded_at"].timestamp() if live["loaded_at"].tzinfo else None
    if loaded is not None:
        assert value(after, "cms_site_generation_loaded_timestamp_seconds") == pytest.approx(loaded)
    rebuilds = "cms_site_model_rebuilds_total"
    assert value(after, rebuilds) - value(before, rebuilds) == 1


def access_lines(caplog) -> list[dict]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "cms.access"]


def test_one_json_line_per_request(make_app, caplog):
    client = make_app().test_client()  # an empty response cache
    caplog.set_level(logging.INFO, logger="cms.access")
    get_path(client, "/about")
    response = get_path(client, "/about", headers={"X-Request-Id": "req-42"})
    lines = access_lines(caplog)
    assert len(lines) == 2
    line = lines[1]
    assert set(line) == {
        "event", "request_id", "client", "method", "route", "path", "query", "status", "latency_ms",
        "cache", "db_commands", "db_ms", "generation",
    }  # fmt: skip
    assert line["request_id"] == "req-42" == response.headers["X-Request-Id"]
    assert line["route"] == "/api/web_response_by_path"
    assert line["path"] == "/api/web_response_by_path"
    assert line["query"] == "path=/about"
    assert line["status"] == 200
    assert line["client"] == "127.0.0.1"
    assert line["cache"] == "hit"
    assert lines[0]["cache"] == "miss"
    assert isinstance(line["latency_ms"], float) and line["latency_ms"] > 0
    assert isinstance(line["db_commands"], int)
    assert lines[0]["db_commands"] > line["db_commands"]
    with client.application.app_context():
        assert line["generation"] == get_store().live()["version"]


def test_the_log_line_has_no_credentials_nor_realm_password(client, caplog):
    caplog.set_level(logging.INFO, logger="cms.access")
    secret = "s3cret-realm-password"
    token = "Bearer not-a-valid-token-but-a-secret"
    client.get(f"{WR}?path=/members&password={secret}&_locale=en", headers={"Authorization": token})
    client.get("/readyz", headers={"Authorization": token})
    lines = access_lines(caplog)
    assert len(lines) == 2
    text = json.dumps(lines)
    assert secret not in text and "not-a-valid-token" not in text and "password" not in text
    assert lines[0]["query"] == "path=/members&_locale=en"
    assert lines[0]["cache"] == "bypass"  # credentials: never cached
    assert lines[1]["route"] == "/readyz" and lines[1]["cache"] is None


def test_a_password_given_as_a_list_is_refused_and_logged_without_its_value(client, caplog):
    """PHP's list forms of a secret (`password[]=`, `Password[0]=`) are still the secret: the
    400 names the parameter (`Password`, a name the route does not read, is left to the realm's
    401), and neither the access line nor the error log repeats its value."""
    caplog.set_level(logging.INFO)
    for name, status in (("password[]", 400), ("Password[0]", 401), ("password%5B%5D", 400)):
        response = client.get(f"{WR}?path=/members&{name}=s3cret-list&_locale=en")
        assert response.status_code == status
        assert "s3cret-list" not in response.get_data(as_text=True)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "s3cret-list" not in logged
    assert [line["query"] for line in access_lines(caplog)] == ["path=/members&_locale=en"] * 3
    assert redact_query("GET /x?password[]=s3cret&x=1") == "GET /x?password[]=[redacted]&x=1"


def test_a_refused_request_is_logged_too(client, caplog):
    caplog.set_level(logging.INFO, logger="cms.access")
    client.get(f"{WR}?path=/&path=/about")  # "path" must be given once
    (line,) = access_lines(caplog)
    assert line["status"] == 400
    assert line["generation"] is None and line["db_commands"] == 0


def test_the_client_address_comes_from_x_forwarded_for_only_behind_configured_proxies(
    make_app, caplog
):
    caplog.set_level(logging.INFO, logger="cms.access")
    forwarded = {"X-Forwarded-For": "203.0.113.9"}
    make_app().test_client().get("/healthz", headers=forwarded)
    make_app(PROXY_COUNT=1).test_client().get("/healthz", headers=forwarded)
    assert [line["client"] for line in access_lines(caplog)] == ["127.0.0.1", "203.0.113.9"]


CHILD = """
import sys
from app import create_app
client = create_app({"METRICS": True, "MONGODB_URI": None}).test_client()
for _ in range(int(sys.argv[1])):
    assert client.get("/api/web_response_by_path?path=/about").status_code == 200
if sys.argv[2] == "scrape":
    sys.stdout.write(client.get("/metrics").get_data(as_text=True))
"""


def test_multiprocess_mode_adds_up_every_worker(tmp_path):
    """Two processes (as two gunicorn workers) write to PROMETHEUS_MULTIPROC_DIR; /metrics of
    either shows the sum."""
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
        "CMS_ACCESS_LOG": "false",
        "MONGODB_URI": "",
    }

    def child(requests: int, scrape: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(requests), scrape],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        return done.stdout

    child(2, "no")
    samples = {}
    for family in text_string_to_metric_families(child(3, "scrape")):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    route = {"route": "/api/web_response_by_path"}
    assert value(samples, "cms_http_requests_total", status="200", **route) == 5
    assert value(samples, "cms_response_cache_lookups_total", result="hit") == 1 + 2
    assert value(samples, "cms_response_cache_lookups_total", result="miss") == 1 + 1
    assert value(samples, "cms_site_model_rebuilds_total") == 2
    assert value(samples, "cms_site_generation") == 1
