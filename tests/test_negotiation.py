"""Content negotiation as API Platform: JSON-LD by default, plain JSON on request, 406 otherwise."""

from __future__ import annotations

import jsonschema_rs
import pytest

from app.api.encoding import LD_JSON
from app.api.negotiation import JSON
from tests.helpers import WR, problem_detail


def test_json_ld_is_the_default(client):
    # with the charset the service sends (werkzeug alone matched no type to such a range: 406)
    with_charset = ("application/ld+json; charset=utf-8", 'application/ld+json;charset="UTF-8"')
    for accept in (None, "*/*", "application/ld+json", "application/*", *with_charset):
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


@pytest.mark.parametrize(
    "accept",
    [
        "application/json; charset=utf-8",
        "application/ld+json;q=0.5, application/json; charset=utf-8",
    ],
)
def test_json_asked_with_its_charset_is_json(client, accept):
    response = client.get("/api/pages/1101", headers={"Accept": accept})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"


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
        ("/api/pages.json", "text/html", "application/json"),  # the suffix beats Accept, HTML too
        ("/api/articles.jsonld?itemsPerPage=1", None, "application/ld+json"),
    ],
)
def test_a_format_suffix_beats_accept(client, url, accept, mimetype):
    response = client.get(url, headers={"Accept": accept} if accept else {})
    assert response.status_code == 200
    assert response.mimetype == mimetype
    is_list = isinstance(response.json, list)
    assert is_list == (mimetype == "application/json" and "/1101" not in url)


@pytest.mark.parametrize(
    "accept",
    ["text/csv", "application/xml", "application/problem+json",
     "application/json; charset=latin1"],
)  # fmt: skip
def test_other_types_are_406_problems(client, accept):
    # the Hydra entry point too (`/api`, no slash), and a context (roadiz-read-surface.md §1)
    for url in (f"{WR}?path=/about", "/api/pages", "/api/pages/1101", "/api", "/api/contexts/Page"):
        response = client.get(url, headers={"Accept": accept})
        assert response.status_code == 406
        assert problem_detail(response) == (
            "Requested format is not supported: use application/ld+json or application/json."
        )


def test_html_only_is_the_swagger_ui_and_a_browser_gets_json_ld(client):
    """roadiz-read-surface.md §1: `text/html` gives the Swagger UI (API Platform's html format),
    on every API route; a browser's Accept also admits */*, and gets the JSON-LD."""
    ui = client.get("/api/docs")
    for url in (f"{WR}?path=/about", "/api/pages", "/api/pages/1101", "/api"):
        response = client.get(url, headers={"Accept": "text/html"})
        assert response.status_code == 200, url
        assert response.mimetype == "text/html"
        assert response.data == ui.data
        assert response.headers["Vary"] == "Accept"
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    response = client.get("/api/pages/1101", headers={"Accept": browser})
    assert response.mimetype == "application/ld+json"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_the_router_refuses_other_methods_before_negotiating(client, method):
    """API Platform's router answers 405 before the format is chosen: no Swagger UI and no 406
    for a method the route does not take, whatever the Accept."""
    for accept in ("text/html", "application/xml", "application/ld+json"):
        for url in (f"{WR}?path=/about", "/api/articles", "/api/pages/1101", "/api"):
            response = client.open(url, method=method, headers={"Accept": accept})
            assert response.status_code == 405, (url, accept)
            assert response.mimetype == "application/problem+json"
            assert response.headers["Allow"] == "GET, HEAD, OPTIONS"


def test_options_answers_one_allow_whatever_the_accept(client):
    for url in (f"{WR}?path=/about", "/api/articles", "/api/pages/1101", "/api"):
        for accept in ("text/html", "*/*"):
            response = client.options(url, headers={"Accept": accept})
            assert (response.status_code, response.data) == (204, b""), url
            assert response.headers["Allow"] == "GET, HEAD, OPTIONS"  # the order a 405 gives


def test_no_body_is_sniffed(client):
    """An error's detail repeats the request; a browser must read it as JSON, never as HTML."""
    for url in (f"{WR}?path=/about", "/api/%3Cscript%3E", "/api/articles?%3Cb%3E=1", "/api",
                "/api/docs"):  # fmt: skip
        assert client.get(url).headers["X-Content-Type-Options"] == "nosniff", url


def test_each_format_has_its_own_etag(client):
    ld = client.get("/api/pages/1101")
    plain = client.get("/api/pages/1101.json")
    assert ld.headers["ETag"] != plain.headers["ETag"]
    again = client.get("/api/pages/1101.json", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304


# One request per documented JSON-LD operation (its documented path): both formats of each body
# must match the schema the OpenAPI document gives their media type.
DOCUMENTED = [
    ("/api/web_response_by_path", f"{WR}?path=/about"),  # blocks, references, realms
    ("/api/web_response_by_path", f"{WR}?path=/elsewhere"),  # an external redirection
    ("/api/web_response_by_path", f"{WR}?path=/fr/blog&_locale=fr"),
    ("/api/common_content", "/api/common_content"),  # menus: links to sources of any type
    ("/api/{plural}/{source_id}", "/api/pages/1101"),
    ("/api/{plural}", "/api/nodes_sources?itemsPerPage=50"),
    ("/api/articles/archives", "/api/articles/archives"),
    ("/api/nodes_sources/archives", "/api/nodes_sources/archives?_locale=fr"),
    ("/api/nodes/{node_id}", "/api/nodes/1"),
    ("/api/documents/{document_id}", "/api/documents/2"),
    ("/api/documents", "/api/documents"),
    ("/api/tags/{tag_id}", "/api/tags/3"),
    ("/api/tags", "/api/tags"),
    ("/api/translations/{translation_id}", "/api/translations/1"),
    ("/api/translations", "/api/translations"),
    ("/api/realms/{realm_id}", "/api/realms/1"),
    ("/api/search", "/api/search?search=concert"),
    ("/api/nodes_sources/search", "/api/nodes_sources/search?search=news"),
]


def test_both_formats_match_the_schemas_the_document_gives_them(client):
    """The JSON format is described by its own schemas (`<Name>Json`, app.plain_format's rule):
    a client generated from the document parses either format (found by a generated-clients
    probe: the JSON format was documented with the JSON-LD schemas)."""
    document = client.get("/api/docs.json").json
    operations = {path for path, item in document["paths"].items() if "get" in item}
    assert operations - {"/healthz", "/readyz"} == {path for path, _ in DOCUMENTED}
    for path, url in DOCUMENTED:
        content = document["paths"][path]["get"]["responses"]["200"]["content"]
        ld, plain = (content[t]["schema"]["$ref"] for t in ("application/ld+json", JSON))
        assert plain == f"{ld}Json", path
        for media_type, ref in ((LD_JSON, ld), (JSON, plain)):
            response = client.get(url, headers={"Accept": media_type})
            assert response.status_code == 200, (url, media_type)
            validator = jsonschema_rs.Draft202012Validator(
                {"$ref": ref, "components": document["components"]}
            )
            errors = [f"{list(e.instance_path)}: {e.message[:200]}"
                      for e in validator.iter_errors(response.json)]  # fmt: skip
            assert errors == [], (url, media_type)
