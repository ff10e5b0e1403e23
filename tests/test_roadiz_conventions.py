"""Response conventions Roadiz clients rely on (roadiz-read-surface.md §7, issue 14 item 8):
WebResponse.maxAge, the head's noIndex / tiktokUrl / matomoTagManager (null: the fixture format
has no such settings, and refuses them as unknown keys), every node source's
`translation`, the WebResponse item's `urlAliases`, the external redirection's `@id` and `url`,
documents and tags inside node sources (Roadiz's fields, nulls omitted). Cache-Tags and Link:
tests/test_http_caching.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from app.auth import PREVIEW_ROLE, mint_token
from app.fixture.validate import validate_fixture
from app.summaries import TAG_PARENT_DEPTH, tag_summary
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import EN, FR, get_path, node


def conventions_site() -> dict[str, Any]:
    """The demo site with a Page field `no_index` (true on `about`), and the `team` node's ttl
    at 0."""
    site = demo_site()
    page = next(t for t in site["node_types"] if t["name"] == "Page")
    page["fields"].append({"name": "no_index", "type": "boolean"})
    node(site, "about")["sources"]["en"]["fields"]["no_index"] = True
    node(site, "team")["ttl"] = 0
    # a PDF without size nor alt text, an SVG with an empty alt text, a document of unknown type
    site["documents"] += [
        {"id": 41, "filename": "minutes.pdf", "relative_path": "g7/minutes.pdf",
         "mime_type": "application/pdf", "private": False, "alt": {}},
        {"id": 42, "filename": "logo.svg", "relative_path": "h8/logo.svg",
         "mime_type": "image/svg+xml", "image_width": 64, "image_height": 64, "alt": {"en": ""}},
        {"id": 43, "filename": "notes", "relative_path": "i9/notes"},
    ]  # fmt: skip
    node(site, "about")["sources"]["en"]["fields"]["pictures"] = [41, 42, 43, 6]  # 6: private
    return site


@pytest.fixture(scope="module")
def custom(make_app):
    return make_app(conventions_site()).test_client()


def test_max_age_is_the_node_ttl_in_seconds(client, custom):
    assert get_path(client, "/about").json["maxAge"] == 1800  # ttl 30 minutes
    assert get_path(client, "/blog").json["maxAge"] == 300  # BlogPost default_ttl 5
    assert get_path(custom, "/team").json["maxAge"] == 0  # ttl 0
    assert get_path(client, "/elsewhere").json["maxAge"] == 0  # an external redirection


def test_head_fields_without_a_fixture_setting_are_null(client):
    for body in (get_path(client, "/about").json, client.get("/api/common_content").json):
        head = body["head"]
        assert (head["noIndex"], head["tiktokUrl"], head["matomoTagManager"]) == (False, None, None)


@pytest.mark.parametrize("setting", ["tiktok_url", "matomo_tag_manager_id"])
def test_settings_the_fixture_format_does_not_list_are_refused(setting):
    site = demo_site()
    site["settings"][setting] = "https://example.org/"
    assert validate_fixture(site) == [(f"$.settings.{setting}", f'unknown key "{setting}"')]


def test_no_index_comes_from_a_no_index_field_of_the_node_type(custom):
    assert get_path(custom, "/about").json["head"]["noIndex"] is True
    assert get_path(custom, "/a-propos").json["head"]["noIndex"] is False  # unset: false
    assert get_path(custom, "/about").json["item"]["noIndex"] is True  # an ordinary field too


def test_the_no_index_filter_lists_the_sources_whose_head_says_no_index(custom):
    """`noIndex` reads what the head says: the `no_index` field where the node type has one."""

    def pages(query: str) -> set[str]:
        body = custom.get(f"/api/pages?_locale=en&itemsPerPage=100{query}").json
        assert body["hydra:totalItems"] == len(body["hydra:member"])
        return {member["@id"] for member in body["hydra:member"]}

    about = get_path(custom, "/about").json["item"]["@id"]
    every = pages("")
    assert about in every and len(every) > 1
    assert pages("&noIndex=true") == pages("&noIndex=1") == {about}
    assert pages("&noIndex=false") == pages("&noIndex=0") == every - {about}


def test_every_node_source_carries_its_translation(client):
    body = get_path(client, "/fr/blog").json
    assert body["item"]["translation"] == FR
    walked = [w["item"]["translation"] for w in body["blocks"]]
    assert walked and all(t == FR for t in walked)
    members = client.get("/api/pages?_locale=fr").json["hydra:member"]
    assert members and all(m["translation"] == FR for m in members)
    members = client.get("/api/articles?_locale=en").json["hydra:member"]
    assert members and all(m["translation"] == EN for m in members)
    assert client.get("/api/pages/1102").json["translation"] == FR


def test_url_aliases_on_the_web_response_item_only(client):
    item = get_path(client, "/a-propos").json["item"]
    assert item["urlAliases"] == [{"@type": "UrlAlias", "alias": "a-propos"}]
    assert get_path(client, "/about").json["item"]["urlAliases"] == []
    assert "urlAliases" not in client.get("/api/pages/1102").json
    reference = get_path(client, "/a-propos").json["item"]["nodeReferences"][0]
    assert "urlAliases" not in reference


def test_every_alias_of_a_home_resolves_to_it(make_app):
    """A home's url is `/` (or `/<locale>`): its first alias is no segment of it, so it resolves
    on its own, as every alias does (behaviour.md, path resolution 4)."""
    site = demo_site()
    home = next(n for n in site["nodes"] if n.get("home"))
    home["sources"]["en"]["url_aliases"] = ["welcome", "start"]
    home["sources"]["fr"]["url_aliases"] = ["accueil"]
    client = make_app(site).test_client()
    for path, locale in (("/welcome", "en"), ("/start", "en"), ("/accueil", "fr"), ("/", "en")):
        response = get_path(client, path)
        assert response.status_code == 200, path
        source_id = home["sources"][locale]["id"]
        assert response.json["item"]["@id"] == f"/api/pages/{source_id}", path
        assert response.headers["Content-Language"] == locale
    assert get_path(client, "/").json["item"]["slug"] == "welcome"


def test_preview_links_an_unavailable_translation_too(client):
    token = mint_token(JWT_SECRET, "editor", [PREVIEW_ROLE], timedelta(minutes=5))
    response = get_path(client, "/about", headers={"Authorization": f"Bearer {token}"})
    assert response.headers["Link"].count('rel="alternate"') == 2  # no preview: en and fr
    preview = client.get(
        "/api/web_response_by_path",
        query_string={"path": "/about", "_preview": "1"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert preview.headers["Link"] == (  # the site's translation order
        '</de/about>; rel="alternate"; hreflang="de"; title="RGV1dHNjaA=="; type="text/html",'
        '</about>; rel="alternate"; hreflang="en"; title="RW5nbGlzaA=="; type="text/html",'
        '</a-propos>; rel="alternate"; hreflang="fr"; title="RnJhbsOnYWlz"; type="text/html",'
        '</api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"'
    )


def test_openapi_documents_the_conventions(client):
    schemas = client.get("/api/docs.json").json["components"]["schemas"]
    web_response = schemas["WebResponse"]
    assert web_response["properties"]["maxAge"]["type"] == "integer"
    assert "maxAge" in web_response["required"]
    head = schemas["NodesSourcesHead"]
    for name in ("noIndex", "tiktokUrl", "matomoTagManager"):
        assert name in head["properties"] and name in head["required"]
    assert head["properties"]["noIndex"]["type"] == "boolean"
    assert "urlAliases" in schemas["PageWebResponseItem"]["required"]
    assert "urlAliases" not in schemas["PageResource"]["properties"]
    assert "translation" in schemas["PageListedItem"]["properties"]
    # the item at its @id, collection members and search hits as roadiz-read-surface.md §2 has them
    resource = schemas["PageResource"]
    assert "noIndex" in resource["required"] and "nodeReferences" not in resource["properties"]
    assert "nodeReferences" in schemas["PageWebResponseItem"]["required"]
    member = schemas["PageMemberItem"]
    assert "nodeReferences" not in member["properties"] and "noIndex" not in member["properties"]
    assert "url" not in schemas["MenuLinkMemberItem"]["properties"]
    assert "url" in schemas["MenuLinkListedItem"]["properties"]
    members = schemas["NodeSourceCollection"]["properties"]["hydra:member"]["items"]["anyOf"]
    assert {"$ref": "#/components/schemas/MenuLinkMemberItem"} in members
    assert not any("ListedItem" in m.get("$ref", "") for m in members)
    hits = schemas["SearchResultItem"]["properties"]["item"]["oneOf"]
    assert {"$ref": "#/components/schemas/PageMemberItem"} in hits
    assert list(schemas["Translation"]["properties"]) == [
        "@id", "@type", "name", "defaultTranslation", "available", "locale",
    ]  # fmt: skip
    assert set(schemas["Translation"]["required"]) == set(schemas["Translation"]["properties"])
    redirection = schemas["Redirection"]
    # `type` (301/302) is documented as the additional properties: generated clients name both
    # `@type` and `type` `type` (app.openapi.COLLIDING)
    assert list(redirection["properties"]) == ["@type", "@id", "redirectUri", "url"]
    assert set(redirection["required"]) == set(redirection["properties"])
    assert redirection["additionalProperties"]["description"] == "`type`: one of `301`, `302`"


def test_documents_inside_node_sources_carry_roadiz_fields(client):
    """§7: `type`, `processable`, `mediaDuration` (0 when unknown), `imageAverageColor` (#ffffff
    by default inside node sources), `filename` and `id`, `folders`; never `private`."""
    (image,) = get_path(client, "/").json["item"]["headerImage"]
    assert image == {
        "@type": "Document",
        "@id": "/api/documents/2",
        "relativePath": "b2/home-header.jpg",
        "type": "image",
        "processable": True,
        "mimeType": "image/jpeg",
        "imageWidth": 1920,
        "imageHeight": 800,
        "mediaDuration": 0,
        "imageAverageColor": "#ffffff",
        "alt": "The town square at sunrise",
        "filename": "home-header.jpg",
        "id": 2,
        "folders": [],
    }
    plain = client.get("/api/pages/101.json").json["headerImage"][0]
    assert plain == image  # plain JSON keeps a document's @id and @type


def test_null_document_fields_are_omitted_inside_node_sources(custom):
    pictures = get_path(custom, "/about").json["item"]["pictures"]
    assert pictures == [
        {"@type": "Document", "@id": "/api/documents/41", "relativePath": "g7/minutes.pdf",
         "type": "pdf", "processable": False, "mimeType": "application/pdf", "mediaDuration": 0,
         "imageAverageColor": "#ffffff", "filename": "minutes.pdf", "id": 41, "folders": []},
        {"@type": "Document", "@id": "/api/documents/42", "relativePath": "h8/logo.svg",
         "type": "image", "processable": False, "mimeType": "image/svg+xml", "imageWidth": 64,
         "imageHeight": 64, "mediaDuration": 0, "imageAverageColor": "#ffffff",
         "filename": "logo.svg", "id": 42, "folders": []},  # empty alt: decorative, omitted
        {"@type": "Document", "@id": "/api/documents/43", "relativePath": "i9/notes",
         "type": "unknown", "processable": False, "mediaDuration": 0,
         "imageAverageColor": "#ffffff", "filename": "notes", "id": 43, "folders": []},
        # a private document is shown as Roadiz shows it: never processable (§7)
        {"@type": "Document", "@id": "/api/documents/6", "relativePath": "f6/meeting-minutes.jpg",
         "type": "image", "processable": False, "mimeType": "image/jpeg", "imageWidth": 1240,
         "imageHeight": 1754, "mediaDuration": 0, "imageAverageColor": "#ffffff",
         "alt": "Scan of the meeting minutes", "filename": "meeting-minutes.jpg", "id": 6,
         "folders": []},
    ]  # fmt: skip
    # /api/documents: the same rules, without filename, id nor the default average colour
    members = custom.get("/api/documents?itemsPerPage=50").json["hydra:member"]
    listed = {d["@id"]: d for d in members}
    assert listed["/api/documents/41"] == {
        "@id": "/api/documents/41", "@type": "Document", "relativePath": "g7/minutes.pdf",
        "type": "pdf", "processable": False, "mimeType": "application/pdf", "mediaDuration": 0,
        "folders": [],
    }  # fmt: skip
    assert custom.get("/api/documents/41").json == {
        "@context": "/api/contexts/Document",
        **listed["/api/documents/41"],
    }


def test_the_document_item_is_shown_as_listed(client):
    listed = client.get("/api/documents?itemsPerPage=1").json["hydra:member"][0]
    body = client.get("/api/documents/1").json
    assert body == {"@context": "/api/contexts/Document", **listed}
    assert not {"filename", "id", "imageAverageColor", "private"} & set(body)


def test_tags_inside_node_sources_nest_their_parent_and_omit_a_null_one(client):
    tags = get_path(client, "/blog/jazz-night").json["item"]["node"]["tags"]
    events = {"@type": "Tag", "@id": "/api/tags/2", "slug": "events", "name": "Events",
              "visible": True}  # a root tag: no parent key (skip_null_values)  # fmt: skip
    assert tags == [
        events,
        {"@type": "Tag", "@id": "/api/tags/3", "slug": "culture", "name": "Culture",
         "visible": True, "parent": events},  # Roadiz's tag_parent group: nested
    ]  # fmt: skip
    listed = client.get("/api/tags?tagName=news").json["hydra:member"]
    assert listed[0]["description"] is None  # appended by Roadiz's normaliser: kept when null


def test_a_tags_parent_is_nested_only_where_roadiz_has_the_tag_parent_group(client):
    """roadiz-read-surface.md §7: the WebResponse, /api/nodes_sources and the tag item nest it;
    a type's collection and item and search results (collection groups) do not."""
    source = get_path(client, "/blog/jazz-night").json["item"]
    iri = source["@id"]

    def parents(body: dict) -> list:
        return [t.get("parent", {}).get("@id") for t in body["node"]["tags"]]

    assert parents(source) == [None, "/api/tags/2"]
    every_type = client.get("/api/nodes_sources?node.nodesTags.tag=3&itemsPerPage=50").json
    assert parents(next(m for m in every_type["hydra:member"] if m["@id"] == iri)) == [
        None, "/api/tags/2",
    ]  # fmt: skip
    assert client.get("/api/tags/3").json["parent"]["@id"] == "/api/tags/2"
    plural = iri.rsplit("/", 2)[1]
    one_type = client.get(f"/api/{plural}?node.nodesTags.tag=3&itemsPerPage=50").json
    assert parents(next(m for m in one_type["hydra:member"] if m["@id"] == iri)) == [None, None]
    assert parents(client.get(iri).json) == [None, None]
    hits = client.get("/api/search?search=jazz").json["hydra:member"]
    assert parents(next(h["item"] for h in hits if h["item"]["@id"] == iri)) == [None, None]


