"""The MongoDB store: the only module that knows collection names, documents and query shapes.

A site is written as a *generation*: one set of collections suffixed `_v<N>`. The single document
`site` {_id: "live"} names the generation readers use, so switching to a new site is one
atomic write and readers never see a half-loaded site. See docs/collections.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, NamedTuple

from pymongo import ASCENDING, DESCENDING
from pymongo.collection import Collection
from pymongo.database import Database
from pymongo.errors import OperationFailure

from app.membership import MEMBERSHIP_FIELDS
from app.publication import PREVIEW_STATUSES, Visibility, source_filter
from app.query_plan import (
    ID_INDEX,
    INDEXES,
    LISTED_PARENTS_ID,
    TAG_COMBINATIONS_ID,
    TITLE_BUCKET,
    TITLE_FIELDS,
    TITLE_KEY,
    TITLE_KEYS_ID,
    Group,
    calendar_id,
    combined,
    feed_chunk_id,
    feed_key,
    keyset_filter,
    matches_nothing,
    order_index,
    title_keys_shape,
)

SITE = "site"
LIVE_ID = "live"

# The layout of a generation (its collections, documents and fields) that this code writes and
# reads; the live pointer records the one its generation was written with (`layout`). Raise it
# when readers come to rely on something older loaders did not write. A pointer without it was
# written before it existed: layout 1. Layout 2: calendars grouped by `visible`, listing chunks
# with `hidden` positions (plain collection pages filter node.visible from them). Layout 3: the
# `parent_*` indexes of `sources` and `node_name` of `nodes` (reads name them with `hint`, which
# fails without them), and the listed parents' calendars and listings. Layout 4: calendar groups
# and listing realm entries with `block` (the hide_blocks clause is plain), calendars and
# listings per tag across types (`*`), and the preview class of the listings. Layout 5: the
# calendars and listings of a listed parent's children per tag (`parent=<id>,tag=<id>`). Layout 6:
# calendars and listings per pair of tags (`tags=<id>+<id>`) and the `tag-pairs` listing document.
# Layout 7: the same per pair of tags under each listed parent (`parent=<id>,tags=<id>+<id>`).
# Layout 8: calendars and listings per three tags (`tags=<id>+<id>+<id>`, under listed parents
# too) and the `tag-combinations` listing document in place of `tag-pairs`. Layout 9: a listing's
# chunk 0 holds its first LISTING_HEAD entries and records the size of the others (`size`).
# Layout 10: a source's `no_index` follows its node type's `no_index` field (the head and the
# `noIndex` filter read it); calendar groups carry `no_index` and listing chunks the positions of
# the entries not to be indexed (`no_index`), so that `noIndex` is a plain filter. Layout 11:
# listing chunks of every order carry `positions`, and each position listing has a tally
# (query_plan.tally_id), so that a range of `node.position` is a plain filter. Layout 12: tags
# carry `uses` (app/fixture/tag_uses.py: the `nodesTags` filter of /api/tags) and node types the
# plural Roadiz gives them (app/inflection.py: `Person` is `people`). Layout 13: each position
# listing has a grid (query_plan.grid_id), so that a range of positions within a span of dates is
# a plain filter. Layout 14: the grids have columns too (query_plan.column_id), so that a page by
# position of a span of dates reads the position chunks that hold it. Layout 15: the grids count
# in the chunks of the `id` listing too (query_plan.id_grid_id), so that a page in the default
# order of a range of positions or of a span of dates reads the chunks that hold it, and the date
# and `id` listings have tallies (query_plan.tally_id), so that a walk keeping few entries reads
# the chunks that hold some. Layout 16: sources embed their private documents too (Roadiz shows
# them, not processable), and the documents' `public_id` index is `private_id`.
LAYOUT = 16

# The translations per node that the first batch of a read of nodes' sources holds: such a read is
# one command (the server's default first batch, 101 documents, would ask for more with getMore).
TRANSLATIONS_PER_BATCH = 4


def _nodes_batch(node_ids: list[int]) -> int:
    """The first batch of a read of these nodes' sources (`node_id` `$in`): all of them in up to
    TRANSLATIONS_PER_BATCH translations, and one more (the cursor is then closed)."""
    return len(node_ids) * TRANSLATIONS_PER_BATCH + 1


def layout_of(pointer: dict[str, Any]) -> int:
    """The layout a live pointer (or its `previous` entry) says its generation was written with."""
    return pointer.get("layout") or 1


def unreadable_layout(pointer: dict[str, Any]) -> str | None:
    """Why this code cannot serve the generation `pointer` names, or None when it can."""
    layout = layout_of(pointer)
    if layout == LAYOUT:
        return None
    written = "an older" if layout < LAYOUT else "a newer"
    return (
        f"generation v{pointer['version']} was written by {written} version of the service "
        f"(layout {layout}; this version reads layout {LAYOUT})"
    )


# Collection kinds of a generation, in the order they are written.
KINDS = (
    "translations",
    "settings",
    "node_types",
    "documents",
    "tags",
    "realms",
    "nodes",
    "sources",
    "paths",
    "feeds",
    "postings",
    "children",
    "calendars",
    "listings",
)

# Kinds small enough to be read whole, once per site generation and process (Generation.all).
WHOLE_READ_KINDS = ("translations", "settings", "node_types", "realms", "tags")

# Projections of listed sources (walker children, breadcrumbs, feed entries): only the item of a
# response shows its alternates (Link header) and ancestors (breadcrumbs); url aliases are served
# by `paths`. Sources that will not be expanded leave out their child ids too.
LISTED = {"alternates": 0, "url_aliases": 0, "node.ancestors": 0}
WITHOUT_CHILDREN = {**LISTED, "node.children": 0}


class TagCombinations(NamedTuple):
    """How many tags the largest combinations of tags with calendars and listings have
    (`largest`: 1, none; 2, pairs; 3, triples too...), with calendars only (`counted`, at least
    `largest`) and the most tags one source carries (`most`; None: not recorded, by a
    generation written before it was), the most entries a listing's chunk 0 holds (`head`;
    None: not recorded) and those each of its other chunks but the last holds (`chunk`; None:
    not recorded): the `listings` document TAG_COMBINATIONS_ID (app/fixture/listings.py)."""

    largest: int
    counted: int
    most: int | None
    head: int | None = None
    chunk: int | None = None


def collection_name(kind: str, version: int) -> str:
    return f"{kind}_v{version}"


class Store:
    """Reads and writes of one MongoDB database."""

    def __init__(self, db: Database):
        self.db = db
        # Commands sent by this process (reads and writes); tests and the bench take differences.
        self.commands = 0

    # --- the live pointer -------------------------------------------------------------------

    def live(self) -> dict[str, Any] | None:
        """The `site` document naming the live generation, or None before the first load."""
        self.commands += 1
        return self.db[SITE].find_one({"_id": LIVE_ID})

    def ping(self) -> None:
        self.commands += 1
        self.db.command("ping")

    # --- writing a generation (the loader) ---------------------------------------------------

    def write_generation(
        self,
        version: int,
        documents: dict[str, list[dict[str, Any]]],
        progress: Callable[[str], None] = lambda message: None,
    ) -> None:
        """Write every collection of a generation, then its indexes. Nothing reads it yet."""
        for kind in KINDS:
            name = collection_name(kind, version)
            self.db.drop_collection(name)
            collection = self.db[name]
            docs = documents.get(kind, [])
            for start in range(0, len(docs), 1000):
                collection.insert_many(docs[start : start + 1000], ordered=True)
                if len(docs) > 5000:  # only large collections: a line per 1000 would be noise
                    done = min(start + 1000, len(docs))
                    if done % 10000 == 0 or done == len(docs):
                        progress(f"{name}: {done}/{len(docs)}")
            progress(f"{name}: {len(docs)} documents written")
            if not docs:
                self.db.create_collection(name)
            for index_name, keys, options in INDEXES.get(kind, []):
                collection.create_index(keys, name=index_name, **options)

    def switch(self, live: dict[str, Any]) -> None:
        """Make a written generation the live one (a single-document write)."""
        self.db[SITE].replace_one({"_id": LIVE_ID}, {"_id": LIVE_ID, **live}, upsert=True)

    def switch_from(self, version: int, live: dict[str, Any]) -> bool:
        """Replace the pointer with `live` if generation `version` is still the live one (a
        single-document write that a concurrent load cannot interleave); False otherwise."""
        self.commands += 1
        result = self.db[SITE].replace_one(
            {"_id": LIVE_ID, "version": version}, {"_id": LIVE_ID, **live}
        )
        return result.matched_count == 1

    def counts(self, version: int) -> dict[str, int]:
        """Documents per kind of a generation, as the database counts them."""
        self.commands += len(KINDS)
        return {kind: _stored_count(self.db[collection_name(kind, version)]) for kind in KINDS}

    def missing_collections(self, version: int) -> list[str]:
        """The collections of generation `version` that are not in the database (one command,
        listing the database's few dozen collections: mongomock filters names by $regex only)."""
        self.commands += 1
        present = set(self.db.list_collection_names())
        names = [collection_name(kind, version) for kind in KINDS]
        return [name for name in names if name not in present]

    def generations(self) -> list[int]:
        """Versions that have collections in the database."""
        versions = set()
        for name in self.db.list_collection_names():
            kind, _, suffix = name.rpartition("_v")
            if kind in KINDS and suffix.isdigit():
                versions.add(int(suffix))
        return sorted(versions)

    def drop_generation(self, version: int) -> None:
        for kind in KINDS:
            self.db.drop_collection(collection_name(kind, version))

    def dump_generation(self, version: int) -> dict[str, list[dict[str, Any]]]:
        """Every document of a generation, sorted by _id (comparisons and docs checks)."""
        return {
            kind: list(self.db[collection_name(kind, version)].find().sort("_id", ASCENDING))
            for kind in KINDS
        }

    def index_information(self, version: int) -> dict[str, dict[str, Any]]:
        return {kind: self.db[collection_name(kind, version)].index_information() for kind in KINDS}

    def generation(self, version: int) -> Generation:
        return Generation(self, version)


class Generation:
    """Reads of one generation of the site.

    Every read names the index that serves it (`cursor.hint`): engines that do not race candidate
    plans (DocumentDB, Cosmos DB vCore, FerretDB 2) or a MongoDB plan cache after an unlucky race
    would otherwise scan a wider index. tests/test_indexes.py checks each hint against the planner
    model of tests/index_plan.py.
    """

    def __init__(self, store: Store, version: int):
        self.store = store
        self.version = version
        self._db = store.db
        # Root sources of (types, locale), in position order (root_sources_of_types).
        self._root_ids: dict[tuple[tuple[str, ...], str], list[int]] = {}

    def _collection(self, kind: str):
        self.store.commands += 1
        return self._db[collection_name(kind, self.version)]

    def _one(self, kind: str, query: dict[str, Any], hint: str) -> dict[str, Any] | None:
        """find_one through find().hint().limit(1) (find_one takes no hint on every driver)."""
        return next(iter(self._collection(kind).find(query).hint(hint).limit(1)), None)

    def all(self, kind: str) -> list[dict[str, Any]]:
        """A whole small collection (one of WHOLE_READ_KINDS), in `_id` order."""
        if kind not in WHOLE_READ_KINDS:
            raise ValueError(f"{kind} is not read whole: query it through an index")
        return list(self._collection(kind).find().sort("_id", ASCENDING).hint(ID_INDEX))

    def homes(self) -> list[dict[str, Any]]:
        """The home source of every translation, whatever its publication (callers filter)."""
        return list(self._collection("sources").find({"node.home": True}).hint("home"))

    def sources_by_node_name(self, node_names: list[str]) -> list[dict[str, Any]]:
        return list(
            self._collection("sources")
            .find(
                {"node.node_name": {"$in": node_names}},
                {"_id": 1, "locale": 1, "url": 1, "node": 1, "published_at": 1},
            )
            .hint("node_name")
        )

    def publication_times_after(self, moment: Any) -> list[Any]:
        """Every published_at later than `moment`: when the public site will change by itself."""
        cursor = self._collection("sources").find(
            {"published_at": {"$gt": moment}}, {"_id": 0, "published_at": 1}
        )
        return sorted({doc["published_at"] for doc in cursor.hint("published_at")})

    def sources_page(
        self,
        query: dict[str, Any],
        visibility: Visibility,
        *,
        sort: list[tuple[str, int]],
        skip: int,
        limit: int,
        index: str,
        after: tuple[Any, int] | None = None,
        keyset: bool = False,
        counted: bool = True,
    ) -> tuple[list[dict[str, Any]], int | None]:
        """One page of the sources matching `query` (compiled from a collection's filters by
        app/listing) that `visibility` may see, and their total, counted on `index`, the index
        designed for the query's order (never by reading the documents). `limit` 0: no page.

        With `keyset` (a keyset cursor, app/keyset.py), the page starts after `after` (the sort
        values of the previous page's last member; None: the first page) instead of skipping
        `skip` members, and the total is not counted (None): a deep page costs what the first
        costs. Without `counted` (the caller knows the total: app/listing/calendar.py), the
        total is None too. A filter void by its shape (query_plan.matches_nothing) is not sent."""
        if matches_nothing(query):
            return [], None if keyset or not counted else 0
        query = combined(query, source_filter(visibility))
        page_query = query
        if after is not None:
            nullable = sort[0][0] == "published_at" and visibility.preview
            page_query = combined(query, keyset_filter(sort, after, nullable=nullable))
        page: list[dict[str, Any]] = []
        if limit > 0:
            cursor = self._collection("sources").find(page_query, LISTED, batch_size=limit + 1)
            cursor = cursor.sort(sort).hint(index)
            page = list((cursor if keyset else cursor.skip(skip)).limit(limit))
        if keyset or not counted:
            return page, None
        # the date index of the same kind bounds a count best: it decides published_at <= now too
        counted = order_index(query, "published_at")
        return page, self._collection("sources").count_documents(query, hint=counted)

    def publication_dates(
        self, query: dict[str, Any], visibility: Visibility, *, index: str
    ) -> list[Any]:
        """`published_at` of every source matching `query` that `visibility` may see, newest
        first: only that field is read, along `index` (archives group them by month)."""
        if matches_nothing(query):
            return []
        query = combined(query, source_filter(visibility))
        cursor = self._collection("sources").find(query, {"_id": 0, "published_at": 1})
        sort = [("published_at", DESCENDING), ("_id", DESCENDING)]
        return [d["published_at"] for d in cursor.sort(sort).hint(index) if d.get("published_at")]

    def calendars(
        self,
        node_types: list[str],
        locales: list[str],
        visibility: Visibility,
        *,
        groups: list[Group],
        summed: bool = False,
    ) -> dict[tuple[str, str, Group], dict[str, Any]]:
        """The materialised calendars of some types (or ALL_TYPES) and groups (none, a tag, a pair
        of tags, a listed parent...), in some translations for the request's visibility class, by
        (type, translation, group), in one read; a scope without sources has none. `summed`: what
        a total reads, every month together (`dated`) and `undated`, not the months; a calendar
        written before `dated` is read again whole (one read more, for such a generation only)."""
        keys = {
            calendar_id(node_type, locale, preview=visibility.preview, group=group): (
                node_type, locale, group
            )
            for group in groups
            for node_type in node_types
            for locale in locales
        }  # fmt: skip
        fields = {"dated": True, "undated": True} if summed else None
        found = {doc["_id"]: doc for doc in self._by_ids("calendars", list(keys), fields)}
        older = (
            [calendar for calendar, doc in found.items() if "dated" not in doc] if summed else []
        )
        found.update({doc["_id"]: doc for doc in self._by_ids("calendars", older)})
        return {keys[calendar]: doc for calendar, doc in found.items()}

    def listed_parents(self) -> frozenset[int]:
        """The parents whose children have calendars and listings (query_plan.PARENT_LISTED);
        none in a generation written before them."""
        found = self._one("listings", {"_id": LISTED_PARENTS_ID}, ID_INDEX)
        return frozenset(found["ids"]) if found else frozenset()

    def tag_combinations(self) -> TagCombinations:
        """The combinations of tags of the generation (TagCombinations); a generation written
        before it recorded them lists and counts single tags only."""
        found = self._one("listings", {"_id": TAG_COMBINATIONS_ID}, ID_INDEX)
        if found is None:
            return TagCombinations(1, 1, None)
        return TagCombinations(
            found["largest"], found.get("counted", found["largest"]), found.get("most"),
            found.get("head"), found.get("chunk"),
        )  # fmt: skip

    def listing_chunks(self, chunk_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Chunks of materialised listings (app/fixture/listings.py) by `_id`, in one read; a
        listing without sources has none."""
        return {chunk["_id"]: chunk for chunk in self._by_ids("listings", chunk_ids)}

    def listed_in_order(
        self, source_ids: list[int], visibility: Visibility
    ) -> list[dict[str, Any]]:
        """The sources of a collection page by `_id`, with the publication filter again, in the
        order of `source_ids` (a listing's page: app/listing/listings.py)."""
        if not source_ids:
            return []
        found = self._listed_by_ids(source_ids, visibility, LISTED, visible_only=False)
        return [found[i] for i in source_ids if i in found]

    def _by_ids(self, kind: str, ids: list[Any], fields: dict[str, bool] | None = None) -> Any:
        """Documents by `_id` (`fields`: only those): an equality for one (the lookup every engine
        pushes down, FerretDB 1.24 included), else `$in`."""
        if not ids:
            return []
        query = {"_id": ids[0]} if len(ids) == 1 else {"_id": {"$in": ids}}
        return self._collection(kind).find(query, fields).hint(ID_INDEX)

    def count_scheduled(self, query: dict[str, Any], visibility: Visibility, *, index: str) -> int:
        """Sources matching `query` whose status `visibility` shows but whose publication is
        still to come (published_at > now): the few a calendar counts that are not out yet."""
        if matches_nothing(query):
            return 0
        statuses = {"node.status": {"$in": list(visibility.statuses())}}
        future = combined(query, {**statuses, "published_at": {"$gt": visibility.now}})
        return self._collection("sources").count_documents(future, hint=index)

    def title_key_chunk(self) -> int | None:
        """How many title keys (app/title_index.py) a chunk holds; None: the generation was
        written before them, or with keys of another shape, and its partial matches go to the
        index (reloading writes them)."""
        found = self._one("postings", {"_id": TITLE_KEYS_ID}, ID_INDEX) or {}
        shape = title_keys_shape(TITLE_FIELDS, TITLE_BUCKET, TITLE_KEY)
        if any(found.get(name) != value for name, value in shape.items()):
            return None
        return found["chunk"]

    def title_key_chunks(self, chunk_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Chunks of title keys (app/title_index.py) by `_id`, in one read; a bucket no source
        holds has none."""
        return {chunk["_id"]: chunk for chunk in self._by_ids("postings", chunk_ids)}

    def postings(self, chunk_id: str) -> dict[str, Any] | None:
        """One chunk of a word's search postings (app/search_index.py), by `_id`."""
        return self._one("postings", {"_id": chunk_id}, ID_INDEX)

    def search_hits(self, source_ids: list[int], visibility: Visibility) -> list[dict[str, Any]]:
        """The sources of a search page by `_id`, with the listed publication rule again (dated
        after now never lists, even in preview)."""
        return list(self._listed_by_ids(source_ids, visibility, LISTED, out_only=True).values())

    def _listed_by_ids(
        self,
        source_ids: list[int],
        visibility: Visibility,
        projection: dict[str, int],
        *,
        out_only: bool = False,
        visible_only: bool = True,
    ) -> dict[int, dict[str, Any]]:
        """Listed sources (visible, shown to `visibility`) by `_id`, keyed by id; `out_only`: none
        dated after now, even in preview; without `visible_only`, invisible ones too (collections
        list them: `node.visible` is a filter there)."""
        query = {"_id": {"$in": source_ids}, **source_filter(visibility, listed=visible_only)}
        if out_only:
            query["published_at"] = {"$lte": visibility.now}  # the public rule's, or preview's
        # a fresh dict: mongomock adds keys to the projections it is given
        cursor = self._collection("sources").find(query, dict(projection)).hint(ID_INDEX)
        return {source["_id"]: source for source in cursor}

    def sources_by_ids(self, source_ids: list[int]) -> list[dict[str, Any]]:
        """Sources by id, whatever their publication (callers apply app.realms.may_see)."""
        if not source_ids:
            return []
        query = {"_id": {"$in": source_ids}}
        return list(self._collection("sources").find(query, WITHOUT_CHILDREN).hint(ID_INDEX))

    def node(self, node_id: int) -> dict[str, Any] | None:
        return self._one("nodes", {"_id": node_id}, ID_INDEX)

    def node_ids_named(self, names: list[str]) -> list[int]:
        """Ids of the nodes with these node names (whatever their status or sources)."""
        cursor = self._collection("nodes").find({"node_name": {"$in": names}}, {"_id": 1})
        return [doc["_id"] for doc in cursor.hint("node_name")]

    def tags(self, tag_ids: list[int]) -> list[dict[str, Any]]:
        return list(self._collection("tags").find({"_id": {"$in": tag_ids}}).hint(ID_INDEX))

    def documents_page(
        self, query: dict[str, Any], *, skip: int, limit: int
    ) -> tuple[list[dict[str, Any]], int]:
        """A page of the documents matching `query` (private ones too, as Roadiz lists them), in
        id order, and their total."""
        if "private" not in query:  # both: the index serves it in `_id` order (two ranges)
            query = {**query, "private": {"$in": [False, True]}}
        index = "private_id"
        page: list[dict[str, Any]] = []
        if limit > 0:
            cursor = self._collection("documents").find(query, batch_size=limit + 1)
            page = list(cursor.sort("_id", ASCENDING).hint(index).skip(skip).limit(limit))
        return page, self._collection("documents").count_documents(query, hint=index)

    def document(self, document_id: int) -> dict[str, Any] | None:
        return self._one("documents", {"_id": document_id}, ID_INDEX)

    def path(self, path: str) -> dict[str, Any] | None:
        """The `paths` entry of a resolvable path: a source's url or alias, or a redirection."""
        return self._one("paths", {"_id": path}, ID_INDEX)

    def source(self, source_id: int, visibility: Visibility) -> dict[str, Any] | None:
        return self._one("sources", {"_id": source_id, **source_filter(visibility)}, ID_INDEX)

    def sources_of_nodes(
        self,
        node_ids: list[int],
        locale: str,
        visibility: Visibility,
        *,
        with_children: bool = True,
    ) -> list[dict[str, Any]]:
        """Listed sources of several nodes in one translation: one command whatever their number.
        Without `with_children`, their child id lists (long for listing nodes) are not read."""
        if not node_ids:
            return []
        # `locale` is checked here, not in the query: DocumentDB's scan of `node_locale` with
        # both keys bounded slows down as node ids grow (57 menu links: 40-56 ms at 100k sources
        # with it, 4-10 ms without; docs/performance-log.md). A level reads each child in every
        # translation it has, so at most (translations x children) documents.
        query = {"node_id": {"$in": node_ids}, **source_filter(visibility, listed=True)}
        projection = LISTED if with_children else WITHOUT_CHILDREN
        batch = _nodes_batch(node_ids)
        cursor = self._collection("sources").find(query, projection, batch_size=batch)
        return [source for source in cursor.hint("node_locale") if source["locale"] == locale]

    def memberships_of_nodes(self, node_ids: list[int]) -> list[dict[str, Any]]:
        """Every source of these nodes (any status), with only the fields that tell which
        listings hold it (app.membership.MEMBERSHIP_FIELDS): what a plain collection leaving the
        nodes out (`not[node.id]`) takes away from its calendar or its tallies
        (app.listing.plain)."""
        query = {"node_id": {"$in": node_ids}}
        projection = dict.fromkeys(MEMBERSHIP_FIELDS, True)
        batch = _nodes_batch(node_ids)
        cursor = self._collection("sources").find(query, projection, batch_size=batch)
        return list(cursor.hint("node_locale"))

    def walker_children(self, node_ids: list[int]) -> dict[int, list[int]]:
        """Walker child ids of nodes whose sources keep them apart (`node.children` null: more
        than CHILDREN_EMBEDDED), by node id, in position order."""
        if not node_ids:
            return {}
        cursor = self._collection("children").find({"_id": {"$in": node_ids}}).hint(ID_INDEX)
        return {doc["_id"]: doc["ids"] for doc in cursor}

    def root_sources_of_types(
        self, types: list[str], locale: str, visibility: Visibility
    ) -> list[dict[str, Any]]:
        """Listed sources of root nodes of the given types (menus and footers of common content).

        They are few and fixed per generation: their ids, in position order, are read once per
        generation object (the site model holds it for the process) along `parent_position`
        (the roots' range: `node.parent` null), and each request reads them by `_id` with its
        publication filter. (Along `position`, that query read every entry of the translation's
        (type, status) range on engines that cannot bound an `$in` on the index's second key:
        DocumentDB, 1.5 ms at 1k sources, 28 ms at 100k.)
        """
        key = (tuple(types), locale)
        ids = self._root_ids.get(key)
        if ids is None:
            query = {
                "node.parent": None,
                "type": {"$in": types},
                "locale": locale,
                "node.status": {"$in": list(PREVIEW_STATUSES)},  # every status a request may see
            }
            cursor = self._collection("sources").find(query, {"_id": 1})
            cursor = cursor.sort("node.position", ASCENDING).hint("parent_position")
            ids = self._root_ids[key] = [doc["_id"] for doc in cursor]
        if not ids:
            return []
        found = self._listed_by_ids(ids, visibility, LISTED)
        return [found[i] for i in ids if i in found]

    def feed(
        self,
        *,
        node_type: str,
        locale: str,
        visibility: Visibility,
        tag_ids: list[int],
        exclude_source: int | None,
        limit: int,
        exclude_realms: list[int] | None = None,
    ) -> list[dict[str, Any]]:
        """Newest listed sources of a type in one translation, carrying all of `tag_ids`.

        Dated after now never lists, even in preview: a feed shows what is out. Feeds that the
        loader materialised (app/fixture/feeds.py) read their candidates in date order from
        `feeds` chunks by `_id` (the first entries embed their source; others are read by `_id`):
        one lookup usually, whatever the size of the site (docs/performance.md, bounded feeds).
        Others use the `feed` index.
        """
        denied = set(exclude_realms or ())
        wanted: list[dict[str, Any]] = []
        key = feed_key(node_type, locale, tag_ids, preview=visibility.preview)
        for number in itertools.count():
            chunk = self._one("feeds", {"_id": feed_chunk_id(key, number)}, ID_INDEX)
            if chunk is None:
                if number == 0:  # not materialised: a feed of a walker definition of a project
                    return self._indexed_feed(
                        node_type, locale, visibility, tag_ids, exclude_source, limit, denied
                    )
                break
            for entry in chunk["entries"]:
                if (
                    entry["published_at"] <= visibility.now
                    and entry["id"] != exclude_source
                    and not denied.intersection(entry["realm_ids"])
                ):
                    wanted.append(entry)
            if len(wanted) >= limit or not chunk["more"]:
                break
        wanted = wanted[:limit]
        missing = [entry["id"] for entry in wanted if "source" not in entry]
        found = self._listed_by_ids(missing, visibility, WITHOUT_CHILDREN) if missing else {}
        sources = (entry.get("source") or found.get(entry["id"]) for entry in wanted)
        return [source for source in sources if source is not None]

    def _indexed_feed(
        self,
        node_type: str,
        locale: str,
        visibility: Visibility,
        tag_ids: list[int],
        exclude_source: int | None,
        limit: int,
        denied: set[int],
    ) -> list[dict[str, Any]]:
        query: dict[str, Any] = {
            "locale": locale,
            "type": node_type,
            **source_filter(visibility, listed=True),
            "published_at": {"$lte": visibility.now},
        }
        if tag_ids:
            query["node.tag_ids"] = {"$all": tag_ids}
        if exclude_source is not None:
            query["_id"] = {"$ne": exclude_source}
        if denied:
            query["node.realm_ids"] = {"$nin": sorted(denied)}
        cursor = self._collection("sources").find(query, WITHOUT_CHILDREN, batch_size=limit + 1)
        cursor = cursor.sort([("published_at", DESCENDING), ("_id", DESCENDING)]).hint("feed")
        return list(cursor.limit(limit))


def _stored_count(collection: Collection) -> int:
    """The documents of a collection as its storage counts them (`$collStats`, one entry per
    shard); where the engine has no such stage (mongomock), its estimated count. FerretDB 1.24
    answers an estimated count by reading every document: 12 s for the 37,086 listing chunks of
    a 10k-source site, against 0.1 s for `$collStats`."""
    try:
        stats = collection.aggregate([{"$collStats": {"count": {}}}])
        return sum(entry["count"] for entry in stats)
    except (OperationFailure, NotImplementedError):
        return collection.estimated_document_count()
