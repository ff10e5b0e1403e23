"""Operating the live pointer: `site status`, contiguous versions, `site rollback`, /readyz."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from pymongo.errors import OperationFailure

from app.db import get_store
from app.fixture.load import fixture_sha256, load_site
from app.store import KINDS, LAYOUT
from tests.conftest import demo_site
from tests.helpers import get_path, node


@pytest.fixture
def fresh(make_app):
    """An app on its own database, with the demo site loaded once more as `demo.json`."""
    app = make_app()
    with app.app_context():
        store = get_store()
        load_site(store, demo_site(), force=True, name="demo.json")
        yield app, store


def edited_site(title: str):
    site = demo_site()
    node(site, "about")["sources"]["en"]["title"] = title
    return site


def run(app, *args: str):
    return app.test_cli_runner().invoke(args=["site", *args])


def test_the_pointer_records_the_previous_generation_and_the_fixture(fresh):
    _, store = fresh
    before = store.live()
    load_site(store, edited_site("About the city"), name="edited.json")
    live = store.live()
    assert live["version"] == before["version"] + 1
    assert live["fixture"] == "edited.json"
    assert live["sha256"] == fixture_sha256(edited_site("About the city"))
    assert live["layout"] == LAYOUT == 16
    assert live["previous"] == {
        "version": before["version"],
        "layout": LAYOUT,
        "sha256": before["sha256"],
        "fixture": "demo.json",
        "loaded_at": before["loaded_at"],
        "counts": before["counts"],
    }
    assert store.generations() == [before["version"], live["version"]]


def test_status_prints_live_previous_counts_and_generations(fresh):
    app, store = fresh
    live = store.live()
    result = run(app, "status")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    version, previous = live["version"], live["previous"]["version"]
    assert lines[0] == f"database:    {store.db.name}"
    assert lines[1].startswith(f"live:        v{version}, fixture demo.json (sha256 ")
    assert lines[2] == f"  sha256:    {live['sha256']}"
    assert lines[3].startswith("  documents: translations 3, settings 13, node_types 9,")
    assert lines[4].startswith(f"previous:    v{previous}, fixture ")
    assert lines[4].endswith(", kept")
    assert lines[5] == f"generations: v{previous} (previous), v{version} (live)"


def test_status_json_holds_the_same(fresh):
    app, store = fresh
    live = store.live()
    result = run(app, "status", "--json")
    assert result.exit_code == 0, result.output
    status = json.loads(result.stdout)
    assert status["database"] == store.db.name
    assert status["live"]["version"] == live["version"]
    assert status["live"]["fixture"] == "demo.json"
    assert status["live"]["sha256"] == live["sha256"]
    assert datetime.fromisoformat(status["live"]["loaded_at"]) <= datetime.now(UTC)
    assert list(status["live"]["counts"]) == list(KINDS)
    assert status["live"]["counts"] == live["counts"]  # counted in the database
    assert status["previous"]["version"] == live["previous"]["version"]
    assert status["generations"] == [
        {"version": live["previous"]["version"], "role": "previous"},
        {"version": live["version"], "role": "live"},
    ]


def test_a_real_server_counts_by_collstats(fresh, tier):
    """The status counts without reading documents where the engine can (app.store._stored_count:
    FerretDB's estimated count reads every one); mongomock has no such stage and falls back."""
    _, store = fresh
    translations = store.db[f"translations_v{store.live()['version']}"]
    stage = [{"$collStats": {"count": {}}}]
    if tier == "ferretdb":
        assert [entry["count"] for entry in translations.aggregate(stage)] == [3]
    else:
        with pytest.raises((NotImplementedError, OperationFailure)):
            list(translations.aggregate(stage))


def test_an_interrupted_loads_leftovers_are_dropped_and_its_number_reused(fresh):
    app, store = fresh
    live = store.live()
    leftover = live["version"] + 1
    store.write_generation(leftover, {"translations": [{"_id": "xx"}]})  # never switched to
    status = json.loads(run(app, "status", "--json").stdout)
    assert status["generations"][-1] == {
        "version": leftover,
        "role": "leftover (dropped by the next load)",
    }
    report = load_site(store, edited_site("About the city"))
    assert report.version == leftover  # reused: versions stay contiguous
    assert store.generations() == [live["version"], leftover]
    assert store.dump_generation(leftover)["translations"] != [{"_id": "xx"}]


def test_rollback_switches_to_the_previous_generation_and_back(fresh):
    app, store = fresh
    load_site(store, edited_site("About the town"), name="edited.json")
    client = app.test_client()
    assert get_path(client, "/about").json["item"]["title"] == "About the town"
    forward = store.live()

    result = run(app, "rollback")
    assert result.exit_code == 0, result.output
    back = forward["previous"]["version"]
    assert f"generation v{back} is live again (v{forward['version']} is now" in result.output
    live = store.live()
    assert live["version"] == back and live["fixture"] == "demo.json"
    assert live["previous"]["version"] == forward["version"]
    assert live["previous"]["fixture"] == "edited.json"
    assert get_path(client, "/about").json["item"]["title"] == "About us"
    assert client.get("/readyz").json["generation"] == back
    assert store.generations() == [back, forward["version"]]  # nothing dropped

    assert run(app, "rollback").exit_code == 0  # forward again
    assert store.live()["version"] == forward["version"]
    assert get_path(client, "/about").json["item"]["title"] == "About the town"


def test_a_load_after_a_rollback_keeps_the_live_generation_as_previous(fresh):
    _, store = fresh
    load_site(store, edited_site("About the town"))
    assert run(fresh[0], "rollback").exit_code == 0
    live = store.live()
    said = []
    report = load_site(store, edited_site("About the city"), progress=said.append)
    assert report.version == max(live["version"], live["previous"]["version"]) + 1
    assert store.live()["previous"]["version"] == live["version"]
    # the generation rolled back from is newer than the one kept as previous: dropped all the same
    dropped = live["previous"]["version"]
    assert said[-1] == (
        f"dropped generation v{dropped} (neither live, v{report.version}, nor previous, "
        f"v{live['version']})"
    )
    assert store.generations() == [live["version"], report.version]


def test_rollback_without_a_previous_generation_is_refused(make_app):
    app = make_app()
    with app.app_context():
        store = get_store()
        live = store.live()
        live.pop("previous", None)
        store.switch({k: v for k, v in live.items() if k != "_id"})  # a first load's pointer
        result = run(app, "rollback")
        assert result.exit_code == 1
        assert f"rollback refused: generation v{live['version']} has no previous generation" in (
            result.output
        )
        assert store.live()["version"] == live["version"]


def test_rollback_to_a_dropped_generation_is_refused(fresh):
    app, store = fresh
    previous = store.live()["previous"]["version"]
    store.drop_generation(previous)
    result = run(app, "rollback")
    assert result.exit_code == 1
    assert f"the previous generation v{previous} is no longer in the database" in result.output


def test_a_live_generation_lacking_a_collection_is_not_served(fresh):
    """A collection dropped by hand: requests and /readyz answer 503 naming it, `site status`
    exits 1, and a rollback to the previous generation serves again (and refuses to come back)."""
    app, store = fresh
    live = store.live()
    version, previous = live["version"], live["previous"]["version"]
    store.db[f"translations_v{version}"].drop()
    client = app.test_client()
    for response in (get_path(client, "/about"), client.get("/readyz")):
        assert response.status_code == 503
        assert response.mimetype == "application/problem+json"
        assert response.json["detail"] == (
            f"The live site cannot be served: generation v{version} lacks 1 of its collections "
            f"(translations_v{version}). Load the site again (`make seed`) or make the previous "
            "generation live (`make rollback`)."
        )
    result = run(app, "status")
    assert result.exit_code == 1
    assert (
        f"  MISSING:   translations_v{version}; requests answer 503 until the site is loaded "
        "again (`make seed`)"
    ) in result.stdout.splitlines()
    assert json.loads(run(app, "status", "--json").stdout)["live"]["missing"] == [
        f"translations_v{version}"
    ]

    assert run(app, "rollback").exit_code == 0
    assert get_path(client, "/about").status_code == 200
    status = run(app, "status")
    assert status.exit_code == 0
    assert status.stdout.splitlines()[-2].endswith(
        f", lacks translations_v{version}: rollback refused"
    )
    result = run(app, "rollback")
    assert result.exit_code == 1
    assert f"the previous generation v{version} lacks translations_v{version}" in result.output
    assert store.live()["version"] == previous


def test_readyz_names_the_generation_served_and_its_age(fresh):
    app, store = fresh
    client = app.test_client()
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json
    live = store.live()
    assert set(body) == {"status", "generation", "loaded_at", "age_seconds"}
    assert body["status"] == "ready"
    assert body["generation"] == live["version"]
    loaded_at = datetime.fromisoformat(body["loaded_at"])
    assert abs(loaded_at - live["loaded_at"].replace(tzinfo=UTC)).total_seconds() < 0.001
    assert 0 <= body["age_seconds"] <= (datetime.now(UTC) - loaded_at).total_seconds()
    assert response.headers["Cache-Control"] == "no-store"
    load_site(store, edited_site("About the city"))
    assert client.get("/readyz").json["generation"] == live["version"] + 1


def test_the_seed_command_records_the_fixture_file_name(fresh, tmp_path):
    app, store = fresh
    path = tmp_path / "town-site.json"
    path.write_text(json.dumps(edited_site("About the town")), encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["seed", str(path)])
    assert result.exit_code == 0, result.output
    live = store.live()
    assert live["fixture"] == "town-site.json"
    assert live["previous"]["fixture"] == "demo.json"


def written_with_layout(store, layout: int | None) -> dict:
    """The live pointer as a version of the service writing `layout` (None: before the pointer
    had one) would have left it; the new pointer."""
    live = {k: v for k, v in store.live().items() if k not in ("_id", "layout")}
    store.switch(live if layout is None else {**live, "layout": layout})
    return store.live()


@pytest.mark.parametrize(
    ("layout", "written"), [(None, "an older"), (1, "an older"), (LAYOUT + 1, "a newer")]
)
def test_a_generation_of_another_layout_is_not_served_until_loaded_again(fresh, layout, written):
    app, store = fresh
    live = written_with_layout(store, layout)
    version, shown = live["version"], layout or 1
    reason = (
        f"generation v{version} was written by {written} version of the service "
        f"(layout {shown}; this version reads layout {LAYOUT})"
    )
    client = app.test_client()
    for response in (get_path(client, "/about"), client.get("/readyz")):
        assert response.status_code == 503
        assert response.mimetype == "application/problem+json"
        assert response.json["detail"] == (
            f"The live site cannot be served: {reason}. Load the site again with this version "
            "(`make seed`)."
        )

    status = json.loads(run(app, "status", "--json").stdout)
    assert (status["live"]["layout"], status["live"]["unreadable"]) == (shown, reason)
    result = run(app, "status")
    assert result.exit_code == 1  # as /readyz: a monitor reading the exit code sees it
    lines = result.stdout.splitlines()
    assert lines[4] == (
        f"  layout:    UNREADABLE: {reason}; requests answer 503 until the site is loaded again "
        "(`make seed`)"
    )

    # the same fixture again, without --force: written anew, with this layout
    report = load_site(store, demo_site(), name="demo.json")
    assert (report.unchanged, report.version) == (False, version + 1)
    assert store.live()["layout"] == LAYOUT
    assert store.live()["previous"]["layout"] == shown
    assert get_path(client, "/about").json["item"]["title"] == "About us"
    assert load_site(store, demo_site(), name="demo.json").unchanged  # now it is the same

    # and the generation of the other layout is not made live again
    result = run(app, "rollback")
    assert result.exit_code == 1
    assert (
        f"rollback refused: the previous {reason}: load its fixture again instead" in result.output
    )
    assert store.live()["version"] == version + 1
    assert (
        run(app, "status")
        .stdout.splitlines()[4]
        .endswith(f", kept (layout {shown}: rollback refused)")
    )
