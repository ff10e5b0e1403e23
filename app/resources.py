"""Per-resource entry points: every `@id` the responses contain dereferences here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from werkzeug.datastructures import MultiDict

from app import keyset
from app.audience import (
    addressable_source,
    denied_realm_ids,
    may_see,
    shown_alternates,
    withheld,
)
from app.errors import NotFound
from app.locale import resolve_translation
from app.naming import collection_iri, context_iri
from app.realms import decide, realm_view
from app.reply import Reply
from app.request_context import RequestContext
from app.site import NodeType
from app.store import COLLECTION_ORDERS
from app.summaries import document_summary, tag_summary
from app.web_response import ItemDumper
from schemas import shared
from schemas.shapes import (
    DocumentResourceSchema,
    NodeResourceSchema,
    NodeSourceCollectionSchema,
    RealmResourceSchema,
    TagResourceSchema,
)

ITEMS_PER_PAGE = 30
MAX_ITEMS_PER_PAGE = 100
MAX_PAGE = 1_000_000


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
        raise NotFound(f"No {node_type.name} {source_id}")
    decide(source, context)  # raises 401 for a deny realm not granted
    item = ItemDumper(context, frozenset(node_type.operation_groups()))(source, item=True)
    body = {"@context": context_iri(node_type.name), **item}
    node = source["node"]
    return Reply(body, source["locale"], node["ttl"], protected=bool(node["realm_ids"]),
                 alternates=shown_alternates(source, context))  # fmt: skip


@dataclass(frozen=True)
class CollectionQuery:
    """The parsed collection parameters (app.api.arguments.CollectionQuerySchema parses them)."""

    page: int
    per_page: int
    locale: str | None
    tags: list[str]
    visible: bool | None
    #: (COLLECTION_ORDERS key, "asc" or "desc"), in the order given
    order: list[tuple[str, str]]
    #: a keyset cursor (app/keyset.py: "" for the first page); None: page numbers
    cursor: str | None = None


def _page_iri(path: str, args: MultiDict, page: int | str, name: str = "page") -> str:
    kept = [(k, v) for k, v in args.items(multi=True) if k not in ("page", "cursor")]
    params = kept + [(name, str(page))]
    return f"{path}?{urlencode(params)}"


def source_collection(
    context: RequestContext, plural: str, parsed: CollectionQuery, path: str, args: MultiDict
) -> Reply:
    """A hydra:Collection of the shown sources of one reachable type in one translation; `args`
    (without secrets) are repeated in the page IRIs."""
    node_type = reachable_type(context, plural)
    translation = resolve_translation(
        context.site, locale=parsed.locale, accept_language=None, preview=context.visibility.preview
    )
    criteria = {
        "node_type": node_type.name,
        "locale": translation.locale,
        "visibility": context.visibility,
        "exclude_realms": denied_realm_ids(context, check_passwords=True),
        # An unknown slug becomes id 0, which no tag has: nothing matches, as it should.
        "tag_ids": [context.site.tag_ids.get(t, 0) for t in parsed.tags],
        "visible": parsed.visible,
        "order": parsed.order,
    }
    dump = ItemDumper(context, frozenset(node_type.operation_groups()))
    if parsed.cursor is not None:
        page = _cursor_page(context, criteria, parsed, path, args, dump)
        page["@context"] = context_iri(node_type.name)
        body = shared(NodeSourceCollectionSchema).dump(page)
        return Reply(body, translation.locale)
    members, total = context.site.generation.collection_page(
        **criteria, skip=(parsed.page - 1) * parsed.per_page, limit=parsed.per_page
    )
    last = max(1, -(-total // parsed.per_page))
    view: dict[str, Any] = {
        "@id": _page_iri(path, args, parsed.page),
        "@type": "hydra:PartialCollectionView",
        "hydra:first": _page_iri(path, args, 1),
        "hydra:last": _page_iri(path, args, last),
    }
    if parsed.page > 1:
        view["hydra:previous"] = _page_iri(path, args, parsed.page - 1)
    if parsed.page < last:
        view["hydra:next"] = _page_iri(path, args, parsed.page + 1)
    body = shared(NodeSourceCollectionSchema).dump(
        {
            "@context": context_iri(node_type.name),
            "@id": path,
            "hydra:totalItems": total,
            "hydra:member": [dump(s) for s in members],
            "hydra:view": view,
        }
    )
    return Reply(body, translation.locale)


def _cursor_page(
    context: RequestContext,
    criteria: dict[str, Any],
    parsed: CollectionQuery,
    path: str,
    args: MultiDict,
    dump: ItemDumper,
) -> dict[str, Any]:
    """A page of a keyset walk (`cursor`): no total (counting is what a cursor avoids) and only
    `hydra:next` (docs/performance.md, bounded collection pages)."""
    field = COLLECTION_ORDERS[parsed.order[0][0]]
    members, _ = context.site.generation.collection_page(
        **criteria,
        skip=0,
        limit=parsed.per_page + 1,  # one more tells whether a next page exists
        after=keyset.decode(parsed.cursor or "", field),
        keyset=True,
    )
    view: dict[str, Any] = {
        "@id": _page_iri(path, args, parsed.cursor or "", "cursor"),
        "@type": "hydra:PartialCollectionView",
        "hydra:first": _page_iri(path, args, "", "cursor"),
    }
    if len(members) > parsed.per_page:
        members = members[: parsed.per_page]
        view["hydra:next"] = _page_iri(path, args, keyset.encode(field, members[-1]), "cursor")
    return {"@id": path, "hydra:member": [dump(s) for s in members], "hydra:view": view}


def _locale(context: RequestContext, locale: str | None) -> str:
    return resolve_translation(
        context.site,
        locale=locale,
        accept_language=None,
        preview=context.visibility.preview,
    ).locale


def node_item(context: RequestContext, node_id: int, locale: str | None) -> Reply:
    """A node that has a source this request may see (not only a previewable one)."""
    generation = context.site.generation
    node = generation.node(node_id)
    sources = generation.sources_by_ids(list(node["sources"].values())) if node else []
    # withheld: a block hidden by a hide_blocks realm is not shown by its node either
    if not any(may_see(s, context) and not withheld(s, context) for s in sources):
        raise NotFound(f"No node {node_id}")
    decide(sources[0], context)  # a deny realm covers the node, hence all its sources
    locale = _locale(context, locale)
    default = context.site.default_translation.locale
    tags = [
        tag_summary(t | {"id": t["_id"]}, locale, default) for t in generation.tags(node["tag_ids"])
    ]
    body = NodeResourceSchema().dump(
        {"id": node["_id"], "visible": node["visible"], "position": node["position"], "tags": tags,
         "nodeName": node["node_name"], "nodeType": node["type"]}
    )  # fmt: skip
    return Reply(body, locale, protected=bool(node["realm_ids"]))


def document_item(context: RequestContext, document_id: int, locale: str | None) -> Reply:
    document = context.site.generation.document(document_id)
    if document is None:
        raise NotFound(f"No document {document_id}")
    locale = _locale(context, locale)
    summary = document_summary(document | {"id": document["_id"]}, locale)
    return Reply(DocumentResourceSchema().dump(summary), locale)


def tag_item(context: RequestContext, tag_id: int, locale: str | None) -> Reply:
    found = context.site.generation.tags([tag_id])
    if not found:
        raise NotFound(f"No tag {tag_id}")
    default = context.site.default_translation.locale
    locale = _locale(context, locale)
    summary = tag_summary(found[0] | {"id": tag_id}, locale, default)
    return Reply(TagResourceSchema().dump(summary), locale)


def realm_item(context: RequestContext, realm_id: int) -> Reply:
    realm = context.site.realms.get(realm_id)
    if realm is None:
        raise NotFound(f"No realm {realm_id}")
    body = RealmResourceSchema().dump(realm_view(realm))
    return Reply(body, context.site.default_translation.locale)
