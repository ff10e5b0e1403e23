"""Regressions of the adversarial review (issue 17): one section per finding, on both tiers."""

from __future__ import annotations

import json
import logging
import runpy
import threading
import time
import urllib.request
from datetime import UTC, datetime, timedelta

import jwt
import pytest
from werkzeug.serving import make_server

from app.api.hygiene import MAX_URL_LENGTH
from app.api.response_cache import ENTRY_OVERHEAD, CachedResponse, ResponseCache
from app.auth import ALGORITHM, mint_token
from app.config import REPO_ROOT
from app.fixture.load import FixtureError, load_site
from app.header_values import quoted_string, token, uri_reference
from app.realms import bcrypt_problem
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import WR, get_path, node, problem_detail

# --- 1. a password costs a bcrypt run only where a password realm covers the response ----------


@pytest.fixture
def checks(monkeypatch):
    """Counts the bcrypt checks of realm passwords."""
    import app.realms

    calls = []
    real = app.realms.bcrypt.checkpw

    def counted(password: bytes, hashed: bytes) -> bool:
        if hashed[4:7] != b"04$":  # not the cost-4 readability check of rules.bcrypt_problem
            calls.append(hashed)
        return real(password, hashed)

    monkeypatch.setattr(app.realms.bcrypt, "checkpw", counted)
    return calls


def test_a_password_on_a_page_no_password_realm_covers_is_not_checked(client, checks):
    response = client.get(f"{WR}?path=/about&password=guess")
    assert response.status_code == 200
    assert checks == []
    assert response.headers["Cache-Control"].startswith("public, ")
    blog = client.get(f"{WR}?path=/&password=guess")  # a page with a feed and blocks
    assert blog.status_code == 200 and checks == []
    assert blog.headers["Cache-Control"].startswith("public, ")


def test_a_password_on_a_page_its_realm_covers_is_checked_once(client, checks):
    assert client.get(f"{WR}?path=/members&password=letmein").status_code == 200
    assert len(checks) == 1
    assert client.get(f"{WR}?path=/members&password=wrong").status_code == 401
    assert len(checks) == 2


def _with_hash(password_hash: str) -> dict:
    site = demo_site()
    site["realms"][0]["password"] = password_hash
    return site


REST = "1sbt04UyZCY4SuY9o823huVVxYKJuaYkGACcMTjAFIhjKNrWtEkKm"  # salt and digest of the demo


@pytest.mark.parametrize(
    ("password_hash", "message"),
    [
        (f"$2b$31${REST}", "bcrypt cost 31 is outside 4 to 14"),
        (f"$2b$03${REST}", "bcrypt cost 03 is outside 4 to 14"),
        (f"$2b$15${REST}", "bcrypt cost 15 is outside 4 to 14"),
        ("$2b$10$" + "/" * 53, "password is not a bcrypt hash bcrypt can read (invalid salt)"),
        ("$2b$10$zzzzzzzzzzzzzzzzzzzzzz" + REST[22:], "password is not a bcrypt hash bcrypt "
         "can read (invalid salt)"),
    ],
)  # fmt: skip
def test_unusable_bcrypt_hashes_are_refused_at_validation(password_hash, message):
    from app.fixture.validate import Problem, validate_fixture

    assert validate_fixture(_with_hash(password_hash)) == [Problem("$.realms[0].password", message)]


def _live_realms(app):
    store = app.extensions["cms.store"]
    return store.db[f"realms_v{store.live()['version']}"]


@pytest.mark.parametrize("password_hash", [f"$2b$31${REST}", "$2b$10$" + "/" * 53, "plain"])
def test_a_stored_unusable_hash_is_never_a_500_nor_a_bcrypt_run(make_app, checks, password_hash):
    app = make_app()
    _live_realms(app).update_one({"_id": 1}, {"$set": {"password_hash": password_hash}})
    response = app.test_client().get(f"{WR}?path=/members&password=letmein")
    assert response.status_code == 401
    assert checks == []


# --- 2. fixtures that passed validation and failed while written ----------------------------------


def _json_field(site: dict, value: object) -> dict:
    page = next(t for t in site["node_types"] if t["name"] == "Page")
    page["fields"].append({"name": "data", "type": "json"})
    node(site, "about")["sources"]["en"]["fields"]["data"] = value
    return site


def _nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


ABOUT = "$.nodes[1].sources.en"


def _about_index(site: dict) -> int:
    return next(i for i, n in enumerate(site["nodes"]) if n["node_name"] == "about")


def _set(name: str, locale: str, key: str, value: object):
    def mutate(site: dict) -> dict:
        node(site, name)["sources"][locale][key] = value
        return site

    return mutate


