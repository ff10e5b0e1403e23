"""HTTP caching: ETag/304, Cache-Control and its clamp, Cache-Tags, Link, the response cache."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from app.api.response_cache import CachedResponse, ResponseCache
from app.fixture.load import load_site
from tests.conftest import demo_site
from tests.helpers import WR, get_path, node
from tests.sites import with_blocks

VARY = "Accept, Accept-Language, Authorization, Origin, Accept-Encoding"


def test_304_round_trip(client):
    first = get_path(client, "/about")
    etag = first.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    again = get_path(client, "/about", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag


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


def test_cache_tags_are_bounded(make_app):
    client = make_app(with_blocks(10, 99), RESPONSE_CACHE=False).test_client()
    tags = get_path(client, "/about").headers["Cache-Tags"]
    assert len(tags) <= 4096
    assert tags.endswith(",overflow")


def test_link_alternates_list_every_shown_translation_as_roadiz(client):
    # every shown translation, the page's own included, in translation order; title: the Base64
    # translation name; attributes in Roadiz's order; "," without space
    english = '</about>; rel="alternate"; hreflang="en"; title="RW5nbGlzaA=="; type="text/html"'
    french = '</a-propos>; rel="alternate"; hreflang="fr"; title="RnJhbsOnYWlz"; type="text/html"'
    assert get_path(client, "/about").headers["Link"] == f"{english},{french}"  # de unavailable
    assert get_path(client, "/a-propos").headers["Link"] == f"{english},{french}"
    assert client.get("/api/pages/1101").headers["Link"] == f"{english},{french}"
    assert get_path(client, "/blog/english-only-note").headers["Link"] == (
        '</blog/english-only-note>; rel="alternate"; hreflang="en"; title="RW5nbGlzaA=="; '
        'type="text/html"'
    )


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
