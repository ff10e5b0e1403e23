"""The MongoDB store: the only module that knows collection names, documents and query shapes.

A site is written as a *generation*: one set of collections suffixed `_v<N>`. The single document
`site` {_id: "live"} names the generation readers use, so switching to a new site is one
atomic write and readers never see a half-loaded site. See docs/collections.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pymongo import ASCENDING, DESCENDING
from pymongo.database import Database

from app.publication import Visibility, source_filter

SITE = "site"
LIVE_ID = "live"

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
)

# Secondary indexes per kind (the `_id` index always exists): (name, keys, options).
INDEXES: dict[str, list[tuple[str, list[tuple[str, int]], dict[str, Any]]]] = {
    "sources": [
        # search (app/search.py): the words of a source (multikey), then its translation; first
        # in this list as only search queries bound `words`
        (
            "search",
            [
                ("words", ASCENDING),
                ("locale", ASCENDING),
                ("node.status", ASCENDING),
                ("published_at", ASCENDING),
            ],
            {},
        ),  # fmt: skip
        # walkers (children of several nodes at once) and breadcrumbs (ancestors)
        ("node_locale", [("node_id", ASCENDING), ("locale", ASCENDING)], {"unique": True}),
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
        ),  # fmt: skip
        ("status_id", [("locale", ASCENDING), ("node.status", ASCENDING), ("_id", ASCENDING)], {}),
        (
            "status_published",
            [
                ("locale", ASCENDING),
                ("node.status", ASCENDING),
                ("published_at", DESCENDING),
                ("_id", DESCENDING),
            ],
            {},
        ),  # fmt: skip
        (
            "status_position",
            [
                ("locale", ASCENDING),
                ("node.status", ASCENDING),
                ("node.position", ASCENDING),
                ("_id", ASCENDING),
            ],
            {},
        ),  # fmt: skip
        # homes of every translation (head, common content)
        ("home", [("node.home", ASCENDING), ("locale", ASCENDING)], {}),
        # the policy pages of the site model, by node name
        ("node_name", [("node.node_name", ASCENDING), ("locale", ASCENDING)], {}),
        # the next scheduled publication (a covered query: published_at only)
        ("published_at", [("published_at", ASCENDING)], {}),
        # operators' look-ups by url (requests resolve paths through `paths`); not unique, as
        # sources that are not reachable have no url (uniqueness comes from `paths._id`)
        ("url", [("url", ASCENDING), ("locale", ASCENDING)], {}),
    ],
    "nodes": [("parent", [("parent", ASCENDING), ("position", ASCENDING)], {})],
    # /api/documents: public documents only, in id order
    "documents": [("public_id", [("private", ASCENDING), ("_id", ASCENDING)], {})],
    "paths": [("source", [("source_id", ASCENDING)], {})],
}


# Kinds small enough to be read whole, once per site generation and process (Generation.all).
WHOLE_READ_KINDS = ("translations", "settings", "node_types", "realms", "tags")

# Projections of listed sources (walker children, breadcrumbs, feed entries): only the item of a
# response shows its alternates (Link header) and ancestors (breadcrumbs); url aliases are served
# by `paths`. Sources that will not be expanded leave out their child ids too.
LISTED = {"alternates": 0, "url_aliases": 0, "node.ancestors": 0, "words": 0}
WITHOUT_CHILDREN = {**LISTED, "node.children": 0}


def _with(query: dict[str, Any], rule: dict[str, Any]) -> dict[str, Any]:
    """`query` and `rule` together; a field both constrain is ANDed."""
    merged = dict(query)
    for key, condition in rule.items():
        if key in merged:
            merged["$and"] = [*merged.get("$and", []), {key: condition}]
        else:
            merged[key] = condition
    return merged


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
        return {
            kind: self.db[collection_name(kind, version)].estimated_document_count()
            for kind in KINDS
        }

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
    """Reads of one generation of the site."""

    def __init__(self, store: Store, version: int):
        self.store = store
        self.version = version
        self._db = store.db

    def _collection(self, kind: str):
        self.store.commands += 1
        return self._db[collection_name(kind, self.version)]

    def all(self, kind: str) -> list[dict[str, Any]]:
        """A whole small collection (one of WHOLE_READ_KINDS), in `_id` order."""
        if kind not in WHOLE_READ_KINDS:
            raise ValueError(f"{kind} is not read whole: query it through an index")
        return list(self._collection(kind).find().sort("_id", ASCENDING))

    def homes(self) -> list[dict[str, Any]]:
        """The home source of every translation, whatever its publication (callers filter)."""
        return list(self._collection("sources").find({"node.home": True}))

    def sources_by_node_name(self, node_names: list[str]) -> list[dict[str, Any]]:
        return list(
            self._collection("sources").find(
                {"node.node_name": {"$in": node_names}},
                {"_id": 1, "locale": 1, "url": 1, "node": 1, "published_at": 1},
            )
        )

    def publication_times_after(self, moment: Any) -> list[Any]:
        """Every published_at later than `moment`: when the public site will change by itself."""
        cursor = self._collection("sources").find(
            {"published_at": {"$gt": moment}}, {"_id": 0, "published_at": 1}
        )
        return sorted({doc["published_at"] for doc in cursor})

    def sources_page(
        self,
        query: dict[str, Any],
        visibility: Visibility,
        *,
        sort: list[tuple[str, int]],
        skip: int,
        limit: int,
        index: str,
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the sources matching `query` (compiled from a collection's filters by
        app/listing) that `visibility` may see, and their total, counted on `index`, the index
        designed for the query's order (never by reading the documents). `limit` 0: no page."""
        query = _with(query, source_filter(visibility))
        page: list[dict[str, Any]] = []
        if limit > 0:
            cursor = self._collection("sources").find(query, LISTED, batch_size=limit + 1)
            page = list(cursor.sort(sort).hint(index).skip(skip).limit(limit))
        return page, self._collection("sources").count_documents(query, hint=index)

    def publication_dates(
        self, query: dict[str, Any], visibility: Visibility, *, index: str
    ) -> list[Any]:
        """`published_at` of every source matching `query` that `visibility` may see, newest
        first: only that field is read, along `index` (archives group them by month)."""
        query = _with(query, source_filter(visibility))
        cursor = self._collection("sources").find(query, {"_id": 0, "published_at": 1})
        sort = [("published_at", DESCENDING), ("_id", DESCENDING)]
        return [d["published_at"] for d in cursor.sort(sort).hint(index) if d.get("published_at")]

    def search_matches(
        self, words: list[str], query: dict[str, Any], visibility: Visibility
    ) -> list[dict[str, Any]]:
        """Listed sources (visible, published) having any of `words` and matching `query`
        (translation, types, realms, tags), along the `search` index: the candidates a search
        ranks. Only what ranking, highlighting and members need is read."""
        full = _with({"words": {"$in": words}, **query}, source_filter(visibility, listed=True))
        full = _with(full, {"published_at": {"$lte": visibility.now}})  # out, even in preview
        # a fresh dict: mongomock adds keys to the projections it is given
        ranked = {"alternates": 0, "url_aliases": 0, "node.ancestors": 0}  # words kept: ranking
        return list(self._collection("sources").find(full, ranked).hint("search"))

    def sources_by_ids(self, source_ids: list[int]) -> list[dict[str, Any]]:
        """Sources by id, whatever their publication (callers apply app.realms.may_see)."""
        if not source_ids:
            return []
        return list(
            self._collection("sources").find({"_id": {"$in": source_ids}}, WITHOUT_CHILDREN)
        )

    def node(self, node_id: int) -> dict[str, Any] | None:
        return self._collection("nodes").find_one({"_id": node_id})

    def tags(self, tag_ids: list[int]) -> list[dict[str, Any]]:
        return list(self._collection("tags").find({"_id": {"$in": tag_ids}}))

    def documents_page(
        self, query: dict[str, Any], *, skip: int, limit: int
    ) -> tuple[list[dict[str, Any]], int]:
        """A page of public documents matching `query`, in id order, and their total."""
        query = _with(query, {"private": False})
        page: list[dict[str, Any]] = []
        if limit > 0:
            cursor = self._collection("documents").find(query, batch_size=limit + 1)
            page = list(cursor.sort("_id", ASCENDING).hint("public_id").skip(skip).limit(limit))
        return page, self._collection("documents").count_documents(query, hint="public_id")

    def document(self, document_id: int) -> dict[str, Any] | None:
        return self._collection("documents").find_one(
            {"_id": document_id, "private": {"$ne": True}}
        )

    def path(self, path: str) -> dict[str, Any] | None:
        """The `paths` entry of a resolvable path: a source's url or alias, or a redirection."""
        return self._collection("paths").find_one({"_id": path})

    def source(self, source_id: int, visibility: Visibility) -> dict[str, Any] | None:
        return self._collection("sources").find_one({"_id": source_id, **source_filter(visibility)})

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
        query = {
            "node_id": {"$in": node_ids},
            "locale": locale,
            **source_filter(visibility, listed=True),
        }
        projection = LISTED if with_children else WITHOUT_CHILDREN
        cursor = self._collection("sources").find(query, projection, batch_size=len(node_ids) + 1)
        return list(cursor)

    def root_sources_of_types(
        self, types: list[str], locale: str, visibility: Visibility
    ) -> list[dict[str, Any]]:
        """Listed sources of root nodes of the given types (menus and footers of common content)."""
        query = {
            "node.parent": None,
            "type": {"$in": types},
            "locale": locale,
            **source_filter(visibility, listed=True),
        }
        return list(self._collection("sources").find(query).sort("node.position", ASCENDING))

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

        Dated after now never lists, even in preview: a feed shows what is out.
        """
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
        if exclude_realms:
            query["node.realm_ids"] = {"$nin": exclude_realms}
        cursor = self._collection("sources").find(query, WITHOUT_CHILDREN, batch_size=limit + 1)
        return list(cursor.sort([("published_at", DESCENDING), ("_id", DESCENDING)]).limit(limit))
