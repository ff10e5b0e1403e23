"""Building the WebResponse of a resolved path: the built-in transformer and its parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema

from app.audience import shown_alternates, walker_context, withheld
from app.errors import NotFound
from app.head import build_head
from app.item_dumps import ItemDumper
from app.naming import breadcrumbs_id
from app.paths import normalise_path
from app.realms import decide
from app.reply import Reply, ttl_seconds
from app.request_context import RequestContext
from app.resolution import NOT_RESOLVED, Resolution, resolve_path
from schemas import shared
from schemas.dumping import dumper
from schemas.items import ItemRole
from schemas.shapes import RedirectionSchema
from schemas.web_response import WebResponseSchema, serialise_items
from walkers.walker import AUTO_CHILDREN, Walker, walk

BLOCKS_MAX_LEVEL = 5
BREADCRUMB_GROUPS = frozenset({"nodes_sources_base", "urls", "tag_base"})


@dataclass
class WebResponse:
    """The resource returned by web_response_by_path: `item` and the breadcrumbs' items are
    serialised by their node type's schema, blocks are walkers; the schema does the rest."""

    id: str = ""
    item: dict[str, Any] | None = None
    breadcrumbs: dict[str, Any] = field(default_factory=dict)
    head: dict[str, Any] = field(default_factory=dict)
    blocks: list[Walker] = field(default_factory=list)
    realms: list[dict[str, Any]] = field(default_factory=list)
    hiding_blocks: bool = False
    #: Seconds a client may keep the page (Roadiz: the node's TTL in minutes × 60; 0 for none).
    max_age: int = 0


def max_age(source: dict[str, Any]) -> int:
    return ttl_seconds(source["node"]["ttl"])


def breadcrumbs(source: dict[str, Any], context: RequestContext, dump: ItemDumper) -> dict:
    """Visible ancestors with a source in the item's translation, root first."""
    ancestors = source["node"]["ancestors"] if source["reachable"] else []
    found = {
        s["node_id"]: s
        for s in context.site.generation.sources_of_nodes(
            ancestors, source["locale"], context.visibility, with_children=False
        )
    }
    items = [found[a] for a in ancestors if a in found and not withheld(found[a], context)]
    return {
        "@type": "Breadcrumbs",
        "@id": breadcrumbs_id(source["_id"]),
        "items": [dump(s) for s in items],
    }


def blocks(source: dict[str, Any], context: RequestContext, dump: ItemDumper) -> list[Walker]:
    walking = walker_context(context, source["locale"], source)
    root = walk(source, AUTO_CHILDREN, BLOCKS_MAX_LEVEL, walking, context.definitions)
    return [serialise_items(child, dump) for child in root.children]


class WebResponseTransformer:
    """The built-in transformer: fills a WebResponse from a resolved path."""

    web_response_class: type[WebResponse] = WebResponse
    schema_class: type[Schema] = WebResponseSchema

    def create_web_response(self) -> WebResponse:
        return self.web_response_class()

    def transform(
        self, data: Resolution, context: RequestContext, output: WebResponse | None = None
    ) -> WebResponse | None:
        output = output if output is not None else self.create_web_response()
        output.id = context.request_iri
        site = context.site
        source = data.source
        if source is None:  # an external redirection
            locale = site.default_translation.locale
            output.item = shared(RedirectionSchema).dump(data.redirection)
            output.breadcrumbs = {"@type": "Breadcrumbs", "@id": breadcrumbs_id(None), "items": []}
            output.head = build_head(context, locale)
            return output
        decision = decide(source, context)
        groups = frozenset(site.node_types[source["type"]].operation_groups())
        dump = ItemDumper(context, groups)
        output.item = dump(source, ItemRole.WEB_RESPONSE)
        output.max_age = max_age(source)
        output.breadcrumbs = breadcrumbs(source, context, ItemDumper(context, BREADCRUMB_GROUPS))
        output.head = build_head(context, source["locale"], source)
        output.blocks = [] if decision.hiding_blocks else blocks(source, context, dump)
        output.realms = decision.realms
        output.hiding_blocks = decision.hiding_blocks
        return output


def web_response_reply(context: RequestContext, path: str, transformer: Any) -> Reply:
    """The WebResponse of the item at `path`, as `transformer` (the configured one) builds and
    serialises it; 404 when nothing is there or the transformer answers None."""
    resolution = resolve_path(normalise_path(path), context.site, context.visibility)
    web_response = transformer.transform(resolution, context)
    if web_response is None:
        raise NotFound(NOT_RESOLVED)
    body = dumper(shared(transformer.schema_class))(web_response)
    source = resolution.source
    if source is None:  # an external redirection
        return Reply(body, context.site.default_translation.locale)
    return Reply(
        body,
        source["locale"],
        source["node"]["ttl"],
        protected=bool(web_response.realms),
        alternates=shown_alternates(source, context),
        content_location=resolution.content_location,
    )
