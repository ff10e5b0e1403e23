"""web_response_by_path: the WebResponse and its parts (seed.md, behaviour.md)."""

from __future__ import annotations

import pytest

from tests.helpers import DEMO_SOCIAL_HEAD, EN, get_path, problem_detail, titles

NOT_RESOLVED = "None of the chained PathResolverInterface were able to resolve path"

HEAD_SETTINGS = {
    "googleAnalytics": "UA-000000-1",
    "googleTagManager": "GTM-DEMO",
    "matomoTagManager": None,  # the fixture format has no such setting
    "matomoUrl": "https://matomo.example.org/",
    "matomoSiteId": "7",
    "siteName": "Demo Site",
}
SOCIAL = DEMO_SOCIAL_HEAD
# A document as Roadiz shows it inside node sources (roadiz-read-surface.md §7): type and
# processable from the mime type, mediaDuration 0 and imageAverageColor #ffffff when unknown,
# filename and id, folders (the fixture format has none).
SHARE_IMAGE = {
    "@type": "Document",
    "@id": "/api/documents/1",
    "relativePath": "a1/share.jpg",
    "type": "image",
    "processable": True,
    "mimeType": "image/jpeg",
    "imageWidth": 1200,
    "imageHeight": 630,
    "mediaDuration": 0,
    "imageAverageColor": "#ffffff",
    "alt": "The Demo Site logo on a blue background",
    "filename": "share.jpg",
    "id": 1,
    "folders": [],
}


def test_envelope_fields_in_seed_order(client):
    body = get_path(client, "/about").json
    assert list(body) == [
        "@context",
        "@id",
        "@type",
        "item",
        "breadcrumbs",
        "head",
        "blocks",
        "realms",
        "hidingBlocks",
        "maxAge",
        "fooBar",
    ]  # fmt: skip  (fooBar: the demo configuration's decoration, see test_extension_points)
    assert body["@context"] == "/api/contexts/WebResponse"
    assert body["@id"] == "/api/web_response_by_path?path=/about"
    assert body["@type"] == "WebResponse"
    assert body["realms"] == []
    assert body["hidingBlocks"] is False
    assert body["maxAge"] == 30 * 60  # the about node's ttl: 30 minutes


def test_page_item_has_every_field_with_nulls_and_empty_lists(client):
    item = get_path(client, "/about").json["item"]
    assert item == {
        "@id": "/api/pages/1101",
        "@type": "Page",
        "title": "About us",
        "publishedAt": "2024-01-02T08:00:00+00:00",
        "slug": "about",
        "url": "/about",
        "node": {"@type": "Node", "@id": "/api/nodes/11", "visible": True, "position": 2,
                 "tags": []},
        "translation": EN,
        "content": "Demo Site was founded in 2019 by neighbours who wanted **one place** for "
                   "local news.",
        "subTitle": "Our story",
        "overTitle": None,
        "headerImage": [],
        "pictures": [],
        "nodeReferences": [
            {
                "@id": "/api/articles/1901",
                "@type": "Article",
                "title": "Our first article",
                "publishedAt": "2024-01-15T10:00:00+00:00",
                "slug": "first-article",
                "url": "/blog/first-article",
                "node": {
                    "@type": "Node", "@id": "/api/nodes/19", "visible": True,
                    # a root tag: no parent, omitted (skip_null_values)
                    "tags": [{"@type": "Tag", "@id": "/api/tags/1", "slug": "news",
                              "name": "News", "visible": True}],
                },
                "translation": EN,
            }
        ],
        "sticky": False,
        "metaKeywords": "about, team, history",
        "users": [],
        "metaTitle": "About Demo Site",
        "metaDescription": "Who runs Demo Site and why.",
        "urlAliases": [],
    }  # fmt: skip


def test_head_of_a_page_with_its_own_meta(client):
    head = get_path(client, "/about").json["head"]
    assert head == {
        "@type": "NodesSourcesHead",
        "@id": "_:head-en-1101",
        **HEAD_SETTINGS,
        "metaTitle": "About Demo Site",
        "metaDescription": "Who runs Demo Site and why.",
        "noIndex": False,
        "policyUrl": "/legal",
        **SOCIAL,
        "homePageUrl": "/",
        "shareImage": SHARE_IMAGE,
    }
    assert list(head)[-1] == "shareImage"


