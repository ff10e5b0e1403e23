"""Filters of the embedded store compiled to Python tests that decide as mongomock decides.

mongomock's `filter_applies` interprets the whole query language for each document it tests; the
store sends few shapes (equality, `$in`, `$nin`, `$ne`, `$eq`, ranges, `$all`, `$and`, `$or`, on
plain or dotted paths). `compile_filter` turns such a filter into one test per document, written
from mongomock's own rules (mongomock/filtering.py: `_Filterer.apply`, `_in_op`, `_list_expand`,
`bson_compare` without type order), so the answer is the same document for document:

- a filter with anything else (`$regex`, `$exists`, `$elemMatch`, `$not`, a value of another type,
  an operand mongomock would reject) is not compiled: the caller uses mongomock;
- a document that the compiled test cannot decide exactly (an array in the middle of a dotted
  path, a value of a type mongomock compares in its own way) is tested by `filter_applies`.

tests/test_embedded.py checks both against `filter_applies`, document by document.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from datetime import datetime
from typing import Any

from mongomock.filtering import NOTHING, filter_applies

Test = Callable[[dict[str, Any]], bool]

# Types (exact) of the values a compiled condition may name, and of the document values it
# compares natively (spec datetimes arrive naive: mongomock's cursor converts them).
PLAIN = frozenset({str, int, float, bool, type(None), datetime})
# mongomock's comparison classes (filtering._get_compare_type) of the types stored here; a value
# of another type leaves the document to filter_applies.
COMPARE_TYPES = {
    type(None): 5,
    int: 10,
    float: 10,
    str: 15,
    dict: 20,
    list: 25,
    tuple: 25,
    bool: 40,
    datetime: 45,
}
RANGES = {"$gt": operator.gt, "$gte": operator.ge, "$lt": operator.lt, "$lte": operator.le}
SUPPORTED = {"$in", "$nin", "$ne", "$eq", "$all", *RANGES}
NO_CANDIDATES = object()  # a dotted path through None or a scalar: mongomock sees no value at all


class Undecided(Exception):
    """The compiled test cannot answer for this document exactly: filter_applies will."""


def compile_filter(filter_: dict[str, Any]) -> Test | None:
    """A test deciding `filter_` as filter_applies does, or None when the filter has a shape it
    does not model (the caller then uses mongomock for the whole query)."""
    test = _compile(filter_)
    if test is None:
        return None

    def applies(document: dict[str, Any]) -> bool:
        try:
            return test(document)
        except Undecided:
            return filter_applies(filter_, document)

    return applies


def _compile(filter_: Any) -> Test | None:
    if not isinstance(filter_, dict):
        return None
    tests: list[Test] = []
    for key, condition in filter_.items():
        if key == "$comment":
            continue
        if key in ("$and", "$or"):
            if not isinstance(condition, list) or not condition:
                return None
            parts = [_compile(part) for part in condition]
            if any(part is None for part in parts):
                return None
            tests.append(_all_of(parts) if key == "$and" else _any_of(parts))  # type: ignore[arg-type]
            continue
        if not isinstance(key, str) or key.startswith("$") or not all(key.split(".")):
            return None
        test = _field_test(key, condition)
        if test is None:
            return None
        tests.append(test)
    return _all_of(tests)


def _all_of(tests: list[Test]) -> Test:
    """Every test holds (chained calls: no generator per document)."""
    if not tests:
        return lambda document: True
    first, *rest = tests
    if not rest:
        return first
    others = _all_of(rest)
    return lambda document: first(document) and others(document)


def _any_of(tests: list[Test]) -> Test:
    first, *rest = tests
    if not rest:
        return first
    others = _any_of(rest)
    return lambda document: first(document) or others(document)


def _resolver(path: str) -> Callable[[dict[str, Any]], Any]:
    """The single value mongomock's iter_key_candidates finds at `path` (NOTHING when absent,
    NO_CANDIDATES when the path goes through None or a scalar); Undecided through an array."""
    if "." not in path:
        return lambda document: document.get(path, NOTHING)
    *parents, last = path.split(".")

    def resolve(document: dict[str, Any]) -> Any:
        value: Any = document
        for part in parents:
            value = value.get(part, {})
            if type(value) is not dict:
                if isinstance(value, (list, tuple, dict)):
                    raise Undecided
                return NO_CANDIDATES
        return value.get(last, NOTHING)

    return resolve


# Compiled tests of short conditions (a status list, `visible: true`), which every request sends
# again; conditions naming many values (ids) are compiled per query.
_KEPT_TESTS: dict[tuple[str, str], Test | None] = {}
KEPT_TESTS = 4096
KEPT_TYPES = PLAIN - {datetime}
SHORT_LIST = 8


def _field_test(path: str, condition: Any) -> Test | None:
    """The test of one field's condition (kept for short conditions: _KEPT_TESTS)."""
    if not _short(condition):
        return _compile_field_test(path, condition)
    key = (path, repr(condition))
    if key in _KEPT_TESTS:
        return _KEPT_TESTS[key]
    test = _compile_field_test(path, condition)
    if len(_KEPT_TESTS) < KEPT_TESTS:
        _KEPT_TESTS[key] = test
    return test


