"""The database connection's life: MongoDB from MONGODB_URI, else an embedded in-process store;
and the commands that work on it (`flask seed`, `flask site status|rollback`: `make seed`,
`make status`, `make rollback`)."""

from __future__ import annotations

import functools
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import pymongo
from flask import Flask, current_app
from flask.cli import with_appcontext
from pymongo import uri_parser
from pymongo.errors import ConfigurationError, PyMongoError

from app.config import DEFAULT_DATABASE, ConfigError
from app.embedded import embedded_database, warn_if_too_large
from app.fixture.load import (
    FixtureError,
    LoadError,
    RollbackError,
    load_site,
    read_fixture,
    rollback,
)
from app.metrics import COMMANDS
from app.site_status import render_status, servable, site_status
from app.store import Store

# The password of a URI's credentials (`scheme://user:password@`, to the last `@`), even in a
# malformed URI.
URI_PASSWORD = re.compile(r"://[^:/@]*:([^/]*)@")


def check_uri(uri: str | None) -> None:
    """Refuse a MONGODB_URI that pymongo cannot parse or, for mongodb+srv://, resolve (DNS is
    asked here, before any connection), without connecting: gunicorn's master checks it before
    it starts a worker."""
    if not uri:
        return
    try:
        uri_parser.parse_uri(uri)
    except (ConfigurationError, ValueError) as error:
        raise refused_uri(uri, error) from error


# MongoDB's own databases: a URI written `mongodb://host/admin` for authentication must not make
# the service load its collections there.
SYSTEM_DATABASES = frozenset({"admin", "local", "config"})


def refused_uri(uri: str, error: Exception) -> ConfigError:
    """pymongo's reason (a port out of range is its ValueError), never the URI's password."""
    message = str(error)[:300]
    password = URI_PASSWORD.search(uri)
    if password and password.group(1):
        message = message.replace(password.group(1), "***")
    return ConfigError(f"MONGODB_URI: {message}")


def connect(app: Flask) -> Store:
    """A Store on the configured server, or on mongomock seeded from SITE_FIXTURE."""
    if app.config["MONGODB_URI"]:
        timeout = int(app.config["MONGODB_TIMEOUT_MS"])
        return server_store(
            app, socket_timeout_ms=max(timeout * 3, 10000), appname="cms-delivery-api"
        )
    store = Store(embedded_database(app.config["MONGODB_DB"] or DEFAULT_DATABASE))
    fixture = app.config["SITE_FIXTURE"]
    try:
        report = load_site(store, read_fixture(fixture), name=Path(fixture).name)
    except FixtureError as error:
        # the problems, as `flask seed` prints them: click shows the message without a traceback
        raise click.ClickException(f"{fixture}: {error.report()}") from error
    except LoadError as error:
        raise click.ClickException(f"{fixture}: {LOAD_FAILED}: {error}") from error
    app.logger.info("embedded store: %s", report.summary())
    for warning in report.warnings:
        app.logger.warning("embedded store: %s", warning)
    warn_if_too_large(app.logger, report.counts.get("sources", 0))
    return store


def server_store(app: Flask, *, socket_timeout_ms: int | None, appname: str) -> Store:
    """A Store on MONGODB_URI whose commands may each take `socket_timeout_ms` (None: no limit);
    `appname` tells its connections apart in the server's logs and currentOp."""
    timeout = int(app.config["MONGODB_TIMEOUT_MS"])
    try:
        client: pymongo.MongoClient[dict[str, Any]] = pymongo.MongoClient(
            app.config["MONGODB_URI"],
            tz_aware=True,
            serverSelectionTimeoutMS=timeout,
            connectTimeoutMS=timeout,
            socketTimeoutMS=socket_timeout_ms,
            appname=appname,
            # pymongo command monitoring: per-request counts and times (app.metrics); tests and
            # the benchmark add their own listeners
            event_listeners=[COMMANDS, *(app.config.get("MONGODB_EVENT_LISTENERS") or [])],
        )
    except (ConfigurationError, ValueError) as error:
        raise refused_uri(app.config["MONGODB_URI"], error) from error
    named = app.config["MONGODB_DB"]  # else the URI's (`mongodb://host/<database>`), else cms
    database = client[named] if named else client.get_default_database(DEFAULT_DATABASE)
    if database.name in SYSTEM_DATABASES:
        client.close()
        setting = "MONGODB_DB" if named else "MONGODB_URI"
        raise ConfigError(
            f'{setting} names database "{database.name}", one of MongoDB\'s own, which the '
            "service never writes to: set MONGODB_DB (cms, say) or name another database in the "
            "URI; to authenticate against admin, add ?authSource=admin to the URI"
        )
    return Store(database)


