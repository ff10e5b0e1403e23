"""Rules the structure carries: what production registers, and the loader's own report of a path
that has no canonical form (the read path answers it with 400, app.api.problems), and a layer for
every module of `app/` in import-linter's contract (docs/architecture.md)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import mongomock
import pytest

from app.fixture.load import FixtureError, load_site
from app.store import Store
from bench.app import create_app as create_bench_app
from tests.conftest import demo_site


def test_the_static_floor_is_served_by_the_bench_app_only(app):
    assert app.test_client().get("/bench/floor?bytes=100").status_code == 404
    bench = create_bench_app({"SITE_FIXTURE": app.config["SITE_FIXTURE"]})
    response = bench.test_client().get("/bench/floor?bytes=100")
    assert response.status_code == 200
    assert len(response.data) == 100
    assert response.json["floor"] == "x" * (100 - len(b'{"floor":""}'))


def test_a_redirection_query_without_canonical_form_is_a_fixture_problem():
    query, message = "/a\tb", "path contains control characters"
    site = demo_site()
    site["redirections"].append({"query": query, "redirect_uri": "/about", "type": 301})
    store = Store(mongomock.MongoClient(tz_aware=True)["structure"])
    with pytest.raises(FixtureError) as raised:
        load_site(store, site)
    at = f"$.redirections[{len(site['redirections']) - 1}].query"
    assert [(p.path, p.message) for p in raised.value.problems] == [(at, message)]
    assert store.live() is None  # nothing written


def test_the_read_path_answers_the_same_rule_with_400(client):
    response = client.get("/api/web_response_by_path", query_string={"path": "/a\tb"})
    assert response.status_code == 400
    assert response.json["detail"] == "path contains control characters"


def _layers() -> list[str]:
    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return contract["layers"]


def test_modules_side_by_side_in_a_layer_are_independent():
    """docs/architecture.md: modules side by side in a layer do not import each other, which
    import-linter checks only when they are joined by `|` (`:` lets them import each other)."""
    assert [layer for layer in _layers() if ":" in layer] == []


def test_every_module_of_app_has_a_layer_in_the_import_contract():
    """A module outside the `layers` contract is checked by nothing (it could import the HTTP edge
    from the store): every module and package of `app/` is in one of its layers."""
    root = Path(__file__).resolve().parent.parent
    layered = {name.strip() for layer in _layers() for name in layer.replace(":", "|").split("|")}
    modules = {
        f"app.{path.stem}"
        for path in (root / "app").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
    }
    assert modules - layered == set()
