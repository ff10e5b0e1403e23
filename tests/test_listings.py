"""Translations, tags and documents collections (§5) and their items."""

from __future__ import annotations

import pytest

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
    assert problem_detail(client.get("/api/translations/9")) == "No translation 9"


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


def test_documents_are_public_only_with_roadiz_fields(client):
    body = client.get("/api/documents").json
    listed = body["hydra:member"]
    assert body["hydra:totalItems"] == len(listed) == 5
    assert "/api/documents/6" not in [d["@id"] for d in listed]  # private: never listed
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
        ("mimeType=image/jpeg", ["1", "2", "3", "4"]),
        ("not[mimeType]=image/jpeg", ["5"]),
        ("private=true", []),
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
        ("/api/tags?parent.id=x", '"parent.id" must be an integer, not "x"'),
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
