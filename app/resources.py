"""Per-resource entry points: every `@id` the responses contain dereferences here."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from app.audience import (
    addressable_source,
    may_see,
    shown_alternates,
    withheld,
)
from app.errors import NotFound, item_not_found
from app.item_dumps import ItemDumper
from app.listing import sources as sources_listing
from app.listing.documents import document_view
from app.naming import collection_iri, context_iri
from app.realms import decide, realm_view
from app.reply import Reply
from app.request_context import RequestContext
from app.site import NodeType
from app.summaries import tag_summary
from schemas import shared
from schemas.items import ItemRole
from schemas.shapes import (
    NodeResourceSchema,
    RealmResourceSchema,
)


def reachable_type(context: RequestContext, plural: str) -> NodeType:
    for node_type in context.site.reachable_types():
        if node_type.plural == plural:
            return node_type
    raise NotFound(f'No resource "{collection_iri(plural)}"')


def source_item(context: RequestContext, plural: str, source_id: int) -> Reply:
    """A reachable source by id, under the publication and realm rules of web_response_by_path."""
    node_type = reachable_type(context, plural)
    source = addressable_source(context.site, source_id, context.visibility)
    if source is None or source["type"] != node_type.name:
        raise item_not_found()
    decide(source, context)  # raises 401 for a deny realm not granted
    item = ItemDumper(context, node_type.resource_groups())(source, ItemRole.RESOURCE)
    body = {"@context": context_iri(node_type.name), **item}
    node = source["node"]
    return Reply(body, source["locale"], node["ttl"], protected=bool(node["realm_ids"]),
                 alternates=shown_alternates(source, context))  # fmt: skip


def source_collection(context: RequestContext, plural: str, path: str, args: MultiDict) -> Reply:
    """A hydra:Collection of node sources (app/listing/sources.py); `args` without secrets."""
    body = sources_listing.collection(context, plural, path, args)
    locale = args.get("_locale") or context.site.default_translation.locale
    return Reply(body, locale)


def node_item(context: RequestContext, node_id: int, locale: str | None) -> Reply:
    """A node that has a source this request may see (not only a previewable one)."""
    generation = context.site.generation
    node = generation.node(node_id)
    sources = generation.sources_by_ids(list(node["sources"].values())) if node else []
    # withheld: a block hidden by a hide_blocks realm is not shown by its node either
    if not any(may_see(s, context) and not withheld(s, context) for s in sources):
        raise item_not_found()
    decide(sources[0], context)  # a deny realm covers the node, hence all its sources
    locale = sources_listing.shown_locale(context, locale)
    default = context.site.default_translation.locale
    tags = [
        tag_summary(t | {"id": t["_id"]}, locale, default) for t in generation.tags(node["tag_ids"])
    ]
    body = shared(NodeResourceSchema).dump(
        {"id": node["_id"], "visible": node["visible"], "position": node["position"], "tags": tags,
         "nodeName": node["node_name"], "nodeType": node["type"]}
    )  # fmt: skip
    return Reply(body, locale, protected=bool(node["realm_ids"]))


def document_item(context: RequestContext, document_id: int, locale: str | None) -> Reply:
    document = context.site.generation.document(document_id)
    if document is None:
        raise item_not_found()
    locale = sources_listing.shown_locale(context, locale)
    # as /api/documents lists it (§5: the item has the listed fields, not filename nor id)
    body = {"@context": context_iri("Document"), **document_view(document, locale)}
    return Reply(body, locale)


def realm_item(context: RequestContext, realm_id: int) -> Reply:
    realm = context.site.realms.get(realm_id)
    if realm is None:
        raise item_not_found()
    body = shared(RealmResourceSchema).dump(realm_view(realm))
    return Reply(body, context.site.default_translation.locale)
