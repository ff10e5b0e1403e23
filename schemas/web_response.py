"""Output schema of the WebResponse, and the serialisation of walkers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields

from app.naming import context_iri
from schemas.shapes import BreadcrumbsSchema, NodesSourcesHeadSchema, RealmSchema, walker_schema
from walkers.walker import Walker


class WebResponseSchema(Schema):
    """Fields of seed.md's WebResponse table, in its order. `item` and the breadcrumbs' items
    arrive serialised by their node type's schema; blocks are walkers (walkers.walker.Walker)."""

    context = fields.Constant(
        context_iri("WebResponse"),
        data_key="@context",
        required=True,
        metadata={"type": "string", "enum": [context_iri("WebResponse")]},
    )
    id = fields.String(data_key="@id", required=True)
    type = fields.Constant(
        "WebResponse",
        data_key="@type",
        required=True,
        metadata={"type": "string", "enum": ["WebResponse"]},
    )
    item = fields.Dict(required=True)
    breadcrumbs = fields.Nested(BreadcrumbsSchema, required=True)
    head = fields.Nested(NodesSourcesHeadSchema, required=True)
    blocks = fields.List(fields.Nested(walker_schema(False)), required=True)
    realms = fields.List(fields.Nested(RealmSchema), required=True)
    hiding_blocks = fields.Boolean(data_key="hidingBlocks", required=True)
    max_age = fields.Integer(data_key="maxAge", required=True)


def serialise_items(walker: Walker, dump_item: Callable[[dict[str, Any]], dict]) -> Walker:
    """Serialise the item of `walker` and of its descendants (`dumped`), for walker_schema()."""
    walker.dumped = dump_item(walker.item)
    for child in walker.children:
        serialise_items(child, dump_item)
    return walker
