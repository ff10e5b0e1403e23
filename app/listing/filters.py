"""Filters of API Platform and Roadiz, each spelled as Roadiz spells it, compiled to MongoDB.

A filter declares the query variables it reads (for the hydra:search IriTemplate, the OpenAPI
parameters and the refusal of unknown names) and adds its conditions to a QueryBuilder.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.errors import BadRequest
from app.listing.params import (
    DATE_OPERATORS,
    DATE_STRATEGIES,
    ID_DIGITS,
    RANGE_OPERATORS,
    Params,
    QueryBuilder,
    archive_bounds,
    boolean,
    direction,
    integer,
    number,
    parse_date,
    stored_bound,
)


@dataclass(frozen=True)
class Variable:
    """One query variable: its name, the property it filters, its OpenAPI schema and meaning."""

    name: str
    property: str
    schema: dict[str, Any]
    description: str


STRING = {"type": "string"}
BOOLEAN = {"type": "string", "enum": ["true", "false", "1", "0"]}
LOOSE_BOOLEAN = {"type": "string", "enum": ["1", "true", "on", "yes", "0", "false", "off", "no"]}
DATE = {"type": "string", "description": "ISO 8601 date or date-time, or relative as PHP reads it"}
# asc/desc in any case: a pattern, as generated clients refuse enum values equal but for case
ORDER = {"type": "string", "pattern": "^([aA][sS][cC]|[dD][eE][sS][cC])$"}
INTEGER = {"type": "string", "pattern": r"^-?[0-9]{1,18}$"}
ID = {"type": "string", "pattern": f"^{ID_DIGITS.pattern}$"}  # what params.integer takes


def id_or_iri(iri_prefix: str) -> dict[str, Any]:
    """The schema of an id filter that takes its resource's IRI too (`/api/tags/5`)."""
    return {"type": "string", "pattern": f"^({re.escape(iri_prefix)})?{ID_DIGITS.pattern}$"}


ARRAY = "[]"


