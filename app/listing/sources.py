"""Node-source collections: `/api/<plural>` of a reachable type, `/api/nodes_sources` of all.

Roadiz applies the publication rule and the route's type; this service also applies translation
availability and realms (deny, hide_blocks), so that a collection never shows what the item
would refuse. Visibility stays a filter (`node.visible`), as in Roadiz.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import MultiDict

from app import keyset
from app.audience import denied_realm_ids, hidden_realm_ids
from app.errors import BadRequest, NotFound
from app.item_dumps import ItemDumper
from app.listing import calendar, hydra, listings, plain, titles
from app.listing.filters import (
    Boolean,
    Date,
    Env,
    Exact,
    Filter,
    Order,
    Partial,
    Range,
    TagGroups,
    Variable,
    sort_of,
)
from app.listing.params import Page, Params, QueryBuilder, boolean, pagination
from app.listing.plain import site_scope
from app.listing.properties import requested, sparse
from app.listing.scopes import Scope
from app.listing.tag_conditions import TAG_IDS, TAG_SLUGS
from app.query_plan import order_index, values_named
from app.request_context import RequestContext
from app.site import NodeType
from schemas.items import ItemRole

ITEMS_PER_PAGE = 15
MAX_ITEMS_PER_PAGE = 50
NODES_SOURCES = "nodes_sources"
CURSOR = "cursor"

FILTERS: tuple[Filter, ...] = (
    Partial("title", "title"),
    Partial("metaTitle", "meta_title"),
    Partial("metaDescription", "meta_description"),
    Boolean("noIndex", "no_index"),
    Boolean("node.visible", "node.visible"),
    Boolean("node.home", "node.home"),
    Date("publishedAt", "published_at", archive=True),
    Exact("node.id", "node_id", "int"),
    Exact("node.nodeName", "node.node_name"),
    Exact("node.nodeTypeName", "type"),
    Exact("node.nodeType.name", "type"),  # the 2.0-2.4 spelling
    Exact("node.parent.nodeName", "node.parent_name"),
    Exact("node.nodesTags.tag.tagName", TAG_SLUGS),
    Exact("node.parent", "node.parent", "iri", "/api/nodes/"),
    Exact("node.nodesTags.tag", TAG_IDS, "iri", "/api/tags/"),
    Exact("translation.id", "locale", "int", lookup="translation"),
    Exact("translation.locale", "locale"),
    Range("node.position", "node.position"),
    Exact("node.nodeTypeName", "type", prefix="not"),
    Exact("node.nodeType.name", "type", prefix="not"),  # the 2.0-2.4 spelling
    Exact("node.id", "node_id", "int", prefix="not"),
    Exact("node.nodesTags.tag.tagName", TAG_SLUGS, prefix="not"),
    Exact("node.nodesTags.tag", TAG_IDS, "iri", "/api/tags/", prefix="intersect"),
    Exact("node.nodesTags.tag.tagName", TAG_SLUGS, prefix="intersect"),
    TagGroups(TAG_SLUGS, lookup="tag_name"),
)
ORDERS = (Order("publishedAt", "published_at"), Order("node.position", "node.position"))
TYPE_FLAGS = ("reachable", "publishable", "node.nodeType.reachable", "node.nodeType.publishable")
LOCALE = Variable("_locale", "_locale", {"type": "string"}, "locale of an available translation")


def variables() -> list[Variable]:
    """Every query variable of a node-source collection (hydra:search, OpenAPI, known names)."""
    found = [LOCALE]
    for filter_ in FILTERS:
        found += filter_.variables()
    found += [
        Variable(
            f,
            f,
            {"type": "string", "enum": ["1", "true", "on", "yes", "0", "false", "off", "no"]},
            f"{f} node types only",
        )
        for f in TYPE_FLAGS
    ]
    found += [o.variable() for o in ORDERS]
    return found


VARIABLES = variables()
ACCEPTED = frozenset(v.name for v in VARIABLES)


@dataclass(frozen=True)
class Route:
    """`/api/<plural>` of one reachable type, or `/api/nodes_sources` (node_type None)."""

    path: str
    node_type: NodeType | None


def route(context: RequestContext, plural: str) -> Route:
    if plural == NODES_SOURCES:
        return Route(f"/api/{NODES_SOURCES}", None)
    for node_type in context.site.reachable_types():
        if node_type.plural == plural:
            return Route(f"/api/{plural}", node_type)
    raise NotFound(f'No resource "/api/{plural}"')


def locales(context: RequestContext, params: Params) -> list[str]:
    """Translations the request may see; `_locale` narrows to one (Roadiz's LocaleFilter)."""
    preview = context.visibility.preview
    seen = [t.locale for t in context.site.translations.values() if preview or t.available]
    wanted = params.get("_locale")
    if wanted is None:
        return seen
    if wanted not in seen:
        raise BadRequest(
            f'Locale filter value "{wanted[:40]}" not supported. '
            f"Supported values are {', '.join(seen)}"
        )
    return [wanted]


def shown_locale(context: RequestContext, wanted: str | None) -> str:
    """The translation a tag, document or node is shown in, item or collection: `_locale` as
    `locales` checks it (400 when the request may not see it), else the default translation."""
    if wanted is None:
        return context.site.default_translation.locale
    return locales(context, Params(MultiDict({"_locale": wanted})))[0]


def _types(context: RequestContext, params: Params, route_: Route) -> list[str] | None:
    """Type names allowed by the route and the reachable/publishable flags (None: any)."""
    allowed = None if route_.node_type is None else {route_.node_type.name}
    for flag in TYPE_FLAGS:
        value = params.get(flag)
        if value is None:
            continue
        wanted = boolean(flag, value, loose=True)
        attribute = flag.rsplit(".", 1)[-1]
        matching = {
            t.name for t in context.site.node_types.values() if getattr(t, attribute) == wanted
        }
        allowed = matching if allowed is None else allowed & matching
    return None if allowed is None else sorted(allowed)


def _lookups(context: RequestContext) -> dict[str, Any]:
    by_id = {t.id: t.locale for t in context.site.translations.values()}

    def translation(name: str, value: int) -> str:
        return by_id.get(value, "")  # an unknown id matches nothing, as in Roadiz

    return {"translation": translation, "tag_name": lambda name, value: value}


def build_query(context: RequestContext, params: Params, route_: Route) -> dict[str, Any]:
    """The MongoDB filter of a request (publication is added by the store)."""
    builder = QueryBuilder()
    seen = locales(context, params)
    builder.add("locale", seen[0] if len(seen) == 1 else {"$in": seen})
    types = _types(context, params, route_)
    if types is not None:
        builder.add("type", types[0] if len(types) == 1 else {"$in": types})
    env = Env(now=context.visibility.now, lookups=_lookups(context))
    for filter_ in FILTERS:
        filter_.apply(params, builder, env)
    # any node of the listed types may be listed: the realms covering them are checked
    denied = denied_realm_ids(context, check_passwords=True, types=types)
    if denied:
        builder.add("node.realm_ids", {"$nin": denied})
    if route_.node_type is None or not route_.node_type.reachable:  # blocks may be listed
        hidden = hidden_realm_ids(context, types=types)
        if hidden:
            builder.add_clause(plain.hide_blocks_clause(hidden))
    _parents_by_id(builder.query, context)
    _home_by_id(builder, context)
    _one_type_condition(builder.query, context)
    titles.restrict(builder.query, context.site.generation, chunk=context.site.title_key_chunk)
    return builder.query


def _home_by_id(builder: QueryBuilder, context: RequestContext) -> None:
    """`node.home=true` as the home node's id too (a site has exactly one home node: fixture
    format): the same sources, read along `node_locale` (query_plan.order_index) instead of
    every source of the route's order index."""
    if builder.query.get("node.home") is not True:
        return
    homes = {source["node_id"] for source in context.site.homes.values()}
    if not homes:
        return
    builder.add("node_id", homes.pop() if len(homes) == 1 else {"$in": sorted(homes)})


def _one_type_condition(query: dict[str, Any], context: RequestContext) -> None:
    """Every condition on the node type (the route's, the type flags', `node.nodeTypeName` and
    `not[node.nodeTypeName]`) as one: the site's types that meet them all (every source has one:
    the loader refuses a node of an undeclared type, app/fixture/validate.py),
    by equality or `$in`, or none when they are every type. The same sources, but a set of types
    is plain (several types' calendars and listings are merged: app/listing/plain.py), and a
    nodes_sources request excluding a type reads the remaining types' index entries."""
    clauses = query.get("$and", [])
    on_type = [c["type"] for c in clauses if set(c) == {"type"}]
    if "type" in query:
        on_type.append(query["type"])
    if not on_type:
        return
    names = set(context.site.node_types)
    for condition in on_type:
        if isinstance(condition, str):
            names &= {condition}
        elif isinstance(condition, dict) and set(condition) == {"$in"}:
            names &= set(condition["$in"])
        elif isinstance(condition, dict) and set(condition) == {"$nin"}:
            names -= set(condition["$nin"])
        else:  # not a shape app.listing.filters builds: left to the database
            return
    rest = [c for c in clauses if set(c) != {"type"}]
    if rest:
        query["$and"] = rest
    else:
        query.pop("$and", None)
    query.pop("type", None)
    if names == set(context.site.node_types):
        return
    query["type"] = names.pop() if len(names) == 1 else {"$in": sorted(names)}


def _parents_by_id(query: dict[str, Any], context: RequestContext) -> None:
    """`node.parent.nodeName` as the ids of the nodes so named (one read by name): the same
    sources, but the parent indexes then bound the read to their children (query_plan.order_index)
    instead of testing the parent name of every source of the route."""
    names = values_named(query.get("node.parent_name"), str)
    if names is None:
        return  # none, or several conditions ($and): tested on the sources
    del query["node.parent_name"]
    found = context.site.generation.node_ids_named(names)
    # one parent by equality: on DocumentDB an `$in` on the leading key is slower (12 ms, not 6)
    ids = found[0] if len(found) == 1 else {"$in": found}
    if "node.parent" in query:
        query.setdefault("$and", []).append({"node.parent": ids})
    else:
        query["node.parent"] = ids


def collection(context: RequestContext, plural: str, path: str, args: MultiDict) -> dict[str, Any]:
    """The hydra:Collection body of a node-source collection request: a page by number, or by
    keyset cursor (`cursor`, app/keyset.py: no total, only `hydra:next`; a deep page costs what
    the first costs)."""
    route_ = route(context, plural)
    params = Params(args)
    params.check_known(ACCEPTED | {CURSOR}, route_.path)
    query = build_query(context, params, route_)
    sort = sort_of(params, list(ORDERS))
    index = order_index(query, sort[0][0] if sort else None)
    keys = len(sort)
    sort = [*sort, ("_id", sort[-1][1])] if sort else [("_id", 1)]
    token = params.get(CURSOR)
    if token is not None and params.has("page"):
        raise BadRequest(keyset.COMBINED_MESSAGE)
    if token is not None and keys > 1:
        raise BadRequest(f'"{CURSOR}" follows one order key: give at most one order[...]')
    page: Page = pagination(params, default=ITEMS_PER_PAGE, maximum=MAX_ITEMS_PER_PAGE)
    fields = requested(params)
    generation = context.site.generation
    next_token = None
    # a plain scope by date, by position, one then the other, or in the default order: its
    # materialised listings (of the request's visibility class) serve the page
    # (app/listing/listings.py); a range of publication dates too (contiguous in the date
    # listing, sorted when another order is asked for)
    order = listings.serves(sort)
    scope = site_scope(query, context.site, dated=order is not None)
    listed = scope if order is not None else None
    descending = sort[0][1] < 0
    if token is not None:
        after = keyset.decode(token, sort[0][0])
        if listed is not None:
            found = listings.cursor_page(
                generation, listed, context.visibility, page.size + 1, after, order=order,
                descending=descending,
            )  # fmt: skip
        else:
            found, _ = generation.sources_page(
                query, context.visibility, sort=sort, skip=0, limit=page.size + 1, index=index,
                after=after, keyset=True,
            )  # fmt: skip
        total = None
        if len(found) > page.size:
            found = found[: page.size]
            if found:  # itemsPerPage=0 lists nothing, so there is no member to continue after
                next_token = keyset.encode(sort[0][0], found[-1])
        view = hydra.cursor_view(route_.path, args, token, next_token)
    else:
        if listed is not None and (page.size > 0 or listed.span is not None or listed.spans):
            found, total = listings.page(
                generation, listed, context.visibility, page, order=order,
                descending=descending, count_scheduled=_scheduled_count(context, query),
            )  # fmt: skip
        else:
            found, total = generation.sources_page(
                query, context.visibility, sort=sort, skip=page.skip, limit=page.size,
                index=index, counted=scope is None,
            )  # fmt: skip
            if scope is not None:
                total = _plain_total(context, query, scope)
        view = hydra.view(route_.path, args, page, total or 0)
    every_type = route_.node_type is None  # /api/nodes_sources: with the tag_parent group
    members = [dump_member(context, source, tag_parent=every_type) for source in found]
    if fields is not None:
        members = [sparse(m, fields) for m in members]
    name = route_.node_type.name if route_.node_type else "NodesSources"
    return hydra.collection(
        f"/api/contexts/{name}", route_.path, members, total, view,
        hydra.search(route_.path, VARIABLES, sparse=True),
    )  # fmt: skip


def _plain_total(context: RequestContext, query: dict[str, Any], scope: Scope) -> int:
    """The total of a plain request from its calendar (no count of every match)."""
    visibility = context.visibility
    found = calendar.read(context.site.generation, scope, visibility, total_only=True)
    return calendar.total(found, scope, visibility, _scheduled_count(context, query))


def _scheduled_count(context: RequestContext, query: dict[str, Any]) -> Callable[[], int]:
    """The indexed count of a plain request's sources still to come (a calendar counts them)."""
    generation, visibility = context.site.generation, context.visibility
    index = order_index(query, "published_at")
    return lambda: generation.count_scheduled(query, visibility, index=index)


def dump_member(
    context: RequestContext, source: dict[str, Any], *, tag_parent: bool = False
) -> dict[str, Any]:
    """A source as collections and search results list it: its own type's groups, whatever the
    route (NodeType.resource_groups; `tag_parent`: /api/nodes_sources nests tags' parents)."""
    node_type = context.site.node_types[source["type"]]
    groups = node_type.resource_groups(tag_parent=tag_parent)
    return ItemDumper(context, groups)(source, ItemRole.MEMBER)
