"""No cache-busting: the response cache and @id use the parameters that change the answer; no
cached response depends on Host or X-Forwarded-* headers."""

from __future__ import annotations

import pytest

from tests.helpers import WR

# Parameters the route does not read (a known one given as a list, `_locale[$gt]=a`, is a 400:
# tests/test_hostile_input.py).
JUNK = ["locale[$gt]=a", "cb=12345", "utm_source=x&utm_medium=y", "path2=/legal", "_=1"]


def cache_of(app):
    return app.extensions["cms.response_cache"]


@pytest.fixture
def cold(make_app):
    """A fresh app: an empty response cache."""
    return make_app()


@pytest.mark.parametrize("junk", JUNK)
def test_junk_parameters_share_the_entry_of_web_response_by_path(cold, junk):
    client = cold.test_client()
    plain = client.get(f"{WR}?path=/about")
    assert len(cache_of(cold)) == 1
    busted = client.get(f"{WR}?{junk}&path=/about&{junk}")
    assert busted.status_code == 200
    assert len(cache_of(cold)) == 1  # no new entry: a hit
    assert busted.data == plain.data and busted.headers["ETag"] == plain.headers["ETag"]
    assert busted.json["@id"] == "/api/web_response_by_path?path=/about"


def test_spellings_of_one_path_share_one_entry_and_one_id(cold):
    client = cold.test_client()
    bodies = [client.get(f"{WR}?path={p}") for p in ("/about", "about", "%2Fabout", "/about/")]
    assert len(cache_of(cold)) == 1
    assert {r.json["@id"] for r in bodies} == {"/api/web_response_by_path?path=/about"}
    assert len({r.data for r in bodies}) == 1


@pytest.mark.parametrize("junk", JUNK)
def test_junk_parameters_share_the_entry_of_common_content(cold, junk):
    client = cold.test_client()
    plain = client.get("/api/common_content?_locale=fr")
    busted = client.get(f"/api/common_content?{junk}&_locale=fr")
    assert busted.status_code == 200 and busted.data == plain.data
    assert len(cache_of(cold)) == 1


def test_common_content_is_keyed_by_the_resolved_translation(cold):
    client = cold.test_client()
    explicit = client.get("/api/common_content?_locale=fr")
    negotiated = client.get("/api/common_content", headers={"Accept-Language": "fr-CH, fr;q=0.9"})
    other_spelling = client.get("/api/common_content", headers={"Accept-Language": "fr"})
    assert explicit.data == negotiated.data == other_spelling.data
    assert len(cache_of(cold)) == 1
    english = client.get("/api/common_content", headers={"Accept-Language": "en"})
    assert english.headers["Content-Language"] == "en"
    assert len(cache_of(cold)) == 2


def test_collection_parameters_are_keyed_in_canonical_order(cold):
    client = cold.test_client()
    first = client.get("/api/articles?itemsPerPage=1&_locale=en&page=2")
    second = client.get("/api/articles?page=2&_locale=en&itemsPerPage=1")
    assert first.status_code == second.status_code == 200
    assert first.data == second.data
    assert len(cache_of(cold)) == 1
    assert first.json["hydra:view"]["@id"] == "/api/articles?_locale=en&itemsPerPage=1&page=2"
    assert client.get("/api/articles?itemsPerPage=2&_locale=en&page=2").data != first.data
    assert len(cache_of(cold)) == 2


def test_order_parameters_keep_their_relative_order(cold):
    client = cold.test_client()
    by_position = client.get("/api/articles?order[node.position]=asc&order[publishedAt]=desc")
    by_date = client.get("/api/articles?order[publishedAt]=desc&order[node.position]=asc")
    assert len(cache_of(cold)) == 2  # two different sorts
    by_position_iri = by_position.json["hydra:view"]["@id"]
    assert by_position_iri.startswith("/api/articles?order%5Bnode.position%5D")
    assert by_date.json["hydra:view"]["@id"].startswith("/api/articles?order%5BpublishedAt%5D")


# Every cacheable route: public responses (and the contexts and API description they link to).
CACHEABLE = [
    f"{WR}?path=/",
    f"{WR}?path=/about",
    f"{WR}?path=/old-about",
    f"{WR}?path=/elsewhere",
    f"{WR}?path=/fr/blog",
    "/api/common_content",
    "/api/common_content?_locale=fr",
    "/api/contexts/WebResponse",
    "/api/contexts/Page",
    "/api/contexts/Error",
    "/api/articles",
    "/api/articles?itemsPerPage=1&page=2",
    "/api/pages/1101",
    "/api/nodes/11",
    "/api/documents/1",
    "/api/tags/3",
    "/api/realms/2",
    "/api/docs.json",
]
FORGED = {
    "Host": {"Host": "evil.example"},
    "X-Forwarded-Host": {"X-Forwarded-Host": "evil.example"},
    "X-Forwarded-Proto": {"X-Forwarded-Proto": "https"},
    "all": {
        "Host": "evil.example:8443",
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Port": "8443",
        "X-Forwarded-Prefix": "/evil",
    },  # fmt: skip
}
HEADERS = ("ETag", "Content-Location", "Location", "Link", "Cache-Tags", "Content-Language")


def responses(app, headers):
    client = app.test_client()
    return {url: client.get(url, headers=headers) for url in CACHEABLE}


@pytest.fixture(scope="module")
def reference(make_app):
    """Each cacheable response as a plain request gets it (fresh process, cache off)."""
    return responses(make_app(RESPONSE_CACHE=False), {})


@pytest.mark.parametrize("forged", list(FORGED), ids=list(FORGED))
@pytest.mark.parametrize("proxies", [0, 1], ids=["direct", "behind-proxyfix"])
def test_forged_host_headers_change_no_cacheable_response(make_app, reference, forged, proxies):
    # A fresh process for the forged requests: nothing they get was built for another request.
    app = make_app(RESPONSE_CACHE=False, PROXY_COUNT=proxies)
    got = responses(app, FORGED[forged])
    for url, expected in reference.items():
        assert expected.status_code == 200 or url.endswith("old-about"), url
        assert got[url].status_code == expected.status_code, url
        assert got[url].data == expected.data, url
        for name in HEADERS:
            assert got[url].headers.get(name) == expected.headers.get(name), (url, name)
        assert "evil" not in got[url].get_data(as_text=True), url
