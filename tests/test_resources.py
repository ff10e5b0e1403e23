"""Entry points per resource: every @id of a response dereferences (or is a documented 404)."""

from __future__ import annotations

import pytest

from tests.helpers import iris, problem_detail

NOT_REACHABLE = {"content_blocks", "group_blocks", "article_feed_blocks", "menus", "menu_links",
                 "footers"}  # fmt: skip
PAGES = ["/", "/about", "/blog", "/blog/first-article", "/fr", "/fr/blog", "/team", "/premium",
         "/elsewhere"]  # fmt: skip
# IRIs without a GET item operation, as in Roadiz ("NotExposed", roadiz-read-surface.md §1).
NOT_EXPOSED = {"redirections"}


def served(app, collection: str) -> bool:
    """Whether a route serves /api/<collection>/<id> (translations: issue 14's listings)."""
    return any(r.rule.startswith(f"/api/{collection}/") for r in app.url_map.iter_rules())


def test_every_iri_of_the_demo_responses_dereferences(app, client):
    found: set[str] = set()
    for path in PAGES:
        iris(client.get("/api/web_response_by_path", query_string={"path": path}).json, found)
    for locale in ("en", "fr"):
        iris(client.get(f"/api/common_content?_locale={locale}").json, found)
    assert len(found) > 60
    for iri in sorted(found):
        response = client.get(iri)
        collection = iri.split("/")[2]
        not_served = collection == "translations" and not served(app, collection)
        if collection in NOT_REACHABLE | NOT_EXPOSED or not_served:
            # documented: blocks, menus, footers and redirections have no entry
            assert problem_detail(response) == f'No resource "/api/{collection}"'
            continue
        assert response.status_code == 200, (iri, response.json)
        if not iri.startswith("/api/web_response_by_path") and iri != "/api/common_content":
            assert response.json["@id"] == iri


def test_source_item(client):
    body = client.get("/api/pages/1101").json
    assert body["@context"] == "/api/contexts/Page"
    assert body["@id"] == "/api/pages/1101"
    assert body["title"] == "About us"
    assert body["node"]["position"] == 2


@pytest.mark.parametrize(
    ("iri", "status", "detail"),
    [
        ("/api/content_blocks/201", 404, 'No resource "/api/content_blocks"'),  # not reachable
        ("/api/pages/3701", 404, "No Page 3701"),  # draft
        ("/api/pages/3801", 404, "No Page 3801"),  # future
        ("/api/pages/1103", 404, "No Page 1103"),  # unavailable translation (de)
        ("/api/articles/1101", 404, "No Article 1101"),  # a Page, not an Article
        (
            "/api/pages/3201",
            401,
            "WebResponse was denied by Realm authorization, check Www-Authenticate header",
        ),  # fmt: skip
        ("/api/documents/6", 404, "No document 6"),  # private
        ("/api/nodes/37", 404, "No node 37"),  # draft
        ("/api/tags/99", 404, "No tag 99"),
        ("/api/realms/9", 404, "No realm 9"),
    ],
)
def test_documented_errors(client, iri, status, detail):
    response = client.get(iri)
    assert response.status_code == status
    assert problem_detail(response) == detail


def test_collection_is_a_paginated_hydra_collection(client):
    body = client.get("/api/articles?itemsPerPage=3&page=2").json
    assert body["@type"] == "hydra:Collection"
    assert body["@id"] == "/api/articles"
    assert body["hydra:totalItems"] == 10  # published en articles, visible or not
    assert len(body["hydra:member"]) == 3
    assert body["hydra:view"] == {
        "@id": "/api/articles?itemsPerPage=3&page=2",
        "@type": "hydra:PartialCollectionView",
        "hydra:first": "/api/articles?itemsPerPage=3&page=1",
        "hydra:last": "/api/articles?itemsPerPage=3&page=4",
        "hydra:previous": "/api/articles?itemsPerPage=3&page=1",
        "hydra:next": "/api/articles?itemsPerPage=3&page=3",
    }


def test_collection_filters_and_order(client):
    def ids(query):
        return [m["@id"] for m in client.get(f"/api/articles?{query}").json["hydra:member"]]

    assert ids("tags=news,featured") == ["/api/articles/3001", "/api/articles/2401",
                                         "/api/articles/2001"]  # fmt: skip
    assert ids("tags=news,featured&node.visible=true") == ["/api/articles/2401",
                                                           "/api/articles/2001"]  # fmt: skip
    assert ids("order[publishedAt]=asc&itemsPerPage=2") == ["/api/articles/1901",
                                                            "/api/articles/2001"]  # fmt: skip
    assert ids("order[position]=desc&itemsPerPage=1") == ["/api/articles/3001"]
    assert ids("tags=news,no-such-tag") == []
    french = client.get("/api/articles?_locale=fr").json["hydra:member"]
    assert {m["@id"][-2:] for m in french} == {"02"}


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("page=0", "page must be an integer from 1 to 1000000"),
        ("itemsPerPage=101", "itemsPerPage must be an integer from 1 to 100"),
        ("itemsPerPage=-1", "itemsPerPage must be an integer from 1 to 100"),
        ("node.visible=yes", "node.visible must be true or false"),
        ("order[title]=asc", "order must be order[publishedAt] or order[position], asc or desc"),
        ("order[position]=up", "order must be order[publishedAt] or order[position], asc or desc"),
        ("tags=$ne", "tags must be comma-separated tag slugs"),
        ("_locale=de", "No translation for locale de"),
    ],
)
def test_malformed_collection_parameters(client, query, detail):
    response = client.get(f"/api/articles?{query}")
    assert response.status_code in (400, 404)
    assert problem_detail(response) == detail


def test_deny_protected_sources_are_left_out_of_collections(client):
    members = [m["@id"] for m in client.get("/api/pages?itemsPerPage=100").json["hydra:member"]]
    assert "/api/pages/3201" not in members
    opened = client.get("/api/pages?itemsPerPage=100",
                        headers={"Authorization": "PasswordQuery letmein"})  # fmt: skip
    assert "/api/pages/3201" in [m["@id"] for m in opened.json["hydra:member"]]
    assert opened.headers["Cache-Control"] == "private, max-age=60"
