"""Search bounded by its postings (app/search_index.py, app/search.py): per word, the first
SEARCH_CHUNK postings the request may see, looked for in at most SEARCH_SCAN chunks, ranked,
then the page's sources by `_id` (docs/performance.md, bounded search).

The site here is loaded and searched with chunks of 3 postings and at most 3 chunks, so that
"lantern", held by 11 sources, has more postings than a search keeps."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app import search, search_index
from app.auth import mint_token
from app.db import get_store
from app.store import Generation
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import node, problem_detail

CHUNK, SCAN = 3, 3
# Articles holding "lantern" (L<n>: node 700 + n, English source 70000 + 10 n + 1), newest first
# by n, except L9, whose title holds it (it ranks first). L0 is dated 2099, L1 is in the deny
# realm, L2 is a draft, L3 is not visible; L6 also holds "zeppelin", L7 carries the Jazz tag.
FUTURE, DENIED, DRAFT, HIDDEN = 0, 1, 2, 3
PASSWORD = {"Authorization": "PasswordQuery letmein"}


def lantern(n: int) -> str:
    return f"/api/articles/{70000 + 10 * n + 1}"


def bounded_site() -> dict:
    site = demo_site()
    for n in range(12):
        text = "A lantern on the quay." + (" A zeppelin above." if n == 6 else "")
        day = f"2024-{12 - n // 2:02d}-{20 - n % 2}T10:00:00+00:00"
        sources = {
            "en": {"id": 70000 + 10 * n + 1, "title": "Lantern night" if n == 9 else f"Night {n}",
                   "published_at": "2099-01-01T10:00:00+00:00" if n == FUTURE else day,
                   "fields": {"content": text, "image": [], "category": "news"}},
            "fr": {"id": 70000 + 10 * n + 2, "title": f"Nuit {n}", "published_at": day,
                   "fields": {"content": "Une lanterne.", "image": [], "category": "news"}},
        }  # fmt: skip
        site["nodes"].append({
            "id": 700 + n, "node_name": f"lantern-{n}", "type": "Article", "parent": 17,
            "position": 100 + n, "visible": n != HIDDEN, "tags": [5] if n == 7 else [],
            "status": "draft" if n == DRAFT else "published", "sources": sources,
        })  # fmt: skip
    deny = next(r for r in site["realms"] if r["behaviour"] == "deny")
    deny["nodes"].append({"node": 700 + DENIED, "inheritance": "auto"})
    # an older page holding the word: after every article in the postings (beyond what is stored)
    about = node(site, "about")["sources"]["en"]
    about["fields"]["content"] += " A lantern."
    return site


@pytest.fixture(scope="module")
def bounded(make_app):
    patch = pytest.MonkeyPatch()
    for module in (search, search_index):
        patch.setattr(module, "SEARCH_CHUNK", CHUNK)
        patch.setattr(module, "SEARCH_SCAN", SCAN)
    try:
        app = make_app(bounded_site(), RESPONSE_CACHE=False)
        yield app
    finally:
        patch.undo()


@pytest.fixture
def reads(bounded, monkeypatch):
    """Every postings `_id` and search page id list the store is asked for, per request."""
    log: list[tuple[str, list]] = []
    postings, hits = Generation.postings, Generation.search_hits

    def record_postings(self, chunk_id):
        log.append(("postings", chunk_id))
        return postings(self, chunk_id)

    def record_hits(self, ids, visibility):
        log.append(("sources", list(ids)))
        return hits(self, ids, visibility)

    monkeypatch.setattr(Generation, "postings", record_postings)
    monkeypatch.setattr(Generation, "search_hits", record_hits)
    return log


def body(app, query: str, headers: dict | None = None) -> dict:
    response = app.test_client().get(f"/api/search?{query}", headers=headers or {})
    assert response.status_code == 200, response.json
    return response.json


def members(app, query: str, headers: dict | None = None) -> list[str]:
    return [m["item"]["@id"] for m in body(app, query, headers)["hydra:member"]]


def test_postings_are_stored_best_first_and_only_as_far_as_a_search_reads(bounded):
    with bounded.app_context():
        store = get_store()
        version = store.live()["version"]
        chunks = {d["_id"]: d for d in store.db[f"postings_v{version}"].find()}
    public = [chunks.get(f"lantern|en|public|{n}") for n in range(SCAN + 1)]
    assert public[SCAN] is None  # later postings are not stored
    ids = [e["id"] for chunk in public[:SCAN] for e in chunk["entries"]]
    # the title match first, then newest first (L0 is dated 2099); drafts and hidden nodes are
    # not public postings; L8, L10, L11 and the about page are not stored
    assert ids == [70000 + 10 * n + 1 for n in (9, 0, 1, 4, 5, 6, 7, 8, 10)]
    assert [c["more"] for c in public[:SCAN]] == [True, True, True]
    assert [e["weight"] for e in public[0]["entries"]] == [2, 1, 1]
    preview = [e["id"] for e in chunks["lantern|en|preview|1"]["entries"]]
    assert preview == [70000 + 10 * n + 1 for n in (2, 4, 5)]  # the draft, in preview only
    zeppelin = chunks["zeppelin|en|public|0"]
    assert zeppelin["more"] is False and "zeppelin|en|public|1" not in chunks
    assert zeppelin["entries"][0] == {
        "id": 70061, "weight": 1, "published_at": zeppelin["entries"][0]["published_at"],
        "type": "Article", "tag_ids": [], "realm_ids": [],
    }  # fmt: skip


def test_a_word_held_by_more_sources_than_kept_gives_the_first_page_of_the_full_ranking(
    bounded, reads
):
    found = body(bounded, "search=lantern&itemsPerPage=2")
    # the full ranking of what this request may see: L9 (title), then L4, L5, L6, ... newest
    # first; L0 (future), L1 (denied), L2 (draft) and L3 (hidden) are skipped, not counted
    assert [m["item"]["@id"] for m in found["hydra:member"]] == [lantern(9), lantern(4)]
    assert found["hydra:totalItems"] == CHUNK  # the candidates kept: L9, L4, L5
    assert found["hydra:view"]["hydra:last"] == "/api/search?itemsPerPage=2&search=lantern&page=2"
    assert members(bounded, "search=lantern&itemsPerPage=2&page=2") == [lantern(5)]
    # chunk 0 held one visible posting: chunk 1 was read, then only the page's two sources
    assert reads[:3] == [
        ("postings", "lantern|en|public|0"),
        ("postings", "lantern|en|public|1"),
        ("sources", [70091, 70041]),
    ]


def test_what_the_request_may_not_see_never_appears_and_does_not_shorten_the_page(bounded):
    anonymous = members(bounded, "search=lantern&itemsPerPage=3")
    assert anonymous == [lantern(9), lantern(4), lantern(5)]
    granted = members(bounded, "search=lantern&itemsPerPage=3", PASSWORD)
    assert granted == [lantern(9), lantern(1), lantern(4)]  # the deny realm's password
    token = mint_token(JWT_SECRET, "ann", ["ROLE_BACKEND_USER"], timedelta(hours=1))
    preview = members(bounded, "search=lantern&itemsPerPage=3&_preview=1",
                      {"Authorization": f"Bearer {token}"})  # fmt: skip
    assert preview == [lantern(9), lantern(2), lantern(4)]  # the draft; never the 2099 article
    for query in ("search=lantern&itemsPerPage=50", "search=night&itemsPerPage=50"):
        shown = members(bounded, query)
        assert not {lantern(n) for n in (FUTURE, DENIED, DRAFT, HIDDEN)} & set(shown)


def test_filters_keep_looking_through_the_stored_chunks(bounded, reads):
    # L7, the only Jazz-tagged source holding the word, is in chunk 2: the third round finds it
    assert members(bounded, "search=lantern&tag_name=Jazz") == [lantern(7)]
    assert [r for r in reads if r[0] == "postings"] == [
        ("postings", f"lantern|en|public|{n}") for n in range(SCAN)
    ]
    # the about page holds it too, but after the stored postings: beyond what a search reads
    assert members(bounded, "search=lantern&node_type=Page") == []
    assert "/api/pages/1101" in members(bounded, "search=lantern+about&node_type=Page")


def test_several_words_sum_their_weights_over_the_postings_read(bounded):
    found = body(bounded, "search=zeppelin+lantern&itemsPerPage=10")
    # L6 holds both words (its "lantern" posting is in a chunk read): 2, as L9's title; newer
    assert [m["item"]["@id"] for m in found["hydra:member"]] == [
        lantern(6), lantern(9), lantern(4), lantern(5)
    ]  # fmt: skip
    assert found["hydra:totalItems"] == 4
    assert found["facets"]["node_type"] == {"buckets": [{"val": "Article", "count": 4}]}
    highlighted = found["hydra:member"][0]["highlighting"]["collection_txt_en"]
    mark = '<span class="solr-highlight">{}</span>'
    assert highlighted == [f"A {mark.format('lantern')} on the quay. A {mark.format('zeppelin')} "
                           "above."]  # fmt: skip


def test_french_postings_are_their_own(bounded):
    assert members(bounded, "search=lantern&_locale=fr") == []
    # the French L0 is dated like the others: newest first, L1 to L3 left out as in English
    found = members(bounded, "search=lanterne&_locale=fr&itemsPerPage=3")
    assert found == ["/api/articles/70002", "/api/articles/70042", "/api/articles/70052"]


def test_a_search_of_too_many_words_is_refused(bounded):
    words = "+".join(f"w{n}" for n in range(search.MAX_WORDS + 1))
    response = bounded.test_client().get(f"/api/search?search={words}")
    assert response.status_code == 400
    assert problem_detail(response) == (
        f'"search" has {search.MAX_WORDS + 1} distinct words; at most {search.MAX_WORDS}'
    )