def _translation(key: str, value: object):
    def mutate(site: dict) -> dict:
        site["translations"][1][key] = value
        return site

    return mutate


def _duplicate_tag_slug(site: dict) -> dict:
    site["tags"][1]["slug"] = site["tags"][0]["slug"]
    return site


def _realm_name(name: str):
    def mutate(site: dict) -> dict:
        site["realms"][0]["name"] = name
        return site

    return mutate


UNSTORABLE = {
    "year 1 with an offset": (
        _set("about", "en", "published_at", "0001-01-01T00:00:00+01:00"),
        "published_at",
        '"0001-01-01T00:00:00+01:00" is out of the range of dates (years 1 to 9999 in UTC)',
    ),
    "year 9999 with a negative offset": (
        _set("about", "en", "published_at", "9999-12-31T23:30:00-01:00"),
        "published_at",
        '"9999-12-31T23:30:00-01:00" is out of the range of dates (years 1 to 9999 in UTC)',
    ),
    "a $ key in a json field": (
        lambda s: _json_field(s, {"ok": {"$where": 1}}),
        'fields.data.ok["$where"]',
        'key "$where" must not start with $',
    ),
    "a dotted key in a json field": (
        lambda s: _json_field(s, [{"a.b": 1}]),
        'fields.data[0]["a.b"]',
        'key "a.b" must not contain . or NUL',
    ),
    "nesting over 100 levels": (
        lambda s: _json_field(s, _nested(120)),
        "fields.data" + "[0]" * 95,
        "nested more than 100 levels deep",
    ),
    "NaN": (_set("about", "en", "title", float("nan")), "title", "nan is not a JSON number"),
    "Infinity": (
        lambda s: _json_field(s, {"x": float("-inf")}),
        "fields.data.x",
        "-inf is not a JSON number",
    ),
    "a lone surrogate": (
        _set("about", "en", "title", "caf\ud800"),
        "title",
        "invalid UTF-8: lone surrogate at character 3",
    ),
}


@pytest.fixture
def fresh(make_app):
    app = make_app()
    with app.app_context():
        yield app, app.extensions["cms.store"]


def _state(store) -> tuple:
    return store.live(), store.generations()


@pytest.mark.parametrize(("mutate", "where", "message"), UNSTORABLE.values(), ids=UNSTORABLE)
def test_unstorable_values_are_refused_with_their_path_and_nothing_written(
    fresh, mutate, where, message
):
    _, store = fresh
    site = mutate(demo_site())
    before = _state(store)
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    at = f"$.nodes[{_about_index(site)}].sources.en.{where}"
    assert (at, message) in [tuple(p) for p in raised.value.problems]
    assert _state(store) == before


INVALID = {
    "a locale with a dot": (
        _translation("locale", "f.r"),
        "$.translations[1].locale",
        '"f.r" does not match ^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$',
    ),
    "a locale with a $": (
        _translation("locale", "$fr"),
        "$.translations[1].locale",
        '"$fr" does not match ^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$',
    ),
    "an override locale with a slash": (
        _translation("override_locale", "fr/x"),
        "$.translations[1].override_locale",
        '"fr/x" does not match ^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$',
    ),
    "an override locale with CRLF": (
        _translation("override_locale", "fr\r\nX-Evil: 1"),
        "$.translations[1].override_locale",
        '"fr\\r\\nX-Evil: 1" does not match ^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$',
    ),
    "duplicate tag slugs": (
        _duplicate_tag_slug,
        "$.tags[1].slug",
        None,
    ),
    "a realm name with CRLF": (
        _realm_name("Members\r\nSet-Cookie: x=1"),
        "$.realms[0].name",
        "a realm name is 1 to 100 characters, without quotes, backslashes or controls",
    ),
    "a realm name with a quote": (
        _realm_name('Members", Basic realm="x'),
        "$.realms[0].name",
        "a realm name is 1 to 100 characters, without quotes, backslashes or controls",
    ),
}


@pytest.mark.parametrize(("mutate", "at", "message"), INVALID.values(), ids=INVALID)
def test_unsafe_locales_names_and_slugs_are_refused(fresh, mutate, at, message):
    _, store = fresh
    site = mutate(demo_site())
    before = _state(store)
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    found = {p.path: p.message for p in raised.value.problems}
    assert at in found
    if message is None:  # duplicate slug: names the first one
        slug = site["tags"][0]["slug"]
        assert found[at] == f'duplicate tag slug "{slug}" (first at $.tags[0].slug)'
    else:
        assert found[at] == message
    assert _state(store) == before


