"""HTTP caching: ETag/304, Cache-Control and its clamp, Cache-Tags, Link, the response cache."""

from __future__ import annotations

import http.client
import re
import threading
from base64 import b64decode
from datetime import UTC, datetime, timedelta

import orjson
import pytest
from werkzeug.serving import make_server

from app.api.response_cache import CachedResponse, ResponseCache
from app.fixture.load import load_site
from app.reply import cache_tags, compact_tag
from tests.conftest import demo_site
from tests.helpers import WR, get_path, node, problem_detail
from tests.sites import with_blocks
from tests.test_indexes import CREDENTIALS

VARY = "Accept, Accept-Language, Authorization, Origin, Accept-Encoding"


def test_304_round_trip(client):
    first = get_path(client, "/about")
    etag = first.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    again = get_path(client, "/about", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag


@pytest.mark.parametrize(
    "url", [f"{WR}?path=/about", "/api/articles?_locale=en", "/api/pages/1101"]
)
def test_an_if_match_that_fails_is_a_412_problem_not_the_representation(client, url):
    """RFC 9110 §13.1.1: a strong comparison; the answer is an error (behaviour.md: every error
    is problem+json, never stored), not the 200 body werkzeug would send with a 412."""
    etag = client.get(url).headers["ETag"]
    for given in ('"nope"', f"W/{etag}", '"nope", "other"'):
        response = client.get(url, headers={"If-Match": given})
        assert response.status_code == 412, given
        assert response.mimetype == "application/problem+json"
        assert problem_detail(response) == "The representation's ETag does not match If-Match."
        assert response.headers["Cache-Control"] == "no-store"
        assert "ETag" not in response.headers
    for given in (etag, "*", f'"other", {etag}'):
        assert client.get(url, headers={"If-Match": given}).status_code == 200, given
    # If-Match holds: If-None-Match decides (§13.2.2)
    both = client.get(url, headers={"If-Match": "*", "If-None-Match": etag})
    assert (both.status_code, both.data) == (304, b"")


@pytest.mark.parametrize("url", ["/api", "/api/contexts/Page", "/api/docs.jsonld"])
def test_the_entry_point_contexts_and_vocabulary_are_tagged_and_revalidate(client, url):
    """behaviour.md (HTTP caching): a strong ETag and a 304 on If-None-Match; `/api` and the
    contexts answer HTML or 406 by Accept, so they say they vary by it."""
    response = client.get(url)
    etag = response.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    again = client.get(url, headers={"If-None-Match": etag})
    assert (again.status_code, again.data, again.headers["ETag"]) == (304, b"", etag)
    vary = {v.strip() for v in response.headers.get("Vary", "").split(",") if v.strip()}
    assert vary == (set() if url == "/api/docs.jsonld" else {"Accept"})


def test_a_ttl_past_what_caches_read_is_sent_as_2_to_the_31_seconds(make_app):
    """A node's ttl is any integer of 64 bits (the fixture's rule); in seconds it is sent as at
    most 2^31, the most a cache reads (RFC 9111, 1.2.2), not past what JSON numbers of 64 bits
    hold (a 500 before)."""
    site = demo_site()
    node(site, "about")["ttl"] = 2**63 - 1
    response = get_path(make_app(site).test_client(), "/about")
    assert response.status_code == 200 and response.json["maxAge"] == 2**31
    assert response.headers["Cache-Control"] == (
        f"public, max-age=60, s-maxage={2**31}, stale-while-revalidate=3600"
    )


def test_public_headers(client):
    response = get_path(client, "/about")
    assert response.headers["Cache-Control"] == (
        "public, max-age=60, s-maxage=1800, stale-while-revalidate=3600"
    )  # about's node ttl is 30 minutes
    assert response.headers["Vary"] == VARY
    assert response.headers["Content-Language"] == "en"
    assert response.mimetype == "application/ld+json"


def test_etag_changes_when_and_only_when_content_changes(make_app):
    app = make_app()
    client = app.test_client()
    about, legal = (get_path(client, p).headers["ETag"] for p in ("/about", "/legal"))
    store = app.extensions["cms.store"]
    with app.app_context():
        load_site(store, demo_site(), force=True)  # same content, new generation
    assert get_path(client, "/about").headers["ETag"] == about
    site = demo_site()
    node(site, "about")["sources"]["en"]["title"] = "About the town"
    with app.app_context():
        load_site(store, site)
    assert get_path(client, "/about").headers["ETag"] != about
    assert get_path(client, "/legal").headers["ETag"] == legal


def test_cache_tags_of_a_page_exactly(client):
    """roadiz-read-surface.md §7: `/api/` dropped, pages/ -> p/, nodes/ -> n/, translations/ ->
    tl/, tags/ -> t/, documents/ -> d/, _blocks/ -> _b/; in order of appearance, de-duplicated;
    the WebResponse's own @id (a query) is no resource."""
    assert get_path(client, "/about").headers["Cache-Tags"] == (
        "p/1101,n/11,tl/1,articles/1901,n/19,t/1,d/1,content_b/1201,n/12,articles/2701,n/27,t/2,"
        "t/3,d/4,articles/2601,n/26,articles/2501,n/25,t/4,d/3,articles/2401,n/24,"
        "article_feed_b/1301,n/13"
    )
    assert get_path(client, "/elsewhere").headers["Cache-Tags"] == "redirections/2,d/1"


def test_cache_tags_of_a_collection_start_with_its_path(client):
    response = client.get("/api/pages?itemsPerPage=2")
    tags = response.headers["Cache-Tags"].split(",")
    first = response.json["hydra:member"][0]
    assert tags[:4] == [
        "pages",
        first["@id"].replace("/api/pages/", "p/"),
        first["node"]["@id"].replace("/api/nodes/", "n/"),
        first["translation"]["@id"].replace("/api/translations/", "tl/"),
    ]
    assert len(tags) == len(set(tags))
    assert client.get("/api/realms/1").headers["Cache-Tags"] == "realms/1"


@pytest.mark.parametrize(
    ("iri", "tag"),
    [
        ("/api/documents/3", "d/3"),
        ("/api/nodes/7", "n/7"),
        ("/api/nodes_sources/7", "ns/7"),
        ("/api/tags/3", "t/3"),
        ("/api/translations/1", "tl/1"),
        ("/api/pages/7", "p/7"),
        ("/api/custom_forms/2", "cf/2"),
        ("/api/folders/4", "f/4"),
        ("/api/content_blocks/12", "content_b/12"),
        ("/api/pages", "pages"),
        ("/api/articles/5", "articles/5"),
        ("/.well-known/genid/4f2a", None),
        ("_:head-en-1101", None),
        ("/api/web_response_by_path?path=/about", None),
        ("/api/pages?page=2", None),
    ],
)
def test_compact_tag_follows_roadiz(iri, tag):
    assert compact_tag(iri) == tag


def test_cache_tags_list_every_resource_of_the_body_in_roadiz_compact_form(client):
    response = get_path(client, "/about")
    tags = response.headers["Cache-Tags"].split(",")
    assert tags[:2] == ["p/1101", "n/11"]  # the item first
    for expected in ("articles/1901", "n/19", "t/1", "content_b/1201", "n/12",
                     "article_feed_b/1301", "articles/2701", "d/1"):  # fmt: skip
        assert expected in tags
    assert all(re.fullmatch(r"[a-z_]+/\d+", t) for t in tags)
    assert len(tags) == len(set(tags))
    # collections: their path first; blank nodes (genid) carry no tag
    tags = client.get("/api/pages?itemsPerPage=1").headers["Cache-Tags"]
    assert tags == "pages,p/101,n/1,tl/1,d/2,d/1"  # node, translation, header image, pictures
    archives = client.get("/api/articles/archives").headers["Cache-Tags"]
    assert archives == "articles/archives"


def _tags_of_body(body) -> list[str]:
    """The reference the header is checked against: every string `@id` of the decoded body, in
    document order, compacted, de-duplicated."""
    seen: dict[str, None] = {}

    def visit(value) -> None:
        if isinstance(value, dict):
            for key, child in value.items():
                if key == "@id" and isinstance(child, str) and (tag := compact_tag(child)):
                    seen.setdefault(tag)
                visit(child)
        elif isinstance(value, list):
            for child in value:
                visit(child)

    visit(body)
    return list(seen)


def test_cache_tags_name_every_iri_of_the_body_in_order(client, store):
    """The header is read off the serialised body (app.reply.cache_tags): every page of the
    demo site with and without preview, common content, collections and listings give exactly
    the tags of their decoded body."""
    version = store.live()["version"]
    paths = sorted(p["_id"] for p in store.db[f"paths_v{version}"].find())
    urls = [f"/api/web_response_by_path?path={p}{preview}" for p in paths
            for preview in ("", "&_preview=1")]  # fmt: skip
    urls += ["/api/common_content?_locale=fr", "/api/pages?itemsPerPage=3",
             "/api/articles?order[publishedAt]=desc", "/api/tags", "/api/documents",
             "/api/search?search=concert", "/api/articles/archives"]  # fmt: skip
    checked = 0
    for headers in CREDENTIALS:
        for url in urls:
            response = client.get(url, headers=headers)
            if response.status_code == 200:
                tags = ",".join(_tags_of_body(response.json))
                assert response.headers["Cache-Tags"] == tags, url
                checked += 1
    assert checked > 100


def test_cache_tags_read_only_members_named_at_id():
    """Text that looks like a member inside a string is no IRI; escaped and non-ASCII IRIs are
    decoded."""
    body = {
        "@id": "/api/pages/1",
        "title": 'say {"@id":"/api/pages/9"}, "@id":"/api/pages/8"',
        "items": [{"@type": "Tag", "@id": '/api/tags/"2'}, {"@id": "/api/tags/été"}, {"@id": 3}],
        "json": {"nested": [{"@id": "/api/documents/4"}, {"@id": "/api/tags/back\\"}]},
        "after": {"@id": "/api/pages/1"},
    }
    assert cache_tags(orjson.dumps(body)) == ["p/1", 't/"2', "t/été", "d/4", "t/back\\"]


def test_cache_tags_are_bounded(make_app):
    client = make_app(with_blocks(10, 99), RESPONSE_CACHE=False).test_client()
    tags = get_path(client, "/about").headers["Cache-Tags"]
    assert len(tags) <= 4096
    assert tags.endswith(",overflow")


API_DOCUMENTATION = '</api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"'


def test_link_alternates_exact_values(client):
    """Own translation included, in translation order; title = Base64 of the translation name;
    attribute order fixed (the official client reads them by position); joined by `,`."""
    en = 'rel="alternate"; hreflang="en"; title="RW5nbGlzaA=="; type="text/html"'
    fr = 'rel="alternate"; hreflang="fr"; title="RnJhbsOnYWlz"; type="text/html"'
    docs = f",{API_DOCUMENTATION}"  # last, on every response
    assert get_path(client, "/about").headers["Link"] == f"</about>; {en},</a-propos>; {fr}{docs}"
    assert get_path(client, "/fr/blog").headers["Link"] == f"</blog>; {en},</fr/blog>; {fr}{docs}"
    assert client.get("/api/pages/1101").headers["Link"] == (
        f"</about>; {en},</a-propos>; {fr}{docs}"
    )
    # de is unavailable: not shown; a page alone in its node still names itself
    assert get_path(client, "/blog/english-only-note").headers["Link"] == (
        f"</blog/english-only-note>; {en}{docs}"
    )


@pytest.mark.parametrize(
    "url",
    ["/api/articles", "/api/tags/3", "/api/common_content", "/api/search?search=jazz", "/api",
     "/api/contexts/Page", "/api/pages/abc", "/api/articles?foo=1"],
)  # fmt: skip
def test_every_response_links_the_hydra_api_documentation(client, url):
    """API Platform's discovery link (roadiz-read-surface.md §7), relative: a cached response
    names no host; the documentation it names is served there."""
    assert client.get(url).headers["Link"] == API_DOCUMENTATION
    assert client.get("/api/docs.jsonld").status_code == 200


def test_link_alternates_decode_to_the_translation_names(client):
    link = get_path(client, "/about").headers["Link"]
    titles = re.findall(r'title="([^"]*)"', link)
    assert [b64decode(t).decode() for t in titles] == ["English", "Français"]


def test_s_maxage_never_outlives_the_next_publication(make_app):
    site = demo_site()
    soon = datetime.now(UTC) + timedelta(seconds=30)
    node(site, "future-article")["sources"]["en"]["published_at"] = soon.isoformat()
    client = make_app(site).test_client()
    control = get_path(client, "/about").headers["Cache-Control"]
    match = re.fullmatch(
        r"public, max-age=(\d+), s-maxage=(\d+), stale-while-revalidate=3600", control
    )
    assert match, control
    assert 20 <= int(match[1]) <= 30 and 20 <= int(match[2]) <= 30


def test_plain_json_is_served_on_request(client):
    ld = get_path(client, "/about")
    plain = get_path(client, "/about", headers={"Accept": "application/json"})
    assert plain.mimetype == "application/json"
    assert "@context" in ld.json and "@context" not in plain.json  # tests/test_negotiation.py
    assert plain.json["item"]["title"] == ld.json["item"]["title"]
    assert plain.headers["ETag"] != ld.headers["ETag"]


def test_a_repeated_public_request_is_served_from_the_cache(make_app):
    app = make_app()
    client = app.test_client()
    store = app.extensions["cms.store"]
    first = get_path(client, "/")
    before = store.commands
    second = get_path(client, "/")
    assert store.commands - before == 1  # the live pointer only (SITE_VERSION_TTL is 0 here)
    assert second.data == first.data
    assert second.headers["ETag"] == first.headers["ETag"]


def test_private_requests_bypass_the_cache(make_app):
    app = make_app()
    client = app.test_client()
    store = app.extensions["cms.store"]
    get_path(client, "/premium")
    get_path(client, "/members", headers={"Authorization": "PasswordQuery letmein"})
    before = store.commands
    get_path(client, "/premium")  # realm-protected: never stored
    assert store.commands - before > 1
    before = store.commands
    client.get(WR + "?path=/members&password=letmein")
    assert store.commands - before > 1


def test_cache_entries_expire_at_the_next_publication():
    cache = ResponseCache(10)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    entry = CachedResponse(b"{}", {}, 60)
    cache.put(("k",), entry, now + timedelta(seconds=5))
    assert cache.get(("k",), now) is entry
    assert cache.get(("k",), now + timedelta(seconds=5)) is None


def test_cache_is_bounded_lru():
    cache = ResponseCache(2)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    for key in ("a", "b"):
        cache.put((key,), CachedResponse(key.encode(), {}, 60), None)
    cache.get(("a",), now)
    cache.put(("c",), CachedResponse(b"c", {}, 60), None)
    assert cache.get(("b",), now) is None and cache.get(("a",), now) is not None
    assert len(cache) == 2


def test_a_response_carries_one_date_header_on_the_wire(make_app):
    """make_conditional adds a Date and the server writes its own: two would be a malformed
    response (nginx drops one with a warning), so the app leaves Date to the server."""
    server = make_server("127.0.0.1", 0, make_app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        for path in (f"{WR}?path=/about", "/api/pages/1101", "/api/articles", "/api",
                     "/api/contexts/Page", "/api/docs.jsonld"):  # fmt: skip
            for _ in ("a miss", "a hit"):
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                connection.close()
                assert response.status == 200
                assert len(response.headers.get_all("Date")) == 1, path
    finally:
        server.shutdown()
        thread.join()
