"""Per-resource entry points: every `@id` the responses contain dereferences here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from pymongo import ASCENDING, DESCENDING
from werkzeug.datastructures import MultiDict

from app import keyset
from app.context import RequestContext
from app.errors import BadRequest, NotFound
from app.fixture.materialise import document_summary, tag_summary
from app.locale import resolve_translation
from app.realms import decide, denied_realm_ids, may_see, realm_view
from app.redact import SECRET_PARAMETERS
from app.site import NodeType
from app.web_response import ItemDumper
from schemas.fields import document_dumper, node_schema, tag_schema

ITEMS_PER_PAGE = 30
MAX_ITEMS_PER_PAGE = 100
ORDERS = {"publishedAt": "published_at", "position": "node.position"}
DISPLAY = frozenset({"document_display", "tag_base", "tag_parent"})
_DIGITS = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() also accepts "²"
_SLUGS = re.compile(r"[a-z0-9][a-z0-9._-]*(,[a-z0-9][a-z0-9._-]*)*")


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


@dataclass(frozen=True)
class CollectionQuery:
    page: int
    per_page: int
    locale: str | None
    tags: list[str]
    visible: bool | None
    sort: list[tuple[str, int]]
    cursor: str | None = None  # a keyset cursor (app/keyset.py); None: page numbers


def _int(args: MultiDict, name: str, default: int, low: int, high: int) -> int:
    value = args.get(name)
    if value is None:
        return default
    if not _DIGITS.fullmatch(value) or not low <= int(value) <= high:
        raise BadRequest(f"{name} must be an integer from {low} to {high}")
    return int(value)


def parse_collection(args: MultiDict) -> CollectionQuery:
    """Strict parsing of the collection parameters; anything malformed is a 400."""
    tags = args.get("tags")
    if tags is not None and not _SLUGS.fullmatch(tags):
        raise BadRequest("tags must be comma-separated tag slugs")
    visible = args.get("node.visible")
    if visible not in (None, "true", "false"):
        raise BadRequest("node.visible must be true or false")
    sort = []
    for key, value in args.items(multi=True):
        if key.startswith("order[") and key.endswith("]"):
            field = ORDERS.get(key[6:-1])
            if field is None or value not in ("asc", "desc"):
                raise BadRequest("order must be order[publishedAt] or order[position], asc or desc")
            sort.append((field, ASCENDING if value == "asc" else DESCENDING))
    cursor = args.get("cursor")
    if cursor is not None and "page" in args:
        raise BadRequest("page and cursor cannot be combined: follow hydra:next")
    return CollectionQuery(
        page=_int(args, "page", 1, 1, 1_000_000),
        per_page=_int(args, "itemsPerPage", ITEMS_PER_PAGE, 1, MAX_ITEMS_PER_PAGE),
        locale=args.get("_locale"),
        tags=tags.split(",") if tags else [],
        visible=None if visible is None else visible == "true",
        # _id breaks ties in the direction of the last key, as the indexes are built
        sort=[*(sort := sort or [("published_at", DESCENDING)]), ("_id", sort[-1][1])],
        cursor=cursor,
    )


def _page_iri(path: str, args: MultiDict, page: int | str, name: str = "page") -> str:
    dropped = {"page", "cursor", *SECRET_PARAMETERS}
    kept = [(k, v) for k, v in args.items(multi=True) if k not in dropped]
    params = kept + [(name, str(page))]
    return f"{path}?{urlencode(params)}"


def source_collection(context: RequestContext, plural: str, path: str, args: MultiDict) -> Reply:
    """A hydra:Collection of the shown sources of one reachable type in one translation."""
    node_type = reachable_type(context, plural)
    parsed = parse_collection(args)
    translation = resolve_translation(
        context.site, locale=parsed.locale, accept_language=None, preview=context.visibility.preview
    )
    denied = denied_realm_ids(context)
    query: dict[str, Any] = {"type": node_type.name, "locale": translation.locale}
    if denied:
        query["node.realm_ids"] = {"$nin": denied}
    if parsed.tags:
        # Ids, not `node.tags.slug`: FerretDB does not match $all through arrays of documents.
        # An unknown slug becomes id 0, which no tag has: nothing matches, as it should.
        query["node.tag_ids"] = {"$all": [context.site.tag_ids.get(t, 0) for t in parsed.tags]}
    if parsed.visible is not None:
        query["node.visible"] = parsed.visible
    dump = ItemDumper(context, frozenset(node_type.operation_groups()))
    if parsed.cursor is not None:
        locale = translation.locale
        return _cursor_page(context, (node_type.name, locale), path, args, parsed, query, dump)
    members, total = context.site.generation.sources_page(
        query,
        context.visibility,
        sort=parsed.sort,
        skip=(parsed.page - 1) * parsed.per_page,
        limit=parsed.per_page,
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
    body = {
        "@context": f"/api/contexts/{node_type.name}",
        "@id": path,
        "@type": "hydra:Collection",
        "hydra:totalItems": total,
        "hydra:member": [dump(s) for s in members],
        "hydra:view": view,
    }
    return Reply(body, translation.locale)


def _cursor_page(
    context: RequestContext,
    type_and_locale: tuple[str, str],
    path: str,
    args: MultiDict,
    parsed: CollectionQuery,
    query: dict[str, Any],
    dump: ItemDumper,
) -> Reply:
    """A page of a keyset walk (`cursor`): no total (counting is what a cursor avoids) and only
    `hydra:next` (docs/performance.md, bounded collection pages)."""
    type_name, locale = type_and_locale
    field = parsed.sort[0][0]
    members, _ = context.site.generation.sources_page(
        query,
        context.visibility,
        sort=parsed.sort,
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
    body = {
        "@context": f"/api/contexts/{type_name}",
        "@id": path,
        "@type": "hydra:Collection",
        "hydra:member": [dump(s) for s in members],
        "hydra:view": view,
    }
    return Reply(body, locale)


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


def tag_item(context: RequestContext, tag_id: int, args: MultiDict) -> Reply:
    found = context.site.generation.tags([tag_id])
    if not found:
        raise NotFound(f"No tag {tag_id}")
    default = context.site.default_translation.locale
    locale = _locale(context, args)
    summary = tag_summary(found[0] | {"id": tag_id}, locale, default)
    return Reply({"@context": "/api/contexts/Tag", **tag_schema(DISPLAY)().dump(summary)}, locale)


def realm_item(context: RequestContext, realm_id: int) -> Reply:
    realm = context.site.realms.get(realm_id)
    if realm is None:
        raise NotFound(f"No realm {realm_id}")
    return Reply({"@context": "/api/contexts/Realm", **realm_view(realm)})
