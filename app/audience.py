"""What one request may see: the single home of the rules that combine publication
(app.publication), translations and realms (app.realms) for a request. Builders and resources ask
here; the store applies the same rules in its queries (app.publication.source_filter, and the
denied realms given by denied_realm_ids)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from app.publication import Visibility, is_shown
from app.realms import granted
from app.request_context import RequestContext
from app.site import SiteModel, Translation
from walkers.walker import WalkerContext

# --- translations -------------------------------------------------------------------------------


def translation_visible(translation: Translation, *, preview: bool) -> bool:
    """An unavailable translation is seen in preview only."""
    return translation.available or preview


def in_visible_translation(site: SiteModel, source: dict[str, Any], visibility: Visibility) -> bool:
    translation = site.translations.get(source["locale"])
    return translation is not None and translation_visible(translation, preview=visibility.preview)


# --- realms -------------------------------------------------------------------------------------


def _not_granted(source: dict[str, Any], context: RequestContext, behaviour: str) -> bool:
    realms = context.site.realms
    return any(
        realms[i]["behaviour"] == behaviour and not granted(realms[i], context)
        for i in source["node"]["realm_ids"]
    )


def denied(source: dict[str, Any], context: RequestContext) -> bool:
    """A `deny` realm the request is not granted covers the source."""
    return _not_granted(source, context, "deny")


def withheld(source: dict[str, Any], context: RequestContext) -> bool:
    """Whether a source listed inside another (block, feed entry, menu entry, reference,
    breadcrumb) is withheld from this request: denied, or a block (non-reachable) that a
    `hide_blocks` realm hides from it."""
    if not source["node"]["realm_ids"]:  # most sources: no realm to ask
        return False
    if denied(source, context):
        return True
    return not source["reachable"] and _not_granted(source, context, "hide_blocks")


def denied_realm_ids(
    context: RequestContext,
    *,
    check_passwords: bool = False,
    types: Collection[str] | None = None,
) -> list[int]:
    """`deny` realms this request is not granted (queries exclude what they cover).

    A password is checked only against realms covering the response (its item, or a source
    listed in it): a page's walkers and feeds count a password realm as granted only when that
    check was already made for this request, so a `password=` on a page no password realm
    covers costs no bcrypt run and leaves the response public. A collection, which may list any
    node of its type, checks those that cover some node of the listed `types` (None: any type);
    a realm covering none of them is counted as denied unchecked, which excludes nothing."""
    return [
        r["_id"]
        for r in context.site.realms.values()
        if r["behaviour"] == "deny" and not _granted_for_listing(r, context, check_passwords, types)
    ]


def hidden_realm_ids(context: RequestContext, *, types: Collection[str] | None = None) -> list[int]:
    """`hide_blocks` realms this request is not granted (lists leave out the blocks they cover),
    of those covering some node of the listed `types` (None: any type)."""
    return [
        r["_id"]
        for r in context.site.realms.values()
        if r["behaviour"] == "hide_blocks"
        and (types is None or set(r.get("types") or types) & set(types))
        and not granted(r, context)
    ]


def counted_tag_use(context: RequestContext) -> dict[str, Any]:
    """The condition a use of a tag (app/fixture/tag_uses.py) meets when it counts for this
    request (`/api/tags?nodesTags=...`): its nodes are published and a source of theirs is out
    (in preview: any draft, pending or published node, as Roadiz), and no realm withholds them
    from this request: a `deny` realm it is not granted (passwords checked, as in a collection of
    any type), or a `hide_blocks` realm it is not granted (the loader records those of blocks
    only)."""
    withheld = denied_realm_ids(context, check_passwords=True) + hidden_realm_ids(context)
    use: dict[str, Any] = {"realm_ids": {"$nin": withheld}}
    if not context.visibility.preview:
        use |= {"published": True, "since": {"$lte": context.visibility.now}}
    return use


def _granted_for_listing(
    realm: dict[str, Any],
    context: RequestContext,
    check_passwords: bool,
    types: Collection[str] | None,
) -> bool:
    if realm["type"] != "plain_password":
        return granted(realm, context)
    covers = realm.get("types")  # absent in generations loaded before it was stored
    if check_passwords and (types is None or covers is None or set(covers) & set(types)):
        return granted(realm, context)
    return context.grants.get(realm["_id"], False)


# --- sources ------------------------------------------------------------------------------------


def may_see(source: dict[str, Any], context: RequestContext, *, listed: bool = False) -> bool:
    """Whether this request may see a source at all: published (or previewed), in a translation
    it may see, not denied by a realm. `listed` adds the rule of lists (visible nodes only)."""
    if not in_visible_translation(context.site, source, context.visibility):
        return False
    return is_shown(source, context.visibility, listed=listed) and not denied(source, context)


def addressable_source(
    site: SiteModel, source_id: int, visibility: Visibility
) -> dict[str, Any] | None:
    """A source as its id addresses it (before realms, which answer 401 rather than 404): shown
    under `visibility`, in a translation it may see."""
    source = site.generation.source(source_id, visibility)
    if source is None or not in_visible_translation(site, source, visibility):
        return None
    return source


def visible_home(context: RequestContext, locale: str) -> dict[str, Any] | None:
    """The home source of a translation, when this request may see it."""
    home = context.site.homes.get(locale)
    return home if home is not None and may_see(home, context) else None


def shown_alternates(source: dict[str, Any], context: RequestContext) -> list[dict[str, Any]]:
    """The translations of the source's node this request may see, the source's own included, in
    the site's translation order (Link alternates, as Roadiz sends them): published now, in an
    available translation (everything in preview). Each carries its translation's `name`."""
    visibility = context.visibility
    translations = context.site.translations
    own = (
        [{"locale": source["locale"], "url": source["url"], "published_at": None}]
        if source.get("url")
        else []
    )
    found = own + [
        other
        for other in source.get("alternates", [])
        if visibility.preview
        or (
            translations[other["locale"]].available
            and other["published_at"] is not None
            and other["published_at"] <= visibility.now
        )
    ]
    order = list(translations)
    found.sort(key=lambda a: order.index(a["locale"]) if a["locale"] in order else len(order))
    return [{**a, "name": translations[a["locale"]].name} for a in found]


def present(source: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    """`source` without the references (`nodes` fields) this request may not see: unpublished
    ones, and ones a realm withholds from it."""
    reference_fields = context.site.node_types[source["type"]].reference_fields
    if not reference_fields:
        return source
    fields = dict(source["fields"])
    for name in reference_fields:
        fields[name] = [
            r for r in fields[name] if is_shown(r, context.visibility) and not withheld(r, context)
        ]
    return {**source, "fields": fields}


# --- walkers ------------------------------------------------------------------------------------


def walker_context(context: RequestContext, locale: str, root: dict[str, Any]) -> WalkerContext:
    """The walker context of this request: its visibility, and the realms it is denied (left out
    of definitions' queries, withheld from what is listed), asked when a definition fetches, so
    that a password checked for a source walked before (a feed's own block) counts."""
    return WalkerContext(
        generation=context.site.generation,
        locale=locale,
        visibility=context.visibility,
        root=root,
        accept=lambda s: not withheld(s, context),
        denied=lambda: tuple(denied_realm_ids(context)),
    )
