"""CORS: browser front-ends on other origins may read the API."""

from __future__ import annotations

from tests.helpers import WR

ORIGIN = {"Origin": "https://front.example"}


def test_public_responses_allow_any_origin_by_default(client):
    for url in (f"{WR}?path=/", f"{WR}?path=/nope", "/api/common_content"):
        response = client.get(url, headers=ORIGIN)
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        exposed = response.headers["Access-Control-Expose-Headers"].split(", ")
        assert {"ETag", "Link", "Cache-Tags", "X-Request-Id", "WWW-Authenticate"} <= set(exposed)


def test_preflight_allows_the_headers_clients_send(client):
    response = client.options(
        f"{WR}?path=/",
        headers={**ORIGIN, "Access-Control-Request-Method": "GET",
                 "Access-Control-Request-Headers": "authorization, accept-language"},
    )  # fmt: skip
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    allowed = response.headers["Access-Control-Allow-Headers"]
    assert "Authorization" in allowed and "Accept-Language" in allowed
    assert response.headers["Access-Control-Max-Age"] == "600"


def test_an_allow_list_names_origins(make_app):
    client = make_app(CORS_ORIGINS=["https://front.example"]).test_client()
    allowed = client.get(f"{WR}?path=/", headers=ORIGIN)
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://front.example"
    other = client.get(f"{WR}?path=/", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_no_origin_no_cors_headers(client):
    assert "Access-Control-Allow-Origin" not in client.get(f"{WR}?path=/").headers