def _short(condition: Any) -> bool:
    """A plain value, or operators on plain values or lists of at most SHORT_LIST of them; never
    a date (a request's `now` would fill the cache with conditions that never come again)."""
    if type(condition) in KEPT_TYPES:
        return True
    if type(condition) is not dict:
        return False
    for operand in condition.values():
        if type(operand) is list:
            if len(operand) > SHORT_LIST or any(type(v) not in KEPT_TYPES for v in operand):
                return False
        elif type(operand) not in KEPT_TYPES:
            return False
    return True


def _compile_field_test(path: str, condition: Any) -> Test | None:
    resolve = _resolver(path)
    if isinstance(condition, dict) and condition and all(str(k).startswith("$") for k in condition):
        return _operators_test(resolve, condition)
    if type(condition) not in PLAIN:
        return None
    null = condition is None

    def equals(document: dict[str, Any]) -> bool:
        """An array matches when it holds the value (or is it); None also matches absence."""
        value = resolve(document)
        if value is NO_CANDIDATES:
            return False
        if isinstance(value, (list, tuple)):
            return condition in value or condition == value
        return value == condition or (null and value is NOTHING)

    return equals


def _operators_test(resolve: Callable[[dict[str, Any]], Any], condition: dict) -> Test | None:
    if not set(condition) <= SUPPORTED:
        return None
    if "$all" in condition:
        return _all_test(resolve, condition)
    checks: list[Callable[[Any], bool]] = []
    for name, operand in condition.items():
        check = _operator(name, operand)
        if check is None:
            return None
        checks.append(check)
    # One value to test: mongomock's bookkeeping of negative ($ne, $nin) and positive conditions
    # reduces to the checks, except without any value, where only a purely negative one holds.
    positive = bool(set(condition) - {"$ne", "$nin"})

    check = checks[0] if len(checks) == 1 else lambda value: all(c(value) for c in checks)

    def test(document: dict[str, Any]) -> bool:
        value = resolve(document)
        if value is NO_CANDIDATES:
            return not positive
        return check(value)

    return test


def _all_test(resolve: Callable[[dict[str, Any]], Any], condition: dict) -> Test | None:
    wanted = condition["$all"]
    if len(condition) != 1 or not isinstance(wanted, list):
        return None
    if not all(type(x) in PLAIN for x in wanted):
        return None

    def test(document: dict[str, Any]) -> bool:
        value = resolve(document)
        if value is NO_CANDIDATES:
            held: Any = ()
        else:
            held = value if isinstance(value, list) else [value]
        return all(x in held for x in wanted)

    return test


def _operator(name: str, operand: Any) -> Callable[[Any], bool] | None:
    if name in ("$in", "$nin"):
        if not isinstance(operand, (list, tuple)) or not all(type(x) in PLAIN for x in operand):
            return None
        inside = _in(list(operand))
        return inside if name == "$in" else lambda value: not inside(value)
    if type(operand) not in PLAIN:
        return None
    if name == "$eq":
        return lambda value: _list_any(value, lambda v: _eq(v, operand))
    if name == "$ne":
        return lambda value: _list_every(value, lambda v: not _eq(v, operand))
    compare = RANGES[name]
    operand_type = COMPARE_TYPES[type(operand)]

    def in_range(value: Any) -> bool:
        if value is NOTHING:
            return False
        if isinstance(value, (list, tuple)):
            return any(_compare(compare, v, operand, operand_type) for v in value)
        return _compare(compare, value, operand, operand_type)

    return in_range


def _eq(value: Any, operand: Any) -> bool:
    if value is NOTHING and operand is None:
        return True
    return value == operand


def _list_any(value: Any, check: Callable[[Any], bool]) -> bool:
    if isinstance(value, (list, tuple)):
        return any(check(v) for v in value)
    return check(value)


def _list_every(value: Any, check: Callable[[Any], bool]) -> bool:
    if isinstance(value, (list, tuple)):
        return all(check(v) for v in value)
    return check(value)


def _compare(
    compare: Callable[[Any, Any], bool], value: Any, operand: Any, operand_type: int
) -> bool:
    """bson_compare without type order: values of another class never compare."""
    value_type = COMPARE_TYPES.get(type(value))
    if value_type is None:
        raise Undecided
    if value_type != operand_type:
        return False
    if operand is None:
        return compare(0, 0)
    return compare(value, operand)


def _in(operand: list[Any]) -> Callable[[Any], bool]:
    accepts_null = None in operand
    members = set(operand)  # plain values: a set finds exactly what == finds in the list

    def member(value: Any) -> bool:
        return value in members if type(value) in PLAIN else value in operand

    def inside(value: Any) -> bool:
        if value is NOTHING and accepts_null:
            return True
        if isinstance(value, (list, tuple)):
            return any(member(v) for v in value)
        return member(value)

    return inside
