"""Regressions of the adversarial review (issue 17), findings 5-10: response cache, logs, CORS,
path decoding, OPTIONS and gunicorn, tokens. One section per finding, on both tiers."""

from __future__ import annotations

import logging
import runpy
import threading
import time
import urllib.request
from datetime import UTC, datetime

import jwt
import pytest
from werkzeug.serving import make_server

from app.api.hygiene import MAX_URL_LENGTH
from app.api.response_cache import ENTRY_OVERHEAD, CachedResponse, ResponseCache
from app.auth import ALGORITHM
from app.config import REPO_ROOT
from tests.conftest import JWT_SECRET
from tests.helpers import WR, problem_detail

# --- 5. the response cache is bounded by bytes ---------------------------------------------------


def _entry(size: int) -> CachedResponse:
    return CachedResponse(b"x" * size, {"ETag": '"e"'}, 60)


def _junk_key(i: int) -> tuple:
    return (1, "/api/x", f"junk={'j' * 1000}{i:02d}", "")


def test_the_response_cache_evicts_by_bytes_counting_keys():
    each = 8 + len("/api/x") + len(_junk_key(0)[2]) + 100 + len('ETag"e"') + ENTRY_OVERHEAD
    cache = ResponseCache(max_entries=1000, max_bytes=each * 5)
    for i in range(50):
        cache.put(_junk_key(i), _entry(100), None)
        assert cache.bytes <= each * 5
    assert len(cache) == 5 and cache.bytes == each * 5  # the least recently used went first
    now = datetime.now(UTC)
    assert [cache.get(_junk_key(i), now) is not None for i in (44, 45, 49)] == [False, True, True]


def test_an_entry_larger_than_the_cache_is_not_stored():
    cache = ResponseCache(max_entries=10, max_bytes=1000)
    cache.put((1, "/a", "", ""), _entry(2000), None)
    assert len(cache) == 0 and cache.bytes == 0


def test_junk_query_strings_cannot_grow_the_cache_beyond_its_bytes(make_app):
    app = make_app(RESPONSE_CACHE_BYTES=200_000)
    client = app.test_client()
    for i in range(20):
        assert client.get(f"{WR}?path=/&junk={'z' * 3000}{i}").status_code == 200
    cache = app.extensions["cms.response_cache"]
    assert 0 < cache.bytes <= 200_000
    assert len(cache) < 20


# --- 6. the development server's access log never records a password -----------------------------


def test_the_dev_server_log_redacts_password_values(app, caplog):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            url = f"http://127.0.0.1:{server.port}{WR}?path=/members&password=letmein&x=1"
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.status == 200
    finally:
        server.shutdown()
        thread.join(timeout=10)
    lines = [r.getMessage() for r in caplog.records if r.name == "werkzeug"]
    assert any("password=[redacted]&x=1" in line for line in lines), lines
    assert not any("letmein" in line for line in lines)


# --- 7. an allow-listed CORS answer varies on Origin ---------------------------------------------


def test_with_an_allow_list_every_answer_varies_on_origin(make_app):
    client = make_app(CORS_ORIGINS=["https://front.example"]).test_client()
    for url, origin in [(f"{WR}?path=/", "https://front.example"),
                        (f"{WR}?path=/", "https://evil.example"), (f"{WR}?path=/", None),
                        (f"{WR}?path=/nope", "https://front.example"),
                        ("/api/common_content", "https://front.example")]:  # fmt: skip
        response = client.get(url, headers={"Origin": origin} if origin else {})
        assert "Origin" in [v.strip() for v in response.headers["Vary"].split(",")], url
        assert response.headers["Vary"].count("Origin") == 1


# --- 8. path is percent-decoded once -------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "status", "title"),
    [("path=%2Fabout", 200, "About us"), ("path=%252Fabout", 404, None),
     ("path=%2Fa-propos", 200, "À propos"), ("path=%25%32%46about", 404, None)],
)  # fmt: skip
def test_path_is_decoded_exactly_once(client, query, status, title):
    response = client.get(f"{WR}?{query}")
    assert response.status_code == status
    if title:
        assert response.json["item"]["title"] == title


def test_invalid_utf8_in_path_is_a_400(client):
    response = client.get(f"{WR}?path=/caf%ff")
    assert response.status_code == 400
    assert problem_detail(response) == "path is not valid percent-encoded UTF-8"


# --- 9. OPTIONS, gunicorn ------------------------------------------------------------------------


@pytest.mark.parametrize("url", [f"{WR}?path=/", "/api/common_content", "/api/pages", "/readyz"])
def test_options_answers_204_with_allow_and_no_body(client, url):
    response = client.options(url)
    assert response.status_code == 204
    assert response.data == b""
    assert "Content-Type" not in response.headers
    assert {"GET", "HEAD", "OPTIONS"} <= {m.strip() for m in response.headers["Allow"].split(",")}


def test_options_of_an_unknown_route_is_a_404_problem(client):
    response = client.options("/nowhere")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_gunicorn_configuration_uses_threads_and_lets_the_app_answer_414():
    settings = runpy.run_path(str(REPO_ROOT / "gunicorn.conf.py"))
    assert settings["worker_class"] == "gthread"
    assert settings["threads"] >= 2
    longest_app_line = len("GET ") + MAX_URL_LENGTH + 1 + len(" HTTP/1.1")
    assert settings["limit_request_line"] > longest_app_line
    assert "%(U)s" in settings["access_log_format"]  # the path without its query
    makefile = (REPO_ROOT / "Makefile").read_text()
    assert "gunicorn --config gunicorn.conf.py" in makefile


# --- 10. bearer tokens: numeric exp, bounded lifetime --------------------------------------------


def _token(**claims) -> dict[str, str]:
    body = {"sub": "ann", "roles": ["ROLE_BACKEND_USER"], **claims}
    return {"Authorization": f"Bearer {jwt.encode(body, JWT_SECRET, algorithm=ALGORITHM)}"}


# Claims relative to the moment the test runs (not to collection: the FerretDB tier can reach this
# module more than an hour after collecting it, when a token of "1 h" would have expired).
TOKENS = {
    "exp as a string": (lambda now: {"exp": str(now + 3600)}, 401),
    "exp as a boolean": (lambda now: {"exp": True}, 401),
    "exp 10**30": (lambda now: {"exp": 10**30}, 401),
    "exp in 25 h without iat": (lambda now: {"exp": now + 25 * 3600}, 401),
    "25 h from iat": (lambda now: {"iat": now, "exp": now + 25 * 3600}, 401),
    "iat as a string": (lambda now: {"iat": str(now), "exp": now + 3600}, 401),
    "nbf as a boolean": (lambda now: {"nbf": False, "exp": now + 3600}, 401),
    "1 h, numeric": (lambda now: {"iat": now, "exp": now + 3600}, 200),
    "23 h without iat": (lambda now: {"exp": now + 23 * 3600}, 200),
}


@pytest.mark.parametrize(("claims", "status"), TOKENS.values(), ids=TOKENS)
def test_token_exp_must_be_a_number_within_the_max_lifetime(client, claims, status):
    headers = _token(**claims(int(time.time())))
    assert client.get(f"{WR}?path=/&_preview=1", headers=headers).status_code == status


def test_the_max_lifetime_is_configurable(make_app):
    client = make_app(JWT_MAX_LIFETIME=48 * 3600).test_client()
    now = int(time.time())
    headers = _token(iat=now, exp=now + 25 * 3600)
    assert client.get(f"{WR}?path=/&_preview=1", headers=headers).status_code == 200
