"""Keyset cursors of collections (app/keyset.py): the same members as page numbers, in the same
order, with pages that start at the cursor instead of skipping (docs/performance.md)."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest

from app.auth import mint_token
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import node, problem_detail

PREVIEW = {"Authorization": "Bearer " + mint_token(JWT_SECRET, "ann", ["ROLE_BACKEND_USER"],
                                                   timedelta(hours=1))}  # fmt: skip
ORDERS = ["", "&order[publishedAt]=asc", "&order[node.position]=desc", "&order[node.position]=asc"]


@pytest.fixture(scope="module")
def client(make_app):
    site = demo_site()
    # an undated draft and articles sharing a date: cursors must handle both
    node(site, "draft-article")["sources"]["en"]["published_at"] = None
    same = node(site, "spring-market")["sources"]["en"]["published_at"]
    node(site, "new-library-hours")["sources"]["en"]["published_at"] = same
    return make_app(site).test_client()


def walk(client, first: str, headers: dict) -> tuple[list[str], int]:
    members, url, pages = [], first, 0
    while url:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, response.json
        body = response.json
        assert "hydra:totalItems" not in body
        members += [m["@id"] for m in body["hydra:member"]]
        url, pages = body["hydra:view"].get("hydra:next"), pages + 1
    return members, pages


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("preview", ["", "&_preview=1"])
@pytest.mark.parametrize("plural", ["articles", "pages"])
def test_a_cursor_walk_lists_what_one_page_lists(client, order, preview, plural):
    headers = PREVIEW if preview else {}
    everything = client.get(f"/api/{plural}?itemsPerPage=50{order}{preview}", headers=headers)
    expected = [m["@id"] for m in everything.json["hydra:member"]]
    assert len(expected) > 3
    members, pages = walk(client, f"/api/{plural}?cursor=&itemsPerPage=2{order}{preview}", headers)
    assert members == expected
    assert pages == -(-len(expected) // 2)


def test_cursor_view_links(client):
    query = "_locale=en&itemsPerPage=3&node.nodesTags.tag.tagName=news&order%5BpublishedAt%5D=desc"
    body = client.get(
        "/api/articles?cursor=&itemsPerPage=3&node.nodesTags.tag.tagName=news"
        "&order[publishedAt]=desc&_locale=en"
    ).json
    view = body["hydra:view"]
    token = view["hydra:next"].rsplit("cursor=", 1)[1]
    # hidden-article, english-only-note, volunteer-stories: the cursor names the last one
    assert [m["@id"] for m in body["hydra:member"]][-1] == "/api/articles/2401"
    decoded = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    assert decoded == ["published_at", "2024-07-01T09:00:00+00:00", 2401]
    assert view == {
        "@id": f"/api/articles?{query}&cursor=",
        "@type": "hydra:PartialCollectionView",
        "hydra:first": f"/api/articles?{query}&cursor=",
        "hydra:next": f"/api/articles?{query}&cursor={token}",
    }


def token(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


MESSAGE = "cursor must be empty or the cursor of a hydra:next link of this collection's order"


@pytest.mark.parametrize(
    "cursor",
    [
        "not base64!",
        "x" * 201,
        "abc",
        token(["node.position", 3, 2001]),  # another order's cursor
        token(["published_at", "2024-01-01T00:00:00", 2001]),  # no time zone
        token(["published_at", "yesterday", 2001]),
        token(["published_at", "2024-01-01T00:00:00+00:00", "2001"]),
        token({"published_at": 1}),
        token([1, 2]),
        token(["_id", 1901, 2601]),  # the default order's value is the id itself
        token(["_id", "x", 2601]),
        # a valid token (of no padding, which a newline would have broken) and a newline
        base64.urlsafe_b64encode(b'["_id",301,301]').decode() + "%0A",
    ],
)
def test_malformed_cursors_are_a_400(client, cursor):
    response = client.get(f"/api/articles?cursor={cursor}")
    assert response.status_code == 400
    assert problem_detail(response) == MESSAGE


@pytest.mark.parametrize(
    "cursor",
    [
        token(["published_at", "2024-01-01T00:00:00", 2001]),  # no time zone
        token(["published_at", "yesterday", 2001]),
        token(["published_at", "2024-01-01T00:00:00+00:00", "2001"]),
        # finer than the millisecond a stored date has (the index would compare it cut, the
        # listings not): never in a hydra:next link
        token(["published_at", "2024-01-01T00:00:00.000500+00:00", 2001]),
        token(["published_at", "2024-01-01T01:00:00.001+01:00:00.000500", 2001]),  # the offset's
        token(["published_at", "0001-01-01T00:00:00+01:00", 2001]),  # before year 1 in UTC
    ],
)
def test_malformed_date_cursors_are_a_400(client, cursor):
    response = client.get(f"/api/articles?order[publishedAt]=desc&cursor={cursor}")
    assert response.status_code == 400
    assert problem_detail(response) == MESSAGE


def test_a_date_cursor_to_the_millisecond_is_taken(client):
    cursor = token(["published_at", "2024-04-12T19:00:00.250+00:00", 2001])
    response = client.get(f"/api/articles?order[publishedAt]=desc&cursor={cursor}")
    assert response.status_code == 200


def test_page_and_cursor_cannot_be_combined(client):
    response = client.get("/api/articles?cursor=&page=2")
    assert response.status_code == 400
    assert problem_detail(response) == "page and cursor cannot be combined: follow hydra:next"


def test_a_cursor_from_the_future_shows_nothing_unpublished(client):
    future = token(["published_at", "2100-01-01T00:00:00+00:00", 1])
    url = f"/api/articles?cursor={future}&itemsPerPage=50&order[publishedAt]=desc&_locale=en"
    members = client.get(url).json["hydra:member"]
    assert "/api/articles/2801" not in [m["@id"] for m in members]  # dated 2099
    assert len(members) == 16  # every published English article (the blog's and the archive's)


def test_a_cursor_follows_one_order_key(client):
    response = client.get("/api/articles?cursor=&order[publishedAt]=desc&order[node.position]=asc")
    assert response.status_code == 400
    assert problem_detail(response) == '"cursor" follows one order key: give at most one order[...]'


@pytest.mark.parametrize("order", ORDERS)
def test_an_empty_cursor_page_has_no_next_page(client, order):
    """itemsPerPage=0 lists nothing, so there is no member to continue after."""
    response = client.get(f"/api/articles?cursor=&itemsPerPage=0{order}")
    assert response.status_code == 200
    assert response.json["hydra:member"] == []
    assert "hydra:next" not in response.json["hydra:view"]


def test_a_cursor_walk_by_position_takes_decimal_positions(make_app):
    """Positions may be decimals (the fixture takes any number): a `hydra:next` after a member at
    2.5 is followed, and the walk lists what one page lists (it was a 400 at the second page)."""
    site = demo_site()
    articles = [n for n in site["nodes"] if n["type"] == "Article"]
    for number, article in enumerate(articles):
        article["position"] = number + (0.5 if number % 2 else 0.25)
    client = make_app(site).test_client()
    for order in ("&order[node.position]=asc", "&order[node.position]=desc"):
        everything = client.get(f"/api/articles?itemsPerPage=50&_locale=en{order}")
        expected = [m["@id"] for m in everything.json["hydra:member"]]
        members, pages = walk(client, f"/api/articles?cursor=&itemsPerPage=2&_locale=en{order}", {})
        assert members == expected and len(expected) > 3 and pages == -(-len(expected) // 2)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), True, "3", None, [3]])
def test_a_position_cursor_is_a_finite_number(client, value):
    response = client.get(
        f"/api/articles?order[node.position]=asc&cursor={token(['node.position', value, 2001])}"
    )
    assert response.status_code == 400
    assert problem_detail(response) == MESSAGE
