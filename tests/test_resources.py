"""Entry points per resource: every @id of a response dereferences (or is a documented 404)."""

from __future__ import annotations

import pytest

from app.naming import plural
from tests.conftest import demo_site
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
    # roadiz-read-surface.md §2: an item adds noIndex; node references belong to the WebResponse
    # item, and so does the node's position
    assert body["noIndex"] is False
    assert "nodeReferences" not in body
    # and, at its @id, its node's name and its children's order, which listingSortOptions repeats
    assert body["node"] == {"@type": "Node", "@id": "/api/nodes/11", "nodeName": "about",
                            "visible": True, "childrenOrder": "position",
                            "childrenOrderDirection": "ASC", "tags": []}  # fmt: skip
    assert body["listingSortOptions"] == {"node.position": "ASC"}
    page = client.get("/api/web_response_by_path?path=/about").json["item"]
    assert page["node"]["position"] == 2
    assert [r["@id"] for r in page["nodeReferences"]] == ["/api/articles/1901"]
    assert {k: v for k, v in page.items() if k not in ("nodeReferences", "urlAliases", "node")} == {
        k: v
        for k, v in body.items()
        if k not in ("@context", "noIndex", "listingSortOptions", "node")
    }


def test_collection_members_list_no_references_and_links_no_url(client):
    """roadiz-read-surface.md §2: node-reference fields belong to <type>_get_by_path, meta fields
    to the item; `url` is for reachable types only (a menu link shows where it points in a menu,
    not in a list)."""
    member = client.get("/api/pages?node.id=11&_locale=en").json["hydra:member"][0]
    assert member["@id"] == "/api/pages/1101"
    assert "nodeReferences" not in member and "noIndex" not in member
    assert "metaTitle" not in member and "metaDescription" not in member  # the item adds them
    assert member["node"] == {"@type": "Node", "@id": "/api/nodes/11", "nodeName": "about",
                              "visible": True, "tags": []}  # fmt: skip
    links = client.get("/api/nodes_sources?node.nodeTypeName=MenuLink&_locale=en").json
    assert links["hydra:member"]
    for link in links["hydra:member"]:
        assert "url" not in link and "linkInternalReference" not in link, link
        assert link["linkExternalUrl"] is None or link["linkExternalUrl"].startswith("http")
    menus = client.get("/api/common_content?_locale=en").json["menus"]
    assert any("url" in walker["item"] for menu in menus.values() for walker in menu["children"])


ROUTER_404 = (
    "The requested URL was not found on the server. If you entered the URL manually please check "
    "your spelling and try again."
)


@pytest.mark.parametrize(
    ("iri", "status", "detail"),
    [
        ("/api/content_blocks/201", 404, 'No resource "/api/content_blocks"'),  # not reachable
        ("/api/pages/3701", 404, "Not Found"),  # draft
        ("/api/pages/3801", 404, "Not Found"),  # future
        ("/api/pages/1103", 404, "Not Found"),  # unavailable translation (de)
        ("/api/articles/1101", 404, "Not Found"),  # a Page, not an Article
        (
            "/api/pages/3201",
            401,
            "WebResponse was denied by Realm authorization, check Www-Authenticate header",
        ),  # fmt: skip
        ("/api/documents/99", 404, "Not Found"),
        ("/api/nodes/37", 404, "Not Found"),  # draft
        ("/api/tags/99", 404, "Not Found"),
        ("/api/realms/9", 404, "Not Found"),
        # an id that is not one (roadiz-read-surface.md §1, Errors), on every item route
        ("/api/pages/abc", 404, "Invalid identifier value or configuration."),
        ("/api/pages/1.5", 404, "Invalid identifier value or configuration."),
        ("/api/pages/abc.json", 404, "Invalid identifier value or configuration."),
        ("/api/nodes/abc", 404, "Invalid identifier value or configuration."),
        ("/api/documents/1e3", 404, "Invalid identifier value or configuration."),
        ("/api/tags/x", 404, "Invalid identifier value or configuration."),
        ("/api/realms/%20", 404, "Invalid identifier value or configuration."),
        ("/api/translations/one", 404, "Invalid identifier value or configuration."),
        # digits of other scripts are not an id: one resource has one URL (Arabic-Indic,
        # fullwidth, Devanagari 1101; Python's \\d takes them)
        ("/api/pages/%D9%A1%D9%A1%D9%A0%D9%A1", 404, "Invalid identifier value or configuration."),
        (
            "/api/pages/%EF%BC%91%EF%BC%91%EF%BC%90%EF%BC%91",
            404,
            "Invalid identifier value or configuration.",
        ),  # fmt: skip
        ("/api/tags/%E0%A5%AB", 404, "Invalid identifier value or configuration."),
        ("/api/translations/%D9%A1", 404, "Invalid identifier value or configuration."),
        # a number the routes do not take: negative, or beyond int64
        ("/api/pages/-1", 404, "Not Found"),
        ("/api/tags/99999999999999999999", 404, "Not Found"),
        # not an item route at all: a type that is not reachable, or none, as with a number
        ("/api/content_blocks/abc", 404, ROUTER_404),
        ("/api/no_such_things/abc", 404, ROUTER_404),
        ("/api/pages/1101/extra", 404, ROUTER_404),
    ],
)
def test_documented_errors(client, iri, status, detail):
    response = client.get(iri)
    assert response.status_code == status
    assert problem_detail(response) == detail