def test_head_meta_falls_back_to_title_and_settings(client):
    head = get_path(client, "/fr/blog").json["head"]
    assert head["metaTitle"] == "Blog – Demo Site"
    assert head["metaDescription"].startswith("Blog, ")
    assert head["homePageUrl"] == "/fr"
    assert head["policyUrl"] == "/fr/legal"


def test_head_share_image_prefers_the_header_image(client):
    share = get_path(client, "/").json["head"]["shareImage"]
    assert share["@id"] == "/api/documents/2"


def test_home_blocks_three_levels_deep_in_position_order(client):
    blocks = get_path(client, "/").json["blocks"]
    assert titles(blocks) == [
        "Who we are",
        ["Highlights", ["This week", ["Practical information", ["Opening hours", "Contact"]]]],
        ["Latest news", ["A note for English readers", "Volunteer stories", "New library hours"]],
    ]


def test_walker_objects_have_the_web_response_fields_and_deterministic_ids(client):
    blocks = get_path(client, "/").json["blocks"]
    group = blocks[1]
    assert list(group) == ["@type", "@id", "children", "item"]  # no children_count group
    assert group["@type"] == "AutoChildrenNodeSourceWalker"
    assert group["@id"] == "_:w101-301"
    assert group["children"][1]["children"][0]["@id"] == "_:w101-301-501-601"
    assert get_path(client, "/").json["blocks"] == blocks


def test_block_items_are_shaped_by_their_type_and_the_operation_groups(client):
    first = get_path(client, "/").json["blocks"][0]["item"]
    assert list(first) == [
        "@id", "@type", "title", "publishedAt", "slug", "node", "translation", "content", "image",
        "linkLabel", "linkUrl", "metaTitle", "metaDescription",
    ]  # fmt: skip
    assert first["@id"] == "/api/content_blocks/201"
    assert first["translation"] == EN
    assert "position" not in first["node"]  # only on the WebResponse item's node


def test_draft_and_invisible_blocks_are_absent(client):
    blocks = get_path(client, "/").json["blocks"]
    listed = {w["item"]["title"] for w in blocks}
    assert listed == {"Who we are", "Highlights", "Latest news"}


def test_reachable_children_are_listed_but_not_expanded(client):
    blocks = get_path(client, "/blog").json["blocks"]
    first_article = blocks[1]
    assert first_article["item"]["@type"] == "Article"
    assert first_article["item"]["url"] == "/blog/first-article"
    assert first_article["children"] == []  # it has a ContentBlock of its own
    article = get_path(client, "/blog/first-article").json
    assert [w["item"]["@type"] for w in article["blocks"]] == ["ContentBlock"]


def test_blog_lists_only_published_visible_articles(client):
    listed = [w["item"]["title"] for w in get_path(client, "/blog").json["blocks"]]
    assert len(listed) == 10  # intro + 9 articles: future, draft and invisible ones left out
    assert listed[0] == "Welcome to the blog"


def test_breadcrumbs_root_first_item_excluded(client):
    crumbs = get_path(client, "/blog/first-article").json["breadcrumbs"]
    assert crumbs["@type"] == "Breadcrumbs"
    assert crumbs["@id"] == "_:breadcrumbs-1901"
    assert [(i["@id"], i["title"], i["url"]) for i in crumbs["items"]] == [
        ("/api/blog_posts/1701", "Blog", "/blog")
    ]
    assert list(crumbs["items"][0]) == [
        "@id",
        "@type",
        "title",
        "publishedAt",
        "slug",
        "url",
        "node",
        "translation",
    ]
    assert crumbs["items"][0]["translation"] == EN


def test_breadcrumbs_skip_an_invisible_ancestor(client):
    body = get_path(client, "/team").json
    assert body["item"]["url"] == "/team"  # services (invisible) is not in the url either
    assert body["breadcrumbs"]["items"] == []


