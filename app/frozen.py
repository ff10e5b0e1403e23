"""Read-only values, shared instead of copied.

A generation's documents never change once written, so some values derived from them are built
once and shared by every request that needs them: the embedded store's results (app/embedded:
each document's read-only, time-zone aware twin, instead of a copy per read) and the dumps of
listed sources (app.item_dumps.ItemDumper). `FrozenDict` and `FrozenList` are `dict` and `list`
(isinstance, orjson, `dict(...)`, `{**...}` and reads work unchanged, at C speed); any write
raises `TypeError`, so code that would change a shared value fails loudly in the tests instead
of corrupting what other requests read. Code that wants to change one makes its own copy
(`dict(found)`, `copy.copy`, `copy.deepcopy`: plain copies).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, NoReturn

SCALARS = frozenset({str, int, bool, float, type(None)})


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(
        f"{type(self).__name__} is shared (a result of the embedded store, or a dump of a listed "
        "source) and cannot be changed: copy it first (dict(value), copy.deepcopy(value))"
    )


class FrozenDict(dict):
    """A dict that refuses every write."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self) -> tuple:
        return dict, (dict(self),)


class FrozenList(list):
    """A list that refuses every write."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(value, memo) for value in self]

    def __reduce__(self) -> tuple:
        return list, (list(self),)


def freeze(value: Any, other: Callable[[Any], Any] = copy.deepcopy) -> Any:
    """The read-only twin of a value: dicts and lists frozen all the way down, scalars kept,
    anything else given by `other` (a deep copy unless told)."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is dict or kind is FrozenDict:
        return FrozenDict((key, freeze(item, other)) for key, item in value.items())
    if kind is list or kind is FrozenList:
        return FrozenList(freeze(item, other) for item in value)
    return other(value)
