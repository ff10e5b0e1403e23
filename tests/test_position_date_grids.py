"""A range of positions within a span of dates (`node.position[...]` with `publishedAt[...]`): a
plain request (Scope.dates), counted from the grids of the position listings
(app/fixture/listings.py `_grid`, app/listing/totals.py `rectangle_total`) and paged from the
listings, as the index answers it: the total in the same reads whatever the size of the range and
the span, the page in the same commands.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from app.db import get_store
from app.fixture import listings as materialised
from app.listing import sources
from app.query_plan import column_id, grid_id, id_grid_id, listing_id, tally_id
from seed.generate import generate
from tests.helpers import freeze_request_clock, on_the_index, recording_listing_reads
from tests.test_date_listings import EDITOR, PASSWORD, RANDOM_TRIES, commands, walked

# the articles' dates are spread over 2023 and 2024 (`small_grid`); requests are answered at a
# moment inside them, so that some sources are still to come
NOW = datetime(2024, 9, 1, 12, tzinfo=UTC)
ORDERS = [
    "order[node.position]=asc",
    "order[node.position]=desc",
    "order[publishedAt]=desc",
    "order[publishedAt]=asc",
    "",
    "order[node.position]=desc&order[publishedAt]=asc",
    "order[publishedAt]=desc&order[node.position]=desc",
]


@pytest.fixture(scope="module")
def small_grid(make_app):
    """The generated site of 200 sources with listings of 10 entries per chunk (so a range and
    a span cross many chunks), its articles' dates spread over the months around NOW."""
    patch = pytest.MonkeyPatch()
    patch.setattr(materialised, "LISTING_HEAD", 10)
    patch.setattr(materialised, "LISTING_CHUNK", 10)
    site = generate(sources=200, blocks=30, depth=3, menu=60, seed=1)
    rng = random.Random(5)
    for node in site["nodes"]:
        for source in node["sources"].values():
            if node["type"] == "Article" and source.get("published_at"):
                month = rng.randint(0, 23)
                day = f"{2023 + month // 12}-{1 + month % 12:02d}-{rng.randint(1, 28):02d}"
                source["published_at"] = f"{day}T{rng.choice(('08', '12'))}:00:00+00:00"
    try:
        app = make_app(site, RESPONSE_CACHE=False)
    finally:
        patch.undo()
    return app, site


def test_the_grid_counts_each_position_chunk_s_sources_by_date_chunk(small_grid):
    """Row n of a position listing's grid holds, per calendar group, the sources of its chunks 0
    to n in each chunk of the date listing (`counts`) and their number (`count`), as the chunks
    of the two listings hold them."""
    app, _ = small_grid
    with app.app_context():
        generation = get_store().generation(get_store().live()["version"])
    tally = generation.listing_chunks([tally_id("Article", "en", None)])
    chunks = tally[tally_id("Article", "en", None)]["chunks"]
    head = generation.listing_chunks([listing_id("Article", "en", None, 0, "date")])
    dated_chunks = head[listing_id("Article", "en", None, 0, "date")]["chunks"]
    by_date = generation.listing_chunks(
        [listing_id("Article", "en", None, n, "date") for n in range(dated_chunks)]
    )
    date_chunk = {
        source_id: number
        for number in range(dated_chunks)
        for source_id in by_date[listing_id("Article", "en", None, number, "date")]["ids"]
    }
    assert len(chunks) > 5 and dated_chunks > 5
    seen = [0] * dated_chunks
    for number in range(len(chunks)):
        row_id = grid_id("Article", "en", None, number)
        chunk_id = listing_id("Article", "en", None, number, "position")
        found = generation.listing_chunks([row_id, chunk_id])
        for source_id in found[chunk_id]["ids"]:
            seen[date_chunk[source_id]] += 1
        row = found[row_id]
        assert set(row) == {"_id", "groups"}
        # the generated articles are in no realm, visible, indexed: one group
        assert [(g["realm_ids"], g["visible"], g["block"], g["no_index"]) for g in row["groups"]
                ] == [([], True, False, False)]  # fmt: skip
        assert row["groups"][0]["counts"] == seen and row["groups"][0]["count"] == sum(seen)
    assert sum(seen) == len(date_chunk)


