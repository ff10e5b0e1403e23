"""Loading site fixtures: validation before writing, atomic replacement, determinism, the CLI."""

from __future__ import annotations

import json
import re

import bcrypt
import bson
import pytest

from app.fixture import materialise
from app.fixture.load import FixtureError, load_site
from app.fixture.validate import Problem
from app.store import KINDS
from tests.conftest import demo_site

PLAIN = "letmein"


def invalid_variants():
    """(name, mutation, expected problem) — the acceptance list of issue 2."""

    def unknown_key(site):
        site["nodes"][0]["colour"] = "red"

    def missing_home(site):
        for node in site["nodes"]:
            node.pop("home", None)

    def parent_cycle(site):
        by_name = {n["node_name"]: n for n in site["nodes"]}
        by_name["services"]["parent"] = by_name["team"]["id"]

    def duplicate_alias(site):
        by_name = {n["node_name"]: n for n in site["nodes"]}
        by_name["legal"]["sources"]["fr"]["url_aliases"] = ["a-propos"]

    def plaintext_password(site):
        site["realms"][0]["password"] = PLAIN

    def field_not_in_type(site):
        site["nodes"][0]["sources"]["en"]["fields"]["colour"] = "red"

    return [
        ("unknown key", unknown_key, 'unknown key "colour"'),
        ("missing home", missing_home, "exactly one node must have home: true (found 0)"),
        ("parent cycle", parent_cycle, "parent cycle"),
        ("duplicate url alias", duplicate_alias, 'duplicate url alias "a-propos"'),
        (
            "plaintext password",
            plaintext_password,
            "password must be a bcrypt hash, not plain text",
        ),
        ("field not in node type", field_not_in_type, '"colour" is not a field of node type Page'),
    ]


@pytest.fixture
def fresh(make_app):
    """A fresh app on the demo site, and its store."""
    app = make_app()
    with app.app_context():
        from app.db import get_store

        yield app, get_store()


def snapshot(store):
    live = store.live()
    return live, store.generations(), store.dump_generation(live["version"])


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [(m, e) for _, m, e in invalid_variants()],
    ids=[name for name, _, _ in invalid_variants()],
)
def test_invalid_fixture_is_rejected_and_leaves_the_site_intact(fresh, mutate, expected):
    _, store = fresh
    before = snapshot(store)
    site = demo_site()
    mutate(site)
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    messages = [p.message for p in raised.value.problems]
    assert any(m.startswith(expected) for m in messages), messages
    assert all(isinstance(p, Problem) and p.path.startswith("$") for p in raised.value.problems)
    assert snapshot(store) == before


def test_every_problem_is_reported_at_once(fresh):
    _, store = fresh
    site = demo_site()
    for _, mutate, _ in invalid_variants()[:1] + invalid_variants()[3:]:
        mutate(site)
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    assert len(raised.value.problems) == 4
    assert raised.value.report().startswith("invalid site fixture (4 problem(s)):")


def test_colliding_urls_are_rejected(fresh):
    _, store = fresh
    before = snapshot(store)
    site = demo_site()
    by_name = {n["node_name"]: n for n in site["nodes"]}
    by_name["legal"]["node_name"] = "about"  # two root pages named about: same url
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    assert [p.message for p in raised.value.problems] == [
        'path "/about" is also the path of source 1101',
    ]  # in French, about is at its alias /a-propos: no collision there
    assert snapshot(store) == before


def test_urls_a_request_cannot_reach_are_rejected(fresh):
    """A final .json or .html is read as a format (behaviour.md, path resolution), and clients
    resolve "." and ".." segments away: a source at such a url could never be served."""
    _, store = fresh
    before = snapshot(store)
    site = demo_site()
    by_name = {n["node_name"]: n for n in site["nodes"]}
    by_name["legal"]["sources"]["en"]["url_aliases"] = ["legal.json"]
    by_name["about"]["sources"]["en"]["url_aliases"] = [".."]
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    about, legal = (f"$.nodes[{site['nodes'].index(by_name[n])}].sources.en"
                    for n in ("about", "legal"))  # fmt: skip
    assert sorted(raised.value.problems) == sorted([
        Problem(about, 'path "/.." has a "." or ".." segment, which clients resolve away'),
        Problem(legal, 'path "/legal.json" cannot be requested: a final .json or .html is read '
                       "as a format"),
    ])  # fmt: skip
    assert snapshot(store) == before


def test_loading_the_live_file_again_writes_nothing(fresh):
    _, store = fresh
    before = snapshot(store)
    report = load_site(store, demo_site())
    assert report.unchanged
    assert snapshot(store) == before


def test_a_forced_reload_writes_identical_collections(fresh):
    _, store = fresh
    live = store.live()
    first = store.dump_generation(live["version"])
    report = load_site(store, demo_site(), force=True)
    assert report.version == live["version"] + 1
    assert store.dump_generation(report.version) == first
    # the previous generation stays for readers holding the old pointer; older ones are dropped
    load_site(store, demo_site(), force=True)
    assert store.generations() == [report.version, report.version + 1]


