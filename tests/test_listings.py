"""Translations, tags and documents collections (§5) and their items."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.auth import mint_token
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import problem_detail


def members(client, url: str) -> list[dict]:
    response = client.get(url)
    assert response.status_code == 200, response.json
    return response.json["hydra:member"]


def test_translations_list_every_translation_in_id_order(client):
    body = client.get("/api/translations").json
    assert body["hydra:totalItems"] == 3
    assert body["hydra:member"][0] == {
        "@id": "/api/translations/1",
        "@type": "Translation",
        "name": "English",
        "defaultTranslation": True,
        "available": True,
        "locale": "en",
    }
    assert [m["locale"] for m in body["hydra:member"]] == ["en", "fr", "de"]
    assert "hydra:view" not in body


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("available=true", ["en", "fr"]),
        ("available=0", ["de"]),
        ("defaultTranslation=true", ["en"]),
        ("locale=fr", ["fr"]),
        ("locale[]=fr&locale[]=de", ["fr", "de"]),
        ("name=Deutsch", ["de"]),
        ("name=deutsch", []),  # exact
        ("order[locale]=desc", ["fr", "en", "de"]),
        ("order[available]=asc&order[locale]=asc", ["de", "en", "fr"]),
    ],
)
def test_translation_filters(client, query, expected):
    assert [m["locale"] for m in members(client, f"/api/translations?{query}")] == expected


def test_translation_item(client):
    body = client.get("/api/translations/2").json
    assert body["@context"] == "/api/contexts/Translation"
    assert (body["@id"], body["name"]) == ("/api/translations/2", "Français")
    assert problem_detail(client.get("/api/translations/9")) == "Not Found"


def test_tags_in_the_requested_locale(client):
    listed = members(client, "/api/tags?_locale=fr")
    assert listed[3] == {
        "@id": "/api/tags/4",
        "@type": "Tag",
        "slug": "featured",
        "visible": True,
        "name": "À la une",
        "description": None,
    }
    assert members(client, "/api/tags")[3]["name"] == "Featured"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("tagName=e", ["news", "events", "culture", "featured", "market"]),
        ("tagName=EVE", ["events"]),
        ("parent.id=2", ["culture"]),
        ("parent.tagName=events", ["culture"]),
        ("not[parent.tagName]=events", ["news", "events", "featured", "jazz", "market"]),
        ("not[parent.id][]=2", ["news", "events", "featured", "jazz", "market"]),
        ("visible=false", ["market"]),
        ("order[tagName]=asc", ["culture", "events", "featured", "jazz", "market", "news"]),
        ("tagName[]=news&tagName[]=cult&order[tagName]=DESC", ["news", "culture"]),
    ],
)
def test_tag_filters(client, query, expected):
    assert [m["slug"] for m in members(client, f"/api/tags?{query}")] == expected


@pytest.fixture(scope="module")
def tagged(make_app):
    """The demo site with tags used by no node, or only by a draft, a future, a protected, a
    hidden block's, an undated or an archived node."""
    site = demo_site()
    added = [(7, "unused"), (8, "draft-only"), (9, "future-only"), (10, "members"),
             (11, "premium-only"), (12, "undated"), (13, "archived-only")]  # fmt: skip
    for tag_id, slug in added:
        site["tags"].append({"id": tag_id, "slug": slug, "visible": True, "parent": None,
                             "names": {"en": slug}})  # fmt: skip
    nodes = {n["id"]: n for n in site["nodes"]}
    nodes[29]["tags"].append(8)  # draft-article
    nodes[28]["tags"].append(9)  # future-article
    nodes[33]["tags"] = [10]  # members-text, under the Members deny realm
    nodes[35]["tags"] = [11]  # premium-report, a block of the Premium hide_blocks realm
    nodes[26]["tags"].append(12)  # english-only-note, its one source now without a date
    nodes[26]["sources"]["en"]["published_at"] = None
    nodes[27]["tags"].append(13)  # winter-concert, now archived
    nodes[27]["status"] = "archived"
    return make_app(site).test_client()


