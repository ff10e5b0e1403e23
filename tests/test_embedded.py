"""The embedded store (app/embedded.py) answers every query as mongomock does, only faster."""

from __future__ import annotations

import copy
import json
import logging
import os
import subprocess
import sys
from datetime import UTC, datetime

import mongomock
import pytest
from mongomock.collection import Cursor as MongomockCursor
from mongomock.filtering import filter_applies

from app import create_app, embedded
from app.embedded import IndexedCollection, embedded_database, matching
from app.embedded.cursor import GenerationCursor
from app.fixture.load import load_site
from app.publication import Visibility
from app.store import LISTED, WITHOUT_CHILDREN, Store
from tests.conftest import JWT_SECRET, demo_site
from tests.test_indexes import (
    CREDENTIALS,
    crawl,  # noqa: F401 - the crawl of every endpoint, reused
)

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


def test_results_are_shared_and_read_only(databases):
    """A generation's documents are read without a copy: every read of a document under one
    projection is the same read-only object, writes to it raise, and copies are plain."""
    indexed, _ = databases
    version = Store(indexed).live()["version"]
    sources = indexed[f"sources_v{version}"]
    for projection in (None, LISTED):
        first = sources.find_one({"_id": 1101}, projection)
        assert sources.find_one({"_id": 1101}, projection) is first
        writes = [
            lambda d: d["node"]["tag_ids"].append(99),
            lambda d: d.__setitem__("title", "changed"),
            lambda d: d.update(title="changed"),
            lambda d: d["node"].pop("tag_ids"),
            lambda d: d.setdefault("new", 1),
            lambda d: d["node"]["tag_ids"].__iadd__([99]),
            lambda d: d.__delitem__("title"),
        ]
        for write in writes:
            with pytest.raises(TypeError, match="is shared .* cannot be changed"):
                write(first)
        again = sources.find_one({"_id": 1101}, projection)
        assert again["title"] != "changed" and 99 not in again["node"]["tag_ids"]
        copied = copy.deepcopy(first)
        assert type(copied) is dict and type(copied["node"]["tag_ids"]) is list
        assert copied == first and type(copy.copy(first)) is dict
        copied["node"]["tag_ids"].append(99)  # a copy is the caller's own
        assert 99 not in first["node"]["tag_ids"]
    assert sources.find_one({"_id": 1101}, LISTED) is not sources.find_one({"_id": 1101})
    assert "alternates" not in sources.find_one({"_id": 1101}, LISTED)
    included = sources.find_one({"_id": 1101}, {"title": 1})  # inclusion: mongomock's copy
    assert type(included) is dict and set(included) == {"_id", "title"}


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


def test_an_invalid_site_fixture_stops_start_up_with_its_problems_and_no_traceback(tmp_path):
    """`make run` with a bad SITE_FIXTURE prints what `flask seed` prints (click shows a
    ClickException's message alone), and exits 1."""
    site = demo_site()
    site["nodes"][0]["status"] = "live"
    fixture = tmp_path / "bad.json"
    fixture.write_text(json.dumps(site), encoding="utf-8")
    environment = {**os.environ, "MONGODB_URI": "", "SITE_FIXTURE": str(fixture),
                   "JWT_SECRET": JWT_SECRET}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app:create_app", "routes"],
        env=environment, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines() == [
        f"Error: {fixture}: invalid site fixture (1 problem(s)):",
        '$.nodes[0].status: "live" is not one of: draft, pending, published, archived, deleted',
    ]


