"""Fixture fuzzing (issue 17): any fixture either fails validation, with JSON paths and nothing
written, or loads and serves the demo endpoints without a 5xx.

Mutations of the demo site (a json field added, so free-form values are exercised too) replace,
delete or duplicate members anywhere in it with hostile values: NaN and infinities, huge integers,
lone surrogates, control characters, `$` and `.` keys, deep nesting, dates at the edges of the
calendar. Bounded and deterministic: a fixed number of examples per tier, derandomized (the seed
is derived from the test), no example database, no deadline (FerretDB writes take their time).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.fixture.load import FixtureError, load_site
from app.fixture.validate import validate_fixture
from tests.conftest import demo_site
from tests.helpers import WR

EXAMPLES = {"mongomock": 80, "ferretdb": 30}


def base_site() -> dict[str, Any]:
    site = demo_site()
    page = next(t for t in site["node_types"] if t["name"] == "Page")
    page["fields"].append({"name": "data", "type": "json"})
    home = next(n for n in site["nodes"] if n.get("home"))
    home["sources"]["en"]["fields"]["data"] = {"list": [1, 2.5, "x"], "nested": {"ok": True}}
    return site


BASE = base_site()

HOSTILE_STRINGS = st.sampled_from(
    ["", "caf\ud800", "\udfff", "a\x00b", "\r\nX-Evil: 1", '"', "\\", "$where", "a.b", "/", "%2F",
     "f.r", "é", "会员", "x" * 300, "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
     "2024-02-30T00:00:00+00:00", "2024-01-01T00:00:00", "2024-01-01T00:00:00+00:00",
     "$2b$31$1sbt04UyZCY4SuY9o823huVVxYKJuaYkGACcMTjAFIhjKNrWtEkKm", "$2b$10$" + "/" * 53]
)  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -1, 2**63, -(2**63) - 1, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    HOSTILE_STRINGS,
)
KEYS = st.one_of(st.text(max_size=6), st.sampled_from(["$set", "a.b", "\ud800", "", "id", "en"]))
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=12,
)


def nested(levels: int) -> Any:
    value: Any = "deep"
    for _ in range(levels):
        value = {"d": value}
    return value


# Mostly ordinary values; one in ten nested around the limit of rules.MAX_NESTING.
VALUES = st.integers(min_value=0, max_value=9).flatmap(
    lambda k: st.integers(min_value=90, max_value=130).map(nested) if k == 0 else JSON_VALUES
)


def locations(doc: Any, path: tuple = ()) -> list[tuple]:
    """Every member path of `doc` (dict keys and list indexes), the root left out."""
    found = []
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return found
    for key, value in items:
        found.append((*path, key))
        found.extend(locations(value, (*path, key)))
    return found


PLACES = locations(BASE)


def container(doc: Any, path: tuple) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


@st.composite
def fixtures(draw: st.DrawFn) -> dict[str, Any]:
    """The base site with one to three mutations."""
    site = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        place = draw(st.sampled_from(PLACES))
        try:
            parent = container(site, place)
            key = place[-1]
            parent[key]  # noqa: B018 (an earlier mutation may have removed it)
        except (KeyError, IndexError, TypeError):
            continue
        action = draw(st.sampled_from(["replace", "replace", "delete", "duplicate", "add key"]))
        if action == "replace":
            parent[key] = draw(VALUES)
        elif action == "delete":
            del parent[key]
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif isinstance(parent[key], dict):
            parent[key][draw(KEYS)] = draw(VALUES)
    return site


DEMO_URLS = [
    f"{WR}?path=/",
    f"{WR}?path=/about",
    f"{WR}?path=/fr",
    f"{WR}?path=/members&password=letmein",
    f"{WR}?path=/premium",
    f"{WR}?path=/blog",
    "/api/common_content",
    "/api/common_content?_locale=fr",
    "/api/pages",
    "/api/nodes/1",
    "/api/realms/1",
    "/api/docs.json",
]


@pytest.fixture(scope="module")
def target(make_app):
    app = make_app(RESPONSE_CACHE=False)
    return app, app.extensions["cms.store"]


def test_any_fixture_fails_validation_cleanly_or_serves_without_5xx(target, tier):
    app, store = target

    @settings(
        max_examples=EXAMPLES[tier],
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(fixtures())
    def check(site: dict[str, Any]) -> None:
        with app.app_context():
            before = store.live(), store.generations()
            problems = validate_fixture(site)
            if problems:
                assert all(p.path.startswith("$") and p.message for p in problems)
                with pytest.raises(FixtureError):
                    load_site(store, site)
                assert (store.live(), store.generations()) == before
                return
            load_site(store, site, force=True)
            paths = store.db[f"paths_v{store.live()['version']}"].find({}, {"_id": 1})
            loaded = [entry["_id"] for entry in paths.sort("_id", 1).limit(10)]
        client = app.test_client()
        for url in DEMO_URLS:
            response = client.get(url)
            assert response.status_code < 500, (url, response.data[:300])
        for path in loaded:
            response = client.get(WR, query_string={"path": path})
            assert response.status_code < 500, (path, response.data[:300])

    check()
