"""JSON-LD: every response expands with pyld, through the served contexts, to the expected IRIs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urljoin

import pytest
from pyld import jsonld

from app.fixture.load import load_site
from tests.conftest import demo_site
from tests.helpers import get_path

BASE = "http://localhost/"
VOCAB = BASE + "api/docs.jsonld#"
HYDRA = "http://www.w3.org/ns/hydra/core#"
XSD = "http://www.w3.org/2001/XMLSchema#"
BUILT_IN = [
    "WebResponse", "CommonContent", "Error", "Node", "Breadcrumbs", "NodesSourcesHead",
    "AutoChildrenNodeSourceWalker", "MenuNodeSourceWalker", "Realm", "Redirection", "Tag",
    "Document", "Translation", "Archive", "SearchResultItem", "NodesSources", "Entrypoint",
]  # fmt: skip
NODE_TYPES = [t["name"] for t in demo_site()["node_types"]]


def loader(client) -> Callable[..., dict[str, Any]]:
    """A pyld document loader that reads through the Flask test client (no network)."""

    def load(url: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
        assert url.startswith(BASE), url
        response = client.get(url[len(BASE) - 1 :], headers={"Accept": "application/ld+json"})
        assert response.status_code == 200, (url, response.data)
        assert response.mimetype == "application/ld+json"
        return {
            "contentType": response.mimetype,
            "contextUrl": None,
            "documentUrl": url,
            "document": response.json,
        }

    return load


def expand(client, body: Any) -> dict[str, Any]:
    """The one top-level node of `body`, expanded."""
    expanded = jsonld.expand(body, {"documentLoader": loader(client), "base": BASE})
    assert len(expanded) == 1
    return expanded[0]


def type_iri(name: str) -> str:
    """The IRI a @type value expands to."""
    if name == "IriTemplateMapping":
        return HYDRA + name
    prefix, _, local = name.partition(":")
    return HYDRA + local if prefix == "hydra" and local else VOCAB + name


def iri(owner: str | None, key: str) -> str:
    """The IRI the property `key` of an object whose @type is `owner` expands to: API Platform's
    term `<owner>/<key>` under the vocabulary (`Error/…` for a hydra:Error); Hydra's own for
    `hydra:` keys and the properties of an IriTemplateMapping; the vocabulary's for the keys of
    untyped objects."""
    prefix, _, local = key.partition(":")
    if prefix == "hydra" and local:
        return HYDRA + local
    if owner == "IriTemplateMapping":
        return HYDRA + key
    if owner is None or owner == "hydra:Collection":  # (the search facets beside the members)
        return VOCAB + key
    return VOCAB + owner.removeprefix("hydra:") + "/" + key


def documented_properties(client) -> set[str]:
    """The IRIs of every hydra:supportedProperty of /api/docs.jsonld, expanded."""
    body = client.get("/api/docs.jsonld").json
    (documentation,) = jsonld.expand(body, {"base": BASE + "api/docs.jsonld"})
    return {
        supported[HYDRA + "property"][0]["@id"]
        for one in documentation[HYDRA + "supportedClass"]
        for supported in one.get(HYDRA + "supportedProperty", [])
    }


def assert_expanded(
    original: dict[str, Any], node: dict[str, Any], documented: set[str] | None = None
) -> None:
    """`node` is `original` expanded: same @id and @type, and every non-null property under the
    IRI of its owner's type (each one of `documented`, when given), with as many values,
    recursively."""
    if "@id" in original:
        identifier = original["@id"]
        expected = identifier if identifier.startswith("_:") else urljoin(BASE, identifier)
        assert node["@id"] == expected
    owner = original.get("@type")
    if owner is not None:
        assert node["@type"] == [type_iri(owner)]
    for key, value in original.items():
        if key.startswith("@"):
            continue
        expanded = node.get(iri(owner, key))
        if value is None:
            assert expanded is None, key
            continue
        assert expanded is not None, (key, sorted(node))
        typed = owner not in (None, "hydra:Collection")
        if documented is not None and typed and iri(owner, key).startswith(VOCAB):
            assert iri(owner, key) in documented, iri(owner, key)
        if expanded == [{"@type": "@json", "@value": value}]:
            continue
        if isinstance(value, dict) and "@type" not in value:  # an index map (menus, months)
            by_index = {one["@index"]: one for one in expanded}
            assert sorted(by_index) == sorted(value), key
            for name, one in value.items():
                if isinstance(one, dict):
                    assert_expanded(one, by_index[name], documented)
                else:
                    assert by_index[name]["@value"] == one, key
            continue
        values = value if isinstance(value, list) else [value]
        assert len(expanded) == len(values), key
        for one, expanded_one in zip(values, expanded, strict=True):
            if isinstance(one, dict):
                assert_expanded(one, expanded_one, documented)
            elif "@value" in expanded_one:
                assert expanded_one["@value"] == one, key
            else:  # a string coerced to an IRI
                assert expanded_one == {"@id": urljoin(BASE, one)}, key


def nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Every node object of an expanded document."""
    if isinstance(value, list):
        for one in value:
            yield from nodes(one)
    elif isinstance(value, dict) and "@value" not in value:
        yield value
        for key, one in value.items():
            if not key.startswith("@"):
                yield from nodes(one)


