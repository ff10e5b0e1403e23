"""A load the database fails (docs/operations.md, "Loading"): reported as the database's failure,
never as an invalid fixture and never as a traceback, with the live site unchanged; the load's
own connection (CMS_LOAD_TIMEOUT_MS). Both tiers: the failures are simulated on the Store."""

from __future__ import annotations

import json

import pytest
from pymongo.errors import (
    AutoReconnect,
    BulkWriteError,
    NetworkTimeout,
    ServerSelectionTimeoutError,
    WriteError,
    WTimeoutError,
)

import app.db
from app.db import database_failure, load_timeout_hint, loader_store
from app.factory import create_app
from app.fixture.load import LoadError, load_site, refuses_content
from app.store import Store
from tests.conftest import demo_site


@pytest.fixture
def fresh(make_app):
    app = make_app()
    with app.app_context():
        yield app, app.extensions["cms.store"]


def _state(store: Store) -> tuple:
    return store.live(), store.generations()


def _another_site(tmp_path) -> tuple[dict, str]:
    site = demo_site()
    site["settings"]["site_name"] = "Another site"
    path = tmp_path / "site.json"
    path.write_text(json.dumps(site))
    return site, str(path)


def _fails(error: Exception):
    def fail(*args, **kwargs):
        raise error

    return fail


def test_a_write_that_times_out_is_the_databases_failure_with_the_timeouts_named(
    fresh, monkeypatch, tmp_path
):
    app, store = fresh
    before = _state(store)
    # On the class: on a server, the seed command writes through a connection of its own.
    monkeypatch.setattr(Store, "write_generation", _fails(NetworkTimeout("timed out")))
    _, path = _another_site(tmp_path)
    result = app.test_cli_runner().invoke(args=["seed", path])
    assert result.exit_code == 1
    version = before[0]["version"] + 1
    assert result.output.splitlines()[-2:] == [
        f"{path}: the database failed during the load:"
        f" writing generation v{version} failed, nothing was kept: timed out",
        f"one command of a load may take CMS_LOAD_TIMEOUT_MS ({app.config['LOAD_TIMEOUT_MS']}"
        " ms); a large site on a slow server may need more",
    ]
    assert "invalid site fixture" not in result.output
    assert "Traceback" not in result.output
    assert _state(store) == before


def test_a_lost_connection_before_writing_names_no_timeout(fresh, monkeypatch, tmp_path):
    app, store = fresh
    before = _state(store)
    monkeypatch.setattr(Store, "generations", _fails(AutoReconnect("connection reset")))
    _, path = _another_site(tmp_path)
    result = app.test_cli_runner().invoke(args=["seed", path])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        f"{path}: the database failed during the load:"
        " before writing the new generation (the live site is unchanged): connection reset"
    )
    monkeypatch.undo()
    assert _state(store) == before


def test_a_failed_switch_leaves_the_pointer_and_the_next_load_reuses_the_version(
    fresh, monkeypatch, tmp_path
):
    _, store = fresh
    before = _state(store)
    version = before[0]["version"] + 1
    site, _ = _another_site(tmp_path)
    monkeypatch.setattr(store, "switch", _fails(NetworkTimeout("timed out")))
    with pytest.raises(LoadError) as raised:
        load_site(store, site)
    assert str(raised.value) == (
        f"switching to generation v{version} failed (`make status` shows what is live): timed out"
    )
    assert raised.value.command_timed_out
    assert store.live() == before[0]
    assert version in store.generations()  # written, never live: the next load drops it
    monkeypatch.undo()
    messages: list[str] = []
    report = load_site(store, site, progress=messages.append)
    assert report.version == version
    assert f"dropping generation v{version}, left by an interrupted load" in messages
    assert store.live()["version"] == version


def test_loading_the_live_file_again_drops_a_leftover(fresh, monkeypatch, tmp_path):
    _, store = fresh
    before = _state(store)
    version = before[0]["version"] + 1
    site, _ = _another_site(tmp_path)
    monkeypatch.setattr(store, "switch", _fails(NetworkTimeout("timed out")))
    with pytest.raises(LoadError):
        load_site(store, site)
    monkeypatch.undo()
    assert _state(store) == (before[0], [*before[1], version])  # v<N> left over
    messages: list[str] = []
    report = load_site(store, demo_site(), progress=messages.append)  # the live file
    assert report.unchanged
    assert f"dropping generation v{version}, left by an interrupted load" in messages
    assert _state(store) == before


def test_a_failure_to_drop_older_generations_after_the_switch_is_a_warning(fresh, monkeypatch):
    _, store = fresh
    for name in ("Second", "Third"):  # a live and a previous generation, then an older one
        site = demo_site()
        site["settings"]["site_name"] = name
        load_site(store, site)
    live = store.live()
    monkeypatch.setattr(store, "drop_generation", _fails(AutoReconnect("connection reset")))
    site = demo_site()
    site["settings"]["site_name"] = "Fourth"
    messages: list[str] = []
    report = load_site(store, site, progress=messages.append)
    assert report.version == live["version"] + 1
    assert store.live()["version"] == report.version
    assert report.warnings == [
        "dropping older generations failed, the next load drops them: connection reset"
    ]
    assert not any("dropping older" in message for message in messages)  # not progress
    assert live["previous"]["version"] in store.generations()


