"""Site fixture validation: a valid site passes, each broken rule gives exactly its problems."""

import copy
import json

import bcrypt
import pytest

from app.fixture.load import read_fixture
from app.fixture.validate import Problem, fixture_warnings, validate_fixture
from tests.conftest import demo_site

PASSWORD_HASH = bcrypt.hashpw(b"secret", bcrypt.gensalt(4)).decode()


def site() -> dict:
    """A small valid site in the import format (a fresh copy each time)."""
    return {
        "settings": {"site_name": "Demo", "main_color": "#00aaff", "share_image": 3},
        "translations": [
            {"locale": "en", "name": "English", "default": True, "available": True},
            {"locale": "fr", "name": "Français", "default": False, "override_locale": None},
        ],
        "node_types": [
            {"name": "Page", "reachable": True, "publishable": False, "default_ttl": 5,
             "fields": [
                 {"name": "content", "type": "markdown"},
                 {"name": "sub_title", "type": "string", "group": "Mise en forme"},
                 {"name": "header_image", "type": "documents"},
                 {"name": "node_references", "type": "nodes"},
                 {"name": "sticky", "type": "boolean"},
                 {"name": "colour", "type": "enum", "values": ["red", "blue"]},
                 {"name": "event_date", "type": "date", "serialization_groups": ["x"]},
                 {"name": "blocks", "type": "children_nodes",
                  "default_values": ["ArticleFeedBlock"]},
             ]},
            {"name": "ArticleFeedBlock", "reachable": False,
             "fields": [{"name": "listing_count", "type": "integer"}]},
        ],
        "documents": [
            {"id": 3, "filename": "share.jpg", "relative_path": "a1/share.jpg",
             "mime_type": "image/jpeg", "image_width": 1200, "image_height": 630,
             "private": False, "alt": {"en": "Our logo"}},
        ],
        "tags": [
            {"id": 7, "slug": "news", "visible": True, "parent": None, "names": {"en": "News"}},
            {"id": 8, "slug": "sport", "parent": 7, "names": {"fr": "Sport"}},
        ],
        "nodes": [
            {"id": 1, "node_name": "home", "type": "Page", "parent": None, "position": 1,
             "home": True, "visible": True, "status": "published", "ttl": 5, "tags": [],
             "sources": {
                 "en": {"id": 101, "title": "Home", "published_at": "2024-01-01T00:00:00+00:00",
                        "meta_title": "", "meta_description": None, "url_aliases": [],
                        "fields": {"content": "Welcome", "header_image": [3], "sticky": False,
                                   "colour": "red", "node_references": [3],
                                   "event_date": "2024-02-29"}},
             }},
            {"id": 2, "node_name": "feed", "type": "ArticleFeedBlock", "parent": 1,
             "position": 1.5, "status": "published", "tags": [7, 8],
             "sources": {"en": {"id": 102, "title": "Latest news", "published_at": None,
                                "fields": {"listing_count": None}}}},
            {"id": 3, "node_name": "about", "type": "Page", "parent": 1, "status": "draft",
             "sources": {
                 "en": {"id": 103, "title": "About", "published_at": "2024-01-01T00:00:00Z",
                        "url_aliases": ["about-us"]},
                 "fr": {"id": 104, "title": "À propos", "published_at": None,
                        "url_aliases": ["a-propos"]},
             }},
        ],
        "realms": [
            {"id": 1, "name": "Members", "type": "plain_password", "behaviour": "deny",
             "password": PASSWORD_HASH, "role": None, "users": [],
             "nodes": [{"node": 3, "inheritance": "auto"}]},
            {"id": 2, "name": "Editors", "type": "bearer_role", "behaviour": "hide_blocks",
             "role": "ROLE_EDITOR"},
        ],
        "redirections": [
            {"query": "/old-page", "redirect_node_source": 101, "type": 301},
            {"query": "/elsewhere", "redirect_uri": "https://example.org/", "type": 302},
        ],
    }  # fmt: skip


def _parent(doc: object, path: str) -> tuple[object, str | int]:
    *keys, last = [int(k) if k.isdigit() else k for k in path.split(".")]
    for key in keys:
        doc = doc[key]
    return doc, last


def apply(doc: dict, edits: list[tuple]) -> dict:
    """Apply ("set", "nodes.0.parent", 9), ("del", "nodes.0.home") and ("add", "tags", {...})."""
    for op, path, *value in edits:
        container, key = _parent(doc, path)
        if op == "set":
            container[key] = value[0]
        elif op == "del":
            del container[key]
        else:
            container[key].append(value[0])
    return doc


