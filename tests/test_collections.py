"""Node-source collections: Roadiz's filters, pagination, hydra:view and hydra:search, and the
400s this service adds where API Platform would silently ignore a parameter."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from tests.helpers import problem_detail

# Published articles of the demo site, per translation (de is unavailable; 2601 has no fr):
# the blog's (2024) and the news archive's (2022-2023).
EN = [1901, 2001, 2101, 2201, 2301, 2401, 2501, 2601, 2701, 3001]
FR = [1902, 2002, 2102, 2202, 2302, 2402, 2502, 2702, 3002]
OLD_EN = [6101, 6201, 6301, 6401, 6501, 6601]
OLD_FR = [6102, 6202, 6302, 6402, 6502, 6602]


def ids(client, query: str, plural: str = "articles") -> list[int]:
    response = client.get(f"/api/{plural}?{query}")
    assert response.status_code == 200, response.json
    return [int(m["@id"].rsplit("/", 1)[1]) for m in response.json["hydra:member"]]


def test_default_order_is_by_id_and_mixes_available_translations(client):
    body = client.get("/api/articles").json
    assert body["hydra:totalItems"] == 31
    members = [int(m["@id"].rsplit("/", 1)[1]) for m in body["hydra:member"]]
    assert members == sorted(EN + FR + OLD_EN + OLD_FR)[:15]  # itemsPerPage defaults to 15


def test_pagination_view_and_edges(client):
    body = client.get("/api/articles?itemsPerPage=3&page=2").json
    assert len(body["hydra:member"]) == 3
    assert body["hydra:view"] == {
        "@id": "/api/articles?itemsPerPage=3&page=2",
        "@type": "hydra:PartialCollectionView",
        "hydra:first": "/api/articles?itemsPerPage=3&page=1",
        "hydra:last": "/api/articles?itemsPerPage=3&page=11",
        "hydra:previous": "/api/articles?itemsPerPage=3&page=1",
        "hydra:next": "/api/articles?itemsPerPage=3&page=3",
    }
    assert len(client.get("/api/nodes_sources?itemsPerPage=500").json["hydra:member"]) == 50
    empty = client.get("/api/articles?itemsPerPage=0").json
    assert (empty["hydra:member"], empty["hydra:totalItems"]) == ([], 31)
    past = client.get("/api/articles?page=9")
    assert (past.status_code, past.json["hydra:member"]) == (200, [])


def test_view_is_absent_on_a_single_unfiltered_page_and_bare_when_filtered(client):
    assert "hydra:view" not in client.get("/api/blog_posts").json
    filtered = client.get("/api/articles?order[publishedAt]=desc&_locale=fr").json
    assert filtered["hydra:view"] == {
        "@id": "/api/articles?_locale=fr&order%5BpublishedAt%5D=desc&page=1",
        "@type": "hydra:PartialCollectionView",
    }


def test_list_indices_are_collapsed_and_page_moved_last(client):
    view = client.get("/api/articles?page=2&title[0]=a&itemsPerPage=2").json["hydra:view"]
    # names in canonical order (one cache entry per query), order[] keys last in their order
    assert view["@id"] == "/api/articles?itemsPerPage=2&title%5B%5D=a&page=2"


def test_hydra_search_lists_the_supported_filters(client):
    search = client.get("/api/articles").json["hydra:search"]
    assert search["@type"] == "hydra:IriTemplate"
    assert search["hydra:variableRepresentation"] == "BasicRepresentation"
    template = search["hydra:template"]
    assert template.startswith("/api/articles{?_locale,title,title[],")
    variables = [m["variable"] for m in search["hydra:mapping"]]
    assert template == "/api/articles{?" + ",".join(variables) + "}"
    for name in (
        "publishedAt[archive]",
        "node.parent[]",
        "not[node.id]",
        "tagGroup[]",
        "intersect[node.nodesTags.tag.tagName][]",
        "order[node.position]",
    ):
        assert name in variables
    assert "page" not in variables and "itemsPerPage" not in variables
    # the property filter, as API Platform's PropertyFilter declares it: no property
    assert variables[-1] == "properties[]"
    assert search["hydra:mapping"][-1] == {
        "@type": "IriTemplateMapping", "variable": "properties[]", "property": None,
        "required": False,
    }  # fmt: skip
    for other in ("/api/tags", "/api/documents", "/api/translations", "/api/nodes_sources"):
        assert client.get(other).json["hydra:search"]["hydra:template"].endswith(",properties[]}")
    mapping = next(m for m in search["hydra:mapping"] if m["variable"] == "publishedAt[before]")
    assert mapping == {
        "@type": "IriTemplateMapping",
        "variable": "publishedAt[before]",
        "property": "publishedAt",
        "required": False,
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # partial, case-insensitive; [] = any of
        ("title=CONCERT", [2701, 2702]),
        ("title[]=jazz&title[]=harvest", [2101, 2102, 2501, 6201, 6202, 6501, 6502]),
        ("title=no-such-words", []),
        # booleans
        ("node.visible=false", [3001, 3002]),
        ("node.visible=0&_locale=fr", [3002]),
        ("noIndex=true", []),
        ("node.home=true", []),  # the home is a page
        ("node.home=true&node.id=21", []),
        # dates
        ("publishedAt[before]=2024-03-02T10:00:00%2B00:00&_locale=en", [1901, 2001, *OLD_EN]),
        ("publishedAt[strictly_before]=2024-03-02T10:00:00Z&_locale=en", [1901, *OLD_EN]),
        ("publishedAt[after]=2024-11-22T18:00:00Z&_locale=en", [2701, 3001]),
        ("publishedAt[strictly_after]=2024-11-22T18:00:00Z", [3001, 3002]),
        ("publishedAt[strictly_after]=2024-11-22t18:00:00z", [3001, 3002]),  # RFC 3339: any case
        (
            "publishedAt[after]=2024-05-01&publishedAt[before]=2024-06-30&_locale=en",
            [2201, 2301],
        ),
        ("publishedAt[archive]=2024-05", [2201, 2202]),
        ("publishedAt[archive]=2024-04-12&_locale=fr", [2102]),
        ("publishedAt[archive]=2023", [6401, 6402, 6501, 6502, 6601, 6602]),
        ("publishedAt[archive]=2021", []),
        ("publishedAt[archive]=9999-12-31", []),  # its end is no next day (the year 10000)
        ("publishedAt[archive]=9999", []),
        # exact, ids and IRIs
        ("node.id=21", [2101, 2102]),
        ("node.id[]=21&node.id[]=26", [2101, 2102, 2601]),
        ("node.nodeName=harvest-fair", [2501, 2502]),
        # names read along `node_name` (the named nodes' sources), sorted after the read
        ("node.nodeName[]=harvest-fair&node.nodeName[]=blog&node.id=25", [2501, 2502]),
        ("node.nodeName[]=harvest-fair&node.nodeName[]=no-such-node&_locale=fr", [2502]),
        ("node.nodeName=no-such-node", []),
        ("node.parent=17&_locale=en", EN),
        ("node.parent=/api/nodes/17&_locale=en", EN),
        ("node.parent=11", []),
        ("node.parent.nodeName=blog&_locale=fr", FR),
        # a parent's name is read as its node's id (the parent indexes); either name, and both
        # parent filters together
        ("node.parent.nodeName[]=blog&node.parent.nodeName[]=archive&_locale=en", EN + OLD_EN),
        ("node.parent.nodeName=no-such-node", []),
        ("node.parent.nodeName=blog&node.parent=17&_locale=fr", FR),
        ("node.parent.nodeName=blog&node.parent=60", []),
        ("node.parent.nodeName=home", []),  # a node without children
        ("node.nodesTags.tag=/api/tags/3", [2101, 2102, 2701, 2702, 6501, 6502]),
        ("node.nodesTags.tag.tagName=culture&_locale=en", [2101, 2701, 6501]),
        (
            "node.nodesTags.tag.tagName[]=culture&node.nodesTags.tag.tagName[]=featured&_locale=en",
            [2001, 2101, 2401, 2501, 2701, 3001, 6401, 6501],
        ),
        ("translation.locale=fr", FR + OLD_FR),
        ("translation.id=2", FR + OLD_FR),
        ("translation.id=3", []),  # de: not available
        ("node.nodeTypeName=Article&_locale=en", EN + OLD_EN),
        ("node.parent=60&_locale=en", OLD_EN),
        ("node.nodeTypeName=Page", []),
        # positions
        ("node.position=2", [2001, 2002, 6201, 6202]),
        ("node.position[between]=2..3&_locale=en", [2001, 2101, 6201, 6301]),
        ("node.position[gt]=8&_locale=en", [2701, 3001]),
        ("node.position[lte]=1", [1901, 1902, 6101, 6102]),
        # not, intersect, tag groups
        ("not[node.id][]=19&not[node.id][]=20&_locale=fr", FR[2:] + OLD_FR),
        ("not[node.nodesTags.tag.tagName]=news&_locale=en", [2101, 2301, 2501, 2701, 6201, 6501]),
        (
            "intersect[node.nodesTags.tag.tagName][]=news&intersect[node.nodesTags.tag.tagName][]=featured"
            "&_locale=en",
            [2001, 2401, 3001, 6401],
        ),
        (
            "intersect[node.nodesTags.tag][]=2&intersect[node.nodesTags.tag][]=/api/tags/4&_locale=en",
            [2501],
        ),
        ("tagGroup[]=culture,featured&tagGroup[]=news&_locale=en", [2001, 2401, 3001, 6401]),
        ("tagGroup[]=events&_locale=fr", [2102, 2302, 2502, 2702, 6202, 6502]),
        # combined
        (
            "node.visible=true&node.nodesTags.tag.tagName=featured&publishedAt[archive]=2024&_locale=en",
            [2001, 2401, 2501],
        ),
    ],
)
def test_filter(client, query, expected):
    assert ids(client, f"{query}&itemsPerPage=50") == sorted(expected)


@pytest.mark.parametrize(
    "order", ["order[publishedAt]=desc", "order[node.position]=asc", "order[publishedAt]=asc"]
)
def test_nodes_named_by_name_are_listed_in_the_order_asked_as_the_same_nodes_by_id(client, order):
    """`node.nodeName` reads the named nodes' sources along `node_name` and sorts them after the
    read, as `node.id` does along `node_locale`: the same sources in the same order."""
    names = "node.nodeName[]=jazz-night&node.nodeName[]=harvest-fair&node.nodeName[]=winter-concert"
    by_id = "node.id[]=21&node.id[]=25&node.id[]=27"
    named = ids(client, f"{names}&{order}&_locale=en")
    assert named == ids(client, f"{by_id}&{order}&_locale=en")
    assert sorted(named) == [2101, 2501, 2701]
    assert ids(client, f"{names}&{order}&itemsPerPage=2&page=2") == ids(
        client, f"{by_id}&{order}&itemsPerPage=2&page=2"
    )


def test_the_home_filter_lists_the_home_sources_of_the_available_translations(client):
    """`node.home=true` (read as the home node's id: its `node_locale` entries) and `false`."""
    assert ids(client, "node.home=true", "pages") == [101, 102]
    assert ids(client, "node.home=1&_locale=fr&order[publishedAt]=desc", "pages") == [102]
    assert ids(client, "node.home=true&not[node.id]=1", "pages") == []
    everything = client.get("/api/pages?itemsPerPage=0").json["hydra:totalItems"]
    others = client.get("/api/pages?node.home=false&itemsPerPage=0").json["hydra:totalItems"]
    assert everything - others == 2


def test_order_keys_apply_in_query_order_in_any_case(client):
    assert ids(client, "order[publishedAt]=DESC&_locale=en&itemsPerPage=3") == [
        3001,
        2701,
        2601,
    ]
    assert ids(client, "order[publishedAt]=asc&_locale=en&itemsPerPage=2") == [6101, 6201]
    assert ids(client, "order[node.position]=Desc&_locale=en&itemsPerPage=1") == [3001]
    # node.position first, then publishedAt; ties (en and fr of a node) by id, in the direction
    # of the last key
    both = ids(client, "order[node.position]=asc&order[publishedAt]=desc&itemsPerPage=4")
    assert both == [1902, 1901, 6102, 6101]


def test_nodes_sources_lists_every_type_with_its_own_iri(client):
    body = client.get("/api/nodes_sources?node.parent=17&_locale=en&itemsPerPage=50").json
    types = {m["@type"] for m in body["hydra:member"]}
    assert types == {"Article", "ContentBlock"}  # blog-intro is a block
    assert "/api/content_blocks/1801" in [m["@id"] for m in body["hydra:member"]]
    reachable = client.get("/api/nodes_sources?node.parent=17&_locale=en&reachable=true").json
    assert {m["@type"] for m in reachable["hydra:member"]} == {"Article"}
    blocks = client.get("/api/nodes_sources?reachable=off&node.nodeTypeName=Menu&_locale=en").json
    assert {m["@type"] for m in blocks["hydra:member"]} == {"Menu"}
    assert (
        client.get("/api/nodes_sources?publishable=yes&_locale=en").json["hydra:totalItems"] == 16
    )


def test_sparse_fieldsets(client):
    member = client.get(
        "/api/articles?properties[]=title&properties[node][]=visible&itemsPerPage=1"
    ).json["hydra:member"][0]
    assert member == {
        "@id": "/api/articles/1901",
        "@type": "Article",
        "title": "Our first article",
        "url": "/blog/first-article",
        "node": {"@type": "Node", "@id": "/api/nodes/19", "visible": True},
    }
    indexed = client.get("/api/articles?properties[0]=slug&itemsPerPage=1").json["hydra:member"]
    assert indexed == [
        {
            "@id": "/api/articles/1901",
            "@type": "Article",
            "url": "/blog/first-article",
            "slug": "first-article",
        }
    ]


@pytest.mark.parametrize(
    ("relative", "moment"),
    [
        ("yesterday", lambda now: datetime.combine(now.date() - timedelta(days=1), time(), UTC)),
        ("-700+days", lambda now: now - timedelta(days=700)),  # "+" unencoded: a space
        ("100%20weeks%20ago", lambda now: now - timedelta(weeks=100)),
        ("%2B1%20day", lambda now: now + timedelta(days=1)),
    ],
)
def test_a_date_filter_reads_phps_relative_dates(client, relative, moment):
    """Roadiz reads any PHP date (strtotime): the relative ones select what the date they name
    does, now being the request's (the demo's dates are years apart, far from the edges)."""
    iso = moment(datetime.now(UTC)).isoformat().replace("+", "%2B")
    for strategy in ("before", "after"):
        expected = ids(client, f"publishedAt[{strategy}]={iso}&itemsPerPage=50")
        assert ids(client, f"publishedAt[{strategy}]={relative}&itemsPerPage=50") == expected
    assert ids(client, f"publishedAt[before]={relative}&itemsPerPage=50")  # not empty


def test_collections_apply_availability_realms_and_publication(client):
    pages = ids(client, "itemsPerPage=50", "pages")
    assert 1101 in pages and 1103 not in pages  # de: unavailable translation
    assert 3201 not in pages  # members: deny realm, not granted
    assert 3701 not in pages and 3801 not in pages  # draft, future
    assert 2801 not in ids(client, "itemsPerPage=50")  # future article
    opened = client.get(
        "/api/pages?itemsPerPage=50", headers={"Authorization": "PasswordQuery letmein"}
    )
    assert "/api/pages/3201" in [m["@id"] for m in opened.json["hydra:member"]]
    assert opened.headers["Cache-Control"] == "private, max-age=60"


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("page=0", "Page should not be less than 1"),
        ("page=two", "Page should not be less than 1"),
        ("itemsPerPage=-1", "Limit should not be less than 0"),
        ("itemsPerPage=many", '"itemsPerPage" must be an integer, not "many"'),
        ("_locale=de", 'Locale filter value "de" not supported. Supported values are en, fr'),
        ("node.visible=yes", '"node.visible" must be one of true, 1, false, 0'),
        ("reachable=maybe", '"reachable" must be one of 1, true, on, yes, 0, false, off, no'),
        ("order[publishedAt]=up", '"order[publishedAt]" must be asc or desc (any case), not "up"'),
        (  # a weekday is PHP but not read (app.listing.relative_dates)
            "publishedAt[before]=last+monday",
            '"publishedAt[before]" must be a date (ISO 8601: 2024-05-01 or '
            "2024-05-01T10:00:00+02:00; or relative, as PHP reads it: now, today, yesterday, "
            '-1 week), not "last monday"',
        ),
        (
            "publishedAt[before]=99999+years",
            '"publishedAt[before]" must be a date between the years 1 and 9999 in UTC, '
            'not "99999 years"',
        ),
        (
            "publishedAt[after]=9999-12-31T23:30:00-01:00",  # past 9999 in UTC
            '"publishedAt[after]" must be a date between the years 1 and 9999 in UTC, '
            'not "9999-12-31T23:30:00-01:00"',
        ),
        (  # Python's fromisoformat would stop at the NUL and take the date before it
            "publishedAt[after]=2024-11-22T18:00:00Z%00",
            '"publishedAt[after]" must be a date (ISO 8601: 2024-05-01 or '
            "2024-05-01T10:00:00+02:00; or relative, as PHP reads it: now, today, yesterday, "
            '-1 week), not "2024-11-22T18:00:00Z\x00"',
        ),
        ("publishedAt[archive]=2024-13", "“archive” filter must be a valid archive specification."),
        ("publishedAt[archive]=24", "“archive” filter must be a valid archive specification."),
        ("publishedAt[archive]=2024-00", "“archive” filter must be a valid archive specification."),
        (
            "publishedAt[archive]=2023-02-29",
            "“archive” filter must be a valid archive specification.",
        ),
        (
            "node.parent=/api/pages/17",
            '"node.parent" must be a non-negative integer (at most 18 digits) or an IRI'
            ' /api/nodes/<id>, not "/api/pages/17"',
        ),
        ("node.id=x1", '"node.id" must be a non-negative integer (at most 18 digits), not "x1"'),
        # an id is no negative number (the message said "an integer" of -5)
        ("node.id=-5", '"node.id" must be a non-negative integer (at most 18 digits), not "-5"'),
        (
            "translation.id=-1",
            '"translation.id" must be a non-negative integer (at most 18 digits), not "-1"',
        ),
        (
            "node.position[between]=1-3",
            '"node.position[between]" must be two integers a..b, not "1-3"',
        ),
        ("tagGroup[]=,", '"tagGroup[]" must be comma-separated tag names'),
        (
            "properties=title",
            '"properties" must be properties[]=field or properties[object][]=field',
        ),
    ],
)
def test_malformed_values_are_refused(client, query, detail):
    response = client.get(f"/api/articles?{query}")
    assert response.status_code == 400
    assert problem_detail(response) == detail


