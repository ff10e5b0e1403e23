"""Item (node source) schemas: one marshmallow schema per (node type, groups, role), built once."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from marshmallow import Schema, fields

from app.naming import source_iri
from app.site import FieldDef, NodeType
from schemas.fields import (
    CHILDREN_ORDER_DIRECTION,
    IRI,
    NULLABLE_DATE_TIME,
    NULLABLE_IRI,
    Plurals,
    document_schema,
    iso,
    node_schema,
    reference_schema,
    translation_schema,
)

BASE_GROUPS = frozenset({"nodes_sources_base", "nodes_sources"})
META_GROUPS = frozenset({"nodes_sources"})
URL_GROUPS = frozenset({"urls"})
URL_ALIASES = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "@type": {"type": "string", "enum": ["UrlAlias"]},
            "alias": {"type": "string"},
        },
        "required": ["@type", "alias"],
    },
}


class ItemRole(StrEnum):
    """Where a source is serialised, which decides a few fields beyond its groups (behaviour.md,
    roadiz-read-surface.md §2); the value names its schema (`<NodeType><role>Schema`)."""

    # the WebResponse item: its node shows `position`, and it alone lists `urlAliases`
    WEB_RESPONSE = "WebResponseItem"
    # a source at its @id (`/api/pages/7`): adds `noIndex`; node-reference fields belong to
    # `<type>_get_by_path` only
    RESOURCE = "ResourceItem"
    # a member of a collection or of search results: no node-reference fields either, no
    # `metaTitle` and `metaDescription` (an item adds them), and a `url` for reachable types only
    MEMBER = "MemberItem"
    # a source a response lists: blocks, references, breadcrumbs, menus, common content's home
    LISTED = "Item"

    @property
    def node_view(self) -> str:
        """How its node is shown (schemas.fields.NODE_VIEWS)."""
        views = {ItemRole.WEB_RESPONSE: "Item", ItemRole.RESOURCE: "Resource",
                 ItemRole.MEMBER: "Member"}  # fmt: skip
        return views.get(self, "")

    @property
    def lists_references(self) -> bool:
        """Whether its node-reference (`nodes`) fields are sent."""
        return self not in (ItemRole.RESOURCE, ItemRole.MEMBER)


# How a source at its @id lists its children (Roadiz's `listingSortOptions`, from its node's
# children order: by position, ascending, the one order the fixture format has).
LISTING_SORT_OPTIONS = {"node.position": CHILDREN_ORDER_DIRECTION}
LISTING_SORT_OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": {"type": "string", "enum": ["ASC", "DESC"]},
}

SCALARS: dict[str, type[fields.Field]] = {
    "boolean": fields.Boolean,
    "integer": fields.Integer,
    "decimal": fields.Float,
    "json": fields.Raw,
}


def link_url(source: dict[str, Any]) -> str | None:
    """A menu link's target: url of its first internal reference, else its external url."""
    fields = source["fields"]
    for reference in fields.get("link_internal_reference") or []:
        if reference.get("url"):
            return reference["url"]
    return fields.get("link_external_url")


def _typed_field(field: FieldDef, groups: frozenset[str], plurals: Plurals) -> fields.Field:
    attribute = f"fields.{field.name}"
    if field.type == "documents":
        return fields.List(fields.Nested(document_schema(groups)), attribute=attribute)
    if field.type == "nodes":
        return fields.List(fields.Nested(reference_schema(groups, plurals)), attribute=attribute)
    if field.type in ("custom_forms", "users"):
        return fields.List(fields.String(), attribute=attribute)
    if field.type == "datetime":
        return fields.Function(
            lambda s, n=field.name: iso(s["fields"].get(n)), metadata=NULLABLE_DATE_TIME
        )
    cls = SCALARS.get(field.type, fields.String)
    return cls(attribute=attribute, allow_none=True, dump_default=None)


def url_aliases(source: dict[str, Any]) -> list[dict[str, str]]:
    return [{"@type": "UrlAlias", "alias": alias} for alias in source.get("url_aliases") or []]


def build_item_schema(
    node_type: NodeType,
    groups: frozenset[str],
    plurals: Plurals,
    role: ItemRole = ItemRole.LISTED,
) -> Schema:
    """The schema of `node_type` sources under `groups` where `role` says they are served;
    `plurals` name the types of referenced sources in their IRIs."""
    declared: dict[str, fields.Field] = {
        "@id": fields.Function(lambda s: source_iri(node_type.plural, s["_id"]), metadata=IRI),
        "@type": fields.String(attribute="type"),
    }
    if groups & BASE_GROUPS:
        declared["title"] = fields.String()
        declared["publishedAt"] = fields.Function(
            lambda s: iso(s.get("published_at")), metadata=NULLABLE_DATE_TIME
        )
        declared["slug"] = fields.String()
    if groups & URL_GROUPS and node_type.reachable:
        declared["url"] = fields.String()
    elif groups & URL_GROUPS and node_type.is_link() and role is ItemRole.LISTED:
        # a menu link in a menu shows where it points; listed by a collection, it has no url
        declared["url"] = fields.Function(link_url, metadata=NULLABLE_IRI)
    if groups & BASE_GROUPS:
        declared["node"] = fields.Nested(node_schema(groups, view=role.node_view))
        declared["translation"] = fields.Nested(translation_schema())
    for field in node_type.fields:
        if field.groups & groups and (role.lists_references or field.type != "nodes"):
            declared[field.key] = _typed_field(field, groups, plurals)
    if groups & META_GROUPS and role is not ItemRole.MEMBER:  # an item's, not a member's
        declared["metaTitle"] = fields.String(attribute="meta_title")
        declared["metaDescription"] = fields.String(attribute="meta_description")
    if role is ItemRole.RESOURCE:
        declared["noIndex"] = fields.Boolean(attribute="no_index")
        declared["listingSortOptions"] = fields.Constant(
            LISTING_SORT_OPTIONS, metadata=LISTING_SORT_OPTIONS_SCHEMA
        )
    if role is ItemRole.WEB_RESPONSE:
        declared["urlAliases"] = fields.Function(url_aliases, metadata=URL_ALIASES)
    return Schema.from_dict(declared, name=f"{node_type.name}{role}Schema")()


IDENTITY_ENTRIES = 4096


class SchemaRegistry:
    """Schemas built so far, keyed by what they depend on; shared by every request."""

    def __init__(self) -> None:
        self._schemas: dict[tuple[Any, ...], Schema] = {}
        # The same look-up by the identity of the node type and plurals (hashing them walks every
        # field definition): entries hold both, so an id is never reused while its entry exists.
        self._by_identity: dict[tuple[Any, ...], tuple[NodeType, Plurals, Schema]] = {}

    def item(
        self,
        node_type: NodeType,
        groups: frozenset[str],
        plurals: Plurals,
        role: ItemRole = ItemRole.LISTED,
    ) -> Schema:
        fast_key = (id(node_type), groups, id(plurals), role)
        entry = self._by_identity.get(fast_key)
        if entry is not None and entry[0] is node_type and entry[1] is plurals:
            return entry[2]
        key = (node_type, groups, plurals, role)
        schema = self._schemas.get(key)
        if schema is None:
            schema = self._schemas[key] = build_item_schema(node_type, groups, plurals, role)
        if len(self._by_identity) >= IDENTITY_ENTRIES:  # site models rebuilt: new identities
            self._by_identity.clear()
        self._by_identity[fast_key] = (node_type, plurals, schema)
        return schema