def test_a_non_latin_realm_name_is_allowed_and_encoded_in_the_challenge(make_app):
    client = make_app(_realm_name("Espace réservé")(demo_site())).test_client()
    response = get_path(client, "/members")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'PasswordQuery realm="Espace r%C3%A9serv%C3%A9"'


def _chain(length: int, *, cycle: bool) -> dict:
    """The demo site with `length` more pages, each the parent of the next (a loop if `cycle`)."""
    site = demo_site()
    first = 5000
    for i in range(length):
        page = json.loads(json.dumps(node(site, "about")))
        page.update(id=first + i, node_name=f"level-{i}", parent=first + i - 1 if i else None)
        page.pop("home", None)
        page["sources"] = {
            "en": {"id": 50000 + i, "title": f"Level {i}", "published_at": None, "fields": {}}
        }
        site["nodes"].append(page)
    if cycle:
        site["nodes"][-length]["parent"] = first + length - 1
    return site


def test_a_tree_deeper_than_the_cap_is_refused_at_the_first_node_too_deep():
    from app.fixture.rules import MAX_TREE_DEPTH
    from app.fixture.validate import Problem, validate_fixture

    site = _chain(MAX_TREE_DEPTH + 3, cycle=False)
    index = len(site["nodes"]) - 2  # the node with MAX_TREE_DEPTH + 1 ancestors
    assert validate_fixture(site) == [
        Problem(f"$.nodes[{index}].parent",
                f"node {site['nodes'][index]['id']} is nested 51 levels below a root (at most 50)")
    ]  # fmt: skip


def test_a_long_parent_cycle_is_reported_once_per_member_in_short_form():
    from app.fixture.validate import validate_fixture

    problems = validate_fixture(_chain(2000, cycle=True))
    assert len(problems) == 2000
    assert all(p.message.startswith("parent cycle ") for p in problems)
    shown = " -> ".join(str(i) for i in [5000, *range(6999, 6990, -1)])
    assert problems[0].message == f"parent cycle {shown} -> ... -> 5000 (2000 ids)"


def test_a_failing_write_leaves_no_generation_and_the_pointer_unchanged(fresh, monkeypatch):
    from pymongo.errors import WriteError

    _, store = fresh
    before = _state(store)
    real = store.write_generation

    def half_then_fail(version, documents, progress=lambda m: None):
        real(version, {"translations": documents["translations"]}, progress)
        raise WriteError("simulated refusal")

    monkeypatch.setattr(store, "write_generation", half_then_fail)
    site = demo_site()
    site["settings"]["site_name"] = "Another site"
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    version = before[0]["version"] + 1
    assert raised.value.problems[0].message == (
        f"writing generation v{version} failed, nothing was kept: simulated refusal"
    )
    assert _state(store) == before


def test_the_seed_command_reports_a_failing_write_without_a_traceback(fresh, monkeypatch, tmp_path):
    from pymongo.errors import WriteError

    app, store = fresh
    before = _state(store)
    monkeypatch.setattr(
        store, "write_generation", lambda *a, **k: (_ for _ in ()).throw(WriteError("refused"))
    )
    site = demo_site()
    site["settings"]["site_name"] = "Another site"
    path = tmp_path / "site.json"
    path.write_text(json.dumps(site))
    result = app.test_cli_runner().invoke(args=["seed", str(path)])
    assert result.exit_code == 1
    assert "failed, nothing was kept: refused" in result.output
    assert "Traceback" not in result.output
    assert _state(store) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"translations": "caf\xff"}', "$: not valid UTF-8: byte 0xff at offset 21"),
        (b"[" * 100000 + b"]" * 100000, "$: not readable: nested too deeply"),
        (b'{"a": NaN}', "$.a: nan is not a JSON number"),
        (b'{"a": [Infinity]}', "$.a[0]: inf is not a JSON number"),
    ],
)
def test_the_seed_command_refuses_unreadable_json_cleanly(fresh, tmp_path, content, message):
    app, store = fresh
    before = _state(store)
    path = tmp_path / "site.json"
    path.write_bytes(content)
    result = app.test_cli_runner().invoke(args=["seed", str(path)])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert _state(store) == before


# --- 3. header values are never injected --------------------------------------------------------


def test_header_values_are_encoded():
    assert quoted_string('a"b\\c\r\nd é%') == "a%22b%5Cc%0D%0Ad %C3%A9%25"
    assert token("fr\r\nX: 1") == "fr%0D%0AX%3A%201"
    assert token("en_GB-x") == "en_GB-x"
    assert uri_reference('/a b/é>"<') == "/a%20b/%C3%A9%3E%22%3C"


