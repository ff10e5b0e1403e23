"""Queries per request grow with the depth of the tree, never with the number of blocks."""

from __future__ import annotations

from datetime import UTC, datetime

from pymongo import monitoring

from app.publication import Visibility
from app.query_plan import CHILDREN_EMBEDDED
from tests.helpers import cold_commands, get_path, titles
from tests.sites import with_blocks

READS = {"find", "aggregate", "count", "getMore", "distinct"}


class CommandCounter(monitoring.CommandListener):
    def __init__(self) -> None:
        self.commands: list[str] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name in READS:
            self.commands.append(event.command_name)

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


def measure(make_app, site, tier):
    counter = CommandCounter()
    app = make_app(site, MONGODB_EVENT_LISTENERS=[counter], RESPONSE_CACHE=False)
    client = app.test_client()
    store = app.extensions["cms.store"]
    get_path(client, "/about")  # warm: site model and schemas are built once per generation
    before, counter.commands = store.commands, []
    response = get_path(client, "/about")
    assert response.status_code == 200
    return response.json, store.commands - before, counter.commands


def test_five_and_two_hundred_blocks_cost_the_same_queries(make_app, tier):
    small, small_count, small_wire = measure(make_app, with_blocks(1, 4), tier)
    large, large_count, large_wire = measure(make_app, with_blocks(10, 19), tier)
    assert len(titles(small["blocks"])) == 2 + 1  # about's text and feed, plus the group
    assert sum(len(w["children"]) for w in large["blocks"]) == 190 + 4  # 190 blocks + feed's 4
    # live pointer, path, source, level 1 (about's blocks), the feed, level 2 (the groups'
    # blocks); about is a root page, so its breadcrumbs need no query.
    assert small_count == large_count == 6
    if tier == "ferretdb":  # the wire agrees with the store's own count
        assert small_wire == large_wire == ["find"] * 6


def test_a_long_child_list_is_kept_apart_and_costs_one_query_per_level(make_app, tier):
    many = CHILDREN_EMBEDDED + 5
    body, count, wire = measure(make_app, with_blocks(2, many), tier)
    groups = [w for w in body["blocks"] if w["item"]["@type"] == "GroupBlock"]
    assert [len(g["children"]) for g in groups] == [many, many]
    assert [c["item"]["content"] for c in groups[1]["children"]] == [
        f"Text {b}" for b in range(many)
    ]  # position order
    # the six of the embedded case, plus one read of both groups' child lists (level 2)
    assert count == 7
    if tier == "ferretdb":
        assert wire == ["find"] * 7


def test_only_listing_nodes_keep_their_children_apart(make_app):
    app = make_app(with_blocks(2, CHILDREN_EMBEDDED + 1))
    store = app.extensions["cms.store"]
    version = store.live()["version"]
    kept_apart = list(store.db[f"children_v{version}"].find())
    assert [len(doc["ids"]) for doc in kept_apart] == [CHILDREN_EMBEDDED + 1] * 2
    names = {"$in": ["group-0", "group-1"]}
    groups = store.db[f"sources_v{version}"].find({"node.node_name": names, "locale": "en"})
    assert [s["node"]["children"] for s in groups] == [None, None]
    about = store.db[f"sources_v{version}"].find_one({"node.node_name": "about"})
    assert len(about["node"]["children"]) <= CHILDREN_EMBEDDED  # embedded as usual


def test_breadcrumbs_cost_one_query(make_app, tier):
    # pointer, path, source, breadcrumbs (blog), level 1 (the article's block), level 2 (none)
    assert cold_commands(make_app(RESPONSE_CACHE=False), "/blog/first-article") == 5


def test_listed_sources_are_read_without_what_only_the_item_shows(store):
    generation = store.generation(store.live()["version"])
    visibility = Visibility(now=datetime.now(UTC))
    article = generation.sources_of_nodes([19], "en", visibility)  # a walker child: children kept
    assert len(article) == 1
    assert "children" in article[0]["node"]
    crumb = generation.sources_of_nodes([19], "en", visibility, with_children=False)
    for listed in (article[0], crumb[0]):
        assert {"alternates", "url_aliases"} & set(listed) == set()
        assert "ancestors" not in listed["node"]
    assert "children" not in crumb[0]["node"]
    item = generation.source(article[0]["_id"], visibility)  # the item of a response: everything
    assert item["alternates"] and "ancestors" in item["node"] and "children" in item["node"]
