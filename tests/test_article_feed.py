"""The ArticleFeedBlock walker definition: every rule of seed.md's list."""

from __future__ import annotations

from tests.conftest import demo_site
from tests.helpers import cold_commands, get_path, node


def feed_ids(client, path: str, position: int) -> list[str]:
    walker = get_path(client, path).json["blocks"][position]
    assert walker["item"]["@type"] == "ArticleFeedBlock"
    return [child["item"]["@id"] for child in walker["children"]]


def test_default_limit_is_four_newest_first(client):
    # about's feed: no tags, listing_count unset
    assert feed_ids(client, "/about", 1) == [
        "/api/articles/2701", "/api/articles/2601", "/api/articles/2501", "/api/articles/2401"
    ]  # fmt: skip


def test_hidden_future_and_draft_articles_are_never_listed(client):
    listed = feed_ids(client, "/about", 1)
    # hidden-article (Dec 2024) and future-article (2099) would lead; draft-article is Aug 2024
    for excluded in ("/api/articles/3001", "/api/articles/2801", "/api/articles/2901"):
        assert excluded not in listed


def test_listing_count_and_tags(client):
    # home's feed: tags [news], listing_count 3
    assert feed_ids(client, "/", 2) == [
        "/api/articles/2601", "/api/articles/2401", "/api/articles/2201"
    ]  # fmt: skip


def test_same_translation_only(client):
    # english-only-note (2601) has no French source
    assert feed_ids(client, "/fr", 2) == [
        "/api/articles/2402", "/api/articles/2202", "/api/articles/2002"
    ]  # fmt: skip


def test_feed_children_are_not_expanded(client):
    feed = get_path(client, "/about").json["blocks"][1]
    assert all(child["children"] == [] for child in feed["children"])


def test_all_tags_must_match(make_app):
    site = demo_site()
    node(site, "home-news-feed")["tags"] = [1, 4]  # news and featured
    client = make_app(site).test_client()
    # volunteer-stories, spring-market and (in the news archive) library-garden carry both;
    # hidden-article does too but is invisible
    assert feed_ids(client, "/", 2) == [
        "/api/articles/2401", "/api/articles/2001", "/api/articles/6401"
    ]  # fmt: skip


def test_other_node_types_are_not_articles(make_app):
    site = demo_site()
    legal = node(site, "legal")
    legal["tags"] = [1]
    legal["sources"]["en"]["published_at"] = "2025-01-01T00:00:00+00:00"
    client = make_app(site).test_client()
    assert "/api/pages/3901" not in feed_ids(client, "/", 2)
    assert feed_ids(client, "/", 2)[0] == "/api/articles/2601"


def test_the_root_article_is_excluded_from_its_own_feed(make_app):
    site = demo_site()
    article_type = next(t for t in site["node_types"] if t["name"] == "Article")
    blocks = next(f for f in article_type["fields"] if f["name"] == "blocks")
    blocks["default_values"].append("ArticleFeedBlock")
    site["nodes"].append(
        {"id": 950, "node_name": "related", "type": "ArticleFeedBlock", "parent": 26,
         "position": 5, "status": "published", "tags": [1],
         "sources": {"en": {"id": 95001, "title": "Related news",
                            "published_at": "2024-01-01T00:00:00+00:00",
                            "fields": {"listing_count": 3}}}}
    )  # fmt: skip
    client = make_app(site).test_client()
    assert feed_ids(client, "/blog/english-only-note", 0) == [
        "/api/articles/2401", "/api/articles/2201", "/api/articles/2001"
    ]  # fmt: skip
    assert feed_ids(client, "/", 2)[0] == "/api/articles/2601"  # elsewhere it is listed


def test_listing_count_zero_lists_nothing(make_app):
    site = demo_site()
    node(site, "home-news-feed")["sources"]["en"]["fields"]["listing_count"] = 0
    client = make_app(site).test_client()
    assert feed_ids(client, "/", 2) == []


def test_one_query_per_feed_whatever_the_number_of_articles(make_app):
    # pointer, path, source, level 1, the feed; about-text has no children: no level-2 query
    assert cold_commands(make_app(RESPONSE_CACHE=False), "/about") == 5
