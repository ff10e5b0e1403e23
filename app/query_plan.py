"""The indexes of a site generation and the shapes of the reads they bound.

`INDEXES` are created by Store.write_generation; every read of Generation names one of them (or
`_id_`) with `cursor.hint` (tests/test_indexes.py). Materialised feeds (`feeds`), calendars
(`calendars`), listings (`listings`), search postings (`postings`) and keyset pages are the reads
that stay bounded on engines that cannot walk an index in order (docs/performance.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pymongo import ASCENDING, DESCENDING

# Secondary indexes per kind (the `_id` index always exists): (name, keys, options).
INDEXES: dict[str, list[tuple[str, list[tuple[str, int]], dict[str, Any]]]] = {
    "sources": [
        # walkers (children of several nodes at once) and breadcrumbs (ancestors)
        ("node_locale", [("node_id", ASCENDING), ("locale", ASCENDING)], {"unique": True}),
        # collections of a parent's children (`node.parent`: a page's sub-pages), whatever their
        # type (checked on the children): at most PARENT_LISTED entries, since a parent with more
        # is read from its own listings; so any order but the position order is sorted after the
        # read. No `published_at` key: DocumentDB intersects the entries of each key's bound, and
        # `published_at <= now` matches nearly every entry (a parent's count on such an index: 39
        # ms at 100k sources, 2.4 ms on `parent_id`). Declared before the route indexes, which
        # bound as many keys (tests/index_plan.py: ties go to the first declared, as MongoDB's
        # trial run would pick the parent's few entries)
        (
            "parent_id",
            [
                ("node.parent", ASCENDING),
                ("locale", ASCENDING),
                ("node.status", ASCENDING),
                ("_id", ASCENDING),
            ],
            {},
        ),  # fmt: skip
        (
            "parent_position",
            [
                ("node.parent", ASCENDING),
                ("locale", ASCENDING),
                ("node.status", ASCENDING),
                ("node.position", ASCENDING),
                ("_id", ASCENDING),
            ],
            {},
        ),  # fmt: skip
        # article feeds and collections by date: same translation, type and status, newest first
        # (the sort is published_at then _id, in the same direction, so the index serves it either
        # way); the publication rule (status, published_at <= now) is decided in the index, so a
        # feed reads only published entries and an unfiltered collection counts from the index
        (
            "feed",
            [
                ("locale", ASCENDING),
                ("type", ASCENDING),
                ("node.status", ASCENDING),
                ("published_at", DESCENDING),
                ("_id", DESCENDING),
            ],
            {},
        ),
        # collections ordered by position, root menus and footers of common content
        (
            "position",
            [
                ("locale", ASCENDING),
                ("type", ASCENDING),
                ("node.status", ASCENDING),
                ("node.position", ASCENDING),
                ("_id", ASCENDING),
            ],
            {},
        ),
        # node-source collections (app/listing): per type or across types, in the default order
        # (_id) or by date or position; `locale` leads as every listing names its translations
        (
            "type_id",
            [
                ("locale", ASCENDING),
                ("type", ASCENDING),
                ("node.status", ASCENDING),
                ("_id", ASCENDING),
            ],
            {},
        ),
        (
            "status_published",
            [
                ("locale", ASCENDING),
                ("node.status", ASCENDING),
                ("published_at", DESCENDING),
                ("_id", DESCENDING),
            ],
            {},
        ),
        ("status_id", [("locale", ASCENDING), ("node.status", ASCENDING), ("_id", ASCENDING)], {}),
        (
            "status_position",
            [
                ("locale", ASCENDING),
                ("node.status", ASCENDING),
                ("node.position", ASCENDING),
                ("_id", ASCENDING),
            ],
            {},
        ),
        # homes of every translation (head, common content)
        ("home", [("node.home", ASCENDING), ("locale", ASCENDING)], {}),
        # sources by node name: the policy pages of the site model, `node.nodeName` filters
        ("node_name", [("node.node_name", ASCENDING), ("locale", ASCENDING)], {}),
        # the next scheduled publication (a covered query: published_at only)
        ("published_at", [("published_at", ASCENDING)], {}),
        # operators' look-ups by url (requests resolve paths through `paths`); not unique, as
        # sources that are not reachable have no url (uniqueness comes from `paths._id`)
        ("url", [("url", ASCENDING), ("locale", ASCENDING)], {}),
    ],
    "nodes": [
        ("parent", [("parent", ASCENDING), ("position", ASCENDING)], {}),
        # `node.parent.nodeName` filters: the parents' ids, then their children (`parent_*`)
        ("node_name", [("node_name", ASCENDING)], {}),
    ],
    # /api/documents: public or private documents (both when no `private` filter), in id order
    "documents": [("private_id", [("private", ASCENDING), ("_id", ASCENDING)], {})],
    "paths": [("source", [("source_id", ASCENDING)], {})],
    # `postings` (search), `feeds`, `calendars` and `listings` are read by `_id` only
}


# The index MongoDB builds on `_id` of every collection (lookups by id, small kinds read whole).
ID_INDEX = "_id_"
# The index of `sources` that yields each collection order: per route kind (a parent named by
# the query, a type, or neither) and first order key (None: the default, by _id) (app/listing).
ORDER_INDEXES = {
    # sources named by `_id` (the candidates of a partial match: app/listing/titles.py), sorted
    # after the read: at most TITLE_CANDIDATES_MAX
    "ids": {None: ID_INDEX, "published_at": ID_INDEX, "node.position": ID_INDEX},
    # `node.id` (one node or a list): its sources in each translation, sorted after the read
    "node": {None: "node_locale", "published_at": "node_locale", "node.position": "node_locale"},
    # `node.nodeName` (one name or a list): the sources of the nodes so named, sorted after the
    # read (a node name names one node in Roadiz; the loader does not check it)
    "name": {None: "node_name", "published_at": "node_name", "node.position": "node_name"},
    "parent": {
        None: "parent_id",
        "published_at": "parent_id",  # at most PARENT_LISTED entries, sorted
        "node.position": "parent_position",
    },
    "type": {None: "type_id", "published_at": "feed", "node.position": "position"},
    "any": {
        None: "status_id",
        "published_at": "status_published",
        "node.position": "status_position",
    },
}


def order_index(query: dict[str, Any], order: str | None) -> str:
    """The index of `sources` that serves a collection query (app/listing) in `order`: sources
    named by `_id` bound the read to them; else a parent to its children; else nodes named by id
    (`node.id`) or by name (`node.nodeName`) to their sources; else the type, when the query names
    one."""
    if names_ids(query.get("_id")):
        kind = "ids"
    elif "node.parent" in query:
        kind = "parent"
    elif names_ids(query.get("node_id")):
        kind = "node"
    elif _one_or_any_of(query.get("node.node_name"), str):
        kind = "name"
    else:
        kind = "type" if "type" in query else "any"
    return ORDER_INDEXES[kind][order]


def names_ids(condition: Any) -> bool:
    """Whether an id condition (`_id`, `node_id`) is an equality or an `$in` (not
    `not[node.id]`'s `$nin`)."""
    return _one_or_any_of(condition, int)


def _one_or_any_of(condition: Any, kind: type) -> bool:
    """Whether a condition is an equality on a `kind` value or an `$in` of values."""
    return values_named(condition, kind) is not None


def values_named(condition: Any, kind: type) -> list[Any] | None:
    """The values a condition names by equality on a `kind` value or by `$in`, else None (no
    condition, or any other operator: `$nin`, `$and` of several...)."""
    if type(condition) is kind:
        return [condition]
    if isinstance(condition, dict) and set(condition) == {"$in"}:
        return list(condition["$in"])
    return None


# Feed blocks: node type of the block -> node type it lists. The loader materialises their feeds
# (app/fixture/feeds.py) and walkers/article_feed.py reads them: both import it from here.
FEED_BLOCKS = {"ArticleFeedBlock": "Article"}

# A source embeds the ids of its walker children (`node.children`) up to this many; a listing
# node with more (a blog of thousands of articles) stores `node.children: null` and its list in a
# `children` document, read by `_id` only by the walker that expands it. So a source document's
# size does not grow with the site: engines that read a whole document whatever the projection
# (DocumentDB, on PostgreSQL) would otherwise read the blog's list with every article's breadcrumbs.
CHILDREN_EMBEDDED = 100

# Materialised calendars (`calendars`, written by app/fixture/calendars.py): per (node type or
# ALL_TYPES, translation, visibility class), and per (node type or ALL_TYPES, translation, tag,
# class), sources per month and realm set, read by `_id` (archives and totals of plain collections,
# app/listing/calendar.py).
ALL_TYPES = "*"


# A parent with more children than this (a blog of thousands of articles) gets calendars and
# listings of its own (`node.parent` collections, app/listing/plain.py), as a tag does; the ids
# of those parents are one `listings` document (LISTED_PARENTS_ID) the site model reads. Fewer
# children are read along the `parent_*` indexes: at most this many entries.
PARENT_LISTED = CHILDREN_EMBEDDED
LISTED_PARENTS_ID = "listed-parents"

# Sources carrying two tags at once get calendars and listings per pair of tags (`tags_group`:
# two tags any of, or both: app/listing/plain.py) when the site has at most TAG_PAIRS_MAX
# pairs that some source carries, and per combination of each larger size (three tags, then
# four...) while that size has at most TAG_COMBINATIONS_MAX combinations that some source carries,
# carried no more times than there are sources (a source with k tags is listed k(k-1)/2 times
# more per pair, C(k, size) per combination of a size, and freely combined tags would multiply
# the documents: app/fixture/listings.py `tag_combinations`). The `listings` document
# TAG_COMBINATIONS_ID says how many tags the largest listed combination has (`largest`: 1, 2,
# 3...) and the most tags one source carries (`most`: a set of more has no source). Beyond the
# listed sizes, each larger size gets calendars only (`counted`), while it has at most
# TAG_COMBINATIONS_MAX combinations carried at most TAG_COUNTED_PER_SOURCE times per source on
# average (a calendar counts a combination's sources per month: its cost is one document per
# combination, not an entry per source): the totals of a tag condition need every set its
# sources may carry, its pages only the sets they walk. A tag condition needing a set of more
# tags than `counted`, or walking one of more than `largest`, that may have sources reads the
# index (app/listing/tag_conditions.py); a site counting up to `most` tags and listing what its
# conditions walk never does.
TAG_PAIRS_MAX = 1000
TAG_COMBINATIONS_MAX = 1000
TAG_COUNTED_PER_SOURCE = 16
TAG_COMBINATIONS_ID = "tag-combinations"


def month_of(moment: datetime) -> str:
    """`YYYY-MM` of a moment in UTC: the month a calendar counts a source in, and an archive
    lists it in."""
    moment = moment.astimezone(UTC)
    return f"{moment.year:04d}-{moment.month:02d}"


def month_span(month: str) -> tuple[datetime, datetime]:
    """The first moment of a `YYYY-MM` month (month_of), and of the next one; for December 9999,
    the last moment a datetime holds, past any stored date (whole milliseconds)."""
    year, number = int(month[:4]), int(month[5:])
    start = datetime(year, number, 1, tzinfo=UTC)
    if (year, number) == (datetime.max.year, 12):
        return start, datetime.max.replace(tzinfo=UTC)
    return start, datetime(year + number // 12, number % 12 + 1, 1, tzinfo=UTC)


# The group of a calendar or listing besides its type and translation: none, a tag id, two tags
# or more (tags_group), or the children of a listed parent, all of them, those with a tag or
# those with two tags or more (parent_group).
Group = int | str | None


def parent_group(parent_id: int, tag: int | str | None = None) -> str:
    """The group of a listed parent's children: all of them, those with a tag (its id), or those
    with two tags or more (their tags_group)."""
    if tag is None:
        return f"parent={parent_id}"
    return f"parent={parent_id},{tag}" if isinstance(tag, str) else f"parent={parent_id},tag={tag}"


def tags_group(*tag_ids: int) -> str:
    """The group of the sources carrying all these tags (two or more, in any order)."""
    return "tags=" + "+".join(str(tag_id) for tag_id in sorted(tag_ids))


def calendar_id(node_type: str, locale: str, *, preview: bool, group: Group = None) -> str:
    key = f"{node_type}|{locale}|{'preview' if preview else 'public'}"
    if group is None:
        return key
    return f"{key}|{group}" if isinstance(group, str) else f"{key}|tag={group}"


# Materialised listings (`listings`, written by app/fixture/listings.py): per (node type or
# ALL_TYPES, translation, group: none, a tag, a pair of tags or a listed parent) and visibility
# class (`public`: the published dated sources; `preview`: draft, pending and published, dated or
# not), the sources in three orders: `date`, newest first (published_at desc, _id desc: the `feed`
# index order), `id` (_id asc: the default order of collections) and `position` (node.position asc,
# _id asc: the `position` index order), LISTING_HEAD entries in chunk 0 (which every page reads:
# what most pages need, whatever the size of the listing), then LISTING_CHUNK per document, read
# by `_id` (collection pages, app/listing/listings.py). Each position listing also has a tally: per
# chunk, its first and last entries and its calendar groups, which count a range of positions
# without reading the chunks wholly inside it (`tally_id`), and a grid: per chunk, the sources of
# the chunks up to it per calendar group and chunk of the date listing, which count a range of
# positions within a span of dates from two of its rows (`grid_id`), and its columns: per chunk of
# the date listing, the sources of the date chunks up to it per calendar group and position chunk,
# which say which position chunks hold a span of dates' sources from two of them (`column_id`);
# and, per chunk of the position and of the date listing, the same counts in each chunk of the `id`
# listing, which say which chunks of the default order hold a range's or a span's (`id_grid_id`).
LISTING_HEAD = 100
LISTING_CHUNK = 500
# Each listing order, and whether it is stored descending.
LISTING_ORDERS = {"date": True, "id": False, "position": False}
# Where an undated source (preview only) sorts in the date order: before every date, as MongoDB
# sorts a missing or null field (last when newest first).
UNDATED = datetime.min.replace(tzinfo=UTC)


def listing_id(
    node_type: str,
    locale: str,
    group: Group,
    number: int,
    order: str = "date",
    *,
    preview: bool = False,
) -> str:
    key = _listing_key(node_type, locale, group, preview)
    return f"{key}|{number}" if order == "date" else f"{key}|{order}|{number}"


def tally_id(
    node_type: str, locale: str, group: Group, *, preview: bool = False, order: str = "position"
) -> str:
    """The `_id` of a listing's tally in `order` (what each of its chunks counts, per calendar
    group: app/fixture/listings.py), next to its chunks in `listings`."""
    return f"{_listing_key(node_type, locale, group, preview)}|{order}|tally"


def grid_id(
    node_type: str, locale: str, group: Group, number: int, *, preview: bool = False
) -> str:
    """The `_id` of row `number` of a position listing's grid (per calendar group, the sources of
    its chunks 0 to `number` in each chunk of the date listing: app/fixture/listings.py), next to
    its chunks in `listings`."""
    return f"{_listing_key(node_type, locale, group, preview)}|position|grid|{number}"


def column_id(
    node_type: str, locale: str, group: Group, number: int, *, preview: bool = False
) -> str:
    """The `_id` of column `number` of a position listing's grid (per calendar group, the sources
    of chunks 0 to `number` of the date listing in each chunk of the position listing:
    app/fixture/listings.py), next to its chunks in `listings`."""
    return f"{_listing_key(node_type, locale, group, preview)}|date|grid|{number}"


def id_grid_id(
    node_type: str, locale: str, group: Group, number: int, spanned: str, *, preview: bool = False
) -> str:
    """The `_id` of the document of chunk `number` of the `spanned` listing (`position` or
    `date`) in a listing's grid of the `id` order (per calendar group, the sources of chunks 0 to
    `number` of that listing in each chunk of the `id` listing: app/fixture/listings.py), next to
    its chunks in `listings`."""
    return f"{_listing_key(node_type, locale, group, preview)}|{spanned}|id-grid|{number}"


def _listing_key(node_type: str, locale: str, group: Group, preview: bool) -> str:
    return f"{node_type}|{locale}|{'-' if group is None else group}{'|preview' if preview else ''}"


# Materialised feeds (`feeds`, written by app/fixture/feeds.py): the candidates of one feed in date
# order, newest first, FEED_CHUNK entries per document, read by `_id` (Generation.feed).
FEED_CHUNK = 32
# Entries at the head of a feed that carry their listed source: the usual feed is one read.
FEED_EMBEDDED = 8
# What those embedded sources may weigh together (BSON): a source that would take the chunk past
# it is read by `_id` instead, so a chunk stays far below MongoDB's 16 MiB whatever its sources.
FEED_EMBEDDED_BYTES = 4 * 1024 * 1024


def feed_key(node_type: str, locale: str, tag_ids: list[int], *, preview: bool) -> str:
    """The key of a materialised feed: listed type, translation, tag set and visibility class."""
    tags = ",".join(str(t) for t in sorted(set(tag_ids)))
    return f"{node_type}|{locale}|{tags}|{'preview' if preview else 'public'}"


def feed_chunk_id(key: str, number: int) -> str:
    return f"{key}|{number}"


# Search postings (`postings`, written by app/search_index.py, read by app/search.py): per word,
# translation and visibility class, the sources holding the word, best first (title before text,
# then newest), SEARCH_CHUNK entries per document and at most SEARCH_SCAN documents (later
# postings are not stored). A search keeps, per word, the first SEARCH_CHUNK postings the request
# may see, looked for in at most SEARCH_SCAN chunks: its cost never depends on how many sources
# hold the word (docs/performance.md, bounded search).
SEARCH_CHUNK = 200
SEARCH_SCAN = 4


def postings_id(word: str, locale: str, number: int, *, preview: bool) -> str:
    """The `_id` of chunk `number` of a word's postings (words are `\\w+`: never a `|`)."""
    return f"{word}|{locale}|{'preview' if preview else 'public'}|{number}"


# Title keys (`postings`, written by app/title_index.py, read by app/listing/titles.py): per
# field of TITLE_FIELDS (the partial filters of node-source collections), translation and first
# TITLE_BUCKET characters, the caseless text of the field from each of its positions, cut to
# TITLE_KEY characters, with its source: sorted, TITLE_CHUNK per document, chunk 0 naming each
# chunk's first key (`starts`). A partial match (`title=market`) reads the keys that start with
# its value: the sources that may hold it, then the request's filter on those by `_id`. Its cost
# follows how often the value occurs in the field, not how many sources the site holds. A
# filter whose keys beyond chunk 0 or whose candidates are more than TITLE_CANDIDATES_MAX, of more
# than TITLE_LOOKUPS_MAX values x translations, or with an empty value, is left
# to the others (any one bounds the read); none left: the index
# (docs/performance.md, partial matches). The marker document TITLE_KEYS_ID tells a generation
# written with them, and their shape (one written before them, or with another TITLE_BUCKET or
# TITLE_KEY: its partial matches go to the index).
TITLE_FIELDS = ("title", "meta_title", "meta_description")
TITLE_BUCKET = 1  # a value of one character is read from the keys (a rare one is bounded)
TITLE_KEY = 16
TITLE_CHUNK = 500
TITLE_CANDIDATES_MAX = 2_000
TITLE_LOOKUPS_MAX = 16  # values x translations of one partial filter read from the keys
TITLE_KEYS_ID = "~title-keys"


def title_keys_shape(fields: tuple[str, ...], bucket: int, key: int) -> dict[str, Any]:
    """What the marker TITLE_KEYS_ID records of the keys' shape, and what a reader must find
    there to read them (a field it lacks would match nothing: the index answers instead)."""
    return {"fields": list(fields), "bucket": bucket, "key": key}


def title_keys_id(field: str, locale: str, bucket: str, number: int) -> str:
    """The `_id` of chunk `number` of a bucket's title keys (`~` sets them apart from the
    postings of words, which are `\\w+`; the bucket comes last, whatever it holds)."""
    return f"~{field}|{locale}|{number}|{bucket}"


def keyset_filter(
    sort: list[tuple[str, int]], after: tuple[Any, int], *, nullable: bool
) -> dict[str, Any]:
    """The members after `after` (the sort values of a page's last member) in `sort` order.

    The range on the sort field is decided in the index (the scan starts at the cursor); the
    `$or` only separates ties on that value by `_id`. `nullable`: members may lack the field
    (undated sources in preview), which MongoDB sorts before every value.
    """
    (field, direction), (value, last_id) = sort[0], after
    descending = direction == DESCENDING
    before, at_or_before = ("$lt", "$lte") if descending else ("$gt", "$gte")
    if value is None:  # after an undated member: the undated after it, then (ascending) the dated
        undated = {field: None, "_id": {before: last_id}}
        return undated if descending else {"$or": [undated, {field: {"$ne": None}}]}
    dated = {
        field: {at_or_before: value},
        "$or": [{field: {before: value}}, {"_id": {before: last_id}}],
    }
    return {"$or": [dated, {field: None}]} if nullable and descending else dated


def combined(query: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """`query` and `extra`; a field in both keeps both conditions (through `$and`). `query` is
    left as it is (its `$and` list too)."""
    out = dict(query)
    for key, condition in extra.items():
        if key in out:
            out["$and"] = [*out.get("$and", []), {key: condition}]
        else:
            out[key] = condition
    return out


def matches_nothing(query: dict[str, Any]) -> bool:
    """Whether a filter is void by its shape: a field (at the top, or in an `$and` clause) must be
    in an empty list (`_id` of title candidates none of which holds the value, `node.parent` of
    names no node has). The store then answers without asking the database."""
    clauses = [query, *query.get("$and", [])]
    return any(
        isinstance(condition, dict) and condition.get("$in") == []
        for clause in clauses
        for key, condition in clause.items()
        if not key.startswith("$")
    )
