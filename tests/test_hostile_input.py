"""Hostile input: every case gets a clear problem+json answer and leaves the database unchanged."""

from __future__ import annotations

import pytest

from tests.helpers import WR, problem_detail

NOT_RESOLVED = "None of the chained PathResolverInterface were able to resolve path"
BAD_ENCODING = "path is not valid percent-encoded UTF-8"
CONTROL = "path contains control characters"

CASES = [
    # (raw query string, status, detail)
    ("path=/" + "a" * 2100, 400, "path is longer than 2048 characters"),
    ("path=/" + "a" * 4100, 414, "The request URL is longer than 4096 characters."),
    ("path=/abo%00ut", 400, CONTROL),
    ("path=/about%0d%0aSet-Cookie:x", 400, CONTROL),
    ("path=%2Fabo%2500ut", 404, NOT_RESOLVED),  # decoded once: the text "%00", not a NUL
    ("path=/caf%ff", 400, BAD_ENCODING),
    ("path=/caf%25ff", 404, NOT_RESOLVED),  # decoded once: the text "%ff"
    ("path=/caf%zz", 404, NOT_RESOLVED),  # not an escape: matched literally
    ("path=/blog/../about", 404, NOT_RESOLVED),  # no traversal: exact match only
    ("path=/../../etc/passwd", 404, NOT_RESOLVED),
    ("path=/.*", 404, NOT_RESOLVED),  # regex metacharacters are never interpreted
    ("path=/(a|b)%2B$", 404, NOT_RESOLVED),
    ("path[$ne]=x", 400, '"path" is one value: give path=…, not path[$ne]=…'),  # injection
    ("path[]=/about", 400, '"path" is one value: give path=…, not path[]=…'),  # PHP's list
    (
        "path=/about&password[0]=x",
        400,
        '"password" is one value: give password=…, not password[0]=…',
    ),
    ("path=%7B%22%24ne%22%3A%20null%7D", 404, NOT_RESOLVED),  # {"$ne": null} as text
    ("path=/$where", 404, NOT_RESOLVED),
    ("path=/a.b.$c", 404, NOT_RESOLVED),
    ("path=/&path=/about", 400, '"path" must be given once'),
    ("path=/&_preview=1&_preview=0", 400, '"_preview" must be given once'),
    (
        "path=/&_preview=%00",
        400,
        "_preview must be one of 1, true, on, yes, y (or 0, false, off, no, n)",
    ),  # fmt: skip
]


@pytest.fixture
def isolated(make_app):
    app = make_app()
    store = app.extensions["cms.store"]

    def snapshot():
        with app.app_context():
            live = store.live()
            return live, store.generations(), store.dump_generation(live["version"])

    return app.test_client(), snapshot


@pytest.mark.parametrize(("query", "status", "detail"), CASES, ids=[c[0][:40] for c in CASES])
def test_hostile_queries(isolated, query, status, detail):
    client, snapshot = isolated
    before = snapshot()
    response = client.get(f"{WR}?{query}")
    assert response.status_code == status
    assert problem_detail(response) == detail
    assert snapshot() == before


