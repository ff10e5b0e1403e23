"""Small helpers shared by the HTTP tests."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app.api import hygiene
from app.listing import plain
from app.query_plan import ALL_TYPES

WR = "/api/web_response_by_path"
# The demo site's social and colour settings, as every head shows them.
DEMO_SOCIAL_HEAD = {
    "mainColor": "#00aaff",
    "facebookUrl": "https://www.facebook.com/demosite",
    "instagramUrl": "https://www.instagram.com/demosite",
    "twitterUrl": "https://twitter.com/demosite",
    "youtubeUrl": "https://www.youtube.com/@demosite",
    "linkedinUrl": "https://www.linkedin.com/company/demosite",
    "tiktokUrl": None,  # the fixture format has no such setting
}
# The translations of the demo site as every node source embeds them (roadiz-read-surface.md §7).
EN = {"@id": "/api/translations/1", "@type": "Translation", "name": "English",
      "defaultTranslation": True, "available": True, "locale": "en"}  # fmt: skip
FR = {"@id": "/api/translations/2", "@type": "Translation", "name": "Français",
      "defaultTranslation": False, "available": True, "locale": "fr"}  # fmt: skip
DE = {"@id": "/api/translations/3", "@type": "Translation", "name": "Deutsch",
      "defaultTranslation": False, "available": False, "locale": "de"}  # fmt: skip


def get_path(client, path: str, **kwargs: Any):
    return client.get(WR, query_string={"path": path}, **kwargs)


def titles(walkers: list[dict[str, Any]]) -> list[Any]:
    """Walker tree as nested [title, [children...]] lists (leaves are bare titles)."""
    out: list[Any] = []
    for walker in walkers:
        title = walker["item"]["title"]
        out.append([title, titles(walker["children"])] if walker["children"] else title)
    return out


def node(site: dict[str, Any], name: str) -> dict[str, Any]:
    return next(n for n in site["nodes"] if n["node_name"] == name)


def problem_detail(response) -> str:
    assert response.mimetype == "application/problem+json", response.data
    return response.json["detail"]


def cold_commands(app, path: str) -> int:
    """Store commands of one warm request for `path` (site model and schemas already built)."""
    client = app.test_client()
    store = app.extensions["cms.store"]
    get_path(client, path)
    before = store.commands
    assert get_path(client, path).status_code == 200
    return store.commands - before


def iris(value: Any, found: set[str]) -> set[str]:
    """Every dereferenceable @id in a response body (blank nodes left out), added to `found`."""
    if isinstance(value, dict):
        iri = value.get("@id")
        if isinstance(iri, str) and not iri.startswith("_:"):
            found.add(iri)
        for child in value.values():
            iris(child, found)
    elif isinstance(value, list):
        for child in value:
            iris(child, found)
    return found


def plain_query(
    node_type: str | list[str],
    locale: Any,
    tag: tuple[str, Any] | dict[str, Any] | None,
    denied: list[int],
    visible: bool | None = None,
    hiding: list[int] | None = None,
    no_index: bool | None = None,
):
    """The filter app/listing/sources.build_query gives a plain collection request: its
    translations, its type (none for ALL_TYPES; several: `$in`), at most one tag or listed parent
    (stored path, value) or both (a dict of them), the nodes' visibility (`node.visible`, None:
    either), the sources' noIndex (`no_index`, None: either), the realms denied to it and those
    whose blocks are hidden from it (`hiding`: the hide_blocks clause) (calendars and listings
    answer it)."""
    query: dict[str, Any] = {"locale": locale}
    if isinstance(node_type, list):
        query["type"] = {"$in": node_type}
    elif node_type != ALL_TYPES:
        query["type"] = node_type
    if isinstance(tag, dict):
        query.update(tag)
    elif tag is not None:
        query[tag[0]] = tag[1]
    if visible is not None:
        query["node.visible"] = visible
    if no_index is not None:
        query["no_index"] = no_index
    if denied:
        query["node.realm_ids"] = {"$nin": denied}
    if hiding:
        query["$and"] = [plain.hide_blocks_clause(hiding)]
    return query


# The life of the tokens a test module mints when it is collected: longer than any run of the
# suite (the FerretDB tier takes over an hour; a token of one hour expired before the last
# modules ran).
TOKEN_LIFE = timedelta(days=1)


def on_the_index(monkeypatch) -> None:
    """Every plain path of collections and archives off (app/listing/plain.py: no scope is
    plain, and no listing serves an order): their requests read the index, as before them."""
    from app.listing import archives, listings, sources

    monkeypatch.setattr(listings, "serves", lambda sort: None)
    monkeypatch.setattr(sources, "site_scope", lambda *args, **kwargs: None)
    monkeypatch.setattr(archives, "site_scope", lambda *args, **kwargs: None)


def recording_listing_reads(monkeypatch) -> list[list[str]]:
    """The `_id`s of each read of listing documents (Generation.listing_chunks: one command
    each), in order, for the rest of the test."""
    from app.store import Generation

    asked: list[list[str]] = []
    read = Generation.listing_chunks
    monkeypatch.setattr(Generation, "listing_chunks",
                        lambda self, ids: asked.append(list(ids)) or read(self, ids))  # fmt: skip
    return asked


def freeze_request_clock(monkeypatch, moment: datetime) -> None:
    """Requests are made at `moment` (the `now` of app/api/hygiene.py's request context)."""

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return moment

    monkeypatch.setattr(hygiene, "datetime", Frozen)


def sample(cases: list, tier: str, step: int = 12, start: int = 0) -> list:
    """Every case on the mongomock tier; every `step`-th from `start` (modulo their number) on
    FerretDB, where each query reads its collection whole (the shapes are checked there; the
    cases are checked exhaustively here). The default step keeps 7 of the 84 moments of the
    demo site; a test's rotations (preview, translations, realms, node.visible, orders) still
    take every value on that tier."""
    return cases if tier == "mongomock" else cases[start % max(len(cases), 1) :: step]
