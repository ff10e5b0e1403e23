"""The embedded store: mongomock, with hash indexes and compiled filters on site generations.

mongomock evaluates every query by testing each document of the collection with its generic
matcher; a request of a site of 1,000 sources then spends most of its time there. Here the
collections of site generations (`<kind>_v<N>`, written once by the loader, then only read and
dropped) are read differently, with the same answers:

- candidates: on their first read, a hash index per equality prefix of the store's indexes
  (app.query_plan.INDEXES) and the `_id` lookup; a query whose filter binds such prefixes by
  equality or `$in` tests only the documents of the smallest set of buckets;
- matching: the filter compiled once per query (app/embedded/matching.py), deciding as
  mongomock's `filter_applies` does, which still tests what the compiled test does not model;
- results (app/embedded/cursor.py): sorted with mongomock's keys, cut to skip and limit, then
  returned as shared read-only documents (app/frozen.py: time-zone aware, built on a
  document's first read with a projection; mongomock copies every match twice per read); a
  caller that would change one gets a TypeError.

Other collections (the live pointer) are plain mongomock. tests/test_embedded.py checks every
read of a crawl of the demo site, and the matcher document by document, against mongomock.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Hashable
from typing import Any

import mongomock
from mongomock.filtering import filter_applies

from app.embedded.cursor import (
    GenerationCursor,
    aware,
    exclusions,
    inclusion_copy,
    sort_documents,
    without,
)
from app.embedded.matching import Undecided, compile_filter
from app.frozen import SCALARS, FrozenDict, freeze
from app.query_plan import INDEXES

# Source documents (all translations, blocks included) up to which the embedded store is meant:
# above, start-up takes long and every worker holds its own copy (docs/performance.md).
SOURCE_LIMIT = 15_000
LIMIT_WARNING = (
    "the embedded store holds %d source documents, more than the %d it is meant for: start-up "
    "is slow and every worker keeps its own copy in memory; set MONGODB_URI to serve this site "
    "from MongoDB (see docs/performance.md)"
)

GENERATION_COLLECTION = re.compile(r"(?P<kind>[a-z_]+)_v[0-9]+")


def warn_if_too_large(logger: logging.Logger, sources: int) -> None:
    if sources > SOURCE_LIMIT:
        logger.warning(LIMIT_WARNING, sources, SOURCE_LIMIT)


def embedded_database(name: str) -> mongomock.Database:
    database = mongomock.MongoClient(tz_aware=True)[name]
    database.__class__ = IndexedDatabase
    return database


class IndexedDatabase(mongomock.Database):
    """A mongomock database whose generation collections use hash indexes."""

    def get_collection(self, name, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        """mongomock builds a new collection object per access (with_options); a generation
        collection with the database's options is built once (it keeps the same store across
        drops, as mongomock's own cache of accesses does)."""
        plain = not args and not any(kwargs.values())
        built = self.__dict__.setdefault("_generation_collections", {})
        if plain and name in built:
            return built[name]
        collection = super().get_collection(name, *args, **kwargs)
        if GENERATION_COLLECTION.fullmatch(name) and type(collection) is mongomock.Collection:
            collection.__class__ = IndexedCollection
            if plain:
                built[name] = collection
        return collection


@functools.cache
def _kind(name: str) -> str:
    """The kind of a generation collection (`sources` of `sources_v3`)."""
    return GENERATION_COLLECTION.fullmatch(name)["kind"]


def _projection_key(projection: Any) -> tuple | None:
    """A hashable key of a projection of paths to 0 or 1 (None: no projection, or another)."""
    if projection is None:
        return ()
    if type(projection) is not dict:
        return None
    if any(type(k) is not str or type(v) not in (int, bool) for k, v in projection.items()):
        return None
    return tuple(sorted((k, int(v), type(v) is bool) for k, v in projection.items()))


@functools.cache
def _prefixes(kind: str) -> tuple[tuple[str, ...], ...]:
    """`_id`, then the equality prefixes of the kind's indexes, longest first."""
    found = {
        tuple(key for key, _ in keys[:length])
        for _, keys, _ in INDEXES.get(kind, [])
        for length in range(1, len(keys) + 1)
        if keys[length - 1][0] != "_id"
    }
    return (("_id",), *sorted(found, key=lambda fields: (-len(fields), fields)))


def _values(condition: Any) -> list[Hashable] | None:
    """The values an equality or `$in` condition accepts, or None when it is something else."""
    if isinstance(condition, dict):
        if set(condition) != {"$in"} or not isinstance(condition["$in"], list):
            return None
        values = condition["$in"]
    else:
        values = [condition]
    return values if all(type(v) in SCALARS for v in values) else None


def _lookup(document: dict[str, Any], field: str) -> Any:
    value: Any = document
    for part in field.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