def _source(source_id: int, **extra: object) -> dict:
    return {"id": source_id, "title": "T", "published_at": None, **extra}


EN = "nodes.0.sources.en"
NOT_ISO = (
    "is not an ISO 8601 date-time (YYYY-MM-DDThh:mm:ss with an offset, such as "
    "2024-01-03T08:00:00+01:00)"
)
CYCLE = [("set", "nodes.1.parent", 3), ("set", "nodes.2.parent", 2)]

CASES = {
    "unknown top-level key": (
        [("set", "colour", "red")],
        [("$.colour", 'unknown key "colour"')],
    ),
    "unknown key in a source": (
        [("set", f"{EN}.subtitle", "x")],
        [("$.nodes[0].sources.en.subtitle", 'unknown key "subtitle"')],
    ),
    "unknown key in a realm node entry": (
        [("set", "realms.0.nodes.0.depth", 1)],
        [("$.realms[0].nodes[0].depth", 'unknown key "depth"')],
    ),
    "not an object": (
        [("set", "settings", [])],
        [("$.settings", "expected an object, got list")],
    ),
    # a list the fixture lacks or gives as another kind is one problem: references to it are not
    # checked (each would only repeat it)
    "missing required top-level key": (
        [("del", "node_types")],
        [("$", 'missing required key "node_types"')],
    ),
    "missing translations": (
        [("del", "translations")],
        [("$", 'missing required key "translations"')],
    ),
    "nodes not a list": (
        [("set", "nodes", {})],
        [("$.nodes", "expected a list, got object")],
    ),
    "documents not a list": (
        [("set", "documents", {"3": {}})],
        [("$.documents", "expected a list, got object")],
    ),
    # an optional list left out is empty: what refers to it is wrong
    "documents left out": (
        [("del", "documents")],
        [("$.settings.share_image", "share_image 3 is not a document id"),
         ("$.nodes[0].sources.en.fields.header_image[0]", "document 3 is not a document id")],
    ),
    "a home of a type that is not reachable": (
        [("set", "nodes.0.type", "ArticleFeedBlock"), ("set", f"{EN}.fields", {})],
        [("$.nodes[0].home", "the home node is of type ArticleFeedBlock, which is not reachable: "
                             "the home page would have no url"),
         ("$.redirections[0].redirect_node_source", "source 101 is of a type that is not "
                                                    "reachable: it has no url to redirect to")],
    ),
    "no home": (
        [("set", "nodes.0.home", False)],
        [("$.nodes", "exactly one node must have home: true (found 0)")],
    ),
    "two homes": (
        [("set", "nodes.2.home", True)],
        [
            ("$.nodes", "exactly one node must have home: true (found 2)"),
            ("$.nodes[2].parent", "the home node cannot have a parent"),
        ],
    ),
    "parent cycle": (
        CYCLE,
        [
            ("$.nodes[1].parent", "parent cycle 2 -> 3 -> 2"),
            ("$.nodes[2].parent", "parent cycle 3 -> 2 -> 3"),
        ],
    ),
    "own parent": (
        [("set", "nodes.2.parent", 3)],
        [("$.nodes[2].parent", "parent cycle 3 -> 3")],
    ),
    "missing parent": (
        [("set", "nodes.1.parent", 99)],
        [("$.nodes[1].parent", "parent 99 is not a node id")],
    ),
    "tag parent cycle": (
        [("set", "tags.0.parent", 8)],
        [
            ("$.tags[0].parent", "parent cycle 7 -> 8 -> 7"),
            ("$.tags[1].parent", "parent cycle 8 -> 7 -> 8"),
        ],
    ),
    "duplicate url alias": (
        [("set", "nodes.1.sources.en.url_aliases", ["about-us"])],
        [(
            "$.nodes[2].sources.en.url_aliases[0]",
            'duplicate url alias "about-us" (first at $.nodes[1].sources.en.url_aliases[0])',
        )],
    ),
    "url alias with a slash": (
        [("set", "nodes.2.sources.fr.url_aliases", ["a/propos"])],
        [("$.nodes[2].sources.fr.url_aliases[0]", '"a/propos" does not match ^[a-z0-9._-]+$')],
    ),
    "plain text realm password": (
        [("set", "realms.0.password", "secret")],
        [("$.realms[0].password", "password must be a bcrypt hash, not plain text")],
    ),
    "plain_password realm without password": (
        [("del", "realms.0.password")],
        [("$.realms[0]", 'missing required key "password"')],
    ),
    "bearer_role realm without role": (
        [("set", "realms.1.role", "")],
        [("$.realms[1].role", "a bearer_role realm needs a non-empty role")],
    ),
    "bearer_user realm without users": (
        [("set", "realms.1.type", "bearer_user"), ("set", "realms.1.users", [])],
        [("$.realms[1].users", "a bearer_user realm needs at least one user")],
    ),
    "realm protecting a missing node": (
        [("set", "realms.0.nodes.0", {"node": 9, "inheritance": "all"})],
        [
            ("$.realms[0].nodes[0].node", "node 9 is not a node id"),
            ("$.realms[0].nodes[0].inheritance", '"all" is not one of: auto, root'),
        ],
    ),
    "field not in the node type": (
        [("set", f"{EN}.fields.listing_count", 3)],
        [("$.nodes[0].sources.en.fields.listing_count",
          '"listing_count" is not a field of node type Page')],
    ),
    "wrong field value type": (
        [("set", f"{EN}.fields.sticky", "yes"), ("set", f"{EN}.fields.header_image", 3)],
        [
            ("$.nodes[0].sources.en.fields.header_image", "expected a list or null, got integer"),
            ("$.nodes[0].sources.en.fields.sticky", "expected a boolean or null, got string"),
        ],
    ),
    "bool is not an integer": (
        [("set", "nodes.1.sources.en.fields.listing_count", True)],
        [("$.nodes[1].sources.en.fields.listing_count",
          "expected an integer or null, got boolean")],
    ),
    "missing document and node references": (
        [("set", f"{EN}.fields.header_image", [4]), ("set", f"{EN}.fields.node_references", [5])],
        [
            ("$.nodes[0].sources.en.fields.header_image[0]", "document 4 is not a document id"),
            ("$.nodes[0].sources.en.fields.node_references[0]", "node 5 is not a node id"),
        ],
    ),
    "impossible date": (
        [("set", f"{EN}.fields.event_date", "2023-02-29")],
        [("$.nodes[0].sources.en.fields.event_date", '"2023-02-29" is not a YYYY-MM-DD date')],
    ),
    "children_nodes field with a value": (
        [("set", f"{EN}.fields.blocks", [2])],
        [("$.nodes[0].sources.en.fields.blocks",
          '"blocks" is a children_nodes field and cannot have a value')],
    ),
    "enum value not allowed": (
        [("set", f"{EN}.fields.colour", "purple")],
        [("$.nodes[0].sources.en.fields.colour", '"purple" is not one of: red, blue')],
    ),
    "published_at without offset": (
        [("set", f"{EN}.published_at", "2024-01-01T00:00:00")],
        [("$.nodes[0].sources.en.published_at", '"2024-01-01T00:00:00" has no UTC offset')],
    ),
    "published_at not a date-time": (
        [("set", f"{EN}.published_at", "yesterday")],
        [("$.nodes[0].sources.en.published_at", f'"yesterday" {NOT_ISO}')],
    ),
    # what Python's fromisoformat reads but ISO 8601's extended calendar date-time is not
    "published_at with an offset of seconds": (
        [("set", f"{EN}.published_at", "2024-01-03T08:00:00+01:00:30")],
        [("$.nodes[0].sources.en.published_at", f'"2024-01-03T08:00:00+01:00:30" {NOT_ISO}')],
    ),
    "published_at with a space for T": (
        [("set", f"{EN}.published_at", "2024-01-03 08:00:00+00:00")],
        [("$.nodes[0].sources.en.published_at", f'"2024-01-03 08:00:00+00:00" {NOT_ISO}')],
    ),
    "published_at with a lower-case t": (
        [("set", f"{EN}.published_at", "2024-01-03t08:00:00Z")],
        [("$.nodes[0].sources.en.published_at", f'"2024-01-03t08:00:00Z" {NOT_ISO}')],
    ),
    "published_at as a week date": (
        [("set", f"{EN}.published_at", "2024-W03-1T10:00:00+00:00")],
        [("$.nodes[0].sources.en.published_at", f'"2024-W03-1T10:00:00+00:00" {NOT_ISO}')],
    ),
    "published_at without its seconds, with an hours offset": (  # both are ISO 8601: valid
        [("set", f"{EN}.published_at", "2024-01-03T08:00+01")],
        [],
    ),
    "published_at with an offset without its colon": (  # PHP's DATE_ISO8601: read
        [("set", f"{EN}.published_at", "2024-01-03T08:00:00+0100")],
        [],
    ),
    "node without parent": (  # not among the optional keys (fixture-format.md): null for a root
        [("del", "nodes.2.parent")],
        [("$.nodes[2]", 'missing required key "parent"')],
    ),
    "published_at missing": (
        [("del", f"{EN}.published_at")],
        [("$.nodes[0].sources.en", 'missing required key "published_at"')],
    ),
    "duplicate source id": (
        [("set", "nodes.1.sources.en.id", 101)],
        [("$.nodes[1].sources.en.id",
          "duplicate source id 101 (first at $.nodes[0].sources.en.id)")],
    ),
    "duplicate node id": (
        [("set", "nodes.1.id", 1)],
        [("$.nodes[1].id", "duplicate node id 1 (first at $.nodes[0].id)")],
    ),
    "id not positive": (
        [("set", "documents.0.id", 0), ("set", "settings.share_image", None),
         ("set", f"{EN}.fields.header_image", [])],
        [("$.documents[0].id", "expected a positive integer, got 0")],
    ),
    "unknown locale in sources": (
        [("set", "nodes.0.sources.de", _source(150))],
        [("$.nodes[0].sources.de", '"de" is not a translation locale')],
    ),
    "unknown locale in tag names": (
        [("set", "tags.0.names.it", "Notizie")],
        [("$.tags[0].names.it", '"it" is not a translation locale')],
    ),
    "two default translations": (
        [("set", "translations.1.default", True)],
        [("$.translations", "exactly one translation must have default: true (found 2)")],
    ),
    "duplicate locale": (
        [("add", "translations", {"locale": "fr", "name": "French"})],
        [("$.translations[2].locale", 'duplicate locale "fr" (first at $.translations[1].locale)')],
    ),
    "redirection with both targets": (
        [("set", "redirections.0.redirect_uri", "/new-page")],
        [("$.redirections[0]",
          "exactly one of redirect_node_source and redirect_uri is required (found both)")],
    ),
    "redirection with no target": (
        [("del", "redirections.1.redirect_uri")],
        [("$.redirections[1]",
          "exactly one of redirect_node_source and redirect_uri is required (found neither)")],
    ),
    "bad redirection values": (
        [("set", "redirections.0.redirect_node_source", 1),
         ("set", "redirections.1", {"query": "old", "redirect_uri": "ftp://x", "type": 303})],
        [
            ("$.redirections[0].redirect_node_source",
             "redirect_node_source 1 is not a source id"),
            ("$.redirections[1].query", 'query must start with "/"'),
            ("$.redirections[1].redirect_uri",
             '"ftp://x" is not an http(s) URL or a path starting with "/"'),
            ("$.redirections[1].type", "303 is not one of: 301, 302"),
        ],
    ),
    "redirection to a URL urlsplit refuses": (  # a ValueError, not a refusal, before
        [("set", "redirections.1.redirect_uri", "https://[::1")],
        [("$.redirections[1].redirect_uri",
          '"https://[::1" is not an http(s) URL or a path starting with "/"')],
    ),
    "duplicate redirection query": (
        [("set", "redirections.1.query", "/old-page")],
        [("$.redirections[1].query",
          'duplicate query "/old-page" (first at $.redirections[0].query)')],
    ),
    "values on a non-enum field": (
        [("set", "node_types.0.fields.0.values", ["a"])],
        [("$.node_types[0].fields[0].values", '"values" is only allowed for enum fields')],
    ),
    "enum field without values": (
        [("del", "node_types.0.fields.5.values")],
        [("$.node_types[0].fields[5]", 'missing required key "values"')],
    ),
    "bad field definitions": (
        [("add", "node_types.1.fields", {"name": "title", "type": "text"}),
         ("add", "node_types.1.fields", {"name": "listing_count", "type": "number"}),
         ("add", "node_types.1.fields", {"name": "Bad", "type": "children_nodes",
                                          "default_values": ["Nope"]})],
        [
            ("$.node_types[1].fields[1].name", '"title" is a reserved base field name'),
            ("$.node_types[1].fields[2].name",
             'duplicate field name "listing_count" (first at $.node_types[1].fields[0].name)'),
            ("$.node_types[1].fields[2].type",
             '"number" is not one of: string, text, markdown, rich_text, email, color, country, '
             "custom_forms, users, boolean, integer, decimal, date, datetime, enum, json, "
             "documents, nodes, children_nodes"),
            ("$.node_types[1].fields[3].name", '"Bad" does not match ^[a-z][a-z0-9_]*$'),
        ],
    ),
    "bad node type name": (
        [("set", "node_types.1.name", "article_feed")],
        [
            ("$.node_types[1].name", '"article_feed" does not match ^[A-Z][A-Za-z0-9]*$'),
            ("$.nodes[1].type", '"ArticleFeedBlock" is not a node type'),
        ],
    ),
    "fields served under an item's own keys": (
        [("add", "node_types.0.fields", {"name": "translation", "type": "string"}),
         ("add", "node_types.0.fields", {"name": "title_", "type": "string"}),
         ("add", "node_types.0.fields", {"name": "url_aliases", "type": "string"}),
         ("add", "node_types.0.fields", {"name": "no__index", "type": "boolean"})],
        [
            ("$.node_types[0].fields[8].name",
             '"translation" would be served as "translation", a key every item has'),
            ("$.node_types[0].fields[9].name",
             '"title_" would be served as "title", a key every item has'),
            ("$.node_types[0].fields[10].name",
             '"url_aliases" would be served as "urlAliases", a key every item has'),
            ("$.node_types[0].fields[11].name",
             '"no__index" would be served as "noIndex", a key every item has'),
        ],
    ),
    "two fields served alike": (
        [("add", "node_types.0.fields", {"name": "sub__title", "type": "string"})],
        [("$.node_types[0].fields[8].name",
          'duplicate field served as "subTitle" (first at $.node_types[0].fields[1].name)')],
    ),
    "a no_index field that is not boolean": (
        [("add", "node_types.0.fields", {"name": "no_index", "type": "string"})],
        [("$.node_types[0].fields[8].name",
          "\"no_index\" sets the source's noIndex: its type must be boolean")],
    ),
    "enum values empty or repeated": (
        [("add", "node_types.0.fields", {"name": "shape", "type": "enum", "values": []}),
         ("add", "node_types.0.fields", {"name": "size", "type": "enum", "values": ["s", "s"]})],
        [("$.node_types[0].fields[8].values", "an enum field needs at least one value"),
         ("$.node_types[0].fields[9].values[1]",
          'duplicate enum value "s" (first at $.node_types[0].fields[9].values[0])')],
    ),
    "a tag given twice to a node": (
        [("set", "nodes.1.tags", [7, 8, 7])],
        [("$.nodes[1].tags[2]", "duplicate tag 7 (first at $.nodes[1].tags[0])")],
    ),
    "an override_locale that is another translation's prefix": (
        [("set", "translations.1.override_locale", "en")],
        [("$.translations[1].override_locale", '"en" is the locale of another translation')],
    ),
    "a redirection to a source of a type that is not reachable": (
        [("set", "redirections.0.redirect_node_source", 102)],
        [("$.redirections[0].redirect_node_source",
          "source 102 is of a type that is not reachable: it has no url to redirect to")],
    ),
    "two root menus served under the same key": (
        [("add", "node_types", {"name": "Menu", "reachable": False}),
         ("add", "nodes", {"id": 4, "node_name": "main-menu", "type": "Menu", "parent": None,
                           "status": "published", "sources": {"en": _source(105)}}),
         ("add", "nodes", {"id": 5, "node_name": "main_menu", "type": "Menu", "parent": None,
                           "status": "published", "sources": {"en": _source(106)}}),
         ("add", "nodes", {"id": 6, "node_name": "main.menu", "type": "Menu", "parent": 4,
                           "status": "published", "sources": {"en": _source(107)}})],
        [("$.nodes[4].node_name",
          'duplicate menu key "mainMenuWalker" (first at $.nodes[3].node_name)')],
    ),
    "two node types listed in one collection": (
        [("add", "node_types", {"name": "Person", "reachable": True}),
         ("add", "node_types", {"name": "People", "reachable": True}),
         ("add", "node_types", {"name": "Person", "reachable": False})],
        [("$.node_types[3].name", 'duplicate node type plural "people" (first at '
          "$.node_types[2].name)"),
         ("$.node_types[4].name",
          'duplicate node type name "Person" (first at $.node_types[2].name)')],
    ),
    "several problems at once": (
        [("set", "settings.logo", "x"), ("set", "nodes.0.status", "live"),
         ("set", "nodes.1.tags", [7, 9]), ("del", "nodes.2.sources.fr.title"),
         ("set", "nodes.2.ttl", -1), ("set", "realms.0.password", "hunter2")],
        [
            ("$.settings.logo", 'unknown key "logo"'),
            ("$.nodes[0].status",
             '"live" is not one of: draft, pending, published, archived, deleted'),
            ("$.nodes[1].tags[1]", "tag 9 is not a tag id"),
            ("$.nodes[2].sources.fr", 'missing required key "title"'),
            ("$.nodes[2].ttl", "expected an integer >= 0, got -1"),
            ("$.realms[0].password", "password must be a bcrypt hash, not plain text"),
        ],
    ),
}  # fmt: skip