def tag_slugs(client, query: str, **kwargs) -> list[str]:
    response = client.get(f"/api/tags?{query}", **kwargs)
    assert response.status_code == 200, response.json
    return [m["slug"] for m in response.json["hydra:member"]]


IN_USE = ["news", "events", "culture", "featured", "jazz", "market"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("nodesTags=true", IN_USE),
        ("nodesTags=on", IN_USE),
        ("nodesTags=false", ["unused", "draft-only", "future-only", "members", "premium-only",
                             "undated", "archived-only"]),
        ("nodesTags[nodeTypeName]=ArticleFeedBlock", ["news"]),
        ("nodesTags[nodeTypeName][]=ArticleFeedBlock&nodesTags[nodeTypeName][]=Page", ["news"]),
        ("nodesTags[nodeTypeName]=Article&nodesTags[parentNodeName]=archive",
         ["news", "events", "culture", "featured", "jazz", "market"]),
        ("nodesTags[parentNodeName]=blog&nodesTags[visible]=true",
         ["news", "events", "culture", "featured"]),
        ("nodesTags[visible]=false", ["news", "featured"]),  # hidden-article
        ("nodesTags=true&nodesTags[parentNodeName]=home", ["news"]),  # the home's feed block
        ("nodesTags[parentNodeName]=nowhere", []),
        ("nodesTags=true&visible=true&order[tagName]=desc",
         ["news", "jazz", "featured", "events", "culture"]),  # market is not visible
    ],
)  # fmt: skip
def test_tags_by_the_nodes_using_them(tagged, query, expected):
    """Roadiz's NodesTagsFilter (roadiz-read-surface.md §5): tags some published node carries,
    one of its sources out, that the request may see; conditions narrow which nodes count."""
    assert tag_slugs(tagged, query) == expected


def test_tags_in_use_in_preview_and_behind_a_realm(tagged):
    preview = {"Authorization": "Bearer " + mint_token(JWT_SECRET, "ann", ["ROLE_BACKEND_USER"],
                                                       timedelta(hours=1))}  # fmt: skip
    # preview counts draft and pending nodes, published or not yet (Roadiz: status <= published),
    # never archived ones; it grants no realm
    assert tag_slugs(tagged, "nodesTags=true&_preview=1", headers=preview) == [
        *IN_USE, "draft-only", "future-only", "undated"]  # fmt: skip
    assert tag_slugs(tagged, "nodesTags=true&password=letmein") == [*IN_USE, "members"]
    premium = {"Authorization": "Bearer " + mint_token(JWT_SECRET, "ann", ["ROLE_PREMIUM"],
                                                       timedelta(hours=1))}  # fmt: skip
    assert tag_slugs(tagged, "nodesTags=true", headers=premium) == [*IN_USE, "premium-only"]
    unused = ["unused", "draft-only", "future-only", "premium-only", "undated", "archived-only"]
    assert tag_slugs(tagged, "nodesTags=false&password=letmein") == unused


def test_a_password_without_tags_in_use_filters_checks_nothing(tagged):
    """A password no realm of the answer needs leaves the tags public (app.audience: a bcrypt run
    only where a realm may matter), with nodesTags or without."""
    response = tagged.get("/api/tags?password=nope")
    assert response.status_code == 200
    assert response.headers["Cache-Control"].startswith("public")


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("nodesTags=maybe", '"nodesTags" must be one of 1, true, on, yes, 0, false, off, no'),
        ("nodesTags[visible]=2",
         '"nodesTags[visible]" must be one of 1, true, on, yes, 0, false, off, no'),
        ("nodesTags=false&nodesTags[visible]=true",
         '"nodesTags=false" cannot be combined with "nodesTags[...]": give one'),
        ("nodesTags=true&nodesTags=false", '"nodesTags" must be given once'),
    ],
)  # fmt: skip
def test_malformed_tags_in_use_filters_are_400(tagged, query, detail):
    response = tagged.get(f"/api/tags?{query}")
    assert response.status_code == 400
    assert problem_detail(response) == detail


