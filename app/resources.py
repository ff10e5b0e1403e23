"""Per-resource entry points: every `@id` the responses contain dereferences here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import MultiDict

from app.context import RequestContext
from app.errors import NotFound
from app.fixture.materialise import document_summary, tag_summary
from app.listing import sources as sources_listing
from app.locale import resolve_translation
from app.realms import decide, may_see, realm_view
from app.site import NodeType
from app.web_response import ItemDumper
from schemas.fields import document_dumper, node_schema

DISPLAY = frozenset({"document_display", "tag_base", "tag_parent"})


@dataclass(frozen=True)
class Reply:
    """A resource body and what its caching headers depend on."""

    body: dict[str, Any]
    locale: str | None = None  # None: the default translation
    ttl_minutes: int | None = None  # None: the configured default s-maxage
    source: dict[str, Any] | None = None  # for the Link alternates
    protected: bool = False  # covered by a realm: never stored in the response cache


def reachable_type(context: RequestContext, plural: str) -> NodeType:
    for node_type in context.site.reachable_types():
        if node_type.plural == plural:
            return node_type
    raise NotFound(f'No resource "/api/{plural}"')


def source_item(context: RequestContext, plural: str, source_id: int) -> Reply:
    """A reachable source by id, under the publication and realm rules of web_response_by_path."""
    node_type = reachable_type(context, plural)
    source = context.site.generation.source(source_id, context.visibility)
    if source is None or source["type"] != node_type.name:
        raise NotFound(f"No {node_type.name} {source_id}")
    translation = context.site.translations[source["locale"]]
    if not (translation.available or context.visibility.preview):
        raise NotFound(f"No {node_type.name} {source_id}")
    decide(source, context)  # raises 401 for a deny realm not granted
    item = ItemDumper(context, frozenset(node_type.operation_groups()))(source, item=True)
    body = {"@context": f"/api/contexts/{node_type.name}", **item}
    node = source["node"]
    return Reply(body, source["locale"], node["ttl"], source, protected=bool(node["realm_ids"]))


def source_collection(context: RequestContext, plural: str, path: str, args: MultiDict) -> Reply:
    """A hydra:Collection of node sources (app/listing/sources.py)."""
    body = sources_listing.collection(context, plural, path, args)
    return Reply(body, args.get("_locale"))


def _locale(context: RequestContext, args: MultiDict) -> str:
    return resolve_translation(
        context.site,
        locale=args.get("_locale"),
        accept_language=None,
        preview=context.visibility.preview,
    ).locale


def node_item(context: RequestContext, node_id: int, args: MultiDict) -> Reply:
    """A node that has a source this request may see (not only a previewable one)."""
    generation = context.site.generation
    node = generation.node(node_id)
    sources = generation.sources_by_ids(list(node["sources"].values())) if node else []
    if not any(may_see(s, context) for s in sources):
        raise NotFound(f"No node {node_id}")
    decide(sources[0], context)  # a deny realm covers the node, hence all its sources
    locale = _locale(context, args)
    default = context.site.default_translation.locale
    tags = [
        tag_summary(t | {"id": t["_id"]}, locale, default) for t in generation.tags(node["tag_ids"])
    ]
    shown = node_schema(DISPLAY, with_position=True)().dump(
        {"id": node["_id"], "visible": node["visible"], "position": node["position"], "tags": tags}
    )
    body = {"@context": "/api/contexts/Node", **shown, "nodeName": node["node_name"],
            "nodeType": node["type"]}  # fmt: skip
    return Reply(body, locale, protected=bool(node["realm_ids"]))


def document_item(context: RequestContext, document_id: int, args: MultiDict) -> Reply:
    document = context.site.generation.document(document_id)
    if document is None:
        raise NotFound(f"No document {document_id}")
    locale = _locale(context, args)
    summary = document_summary(document | {"id": document["_id"]}, locale)
    return Reply({"@context": "/api/contexts/Document", **document_dumper(DISPLAY).dump(summary)},
                 locale)  # fmt: skip


def realm_item(context: RequestContext, realm_id: int) -> Reply:
    realm = context.site.realms.get(realm_id)
    if realm is None:
        raise NotFound(f"No realm {realm_id}")
    return Reply({"@context": "/api/contexts/Realm", **realm_view(realm)})