def test_the_seed_command_prints_a_loads_warning_on_stderr(fresh, monkeypatch, tmp_path):
    app_, store = fresh
    site = demo_site()
    site["settings"]["site_name"] = "Second"
    load_site(store, site)  # the live generation becomes the previous one, the first is older
    # on the class: on a server the seed command writes through a Store of its own
    monkeypatch.setattr(Store, "drop_generation", _fails(AutoReconnect("connection reset")))
    _, path = _another_site(tmp_path)
    result = app_.test_cli_runner().invoke(args=["seed", path])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == (
        "warning: dropping older generations failed, the next load drops them: connection reset"
    )
    assert "dropping older" not in result.stdout
    assert result.stdout.splitlines()[-1].startswith("loaded generation v")


def test_a_server_selection_error_is_shown_without_its_topology():
    error = ServerSelectionTimeoutError(
        "127.0.0.1:27999: [Errno 111] Connection refused (configured timeouts: connectTimeoutMS: "
        "3000.0ms), Timeout: 3.0s, Topology Description: <TopologyDescription id: 1, servers: "
        "[<ServerDescription ('127.0.0.1', 27999) server_type: Unknown>]>"
    )
    assert database_failure(error) == (
        "127.0.0.1:27999: [Errno 111] Connection refused (configured timeouts: connectTimeoutMS: "
        "3000.0ms)"
    )
    assert database_failure(AutoReconnect("x" * 400)) == "x" * 299 + "…"


def test_site_status_reports_a_failing_database_in_one_line(fresh, monkeypatch):
    app, _ = fresh
    monkeypatch.setattr(Store, "live", _fails(AutoReconnect("connection refused")))
    for args in (["site", "status"], ["site", "rollback"]):
        result = app.test_cli_runner().invoke(args=args)
        assert result.exit_code == 1
        assert result.output.splitlines()[-1] == "the database failed: connection refused"
        assert "Traceback" not in result.output


@pytest.mark.parametrize(("setting", "seconds"), [(None, 600.0), (120000, 120.0), (0, None)])
def test_a_load_writes_through_a_connection_whose_commands_wait_the_load_timeout(setting, seconds):
    # No server is needed: a client connects when it first sends a command.
    config = {"MONGODB_URI": "mongodb://127.0.0.1:1/", "MONGODB_TIMEOUT_MS": 2000}
    if setting is not None:
        config["LOAD_TIMEOUT_MS"] = setting
    app = create_app(config)
    with app.app_context():
        served = app.extensions["cms.store"].db.client.options.pool_options
        with loader_store() as store:
            options = store.db.client.options.pool_options
            assert options.socket_timeout == seconds
            assert options.connect_timeout == 2.0
            assert store.db.client.options.server_selection_timeout == 2.0
        assert served.socket_timeout == 10.0  # the request path's: 3 x 2 s, at least 10 s
        app.extensions["cms.store"].db.client.close()


def test_the_embedded_store_is_loaded_in_place():
    app = create_app({"MONGODB_URI": None})
    with app.app_context(), loader_store() as store:
        assert store is app.extensions["cms.store"]


def test_the_seed_command_writes_through_the_loaders_store(fresh, monkeypatch, tmp_path):
    app_, store = fresh
    used = []
    real = app.db.loader_store

    def recorded():
        used.append(True)
        return real()

    monkeypatch.setattr(app.db, "loader_store", recorded)
    _, path = _another_site(tmp_path)
    result = app_.test_cli_runner().invoke(args=["seed", path])
    assert result.exit_code == 0, result.output
    assert used == [True]
    assert store.live()["fixture"] == "site.json"


def test_a_rollback_whose_write_fails_says_it_may_have_been_made(fresh, monkeypatch):
    app_, store = fresh
    site = demo_site()
    site["settings"]["site_name"] = "Second"
    load_site(store, site)
    live = store.live()
    monkeypatch.setattr(Store, "switch_from", _fails(NetworkTimeout("timed out")))
    result = app_.test_cli_runner().invoke(args=["site", "rollback"])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "the database failed during the rollback: its write failed and may have been made"
        " (`make status` shows what is live): timed out"
    )
    monkeypatch.undo()
    assert store.live() == live


def _bulk(**details) -> BulkWriteError:
    return BulkWriteError({"writeErrors": [], "writeConcernErrors": [], **details})


@pytest.mark.parametrize(
    ("error", "refused"),
    [
        (WriteError("document refused", 2), True),
        (_bulk(writeErrors=[{"index": 0, "code": 2, "errmsg": "refused"}]), True),
        (WriteError("operation exceeded time limit", 50), False),
        (_bulk(writeErrors=[{"index": 0, "code": 50, "errmsg": "time limit"}]), False),
        (_bulk(writeConcernErrors=[{"code": 91, "errmsg": "shutdown in progress"}]), False),
        (
            _bulk(
                writeErrors=[{"index": 0, "code": 2, "errmsg": "refused"}],
                writeConcernErrors=[{"code": 64, "errmsg": "waiting for replication timed out"}],
            ),
            False,
        ),
        (NetworkTimeout("timed out"), False),
        (AutoReconnect("connection reset"), False),
    ],
)
def test_only_write_errors_alone_are_the_fixtures_problem(error, refused):
    assert refuses_content(error) is refused


@pytest.mark.parametrize(
    ("error", "timed_out"),
    [
        (NetworkTimeout("timed out"), True),
        (ServerSelectionTimeoutError("no server"), False),
        (WTimeoutError("waiting for replication timed out", 64), False),
        (AutoReconnect("connection reset"), False),
    ],
)
def test_the_load_timeout_is_named_only_when_one_command_ran_out_of_it(error, timed_out):
    assert LoadError("a step", error).command_timed_out is timed_out


def test_the_load_timeout_hint_says_when_there_is_no_limit():
    assert load_timeout_hint(0) == (
        "one command of a load may take CMS_LOAD_TIMEOUT_MS (no limit); a large site on a slow"
        " server may need more"
    )