def test_the_grid_s_columns_count_each_date_chunk_s_sources_by_position_chunk(small_grid):
    """Column d of a position listing's grid holds, per calendar group, the sources of chunks 0
    to d of the date listing in each chunk of the position listing (`counts`) and their number
    (`count`), as the chunks of the two listings hold them."""
    app, _ = small_grid
    with app.app_context():
        generation = get_store().generation(get_store().live()["version"])
    tally = generation.listing_chunks([tally_id("Article", "en", None)])
    position_chunks = len(tally[tally_id("Article", "en", None)]["chunks"])
    by_position = generation.listing_chunks(
        [listing_id("Article", "en", None, n, "position") for n in range(position_chunks)]
    )
    position_chunk = {
        source_id: number
        for number in range(position_chunks)
        for source_id in by_position[listing_id("Article", "en", None, number, "position")]["ids"]
    }
    head = generation.listing_chunks([listing_id("Article", "en", None, 0, "date")])
    dated_chunks = head[listing_id("Article", "en", None, 0, "date")]["chunks"]
    seen = [0] * position_chunks
    for number in range(dated_chunks):
        column = column_id("Article", "en", None, number)
        chunk_id = listing_id("Article", "en", None, number, "date")
        found = generation.listing_chunks([column, chunk_id])
        for source_id in found[chunk_id]["ids"]:
            seen[position_chunk[source_id]] += 1
        groups = found[column]["groups"]
        assert set(found[column]) == {"_id", "groups"} and len(groups) == 1
        assert groups[0]["counts"] == seen and groups[0]["count"] == sum(seen)
    assert sum(seen) == len(position_chunk) and dated_chunks > 5 and position_chunks > 5


@pytest.mark.ferretdb_rows(0)  # a range within a span (the others: their own tests there)
@pytest.mark.parametrize("shape", ["range within span", "range", "span"])
def test_a_range_within_a_span_answers_as_the_index_in_every_order(small_grid, tier, shape):
    """Random ranges of positions (bounds, one position, any of several) within random spans of
    dates (one bound or two, at a chunk's first entry or between), with nodes left out by id,
    anonymous, with a realm's password or in preview, in every order, by page number and by
    cursor, answer as the index does: each request is plain (Scope.dates). So do ranges alone and
    spans alone, half of them in the default order (counted in the `id` listing's chunks by the
    `id` order's grids: `_counted_walk`)."""
    app, site = small_grid
    client = app.test_client()
    articles = [n for n in site["nodes"] if n["type"] == "Article"]
    positions = sorted({n["position"] for n in articles})
    dates = sorted({s["published_at"] for n in articles for s in n["sources"].values()
                    if s.get("published_at")})  # fmt: skip
    rng, plain, listed = random.Random(7), [], 0
    # FerretDB 1.24 reads its whole listings collection for each read: fewer draws there, and
    # fewer still of the shapes alone, which walk further (they are drawn on mongomock in full)
    within = shape == "range within span"
    if tier == "mongomock":
        tries = RANDOM_TRIES[tier] * 2
    else:
        tries = RANDOM_TRIES[tier] if within else RANDOM_TRIES[tier] // 2
    for _ in range(tries):
        url = "/api/articles?itemsPerPage=" + rng.choice(("3", "7"))
        form = rng.choice(("range", "range", "equals", "any"))
        if shape == "span":
            pass
        elif form == "range":
            low, high = sorted(rng.sample(positions, 2))
            url += f"&node.position[gte]={low}&node.position[lt]={high}"
        elif form == "equals":
            url += f"&node.position={rng.choice(positions)}"
        else:
            url += "".join(f"&node.position[]={p}" for p in rng.sample(positions, 6))
        for bound in rng.sample(("after", "strictly_before", "before", "strictly_after"),
                                rng.choice((1, 2)) if shape != "range" else 0):  # fmt: skip
            url += f"&publishedAt[{bound}]={rng.choice(dates)[:10]}"
        default_order = shape != "range within span" and rng.random() < 0.5
        url += "&" + ("" if default_order else rng.choice(ORDERS))
        if rng.random() < 0.3:
            url += "".join(f"&not[node.id][]={n['id']}" for n in rng.sample(articles, 8))
        if rng.random() < 0.5:
            url += "&_locale=" + rng.choice(("en", "fr"))
        headers, preview = rng.choice((({}, ""), (PASSWORD, ""), (EDITOR, "&_preview=1")))
        url += preview
        cursor = rng.random() < 0.3 and url.count("order[") <= 1  # a cursor follows one key
        pages = [f"{url}&cursor="] if cursor else [f"{url}&page={n}" for n in (1, 2, 5)]
        with pytest.MonkeyPatch.context() as patch:
            freeze_request_clock(patch, NOW)
            patch.setattr(sources, "site_scope", lambda *a, _f=sources.site_scope, **k: (
                plain.append(_f(*a, **k)) or plain[-1]))  # fmt: skip
            served = [walked(client, page, headers) for page in pages]
        with pytest.MonkeyPatch.context() as patch:
            freeze_request_clock(patch, NOW)
            on_the_index(patch)
            expected = [walked(client, page, headers) for page in pages]
        assert served == expected, url
        listed += any(body["hydra:member"] for body in served[0])
    assert all(scope is not None and (scope.dates is not None) == within for scope in plain)
    assert listed > tries // 2