def test_openapi_documents_the_document_and_tag_conventions(client):
    schemas = client.get("/api/docs.json").json["components"]["schemas"]
    document = schemas["Document"]
    assert "private" not in document["properties"]
    for name in ("type", "processable", "mediaDuration", "imageAverageColor", "filename",
                 "folders", "relativePath"):  # fmt: skip
        assert name in document["properties"] and name in document["required"], name
    # `id` and `@id` are both `id` in generated clients: `id` is the additional properties
    assert "id" not in document["properties"]
    assert document["description"] == "Also carries `@type`: always `Document`; `id`: integer."
    assert document["properties"]["folders"]["items"] == {"$ref": "#/components/schemas/Folder"}
    for name in ("mimeType", "imageWidth", "imageHeight", "alt"):  # omitted when null
        assert name in document["properties"] and name not in document["required"], name
    tag = schemas["Tag"]
    # nested (tag_parent), never null: omitted
    assert tag["properties"]["parent"] == {"$ref": "#/components/schemas/Tag"}
    assert "parent" not in tag["required"]
    resource = schemas["DocumentResource"]
    assert "filename" not in resource["properties"] and "alt" not in resource["required"]


def test_tag_parents_are_nested_two_levels_deep():
    chain = {n: {"id": n, "slug": f"t{n}", "parent": n - 1 if n > 1 else None} for n in range(1, 5)}
    summary = tag_summary(chain[4], "en", "en", chain, parents=TAG_PARENT_DEPTH)
    assert [summary["slug"], summary["parent"]["slug"], summary["parent"]["parent"]["slug"]] == [
        "t4", "t3", "t2",
    ]  # fmt: skip
    assert summary["parent"]["parent"]["parent"] is None  # MaxDepth 2: t1 is not reached
    assert tag_summary(chain[4], "en", "en", chain)["parent"] is None  # no parent group
