"""Building the CommonContent resource: home, menus and head of one translation."""

from __future__ import annotations

from typing import Any

from app.context import RequestContext
from app.head import build_head
from app.naming import camel
from app.publication import is_shown
from app.realms import withheld
from app.site import COMMON_CONTENT_GROUPS, Translation
from app.web_response import ItemDumper
from schemas.web_response import dump_walker
from walkers.walker import AUTO_CHILDREN, MENU, WalkerContext, walk

MENUS_MAX_LEVEL = 3
# Root node types listed in `menus`, with the walker kind of each.
MENU_WALKERS = {"Menu": MENU, "Footer": AUTO_CHILDREN}


def menus(context: RequestContext, locale: str, dump: ItemDumper) -> dict[str, Any]:
    """One walker per root Menu or Footer of the translation, ordered by position."""
    generation = context.site.generation
    out: dict[str, Any] = {}
    for source in generation.root_sources_of_types(list(MENU_WALKERS), locale, context.visibility):
        if withheld(source, context):
            continue
        walker_context = WalkerContext(
            generation=generation,
            locale=locale,
            visibility=context.visibility,
            root=source,
            accept=lambda s: not withheld(s, context),
        )
        kind = MENU_WALKERS[source["type"]]
        root = walk(source, kind, MENUS_MAX_LEVEL, walker_context, context.definitions)
        out[camel(f"{source['node']['node_name']} walker")] = dump_walker(root, dump, counts=True)
    return out


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
        "home": dump(home) if home is not None and is_shown(home, context.visibility) else None,
        "menus": menus(context, locale, dump),
        "head": build_head(site, locale, context.visibility),
    }