def test_a_range_within_a_span_reads_two_grid_rows_and_the_chunks_of_its_edges(
    small_grid, monkeypatch
):
    """A range across most English articles within a span across most of their dates, by
    position: its total reads, after the chunks 0 of the position and date listings (the
    position chunk 0's starts find the range's chunks: not the tally, one entry per chunk), the
    two grid rows (before the range's first whole chunk, and of its last) and the chunks across
    the range's bounds and the span's, in one read; not the chunks between."""
    app, _ = small_grid
    client = app.test_client()
    with app.app_context():
        generation = get_store().generation(get_store().live()["version"])
    asked = recording_listing_reads(monkeypatch)
    freeze_request_clock(monkeypatch, NOW)
    tally = generation.listing_chunks([tally_id("Article", "en", None)])
    chunks = tally[tally_id("Article", "en", None)]["chunks"]
    low, high = chunks[1]["from"]["position"] + 1, chunks[-2]["to"]["position"] - 1
    url = (f"/api/articles?_locale=en&node.position[gt]={low}&node.position[lt]={high}"
           "&publishedAt[after]=2023-03-10&publishedAt[before]=2024-11-20"
           "&order[node.position]=asc&itemsPerPage=5")  # fmt: skip
    asked.clear()
    body = client.get(url).json
    assert sorted(asked[0]) == sorted([listing_id("Article", "en", None, 0, "position"),
                                       listing_id("Article", "en", None, 0, "date")])  # fmt: skip
    rows = {grid_id("Article", "en", None, n) for n in (1, len(chunks) - 3)}
    position_edges = {listing_id("Article", "en", None, n, "position")
                      for n in (1, len(chunks) - 2)}  # fmt: skip
    total = set(asked[1])
    date_edges = {chunk_id for chunk_id in total if "|position|" not in chunk_id}
    assert rows | position_edges <= total and total == rows | position_edges | date_edges
    # the span's two edges (the chunks of 2023-03-10 and of 2024-11-20 or now, whichever is
    # earlier) and the date listing's last chunk at most
    assert 1 <= len(date_edges) <= 3, date_edges
    with pytest.MonkeyPatch.context() as patch:
        on_the_index(patch)
        assert client.get(url).json == body
    assert body["hydra:totalItems"] > 20