class IndexedCollection(mongomock.Collection):
    """A generation collection: candidates from hash indexes, compiled filters, shared read-only
    results."""

    def find(self, filter=None, projection=None, *args, **kwargs):  # noqa: A002, ANN001, ANN002, ANN003, ANN201
        """The store's finds (a filter, a projection, batch_size) build the cursor directly;
        anything else goes through mongomock's find (its checks and its options)."""
        if not args and set(kwargs) <= {"batch_size"} and type(filter) in (dict, type(None)):
            return GenerationCursor.of(self, filter or {}, None, projection)
        cursor = super().find(filter, projection, *args, **kwargs)
        cursor.__class__ = GenerationCursor
        return cursor

    def read(
        self, spec: dict[str, Any], sort: Any, projection: Any, skip: int, limit: int | None
    ) -> list[dict[str, Any]] | None:
        """What mongomock's cursor computes for these arguments (its spec already has naive
        dates), or None when a shape is not modelled here (the cursor then asks mongomock)."""
        if not self.codec_options.tz_aware:
            return None
        documents = sort_documents(self._iter_documents(spec), sort)
        if documents is None:
            return None
        documents = documents[skip:]
        if limit:
            documents = documents[: abs(limit)]
        view = self._viewer(projection)
        if view is None:  # an inclusion projection: a copy of mongomock's projection
            copy = inclusion_copy(self, projection)
            return [copy(document) for document in documents]
        return [view(document) for document in documents]

    def _viewer(self, projection: Any) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
        """The shared read-only result (app/frozen.py) of a document under no projection
        or an exclusion projection, built on a document's first read with it; None for other
        projections."""
        cache = self._cache()
        key = _projection_key(projection)
        if key is None:
            tree = exclusions(projection)
        elif ("tree", key) in cache:
            tree = cache[("tree", key)]
        else:
            tree = cache[("tree", key)] = exclusions(projection)
        if tree is None:
            return None
        excluded, without_id = tree
        wholes = cache.setdefault("frozen", {})
        views = cache.setdefault(("frozen", repr(excluded), without_id), {})

        def view(document: dict[str, Any]) -> dict[str, Any]:
            found = views.get(id(document))
            if found is None:
                whole = wholes.get(id(document))
                if whole is None:
                    whole = wholes[id(document)] = freeze(document, aware)
                found = views[id(document)] = self._project(whole, document, projection, tree)
            return found

        return view

    def _project(
        self,
        whole: FrozenDict,
        document: dict[str, Any],
        projection: Any,
        tree: tuple[dict[str, Any], bool],
    ) -> dict[str, Any]:
        excluded, without_id = tree
        if not excluded and not without_id:
            return whole
        try:
            found = without(whole, excluded)
        except Undecided:  # an array on an excluded path: mongomock projects it
            return freeze(self._copy_only_fields(document, dict(projection), dict), aware)
        if without_id and "_id" in found:
            found = FrozenDict((key, value) for key, value in found.items() if key != "_id")
        return found

    def _iter_documents(self, filter):  # noqa: A002, ANN001, ANN202 - mongomock's signature
        filter_ = filter or {}
        candidates, decided = self._candidates(filter_)
        # the conditions the buckets decided exactly are not tested again
        rest = {k: v for k, v in filter_.items() if k not in decided} if decided else filter_
        test = compile_filter(rest)
        if candidates is None:
            if test is None or self._store.is_empty:  # mongomock validates the filter then
                return list(super()._iter_documents(filter))
            candidates = self._store._documents.values()
        if test is None:
            return [document for document in candidates if filter_applies(filter_, document)]
        return [document for document in candidates if test(document)]

    def _candidates(
        self, filter_: dict[str, Any]
    ) -> tuple[list[dict[str, Any]] | None, tuple[str, ...]]:
        """The documents of the buckets of the indexed prefix that `filter_` binds with the
        fewest documents, in insertion order (as mongomock reads), and the fields of that prefix
        whose conditions every one of them meets (equality or `$in` without None: the index
        holds scalars only, compared as the compiled test compares them); (None, ()) when no
        prefix is bound."""
        best: list[list[tuple[int, dict[str, Any]]]] | None = None
        best_fields: tuple[str, ...] = ()
        best_size = 0
        values_of: dict[str, list[Hashable] | None] = {}
        for fields in _prefixes(_kind(self.name)):
            if fields[0] not in filter_:
                continue
            accepted = []
            for field in fields:
                if field not in values_of:
                    values_of[field] = _values(filter_[field]) if field in filter_ else None
                accepted.append(values_of[field])
            if any(values is None for values in accepted):
                continue
            index = self._index(fields)
            if index is None:
                continue
            keys = [()]
            for values in accepted:
                keys = [(*key, value) for key in keys for value in dict.fromkeys(values)]
            buckets = [index[key] for key in keys if key in index]
            size = sum(len(bucket) for bucket in buckets)
            if best is None or size < best_size:
                best, best_size, best_fields = buckets, size, fields
                if size <= 1:
                    break
        if best is None:
            return None, ()
        decided = tuple(f for f in best_fields if None not in values_of[f])  # type: ignore[operator]
        if len(best) == 1:
            return [document for _, document in best[0]], decided
        found = [entry for bucket in best for entry in bucket]
        found.sort(key=lambda entry: entry[0])  # insertion order, as mongomock reads
        return [document for _, document in found], decided

    def _cache(self) -> dict[Any, Any]:
        """What this module derives from the collection's documents (hash indexes, read-only
        results), dropped when they change (the loader writing, a drop)."""
        store = self._store
        cache = store.__dict__.setdefault("_cms_indexes", {})
        marker = (id(store._documents), len(store._documents))
        if cache.get("marker") != marker:
            cache.clear()
            cache["marker"] = marker
        return cache

    def _index(self, fields: tuple[str, ...]) -> dict[tuple, list] | None:
        """{values of `fields`: [(insertion position, document)]}, built on first use; None when
        a document holds an array or a document there (equality would match inside it)."""
        store = self._store
        cache = self._cache()
        if fields not in cache:
            index: dict[tuple, list] | None = {}
            for position, document in enumerate(store._documents.values()):
                key = tuple(_lookup(document, f) for f in fields)
                if not all(type(v) in SCALARS for v in key):
                    index = None
                    break
                index.setdefault(key, []).append((position, document))
            cache[fields] = index
        return cache[fields]
