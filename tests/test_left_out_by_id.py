"""`node.home=false` and `not[node.id]` are plain (app/listing/plain.py, Scope.left): a
collection leaving the home node, or a few nodes, out lists, counts and archives what the index
does, at every moment around the home's dates, reading no index: the nodes' sources are dropped
from the listings' entries, and those the scope lists (which their own fields tell:
app.membership) are taken away from the calendar (calendar.read), their sources still to come
too."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.auth import mint_token
from app.db import get_store
from app.fixture import listings as materialised
from app.listing import calendar, plain
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import freeze_request_clock, node, on_the_index, sample

EDITOR_PREVIEW = "_preview=1"
EDITOR = {
    "Authorization": "Bearer "
    + mint_token(JWT_SECRET, "eve", ["ROLE_BACKEND_USER"], timedelta(days=1))  # the real clock
}
PASSWORD = {"Authorization": "PasswordQuery letmein"}  # the demo's deny realm
HOME_DATE = datetime(2024, 1, 1, 8, tzinfo=UTC)  # the demo home's sources
AHEAD = datetime(2099, 1, 1, tzinfo=UTC)

URLS = [
    "/api/nodes_sources?node.home=false&order[publishedAt]=desc&itemsPerPage=3&page=2",
    "/api/nodes_sources?node.home=false&order[publishedAt]=asc&_locale=en&itemsPerPage=2",
    "/api/pages?node.home=false&order[node.position]=asc&itemsPerPage=2&page=2",
    "/api/pages?node.home=false&_locale=fr&itemsPerPage=3",  # the default order
    "/api/pages?node.home=false&itemsPerPage=0",
    "/api/pages?node.home=false&node.visible=true&order[publishedAt]=desc",
    "/api/pages?node.home=false&publishedAt[archive]=2024-01&order[publishedAt]=asc",
    "/api/pages?node.home=false&publishedAt[before]=2024-01-01T08:00:00Z&order[publishedAt]=desc",
    "/api/pages?node.home=0&order[publishedAt]=desc&itemsPerPage=2&cursor=",
    "/api/nodes_sources/archives?node.home=false&node.nodeTypeName=Page",
    "/api/nodes_sources/archives?node.home=false&_locale=en",
    # nodes by id: an article (scheduled: 28), the home (1) and a page; the home twice (once)
    "/api/nodes_sources?not[node.id][]=19&not[node.id][]=1&not[node.id][]=28"
    "&order[publishedAt]=desc&itemsPerPage=4&page=2",
    "/api/pages?not[node.id]=11&node.home=false&order[node.position]=desc",
    "/api/pages?not[node.id][]=1&not[node.id][]=14&node.home=false&itemsPerPage=0",
    "/api/articles?not[node.id][]=27&not[node.id][]=22&node.nodesTags.tag.tagName=news"
    "&order[publishedAt]=asc&itemsPerPage=2",
    "/api/articles/archives?not[node.id][]=22&not[node.id][]=65&_locale=en",
    "/api/nodes_sources?not[node.id]=999&_locale=fr&itemsPerPage=5",  # no such node
]


def variant(name: str) -> dict:
    """The demo site with its home's dates moved: as loaded, its English source scheduled (alone:
    counted from the date listing's first chunk; with two pages: the first chunk is all to come,
    counted on the index), and on the date of another page (`_id` breaks the tie)."""
    site = demo_site()
    home = next(n for n in site["nodes"] if n.get("home"))
    if name in ("scheduled", "scheduled with others"):
        home["sources"]["en"]["published_at"] = AHEAD.isoformat()
    if name == "scheduled with others":
        for other in ("about", "services"):
            node(site, other)["sources"]["en"]["published_at"] = AHEAD.isoformat()
    if name == "on another page's date":
        other = node(site, "about")["sources"]["en"]["published_at"]
        home["sources"]["en"]["published_at"] = other
    return site


def moments(site: dict) -> list[datetime]:
    home = next(n for n in site["nodes"] if n.get("home"))
    dates = {datetime.fromisoformat(s["published_at"]) for s in home["sources"].values()}
    second = timedelta(seconds=1)
    return sorted({d + delta for d in dates for delta in (-second, timedelta(0))}
                  | {datetime(2025, 6, 1, tzinfo=UTC)})  # fmt: skip


def walk(client, url: str, headers: dict) -> list:
    """Status and body of the page, and of the pages after it by cursor (hydra:next)."""
    found, next_url = [], url
    while next_url and len(found) < 20:
        response = client.get(next_url, headers=headers)
        found.append((response.status_code, response.json))
        view = response.json.get("hydra:view", {}) if response.status_code == 200 else {}
        next_url = view.get("hydra:next") if "cursor=" in url else None
    return found


def reads_of_the_index(generation, monkeypatch) -> list:
    """The reads of sources along an index (pages, their counts, archive dates) from now on (a
    page of no member, not counted, reads none; a count of the sources still to come may be on
    the index, when the date listing's first chunk holds only those)."""
    on_index: list = []

    def reads(name: str, args: tuple, kwargs: dict) -> bool:
        return name != "sources_page" or kwargs["limit"] > 0 or kwargs.get("counted", True)

    for name in ("sources_page", "publication_dates"):
        original = getattr(type(generation), name)
        monkeypatch.setattr(
            type(generation), name,
            lambda self, *a, _run=original, _name=name, **k: (
                reads(_name, a, k) and on_index.append(a)) or _run(self, *a, **k),
        )  # fmt: skip
    return on_index


@pytest.mark.ferretdb_rows(0, 2)  # as loaded, scheduled with others
@pytest.mark.parametrize(
    "name", ["as loaded", "scheduled", "scheduled with others", "on another page's date"]
)
def test_nodes_left_out_are_the_index_answer_at_every_moment(make_app, tier, name):
    site = variant(name)
    with pytest.MonkeyPatch.context() as patch:
        # 2 entries a chunk: the home's sources are found past chunk 0; 4, when the home is
        # scheduled: the date listings' first chunks hold every source to come (counted there,
        # the home's not), but for the home and two pages scheduled (on the index)
        for size in ("LISTING_HEAD", "LISTING_CHUNK"):
            patch.setattr(materialised, size, 4 if "scheduled" in name else 2)
        app = make_app(site, RESPONSE_CACHE=False)
    client = app.test_client()
    with app.app_context():
        store = get_store()
        generation = store.generation(store.live()["version"])
    cases = [(moment, headers) for moment in moments(site) for headers in ({}, PASSWORD, None)]
    # on FerretDB, where each index answer reads every source, every 5th case: the callers
    # still rotate (every 3rd kept only the anonymous one)
    cases = sample(cases, tier, step=5)
    counted = 0
    for moment, headers in cases:
        urls = URLS
        if headers is None:  # an editor in preview
            headers = EDITOR
            urls = [f"{url}&{EDITOR_PREVIEW}" for url in URLS]
        for url in urls:
            with pytest.MonkeyPatch.context() as patch:
                freeze_request_clock(patch, moment)
                on_index = reads_of_the_index(generation, patch)
                served = walk(client, url, headers)
                assert all(status == 200 for status, _ in served), (url, served[0])
                assert on_index == [], url
            with pytest.MonkeyPatch.context() as patch:
                freeze_request_clock(patch, moment)
                on_the_index(patch)
                assert walk(client, url, headers) == served, (moment, url, headers)
                every = walk(client, re.sub(r"(node\.home=\w+|not\[node\.id\][^&]*)&", "", url),
                             headers)  # fmt: skip
            counted += served[0][1].get("hydra:totalItems") != every[0][1].get("hydra:totalItems")
    assert counted > (20 if tier == "mongomock" else 4)  # the nodes were in those scopes


def test_nodes_left_out_are_plain_however_many_and_read_only_when_plain():
    reads: list = []

    def sources_of(ids):
        reads.append(ids)
        return [
            {"_id": 10 * i, "locale": locale, "type": "Article", "published_at": None,
             "reachable": True, "no_index": False,
             "node": {"status": "draft", "tag_ids": [], "parent": None, "realm_ids": [],
                      "visible": True, "position": i}}
            for i in ids for locale in ("en", "fr")
        ]  # fmt: skip

    base = {"locale": "en", "type": "Article"}
    scope = plain.plain_scope({**base, "node_id": {"$nin": [3, 2, 3]}}, {}, sources_of=sources_of)
    assert [s.source_id for s in scope.left] == [20, 30] and reads == [[2, 3]]
    # a draft: held by the preview listings of its type and of every type, in its translation
    assert scope.left[0].listings == {("Article", "en", None, True), ("*", "en", None, True)}
    many = list(range(1, 301))  # as many as a URL holds: one read of their sources
    reads.clear()
    scope = plain.plain_scope({**base, "node_id": {"$nin": many}}, {}, sources_of=sources_of)
    assert len(scope.left) == 300 and reads == [many]
    reads.clear()  # a scope of nothing (a slug no tag has) reads no source
    void = {**base, "node.tag_slugs": "nope", "node_id": {"$nin": [2]}}
    assert plain.plain_scope(void, {}, sources_of=sources_of).left == () and reads == []
    for condition in ({"$nin": ["2"]}, {"$nin": [True]}, {"$nin": []}, {"$nin": 2},
                      {"$in": [2]}, 2):  # fmt: skip
        assert plain.plain_scope({**base, "node_id": condition}, {}, sources_of=sources_of) is None
    assert plain.plain_scope({**base, "node_id": {"$nin": [2]}}, {}) is None  # nothing to read
    reads.clear()  # not plain for another filter: the nodes' sources are not read
    assert plain.plain_scope({**base, "node_id": {"$nin": [2]}, "title": "a"}, {},
                              sources_of=sources_of) is None  # fmt: skip
    assert reads == []


def test_months_are_read_from_entries_only_when_a_source_left_out_was_taken_away(
    make_app, monkeypatch
):
    """The winter concert scheduled for 2024-05-25 shares the Article calendar's May group with
    an article published on the 20th (node 22). Leaving the home out (a page: not in the
    articles' listing) takes nothing away, so the calendar's dates stay exact and tell May; leaving
    node 22 out leaves bounds (the 20th and the 25th), so May is read from its entries: on the
    22nd nothing of it is published."""
    site = demo_site()
    for locale in ("en", "fr"):
        node(site, "winter-concert")["sources"][locale]["published_at"] = "2024-05-25T18:00:00Z"
    app = make_app(site, RESPONSE_CACHE=False)
    client = app.test_client()
    freeze_request_clock(monkeypatch, datetime(2024, 5, 22, tzinfo=UTC))
    asked: list[str] = []
    told = calendar.months

    def months(found, scope, visibility, published_in):
        return told(
            found, scope, visibility, lambda month: asked.append(month) or published_in(month)
        )

    def archive(left_out: int) -> list[str]:
        url = f"/api/articles/archives?_locale=en&not[node.id]={left_out}"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(calendar, "months", months)
            body = client.get(url).json
        with pytest.MonkeyPatch.context() as patch:
            on_the_index(patch)
            assert client.get(url).json == body
        return [month for year in body["hydra:member"] for month in year["months"]]

    assert "2024-05" in archive(1) and asked == []
    assert "2024-05" not in archive(22) and asked == ["2024-05"]