@pytest.mark.reads_counted
def test_a_range_within_a_span_costs_the_same_reads_on_a_site_five_times_larger(
    make_app, monkeypatch
):
    """On the bench's generated sites of 200 and 1,000 sources, with listings of 10 entries per
    chunk (many chunks at both sizes), a range of positions within a span of dates is as many
    commands at both sizes in every order, 5 or 6 (the chunks 0, with the tallies but by
    position, the rows and edges, the chunks the page walks past the head, read as reached,
    the page's sources), and answers as the index. On the mongomock tier only: commands are
    the same on any engine, and FerretDB 1.24 reads its whole listings collection for each
    (330 s here); the random comparisons with the index run on both tiers."""
    monkeypatch.setattr(materialised, "LISTING_HEAD", 10)
    monkeypatch.setattr(materialised, "LISTING_CHUNK", 10)
    urls = [
        f"/api/articles?_locale=en&node.position[gt]=10&publishedAt[after]=2020-01-01&{order}"
        for order in ORDERS[:5]
    ]
    counts = {}
    for size in (200, 1000):
        app = make_app(generate(sources=size, blocks=30, depth=3, menu=60, seed=1),
                       RESPONSE_CACHE=False)  # fmt: skip
        client, store = app.test_client(), app.extensions["cms.store"]
        client.get("/api/articles")  # the site model
        results = [commands(client, store, url) for url in urls]
        counts[size] = [count for _, count in results]
        with pytest.MonkeyPatch.context() as patch:
            on_the_index(patch)
            for url, (body, _) in zip(urls, results, strict=True):
                assert client.get(url).json == body, (size, url)
        assert all(body["hydra:totalItems"] > 0 for body, _ in results)
    assert counts[200] == counts[1000] and max(counts[200]) <= 6, counts


def test_a_narrow_span_by_position_reads_its_entries_not_the_range_chunk_by_chunk(small_grid):
    """By position, a range across every English article within a span of two days (a few
    sources): the range's walk stops at the chunks a page needs, then the span's entries are
    read from the date listing in one read, kept in the range and sorted, in as few commands
    as a wide span (walking the range's 10-entry chunks one at a time would take one command per
    chunk); the answer is the index's."""
    app, site = small_grid
    client, store = app.test_client(), app.extensions["cms.store"]
    client.get("/api/articles")  # the site model
    days = sorted({s["published_at"][:10] for n in site["nodes"] if n["type"] == "Article"
                   for s in n["sources"].values() if s.get("published_at")})  # fmt: skip
    middle = len(days) // 2
    narrow = f"publishedAt[after]={days[middle]}&publishedAt[strictly_before]={days[middle + 2]}"
    url = "/api/articles?_locale=en&node.position[gte]=1&itemsPerPage=5&{}&order[node.position]={}"
    counted = {}
    for span in (narrow, "publishedAt[after]=2023-01-01"):
        for direction in ("asc", "desc"):
            with pytest.MonkeyPatch.context() as patch:
                freeze_request_clock(patch, NOW)
                body, count = commands(client, store, url.format(span, direction))
                on_the_index(patch)
                assert client.get(url.format(span, direction)).json == body
            counted[span, direction] = count, body["hydra:totalItems"]
    assert 0 < counted[narrow, "asc"][1] < 5
    assert all(count <= 6 for count, _ in counted.values()), counted


