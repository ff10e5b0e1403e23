"""Search on MongoDB: the token index, ranking, highlighting, facets, visibility and errors."""

from __future__ import annotations

import pytest

from app.db import get_store
from tests.conftest import demo_site
from tests.helpers import node, problem_detail

MARK = '<span class="solr-highlight">{}</span>'


def hits(client, query: str, route: str = "/api/search") -> list[str]:
    response = client.get(f"{route}?{query}")
    assert response.status_code == 200, response.json
    return [m["item"]["@id"] for m in response.json["hydra:member"]]


@pytest.mark.parametrize("route", ["/api/search", "/api/nodes_sources/search"])
def test_both_routes_rank_by_matches_then_recency(client, route):
    body = client.get(f"{route}?search=jazz").json
    assert body["@type"] == "hydra:Collection"
    assert body["hydra:totalItems"] == 3
    # every hit has "jazz" in its title: the newest first
    assert [m["item"]["@id"] for m in body["hydra:member"]] == [
        "/api/articles/2101", "/api/articles/6501", "/api/articles/6201"
    ]  # fmt: skip
    member = body["hydra:member"][1]
    assert member["@type"] == "SearchResultItem"
    assert member["@id"].startswith("/.well-known/genid/")
    assert member["item"]["title"] == "Jazz festival: the programme"


def test_more_matched_words_rank_first(client):
    # "jazz mill": 2101 (title: jazz, mill) and 6501 (jazz, mill in text) before 6201 (jazz)
    assert hits(client, "search=jazz+mill") == [
        "/api/articles/2101", "/api/articles/6501", "/api/articles/6201"
    ]  # fmt: skip
    assert hits(client, "search=piano") == ["/api/articles/6101"]


def test_accents_and_case_are_folded_in_both_directions(client):
    assert hits(client, "search=MARCHE&_locale=fr") == hits(client, "search=marché&_locale=fr")
    assert "/api/articles/6302" in hits(client, "search=marche&_locale=fr")
    assert hits(client, "search=marche") == []  # English sources do not say marché


def test_tag_names_are_searched(client):
    # "Événements" is the French name of the events tag: its articles match
    found = hits(client, "search=evenements&_locale=fr&itemsPerPage=50")
    assert "/api/articles/2102" in found and "/api/articles/6202" in found


def test_highlighting_wraps_matched_words_in_title_and_text(client):
    member = client.get("/api/search?search=quartet").json["hydra:member"][0]
    assert member["highlighting"] == {
        "title_txt_en": [f"A jazz {MARK.format('quartet')} on the square"],
        "collection_txt_en": [
            f"The Blue Heron {MARK.format('quartet')} played jazz standards until midnight on "
            "the town square."
        ],
    }
    french = client.get("/api/search?search=hiver&_locale=fr").json["hydra:member"][0]
    assert french["highlighting"]["title_txt_fr"] == [f"Concert d'{MARK.format('hiver')}"]


def test_short_queries_skip_highlighting(client):
    members = client.get("/api/search?search=old").json["hydra:member"]  # 3 characters
    assert members and all(m["highlighting"] == [] for m in members)


def test_long_text_is_cut_around_the_match(make_app):
    site = demo_site()
    long = "word " * 100 + "treasure " + "more " * 100
    node(site, "river-cleanup")["sources"]["en"]["fields"]["content"] = long.strip()
    client = make_app(site).test_client()
    member = client.get("/api/search?search=treasure").json["hydra:member"][0]
    snippet = member["highlighting"]["collection_txt_en"][0]
    assert MARK.format("treasure") in snippet
    assert snippet.startswith("…") and snippet.endswith("…")
    assert len(snippet) - len(MARK.format("")) <= 210


