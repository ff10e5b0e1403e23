"""Materialised feeds (app/fixture/feeds.py): the same entries as the `feed` index query, read by
`_id` whatever the size of the site (docs/performance.md, bounded feeds)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.db import get_store
from app.fixture import feeds
from app.publication import Visibility
from app.query_plan import FEED_EMBEDDED_BYTES, feed_chunk_id, feed_key
from tests.conftest import demo_site
from tests.helpers import node, sample

ARTICLE_TAGS = ([], [1], [1, 4], [2])


def feed_site() -> dict:
    """The demo site with feed blocks on more tag sets and a deny realm over an article."""
    site = demo_site()
    about_feed = node(site, "about-feed")
    for number, tags in enumerate(ARTICLE_TAGS[2:]):
        copy = {**about_feed, "id": 960 + number, "node_name": f"feed-{number}", "tags": tags}
        copy["sources"] = {
            locale: {**source, "id": 96000 + 10 * number + i}
            for i, (locale, source) in enumerate(about_feed["sources"].items())
        }
        site["nodes"].append(copy)
    deny = next(r for r in site["realms"] if r["behaviour"] == "deny")
    deny["nodes"].append({"node": node(site, "volunteer-stories")["id"], "inheritance": "auto"})
    return site


@pytest.fixture(scope="module")
def small_chunks(make_app):
    """A site loaded with chunks of 2 entries, 1 of them embedded: every read path is taken."""
    patch = pytest.MonkeyPatch()
    patch.setattr(feeds, "FEED_CHUNK", 2)
    patch.setattr(feeds, "FEED_EMBEDDED", 1)
    try:
        app = make_app(feed_site())
    finally:
        patch.undo()
    with app.app_context():
        store = get_store()
        yield store, store.generation(store.live()["version"])


def moments(site: dict) -> list[datetime]:
    dates = {
        datetime.fromisoformat(source["published_at"])
        for n in site["nodes"]
        if n["type"] == "Article"
        for source in n["sources"].values()
    }
    return sorted({d + delta for d in dates for delta in (timedelta(0), timedelta(seconds=-1))})


def test_a_materialised_feed_lists_what_the_index_query_lists(small_chunks, tier):
    """Every case on mongomock; every 5th on FerretDB, where each indexed feed reads its range
    whole (the cases rotate through moments, classes, translations, tags, exclusions and limits
    there too)."""
    store, generation = small_chunks
    deny = 1
    cases = [
        (now, preview, locale, tags, exclude_source, denied, limit)
        for now in moments(feed_site())
        for preview in (False, True)
        for locale in ("en", "fr")
        for tags in ARTICLE_TAGS
        for exclude_source, denied in ((None, []), (2401, [deny]))
        for limit in (1, 3, 20)
    ]
    checked = 0
    for now, preview, locale, tags, exclude_source, denied, limit in sample(cases, tier, step=5):
        visibility = Visibility(now=now, preview=preview)
        args = (tags, exclude_source, limit)
        expected = generation._indexed_feed("Article", locale, visibility, *args, set(denied))
        got = generation.feed(
            node_type="Article",
            locale=locale,
            visibility=visibility,
            tag_ids=tags,
            exclude_source=exclude_source,
            limit=limit,
            exclude_realms=denied,
        )
        assert got == expected, (now, preview, locale, args, denied)
        checked += bool(expected)
    assert checked > (500 if tier == "mongomock" else 100)


def test_feeds_are_materialised_newest_first_per_visibility_class(small_chunks):
    store, generation = small_chunks
    chunks = store.db[f"feeds_v{generation.version}"]

    def entries(key: str) -> list[int]:
        found, number = [], 0
        while chunk := chunks.find_one({"_id": feed_chunk_id(key, number)}):
            found += [e["id"] for e in chunk["entries"]]
            number += 1
        return found

    # tags [1] in English: future-article (2099) leads; hidden-article never lists (invisible);
    # draft-article (Aug 2024) only in the preview class; then the news archive (2023, 2022)
    archive = [6601, 6401, 6301, 6101]
    public = entries(feed_key("Article", "en", [1], preview=False))
    assert public == [2801, 2601, 2401, 2201, 2001, 1901, *archive]
    preview = entries(feed_key("Article", "en", [1], preview=True))
    assert preview == [2801, 2601, 2901, 2401, 2201, 2001, 1901, *archive]
    public_key = feed_key("Article", "en", [1], preview=False)
    first = chunks.find_one({"_id": feed_chunk_id(public_key, 0)})
    assert [("source" in e) for e in first["entries"]] == [True, False]
    assert first["more"] is True
    assert first["entries"][0]["source"]["_id"] == 2801
    assert "children" not in first["entries"][0]["source"]["node"]


def test_a_feed_no_block_asks_for_uses_the_feed_index(small_chunks):
    store, generation = small_chunks
    visibility = Visibility(now=datetime.now(UTC))
    assert chunks_of(store, generation, feed_key("Article", "en", [3], preview=False)) == 0
    before = store.commands
    got = generation.feed(node_type="Article", locale="en", visibility=visibility, tag_ids=[3],
                          exclude_source=None, limit=4)  # fmt: skip
    # winter-concert, jazz-night, then the news archive's jazz festival (2023)
    assert [s["_id"] for s in got] == [2701, 2101, 6501]
    assert store.commands - before == 2  # the missing chunk, then the index query


def chunks_of(store, generation, key: str) -> int:
    chunks = store.db[f"feeds_v{generation.version}"]
    return chunks.count_documents({"_id": {"$regex": "^" + re.escape(key)}})


def test_a_usual_feed_is_one_read_and_skipped_entries_cost_one_more(make_app):
    app = make_app(feed_site())
    with app.app_context():
        store = get_store()
        generation = store.generation(store.live()["version"])
        before = store.commands
        public = Visibility(now=datetime.now(UTC))
        newest = generation.feed(node_type="Article", locale="en", tag_ids=[],
                                 visibility=public, exclude_source=None, limit=4)  # fmt: skip
        assert store.commands - before == 1
        assert [s["_id"] for s in newest] == [2701, 2601, 2501, 2401]
        # in early 2024 the 8 embedded entries are all in the future: one read by _id more
        early = Visibility(now=datetime.fromisoformat("2024-03-03T00:00:00+00:00"))
        before = store.commands
        got = generation.feed(node_type="Article", locale="en", tag_ids=[], visibility=early,
                              exclude_source=None, limit=4)  # fmt: skip
        assert store.commands - before == 2
        # spring-market, first-article, then the news archive's newest (2023)
        assert [s["_id"] for s in got] == [2001, 1901, 6601, 6501]


def test_a_heavy_source_is_read_by_id_and_the_chunk_stays_small(make_app):
    """The head's embedded sources weigh at most FEED_EMBEDDED_BYTES together: 8 articles of 3 MiB
    would make a chunk MongoDB cannot store (16 MiB), so one that would pass it is read by `_id`."""
    site = feed_site()
    heavy = next(n for n in site["nodes"] if n["sources"].get("en", {}).get("id") == 2601)
    heavy["sources"]["en"]["fields"]["content"] = "x" * FEED_EMBEDDED_BYTES
    app = make_app(site)
    with app.app_context():
        store = get_store()
        generation = store.generation(store.live()["version"])
        chunks = store.db[f"feeds_v{generation.version}"]
        first = chunks.find_one(
            {"_id": feed_chunk_id(feed_key("Article", "en", [], preview=False), 0)}
        )
        # future-article (2099) leads the chunk: it is embedded too, and lists from its date on
        assert [e["id"] for e in first["entries"][:5]] == [2801, 2701, 2601, 2501, 2401]
        assert [("source" in e) for e in first["entries"][:5]] == [True, True, False, True, True]
        public = Visibility(now=datetime.now(UTC))
        before = store.commands
        got = generation.feed(node_type="Article", locale="en", tag_ids=[],
                              visibility=public, exclude_source=None, limit=4)  # fmt: skip
        assert store.commands - before == 2  # the chunk, then 2601 by `_id`
        assert [s["_id"] for s in got] == [2701, 2601, 2501, 2401]
        assert got[1]["fields"]["content"] == "x" * FEED_EMBEDDED_BYTES
