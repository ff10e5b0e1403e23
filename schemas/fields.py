"""Marshmallow fields of the sub-objects every item carries: node, tags, documents, references."""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields

from app.naming import document_iri, node_iri, source_iri, tag_iri

# The stored plural of every node type, as (name, plural) pairs (hashable: schemas are cached).
Plurals = tuple[tuple[str, str], ...]


@cache  # the instance is stateless: one per groups, shared by every request
def document_dumper(groups: frozenset[str]) -> Schema:
    return document_schema(groups)()


def iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


@cache  # pure in its (hashable) arguments: build each schema class once
def tag_schema(groups: frozenset[str]) -> type[Schema]:
    declared: dict[str, fields.Field] = {
        "@type": fields.Constant("Tag"),
        "@id": fields.Function(lambda t: tag_iri(t["id"])),
        "slug": fields.String(),
        "name": fields.String(),
        "visible": fields.Boolean(),
    }
    if "tag_parent" in groups:
        declared["parent"] = fields.Function(
            lambda t: None if t.get("parent") is None else tag_iri(t["parent"])
        )
    return Schema.from_dict(declared, name="TagSchema")


@cache  # pure in its (hashable) arguments: build each schema class once
def node_schema(groups: frozenset[str], *, with_position: bool) -> type[Schema]:
    declared: dict[str, fields.Field] = {
        "@type": fields.Constant("Node"),
        "@id": fields.Function(lambda n: node_iri(n["id"])),
        "visible": fields.Boolean(),
    }
    if with_position:
        declared["position"] = fields.Raw()
    if "tag_base" in groups:
        declared["tags"] = fields.List(fields.Nested(tag_schema(groups)))
    name = "ItemNodeSchema" if with_position else "NodeSchema"
    return Schema.from_dict(declared, name=name)


@cache  # pure in its (hashable) arguments: build each schema class once
def document_schema(groups: frozenset[str]) -> type[Schema]:
    declared: dict[str, fields.Field] = {
        "@type": fields.Constant("Document"),
        "@id": fields.Function(lambda d: document_iri(d["id"])),
    }
    if "document_display" in groups:
        declared.update(
            relativePath=fields.String(attribute="relative_path"),
            filename=fields.String(),
            mimeType=fields.String(attribute="mime_type", allow_none=True),
            alt=fields.String(allow_none=True),
            imageWidth=fields.Integer(attribute="image_width", allow_none=True),
            imageHeight=fields.Integer(attribute="image_height", allow_none=True),
        )
    return Schema.from_dict(declared, name="DocumentSchema")


@cache  # pure in its (hashable) arguments: build each schema class once
def reference_schema(groups: frozenset[str], plurals: Plurals) -> type[Schema]:
    """A source listed by a `nodes` field: nodes_sources_base + urls. `plurals`: the stored
    plural of each node type, (name, plural) pairs."""
    plural_of = dict(plurals)
    declared: dict[str, fields.Field] = {
        "@id": fields.Function(lambda s: source_iri(plural_of[s["type"]], s["_id"])),
        "@type": fields.String(attribute="type"),
        "title": fields.String(),
        "publishedAt": fields.Function(lambda s: iso(s.get("published_at"))),
        "slug": fields.String(),
        "url": fields.Function(lambda s: s["url"] if s["reachable"] else None),
        "node": fields.Nested(node_schema(groups, with_position=False)),
    }
    return Schema.from_dict(declared, name="NodeSourceReferenceSchema")