@contextmanager
def loader_store() -> Iterator[Store]:
    """The Store a load writes with: on a server, a connection of its own whose commands may
    each take CMS_LOAD_TIMEOUT_MS, closed after the load; the embedded store is the process's."""
    if not current_app.config["MONGODB_URI"]:
        yield get_store()
        return
    limit = int(current_app.config["LOAD_TIMEOUT_MS"])
    store = server_store(
        current_app,
        socket_timeout_ms=limit if limit > 0 else None,
        appname="cms-delivery-api-load",
    )
    try:
        yield store
    finally:
        store.db.client.close()


def get_store() -> Store:
    return current_app.extensions["cms.store"]


def init_app(app: Flask) -> None:
    app.extensions["cms.store"] = connect(app)
    app.cli.add_command(seed_command)
    app.cli.add_command(site_group)


def _warn_if_embedded() -> None:
    if not current_app.config["MONGODB_URI"]:
        click.echo(
            "warning: MONGODB_URI is not set; this is the embedded store of this process,"
            " which is lost when it exits",
            err=True,
        )


def database_failure(error: PyMongoError) -> str:
    """pymongo's reason in one line: without the topology description a server selection error
    appends (`, Timeout: 3.0s, Topology Description: <...>`), at most 300 characters."""
    reason = str(error).split(", Timeout: ")[0].split(", Topology Description: ")[0]
    return reason if len(reason) <= 300 else reason[:299] + "…"


def _database_errors_reported(command: Callable[..., None]) -> Callable[..., None]:
    """A command whose database failure is one line and exit status 1, never a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except PyMongoError as error:
            click.echo(f"the database failed: {database_failure(error)}", err=True)
            sys.exit(1)

    return run


@click.command("seed")
@with_appcontext
@_database_errors_reported
@click.argument("fixture", required=False)
@click.option("--force", is_flag=True, help="Rewrite even when this file is already live.")
def seed_command(fixture: str | None, force: bool) -> None:
    """Load a site fixture into the configured database (replaces the site)."""
    _warn_if_embedded()
    path = fixture or current_app.config["SITE_FIXTURE"]
    started = time.monotonic()
    try:
        doc = read_fixture(path)
        with loader_store() as store:
            if current_app.config["MONGODB_URI"]:  # a server that does not answer: before any work
                store.db.client.admin.command("ping")
            click.echo(f"  database {store.db.name}")
            report = load_site(
                store,
                doc,
                force=force,
                name=Path(path).name,
                progress=lambda m: click.echo(f"  {m}"),
            )
    except FixtureError as error:
        click.echo(f"{path}: {error.report()}", err=True)
        sys.exit(1)
    except LoadError as error:
        click.echo(f"{path}: {LOAD_FAILED}: {error}", err=True)
        if error.command_timed_out:
            click.echo(load_timeout_hint(current_app.config["LOAD_TIMEOUT_MS"]), err=True)
        sys.exit(1)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"{report.summary()} (in {time.monotonic() - started:.1f} s)")


LOAD_FAILED = "the database failed during the load"


def load_timeout_hint(limit_ms: int | str) -> str:
    """What bounds one command of a load, for a load that timed out."""
    limit = f"{limit_ms} ms" if int(limit_ms) > 0 else "no limit"
    return (
        f"one command of a load may take CMS_LOAD_TIMEOUT_MS ({limit}); a large site on a slow"
        " server may need more"
    )


@click.group("site")
def site_group() -> None:
    """Inspect the live site generation, or roll back to the previous one."""


@site_group.command("status")
@with_appcontext
@_database_errors_reported
@click.option("--json", "as_json", is_flag=True, help="Print the status as one JSON document.")
def status_command(as_json: bool) -> None:
    """The live generation, the previous one kept, document counts, generations present."""
    _warn_if_embedded()
    status = site_status(get_store())
    if as_json:
        click.echo(json.dumps(status, indent=2))
    else:
        for line in render_status(status):
            click.echo(line)
    if not servable(status):  # no site, or one requests answer 503 for (/readyz too)
        sys.exit(1)


@site_group.command("rollback")
@with_appcontext
@_database_errors_reported
def rollback_command() -> None:
    """Make the previous generation live again (one write); the one live until now becomes the
    previous one, so running it again goes forward."""
    _warn_if_embedded()
    try:
        pointer = rollback(get_store())
    except RollbackError as error:
        click.echo(f"rollback refused: {error}", err=True)
        sys.exit(1)
    except LoadError as error:
        click.echo(f"the database failed during the rollback: {error}", err=True)
        sys.exit(1)
    click.echo(
        f"generation v{pointer['version']} is live again"
        f" (v{pointer['previous']['version']} is now the previous generation)"
    )
