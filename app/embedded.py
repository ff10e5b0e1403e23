"""The embedded store: mongomock, with hash indexes so that a query reads what it returns.

mongomock evaluates every query by testing each document of the collection; a request of a site
of 1,000 sources then spends most of its time there. Here the collections of site generations
(`<kind>_v<N>`, written once by the loader, then only read and dropped) get, on their first read,
a hash index per equality prefix of the store's indexes (app.store.INDEXES) and the `_id` lookup;
a query whose filter binds such a prefix by equality or `$in` tests only the documents of its
buckets, with mongomock's own matching, sorting and projection, so results are unchanged. Other
collections (the live pointer) and other filters are read as mongomock reads them.

Results are copied once, not twice: mongomock copies each document for the projection, then again
to make its dates time-zone aware (the client is tz_aware); here documents without a projection, or
with an exclusion projection, are handed to that second pass, which rebuilds every dict and list,
so callers still get documents of their own.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Hashable, Iterable, Iterator
from typing import Any

import mongomock
from mongomock import filtering
from mongomock.filtering import filter_applies

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
SCALARS = (str, int, float, bool, type(None))


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
        collection = super().get_collection(name, *args, **kwargs)
        if GENERATION_COLLECTION.fullmatch(name) and type(collection) is mongomock.Collection:
            collection.__class__ = IndexedCollection
        return collection


@functools.cache
def _prefixes(kind: str) -> tuple[tuple[str, ...], ...]:
    """`_id`, then the equality prefixes of the kind's indexes, longest first."""
    found = {
        tuple(key for key, _ in keys[:length])
        for _, keys, _ in INDEXES.get(kind, [])
        for length in range(1, len(keys) + 1)
        if keys[length - 1][0] != "_id"
    }
    return (("_id",), *sorted(found, key=len, reverse=True))


def _values(condition: Any) -> list[Hashable] | None:
    """The values an equality or `$in` condition accepts, or None when it is something else."""
    if isinstance(condition, dict):
        if set(condition) != {"$in"} or not isinstance(condition["$in"], list):
            return None
        values = condition["$in"]
    else:
        values = [condition]
    return values if all(isinstance(v, SCALARS) for v in values) else None


def _lookup(document: dict[str, Any], field: str) -> Any:
    value: Any = document
    for part in field.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


class IndexedCollection(mongomock.Collection):
    """A generation collection: candidates from hash indexes, then mongomock's own matching."""

    def _iter_documents(self, filter):  # noqa: A002, ANN001 - mongomock's signature
        candidates = self._candidates(filter or {})
        if candidates is None:
            return super()._iter_documents(filter)
        return (document for document in candidates if filter_applies(filter, document))

    def _get_dataset(self, spec, sort, fields, as_class) -> Iterator[Any]:  # noqa: ANN001
        if not self.codec_options.tz_aware or as_class is not dict:
            yield from super()._get_dataset(spec, sort, fields, as_class)
            return
        dataset: Iterable[dict[str, Any]] = self._iter_documents(spec)
        keys = list(sort.items() if isinstance(sort, dict) else sort or [])
        for key, direction in reversed(keys):
            if key.startswith("$"):
                yield from super()._get_dataset(spec, sort, fields, as_class)
                return
            dataset = sorted(
                dataset,
                key=lambda document, k=key: filtering.resolve_sort_key(k, document),
                reverse=direction < 0,
            )
        excluded = _exclusions(fields)
        for document in dataset:
            if excluded is None:
                yield self._copy_only_fields(document, fields, as_class)
            else:  # the time-zone pass of the cursor copies it
                yield _without(document, excluded) if excluded else document

    def _candidates(self, filter_: dict[str, Any]) -> Iterable[dict[str, Any]] | None:
        kind = GENERATION_COLLECTION.fullmatch(self.name)["kind"]
        for fields in _prefixes(kind):
            accepted = [_values(filter_[f]) if f in filter_ else None for f in fields]
            if any(values is None for values in accepted):
                continue
            index = self._index(fields)
            if index is None:
                continue
            keys = [()]
            for values in accepted:
                keys = [(*key, value) for key in keys for value in dict.fromkeys(values)]
            found = [entry for key in keys for entry in index.get(key, ())]
            if len(keys) > 1:
                found.sort(key=lambda entry: entry[0])  # insertion order, as mongomock reads
            return [document for _, document in found]
        return None

    def _index(self, fields: tuple[str, ...]) -> dict[tuple, list] | None:
        """{values of `fields`: [(insertion position, document)]}, built on first use; None when
        a document holds an array or a document there (equality would match inside it)."""
        store = self._store
        cache = store.__dict__.setdefault("_cms_indexes", {})
        marker = (id(store._documents), len(store._documents))
        if cache.get("marker") != marker:
            cache.clear()
            cache["marker"] = marker
        if fields not in cache:
            index: dict[tuple, list] | None = {}
            for position, document in enumerate(store._documents.values()):
                key = tuple(_lookup(document, f) for f in fields)
                if not all(isinstance(v, SCALARS) for v in key):
                    index = None
                    break
                index.setdefault(key, []).append((position, document))
            cache[fields] = index
        return cache[fields]


def _exclusions(fields: Any) -> dict[str, Any] | None:
    """A tree of the paths an exclusion projection leaves out ({} for none), or None when the
    projection includes fields (mongomock projects those)."""
    if not fields:
        return {}
    if not isinstance(fields, dict) or any(v not in (0, False) for v in fields.values()):
        return None
    tree: dict[str, Any] = {}
    for path in fields:
        *parents, last = path.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
            if node is True:
                break
        else:
            node[last] = True
    return tree


def _without(document: dict[str, Any], excluded: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in document.items():
        rule = excluded.get(key)
        if rule is True:
            continue
        out[key] = _without(value, rule) if rule and isinstance(value, dict) else value
    return out
