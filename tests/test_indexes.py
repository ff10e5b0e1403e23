"""Every read the service issues is served by an index (or reads a small collection whole).

The crawl drives every endpoint of the demo site with every kind of credential, with the
response cache off, and records each query the store sends; tests/index_plan.py decides, as
MongoDB's planner would, which index serves it. On FerretDB, the fewest requests of the crawl that
send every query shape of it (`covering`) are sent to the real server.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from app.auth import mint_token
from app.publication import Visibility
from app.query_plan import INDEXES
from app.store import WHOLE_READ_KINDS, Generation
from tests.conftest import JWT_SECRET
from tests.helpers import TOKEN_LIFE, iris
from tests.index_plan import Query, bounded_fields, serving_index


def indexes_of(kind: str) -> dict[str, list[tuple[str, int]]]:
    return {name: keys for name, keys, _ in INDEXES.get(kind, [])}


SOURCES = indexes_of("sources")
ROLES = ["ROLE_BACKEND_USER", "ROLE_PREMIUM"]
CREDENTIALS = [
    {},
    {"Authorization": "Bearer " + mint_token(JWT_SECRET, "ann", ROLES, TOKEN_LIFE)},
    {"Authorization": "PasswordQuery letmein"},
]
COLLECTION_QUERIES = [
    "",
    # two tags: the pair's listings (both) or both tags' (any of them)
    "?intersect[node.nodesTags.tag.tagName][]=news&intersect[node.nodesTags.tag.tagName][]=featured"
    "&node.visible=true",
    "?tagGroup[]=news,featured&order[node.position]=asc",
    # an empty partial value (every source holds it: the title keys leave it to the index)
    "?title=&node.visible=true",  # a filter in the default order: `type_id`, or `status_id`
    "?order[publishedAt]=asc&itemsPerPage=2&page=2",
    # materialised listings and tag calendars (the bench's collection page)
    "?node.nodesTags.tag.tagName=news&order[publishedAt]=desc&itemsPerPage=3&page=2",
    "?order[node.position]=desc&_locale=fr",
    "?order[node.position]=desc&title=",  # a filter: the `position` index
    # the home left out: its sources found in the date listing (reads by `_id`)
    "?node.home=false&order[publishedAt]=desc&itemsPerPage=2&page=2",
    "?order[publishedAt]=desc&title=",  # a filter: `feed`, or `status_published` across types
    "?order[publishedAt]=DESC&publishedAt[archive]=2024&node.parent=17&title=a",
    # partial matches: the title keys, then their candidates by `_id`
    "?title=ARK&order[publishedAt]=desc&node.parent=17",
    "?metaTitle[]=about&title[]=harvest&order[node.position]=asc",
    "?title=conc&cursor=&itemsPerPage=1",
    "?node.parent=/api/nodes/17",  # a parent's children: the `parent_*` indexes
    "?node.parent[]=17&node.parent[]=1&order[node.position]=asc&itemsPerPage=2",
    "?node.parent.nodeName=blog&order[publishedAt]=asc",  # the parent's id by name, then as above
    "?reachable=true&tagGroup[]=news,events&not[node.id][]=19&itemsPerPage=0",
    "?node.id=19&order[publishedAt]=desc",  # nodes by id: `node_locale`, sorted after the read
    "?node.home=true&order[node.position]=asc",  # the home node's id: `node_locale` too
    "?node.id[]=19&node.id[]=1&order[node.position]=asc&not[node.id]=1",
    "?node.nodeName=blog&order[publishedAt]=desc",  # nodes by name: `node_name`, sorted after
    "?node.nodeName[]=home&node.nodeName[]=blog&order[node.position]=asc&node.parent=1",
    "?cursor=&itemsPerPage=3",  # keyset pages: the crawl follows their hydra:next
    "?cursor=&itemsPerPage=3&order[node.position]=asc",
    "?cursor=&itemsPerPage=3&order[publishedAt]=desc",
]

LISTINGS = [
    "/api/search?search=jazz",
    "/api/nodes_sources/search?search=march%C3%A9&_locale=fr&tag_name=Culture&node_type=Article",
    "/api/articles/archives",
    "/api/articles/archives?_locale=fr&node.nodesTags.tag.tagName=jazz",
    "/api/nodes_sources/archives?publishable=true",
    "/api/nodes_sources/archives?title=",  # a filter: the dates on `status_published`
    "/api/articles/archives?title=jazz",  # its candidates' dates by `_id`
    "/api/nodes_sources/archives?node.nodeName=blog",  # the named node's dates on `node_name`
    "/api/documents",
    "/api/documents?mimeType=image/jpeg&filename=a&itemsPerPage=1&page=2",
    "/api/tags?parent.id=2",
    "/api/translations?available=true",
]


class RecordedCursor:
    def __init__(self, cursor, query: Query):
        self._cursor, self._query = cursor, query

    def sort(self, key, direction=None):
        self._query.sort = [(key, direction or 1)] if isinstance(key, str) else list(key)
        self._cursor = self._cursor.sort(key, direction) if direction else self._cursor.sort(key)
        return self

    def hint(self, index):
        self._query.hint = index
        self._cursor = self._cursor.hint(index)
        return self

    def skip(self, count):
        self._cursor = self._cursor.skip(count)
        return self

    def limit(self, count):
        self._cursor = self._cursor.limit(count)
        return self

    def __iter__(self):
        return iter(self._cursor)


class RecordedCollection:
    """The reads of one collection; any other method fails the test (and must be modelled)."""

    def __init__(self, kind: str, collection, log: list[Query]):
        self._kind, self._collection, self._log = kind, collection, log

    def _record(self, method: str, filter_, hint: str | None = None) -> Query:
        query = Query(self._kind, method, dict(filter_ or {}), hint=hint)
        self._log.append(query)
        return query

    def find(self, filter_=None, *args, **kwargs):
        query = self._record("find", filter_)
        return RecordedCursor(self._collection.find(filter_, *args, **kwargs), query)

    def find_one(self, filter_=None, *args, **kwargs):
        self._record("find_one", filter_)
        return self._collection.find_one(filter_, *args, **kwargs)

    def count_documents(self, filter_, **kwargs):
        self._record("count_documents", filter_, kwargs.get("hint"))
        return self._collection.count_documents(filter_, **kwargs)


def public_reads() -> list[str]:
    return [n for n, f in inspect.getmembers(Generation, inspect.isfunction) if n[0] != "_"]


def reached(query: Query) -> tuple[str, str | None]:
    """What the tests below check of a query: its shape, sort and hint (not its values)."""
    return query.describe(), query.hint


@dataclass
class Request:
    url: str
    headers: dict
    reaches: set  # `reached` of its queries, ("called", name) of the Generation methods it called
    listing_reads: int
    answer: tuple[int, Any]  # its status and JSON body on the embedded store


@dataclass
class Crawl:
    log: list[Query]  # every query sent, in order
    called: set[str]  # the Generation methods called
    shapes: set[tuple[str, str | None]]  # `reached` of every query of the whole crawl
    differing: list[str]  # on FerretDB, the urls sent there answered otherwise than embedded


@contextmanager
def recording(log: list[Query], called: list[str]):
    """Every query the store sends (to `log`) and every Generation method called (to `called`)."""
    patch = pytest.MonkeyPatch()
    original = Generation._collection
    patch.setattr(
        Generation,
        "_collection",
        lambda self, kind: RecordedCollection(kind, original(self, kind), log),
    )
    for name in public_reads():
        method = getattr(Generation, name)

        def recorded(self, *args, __name=name, __method=method, **kwargs):
            called.append(__name)
            return __method(self, *args, **kwargs)

        patch.setattr(Generation, name, recorded)
    try:
        yield
    finally:
        patch.undo()


def crawl_site(app, send: Callable[[str, dict], Any]) -> None:
    """Drive every endpoint of the demo site with every kind of credential; `send(url, headers)`
    sends one request and returns its JSON body. It follows the @ids the answers hold."""
    store = app.extensions["cms.store"]
    version = store.live()["version"]
    paths = [p["_id"] for p in store.db[f"paths_v{version}"].find()]
    found: set[str] = set()
    for headers in CREDENTIALS:
        for path in paths:
            for preview in ("", "&_preview=1"):
                iris(send(f"/api/web_response_by_path?path={path}{preview}", headers), found)
        for locale in ("en", "fr"):
            common = f"/api/common_content?_locale={locale}"
            iris(send(common, headers), found)
            send(f"{common}&_preview=1", headers)
        for plural in ("pages", "articles", "nodes_sources"):
            for query in COLLECTION_QUERIES:
                body = send(f"/api/{plural}{query}", headers)
                iris(body, found)
                found.add(body.get("hydra:view", {}).get("hydra:next", body["@id"]))
        for listing in LISTINGS:
            iris(send(listing, headers), found)
        for iri in sorted(found):
            send(iri, headers)


def crawled_app(make_app, **config):
    """The demo site as the crawl reads it, response cache off. Child lists longer than 2 are
    kept apart, so the walkers read `children` too; listings hold one entry per chunk, so that a
    first date chunk holds only a source to come (the 2099 articles) and the scheduled sources
    are counted by the indexed query."""
    with pytest.MonkeyPatch.context() as short_lists:
        short_lists.setattr("app.fixture.materialise.CHILDREN_EMBEDDED", 2)
        short_lists.setattr("app.fixture.listings.LISTING_HEAD", 1)
        short_lists.setattr("app.fixture.listings.LISTING_CHUNK", 1)
        return make_app(RESPONSE_CACHE=False, **config)


def covering(requests: list[Request]) -> list[Request]:
    """Requests that together reach everything the crawl reached (queries' `reached`, Generation
    methods), chosen greedily by what each reaches that none chosen reaches, for its cost: 1, and
    1 more for each read of the listings collection (each decodes that collection whole on
    FerretDB 1.24: 2.8 s in the crawl's site, against milliseconds for any other read). In the
    crawl's order."""
    left = set().union(*(request.reaches for request in requests))
    chosen: set[int] = set()
    while left:
        best = max(
            range(len(requests)),
            key=lambda i: len(requests[i].reaches & left) / (1 + requests[i].listing_reads),
        )
        chosen.add(best)
        left -= requests[best].reaches
    return [requests[i] for i in sorted(chosen)]


@pytest.fixture(scope="module")
def crawl(make_app, tier) -> Iterator[Crawl]:
    """The crawl's queries. On mongomock, the whole crawl. On FerretDB, where each read of several
    listing documents decodes the whole listings collection (6,434 documents, 3.9 MB in chunks of
    1 entry: 2.8 s a read, 909 s for the crawl of one caller in stop 68's CI), the whole crawl runs
    on the embedded store, and the few requests of it that together reach every query shape and
    Generation method (`covering`) are sent again to FerretDB, in the crawl's order: every query
    shape of the crawl is sent to the real server, and each of those requests must answer there
    as it did on the embedded store. A shape (`reached`) is all the tests below read of a query,
    and the store builds its queries alike on every engine."""
    log: list[Query] = []
    called: list[str] = []
    client = (app := crawled_app(make_app, embedded=True)).test_client()
    requests: list[Request] = []

    def send(url: str, headers: dict) -> Any:
        queries, calls = len(log), len(called)
        response = client.get(url, headers=headers)
        reaches = {reached(q) for q in log[queries:]} | {("called", c) for c in called[calls:]}
        listing_reads = sum(q.kind == "listings" for q in log[queries:])
        answer = (response.status_code, response.json)
        requests.append(Request(url, headers, reaches, listing_reads, answer))
        return response.json

    with recording(log, called):
        crawl_site(app, send)
    shapes = {reached(q) for q in log}
    if tier == "mongomock":
        yield Crawl(log, set(called), shapes, [])
        return
    real_log: list[Query] = []
    real_called: list[str] = []
    real = crawled_app(make_app).test_client()
    differing = []
    with recording(real_log, real_called):
        for request in covering(requests):
            response = real.get(request.url, headers=request.headers)
            if (response.status_code, response.json) != request.answer:
                differing.append(request.url)
    yield Crawl(real_log, set(real_called), shapes, differing)


def test_the_crawl_reaches_every_read_of_the_store(crawl):
    assert sorted(crawl.called) == public_reads()
    # on FerretDB, the requests sent again reach every shape of the whole crawl, and answer there
    # as on the embedded store
    assert {reached(q) for q in crawl.log} == crawl.shapes
    assert len(crawl.shapes) > 100
    assert crawl.differing == []


def test_every_query_is_served_by_an_index(crawl):
    log = crawl.log
    unserved = set()
    for query in log:
        if not query.filter:
            if query.kind not in WHOLE_READ_KINDS or query.sort != [("_id", 1)]:
                unserved.add(f"{query.describe()}: reads a large collection whole")
            continue
        if serving_index(query, indexes_of(query.kind)) is None:
            unserved.add(query.describe())
    assert sorted(unserved) == []


def test_every_query_names_the_index_that_serves_it(crawl):
    log = crawl.log
    wrong = {
        f"{query.describe()}: hint {query.hint!r}, served by {expected!r}"
        for query in log
        if query.hint != (expected := serving_index(query, indexes_of(query.kind)))
    }
    assert sorted(wrong) == []


def test_a_feed_that_was_not_materialised_names_the_feed_index(store):
    """The crawl reads only materialised feeds; a project's feed falls back to the `feed` index."""
    log: list[Query] = []
    generation = store.generation(store.live()["version"])
    visibility = Visibility(now=datetime.now(UTC))
    with recording(log, []):
        generation.feed(node_type="Article", locale="en", visibility=visibility, tag_ids=[3],
                        exclude_source=2101, limit=2, exclude_realms=[1])  # fmt: skip
    assert [(q.kind, q.hint) for q in log] == [("feeds", "_id_"), ("sources", "feed")]
    assert [serving_index(q, indexes_of(q.kind)) for q in log] == ["_id_", "feed"]


def test_a_query_without_its_hint_fails_the_check():
    unhinted = Query("sources", "find", {"node_id": {"$in": [1]}, "locale": "en"})
    assert serving_index(unhinted, SOURCES) == "node_locale" != unhinted.hint


def test_the_sort_of_a_feed_and_a_collection_comes_from_their_index(crawl):
    log = crawl.log
    sorted_reads = {
        (q.method, serving_index(q, indexes_of(q.kind)))
        for q in log
        if q.sort and q.filter and q.kind == "sources"
    }
    documents = {
        serving_index(q, indexes_of(q.kind)) for q in log if q.kind == "documents" and q.sort
    }
    assert documents == {"private_id"}
    assert sorted_reads == {
        ("find", name)
        for name in (
            "feed",
            "position",
            "type_id",
            "status_id",
            "status_published",
            "status_position",
            "parent_id",
            "parent_position",
            "node_locale",  # `node.id`: a node's sources, sorted after the read
            "node_name",  # `node.nodeName`: the named node's sources, sorted after the read
            "_id_",  # a partial match's candidates, sorted after the read
        )
    }


def test_feeds_and_collections_decide_the_publication_rule_in_their_index(crawl):
    log = crawl.log
    checked = 0
    for query in log:
        name = serving_index(query, SOURCES)
        if name not in ("feed", "position", "type_id", "status_id", "status_published",
                        "status_position", "parent_id", "parent_position"):  # fmt: skip
            continue
        fields = set(bounded_fields(query, SOURCES[name]))
        by = {"feed": "type", "position": "type", "type_id": "type"}
        by |= dict.fromkeys(("parent_id", "parent_position"), "node.parent")
        assert {"locale", "node.status"} | ({by[name]} if name in by else set()) <= fields, (
            query.describe()
        )
        if name in ("feed", "status_published") and ("published_at" in query.filter):
            assert "published_at" in fields, query.describe()
        checked += 1
    assert checked > 20


# The model itself: each rule can fail.


@pytest.mark.parametrize(
    ("filter_", "sort", "expected"),
    [
        ({"_id": 5, "node.status": {"$in": ["published"]}}, [], "_id_"),
        ({"_id": {"$in": [1, 2]}}, [], "_id_"),
        ({}, [("_id", 1)], "_id_"),
        ({}, [], None),
        ({"_id": "feed|0"}, [("title", 1)], "_id_"),  # ids bound the read: sorted after it
        ({"_id": {"$in": [1, 2]}, "locale": "en"}, [("published_at", -1)], "_id_"),
        ({"node_id": {"$in": [1, 2]}, "locale": "en"}, [], "node_locale"),
        ({"locale": "en", "node_id": 3}, [], "node_locale"),
        # `node.id` in a collection: a node's sources, sorted after the read, whatever the type
        ({"locale": "en", "type": "Article", "node.status": {"$in": ["published"]},
          "node_id": {"$in": [3, 4]}}, [("published_at", -1), ("_id", -1)], "node_locale"),
        ({"locale": "en", "node.status": "published", "node_id": {"$nin": [3]}}, [("_id", 1)],
         "status_id"),
        ({"locale": "en", "node.status": "published", "node.parent": 4, "node_id": 3},
         [("_id", 1)], "parent_id"),
        ({"locale": "en", "type": "Article", "node.status": "published"},
         [("published_at", -1), ("_id", -1)], "feed"),
        ({"locale": "en", "type": "Article", "node.status": {"$in": ["published", "draft"]}},
         [("published_at", 1), ("_id", 1)], "feed"),
        ({"locale": "en", "type": "Article"}, [("published_at", -1), ("_id", -1)], None),
        ({"locale": "en", "type": "Article", "node.status": "published"},
         [("published_at", -1), ("_id", 1)], None),
        ({"locale": "en", "type": "Article", "node.status": "published"}, [("title", 1)], None),
        ({"locale": "en", "type": {"$in": ["Menu"]}, "node.status": "published"},
         [("node.position", 1)], "position"),
        # a parent bounds the read to its children, in each order; its own type is checked after
        ({"locale": "en", "type": {"$in": ["Menu"]}, "node.status": "published",
          "node.parent": None}, [("node.position", 1)], "parent_position"),
        ({"locale": {"$in": ["en", "fr"]}, "type": "Article", "node.status": {"$in": ["published"]},
          "node.parent": {"$in": [4, 5]}, "published_at": {"$lte": 0}},
         [("published_at", -1), ("_id", -1)], "parent_id"),  # a parent's few children, sorted
        ({"locale": "en", "node.status": "published", "node.parent": 4,
          "published_at": {"$lte": 0}}, [], "parent_id"),  # a count
        ({"locale": "en", "node.status": "published", "node.parent": 4}, [("_id", 1)],
         "parent_id"),
        ({"locale": "en", "node.parent": 4}, [("_id", 1)], "parent_id"),  # sorted after the read
        ({"locale": "en", "node.status": "published", "node.parent": 4},
         [("node.position", -1), ("_id", -1)], "parent_position"),
        ({"published_at": {"$gt": 0}}, [], "published_at"),
        ({"title": "About us"}, [], None),
        ({"node.tag_ids": {"$all": [1]}}, [], None),
        ({"_id": {"$ne": 5}}, [], None),
        ({"$or": [{"node_id": 1}]}, [], None),
    ],
)  # fmt: skip
def test_index_model(filter_, sort, expected):
    query = Query("sources", "find", filter_, sort)
    assert serving_index(query, SOURCES) == expected


@pytest.mark.parametrize(
    ("filter_", "sort", "expected"),
    [
        ({"locale": "en", "type": "A", "node.status": "published", "published_at": {"$lte": 1}},
         [("published_at", -1), ("_id", -1)], ["locale", "type", "node.status", "published_at"]),
        ({"locale": "en", "type": "A", "published_at": {"$lte": 1}}, [], ["locale", "type"]),
        ({"locale": "en", "type": "A", "node.status": "published", "published_at": {"$lte": 1}},
         [("_id", 1)], None),
    ],
)  # fmt: skip
def test_bounded_fields(filter_, sort, expected):
    assert bounded_fields(Query("sources", "find", filter_, sort), SOURCES["feed"]) == expected
