"""The database connection's life: MongoDB from MONGODB_URI, else an embedded in-process store."""

from __future__ import annotations

import sys

import click
import pymongo
from flask import Flask, current_app
from flask.cli import with_appcontext

from app.embedded import embedded_database, warn_if_too_large
from app.fixture.load import FixtureError, load_site, read_fixture
from app.store import Store


def connect(app: Flask) -> Store:
    """A Store on the configured server, or on mongomock seeded from SITE_FIXTURE."""
    uri = app.config["MONGODB_URI"]
    timeout = int(app.config["MONGODB_TIMEOUT_MS"])
    if uri:
        client = pymongo.MongoClient(
            uri,
            tz_aware=True,
            serverSelectionTimeoutMS=timeout,
            connectTimeoutMS=timeout,
            socketTimeoutMS=max(timeout * 3, 10000),
            appname="cms-delivery-api",
            # pymongo command monitoring (tests and the benchmark count commands with it)
            event_listeners=app.config.get("MONGODB_EVENT_LISTENERS") or [],
        )
        return Store(client[app.config["MONGODB_DB"]])
    store = Store(embedded_database(app.config["MONGODB_DB"]))
    fixture = app.config["SITE_FIXTURE"]
    try:
        report = load_site(store, read_fixture(fixture))
    except FixtureError as error:
        raise RuntimeError(f"{fixture}: {error.report()}") from error
    app.logger.info("embedded store: %s", report.summary())
    warn_if_too_large(app.logger, report.counts.get("sources", 0))
    return store


def get_store() -> Store:
    return current_app.extensions["cms.store"]


def init_app(app: Flask) -> None:
    app.extensions["cms.store"] = connect(app)
    app.cli.add_command(seed_command)


@click.command("seed")
@with_appcontext
@click.argument("fixture", required=False)
@click.option("--force", is_flag=True, help="Rewrite even when this file is already live.")
def seed_command(fixture: str | None, force: bool) -> None:
    """Load a site fixture into the configured database (replaces the site)."""
    if not current_app.config["MONGODB_URI"]:
        click.echo(
            "warning: MONGODB_URI is not set; loading the embedded store of this process,"
            " which is lost when it exits",
            err=True,
        )
    path = fixture or current_app.config["SITE_FIXTURE"]
    store = get_store()
    try:
        doc = read_fixture(path)
        report = load_site(store, doc, force=force, progress=lambda m: click.echo(f"  {m}"))
    except FixtureError as error:
        click.echo(f"{path}: {error.report()}", err=True)
        sys.exit(1)
    click.echo(report.summary())
