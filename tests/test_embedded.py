"""The embedded store (app/embedded.py) answers every query as mongomock does, only faster."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import mongomock
import pytest

from app import create_app, embedded
from app.embedded import IndexedCollection, embedded_database
from app.fixture.load import load_site
from app.publication import Visibility
from app.store import LISTED, WITHOUT_CHILDREN, Store
from tests.conftest import JWT_SECRET, demo_site

NOW = datetime(2025, 1, 1, tzinfo=UTC)
PUBLIC = {"node.status": {"$in": ["published"]}, "published_at": {"$lte": NOW}}
QUERIES = [
    ({"_id": 1101}, None, None),
    ({"_id": {"$in": [1102, 1101, 99, 1102]}}, WITHOUT_CHILDREN, None),
    ({"node_id": {"$in": [11, 12, 19, 26]}, "locale": "en", **PUBLIC, "node.visible": True},
     LISTED, None),
    ({"node_id": {"$in": [26, 19]}, "locale": {"$in": ["fr", "en"]}}, None, None),
    ({"locale": "en", "type": "Article", **PUBLIC}, None, [("published_at", -1), ("_id", -1)]),
    ({"locale": "fr", "type": {"$in": ["Menu", "Footer"]}, "node.parent": None, **PUBLIC},
     None, [("node.position", 1)]),
    ({"node.home": True}, None, None),
    ({"node.node_name": {"$in": ["privacy", "legal"]}},
     {"_id": 1, "locale": 1, "url": 1, "node": 1, "published_at": 1}, None),
    ({"published_at": {"$gt": NOW}}, {"_id": 0, "published_at": 1}, None),
    ({"locale": "en", "node.tag_ids": {"$all": [1, 4]}}, None, [("_id", 1)]),
    ({"url": "/about"}, None, None),
]  # fmt: skip


@pytest.fixture(scope="module")
def databases():
    indexed, plain = embedded_database("cms"), mongomock.MongoClient(tz_aware=True)["cms"]
    for database in (indexed, plain):
        load_site(Store(database), demo_site())
    return indexed, plain


@pytest.mark.parametrize(("filter_", "projection", "sort"), QUERIES)
def test_the_embedded_store_answers_as_mongomock(databases, filter_, projection, sort):
    indexed, plain = databases
    version = Store(indexed).live()["version"]
    collection = f"sources_v{version}"
    assert isinstance(indexed[collection], IndexedCollection)

    def run(database):
        cursor = database[collection].find(filter_, projection)
        return list(cursor.sort(sort) if sort else cursor)

    found = run(indexed)
    assert found == run(plain)
    assert found, filter_  # every query of the list finds something


def test_results_are_copies(databases):
    indexed, _ = databases
    version = Store(indexed).live()["version"]
    sources = indexed[f"sources_v{version}"]
    for projection in (None, LISTED):
        first = sources.find_one({"_id": 1101}, projection)
        first["node"]["tag_ids"].append(99)
        first["title"] = "changed"
        again = sources.find_one({"_id": 1101}, projection)
        assert again["title"] != "changed" and 99 not in again["node"]["tag_ids"]


def test_a_generation_reads_the_same_on_both(databases):
    indexed, plain = databases
    reads = []
    for database in (indexed, plain):
        store = Store(database)
        generation = store.generation(store.live()["version"])
        visibility = Visibility(now=NOW)
        reads.append(
            [
                generation.homes(),
                generation.sources_of_nodes([11, 19, 26, 31], "en", visibility),
                generation.feed(node_type="Article", locale="en", visibility=visibility,
                                tag_ids=[1], exclude_source=None, limit=3),
                generation.sources_page({"type": "Article", "locale": "en",
                                         "node.realm_ids": {"$nin": [1]},
                                         "node.tag_ids": 1, "title": {"$regex": "e",
                                                                      "$options": "i"}},
                                        visibility, sort=[("node.position", -1), ("_id", -1)],
                                        skip=1, limit=3, index="position"),
                [generation.postings(f"{word}|en|public|0") for word in ("jazz", "market", "x")],
                generation.search_hits([2101, 6201, 6501, 3201, 99999], visibility),
            ]
        )  # fmt: skip
    assert reads[0] == reads[1]


def test_other_collections_are_plain_mongomock(databases):
    indexed, _ = databases
    assert type(indexed["site"]) is mongomock.Collection


def serve_embedded(tmp_path):
    fixture = tmp_path / "site.json"
    fixture.write_text(json.dumps(demo_site()), encoding="utf-8")
    return create_app({"MONGODB_URI": None, "SITE_FIXTURE": str(fixture), "JWT_SECRET": JWT_SECRET})


def test_start_up_warns_above_the_size_the_embedded_store_is_meant_for(
    tmp_path, monkeypatch, caplog
):
    sources = load_site(Store(embedded_database("count")), demo_site()).counts["sources"]
    monkeypatch.setattr(embedded, "SOURCE_LIMIT", sources - 1)
    with caplog.at_level(logging.WARNING):
        serve_embedded(tmp_path)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        f"the embedded store holds {sources} source documents, more than the {sources - 1} it is "
        "meant for: start-up "
        "is slow and every worker keeps its own copy in memory; set MONGODB_URI to serve this "
        "site from MongoDB (see docs/performance.md)"
    ]


def test_no_warning_up_to_the_limit(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        serve_embedded(tmp_path)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
