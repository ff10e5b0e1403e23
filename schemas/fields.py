"""Marshmallow fields of the sub-objects every item carries: node, tags, documents, references."""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields

from app.naming import node_iri, source_iri


@cache  # the instance is stateless: one per groups, shared by every request
def document_dumper(groups: frozenset[str]) -> Schema:
    return document_schema(groups)()


def iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


@cache  # pure in its (hashable) arguments: build each schema class once
def tag_schema(groups: frozenset[str]) -> type[Schema]:
    declared: dict[str, fields.Field] = {
        "@type": fields.Constant("Tag"),
        "@id": fields.Function(lambda t: f"/api/tags/{t['id']}"),
        "slug": fields.String(),
        "name": fields.String(),
        "visible": fields.Boolean(),
    }
    if "tag_parent" in groups:
        declared["parent"] = fields.Function(
            lambda t: None if t.get("parent") is None else f"/api/tags/{t['parent']}"
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
        "@id": fields.Function(lambda d: f"/api/documents/{d['id']}"),
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
def reference_schema(groups: frozenset[str]) -> type[Schema]:
    """A source listed by a `nodes` field: nodes_sources_base + urls."""
    declared: dict[str, fields.Field] = {
        "@id": fields.Function(lambda s: source_iri(s["type"], s["_id"])),
        "@type": fields.String(attribute="type"),
        "title": fields.String(),
        "publishedAt": fields.Function(lambda s: iso(s.get("published_at"))),
        "slug": fields.String(),
        "url": fields.Function(lambda s: s["url"] if s["reachable"] else None),
        "node": fields.Nested(node_schema(groups, with_position=False)),
    }
    return Schema.from_dict(declared, name="NodeSourceReferenceSchema")