def test_valid_site_has_no_problems() -> None:
    assert validate_fixture(site()) == []


def test_optional_sections_default_to_empty() -> None:
    doc = site()
    for key in ("settings", "documents", "tags", "realms", "redirections"):
        del doc[key]
    for node in doc["nodes"]:
        node.pop("tags", None)
        for source in node["sources"].values():
            source.get("fields", {}).pop("header_image", None)
    assert validate_fixture(doc) == []


@pytest.mark.parametrize(("edits", "expected"), CASES.values(), ids=CASES.keys())
def test_each_problem_is_reported_exactly(edits: list[tuple], expected: list[tuple]) -> None:
    assert validate_fixture(apply(site(), edits)) == [Problem(*p) for p in expected]


def test_a_key_given_twice_in_the_file_is_reported(tmp_path) -> None:
    """JSON readers keep one of the values of a repeated key, silently: the loader refuses it."""
    doc = site()
    text = json.dumps(doc)[:-1] + f', "settings": {json.dumps(doc["settings"])}}}'  # again, last
    text = text.replace('"status": "draft"', '"status": "draft", "status": "published"')
    (tmp_path / "site.json").write_text(text)
    assert validate_fixture(read_fixture(tmp_path / "site.json")) == [
        Problem("$.settings", 'key "settings" is given more than once'),
        Problem("$.nodes[2].status", 'key "status" is given more than once'),
    ]