@pytest.mark.parametrize(
    ("url", "headers", "status", "detail"),
    [
        ("/api/common_content", {"Accept-Language": "fr;q=0.9, " * 5000 + "en"}, 200, None),
        ("/api/common_content?_locale=../../x", {}, 400, "_locale is not a valid locale"),
        ("/api/common_content?_locale=%24ne", {}, 400, "_locale is not a valid locale"),
        ("/api/common_content?_locale[$ne]=x", {}, 400,
         '"_locale" is one value: give _locale=…, not _locale[$ne]=…'),  # a list, as PHP reads it
        ("/api/articles?node.nodeName[$ne]=x", {}, 400, None),  # unknown filter: refused
        ("/api/articles?node.visible=true&node.visible=false", {}, 400,
         '"node.visible" must be given once'),
        # every one-value parameter of a list given twice is refused, not read as its last value
        ("/api/nodes_sources?noIndex=true&noIndex=false", {}, 400, '"noIndex" must be given once'),
        ("/api/articles?node.position[gt]=5&node.position[gt]=1", {}, 400,
         '"node.position[gt]" must be given once'),
        ("/api/articles?publishedAt[before]=2020-01-01&publishedAt[before]=2030-01-01", {}, 400,
         '"publishedAt[before]" must be given once'),
        ("/api/articles?order[publishedAt]=asc&order[publishedAt]=desc", {}, 400,
         '"order[publishedAt]" must be given once'),
        ("/api/articles?page=1&page=2", {}, 400, '"page" must be given once'),
        ("/api/articles/archives?node.home=false&node.home=true", {}, 400,
         '"node.home" must be given once'),
        ("/api/translations?available=false&available=true", {}, 400,
         '"available" must be given once'),
        ("/api/tags?visible=true&visible=false", {}, 400, '"visible" must be given once'),
        ("/api/search?search=jazz&search=market", {}, 400, '"search" must be given once'),
        ("/api/search?search=jazz&itemPerPage=1&itemsPerPage=2", {}, 400,
         '"itemsPerPage" and "itemPerPage" are one parameter: give one'),
        # every parameter a list reads is percent-encoded UTF-8 (werkzeug passes invalid bytes
        # on as the text "%FF", which would match that text)
        ("/api/articles?title=%ff", {}, 400, "title is not valid percent-encoded UTF-8"),
        ("/api/articles?title=%25FF", {}, 200, None),  # the text "%FF" itself
        ("/api/search?search=caf%e9", {}, 400, "search is not valid percent-encoded UTF-8"),
        ("/api/articles/archives?publishedAt=%ff", {}, 400,
         "publishedAt is not valid percent-encoded UTF-8"),
        ("/api/tags?order[position]=%c3", {}, 400,
         "order[position] is not valid percent-encoded UTF-8"),
        ("/api/articles?%ff=1", {}, 400, None),  # a name of invalid bytes: an unknown parameter
        (WR + "?path=/&utm_source=%ff", {}, 200, None),  # a parameter a route ignores is not read
        # a filter of several values takes them all (any of them)
        ("/api/articles?title=a&title=b", {}, 200, None),
        # archives check the collection's order and pages, which change nothing there
        ("/api/articles/archives?order[publishedAt]=sideways", {}, 400,
         '"order[publishedAt]" must be asc or desc (any case), not "sideways"'),
        ("/api/articles/archives?page=0", {}, 400, "Page should not be less than 1"),
        ("/api/articles/archives?itemsPerPage=abc", {}, 400,
         '"itemsPerPage" must be an integer, not "abc"'),
        ("/api/articles/archives?order[publishedAt]=ASC&page=2", {}, 200, None),
        # a page number of any length is compared with the bound
        ("/api/articles?page=" + "9" * 40, {}, 400, "Page should not be greater than 1000000"),
        ("/api/articles?page=00000000000000000001", {}, 200, None),
        (WR + "?path=/", {"Accept": "text/csv"}, 406,
         "Requested format is not supported: use application/ld+json or application/json."),
        (WR + "?path=/", {"Authorization": "Bearer " + "x" * 5000}, 200, None),
        (WR + "?path=/", {"Authorization": "PasswordQuery " + "\x00" * 10}, 200, None),
    ],
)  # fmt: skip
def test_hostile_parameters_and_headers(isolated, url, headers, status, detail):
    client, snapshot = isolated
    before = snapshot()
    response = client.get(url, headers=headers)
    assert response.status_code == status
    if detail is not None:
        assert problem_detail(response) == detail
    assert snapshot() == before


def test_other_methods_are_405_problems(isolated):
    client, snapshot = isolated
    before = snapshot()
    for method in ("post", "put", "patch", "delete"):
        response = getattr(client, method)(f"{WR}?path=/")
        assert response.status_code == 405
        assert response.headers["Allow"] == "GET, HEAD, OPTIONS"
        assert problem_detail(response) == "The method is not allowed for the requested URL."
    assert snapshot() == before


def test_unknown_route_is_a_404_problem(isolated):
    client, _ = isolated
    response = client.get("/nowhere")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


@pytest.mark.parametrize(
    "url",
    [
        "/nowhere?path[]=/",
        f"{WR}/x?path=/&path=/a",
        "/api/pages/1/x?_locale=%ff",
        "/x?password[]=s",
    ],
)
def test_the_router_refuses_first_whatever_the_parameters(isolated, url):
    """A URL no route matches is a 404, not a 400 about a parameter no route would read."""
    client, _ = isolated
    response = client.get(url)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert client.post(f"{WR}?path=/&path=/a").status_code == 405


@pytest.mark.parametrize(
    "url", ["/api//pages", "/api/pages/", "//api/pages", "///api/pages/1101", "/api/pages//1"]
)
def test_one_url_per_resource_no_slash_redirects(isolated, url):
    """As a server receives it (the test client would read `//api` as a host): werkzeug's
    router drops leading slashes, the service does not."""
    client, _ = isolated
    response = client.get(environ_overrides={"PATH_INFO": url})
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert "Location" not in response.headers


def test_request_id_is_echoed_or_generated(isolated):
    client, _ = isolated
    assert (
        client.get("/healthz", headers={"X-Request-Id": "abc-123"}).headers["X-Request-Id"]
        == "abc-123"
    )
    generated = client.get(f"{WR}?path=/nope", headers={"X-Request-Id": "bad id; drop"})
    assert len(generated.headers["X-Request-Id"]) == 32


def test_internal_errors_never_leak(make_app, monkeypatch):
    app = make_app()
    client = app.test_client()

    def boom(*args, **kwargs):
        raise RuntimeError("secret internals at /srv/app.py line 42")

    monkeypatch.setattr("app.web_response.resolve_path", boom)
    response = client.get(f"{WR}?path=/about")
    assert response.status_code == 500
    assert problem_detail(response) == "Internal Server Error"
    assert b"secret" not in response.data