# Collections: tests/test_collections.py


@pytest.mark.parametrize(
    ("type_name", "collection"),
    [("BlogPost", "blog_posts"), ("Gallery", "galleries"), ("Person", "people"),
     ("TeamPerson", "team_people"), ("Medium", "media"), ("News", "news"),
     ("Category", "categories"), ("Box", "boxes"), ("Status", "statuses"), ("Child", "children"),
     ("Leaf", "leaves"), ("Analysis", "analyses"), ("Key", "keys"), ("Quiz", "quizzes"),
     ("ArticleContainer", "article_containers"), ("Woman", "women"), ("Series", "series"),
     ("Software", "software"), ("Criterion", "criteria"), ("Datum", "data"), ("Wife", "wives"),
     ("Hero", "heroes"), ("Index", "indices"), ("Alias", "aliases"), ("Mouse", "mice"),
     ("Cactus", "cacti"), ("SocialMedia", "social_media"), ("Bus", "buses")],
)  # fmt: skip
def test_a_node_type_is_listed_under_the_plural_roadiz_gives_it(type_name, collection):
    """Doctrine Inflector's English plural of the snake-case name, as API Platform names
    Roadiz's collections (roadiz-read-surface.md §2: Person -> people)."""
    assert plural(type_name) == collection


def test_an_irregular_plural_is_the_route_of_its_collection_and_items(make_app):
    site = demo_site()
    site["node_types"].append({"name": "Person", "reachable": True, "fields": []})
    source = {"id": 9001, "title": "Ada", "published_at": "2024-01-02T08:00:00+00:00"}
    node = {"id": 90, "node_name": "ada", "type": "Person", "parent": None, "position": 9}
    site["nodes"].append({**node, "status": "published", "sources": {"en": source}})
    client = make_app(site).test_client()
    listed = client.get("/api/people").json
    assert [m["@id"] for m in listed["hydra:member"]] == ["/api/people/9001"]
    assert client.get("/api/people/9001").json["@type"] == "Person"
    page = client.get("/api/web_response_by_path?path=/ada").json
    assert page["item"]["@id"] == "/api/people/9001"
    assert client.get("/api/persons").status_code == 404


@pytest.mark.parametrize("item", ["/api/tags/5", "/api/documents/2", "/api/nodes/1"])
@pytest.mark.parametrize("locale", ["xx", "de", "FR"])
def test_a_locale_the_request_may_not_see_is_the_same_400_on_every_item_and_collection(
    client, item, locale
):
    """One rule for `_locale` (app.listing.sources.shown_locale): the documents and nodes items
    answered 404 `No translation for locale xx` where their collections and tags answer 400
    (an independent review); `de` is unavailable outside preview; locales are exact."""
    expected = f'Locale filter value "{locale}" not supported. Supported values are en, fr'
    for url in (f"{item}?_locale={locale}", f"{item.rsplit('/', 1)[0]}?_locale={locale}"):
        if url.startswith("/api/nodes?"):
            continue  # no node collection
        response = client.get(url)
        assert response.status_code == 400, url
        assert problem_detail(response) == expected, url
    assert client.get(f"{item}?_locale=fr").status_code == 200