def by_id(expanded: dict[str, Any], identifier: str) -> dict[str, Any]:
    return next(n for n in nodes(expanded) if n.get("@id") == identifier)


@pytest.mark.parametrize(
    "path", ["/", "/about", "/blog", "/blog/first-article", "/fr", "/elsewhere", "/premium"]
)
def test_every_web_response_expands_with_all_its_properties(client, path):
    response = get_path(client, path)
    assert response.status_code == 200
    assert response.json["@context"] == "/api/contexts/WebResponse"
    expanded = expand(client, response.json)
    assert expanded["@type"] == [VOCAB + "WebResponse"]
    assert_expanded(response.json, expanded, documented_properties(client))


def test_items_tags_and_documents_expand_to_absolute_iris_with_typed_dates(client):
    expanded = expand(client, get_path(client, "/about").json)
    item = expanded[VOCAB + "WebResponse/item"][0]
    assert item["@id"] == "http://localhost/api/pages/1101"
    assert item["@type"] == [VOCAB + "Page"]
    assert item[VOCAB + "Page/publishedAt"] == [
        {"@type": XSD + "dateTime", "@value": "2024-01-02T08:00:00+00:00"}
    ]
    assert item[VOCAB + "Page/url"] == [{"@value": "/about"}]  # a public path, not an IRI
    node = item[VOCAB + "Page/node"][0]
    assert node["@id"] == "http://localhost/api/nodes/11"
    assert node[VOCAB + "Node/position"] == [{"@value": 2}]
    tag = by_id(expanded, "http://localhost/api/tags/3")
    assert tag["@type"] == [VOCAB + "Tag"]
    # Tag.parent is nested (Roadiz's tag_parent group, MaxDepth 2), its properties in Tag terms
    (parent,) = tag[VOCAB + "Tag/parent"]
    assert parent["@id"] == "http://localhost/api/tags/2"
    assert parent[VOCAB + "Tag/slug"] == [{"@value": "events"}]
    head = expanded[VOCAB + "WebResponse/head"][0]
    assert head["@id"] == "_:head-en-1101"
    assert head[VOCAB + "NodesSourcesHead/homePageUrl"] == [{"@value": "/"}]
    share_image = head[VOCAB + "NodesSourcesHead/shareImage"][0]
    assert share_image["@id"] == "http://localhost/api/documents/1"
    assert share_image[VOCAB + "Document/relativePath"] == [{"@value": "a1/share.jpg"}]
    walker = expanded[VOCAB + "WebResponse/blocks"][0]
    assert walker["@type"] == [VOCAB + "AutoChildrenNodeSourceWalker"]
    assert walker["@id"].startswith("_:w1101-")


def test_properties_of_nested_types_expand_to_their_own_types_terms(client):
    """Each property expands to API Platform's term `<Type>/<property>` of the object that holds
    it, under the configured vocabulary, whatever encloses that object."""
    body = get_path(client, "/").json
    expanded = expand(client, body)
    item = expanded[VOCAB + "WebResponse/item"][0]
    assert item[VOCAB + "Page/title"] == [{"@value": "Home"}]
    (image,) = item[VOCAB + "Page/headerImage"]
    assert image["@type"] == [VOCAB + "Document"]
    assert image[VOCAB + "Document/relativePath"] == [{"@value": "b2/home-header.jpg"}]
    assert image[VOCAB + "Document/mimeType"] == [{"@value": "image/jpeg"}]
    assert VOCAB + "Page/relativePath" not in image
    walker = expanded[VOCAB + "WebResponse/blocks"][0]
    block = walker[VOCAB + "AutoChildrenNodeSourceWalker/item"][0]
    assert block["@type"] == [VOCAB + "ContentBlock"]
    assert block[VOCAB + "ContentBlock/title"] == [{"@value": "Who we are"}]
    assert block[VOCAB + "ContentBlock/publishedAt"] == [
        {"@type": XSD + "dateTime", "@value": "2024-01-10T09:00:00+00:00"}
    ]
    translation = block[VOCAB + "ContentBlock/translation"][0]
    assert translation[VOCAB + "Translation/locale"] == [{"@value": "en"}]
    head = expanded[VOCAB + "WebResponse/head"][0]
    assert head[VOCAB + "NodesSourcesHead/siteName"] == [{"@value": "Demo Site"}]
    assert expanded[VOCAB + "WebResponse/maxAge"] == [{"@value": body["maxAge"]}]
    documented = documented_properties(client)  # docs.jsonld names exactly these IRIs
    for term in ("WebResponse/item", "WebResponse/maxAge", "Page/title", "Page/headerImage",
                 "Document/relativePath", "Document/mimeType", "AutoChildrenNodeSourceWalker/item",
                 "ContentBlock/title", "ContentBlock/publishedAt", "ContentBlock/translation",
                 "Translation/locale", "NodesSourcesHead/siteName"):  # fmt: skip
        assert VOCAB + term in documented, term