@pytest.mark.parametrize("name", ["order[title]", "tags", "search", "node.aNodes.nodeA", "foo"])
def test_unknown_parameters_are_refused_naming_the_accepted_ones(client, name):
    response = client.get(f"/api/articles?{name}=x")
    assert response.status_code == 400
    detail = problem_detail(response)
    assert detail.startswith(f'Unknown parameter "{name}" for /api/articles; accepted: _locale, ')
    assert "publishedAt[archive]" in detail and "itemsPerPage" in detail
    assert ", properties[], " in detail  # the property filter, accepted too


def test_archives_refuse_the_property_filter_they_could_not_apply(client):
    """An Archive has no fields to leave out: `properties[]` is no silent no-op there, and the
    archives' 400 and hydra:search do not name it (the collections' do)."""
    response = client.get("/api/articles/archives?properties[]=year")
    assert response.status_code == 400
    detail = problem_detail(response)
    assert detail.startswith('Unknown parameter "properties[]" for /api/articles/archives; ')
    assert "properties[]" not in detail.partition("accepted: ")[2]
    search = client.get("/api/articles/archives").json["hydra:search"]
    assert "properties[]" not in search["hydra:template"]


def test_archives_group_publication_months_by_year_newest_first(client):
    body = client.get("/api/articles/archives?_locale=en").json
    assert body["@type"] == "hydra:Collection"
    assert body["hydra:totalItems"] == 3
    years = [(m["@type"], m["year"], list(m["months"])) for m in body["hydra:member"]]
    assert years == [
        ("Archive", 2024, ["2024-12", "2024-11", "2024-10", "2024-09", "2024-07", "2024-06",
                           "2024-05", "2024-04", "2024-03", "2024-01"]),
        ("Archive", 2023, ["2023-12", "2023-07", "2023-03"]),
        ("Archive", 2022, ["2022-11", "2022-07", "2022-04"]),
    ]  # fmt: skip
    assert body["hydra:member"][1]["months"]["2023-07"] == "2023-07-01T00:00:00+00:00"
    assert all(m["@id"].startswith("/.well-known/genid/") for m in body["hydra:member"])
    # unpaginated (API Platform's PartialCollectionViewNormalizer): a view of the request's own
    # IRI with a parameter besides `page` and `pagination`, else none
    assert body["hydra:view"] == {
        "@id": "/api/articles/archives?_locale=en",
        "@type": "hydra:PartialCollectionView",
    }
    view = client.get("/api/articles/archives?page=3&node.visible=1&itemsPerPage=2").json
    assert view["hydra:view"] == {
        "@id": "/api/articles/archives?itemsPerPage=2&node.visible=1",  # canonical order
        "@type": "hydra:PartialCollectionView",
    }
    for bare in ("", "?page=2", "?pagination=false"):
        assert "hydra:view" not in client.get(f"/api/articles/archives{bare}").json