def test_not_an_object() -> None:
    assert validate_fixture([]) == [Problem("$", "expected an object, got list")]


def test_locale_keys_that_are_not_identifiers_are_quoted() -> None:
    doc = apply(site(), [("set", "nodes.0.sources.pt-BR", _source(150))])
    assert validate_fixture(doc) == [
        Problem('$.nodes[0].sources["pt-BR"]', '"pt-BR" is not a translation locale')
    ]


def test_validation_does_not_change_the_document() -> None:
    doc = apply(site(), CYCLE)
    before = copy.deepcopy(doc)
    validate_fixture(doc)
    assert doc == before


@pytest.mark.parametrize(
    "garbage",
    [
        {"translations": "en", "node_types": {}, "nodes": [1, None, "x"]},
        {"translations": [[]], "node_types": [{"fields": [[], {"name": []}]}], "nodes": [{}]},
        {"translations": [], "node_types": [], "nodes": [{"parent": [1], "sources": []}]},
        {"translations": [], "node_types": [], "nodes": [{"id": 1, "parent": {"a": 1}}]},
        {"translations": [], "node_types": [], "nodes": [], "tags": [{"id": 1, "parent": [1]}]},
    ],
)
def test_malformed_input_gives_problems_not_exceptions(garbage: dict) -> None:
    assert validate_fixture(garbage)


def test_children_nodes_may_name_a_type_the_fixture_does_not_declare():
    """fixture-format.md's own example lists `ContentBlock` among a Page's blocks without
    declaring it: valid, and the load says that no block is listed for it."""
    site = demo_site()
    page = next(t for t in site["node_types"] if t["name"] == "Page")
    blocks = next(f for f in page["fields"] if f["type"] == "children_nodes")
    blocks["default_values"].append("Carousel")
    at = (f"$.node_types[{site['node_types'].index(page)}].fields[{page['fields'].index(blocks)}]"
          f".default_values[{len(blocks['default_values']) - 1}]")  # fmt: skip
    assert validate_fixture(site) == []
    assert fixture_warnings(site) == [
        f'{at}: "Carousel" is not a node type of the fixture: no block is listed for it'
    ]
    assert fixture_warnings(demo_site()) == []
