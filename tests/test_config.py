"""Settings the service cannot run with (app/config.py, README "Configuration"): refused at
start-up, every wrong one named as the operator sets it, in one line without a traceback."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time

import pytest
from pymongo.errors import ConfigurationError

import app.db
from app.config import DEFAULTS, REPO_ROOT, SETTING_RULES, ConfigError, check_config
from app.factory import create_app
from tests.realserver import free_port


def test_every_setting_has_a_rule_and_every_default_keeps_it():
    assert set(SETTING_RULES) == set(DEFAULTS)
    check_config(DEFAULTS)  # raises nothing


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        (
            "MONGODB_TIMEOUT_MS",
            "abc",
            "CMS_MONGODB_TIMEOUT_MS must be a whole number >= 1, got 'abc'",
        ),
        ("MONGODB_TIMEOUT_MS", 0, "CMS_MONGODB_TIMEOUT_MS must be a whole number >= 1, got 0"),
        ("LOAD_TIMEOUT_MS", 2.5, "CMS_LOAD_TIMEOUT_MS must be a whole number >= 0, got 2.5"),
        (
            "QUERY_TIMEOUT_MS",
            "5s",
            "CMS_QUERY_TIMEOUT_MS must be a number of milliseconds >= 0, got '5s'",
        ),
        ("RESPONSE_CACHE_SIZE", -5, "CMS_RESPONSE_CACHE_SIZE must be a whole number >= 0, got -5"),
        ("PROXY_COUNT", True, "CMS_PROXY_COUNT must be a whole number >= 0, got True"),
        ("SITE_VERSION_TTL", "x", "CMS_SITE_VERSION_TTL must be a number of seconds >= 0, got 'x'"),
        ("SITE_VERSION_TTL", -1, "CMS_SITE_VERSION_TTL must be a number of seconds >= 0, got -1"),
        ("RESPONSE_CACHE", "maybe", "CMS_RESPONSE_CACHE must be true or false, got 'maybe'"),
        ("METRICS", 1, "CMS_METRICS must be true or false, got 1"),
        ("MONGODB_DB", "", "MONGODB_DB must be a non-empty string, or unset, got ''"),
        ("METRICS_TOKEN", 42, "CMS_METRICS_TOKEN must be a non-empty string, or unset, got 42"),
        (
            "CORS_ORIGINS",
            "https://a.example",
            "CMS_CORS_ORIGINS must be \"*\" or a JSON list of origins, got 'https://a.example'",
        ),
        (
            "WALKER_DEFINITION_MODULES",
            "walkers.article_feed",
            "CMS_WALKER_DEFINITION_MODULES must be a JSON list of module paths,"
            " got 'walkers.article_feed'",
        ),
        (
            "VOCAB_BASE",
            "cms.example",
            "CMS_VOCAB_BASE must be an absolute http(s) IRI, got 'cms.example'",
        ),
        (
            "VOCAB_BASE",
            "https:///api",
            "CMS_VOCAB_BASE must be an absolute http(s) IRI, got 'https:///api'",
        ),
    ],
)
def test_a_setting_of_the_wrong_kind_is_refused_by_name(setting, value, message):
    with pytest.raises(ConfigError) as raised:
        create_app({"MONGODB_URI": None, setting: value})
    assert raised.value.message == f"invalid configuration: {message}"


def test_every_wrong_setting_is_named_at_once():
    with pytest.raises(ConfigError) as raised:
        check_config({**DEFAULTS, "RESPONSE_CACHE": "no", "DEFAULT_S_MAXAGE": "300s"})
    assert raised.value.message == (
        "invalid configuration: CMS_RESPONSE_CACHE must be true or false, got 'no';"
        " CMS_DEFAULT_S_MAXAGE must be a whole number >= 0, got '300s'"
    )


def test_environment_values_are_read_as_json_then_checked(monkeypatch):
    monkeypatch.setenv("CMS_RESPONSE_CACHE_SIZE", "12")
    monkeypatch.setenv("CMS_CORS_ORIGINS", '["https://a.example"]')
    service = create_app({"MONGODB_URI": None})
    assert (service.config["RESPONSE_CACHE_SIZE"], service.config["CORS_ORIGINS"]) == (
        12,
        ["https://a.example"],
    )
    monkeypatch.setenv("CMS_METRICS_TOKEN", "123456")  # a text setting: as written, not a number
    monkeypatch.setenv("CMS_JWT_SECRET", "0" * 40)
    monkeypatch.setenv("CMS_SITE_FIXTURE", '"seed/demo.json"')  # a JSON string: its text
    service = create_app({"MONGODB_URI": None})
    assert (
        service.config["METRICS_TOKEN"],
        service.config["JWT_SECRET"],
        service.config["SITE_FIXTURE"],
    ) == ("123456", "0" * 40, "seed/demo.json")
    monkeypatch.setenv("CMS_RESPONSE_CACHE", "False")  # JSON is lower case: not a flag
    with pytest.raises(ConfigError, match="CMS_RESPONSE_CACHE must be true or false, got 'False'"):
        create_app({"MONGODB_URI": None})


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        (
            "http://db.example/",
            "Invalid URI scheme: URI must begin with 'mongodb://' or 'mongodb+srv://'",
        ),
        ("mongodb://db.example:99999/", "Port must be an integer between 0 and 65535"),
        ("mongodb+srv://db.example:27017/", "mongodb+srv:// URIs must not include a port number"),
        ("mongodb://db.example,/", "Empty host (or extra comma in host list)"),
    ],
)
def test_a_uri_pymongo_refuses_is_a_configuration_error_without_the_uri(uri, message):
    # No DNS or server is needed: pymongo parses the URI before it connects.
    with pytest.raises(ConfigError) as raised:
        create_app({"MONGODB_URI": uri.replace("db.example", "user:s3cret@db.example")})
    assert raised.value.message == f"MONGODB_URI: {message}"
    assert "s3cret" not in raised.value.message


def test_a_password_pymongo_would_repeat_is_masked(monkeypatch):
    def refuses(uri, *arguments, **options):
        raise ConfigurationError(f"cannot use {uri}")

    monkeypatch.setattr(app.db.uri_parser, "parse_uri", refuses)
    with pytest.raises(ConfigError) as raised:
        create_app({"MONGODB_URI": "mongodb://ann:s3:cr@t@db.example/"})
    assert raised.value.message == "MONGODB_URI: cannot use mongodb://ann:***@db.example/"


def test_the_cli_prints_a_configuration_error_in_one_line():
    environment = {**os.environ, "CMS_PROXY_COUNT": "two", "CMS_METRICS": "yes"}
    environment.pop("MONGODB_URI", None)
    command = [sys.executable, "-m", "flask", "--app", "app:create_app", "routes"]
    result = subprocess.run(
        command, env=environment, capture_output=True, text=True, check=False, cwd=REPO_ROOT
    )
    assert result.returncode == 1
    assert result.stderr == (
        "Error: invalid configuration: CMS_METRICS must be true or false, got 'yes';"
        " CMS_PROXY_COUNT must be a whole number >= 0, got 'two'\n"
    )
    assert result.stdout == ""


def run_gunicorn(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`make serve` with one worker on a free port, until it stops (it should, at once)."""
    command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py", "--workers", "1"]
    command += ["--bind", "127.0.0.1:0", "app:create_app()"]
    return subprocess.run(
        command,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO_ROOT,
        timeout=60,
    )