def test_archives_honour_the_filters_publication_and_locale(client):
    def months(query: str, plural: str = "articles") -> dict[int, list[str]]:
        found = client.get(f"/api/{plural}/archives?{query}").json["hydra:member"]
        return {m["year"]: list(m["months"]) for m in found}

    assert months("_locale=fr&node.nodesTags.tag.tagName=jazz") == {
        2023: ["2023-07"],
        2022: ["2022-07"],
    }
    assert months("publishedAt[archive]=2022&node.visible=true") == {
        2022: ["2022-11", "2022-07", "2022-04"]
    }
    assert 2099 not in months("")  # future articles are not out yet
    assert months("node.nodesTags.tag.tagName=none") == {}
    assert months("page=5&itemsPerPage=1") == months("")  # unpaginated
    assert 2022 in months("publishable=1&_locale=en", "nodes_sources")


@pytest.mark.parametrize("plural", ["pages", "content_blocks", "tags", "nodes", "unknown"])
def test_archives_exist_for_publishable_types_only(client, plural):
    response = client.get(f"/api/{plural}/archives")
    assert response.status_code == 404
    assert problem_detail(response) == f'No resource "/api/{plural}/archives"'
    bad = client.get("/api/articles/archives?publishedAt[archive]=22")
    assert problem_detail(bad) == "“archive” filter must be a valid archive specification."


def test_members_carry_their_translation(client):
    member = client.get("/api/articles?_locale=fr&itemsPerPage=1").json["hydra:member"][0]
    assert member["translation"] == {
        "@id": "/api/translations/2",
        "@type": "Translation",
        "name": "Français",
        "defaultTranslation": False,
        "available": True,
        "locale": "fr",
    }
