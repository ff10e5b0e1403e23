"""Building the CommonContent resource: home, menus and head of one translation."""

from __future__ import annotations

from typing import Any

from app.context import RequestContext
from app.head import build_head
from app.naming import camel
from app.realms import denied, denied_realm_ids, may_see, withheld
from app.site import COMMON_CONTENT_GROUPS, Translation
from app.web_response import ItemDumper
from schemas.web_response import dump_walker
from walkers.walker import AUTO_CHILDREN, MENU, WalkerContext, walk_many

MENUS_MAX_LEVEL = 3
# Root node types listed in `menus`, with the walker kind of each.
MENU_WALKERS = {"Menu": MENU, "Footer": AUTO_CHILDREN}


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
    walker_context = WalkerContext(
        generation=generation,
        locale=locale,
        visibility=context.visibility,
        root=roots[0][0],
        accept=lambda s: not withheld(s, context),
        denied_realms=tuple(denied_realm_ids(context)),
    )
    walkers = walk_many(roots, MENUS_MAX_LEVEL, walker_context, context.definitions)
    return {
        camel(f"{w.item['node']['node_name']} walker"): dump_walker(w, dump, counts=True)
        for w in walkers
    }


def build_common_content(context: RequestContext, translation: Translation) -> dict[str, Any]:
    """The CommonContent body, fields in seed.md's order."""
    site = context.site
    locale = translation.locale
    dump = ItemDumper(context, frozenset(COMMON_CONTENT_GROUPS))
    home = site.homes.get(locale)
    return {
        "@context": "/api/contexts/CommonContent",
        "@id": "/api/common_content",
        "@type": "CommonContent",
        "home": dump(home) if home is not None and may_see(home, context) else None,
        "menus": menus(context, locale, dump),
        "head": build_head(context, locale),
    }
