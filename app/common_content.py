"""Building the CommonContent resource: home, menus and head of one translation."""

from __future__ import annotations

from typing import Any

from app.audience import denied, visible_home, walker_context
from app.head import build_head
from app.item_dumps import ItemDumper
from app.locale import resolve_translation
from app.naming import COMMON_CONTENT_IRI, MENU_ROOT_TYPES, menu_key
from app.reply import Reply
from app.request_context import RequestContext
from app.site import COMMON_CONTENT_GROUPS, Translation
from schemas import shared
from schemas.dumping import dumper
from schemas.shapes import CommonContentSchema
from schemas.web_response import serialise_items
from walkers.walker import AUTO_CHILDREN, MENU, walk_many

MENUS_MAX_LEVEL = 3
# Root node types listed in `menus`, with the walker kind of each.
MENU_WALKERS = dict(zip(MENU_ROOT_TYPES, (MENU, AUTO_CHILDREN), strict=True))


def menus(context: RequestContext, locale: str, dump: ItemDumper) -> dict[str, Any]:
    """One walker per root Menu or Footer of the translation, ordered by position; all of them
    are walked together, so each level costs one query whatever the number of menus."""
    generation = context.site.generation
    roots = [
        (source, MENU_WALKERS[source["type"]])
        for source in generation.root_sources_of_types(
            list(MENU_WALKERS), locale, context.visibility
        )
        if not denied(source, context)  # a hide_blocks realm hides a footer's blocks, not it
    ]
    if not roots:
        return {}
    walking = walker_context(context, locale, roots[0][0])
    walkers = walk_many(roots, MENUS_MAX_LEVEL, walking, context.definitions)
    return {menu_key(w.item["node"]["node_name"]): serialise_items(w, dump) for w in walkers}


def build_common_content(context: RequestContext, translation: Translation) -> dict[str, Any]:
    """The CommonContent body, fields in seed.md's order."""
    locale = translation.locale
    dump = ItemDumper(context, frozenset(COMMON_CONTENT_GROUPS))
    home = visible_home(context, locale)
    return dumper(shared(CommonContentSchema))(
        {
            "@id": COMMON_CONTENT_IRI,
            "home": None if home is None else dump(home),
            "menus": menus(context, locale, dump),
            "head": build_head(context, locale),
        }
    )


def translation_of(
    context: RequestContext, *, locale: str | None, accept_language: str | None
) -> Translation:
    """The translation `_locale` or Accept-Language designates (the default one otherwise)."""
    return resolve_translation(
        context.site,
        locale=locale,
        accept_language=accept_language,
        preview=context.visibility.preview,
    )


def common_content_reply(
    context: RequestContext, *, locale: str | None, accept_language: str | None
) -> Reply:
    """The CommonContent of the translation `_locale` or Accept-Language designates."""
    translation = translation_of(context, locale=locale, accept_language=accept_language)
    return Reply(build_common_content(context, translation), translation.locale)