def test_collections_tags_and_documents_expand_to_their_types_terms(client):
    documented = documented_properties(client)
    pages = expand(client, client.get("/api/pages?itemsPerPage=2").json)
    assert pages["@type"] == [HYDRA + "Collection"]
    assert pages[HYDRA + "totalItems"][0]["@value"] >= 2
    member = pages[HYDRA + "member"][0]
    assert member["@type"] == [VOCAB + "Page"]
    assert member[VOCAB + "Page/slug"][0]["@value"]
    mapping = pages[HYDRA + "search"][0][HYDRA + "mapping"][0]
    assert mapping["@type"] == [HYDRA + "IriTemplateMapping"]
    assert set(mapping) == {"@type", HYDRA + "variable", HYDRA + "property", HYDRA + "required"}

    tag = expand(client, client.get("/api/tags/3").json)
    assert tag[VOCAB + "Tag/slug"] == [{"@value": "culture"}]
    parent = tag[VOCAB + "Tag/parent"][0]
    assert parent["@id"] == "http://localhost/api/tags/2"
    assert parent[VOCAB + "Tag/name"] == [{"@value": "Events"}]

    documents = expand(client, client.get("/api/documents").json)
    document = by_id(documents, "http://localhost/api/documents/1")
    assert document[VOCAB + "Document/type"] == [{"@value": "image"}]
    assert document[VOCAB + "Document/processable"] == [{"@value": True}]
    assert document[VOCAB + "Document/folders"] == []

    error = expand(client, client.get("/api/tags/999").json)
    assert error[VOCAB + "Error/status"] == [{"@value": 404}]
    for term in ("Page/slug", "Tag/slug", "Tag/parent", "Tag/name", "Document/type",
                 "Document/processable", "Document/folders", "Error/status"):  # fmt: skip
        assert VOCAB + term in documented, term


def test_a_redirection_item_points_to_its_target(client):
    expanded = expand(client, get_path(client, "/elsewhere").json)
    item = expanded[VOCAB + "WebResponse/item"][0]
    assert item["@type"] == [VOCAB + "Redirection"]
    assert item[VOCAB + "Redirection/redirectUri"] == [{"@id": "https://example.org/"}]
    assert item[VOCAB + "Redirection/type"] == [{"@value": 302}]


def test_realms_expand(client):
    expanded = expand(client, get_path(client, "/premium").json)
    (realm,) = expanded[VOCAB + "WebResponse/realms"]
    assert realm["@type"] == [VOCAB + "Realm"]
    assert realm["@id"].startswith("http://localhost/api/realms/")
    assert expanded[VOCAB + "WebResponse/hidingBlocks"] == [{"@value": True}]


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_common_content_expands_with_its_menus_indexed_by_name(client, locale):
    response = client.get("/api/common_content", query_string={"_locale": locale})
    assert response.status_code == 200
    assert response.json["@context"] == "/api/contexts/CommonContent"
    expanded = expand(client, response.json)
    assert expanded["@type"] == [VOCAB + "CommonContent"]
    assert expanded["@id"] == "http://localhost/api/common_content"
    assert_expanded(response.json, expanded, documented_properties(client))
    menus = {walker["@index"]: walker for walker in expanded[VOCAB + "CommonContent/menus"]}
    assert menus["mainMenuWalker"]["@type"] == [VOCAB + "MenuNodeSourceWalker"]
    assert menus["mainMenuWalker"][VOCAB + "MenuNodeSourceWalker/maxLevel"] == [{"@value": 3}]


@pytest.mark.parametrize(
    "url",
    ["/api/pages", "/api/pages/1101", "/api/articles?itemsPerPage=1&page=2", "/api/nodes/11",
     "/api/tags/3", "/api/documents/1", "/api/realms/2", "/api/documents", "/api/tags",
     "/api/translations", "/api/articles/archives", "/api/search?search=jazz", "/api"],
)  # fmt: skip
def test_resource_entry_points_expand(client, url):
    response = client.get(url)
    assert response.status_code == 200
    expanded = expand(client, response.json)
    assert_expanded(response.json, expanded, documented_properties(client))
    if "page=2" in url:
        view = expanded[HYDRA + "view"][0]
        next_page = "http://localhost/api/articles?itemsPerPage=1&page=3"
        assert view[HYDRA + "next"] == [{"@id": next_page}]


