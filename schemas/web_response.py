"""Output schemas of the WebResponse and of walkers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields

from app.naming import context_iri
from walkers.walker import Walker


class WebResponseSchema(Schema):
    """Fields of seed.md's WebResponse table, in its order; parts arrive already serialised."""

    context = fields.Constant(context_iri("WebResponse"), data_key="@context")
    id = fields.String(data_key="@id")
    type = fields.Constant("WebResponse", data_key="@type")
    item = fields.Raw()
    breadcrumbs = fields.Raw()
    head = fields.Raw()
    blocks = fields.Raw()
    realms = fields.Raw()
    hiding_blocks = fields.Boolean(data_key="hidingBlocks")


def dump_walker(
    walker: Walker, dump_item: Callable[[dict[str, Any]], dict], *, counts: bool
) -> dict[str, Any]:
    """A walker in seed.md's field order; childrenCount/level/maxLevel only with `counts`
    (the children_count and walker_level groups)."""
    out: dict[str, Any] = {
        "@type": walker.kind,
        "@id": walker.blank_id,
        "children": [dump_walker(c, dump_item, counts=counts) for c in walker.children],
    }
    if counts:
        out["childrenCount"] = len(walker.children)
    out["item"] = dump_item(walker.item)
    if counts:
        out["level"] = walker.level
        out["maxLevel"] = walker.max_level
    return out
