"""Collections of translations, tags and documents (§5), with Roadiz's filters.

Translations and tags are small collections read whole once per site generation: they are
filtered in memory, with the MongoDB semantics of the compiled filter (mongomock's matcher).
Documents are queried through their index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mongomock.filtering import filter_applies
from werkzeug.datastructures import MultiDict

from app.audience import counted_tag_use
from app.errors import item_not_found
from app.item_dumps import translation_view as shared_translation_view
from app.listing import hydra
from app.listing.documents import document_view
from app.listing.filters import (
    Boolean,
    Env,
    Exact,
    Filter,
    NodesTags,
    Order,
    Partial,
    Variable,
    sort_of,
)
from app.listing.params import Page, Params, QueryBuilder, pagination
from app.listing.properties import requested, sparse
from app.listing.sources import ITEMS_PER_PAGE, LOCALE, MAX_ITEMS_PER_PAGE, shown_locale
from app.naming import tag_iri
from app.reply import Reply
from app.request_context import RequestContext
from app.summaries import TAG_PARENT_DEPTH, tag_summary

TRANSLATION_FILTERS: tuple[Filter, ...] = (
    Boolean("available", "available"),
    Boolean("defaultTranslation", "default"),
    Exact("locale", "_id"),
    Exact("name", "name"),
)
TRANSLATION_ORDERS = (
    Order("locale", "_id"),
    Order("available", "available"),
    Order("defaultTranslation", "default"),
)
TAG_FILTERS: tuple[Filter, ...] = (
    Partial("tagName", "slug"),
    Exact("parent.id", "parent", "int"),
    Exact("parent.tagName", "parent_slug"),
    Exact("parent.id", "parent", "int", prefix="not"),
    Exact("parent.tagName", "parent_slug", prefix="not"),
    Boolean("visible", "visible"),
    NodesTags("uses"),
)
TAG_ORDERS = (Order("tagName", "slug"),)
DOCUMENT_FILTERS: tuple[Filter, ...] = (
    Partial("filename", "filename"),
    Exact("mimeType", "mime_type"),
    Exact("mimeType", "mime_type", prefix="not"),
    Boolean("private", "private"),
)


def _variables(filters: tuple[Filter, ...], orders: tuple[Order, ...], *, locale: bool) -> list:
    found: list[Variable] = [LOCALE] if locale else []
    for filter_ in filters:
        found += filter_.variables()
    return found + [o.variable() for o in orders]


TRANSLATION_VARIABLES = _variables(TRANSLATION_FILTERS, TRANSLATION_ORDERS, locale=False)
TAG_VARIABLES = _variables(TAG_FILTERS, TAG_ORDERS, locale=True)
DOCUMENT_VARIABLES = _variables(DOCUMENT_FILTERS, (), locale=True)


def _query(
    params: Params,
    filters: tuple[Filter, ...],
    context: RequestContext,
    counted_use: Callable[[], dict[str, Any]] | None = None,
) -> dict:
    builder = QueryBuilder()
    env = Env(now=context.visibility.now, lookups={}, counted_use=counted_use)
    for filter_ in filters:
        filter_.apply(params, builder, env)
    return builder.query


def _in_memory(
    docs: list[dict[str, Any]], query: dict, sort: list[tuple[str, int]], page: Page
) -> tuple[list[dict[str, Any]], int]:
    matched = [d for d in docs if filter_applies(query, d)]
    for key, direction in reversed(sort):  # stable sorts: the first key decides last
        matched.sort(key=lambda d, k=key: (d.get(k) is None, d.get(k)), reverse=direction < 0)
    return matched[page.skip : page.skip + page.size], len(matched)


def _locale(context: RequestContext, params: Params) -> str:
    return shown_locale(context, params.get("_locale"))


def _body(
    name: str, path: str, args: MultiDict, params: Params, members: list, total: int,
    page: Page, variables: list[Variable],
) -> dict[str, Any]:  # fmt: skip
    fields = requested(params)
    if fields is not None:
        members = [sparse(m, fields) for m in members]
    view = hydra.view(path, args, page, total)
    search = hydra.search(path, variables, sparse=True)
    return hydra.collection(f"/api/contexts/{name}", path, members, total, view, search)


def _start(args: MultiDict, variables: list[Variable], path: str) -> tuple[Params, Page]:
    params = Params(args)
    params.check_known({v.name for v in variables}, path)
    return params, pagination(params, default=ITEMS_PER_PAGE, maximum=MAX_ITEMS_PER_PAGE)


# --- translations ------------------------------------------------------------------------------


def translation_view(context: RequestContext, locale: str) -> dict[str, Any]:
    return shared_translation_view(context.site, locale)


def translations(context: RequestContext, path: str, args: MultiDict) -> Reply:
    params, page = _start(args, TRANSLATION_VARIABLES, path)
    docs = [{"_id": t.locale, "id": t.id, "name": t.name, "default": t.default,
             "available": t.available} for t in context.site.translations.values()]  # fmt: skip
    query = _query(params, TRANSLATION_FILTERS, context)
    sort = sort_of(params, list(TRANSLATION_ORDERS)) or [("id", 1)]
    found, total = _in_memory(docs, query, sort, page)
    members = [translation_view(context, d["_id"]) for d in found]
    body = _body("Translation", path, args, params, members, total, page, TRANSLATION_VARIABLES)
    return Reply(body, context.site.default_translation.locale)


def translation_item(context: RequestContext, translation_id: int) -> Reply:
    for translation in context.site.translations.values():
        if translation.id == translation_id:
            body = {
                "@context": "/api/contexts/Translation",
                **translation_view(context, translation.locale),
            }
            return Reply(body, translation.locale)  # fmt: skip
    raise item_not_found()


# --- tags --------------------------------------------------------------------------------------


def tag_view(
    context: RequestContext, tag: dict[str, Any], locale: str, *, parents: int = 0
) -> dict[str, Any]:
    """A tag in `locale` (app.summaries.tag_summary); `parents` ancestor levels nested."""
    by_id = {t["_id"]: t | {"id": t["_id"]} for t in context.site.tags} if parents else None
    default = context.site.default_translation.locale
    return _tag_view(tag_summary(tag | {"id": tag["_id"]}, locale, default, by_id, parents=parents))


def _tag_view(summary: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = {
        "@id": tag_iri(summary["id"]),
        "@type": "Tag",
        "slug": summary["slug"],
        "visible": summary["visible"],
        "name": summary["name"],
        "description": None,  # appended by a Roadiz normalizer: kept even when null
    }
    if summary["parent"] is not None:
        view["parent"] = _tag_view(summary["parent"])
    return view


def tags(context: RequestContext, path: str, args: MultiDict) -> Reply:
    params, page = _start(args, TAG_VARIABLES, path)
    locale = _locale(context, params)
    slugs = {t["_id"]: t["slug"] for t in context.site.tags}
    docs = [{**t, "visible": t.get("visible", True), "parent_slug": slugs.get(t.get("parent"))}
            for t in context.site.tags]  # fmt: skip
    query = _query(params, TAG_FILTERS, context, counted_use=lambda: counted_tag_use(context))
    found, total = _in_memory(docs, query, sort_of(params, list(TAG_ORDERS)), page)
    members = [tag_view(context, t, locale) for t in found]
    return Reply(_body("Tag", path, args, params, members, total, page, TAG_VARIABLES), locale)


def tag_item(context: RequestContext, tag_id: int, locale: str | None) -> Reply:
    tag = next((t for t in context.site.tags if t["_id"] == tag_id), None)
    if tag is None:
        raise item_not_found()
    chosen = shown_locale(context, locale)
    body = {
        "@context": "/api/contexts/Tag",
        **tag_view(context, tag, chosen, parents=TAG_PARENT_DEPTH),
    }
    return Reply(body, chosen)  # fmt: skip


# --- documents ---------------------------------------------------------------------------------


def documents(context: RequestContext, path: str, args: MultiDict) -> Reply:
    """Documents, private ones too (not processable, no `private` field), as Roadiz lists them
    (roadiz-read-surface.md §5)."""
    params, page = _start(args, DOCUMENT_VARIABLES, path)
    locale = _locale(context, params)
    query = _query(params, DOCUMENT_FILTERS, context)
    found, total = context.site.generation.documents_page(query, skip=page.skip, limit=page.size)
    members = [document_view(d, locale) for d in found]
    body = _body("Document", path, args, params, members, total, page, DOCUMENT_VARIABLES)
    return Reply(body, locale)
