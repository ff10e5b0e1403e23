"""Content negotiation as API Platform: JSON-LD by default, plain JSON on request, 406 otherwise."""

from __future__ import annotations

import pytest

from tests.helpers import WR, problem_detail


def test_json_ld_is_the_default(client):
    for accept in (None, "*/*", "application/ld+json", "application/*"):
        headers = {"Accept": accept} if accept else {}
        response = client.get("/api/pages/1101", headers=headers)
        assert response.headers["Content-Type"] == "application/ld+json; charset=utf-8", accept
        assert response.json["@id"] == "/api/pages/1101"


def test_every_json_body_says_its_charset_as_roadiz(client):
    """roadiz-read-surface.md §1: `application/ld+json; charset=utf-8`; so are the other JSON
    media types, from the response cache (a second request) and out of it."""
    for _ in range(2):
        for url, accept, expected in [
            (f"{WR}?path=/about", None, "application/ld+json"),
            ("/api/articles?_locale=en", None, "application/ld+json"),
            ("/api/articles?_locale=en", "application/json", "application/json"),
            ("/api/contexts/Page", None, "application/ld+json"),
            ("/api/pages/abc", None, "application/problem+json"),
        ]:
            headers = {"Accept": accept} if accept else {}
            response = client.get(url, headers=headers)
            assert response.headers["Content-Type"] == f"{expected}; charset=utf-8", url


def test_json_drops_at_keys_but_node_source_types_and_documents(client):
    ld = client.get("/api/articles/2001").json
    plain = client.get("/api/articles/2001", headers={"Accept": "application/json"})
    assert plain.mimetype == "application/json"
    body = plain.json
    assert "@context" not in body and "@id" not in body
    assert body["@type"] == "Article"  # node sources keep their type
    assert body["node"] == {k: v for k, v in ld["node"].items() if k not in ("@id", "@type")} | {
        "tags": [
            {k: v for k, v in t.items() if k not in ("@id", "@type")} for t in ld["node"]["tags"]
        ]
    }
    assert body["image"][0]["@type"] == "Document"  # documents keep @id and @type
    assert body["image"][0]["@id"] == "/api/documents/3"
    assert body["title"] == ld["title"]


def test_json_collections_are_bare_arrays(client):
    plain = client.get("/api/articles?itemsPerPage=2", headers={"Accept": "application/json"})
    assert isinstance(plain.json, list)
    assert [m["title"] for m in plain.json] == ["Our first article", "Notre premier article"]
    assert all("@id" not in m for m in plain.json)


@pytest.mark.parametrize(
    ("url", "accept", "mimetype"),
    [
        ("/api/pages/1101.json", None, "application/json"),
        ("/api/pages/1101.jsonld", "application/json", "application/ld+json"),
        ("/api/pages.json", "text/html", "application/json"),  # the suffix beats Accept
        ("/api/articles.jsonld?itemsPerPage=1", None, "application/ld+json"),
    ],
)
def test_a_format_suffix_beats_accept(client, url, accept, mimetype):
    response = client.get(url, headers={"Accept": accept} if accept else {})
    assert response.status_code == 200
    assert response.mimetype == mimetype
    is_list = isinstance(response.json, list)
    assert is_list == (mimetype == "application/json" and "/1101" not in url)


@pytest.mark.parametrize("accept", ["text/html", "text/csv", "application/xml"])
def test_other_types_are_406_problems(client, accept):
    for url in (f"{WR}?path=/about", "/api/pages", "/api/pages/1101"):
        response = client.get(url, headers={"Accept": accept})
        assert response.status_code == 406
        assert problem_detail(response) == (
            "Requested format is not supported: use application/ld+json or application/json."
        )


def test_each_format_has_its_own_etag(client):
    ld = client.get("/api/pages/1101")
    plain = client.get("/api/pages/1101.json")
    assert ld.headers["ETag"] != plain.headers["ETag"]
    again = client.get("/api/pages/1101.json", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304