@pytest.mark.reads_counted
def test_a_sparse_range_by_date_reads_the_date_chunks_holding_its_page(make_app, monkeypatch):
    """On the generated site of 1,000 sources (473 English articles, one position each) with
    listings of 10 entries per chunk, the 100 articles of positions 101 to 200, by date: about
    one date chunk's entries in five are in the range, too few for the first chunks of the
    date listing to hold a page, and the range lies in 10 position chunks, which reading it
    whole (`_span_read`) would read. The page is walked instead in the date chunks its grid
    counts (`_counted_walk`): every date chunk read holds an entry of the range, and no position
    chunk but the two across its bounds (which its total reads) is read. Pages by number and a
    cursor walk answer as the index does."""
    app, site, client = thousand_in_small_chunks(make_app, monkeypatch)
    ids = {n["sources"]["en"]["id"] for n in site["nodes"]
           if n["type"] == "Article" and 100 < n["position"] <= 200}  # fmt: skip
    url = ("/api/articles?_locale=en&node.position[gt]=100&node.position[lte]=200"
           "&order[publishedAt]=desc&itemsPerPage=4")  # fmt: skip
    for page, body, read in pages_read(client, url, monkeypatch):
        assert len(body["hydra:member"]) == 4 and body["hydra:totalItems"] == len(ids) == 100
        dated = [c for c in read if c.startswith("Article|en|-|") and c.split("|")[-1] != "0"
                 and "|position|" not in c]  # fmt: skip
        held = generation_chunks(app, dated)
        assert dated and all(ids & set(chunk["ids"]) for chunk in held.values()), dated
        assert len(dated) <= 2 + page, dated
        positioned = [c for c in read if "|position|" in c and c.split("|")[-1] not in "0tally"]
        assert len(positioned) <= 2, positioned
        with pytest.MonkeyPatch.context() as patch:
            on_the_index(patch)
            assert client.get(f"{url}&page={page}").json == body
    assert_the_cursor_walk_is_the_index_s(client, url, len(ids))


def pages_read(client, url, monkeypatch):
    """Pages 1 to 3 of `url` by number: each with its body and the listing documents it read."""
    asked = recording_listing_reads(monkeypatch)
    for page in (1, 2, 3):
        asked.clear()
        body = client.get(f"{url}&page={page}").json
        yield page, body, [chunk_id for found in asked for chunk_id in found]


def generation_chunks(app, chunk_ids):
    """The listing documents of the live generation, by `_id`."""
    with app.app_context():
        generation = get_store().generation(get_store().live()["version"])
    return generation.listing_chunks(chunk_ids)


@pytest.mark.reads_counted
def test_a_narrow_span_by_position_reads_the_position_chunks_holding_its_page(
    make_app, monkeypatch
):
    """On the generated site of 1,000 sources (473 English articles over five years) with
    listings of 10 entries per chunk, the articles of one year by position: about one entry in
    five of each position chunk, too few for the first chunks to hold a page, and the span lies
    in about ten date chunks, which reading it whole (`_span_read`) would read. The page is
    walked instead in the position chunks the grid's columns count (`_counted_walk`): every
    position chunk read past those holds an entry of the span, and no date chunk but the two
    across the span's bounds. Pages by number and a cursor walk answer as the index does."""
    app, site, client = thousand_in_small_chunks(make_app, monkeypatch)
    ids = {n["sources"]["en"]["id"] for n in site["nodes"] if n["type"] == "Article"
           and n["sources"]["en"]["published_at"].startswith("2022")}  # fmt: skip
    url = (
        "/api/articles?_locale=en&publishedAt[after]=2022-01-01"
        "&publishedAt[strictly_before]=2023-01-01&order[node.position]=asc&itemsPerPage=4"
    )
    for page, body, read in pages_read(client, url, monkeypatch):
        assert len(body["hydra:member"]) == 4 and body["hydra:totalItems"] == len(ids) > 60
        positioned = [c for c in read if "|position|" in c and c.split("|")[-1] != "0"]
        held = generation_chunks(app, positioned)
        assert len(positioned) <= 3 + 2 * page, positioned
        # the walk's first chunks (read with the columns), then those holding the span's
        assert sum(not ids & set(chunk["ids"]) for chunk in held.values()) <= 1, positioned
        dated = [c for c in read if c.startswith("Article|en|-|") and c.split("|")[-1] != "0"
                 and "|position|" not in c and "|grid|" not in c]  # fmt: skip
        assert len(dated) <= 3, dated
        with pytest.MonkeyPatch.context() as patch:
            on_the_index(patch)
            assert client.get(f"{url}&page={page}").json == body
    assert_the_cursor_walk_is_the_index_s(client, url, len(ids))


