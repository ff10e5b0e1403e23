"""Hydra documents: the entry point (GET /api) and the API documentation (GET /api/docs.jsonld)."""

from __future__ import annotations

from pyld import jsonld

from tests.test_jsonld import BASE, HYDRA, VOCAB, expand, loader


def test_entrypoint_lists_every_collection_sorted(client):
    response = client.get("/api")
    assert response.status_code == 200
    assert response.mimetype == "application/ld+json"
    assert response.json == {
        "@context": "/api/contexts/Entrypoint",
        "@id": "/api",
        "@type": "Entrypoint",
        "article": "/api/articles",
        "blogPost": "/api/blog_posts",
        "document": "/api/documents",
        "nodesSources": "/api/nodes_sources",
        "page": "/api/pages",
        "tag": "/api/tags",
        "translation": "/api/translations",
    }
    for key, path in response.json.items():
        if not key.startswith("@"):
            assert client.get(path).status_code == 200, path


def test_entrypoint_expands_its_links_to_iris(client):
    expanded = expand(client, client.get("/api").json)
    assert expanded["@id"] == BASE + "api"
    assert expanded["@type"] == [VOCAB + "Entrypoint"]
    assert expanded[VOCAB + "Entrypoint/article"] == [{"@id": BASE + "api/articles"}]
    assert expanded[VOCAB + "Entrypoint/nodesSources"] == [{"@id": BASE + "api/nodes_sources"}]


def test_api_documentation_describes_each_resource(client):
    response = client.get("/api/docs.jsonld")
    assert response.status_code == 200
    body = response.json
    assert body["@type"] == "hydra:ApiDocumentation"
    assert body["hydra:entrypoint"] == "/api"
    classes = {c["@id"]: c for c in body["hydra:supportedClass"]}
    assert {"#Page", "#Article", "#Tag", "#Translation", "#Document", "#Entrypoint",
            "#ConstraintViolationList"} <= set(classes)  # fmt: skip
    title = next(p for p in classes["#Page"]["hydra:supportedProperty"]
                 if p["hydra:title"] == "title")  # fmt: skip
    assert title["hydra:property"] == {
        "@id": "#Page/title",
        "@type": "rdf:Property",
        "label": "title",
        "domain": "#Page",
        "range": "xsd:string",
    }
    operation = classes["#Article"]["hydra:supportedOperation"][0]
    assert operation["hydra:title"] == "getArticleCollection"
    assert operation["@type"] == ["hydra:Operation", "schema:FindAction"]


def test_api_documentation_expands(client):
    body = client.get("/api/docs.jsonld").json
    expanded = jsonld.expand(
        body, {"documentLoader": loader(client), "base": BASE + "api/docs.jsonld"}
    )
    assert expanded[0]["@type"] == [HYDRA + "ApiDocumentation"]
    classes = {c["@id"] for c in expanded[0][HYDRA + "supportedClass"]}
    assert BASE + "api/docs.jsonld#Page" in classes


def test_api_documentation_names_every_property_as_the_contexts_expand_it(client):
    body = client.get("/api/docs.jsonld").json
    classes = {c["@id"]: c for c in body["hydra:supportedClass"]}
    # every type an object may have: node types (blocks too), built-in types, the transformer's
    assert {"#WebResponse", "#ContentBlock", "#AutoChildrenNodeSourceWalker", "#NodesSourcesHead",
            "#Node", "#Error", "#SearchResultItem"} <= set(classes)  # fmt: skip
    assert classes["#ContentBlock"]["hydra:supportedOperation"] == []  # not reachable
    supported = classes["#WebResponse"]["hydra:supportedProperty"]
    web_response = {p["hydra:property"]["@id"] for p in supported}
    assert {"#WebResponse/item", "#WebResponse/maxAge", "#WebResponse/fooBar"} <= web_response
    page = {
        p["hydra:title"]: p["hydra:property"] for p in classes["#Page"]["hydra:supportedProperty"]
    }
    assert page["sticky"]["range"] == "xsd:boolean"  # a boolean field
    assert page["publishedAt"]["range"] == "xsd:dateTime"
    context = client.get("/api/contexts/Page").json["@context"]
    # API Platform's terms at the top: `<ShortName>/<property>`, relations as IRIs
    assert context["title"] == "Page/title"
    assert context["node"] == {"@id": "Page/node", "@type": "@id"}
    assert context["publishedAt"] == {"@id": "Page/publishedAt", "@type": "xsd:dateTime"}
    assert context["Page"]["@context"]["@vocab"] == VOCAB + "Page/"
    # a nested object of another type redefines the top terms it shares: its own, not Page's
    block = context["ContentBlock"]["@context"]
    assert block["@vocab"] == VOCAB + "ContentBlock/"
    assert block["title"] == VOCAB + "ContentBlock/title"
    assert "content" not in context["Tag"]["@context"]  # a Tag has no `content`
    expanded = expand(client, {"@context": "/api/contexts/Page", "@type": "Page", "title": "T"})
    assert expanded[VOCAB + "Page/title"] == [{"@value": "T"}]