def test_gunicorn_stops_on_a_configuration_error_before_any_worker_starts(tmp_path):
    # `make serve`: the master checks the settings (gunicorn.conf.py on_starting), so the
    # operator reads the one line, not each worker's traceback; the metrics directory does not
    # exist yet (importing the app opens its files: the master creates it first)
    metrics = tmp_path / "metrics"
    environment = {**os.environ, "CMS_PROXY_COUNT": "two", "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
    environment.pop("MONGODB_URI", None)
    result = run_gunicorn(environment)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "Error: invalid configuration: CMS_PROXY_COUNT must be a whole number >= 0, got 'two'"
    )
    assert "Traceback" not in result.stderr
    assert "Booting worker" not in result.stderr
    assert metrics.is_dir()


def test_gunicorn_stops_on_a_site_it_cannot_load_without_a_traceback(tmp_path):
    # a bad SITE_FIXTURE is only known once a worker loads it (gunicorn.conf.py post_fork): the
    # worker prints the fixture's problems and exits 4, gunicorn's "App failed to load", so the
    # master stops instead of booting workers again
    fixture = tmp_path / "site.json"
    fixture.write_text('{"nope": 1}', encoding="utf-8")
    environment = {**os.environ, "CMS_SITE_FIXTURE": str(fixture)}
    environment.pop("MONGODB_URI", None)
    result = run_gunicorn(environment)
    assert result.returncode == 4
    assert f"Error: {fixture}: invalid site fixture (4 problem(s)):" in result.stderr.splitlines()
    assert '$.nope: unknown key "nope"' in result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1].endswith("Reason: App failed to load.")