def test_an_error_expands_with_hydra_terms(client):
    response = get_path(client, "/no/such/page")
    assert response.status_code == 404
    expanded = expand(client, response.json)
    assert expanded["@type"] == [HYDRA + "Error"]
    assert expanded["@id"] == "http://localhost/api/errors/404"
    assert expanded[HYDRA + "title"] == [{"@value": "An error occurred"}]
    assert expanded[HYDRA + "description"] == [{"@value": response.json["detail"]}]
    assert expanded[VOCAB + "Error/status"] == [{"@value": 404}]
    assert_expanded(response.json, expanded)


@pytest.mark.parametrize("name", BUILT_IN + NODE_TYPES)
def test_every_type_has_a_context_that_expands_its_objects(client, name):
    response = client.get(f"/api/contexts/{name}")
    assert response.status_code == 200
    assert response.mimetype == "application/ld+json"
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    context = response.json["@context"]
    assert context["@version"] == 1.1
    assert context["@vocab"] == VOCAB
    assert jsonld.expand(response.json, {"base": BASE}) == []  # a valid context
    expanded = expand(client, {"@context": f"/api/contexts/{name}", "@id": "/x", "@type": name})
    assert expanded == {"@id": "http://localhost/x", "@type": [VOCAB + name]}


def test_an_unknown_type_has_no_context(client):
    response = client.get("/api/contexts/Nope")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.json["detail"] == 'No context for type "Nope"'


def test_the_vocabulary_comes_from_configuration_not_from_the_host(client, make_app):
    response = client.get("/api/contexts/WebResponse", base_url="https://cms.example.org")
    assert response.json["@context"]["@vocab"] == "http://localhost/api/docs.jsonld#"
    configured = make_app(VOCAB_BASE="https://cms.example.org").test_client()
    response = configured.get("/api/contexts/WebResponse", headers={"Host": "evil.example"})
    assert response.json["@context"]["@vocab"] == "https://cms.example.org/api/docs.jsonld#"


def test_contexts_are_not_api_operations(client):
    paths = client.get("/api/docs.json").json["paths"]
    assert not [path for path in paths if path.startswith("/api/contexts")]


def test_a_new_node_type_gets_its_context_without_restart(make_app):
    app = make_app()
    client = app.test_client()
    assert client.get("/api/contexts/Event").status_code == 404

    site = demo_site()
    site["node_types"].append(
        {"name": "Event", "reachable": True, "default_ttl": 1,
         "fields": [{"name": "venue", "type": "string"}, {"name": "starts_at", "type": "datetime"},
                    {"name": "day", "type": "date"}, {"name": "extra", "type": "json"}]}
    )  # fmt: skip
    extra = {"seats": [1, 2], "nested": {"@id": "not-an-iri", "x": None}}
    site["nodes"].append(
        {"id": 900, "node_name": "fete", "type": "Event", "parent": None, "position": 50,
         "status": "published", "sources": {"en": {"id": 90001, "title": "Town fête",
         "published_at": "2024-05-01T00:00:00+00:00", "fields": {"venue": "Square",
         "starts_at": "2024-06-01T18:00:00+00:00", "day": "2024-06-01", "extra": extra}}}}
    )  # fmt: skip
    with app.app_context():
        load_site(app.extensions["cms.store"], site)

    assert client.get("/api/contexts/Event").status_code == 200
    context = client.get("/api/contexts/WebResponse").json["@context"]
    assert context["Event"]["@context"] == {
        "@vocab": VOCAB + "Event/",
        "publishedAt": {"@type": "xsd:dateTime"},
        "node": {"@type": "@id"},
        "translation": {"@type": "@id"},
        "listingSortOptions": {"@type": "@json"},
        "startsAt": {"@type": "xsd:dateTime"},
        "day": {"@type": "xsd:date"},
        "extra": {"@type": "@json"},
    }
    response = get_path(client, "/fete")
    assert response.status_code == 200
    expanded = expand(client, response.json)
    assert_expanded(response.json, expanded)
    item = expanded[VOCAB + "WebResponse/item"][0]
    assert item["@id"] == "http://localhost/api/events/90001"
    assert item[VOCAB + "Event/startsAt"][0]["@type"] == XSD + "dateTime"
    assert item[VOCAB + "Event/day"] == [{"@type": XSD + "date", "@value": "2024-06-01"}]
    extra = response.json["item"]["extra"]
    assert item[VOCAB + "Event/extra"] == [{"@type": "@json", "@value": extra}]
    assert item[VOCAB + "Event/venue"] == [{"@value": "Square"}]
