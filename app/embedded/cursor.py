"""The cursor of generation collections: mongomock's reading, without a copy per result.

mongomock's cursor matches, sorts and copies every matching document (projection), then copies
each again to make its dates time-zone aware (the client is tz_aware), and only then applies skip
and limit. Here the matching documents (app.embedded.matching, on the collection's candidates)
are sorted with the keys mongomock's sort would compare, cut to skip and limit, then returned as
shared read-only results (app/frozen.py) under no projection or an exclusion projection
(`without`), or copied under an inclusion projection (`inclusion_copy`). Whatever this module does
not model (`$natural` or `$`-sorts, values of other types in a sort key) is read by mongomock.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any

from mongomock import helpers
from mongomock.collection import Cursor, _combine_projection_spec
from mongomock.filtering import NOTHING, resolve_sort_key

from app.embedded.matching import COMPARE_TYPES, Undecided
from app.frozen import SCALARS, FrozenDict

UTC = helpers.utc
Copy = Callable[[dict[str, Any]], dict[str, Any]]


class GenerationCursor(Cursor):
    """A mongomock cursor whose results the collection computes (`IndexedCollection.read`)."""

    _computed: tuple[tuple, list[dict[str, Any]] | None] | None = None

    @classmethod
    def of(cls, collection: Any, spec: dict[str, Any], sort: Any, projection: Any) -> Cursor:
        """What mongomock's `Cursor(collection, spec, sort, projection)` builds, with the
        filter's dates converted by `naive` (mongomock converts every value in Python)."""
        cursor = cls.__new__(cls)
        spec = naive(spec)
        cursor.collection = collection
        cursor._spec = spec
        cursor._sort = sort
        cursor._projection = projection
        cursor._skip = 0
        cursor._factory_last_generated_results = None
        cursor._results = None
        cursor._factory = functools.partial(collection._get_dataset, spec, sort, projection, dict)
        cursor._limit = None
        cursor._collation = None
        cursor.session = None
        cursor.rewind()
        return cursor

    def _compute_results(self, with_limit_and_skip=False):  # noqa: ANN001, ANN202 - mongomock's
        key = (self._factory, self._skip, self._limit) if with_limit_and_skip else (self._factory,)
        computed = self._computed
        if computed is None or computed[0] != key:
            skip, limit = (self._skip, self._limit) if with_limit_and_skip else (0, None)
            found = self.collection.read(self._spec, self._sort, self._projection, skip, limit)
            computed = self._computed = (key, found)
        if computed[1] is None:  # a shape this store does not model: mongomock reads it
            return super()._compute_results(with_limit_and_skip)
        return computed[1]


def naive(value: Any) -> Any:
    """mongomock's patch_datetime_awareness_in_document (dates in UTC, naive, to the
    millisecond), without a call per plain value."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is dict:
        return {key: naive(item) for key, item in value.items()}
    if kind is list and all(type(item) in SCALARS for item in value):
        return list(value)
    return helpers.patch_datetime_awareness_in_document(value)


def sort_documents(documents: list[Any], sort: Any) -> list[Any] | None:
    """`documents` in the order mongomock's sort gives (stable sorts, last key first), or None
    when a key is not one this module sorts."""
    if not sort:
        return documents
    keys = list(sort.items() if isinstance(sort, dict) else sort)
    for key, direction in reversed(keys):
        if not isinstance(key, str) or key.startswith("$"):
            return None
        try:
            documents = sorted(documents, key=_sort_key(key), reverse=direction < 0)
        except Undecided:  # mongomock's own keys, on the same documents in the same order
            documents = sorted(
                documents,
                key=lambda document, k=key: resolve_sort_key(k, document),
                reverse=direction < 0,
            )
    return documents


def _sort_key(path: str) -> Callable[[dict[str, Any]], tuple]:
    """mongomock's resolve_sort_key as a plain tuple: (0 for an empty array, else 1; its BSON
    comparison class; the value), for values whose class mongomock compares natively."""
    parts = path.split(".")

    def key(document: dict[str, Any]) -> tuple:
        value: Any = document
        for part in parts[:-1]:
            value = value.get(part, {})
            if type(value) is not dict:
                raise Undecided  # mongomock looks into arrays, or finds nothing: its own keys
        value = value.get(parts[-1], NOTHING)
        if value is NOTHING or value is None:
            return (1, 5, 0)
        if type(value) is list:
            if not value:
                return (0, 5, 0)
            value = value[0]
        kind = COMPARE_TYPES.get(type(value))
        if kind is None or kind in (20, 25):  # documents and arrays: mongomock's comparison
            raise Undecided
        return (1, kind, 0) if value is None else (1, kind, value)

    return key


def inclusion_copy(collection: Any, projection: Any) -> Copy:
    """A copy of a result as mongomock's cursor returns it under a projection that is not an
    exclusion (`exclusions` gives None): mongomock's projection, then its time-zone pass."""

    def projected(document: dict[str, Any]) -> dict[str, Any]:
        fields = dict(projection) if isinstance(projection, dict) else projection
        copied = collection._copy_only_fields(document, fields, dict)
        return helpers.make_datetime_timezone_aware_in_document(copied)

    return projected


def exclusions(projection: Any) -> tuple[dict[str, Any], bool] | None:
    """(mongomock's nested spec of the excluded paths, whether `_id` is left out) of no
    projection or an exclusion projection; None for any other projection."""
    if projection is None:
        return {}, False
    if not isinstance(projection, dict) or not projection:
        return None
    fields = dict(projection)
    id_value = fields.pop("_id", 1)
    if any("$" in path or path.split(".")[0] == "_id" for path in fields):
        return None  # positional or `_id.` paths: mongomock's rules
    if id_value not in (0, 1) or any(type(v) not in (int, bool) or v for v in fields.values()):
        return None
    if not fields:
        return ({}, True) if id_value == 0 else None  # {_id: 1} alone: mongomock's own copy
    try:
        return _combine_projection_spec(fields), id_value == 0
    except Exception:  # noqa: BLE001 - a collision mongomock reports itself
        return None


def aware(value: Any) -> Any:
    """A stored value other than a dict, list or scalar as the client (tz_aware) returns it:
    dates in UTC."""
    if type(value) is datetime:
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return helpers.make_datetime_timezone_aware_in_document(copy.deepcopy(value))


def without(document: FrozenDict, spec: dict[str, Any]) -> FrozenDict:
    """`document` (read-only) without the paths of an exclusion spec, as mongomock's
    _project_by_spec leaves them out (a key of `spec` holding a dict names the paths excluded
    below it); the values kept are shared. Undecided: an array on an excluded path."""
    kept = []
    for key, value in document.items():
        rule = spec.get(key, NOTHING)
        if rule is NOTHING:
            kept.append((key, value))
        elif isinstance(rule, dict):
            if type(value) is FrozenDict:
                kept.append((key, without(value, rule)))
            elif isinstance(value, (list, tuple, dict)):
                raise Undecided
    return FrozenDict(kept)