def _array(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": schema}


def _values(params: Params, name: str) -> list[str]:
    """Values of `name` and `name[]` together."""
    return [*params.all(name), *params.all(name + ARRAY)]


@dataclass(frozen=True)
class Env:
    """What filters may need of the request beyond its parameters."""

    now: datetime
    # translate values before matching (e.g. tag names -> tag ids); key: a filter's `lookup`
    lookups: dict[str, Callable[[str, str], Any]]
    # the condition a use of a tag meets when it counts for this request (NodesTags; asked only
    # when the filter is: app.audience.counted_tag_use checks passwords)
    counted_use: Callable[[], dict[str, Any]] | None = None


class Filter:
    def variables(self) -> list[Variable]:
        raise NotImplementedError

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Partial(Filter):
    """`title=v`: contains v (case-insensitive, as under MySQL collations); `title[]`: any of."""

    param: str
    path: str

    def variables(self) -> list[Variable]:
        what = f"{self.param} contains the value (case-insensitive)"
        return [
            Variable(self.param, self.param, STRING, what),
            Variable(self.param + ARRAY, self.param, _array(STRING), what + "; any of"),
        ]

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        values = _values(params, self.param)
        if not values:
            return
        patterns = [{self.path: _contains(v)} for v in values]
        builder.add_clause(patterns[0] if len(patterns) == 1 else {"$or": patterns})


PARTIAL_OPTIONS = "i"
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def _contains(value: str) -> dict[str, str]:
    """The condition of a partial match: the escaped value, case-insensitive."""
    return {"$regex": re.escape(value), "$options": PARTIAL_OPTIONS}


def partial_values(clause: dict[str, Any]) -> list[tuple[str, str]] | None:
    """The (path, value) pairs of a clause that Partial built (`_contains`; any of them
    matches), or None for any other clause."""
    patterns = clause["$or"] if set(clause) == {"$or"} else [clause]
    found = []
    for pattern in patterns:
        if not isinstance(pattern, dict) or len(pattern) != 1:
            return None
        ((path, condition),) = pattern.items()
        if not isinstance(condition, dict) or set(condition) != {"$regex", "$options"}:
            return None
        if condition["$options"] != PARTIAL_OPTIONS or not isinstance(condition["$regex"], str):
            return None
        found.append((path, _ESCAPED.sub(r"\1", condition["$regex"])))  # re.escape undone
    return found


@dataclass(frozen=True)
class Boolean(Filter):
    param: str
    path: str
    loose: bool = False

    def variables(self) -> list[Variable]:
        schema = LOOSE_BOOLEAN if self.loose else BOOLEAN
        return [Variable(self.param, self.param, schema, f"{self.param} is true or false")]

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        value = params.get(self.param)
        if value is not None:
            builder.add(self.path, boolean(self.param, value, loose=self.loose))


@dataclass(frozen=True)
class Date(Filter):
    """`f[before|strictly_before|after|strictly_after]`, and `f[archive]` (YYYY[-MM[-DD]])."""

    param: str
    path: str
    archive: bool = False

    def variables(self) -> list[Variable]:
        found = [
            Variable(
                f"{self.param}[{s}]",
                self.param,
                DATE,
                f"{self.param} {s.replace('_', ' ')} the date",
            )
            for s in DATE_STRATEGIES
        ]
        if self.archive:
            found.append(
                Variable(
                    f"{self.param}[archive]",
                    self.param,
                    {"type": "string", "pattern": r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$"},
                    f"{self.param} in the year, month or day (YYYY, YYYY-MM, YYYY-MM-DD)",
                )
            )
        return found

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        for strategy in DATE_STRATEGIES:
            name = f"{self.param}[{strategy}]"
            value = params.get(name)
            if value is not None:
                operator = DATE_OPERATORS[strategy]
                moment = parse_date(name, value, env.now)
                builder.add(self.path, {operator: stored_bound(operator, moment)})
        value = params.get(f"{self.param}[archive]") if self.archive else None
        if value is not None:
            start, end = archive_bounds(value, env.now)
            builder.add(self.path, {"$gte": start, "$lte": stored_bound("$lte", end)})


@dataclass(frozen=True)
class Exact(Filter):
    """`f=v` equals; `f[]=a&f[]=b` any of. `kind`: "str", "int" or "iri" (id or IRI); `lookup`
    names an Env lookup turning a value into the stored one."""

    param: str
    path: str
    kind: str = "str"
    iri_prefix: str | None = None
    lookup: str | None = None
    prefix: str = ""  # "not" / "intersect": the variable is `not[param]`

    @property
    def name(self) -> str:
        return f"{self.prefix}[{self.param}]" if self.prefix else self.param

    def schema(self) -> dict[str, Any]:
        if self.kind == "iri":
            return id_or_iri(self.iri_prefix or "")
        return ID if self.kind == "int" else STRING

    def describe(self) -> str:
        accepted = {"iri": f"an id or IRI {self.iri_prefix}<id>", "int": "an id"}.get(
            self.kind, "a value"
        )
        meaning = {"not": "is not", "intersect": "has every one of"}.get(self.prefix, "equals")
        return f"{self.param} {meaning} {accepted}"

    def variables(self) -> list[Variable]:
        what = self.describe()
        return [
            Variable(self.name, self.param, self.schema(), what),
            Variable(self.name + ARRAY, self.param, _array(self.schema()), what + " (list)"),
        ]

    def convert(self, name: str, value: str, env: Env) -> Any:
        if self.kind == "iri":
            converted: Any = integer(name, value, self.iri_prefix)
        elif self.kind == "int":
            converted = integer(name, value)
        else:
            converted = value
        return env.lookups[self.lookup](name, converted) if self.lookup else converted

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        raw = _values(params, self.name)
        if not raw:
            return
        values = [self.convert(self.name, v, env) for v in raw]
        if self.prefix == "not":
            builder.add(self.path, {"$nin": values})
        elif self.prefix == "intersect":
            builder.add(self.path, {"$all": values})
        else:
            builder.add(self.path, values[0] if len(values) == 1 else {"$in": values})


@dataclass(frozen=True)
class Range(Filter):
    """`f=n`, `f[]=n` (any of), `f[between]=a..b`, `f[gt|gte|lt|lte]=n` (integers)."""

    param: str
    path: str

    def variables(self) -> list[Variable]:
        found = [
            Variable(self.param, self.param, INTEGER, f"{self.param} equals"),
            Variable(self.param + ARRAY, self.param, _array(INTEGER), f"{self.param} is any of"),
            Variable(
                f"{self.param}[between]",
                self.param,
                {"type": "string", "pattern": r"^-?[0-9]+\.\.-?[0-9]+$"},
                f"{self.param} from a to b inclusive (a..b)",
            ),
        ]
        found += [
            Variable(f"{self.param}[{op}]", self.param, INTEGER, f"{self.param} {op}")
            for op in RANGE_OPERATORS
        ]
        return found

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        exact = [number(self.param, v) for v in _values(params, self.param)]
        if exact:
            builder.add(self.path, exact[0] if len(exact) == 1 else {"$in": exact})
        between = params.get(f"{self.param}[between]")
        if between is not None:
            low, sep, high = between.partition("..")
            name = f"{self.param}[between]"
            if not sep:
                raise BadRequest(f'"{name}" must be two integers a..b, not "{between[:80]}"')
            builder.add(self.path, {"$gte": number(name, low), "$lte": number(name, high)})
        for op, operator in RANGE_OPERATORS.items():
            value = params.get(f"{self.param}[{op}]")
            if value is not None:
                builder.add(self.path, {operator: number(f"{self.param}[{op}]", value)})


@dataclass(frozen=True)
class TagGroups(Filter):
    """`tagGroup[]=a,b&tagGroup[]=c`: tag names, any inside a comma group, every group."""

    path: str
    lookup: str

    def variables(self) -> list[Variable]:
        return [
            Variable(
                "tagGroup[]",
                "tagGroup",
                _array(STRING),
                "tag names: any of a comma-separated group, all groups",
            )
        ]

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        for group in params.all("tagGroup[]") + params.all("tagGroup"):
            names = [n for n in group.split(",") if n]
            if not names:
                raise BadRequest('"tagGroup[]" must be comma-separated tag names')
            values = [env.lookups[self.lookup]("tagGroup[]", n) for n in names]
            builder.add_clause({self.path: {"$in": values}})


@dataclass(frozen=True)
class NodesTags(Filter):
    """Roadiz's NodesTagsFilter on tags (app/fixture/tag_uses.py): `nodesTags=true` tags some
    node the request may see carries, `false` the others; `nodesTags[visible]`,
    `nodesTags[nodeTypeName]` and `nodesTags[parentNodeName]` (`[]`: any of) narrow which nodes
    count, and imply `true`."""

    path: str
    CONDITIONS = (("nodeTypeName", "type"), ("parentNodeName", "parent"))

    def variables(self) -> list[Variable]:
        some = "some node the request may see carries the tag"
        found = [
            Variable("nodesTags", "nodesTags", LOOSE_BOOLEAN, f"true: {some}; false: none does"),
            Variable("nodesTags[visible]", "nodesTags", LOOSE_BOOLEAN,
                     f"{some}, of this visibility"),
        ]  # fmt: skip
        for param, _ in self.CONDITIONS:
            name, what = f"nodesTags[{param}]", f"{some}, of this {param}"
            found += [
                Variable(name, "nodesTags", STRING, what),
                Variable(name + ARRAY, "nodesTags", _array(STRING), what + "; any of"),
            ]
        return found

    def apply(self, params: Params, builder: QueryBuilder, env: Env) -> None:
        given = params.get("nodesTags")
        wanted = True if given is None else boolean("nodesTags", given, loose=True)
        conditions: dict[str, Any] = {}
        visible = params.get("nodesTags[visible]")
        if visible is not None:
            conditions["visible"] = boolean("nodesTags[visible]", visible, loose=True)
        for param, key in self.CONDITIONS:
            values = _values(params, f"nodesTags[{param}]")
            if values:
                conditions[key] = {"$in": values}
        if given is None and not conditions:
            return
        if not wanted and conditions:
            raise BadRequest('"nodesTags=false" cannot be combined with "nodesTags[...]": give one')
        if env.counted_use is None:
            raise TypeError("NodesTags needs the request's counted_use")
        use = {**env.counted_use(), **conditions}
        some = {self.path: {"$elemMatch": use}}
        builder.add_clause(some if wanted else {self.path: {"$not": {"$elemMatch": use}}})


@dataclass(frozen=True)
class Order:
    """`order[param]=asc|desc` sorts on `path`; keys apply in query order."""

    param: str
    path: str

    @property
    def name(self) -> str:
        return f"order[{self.param}]"

    def variable(self) -> Variable:
        return Variable(self.name, self.param, ORDER, f"order by {self.param}, asc or desc")


def sort_of(params: Params, orders: list[Order]) -> list[tuple[str, int]]:
    by_name = {o.name: o for o in orders}
    sort = []
    for name in params.names:
        order = by_name.get(name)
        if order is not None:
            sort.append((order.path, direction(name, params.get(name) or "")))
    return sort