@pytest.mark.reads_counted
@pytest.mark.parametrize("shape", ["range by date", "span by position"])
def test_two_order_keys_read_the_chunks_holding_the_page_and_its_last_run(
    make_app, monkeypatch, shape
):
    """The two sparse pages above (a range of 100 positions by date, one year's articles by
    position) with a second order key: walked in the chunks their grids count, as with one key,
    plus, per listing, the next chunk holding an entry of theirs (the run of the first key's
    value where the chunks counted end may go on in it, and a run is sorted whole), never the
    span read whole from its own order's chunks (10 position chunks for the range, about ten
    date chunks for the year): of those, only the chunks across its bounds, which its total
    reads. Pages 1 to 3 answer as the index does."""
    app, site, client = thousand_in_small_chunks(make_app, monkeypatch)
    if shape == "range by date":
        ids = {n["sources"]["en"]["id"] for n in site["nodes"]
               if n["type"] == "Article" and 100 < n["position"] <= 200}  # fmt: skip
        url = ("/api/articles?_locale=en&node.position[gt]=100&node.position[lte]=200"
               "&order[publishedAt]=desc&order[node.position]=asc&itemsPerPage=4")  # fmt: skip
        walked_order, own_order, most = "date", "position", 3
    else:
        ids = {n["sources"]["en"]["id"] for n in site["nodes"] if n["type"] == "Article"
               and n["sources"]["en"]["published_at"].startswith("2022")}  # fmt: skip
        url = ("/api/articles?_locale=en&publishedAt[after]=2022-01-01"
               "&publishedAt[strictly_before]=2023-01-01&order[node.position]=asc"
               "&order[publishedAt]=desc&itemsPerPage=4")  # fmt: skip
        walked_order, own_order, most = "position", "date", 4

    def chunks_of(read: list[str], name: str) -> list[str]:  # past chunk 0, not a tally or grid
        prefix = "Article|en|-|" + ("position|" if name == "position" else "")
        return [c for c in read if c.startswith(prefix) and c[len(prefix):].isdigit()
                and c[len(prefix):] != "0"]  # fmt: skip

    for page, body, read in pages_read(client, url, monkeypatch):
        assert len(body["hydra:member"]) == 4 and body["hydra:totalItems"] == len(ids) > 60
        walked = chunks_of(read, walked_order)
        held = generation_chunks(app, walked)
        assert walked and all(ids & set(chunk["ids"]) for chunk in held.values()), walked
        assert len(walked) <= most + page, walked
        assert len(chunks_of(read, own_order)) <= 3, read
        with pytest.MonkeyPatch.context() as patch:
            on_the_index(patch)
            assert client.get(f"{url}&page={page}").json == body


def thousand_in_small_chunks(make_app, monkeypatch):
    """The app of the generated site of 1,000 sources with listings of 10 entries per chunk, its
    site model built, the site and a client. Its tests are `reads_counted` (mongomock tier only):
    what they pin is the chunks a request reads, the same on any engine, and FerretDB 1.24 reads
    its whole listings collection for each of them (thousands of documents here: minutes per
    test); the random comparisons with the index (above) run on both tiers."""
    monkeypatch.setattr(materialised, "LISTING_HEAD", 10)
    monkeypatch.setattr(materialised, "LISTING_CHUNK", 10)
    site = generate(sources=1000, blocks=30, depth=3, menu=60, seed=1)
    app = make_app(site, RESPONSE_CACHE=False)
    client = app.test_client()
    client.get("/api/articles")  # the site model
    return app, site, client


def assert_the_cursor_walk_is_the_index_s(client, url, count):
    """Walking `url` by cursor from its first page answers as the index does, `count` members."""
    served = walked(client, f"{url}&cursor=", {})
    with pytest.MonkeyPatch.context() as patch:
        on_the_index(patch)
        assert walked(client, f"{url}&cursor=", {}) == served
    assert sum(len(b["hydra:member"]) for b in served) == count