def test_a_new_site_replaces_the_old_one_completely(fresh):
    app, store = fresh
    site = demo_site()
    by_name = {n["node_name"]: n for n in site["nodes"]}
    by_name["about"]["sources"]["en"]["title"] = "About the town"
    site["nodes"] = [n for n in site["nodes"] if n["node_name"] != "legal"]
    site["nodes"] = [n for n in site["nodes"] if n["id"] not in (47, 53)]  # links to legal
    load_site(store, site)
    client = app.test_client()
    about = client.get("/api/web_response_by_path?path=/about")
    assert about.json["item"]["title"] == "About the town"
    assert client.get("/api/web_response_by_path?path=/legal").status_code == 404


def test_generation_has_every_collection_and_index(fresh):
    _, store = fresh
    version = store.live()["version"]
    info = store.index_information(version)
    assert set(info) == set(KINDS)
    assert set(info["sources"]) == {
        "_id_", "node_locale", "parent_id", "parent_position", "feed",
        "position", "type_id", "status_id", "status_published", "status_position", "home",
        "node_name", "published_at", "url"
    }  # fmt: skip
    assert info["sources"]["node_locale"].get("unique") is True


def test_seed_command_reports_problems_and_exits_non_zero(fresh, tmp_path):
    app, store = fresh
    before = snapshot(store)
    site = demo_site()
    site["realms"][0]["password"] = PLAIN
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(site))
    result = app.test_cli_runner().invoke(args=["seed", str(bad)])
    assert result.exit_code == 1
    assert "$.realms[0].password: password must be a bcrypt hash, not plain text" in result.output
    assert snapshot(store) == before


def test_seed_command_loads_a_valid_file(fresh, tmp_path):
    app, store = fresh
    site = demo_site()
    site["realms"][0]["password"] = bcrypt.hashpw(b"other", bcrypt.gensalt(4)).decode()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(site))
    result = app.test_cli_runner().invoke(args=["seed", str(good)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"  database {store.db.name}"
    assert re.fullmatch(r"loaded generation v2 \(sha256 [0-9a-f]{12}\): .* \(in [0-9]+\.[0-9] s\)",
                        lines[-1])  # fmt: skip
    again = app.test_cli_runner().invoke(args=["seed", str(good)])
    assert "site unchanged" in again.output
    site["nodes"][0]["sources"]["en"]["title"] = "A third generation"
    good.write_text(json.dumps(site))
    third = app.test_cli_runner().invoke(args=["seed", str(good)])
    assert (
        "  dropped generation v1 (neither live, v3, nor previous, v2)" in third.stdout.splitlines()
    )


def test_unreadable_and_malformed_files_are_clear_problems(fresh, tmp_path):
    app, _ = fresh
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = app.test_cli_runner().invoke(args=["seed", str(broken)])
    assert result.exit_code == 1
    assert "$: not valid JSON: Expecting property name enclosed in double quotes" in result.output
    result = app.test_cli_runner().invoke(args=["seed", str(tmp_path / "missing.json")])
    assert result.exit_code == 1
    assert "cannot read" in result.output


SIXTEEN_MIB = 16 * 1024 * 1024
TOO_LARGE = re.compile(r"is stored as ([0-9,]+) bytes, above the 16,777,216 MongoDB stores in one "
                       r"document")  # fmt: skip


def test_a_value_mongodb_could_not_store_is_named_where_the_fixture_holds_it(fresh):
    """MongoDB stores at most 16 MiB in a document; FerretDB 1.24 and the embedded store take more,
    so the loader refuses such a fixture on every engine, before writing anything."""
    _, store = fresh
    before = snapshot(store)
    site = demo_site()
    about = next(i for i, n in enumerate(site["nodes"]) if n["node_name"] == "about")
    site["nodes"][about]["sources"]["fr"]["fields"]["content"] = "x" * SIXTEEN_MIB
    site["settings"]["site_name"] = "y" * SIXTEEN_MIB
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    problems = raised.value.problems
    assert [p.path for p in problems] == ["$.settings.site_name", f"$.nodes[{about}].sources.fr"]
    for problem in problems:
        size = int(TOO_LARGE.fullmatch(problem.message).group(1).replace(",", ""))
        assert SIXTEEN_MIB < size < SIXTEEN_MIB + 64 * 1024
    assert snapshot(store) == before


def test_a_document_derived_from_many_values_is_named_by_its_collection_and_id(monkeypatch):
    """A listing, a feed or an index entry is made of many values: its problem is at `$`."""
    documents, problems = materialise.materialise(demo_site())
    assert problems == []
    derived = ("paths", "feeds", "postings", "children", "calendars", "listings")
    limit = 2000
    large = {(kind, d["_id"]) for kind in derived for d in documents[kind]
             if len(bson.encode(d)) > limit}  # fmt: skip
    assert ("feeds", "Article|en||public|0") in large
    monkeypatch.setattr(materialise, "MAX_DOCUMENT_BYTES", limit)
    _, problems = materialise.materialise(demo_site())
    named = re.compile(r'the ([a-z]+) document "(.+)" would be [0-9,]+ bytes, above the 2,000 '
                       r"MongoDB stores in one document")  # fmt: skip
    found = {named.fullmatch(p.message).groups() for p in problems if p.path == "$"}
    assert found == large
    assert all(p.path == "$" for p in problems)  # no source of the demo is near 2,000 bytes
