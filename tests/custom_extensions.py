"""Test-only extensions, registered through the public mechanisms (configuration dotted paths)."""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import fields

from app.web_response import WebResponse
from schemas.web_response import WebResponseSchema
from walkers.definitions import DefinitionRegistry


class ReversedGroupDefinition:
    """GroupBlock children in reverse position order; their own children are still collected."""

    node_type = "GroupBlock"
    stops_collection = False

    def children(self, source, context):
        found = context.generation.sources_of_nodes(
            source["node"]["children"], context.locale, context.visibility
        )
        return sorted(found, key=lambda s: s["node"]["position"], reverse=True)


def register(registry: DefinitionRegistry) -> None:
    registry.register(ReversedGroupDefinition())


@dataclass
class ShoutingWebResponse(WebResponse):
    shout: str = ""


class ShoutingSchema(WebResponseSchema):
    shout = fields.String()


class ShoutingTransformer:
    """Adds `shout` (the item title in capitals); answers None (404) for the blog."""

    web_response_class = ShoutingWebResponse
    schema_class = ShoutingSchema
    openapi_properties = {"shout": {"type": "string"}}

    def __init__(self, inner):
        self.inner = inner

    def transform(self, data, context, output=None):
        if data.source is not None and data.source["slug"] == "blog":
            return None
        output = self.inner.transform(data, context, output or ShoutingWebResponse())
        output.shout = output.item.get("title", "").upper()
        return output