def test_no_warning_up_to_the_limit(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        serve_embedded(tmp_path)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


# The compiled matcher (app/embedded/matching.py) against mongomock's filter_applies, document by
# document, on shapes the store sends and on shapes it must leave to mongomock.

WHEN = datetime(2024, 5, 1)
DOCUMENTS = [
    {"_id": 1, "a": 1, "s": "x", "d": WHEN, "node": {"status": "published", "tags": [1, 2],
                                                     "parent": None, "position": 2}},
    {"_id": 2, "a": 1.0, "s": "y", "d": None, "node": {"status": "draft", "tags": [],
                                                       "position": 1}},
    {"_id": 3, "a": True, "node": {"status": "pending", "tags": [2, 3], "parent": 7}},
    {"_id": 4, "a": [1, 5], "s": ["x", "z"], "node": None},
    {"_id": 5, "a": "1", "node": [{"status": "published"}, {"status": "draft"}]},
    {"_id": 6, "a": {"b": 1}, "s": 7, "d": datetime(2030, 1, 1), "node": {"tags": [[1, 2], 3]}},
    {"_id": 7, "node": "scalar", "a": [[1], 2], "d": [WHEN, None]},
    {"_id": 8},
]  # fmt: skip
FILTERS = [
    {},
    {"_id": 3},
    {"a": 1},
    {"a": None},
    {"s": "x"},
    {"a": {"$in": [1, None]}},
    {"a": {"$in": ["1", 5]}},
    {"a": {"$nin": [1]}},
    {"a": {"$ne": 1}},
    {"a": {"$ne": None}},
    {"a": {"$eq": 1}},
    {"a": {"$eq": None}},
    {"d": {"$lte": WHEN}},
    {"d": {"$gt": WHEN}},
    {"d": {"$lt": None}},
    {"d": {"$gte": None}},
    {"s": {"$gte": "y"}},
    {"a": {"$gt": 0, "$lt": 2}},
    {"a": {"$gte": True}},
    {"node.status": "published"},
    {"node.status": {"$in": ["published", "draft"]}},
    {"node.status": {"$nin": ["draft"]}},
    {"node.status": {"$ne": "draft"}},
    {"node.parent": None},
    {"node.parent": {"$ne": None}},
    {"node.tags": 2},
    {"node.tags": {"$all": [1, 2]}},
    {"node.tags": {"$all": [3]}},
    {"node.tags": {"$all": []}},
    {"node.tags": {"$in": [3]}},
    {"node.tags": {"$nin": [2]}},
    {"node.position": {"$gt": 1}},
    {"node.missing.deeper": None},
    {"node.missing.deeper": {"$ne": 1}},
    {"$or": [{"a": 1}, {"node.status": "pending"}]},
    {"$and": [{"a": {"$ne": 1}}, {"$or": [{"s": "x"}, {"s": None}]}]},
    {"$or": [{"d": {"$lte": WHEN}, "_id": {"$lt": 3}}, {"d": None}]},
    {"node.status": {"$in": ["published"]}, "d": {"$lte": WHEN}, "node.parent": None},
    {"$comment": "ignored", "_id": {"$in": [1, 2, 99]}},
]
# Shapes the compiled matcher leaves to mongomock: the whole query is read as mongomock reads it.
NOT_COMPILED = [
    {"s": {"$regex": "x"}},
    {"s": {"$regex": "X", "$options": "i"}},
    {"a": {"$exists": True}},
    {"node.tags": {"$elemMatch": {"$gt": 1}}},
    {"a": {"$not": {"$gt": 1}}},
    {"$nor": [{"a": 1}]},
    {"a": {"b": 1}},
    {"a": [1, 5]},
    {"node.tags": []},
    {"a": {"$in": "not a list"}},
    {"$or": []},
    {"node.tags": {"$all": [1], "$size": 2}},
    {"a": {"$gt": [1]}},
    {"a.": 1},
]


@pytest.mark.parametrize("filter_", FILTERS, ids=str)
def test_the_compiled_matcher_decides_as_mongomock(filter_):
    test = matching.compile_filter(filter_)
    assert test is not None
    for document in DOCUMENTS:
        assert test(document) == filter_applies(filter_, document), document


@pytest.mark.parametrize("filter_", NOT_COMPILED, ids=str)
def test_shapes_the_matcher_does_not_model_are_left_to_mongomock(filter_):
    assert matching.compile_filter(filter_) is None


def test_arrays_inside_a_path_are_decided_by_mongomock(monkeypatch):
    calls = []
    monkeypatch.setattr(
        matching, "filter_applies", lambda f, d: calls.append(d["_id"]) or filter_applies(f, d)
    )
    test = matching.compile_filter({"node.status": "draft"})
    assert [d["_id"] for d in DOCUMENTS if test(d)] == [2, 5]
    assert calls == [5]  # the document whose `node` is an array


def _kind(value: object) -> type:
    return list if isinstance(value, list) else dict if isinstance(value, dict) else type(value)


def test_the_cursor_sorts_projects_and_cuts_as_mongomock():
    indexed, plain = embedded_database("shapes"), mongomock.MongoClient(tz_aware=True)["shapes"]
    for database in (indexed, plain):
        database["sources_v1"].insert_many([dict(d) for d in DOCUMENTS])
    assert isinstance(indexed["sources_v1"], IndexedCollection)
    reads = [
        ({}, None, [("d", -1), ("_id", -1)], 0, 0),
        ({}, {"node.tags": 0, "s": 0}, [("a", 1)], 1, 3),
        ({}, {"_id": 0}, [("node.position", 1)], 0, 0),
        ({"_id": {"$gt": 1}}, {"_id": 0, "d": 1}, [("s", -1)], 0, 2),
        ({"a": {"$ne": None}}, {"node.status": 0}, [("node.tags", 1), ("_id", 1)], 0, 0),
        ({"s": {"$regex": "x|z"}}, None, [("_id", -1)], 0, 1),
    ]
    for filter_, projection, sort, skip, limit in reads:
        found = [
            list(db["sources_v1"].find(filter_, projection).sort(sort).skip(skip).limit(limit))
            for db in (indexed, plain)
        ]
        assert found[0] == found[1], (filter_, projection, sort)
        # the same types (read-only results are lists and dicts too)
        assert [_kind(d.get("d")) for d in found[0]] == [_kind(d.get("d")) for d in found[1]]
        assert all(d["d"].tzinfo for d in found[0] if isinstance(d.get("d"), datetime))


@pytest.fixture(scope="module")
def compared_reads(request, tier):
    """Every read of a crawl of the demo site on the embedded store, answered again by plain
    mongomock on the same documents, and compared."""
    if tier != "mongomock":
        pytest.skip("the embedded store serves the mongomock tier only")
    patch = pytest.MonkeyPatch()
    reads = {"fast": 0, "mongomock": 0, "counts": 0}
    differing: list[str] = []

    def plain(collection):
        """The same collection (same documents) read by mongomock's own code."""
        view = object.__new__(mongomock.Collection)
        view.__dict__.update(collection.__dict__)
        return view

    original = GenerationCursor._compute_results
    # a generation is read-only: the same read of the same collection has the same answer, so
    # mongomock answers each distinct read once (the crawl repeats most of them per caller)
    answers: dict[str, list] = {}

    def compute(self, with_limit_and_skip=False):
        found = original(self, with_limit_and_skip)
        projection = dict(self._projection) if isinstance(self._projection, dict) else None
        read = repr((self.collection.name, self._spec, self._sort, projection, self._skip,
                     self._limit, with_limit_and_skip))  # fmt: skip
        if read not in answers:
            answers[read] = MongomockCursor(
                plain(self.collection), self._spec, self._sort, projection, self._skip, self._limit
            )._compute_results(with_limit_and_skip)
        expected = answers[read]
        reads["fast" if self._computed[1] is not None else "mongomock"] += 1
        if found != expected:
            differing.append(f"{self.collection.name} {self._spec} {self._sort}")
        return found

    count = IndexedCollection.count_documents

    def count_documents(self, filter_, **kwargs):
        found = count(self, filter_, **kwargs)
        reads["counts"] += 1
        if found != plain(self).count_documents(filter_, **kwargs):
            differing.append(f"count {self.name} {filter_}")
        return found

    patch.setattr(GenerationCursor, "_compute_results", compute)
    patch.setattr(IndexedCollection, "count_documents", count_documents)
    try:
        request.getfixturevalue("crawl")
    finally:
        patch.undo()
    return reads, differing


def test_every_read_of_the_crawl_answers_as_plain_mongomock(compared_reads):
    reads, differing = compared_reads
    assert differing == []
    # (listings answer the plain pages: the counts left are those of filtered requests)
    assert reads["fast"] > 5000 and reads["counts"] > 50
    # only title filters ($regex) are left to mongomock
    assert reads["mongomock"] < reads["fast"] / 100


def test_kept_dumps_of_listed_sources_answer_as_fresh_dumps(make_app, tier, monkeypatch):
    """Every page (with and without preview, with each kind of credential), common content,
    collections and search answer the same bodies from kept dumps of listed sources
    (app.item_dumps.ItemDumper) as when every source is dumped again."""
    if tier != "mongomock":
        pytest.skip("dumps are kept for the embedded store's read-only sources only")
    app = make_app(RESPONSE_CACHE=False)
    client = app.test_client()
    store = app.extensions["cms.store"]
    version = store.live()["version"]
    paths = sorted(p["_id"] for p in store.db[f"paths_v{version}"].find())
    urls = [f"/api/web_response_by_path?path={p}{q}" for p in paths for q in ("", "&_preview=1")]
    urls += ["/api/common_content?_locale=en", "/api/common_content?_locale=fr",
             "/api/pages?itemsPerPage=30", "/api/articles?order[publishedAt]=desc",
             "/api/search?search=concert"]  # fmt: skip

    def bodies() -> list[tuple[int, bytes]]:
        return [
            (response.status_code, response.data)
            for headers in CREDENTIALS
            for url in urls
            for response in [client.get(url, headers=headers)]
        ]

    first = bodies()  # fills the kept dumps
    kept = bodies()  # answered from them
    site = app.extensions["cms.site"].current()
    assert len(site.cache["listed dumps"]) > 20
    monkeypatch.setattr("app.item_dumps.DUMPS_KEPT", 0)
    site.cache.pop("listed dumps")
    fresh = bodies()
    assert "listed dumps" in site.cache and not site.cache["listed dumps"]
    assert kept == first == fresh
    assert sum(status == 200 for status, _ in fresh) > 100
