"""Compiled dumps (schemas/dumping.py) give exactly what marshmallow's Schema.dump gives."""

from __future__ import annotations

from dataclasses import dataclass

import orjson
import pytest
from marshmallow import Schema, fields, post_dump, pre_dump

from schemas import dumping
from schemas.dumping import compile_dump, dumper
from tests.test_indexes import crawl  # noqa: F401 - the crawl of every endpoint, reused


@pytest.fixture(scope="module")
def compared(request, tier):
    """Every dump of a crawl of the demo site, made both ways and compared byte for byte. On the
    mongomock tier only: the two dumps are made in Python from the same documents, which the
    tier does not change; the crawl's reads run on FerretDB in tests/test_indexes.py (this
    second crawl took 465 s there)."""
    if tier != "mongomock":
        pytest.skip("two serialisers of the same documents: mongomock tier")
    patch = pytest.MonkeyPatch()
    seen: dict[str, int] = {}
    differing: list[str] = []

    def checked(schema: Schema):
        fast = compile_dump(schema)

        def dump(obj):
            ours, theirs = fast(obj), schema.dump(obj)
            name = type(schema).__name__
            seen[name] = seen.get(name, 0) + 1
            if ours != theirs or orjson.dumps(ours) != orjson.dumps(theirs):
                differing.append(name)
            return ours

        return dump

    patch.setattr(dumping, "ATTRIBUTE", "_checked_dump")  # fresh compilations for this crawl
    patch.setattr(dumping, "compile_dump", checked)
    try:
        request.getfixturevalue("crawl")
    finally:
        patch.undo()
    return seen, differing


def test_every_dump_of_the_crawl_is_the_same_both_ways(compared):
    seen, differing = compared
    assert differing == []
    assert sum(seen.values()) > 5000
    # the shapes of the service: WebResponse, walkers, items, common content, collections
    # the shapes of the service: the WebResponse (of the demo transformer), walkers, items and
    # their parts, common content
    shapes = {"FooBarWebResponseSchema", "WalkerSchema", "PageItemSchema", "ArticleItemSchema"}
    assert shapes | {"CommonContentSchema", "MenuWalkerSchema"} <= set(seen)


@dataclass
class Thing:
    name: object
    count: object
    items: object = None


class Inner(Schema):
    label = fields.String(attribute="name")
    count = fields.Integer()


class Odd(Schema):
    """Values of other types than stored, defaults, dotted attributes, dict attribute names."""

    class Meta:
        dump_only = ("ratio", "flag", "nested", "many", "items", "keys", "email")

    name = fields.String()
    count = fields.Integer(dump_default=7)
    ratio = fields.Float(attribute="count")
    flag = fields.Boolean(attribute="name")
    nested = fields.Nested(Inner, attribute="items")
    many = fields.List(fields.Nested(Inner), attribute="items")
    deep = fields.String(attribute="meta.title")
    items = fields.Raw()
    keys = fields.Dict(keys=fields.String(), values=fields.Integer(), attribute="meta")
    constant = fields.Constant("c")
    computed = fields.Function(lambda obj: type(obj).__name__)
    email = fields.Email(attribute="name")


class Hooked(Schema):
    name = fields.String()

    @pre_dump
    def named(self, data, **kwargs):
        return {"name": "unnamed", **data}

    @post_dump
    def upper(self, data, **kwargs):
        return {k: v.upper() for k, v in data.items()}


class Outer(Schema):
    one = fields.Nested(Hooked)
    many = fields.Nested(Hooked, many=True)
    listed = fields.List(fields.Nested(Hooked))


OBJECTS = [
    {"name": "a", "count": 3, "items": [{"name": "b", "count": 1.5}], "meta": {"title": 5}},
    {"name": b"bytes", "count": "12", "items": None, "meta": {"1": "2"}},
    {"name": None},
    {},
    Thing(name=3, count=2.0, items=[Thing(name="x", count=1)]),
]


def outcome(dump, obj):
    """The dump of `obj`, or the type of the error it raised."""
    try:
        return dump(obj)
    except Exception as error:  # noqa: BLE001 - compared, whatever it is
        return type(error)


@pytest.mark.parametrize("obj", OBJECTS, ids=str)
@pytest.mark.parametrize("exclude", [(), ("nested",), ("many", "items")])
def test_a_compiled_dump_is_marshmallow_s_dump(obj, exclude):
    schema = Odd(exclude=exclude)
    assert outcome(compile_dump(schema), obj) == outcome(schema.dump, obj)


def test_the_odd_values_are_serialised_not_only_failed():
    schema = Odd(exclude=("nested", "items"))
    assert compile_dump(schema)(OBJECTS[0])["keys"] == {"title": 5}
    assert compile_dump(schema)(OBJECTS[1])["count"] == 12


def test_dump_processors_run_as_marshmallow_runs_them():
    assert dumper(Hooked())({"name": "a"}) == {"name": "A"}
    assert dumper(Hooked())({}) == {"name": "UNNAMED"}
    assert compile_dump(Hooked(many=True))([{"name": "b"}, {}]) == [
        {"name": "B"},
        {"name": "UNNAMED"},
    ]
    outer = {"one": {}, "many": [{"name": "c"}, {}], "listed": [{"name": "d"}]}
    assert compile_dump(Outer())(outer) == Outer().dump(outer)
