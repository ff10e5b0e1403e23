"""Regressions of the adversarial review (issue 17), findings 1-4: passwords, fixtures, headers,
nodes. One section per finding, on both tiers (findings 5-10: test_hardening_edge.py)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from app.auth import mint_token
from app.fixture.load import FixtureError, load_site
from app.header_values import quoted_string, token, uri_reference
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import WR, get_path, node

# --- 1. a password costs a bcrypt run only where a password realm covers the response ----------


@pytest.fixture
def checks(monkeypatch):
    """Counts the bcrypt checks of realm passwords."""
    import app.realms

    calls = []
    real = app.realms.bcrypt.checkpw

    def counted(password: bytes, hashed: bytes) -> bool:
        if password:  # not the readability check of app.passwords.bcrypt_problem (of b"")
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

    from app.store import Store

    app, store = fresh
    before = _state(store)
    # On the class: on a server, the seed command writes through a connection of its own.
    monkeypatch.setattr(
        Store, "write_generation", lambda *a, **k: (_ for _ in ()).throw(WriteError("refused"))
    )
    site = demo_site()
    site["settings"]["site_name"] = "Another site"
    path = tmp_path / "site.json"
    path.write_text(json.dumps(site))
    result = app.test_cli_runner().invoke(args=["seed", str(path)])
    assert result.exit_code == 1
    version = before[0]["version"] + 1
    assert result.output.splitlines()[-2:] == [
        f"{path}: invalid site fixture (1 problem(s)):",
        f"$: writing generation v{version} failed, nothing was kept: refused",
    ]
    assert "Traceback" not in result.output
    assert _state(store) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"translations": "caf\xff"}', "$: not valid UTF-8: byte 0xff at offset 21"),
        (b"[" * 100000 + b"]" * 100000, "$: not readable: nested too deeply"),
        (b'{"a": NaN}', "$.a: nan is not a JSON number"),
        (b'{"a": [Infinity]}', "$.a[0]: inf is not a JSON number"),
        (  # more digits than Python converts (4,300): json.loads raises a ValueError
            b'{"a": 1' + b"0" * 5000 + b"}",
            "$: not readable: an integer of thousands of digits (at most 64 bits are stored)",
        ),
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


@pytest.mark.parametrize(
    "published_at",
    ["0001-01-01T00:00:00+00:00", "0001-01-01T05:00:00+04:00", "9999-12-31T23:59:59+00:00"],
)
def test_dates_at_the_edges_of_the_calendar_load_and_serve(make_app, published_at):
    site = _set("first-article", "en", "published_at", published_at)(demo_site())
    client = make_app(_set("about", "en", "published_at", published_at)(site)).test_client()
    response = get_path(client, "/about")
    assert response.status_code == (404 if published_at.startswith("9999") else 200)
    assert get_path(client, "/").status_code == 200
    assert client.get("/api/pages").status_code == 200
    # in preview, December 9999 is a month of the archives (its end is no next month)
    editor = mint_token(JWT_SECRET, "eve", ["ROLE_BACKEND_USER"], timedelta(hours=1))
    archives = client.get(
        "/api/articles/archives?_preview=1&_locale=en",
        headers={"Authorization": f"Bearer {editor}"},
    )
    assert archives.status_code == 200
    month = published_at[:7]
    assert any(month in year["months"] for year in archives.json["hydra:member"])


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


def test_a_password_on_a_collection_checks_only_realms_covering_its_type(client, checks):
    """The Members realm (plain_password, deny) covers Page nodes only: an article collection or
    search with a password runs no bcrypt; a page collection checks it once."""
    assert client.get("/api/articles?password=guess").status_code == 200
    assert (
        client.get("/api/search?search=concert&node_type=Article&password=guess").status_code == 200
    )
    assert checks == []
    pages = client.get("/api/pages?password=letmein&itemsPerPage=50")
    assert pages.status_code == 200 and len(checks) == 1
    assert "/members" in [m["url"] for m in pages.json["hydra:member"]]
    assert "/members" not in [
        m["url"]
        for m in client.get("/api/pages?password=wrong&itemsPerPage=50").json["hydra:member"]
    ]
    assert len(checks) == 2