@pytest.mark.parametrize("name", ["Members\r\nSet-Cookie: x=1", 'M", Basic realm="x', "会员"])
def test_a_stored_unsafe_realm_name_never_reaches_the_header_raw(make_app, name):
    app = make_app()
    _live_realms(app).update_one({"_id": 1}, {"$set": {"name": name}})
    response = get_path(app.test_client(), "/members")
    assert response.status_code == 401
    challenge = response.headers["WWW-Authenticate"]
    assert challenge == f'PasswordQuery realm="{quoted_string(name)}"'
    assert challenge.isascii() and '"' not in challenge[len('PasswordQuery realm="') : -1]
    assert "\r" not in challenge and "\n" not in challenge


# --- 4. /api/nodes/<id> withholds a block hidden by a hide_blocks realm --------------------------


def test_a_hidden_block_is_not_shown_by_its_node(client):
    block = node(demo_site(), "premium-report")["id"]
    assert client.get(f"/api/nodes/{block}").status_code == 404
    role = mint_token(JWT_SECRET, "ann", ["ROLE_PREMIUM"], timedelta(hours=1))
    granted = client.get(f"/api/nodes/{block}", headers={"Authorization": f"Bearer {role}"})
    assert granted.status_code == 200
    assert granted.json["nodeName"] == "premium-report"


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


NOW = int(time.time())
TOKENS = {
    "exp as a string": (_token(exp=str(NOW + 3600)), 401),
    "exp as a boolean": (_token(exp=True), 401),
    "exp 10**30": (_token(exp=10**30), 401),
    "exp in 25 h without iat": (_token(exp=NOW + 25 * 3600), 401),
    "25 h from iat": (_token(iat=NOW, exp=NOW + 25 * 3600), 401),
    "iat as a string": (_token(iat=str(NOW), exp=NOW + 3600), 401),
    "nbf as a boolean": (_token(nbf=False, exp=NOW + 3600), 401),
    "1 h, numeric": (_token(iat=NOW, exp=NOW + 3600), 200),
    "23 h without iat": (_token(exp=NOW + 23 * 3600), 200),
}


@pytest.mark.parametrize(("headers", "status"), TOKENS.values(), ids=TOKENS)
def test_token_exp_must_be_a_number_within_the_max_lifetime(client, headers, status):
    assert client.get(f"{WR}?path=/&_preview=1", headers=headers).status_code == status


def test_the_max_lifetime_is_configurable(make_app):
    client = make_app(JWT_MAX_LIFETIME=48 * 3600).test_client()
    headers = _token(iat=NOW, exp=NOW + 25 * 3600)
    assert client.get(f"{WR}?path=/&_preview=1", headers=headers).status_code == 200


def test_bcrypt_problem_is_the_one_rule_of_both_checks():
    assert bcrypt_problem(demo_site()["realms"][0]["password"]) is None


def test_gunicorn_serves_past_slow_clients_and_answers_the_apps_own_414(tmp_path):
    import os
    import socket
    import subprocess
    import sys
    import urllib.error
    from pathlib import Path

    from tests.realserver import free_port

    port = free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "WORKERS")}
    log = (tmp_path / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        [gunicorn, "-c", "gunicorn.conf.py", "-w", "1", "-b", f"127.0.0.1:{port}",
         "app:create_app()"],
        cwd=REPO_ROOT, env={**env, "THREADS": "4"}, stdout=log, stderr=log,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    slow: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/readyz", timeout=2):
                    break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)  # polling a starting server, not timing a test
        for _ in range(2):  # slowloris: request lines never finished
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(b"GET /readyz HTTP/1.1\r\nHost: x\r\n")
            slow.append(connection)
        with urllib.request.urlopen(f"{base}/readyz", timeout=10) as response:
            assert response.status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}{WR}?path=/{'a' * 5000}", timeout=10)
        assert refused.value.code == 414
        assert refused.value.headers["Content-Type"] == "application/problem+json"
        assert json.loads(refused.value.read())["detail"] == (
            "The request URL is longer than 4096 characters."
        )
    finally:
        for connection in slow:
            connection.close()
        process.terminate()
        process.wait(timeout=30)
        log.close()


@pytest.mark.parametrize(
    "published_at",
    ["0001-01-01T00:00:00+00:00", "0001-01-01T05:00:00+04:00", "9999-12-31T23:59:59+00:00"],
)
def test_dates_at_the_edges_of_the_calendar_load_and_serve(make_app, published_at):
    client = make_app(_set("about", "en", "published_at", published_at)(demo_site())).test_client()
    response = get_path(client, "/about")
    assert response.status_code == (404 if published_at.startswith("9999") else 200)
    assert get_path(client, "/").status_code == 200
    assert client.get("/api/pages").status_code == 200