def test_a_word_longer_than_the_index_keeps_is_searched_by_its_first_255_characters(make_app):
    """As Solr's StandardTokenizer stops at 255: a base64 run in rich text is one long word, and
    a posting's `_id` stays small (DocumentDB refuses index keys above 2 KB)."""
    site = demo_site()
    cleanup = node(site, "river-cleanup")
    long = "Zebra" + "q" * 400
    cleanup["sources"]["en"]["fields"]["content"] = f"A {long} crossed the river."
    app = make_app(site)
    client = app.test_client()
    found = [f"/api/articles/{cleanup['sources']['en']['id']}"]
    assert hits(client, f"search={long}") == found
    assert hits(client, f"search={long[:255]}other") == found  # the same first 255 characters
    assert hits(client, f"search={long[:254]}") == []  # a shorter word is another word
    with app.app_context():
        store = get_store()
        postings = store.db[f"postings_v{store.live()['version']}"]
        ids = [p["_id"] for p in postings.find({"_id": {"$regex": "^zebraq"}}, {"_id": 1})]
    assert ids and {i.split("|")[0] for i in ids} == {long[:255].lower()}


def test_only_published_visible_reachable_content_is_found(client):
    assert hits(client, "search=hidden") == []  # hidden-article: invisible node
    assert hits(client, "search=future") == []  # published in 2099
    assert hits(client, "search=draft") == []  # draft article and page
    assert hits(client, "search=quote") == []  # blocks are not reachable
    assert hits(client, "search=members") == []  # the members page: deny realm
    granted = client.get(
        "/api/search?search=members", headers={"Authorization": "PasswordQuery letmein"}
    )
    assert "/api/pages/3201" in [m["item"]["@id"] for m in granted.json["hydra:member"]]


def test_filters_pagination_and_facets(client):
    body = client.get("/api/search?search=jazz&itemsPerPage=1&page=2").json
    assert [m["item"]["@id"] for m in body["hydra:member"]] == ["/api/articles/6501"]
    assert body["hydra:totalItems"] == 3
    assert body["hydra:view"]["hydra:next"] == "/api/search?itemsPerPage=1&search=jazz&page=3"
    assert body["facets"] == {
        "node_type": {"buckets": [{"val": "Article", "count": 3}]},
        "document_type": {"buckets": []},  # documents are not searched
        "tag_name": {"buckets": [{"val": "Events", "count": 3}, {"val": "Culture", "count": 2},
                                 {"val": "Jazz", "count": 2}]},
    }  # fmt: skip
    assert hits(client, "search=jazz&tag_name[]=Culture") == [
        "/api/articles/2101", "/api/articles/6501"
    ]  # fmt: skip
    assert hits(client, "search=jazz&node_type=Page") == []
    assert len(hits(client, "search=the&item_per_page=2")) == 2
    assert len(hits(client, "search=the&itemPerPage=3")) == 3


def test_a_hit_counts_once_per_tag_name(make_app):
    """Two tags of one name in the search's translation: a hit carrying both counts once, as
    filtering on the name lists it once."""
    site = demo_site()
    next(tag for tag in site["tags"] if tag["slug"] == "culture")["names"]["en"] = "Jazz"
    client = make_app(site).test_client()
    body = client.get("/api/search?search=jazz").json
    counts = {bucket["val"]: bucket["count"] for bucket in body["facets"]["tag_name"]["buckets"]}
    assert (
        counts["Jazz"] == len(hits(client, "search=jazz&tag_name=Jazz")) == body["hydra:totalItems"]
    )


def test_an_unavailable_default_translation_shows_nothing(make_app):
    site = demo_site()
    site["translations"][0]["available"] = False  # en, the default
    client = make_app(site).test_client()
    assert hits(client, "search=jazz") == []
    assert hits(client, "search=jazz&_locale=fr") != []


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("", "Search param is required."),
        ("search=", "Search param is required."),
        ("search=jazz&_locale=de", "“de” locale is not available"),
        ("search=jazz&page=0", '"page" must be an integer from 1 to 1000000'),
        ("search=jazz&itemsPerPage=-2", '"itemsPerPage" must be an integer from 0 to 200'),
    ],
)
def test_search_errors(client, query, detail):
    response = client.get(f"/api/search?{query}")
    assert response.status_code == 400
    assert problem_detail(response) == detail


def test_unknown_search_parameters_are_refused(client):
    response = client.get("/api/search?search=jazz&q=x")
    assert response.status_code == 400
    assert problem_detail(response).startswith('Unknown parameter "q" for /api/search')