@pytest.mark.parametrize(
    ("path", "title", "locale"),
    [
        ("/", "Home", "en"),
        ("/en", "Home", "en"),
        ("/fr", "Accueil", "fr"),
        ("/fr/", "Accueil", "fr"),
        ("/fr/blog", "Blog", "fr"),
        ("/fr/team", "L'équipe", "fr"),
        ("/a-propos", "À propos", "fr"),
        ("/about.json", "About us", "en"),
        ("/about/", "About us", "en"),
        ("about", "About us", "en"),
        ("/blog/first-article.html", "Our first article", "en"),
    ],
)
def test_paths_resolve_to_their_translation(client, path, title, locale):
    response = get_path(client, path)
    assert response.status_code == 200, response.json
    assert response.json["item"]["title"] == title
    assert response.headers["Content-Language"] == locale


@pytest.mark.parametrize(
    ("path", "detail"),
    [
        ("/nope", NOT_RESOLVED),
        ("/de", '"de" translation was not found.'),
        ("/de/about", '"de" translation was not found.'),
        ("/draft-page", NOT_RESOLVED),
        ("/future-page", NOT_RESOLVED),
        ("/blog/future-article", NOT_RESOLVED),
        ("/blog/draft-article", NOT_RESOLVED),
        ("/fr/about", NOT_RESOLVED),  # fr about lives at its alias
        ("/loop-a", NOT_RESOLVED),
        ("/home", NOT_RESOLVED),
    ],
)
def test_unresolvable_paths_are_404(client, path, detail):
    response = get_path(client, path)
    assert response.status_code == 404
    assert problem_detail(response) == detail


def test_hidden_article_url_still_resolves(client):
    # invisible nodes are not listed, but are published: their page exists
    assert get_path(client, "/blog/hidden-article").status_code == 200


def test_non_reachable_items_are_never_resolvable(client, store):
    paths = store.db[f"paths_v{store.live()['version']}"]
    assert paths.count_documents({}) > 40
    assert list(paths.find({"source_id": {"$in": [201, 301]}})) == []


@pytest.mark.parametrize("query", [{}, {"path": ""}])
def test_missing_path_is_400(client, query):
    response = client.get("/api/web_response_by_path", query_string=query)
    assert response.status_code == 400
    assert problem_detail(response) == "path query parameter is mandatory"


def test_redirection_to_a_node_source(client):
    response = get_path(client, "/old-about")
    assert response.status_code == 200
    assert response.headers["Content-Location"] == "/about"
    assert response.json["item"]["@id"] == "/api/pages/1101"
    assert response.json["@id"] == "/api/web_response_by_path?path=/old-about"


def test_redirection_to_an_internal_path(client):
    response = get_path(client, "/old-blog")
    assert response.status_code == 200
    assert response.headers["Content-Location"] == "/blog"
    assert response.json["item"]["title"] == "Blog"


def test_redirection_to_an_external_uri(client):
    body = get_path(client, "/elsewhere").json
    assert body["item"] == {
        "@type": "Redirection",
        "@id": "/api/redirections/2",  # the second redirection of the fixture
        "redirectUri": "https://example.org/",
        "type": 302,
        "url": "https://example.org/",
    }
    assert body["maxAge"] == 0  # no node, no ttl
    assert body["breadcrumbs"]["items"] == []
    assert body["blocks"] == []
    assert body["realms"] == []
    assert body["head"]["metaTitle"] == "Demo Site"


def test_error_body_is_problem_json(client):
    response = get_path(client, "/nope")
    assert response.json == {
        "@context": "/api/contexts/Error",
        "@id": "/api/errors/404",
        "@type": "hydra:Error",
        "title": "An error occurred",
        "detail": NOT_RESOLVED,
        "status": 404,
        "type": "/errors/404",
        "description": NOT_RESOLVED,
        "hydra:title": "An error occurred",
        "hydra:description": NOT_RESOLVED,
    }


def test_max_age_is_the_node_ttl_in_seconds(client):
    assert get_path(client, "/about").json["maxAge"] == 30 * 60  # its node: ttl 30 minutes
    assert get_path(client, "/blog/jazz-night").json["maxAge"] == 10 * 60  # Article default_ttl