def _raw_answer(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """The status line, headers and body gunicorn answers to `request`, sent as bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, dict(line.split(": ", 1) for line in lines), body


def test_gunicorn_refuses_what_it_cannot_parse_as_problem_json():
    """Requests gunicorn refuses before the app sees them (behaviour.md: every error is
    problem+json) get the service's problem, not gunicorn's HTML page echoing the request."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py", "--workers", "1",
               "--bind", f"127.0.0.1:{port}", "app:create_app()"]  # fmt: skip
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("MONGODB_URI", "CMS_CORS_ORIGINS")}  # fmt: skip
    server = subprocess.Popen(command, env=environment, cwd=REPO_ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        wait_for_http(port, server)
        cases = [
            (b"GET /api/pages?" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
             "414 URI Too Long", "The request URL is longer than 4096 characters."),
            (b"GET /api HTTP/1.1\r\nHost: x\r\n" + b"X-Many: v\r\n" * 120 + b"\r\n",
             "431 Request Header Fields Too Large", "Request Header Fields Too Large"),
            (b"GET /api/pages\xff<script> HTTP/1.1\r\nHost: x\r\n\r\n",
             "400 Bad Request", "The request is not valid HTTP/1.1."),
        ]  # fmt: skip
        for request, status, detail in cases:
            line, headers, body = _raw_answer(port, request)
            assert line == f"HTTP/1.1 {status}"
            assert headers["Content-Type"] == "application/problem+json; charset=utf-8"
            assert headers["Cache-Control"] == "no-store"
            assert re.fullmatch(r"[0-9a-f]{32}", headers["X-Request-Id"])
            assert headers["Access-Control-Allow-Origin"] == "*"  # CORS_ORIGINS' default
            problem = json.loads(body)
            code = int(status.split()[0])
            assert problem == {
                "@context": "/api/contexts/Error", "@id": f"/api/errors/{code}",
                "@type": "hydra:Error", "title": "An error occurred", "detail": detail,
                "status": code, "type": f"/errors/{code}", "description": detail,
                "hydra:title": "An error occurred", "hydra:description": detail,
            }  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_for_http(port: int, server: subprocess.Popen, timeout: float = 60.0) -> None:
    """Until the server answers /healthz (it loads the demo site first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if connection.recv(12).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError("gunicorn did not answer /healthz")


@pytest.mark.parametrize(
    ("uri", "database", "setting", "named"),
    [
        ("mongodb://127.0.0.1:1/admin", None, "MONGODB_URI", "admin"),
        ("mongodb://u:p@127.0.0.1:1/local?authSource=admin", None, "MONGODB_URI", "local"),
        ("mongodb://127.0.0.1:1/", "config", "MONGODB_DB", "config"),
    ],
)
def test_mongodbs_own_databases_are_refused(uri, database, setting, named):
    """Before MONGODB_URI's database was read, `mongodb://host/admin` (written to authenticate)
    loaded into cms: now it would load into admin, so it is refused, saying what to set."""
    with pytest.raises(ConfigError) as raised:
        create_app({"MONGODB_URI": uri, "MONGODB_DB": database})
    assert str(raised.value) == (
        f'{setting} names database "{named}", one of MongoDB\'s own, which the service never '
        "writes to: set MONGODB_DB (cms, say) or name another database in the URI; to "
        "authenticate against admin, add ?authSource=admin to the URI"
    )
    assert ":p@" not in str(raised.value)


@pytest.mark.parametrize(
    ("uri", "database", "used"),
    [
        ("mongodb://127.0.0.1:1/named", None, "named"),  # the URI's database
        ("mongodb://127.0.0.1:1/named", "chosen", "chosen"),  # MONGODB_DB wins
        ("mongodb://127.0.0.1:1/", None, "cms"),
        ("mongodb://127.0.0.1:1/?replicaSet=rs0", None, "cms"),
    ],
)
def test_the_database_is_mongodb_db_else_the_uris_else_cms(uri, database, used):
    """docs/operations.md: an operator who names the database in the URI finds the site there.
    No server is asked: pymongo connects lazily."""
    service = create_app({"MONGODB_URI": uri, "MONGODB_DB": database})
    assert service.extensions["cms.store"].db.name == used
    service.extensions["cms.store"].db.client.close()
