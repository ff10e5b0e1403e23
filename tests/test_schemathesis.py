"""Property-based API testing: schemathesis generates requests from the service's own OpenAPI
document (GET /api/docs.json of the demo site) and checks every response against it: no 5xx, a
documented status code and content type, and a body matching the documented schema.

SCHEMATHESIS_EXAMPLES sets the generated cases per operation (default 200), half of them fitting
the document (positive) and half not (negative: wrong types, missing required parameters...)."""

from __future__ import annotations

import os
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.site import current_site
from tests.conftest import demo_site

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "200"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Every documented operation (test_the_operations_tested_are_the_documented_ones keeps this list
# in step with the document). schemathesis' own pytest integration (schema.parametrize() over a
# from_fixture schema) fails under pytest 9.2 (it sets Function._nodeid, gone in 9.2), so each
# operation runs as a plain hypothesis test over schemathesis' strategies.
OPERATIONS = [
    "/healthz",
    "/readyz",
    "/api/web_response_by_path",
    "/api/common_content",
    "/api/{plural}/{source_id}",
    "/api/{plural}",
    "/api/articles/archives",
    "/api/nodes_sources/archives",
    "/api/nodes/{node_id}",
    "/api/documents/{document_id}",
    "/api/tags/{tag_id}",
    "/api/realms/{realm_id}",
    "/api/translations",
    "/api/translations/{translation_id}",
    "/api/tags",
    "/api/documents",
    "/api/search",
    "/api/nodes_sources/search",
]


@pytest.fixture(scope="session")
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/docs.json", app)


@pytest.fixture(scope="session")
def known(app):
    """Parameter values that exist in the demo site, per operation: random ids and paths are
    almost always 404, so a third of the cases use these (their other parameters generated)."""
    site = demo_site()
    client = app.test_client()
    with app.app_context():
        plurals = {t.name: t.plural for t in current_site().reachable_types()}
    sources = [
        (plurals[node["type"]], source["id"])
        for node in site["nodes"]
        if node["type"] in plurals
        for source in node["sources"].values()
    ]
    paths = {"/", *(r["query"] for r in site["redirections"])}
    for plural in plurals.values():
        for translation in site["translations"]:
            query = {"itemsPerPage": 100, "_locale": translation["locale"]}
            collection = client.get(f"/api/{plural}", query_string=query).json
            paths.update(member["url"] for member in collection.get("hydra:member", []))
    return {
        "/api/web_response_by_path": [{"query": {"path": path}} for path in sorted(paths)],
        "/api/{plural}/{source_id}": [
            {"path_parameters": {"plural": plural, "source_id": id_}} for plural, id_ in sources
        ],
        **{
            f"/api/{kind}/{{{name}}}": [
                {"path_parameters": {name: item["id"]}} for item in site[kind]
            ]
            for kind, name in (
                ("nodes", "node_id"),
                ("documents", "document_id"),
                ("tags", "tag_id"),
                ("realms", "realm_id"),
            )
        },
        "/api/translations/{translation_id}": [
            {"path_parameters": {"translation_id": id_}} for id_ in (1, 2, 3)
        ],
    }


def test_the_operations_tested_are_the_documented_ones(api_schema):
    documented = [(r.ok().method, r.ok().path) for r in api_schema.get_all_operations()]
    assert documented == [("get", path) for path in OPERATIONS]


@pytest.mark.parametrize("path", OPERATIONS)
def test_operation_conforms_to_its_openapi_document(api_schema, known, tier, path):
    operation = api_schema[path]["GET"]
    statuses: Counter[int] = Counter()
    strategies = [operation.as_strategy(mode) for mode in GenerationMode]
    if path in known:
        strategies.append(st.one_of([operation.as_strategy(**fixed) for fixed in known[path]]))

    @given(case=st.one_of(strategies))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        statuses[case.call_and_validate(checks=CHECKS).status_code] += 1

    run()
    # Conformance passes for the right reasons: the success schema was really checked.
    assert statuses[200] > 0, dict(statuses)


INT64_MAX = 2**63 - 1
ID_PATHS = ["/api/pages/{}", "/api/nodes/{}", "/api/documents/{}", "/api/tags/{}", "/api/realms/{}"]
# pymongo cannot encode an id beyond int64 (found by schemathesis: it was a 500 on a real server);
# the route converters stop such ids before the driver.


@pytest.mark.parametrize("path", ID_PATHS)
def test_ids_beyond_int64_are_not_found(client, path):
    assert client.get(path.format(INT64_MAX)).status_code == 404
    assert client.get(path.format(INT64_MAX + 1)).status_code == 404


def test_every_operation_documents_its_200_and_problem_responses(client):
    document = client.get("/api/docs.json").json
    assert "responses" not in document["components"]  # no flask-smorest DEFAULT_ERROR
    for path, item in document["paths"].items():
        responses = item["get"]["responses"]
        assert "200" in responses and "default" not in responses, path
        assert all("schema" in media for media in responses["200"]["content"].values())
        errors = [status for status in responses if status not in ("200", "304")]
        assert errors, path
        if path not in ("/healthz", "/readyz"):  # cached reads: their headers, and 304
            assert set(responses["200"]["headers"]) == {
                "ETag", "Cache-Control", "Vary", "Content-Language", "Cache-Tags", "Link",
                "Content-Location",
            }, path  # fmt: skip
            assert "content" not in responses["304"], path
            # Hydra's documentation link on every response under /api (app.api.hygiene)
            assert set(responses["304"]["headers"]) == {"ETag", "Cache-Control", "Vary", "Link"}
        for status in errors:
            assert responses[status]["content"] == {
                "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            }, (path, status)
            headers = set(responses[status].get("headers", {}))
            assert headers == ({"Link"} if path.startswith("/api") else set()), (path, status)


def test_path_parameters_match_the_route_converters(client):
    document = client.get("/api/docs.json").json
    parameters = {
        p["name"]: p["schema"]
        for item in document["paths"].values()
        for p in item.get("parameters", [])
    }
    # `plural` is a string converter; the document lists the plurals each route answers (others
    # are 404): a source by id is read at its type's plural, not at /api/nodes_sources/<id>;
    # archives, of publishable types (Article) and of every type, have a path each (as a template
    # /api/{plural}/archives would also match /api/nodes/{node_id}: Redocly's no-ambiguous-paths)
    plurals = {
        path: next(p["schema"] for p in item["parameters"] if p["name"] == "plural")
        for path, item in document["paths"].items()
        if "{plural}" in path
    }
    assert plurals == {
        "/api/{plural}/{source_id}": {
            "type": "string", "enum": ["articles", "blog_posts", "pages"]
        },
        "/api/{plural}": {
            "type": "string", "enum": ["articles", "blog_posts", "nodes_sources", "pages"]
        },
    }  # fmt: skip
    archives = [path for path in document["paths"] if path.endswith("/archives")]
    assert archives == ["/api/articles/archives", "/api/nodes_sources/archives"]
    for plural in ("blog_posts", "pages", "nodes", "tags"):
        assert client.get(f"/api/{plural}/archives").status_code == 404
    for path, schema in plurals.items():  # and every other plural is not found
        for plural in {"articles", "blog_posts", "pages", "nodes_sources"} - set(schema["enum"]):
            url = path.replace("{plural}", plural).replace("{source_id}", "1101")
            assert client.get(url).status_code == 404, url
    parameters.pop("plural")
    assert set(parameters) == {"source_id", "node_id", "document_id", "tag_id", "realm_id",
                               "translation_id"}  # fmt: skip
    int64 = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
    assert all(s == int64 for s in parameters.values())
