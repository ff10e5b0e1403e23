"""Walker definitions and WebResponse decoration, through their public mechanisms."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app import create_app
from app.config import DEFAULTS, DEMO_TRANSFORMER, REPO_ROOT, ConfigError
from app.publication import Visibility
from tests.helpers import get_path, titles
from walkers.article_feed import ArticleFeedDefinition
from walkers.definitions import WalkerDefinitionError
from walkers.walker import WalkerContext


def test_the_demo_decoration_adds_foo_bar(client):
    body = get_path(client, "/about").json
    assert list(body)[-1] == "fooBar"
    assert body["fooBar"] == "Page:about"
    assert get_path(client, "/elsewhere").json["fooBar"] == ""  # its default


def test_the_decoration_is_in_the_openapi_document(client):
    schema = client.get("/api/docs.json").json["components"]["schemas"]["WebResponse"]
    assert schema["properties"]["fooBar"] == {"type": "string"}


def test_without_a_project_transformer_there_is_no_foo_bar(make_app):
    client = make_app(WEB_RESPONSE_TRANSFORMER=None).test_client()
    body = get_path(client, "/about").json
    assert "fooBar" not in body
    assert list(body)[-2:] == ["hidingBlocks", "maxAge"]


def test_the_demo_transformer_is_not_a_default():
    """Production configuration enables no project transformer: only `make run` (the demo
    configuration) and the tests' demo app name the shipped example."""
    assert DEFAULTS["WEB_RESPONSE_TRANSFORMER"] is None
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"DEMO_TRANSFORMER ?= {DEMO_TRANSFORMER}" in makefile


def test_a_test_only_decoration_changes_the_output(make_app):
    client = make_app(WEB_RESPONSE_TRANSFORMER="tests.custom_extensions:ShoutingTransformer")
    client = client.test_client()
    body = get_path(client, "/about").json
    assert body["shout"] == "ABOUT US"
    assert "fooBar" not in body
    assert body["item"]["title"] == "About us"  # the built-in parts are still filled
    schema = client.get("/api/docs.json").json["components"]["schemas"]["WebResponse"]
    assert "shout" in schema["properties"]
    # a transformer answering None is a 404
    assert get_path(client, "/blog").status_code == 404


def test_a_test_only_walker_definition_changes_the_children(make_app):
    app = make_app(WALKER_DEFINITION_MODULES=["walkers.article_feed", "tests.custom_extensions"])
    blocks = get_path(app.test_client(), "/").json["blocks"]
    # GroupBlocks list their children in reverse; collection goes on below them
    assert titles(blocks)[1] == [
        "Highlights",
        [["Practical information", ["Contact", "Opening hours"]], "This week"],
    ]


def test_without_the_feed_definition_a_feed_has_its_stored_children(make_app):
    app = make_app(WALKER_DEFINITION_MODULES=[])
    blocks = get_path(app.test_client(), "/").json["blocks"]
    assert titles(blocks)[2] == "Latest news"  # stored children: none


def test_a_definition_refuses_a_source_of_another_type(app, store):
    generation = store.generation(store.live()["version"])
    page = generation.source(101, Visibility(now=datetime.now(UTC)))
    context = WalkerContext(generation, "en", Visibility(now=datetime.now(UTC)), page)
    with pytest.raises(WalkerDefinitionError) as raised:
        ArticleFeedDefinition().children(page, context)
    assert str(raised.value) == "ArticleFeedDefinition handles ArticleFeedBlock items, not Page"


def test_a_definition_refuses_a_context_that_is_not_a_walker_context(app, store):
    generation = store.generation(store.live()["version"])
    feed = generation.source(801, Visibility(now=datetime.now(UTC)))
    with pytest.raises(WalkerDefinitionError) as raised:
        ArticleFeedDefinition().children(feed, {"locale": "en"})
    assert str(raised.value) == (
        "ArticleFeedDefinition needs a node source walker context, not dict"
    )


def test_a_transformer_written_null_is_the_built_in_one_alone(monkeypatch):
    """docs/extending.md: `CMS_WEB_RESPONSE_TRANSFORMER=null make run` drops the demo's."""
    monkeypatch.setenv("CMS_WEB_RESPONSE_TRANSFORMER", "null")
    service = create_app({"MONGODB_URI": None})
    assert service.config["WEB_RESPONSE_TRANSFORMER"] is None
    assert "fooBar" not in get_path(service.test_client(), "/about").json


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("WEB_RESPONSE_TRANSFORMER", "nosuch.module:Transformer",
         "CMS_WEB_RESPONSE_TRANSFORMER: cannot import 'nosuch.module:Transformer': "
         "no module named 'nosuch'"),
        ("WEB_RESPONSE_TRANSFORMER", "app.transformers.foo_bar:Nope",
         "CMS_WEB_RESPONSE_TRANSFORMER: cannot import 'app.transformers.foo_bar:Nope': "
         "app.transformers.foo_bar has no attribute 'Nope'"),
        ("WEB_RESPONSE_TRANSFORMER", "FooBarTransformer",
         "CMS_WEB_RESPONSE_TRANSFORMER: cannot import 'FooBarTransformer': "
         "not a dotted module path (package.module:attribute)"),
        ("WALKER_DEFINITION_MODULES", ["walkers.article_feed", "walkers.nosuch"],
         "CMS_WALKER_DEFINITION_MODULES: cannot import 'walkers.nosuch': "
         "no module named 'walkers.nosuch'"),
    ],
)  # fmt: skip
def test_an_extension_point_that_is_not_there_is_a_configuration_error(setting, value, message):
    with pytest.raises(ConfigError) as raised:
        create_app({"MONGODB_URI": None, setting: value})
    assert raised.value.message == message


def test_an_extension_module_failing_its_own_import_keeps_its_traceback(tmp_path, monkeypatch):
    (tmp_path / "broken_walkers.py").write_text("import nosuch_dependency\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="nosuch_dependency"):
        create_app({"MONGODB_URI": None, "WALKER_DEFINITION_MODULES": ["broken_walkers"]})