def test_tag_item_embeds_its_parents(client):
    body = client.get("/api/tags/3?_locale=fr").json
    assert body["parent"] == {
        "@id": "/api/tags/2",
        "@type": "Tag",
        "slug": "events",
        "visible": True,
        "name": "Événements",
        "description": None,
    }
    assert "parent" not in client.get("/api/tags/1").json
    jazz = client.get("/api/tags/5").json  # two ancestor levels: culture, then events
    assert jazz["parent"]["slug"] == "culture"
    assert jazz["parent"]["parent"]["slug"] == "events"
    assert "parent" not in jazz["parent"]["parent"]


def test_documents_are_listed_private_ones_too_with_roadiz_fields(client):
    """roadiz-read-surface.md §5: "private documents listed (no `publicUrl`)"; §7: processable
    when not private, never `private`."""
    body = client.get("/api/documents").json
    listed = body["hydra:member"]
    assert body["hydra:totalItems"] == len(listed) == 6
    assert listed[5] == {
        "@id": "/api/documents/6",
        "@type": "Document",
        "relativePath": "f6/meeting-minutes.jpg",
        "type": "image",
        "processable": False,  # a JPEG, but private
        "mimeType": "image/jpeg",
        "imageWidth": 1240,
        "imageHeight": 1754,
        "mediaDuration": 0,
        "alt": "Scan of the meeting minutes",
        "folders": [],
    }
    assert client.get("/api/documents/6").json == {
        "@context": "/api/contexts/Document",
        **listed[5],
    }
    assert listed[0] == {
        "@id": "/api/documents/1",
        "@type": "Document",
        "relativePath": "a1/share.jpg",
        "type": "image",
        "processable": True,
        "mimeType": "image/jpeg",
        "imageWidth": 1200,
        "imageHeight": 630,
        "mediaDuration": 0,
        "alt": "The Demo Site logo on a blue background",
        "folders": [],
    }
    assert all("private" not in d and "imageAverageColor" not in d for d in listed)
    french = members(client, "/api/documents?_locale=fr&itemsPerPage=1")
    assert french[0]["alt"] == "Le logo de Demo Site sur fond bleu"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("filename=market", ["3"]),
        ("mimeType=image/jpeg", ["1", "2", "3", "4", "6"]),
        ("not[mimeType]=image/jpeg", ["5"]),
        ("private=true", ["6"]),
        ("private=1&mimeType=image/jpeg", ["6"]),
        ("private=false&filename=jpg&itemsPerPage=2&page=2", ["3", "4"]),
    ],
)
def test_document_filters(client, query, expected):
    found = members(client, f"/api/documents?{query}")
    assert [d["@id"].rsplit("/", 1)[1] for d in found] == expected


@pytest.mark.parametrize(
    ("url", "detail"),
    [
        ("/api/translations?available=yes", '"available" must be one of true, 1, false, 0'),
        ("/api/tags?color=red", 'Unknown parameter "color" for /api/tags; accepted: _locale, '),
        (
            "/api/tags?parent.id=x",
            '"parent.id" must be a non-negative integer (at most 18 digits), not "x"',
        ),
        (
            "/api/tags?_locale=de",
            'Locale filter value "de" not supported. Supported values are en, fr',
        ),
        ("/api/documents?order[filename]=asc", 'Unknown parameter "order[filename]" for '),
        ("/api/documents?page=0", "Page should not be less than 1"),
    ],
)
def test_listing_errors(client, url, detail):
    response = client.get(url)
    assert response.status_code == 400
    assert problem_detail(response).startswith(detail)
