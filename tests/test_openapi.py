"""The OpenAPI document: operations per reachable node type, built from the database."""

from __future__ import annotations

from app.fixture.load import load_site
from tests.conftest import demo_site
from tests.helpers import get_path

SEED_GROUPS = [
    "nodes_sources", "node_listing", "urls", "tag_base", "tag_parent", "translation_base",
    "document_display", "document_thumbnails", "document_display_sources", "nodes_sources_lien",
    "web_response", "walker", "children",
]  # fmt: skip


def operation(document):
    return document["paths"]["/api/web_response_by_path"]["get"]


def test_endpoint_is_documented_with_its_required_path_parameter(client):
    op = operation(client.get("/api/docs.json").json)
    assert op["tags"] == ["WebResponse"]
    assert op["summary"] == "Get a resource by its path wrapped in a WebResponse object"
    assert [(p["name"], p["in"], p["required"]) for p in op["parameters"]] == [
        ("path", "query", True),
        ("_preview", "query", False),
        ("password", "query", False),
    ]
    assert set(op["responses"]) == {
        "200", "304", "400", "401", "403", "404", "406", "412", "414", "503"
    }  # fmt: skip


def test_one_operation_per_reachable_node_type_with_the_seed_groups(client):
    op = operation(client.get("/api/docs.json").json)
    operations = {o["operationId"]: o for o in op["x-operations"]}
    assert sorted(operations) == ["article_get_by_path", "blogpost_get_by_path", "page_get_by_path"]
    assert operations["blogpost_get_by_path"]["serializationGroups"] == SEED_GROUPS
    page_groups = SEED_GROUPS[:9] + ["nodes_sources_mise_en_forme"] + SEED_GROUPS[9:]
    assert operations["page_get_by_path"]["serializationGroups"] == page_groups
    page = operations["page_get_by_path"]
    assert (page["method"], page["path"], page["pagination"], page["maxDepth"]) == (
        "GET",
        "/web_response_by_path",
        False,
        True,
    )


def test_item_is_one_of_the_reachable_types_with_a_discriminator(client):
    document = client.get("/api/docs.json").json
    item = document["components"]["schemas"]["WebResponse"]["properties"]["item"]
    assert item["discriminator"]["propertyName"] == "@type"
    assert sorted(item["discriminator"]["mapping"]) == [
        "Article",
        "BlogPost",
        "Page",
        "Redirection",
    ]
    page = document["components"]["schemas"]["PageWebResponseItem"]
    assert list(page["properties"])[:7] == [
        "@id", "@type", "title", "publishedAt", "slug", "url", "node"
    ]  # fmt: skip
    assert "subTitle" in page["properties"]


def test_a_new_reachable_type_appears_without_code_change_or_restart(make_app):
    app = make_app()
    client = app.test_client()
    before = operation(client.get("/api/docs.json").json)["x-operations"]
    assert "event_get_by_path" not in [o["operationId"] for o in before]

    site = demo_site()
    site["node_types"].append(
        {"name": "Event", "reachable": True, "default_ttl": 1,
         "fields": [{"name": "venue", "type": "string", "group": "Practical"}]}
    )  # fmt: skip
    site["nodes"].append(
        {"id": 900, "node_name": "fete", "type": "Event", "parent": None, "position": 50,
         "status": "published", "sources": {"en": {"id": 90001, "title": "Town fête",
         "published_at": "2024-05-01T00:00:00+00:00", "fields": {"venue": "Square"}}}}
    )  # fmt: skip
    with app.app_context():
        load_site(app.extensions["cms.store"], site)

    after = {
        o["operationId"]: o for o in operation(client.get("/api/docs.json").json)["x-operations"]
    }
    assert after["event_get_by_path"]["serializationGroups"] == (
        SEED_GROUPS[:9] + ["nodes_sources_practical"] + SEED_GROUPS[9:]
    )
    response = get_path(client, "/fete")
    assert response.status_code == 200
    assert response.json["item"]["@id"] == "/api/events/90001"
    assert response.json["item"]["venue"] == "Square"
    assert response.headers["Cache-Control"].startswith("public, max-age=60, s-maxage=60,")


def test_non_reachable_types_get_no_operation(client):
    ids = [o["nodeType"] for o in operation(client.get("/api/docs.json").json)["x-operations"]]
    assert "ContentBlock" not in ids and "Menu" not in ids


def test_every_read_documents_preview_and_password_and_the_probes_need_no_credentials(client):
    """Collections and search list their filters by hand: `_preview` and `password`, which every
    read accepts, are documented there too (a generated client could not send them before)."""
    document = client.get("/api/docs.json").json
    for path, item in document["paths"].items():
        operation = item["get"]
        names = [p["name"] for p in operation.get("parameters", [])]
        if path in ("/healthz", "/readyz"):
            assert (names, operation["security"]) == ([], []), path
        else:
            assert names.count("_preview") == names.count("password") == 1, path
            assert operation["security"] == [{}, {"bearer": []}, {"realmPassword": []}], path


def test_the_document_is_also_at_api_platforms_address(client):
    """roadiz-read-surface.md §6: `OpenAPI at /api/docs.jsonopenapi`."""
    ours, theirs = client.get("/api/docs.json"), client.get("/api/docs.jsonopenapi")
    assert theirs.status_code == 200
    assert theirs.headers["Content-Type"] == "application/vnd.openapi+json; charset=utf-8"
    assert theirs.json == ours.json and theirs.json["openapi"].startswith("3.1")
