"""Serialising node sources for one request, as every builder serves them (the WebResponse,
common content, collections, resources, search): each with its node type's schema for the
operation's groups and the `translation` it carries."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from app.audience import present
from app.frozen import FrozenDict, freeze
from app.naming import translation_iri
from app.request_context import RequestContext
from app.site import NodeType, SiteModel
from schemas.dumping import dumper
from schemas.items import ItemRole

# Dumps of listed sources a site model keeps (ItemDumper): about the site's listed sources times
# the operations listing them; past it, sources are dumped on every request.
DUMPS_KEPT = 20_000


class ItemDumper:
    """Serialises sources of one operation (node type groups) for one request.

    A listed source (not the item itself) that is a stored document as the embedded store shares
    it (app.frozen: read-only) and lists no reference a request could be refused is dumped once
    per site model and schema: that dump depends on nothing else (schemas keep no request state)
    and is shared, read-only, by every response listing it. Other sources (dicts a walker
    definition builds, any source read from MongoDB, references filtered per request) are dumped
    on every request."""

    def __init__(self, context: RequestContext, groups: frozenset[str]):
        self.context = context
        self.groups = groups

    def __call__(self, source: dict[str, Any], role: ItemRole = ItemRole.LISTED) -> dict[str, Any]:
        """`role`: where the source is served (schemas.items.ItemRole)."""
        site = self.context.site
        node_type = site.node_types[source["type"]]
        schema: Schema = self.context.schemas.item(node_type, self.groups, site.plurals, role)
        # only references sent are filtered (a realm check may cost a password's hash)
        presented = present(source, self.context) if role.lists_references else source
        served_alone = role in (ItemRole.WEB_RESPONSE, ItemRole.RESOURCE)
        if served_alone or presented is not source or type(source) is not FrozenDict:
            return dumper(schema)(with_translation(presented, node_type, site))
        kept = site.cache.setdefault("listed dumps", {})
        key = (id(schema), id(source))
        entry = kept.get(key)
        if entry is None:
            dumped = freeze(dumper(schema)(with_translation(source, node_type, site)))
            entry = (dumped, schema, source)
            if len(kept) < DUMPS_KEPT:
                kept[key] = entry  # holds the schema and source: their ids stay theirs
        return entry[0]


def with_translation(source: dict[str, Any], node_type: NodeType, site: SiteModel) -> dict:
    """`source` and the sources its `nodes` fields list (all in its translation), each with its
    `translation` (app.site.Translation), which every serialised node source carries."""
    translation = site.translations[source["locale"]]
    values = dict(source["fields"])
    for name in node_type.reference_fields:
        if values.get(name):
            values[name] = [{**r, "translation": translation} for r in values[name]]
    return {**source, "fields": values, "translation": translation}


def translation_view(site: Any, locale: str) -> dict[str, Any]:
    """The Translation a node source carries (`@id` /api/translations/<id>; `locale` is the
    override locale when set)."""
    translation = site.translations[locale]
    return {
        "@id": translation_iri(translation.id),
        "@type": "Translation",
        "name": translation.name,
        "defaultTranslation": translation.default,
        "available": translation.available,
        "locale": translation.override_locale or translation.locale,
    }