def test_the_id_order_s_grid_counts_each_chunk_s_sources_by_id_chunk(small_grid):
    """The document of chunk n of a listing's position (or date) order in its grid of the `id`
    order holds, per calendar group, the sources of that order's chunks 0 to n in each chunk of
    the `id` listing (`counts`) and their number (`count`), as the chunks of the listings hold
    them."""
    app, _ = small_grid
    with app.app_context():
        generation = get_store().generation(get_store().live()["version"])

    def chunks_of(order):
        head = generation.listing_chunks([listing_id("Article", "en", None, 0, order)])
        count = head[listing_id("Article", "en", None, 0, order)]["chunks"]
        found = generation.listing_chunks(
            [listing_id("Article", "en", None, n, order) for n in range(count)]
        )
        return [found[listing_id("Article", "en", None, n, order)]["ids"] for n in range(count)]

    by_id = chunks_of("id")
    id_chunk = {source_id: number for number, ids in enumerate(by_id) for source_id in ids}
    assert len(by_id) > 5
    for spanned in ("position", "date"):
        seen = [0] * len(by_id)
        spanned_chunks = chunks_of(spanned)
        assert len(spanned_chunks) > 5
        for number, ids in enumerate(spanned_chunks):
            for source_id in ids:
                seen[id_chunk[source_id]] += 1
            document_id = id_grid_id("Article", "en", None, number, spanned)
            found = generation.listing_chunks([document_id])[document_id]
            assert set(found) == {"_id", "groups"} and len(found["groups"]) == 1
            group = found["groups"][0]
            assert group["counts"] == seen and group["count"] == sum(seen), (spanned, number)
        assert sum(seen) == len(id_chunk)


@pytest.mark.reads_counted
@pytest.mark.parametrize(
    "span, spanned",
    [
        ("node.position[gt]=100&node.position[lte]=200", "position"),
        ("publishedAt[after]=2022-01-01&publishedAt[strictly_before]=2023-01-01", "date"),
    ],
)
def test_a_span_in_the_default_order_reads_the_id_chunks_holding_its_page(
    make_app, monkeypatch, span, spanned
):
    """On the generated site of 1,000 sources (473 English articles) with listings of 10 entries
    per chunk, in the default order (`_id`): the 100 articles of positions 101 to 200 (whose
    `_id` follow the positions: ten `id` chunks past chunk 0), and the 98 articles of one year
    (about one entry in five of each `id` chunk). Chunk 0 of the `id` listing does not hold a
    page, and each span lies in about ten chunks of its own order, which reading it whole
    (`_span_read`) would read. The page is walked instead in the `id` chunks the `id` order's grid
    counts (`_counted_walk`): every `id` chunk read past the first holds an entry of the span, and
    no chunk of the span's order but the two across its bounds is read. Pages by number and a
    cursor walk answer as the index does."""
    app, site, client = thousand_in_small_chunks(make_app, monkeypatch)
    ids = {
        n["sources"]["en"]["id"]
        for n in site["nodes"]
        if n["type"] == "Article"
        and (
            100 < n["position"] <= 200
            if spanned == "position"
            else n["sources"]["en"]["published_at"].startswith("2022")
        )
    }
    url = f"/api/articles?_locale=en&{span}&itemsPerPage=4"
    for page, body, read in pages_read(client, url, monkeypatch):
        assert len(body["hydra:member"]) == 4 and body["hydra:totalItems"] == len(ids) > 90
        by_id = [c for c in read if "|id|" in c and c.split("|")[-1] != "0"]
        held = generation_chunks(app, by_id)
        assert by_id and len(by_id) <= 2 + page, by_id
        # the walk's first chunk (read with the grid, when chunk 0 does not hold the page)
        assert sum(not ids & set(chunk["ids"]) for chunk in held.values()) <= 1, by_id
        own = [c for c in read if "|id-grid|" not in c and "|grid|" not in c
               and (f"|{spanned}|" in c if spanned == "position" else
                    c.startswith("Article|en|-|") and c.count("|") == 3)
               and c.split("|")[-1] not in ("0", "tally")]  # fmt: skip
        assert len(own) <= 3, own
        with pytest.MonkeyPatch.context() as patch:
            on_the_index(patch)
            assert client.get(f"{url}&page={page}").json == body
    assert_the_cursor_walk_is_the_index_s(client, url, len(ids))
