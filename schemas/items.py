"""Item (node source) schemas: one marshmallow schema per (node type, groups, role), built once."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from app.naming import source_iri
from app.site import FieldDef, NodeType
from schemas.fields import (
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


def build_item_schema(
    node_type: NodeType, groups: frozenset[str], plurals: Plurals, *, item: bool
) -> Schema:
    """The schema of `node_type` items under `groups`; `item` marks the WebResponse item itself
    (its node shows `position`); `plurals` name the types of referenced sources in their IRIs."""
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
    elif groups & URL_GROUPS and node_type.is_link():
        declared["url"] = fields.Function(link_url, metadata=NULLABLE_IRI)
    if groups & BASE_GROUPS:
        declared["node"] = fields.Nested(node_schema(groups, with_position=item))
    if "translation_base" in groups:  # set per request by app.web_response.ItemDumper
        declared["translation"] = fields.Nested(translation_schema())
    for field in node_type.fields:
        if field.groups & groups:
            declared[field.key] = _typed_field(field, groups, plurals)
    if groups & META_GROUPS:
        declared["metaTitle"] = fields.String(attribute="meta_title")
        declared["metaDescription"] = fields.String(attribute="meta_description")
    role = "WebResponseItem" if item else "Item"
    return Schema.from_dict(declared, name=f"{node_type.name}{role}Schema")()


class SchemaRegistry:
    """Schemas built so far, keyed by what they depend on; shared by every request."""

    def __init__(self) -> None:
        self._schemas: dict[tuple[Any, ...], Schema] = {}

    def item(
        self, node_type: NodeType, groups: frozenset[str], plurals: Plurals, *, item: bool = False
    ) -> Schema:
        key = (node_type, groups, plurals, item)
        schema = self._schemas.get(key)
        if schema is None:
            schema = self._schemas[key] = build_item_schema(node_type, groups, plurals, item=item)
        return schema
