"""Marshmallow fields of the sub-objects every item carries: node, tags, documents, references.

Each schema class is built once per *shape* (what the groups change in it), so that one shape is
one class, and one component of the OpenAPI document, whatever the groups that asked for it."""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields, post_dump

from app.naming import document_iri, node_iri, source_iri, tag_iri, translation_iri

# Groups of the resources served at their own IRI (node, document, tag) and of the head's image.
DISPLAY = frozenset({"document_display", "tag_base", "tag_parent"})

# The stored plural of every node type, as (name, plural) pairs (hashable: schemas are cached).
Plurals = tuple[tuple[str, str], ...]

# Documented types of computed fields (fields.Function carries no type of its own).
IRI = {"type": "string"}
NULLABLE_IRI = {"type": ["string", "null"]}
NULLABLE_DATE_TIME = {"type": ["string", "null"], "format": "date-time"}


def iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def constant(value: str) -> fields.Field:
    return fields.Constant(value, metadata={"type": "string", "enum": [value]})


# Inside node sources, a document without a known average colour shows Roadiz's default.
DEFAULT_AVERAGE_COLOR = "#ffffff"


class SkipNulls(Schema):
    """Roadiz's `skip_null_values` (roadiz-read-surface.md §1, Nulls): a null field is omitted."""

    @post_dump
    def _skip_nulls(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {key: value for key, value in data.items() if value is not None}


def shape(
    declared: dict[str, fields.Field], name: str, omitted_when_null: tuple[str, ...] = ()
) -> type[Schema]:
    """A schema class of `declared` fields, every one always sent (required in the document)
    except those of `omitted_when_null`, left out when null as Roadiz does."""
    for key, field in declared.items():
        field.required = key not in omitted_when_null
    base = SkipNulls if omitted_when_null else Schema
    return base.from_dict(declared, name=name)


def document_dumper(groups: frozenset[str]) -> Schema:
    return _document_dumper("document_display" in groups)


@cache  # the instance is stateless: one per shape, shared by every request
def _document_dumper(display: bool) -> Schema:
    return _document_schema(display)()


def tag_schema(groups: frozenset[str]) -> type[Schema]:
    return _tag_schema("tag_parent" in groups)


@cache  # one class per shape
def _tag_schema(with_parent: bool) -> type[Schema]:
    declared: dict[str, fields.Field] = {
        "@type": constant("Tag"),
        "@id": fields.Function(lambda t: tag_iri(t["id"]), metadata=IRI),
        "slug": fields.String(),
        "name": fields.String(),
        "visible": fields.Boolean(),
    }
    if with_parent:  # nested (TAG_PARENT_DEPTH levels); a root tag has none: omitted
        declared["parent"] = fields.Nested(lambda: _tag_schema(True)())
    name = "TagSchema" if with_parent else "TagSummarySchema"
    return shape(declared, name, omitted_when_null=("parent",))


@cache  # one class
def translation_schema() -> type[Schema]:
    """A node source's translation (app.site.Translation), as Roadiz embeds it in every source
    and as /api/translations lists it."""
    declared: dict[str, fields.Field] = {
        "@id": fields.Function(lambda t: translation_iri(t.id), metadata=IRI),
        "@type": constant("Translation"),
        "name": fields.String(),
        "defaultTranslation": fields.Boolean(attribute="default"),
        "available": fields.Boolean(),
        "locale": fields.Function(lambda t: t.override_locale or t.locale, metadata=IRI),
    }
    return shape(declared, "TranslationSchema")


# What a source's node shows beyond `@type`, `@id`, `visible` and `tags`, by where the source is
# (schemas.items.ItemRole; seed.md Node, roadiz-read-surface.md §2): the WebResponse item's its
# `position`; a collection member's its `nodeName`; a source at its @id also how its children are
# ordered: by position, ascending, the one order the fixture format has.
NODE_VIEWS: dict[str, tuple[str, ...]] = {
    "": (),
    "Item": ("position",),
    "Member": ("nodeName",),
    "Resource": ("nodeName", "childrenOrder", "childrenOrderDirection"),
}
CHILDREN_ORDER, CHILDREN_ORDER_DIRECTION = "position", "ASC"


def node_schema(groups: frozenset[str], *, view: str = "") -> type[Schema]:
    """The node of a source in `groups`, as `view` (a key of NODE_VIEWS) shows it."""
    tags = "tag_base" in groups
    return _node_schema(tags, tags and "tag_parent" in groups, view)


@cache  # one class per shape
def _node_schema(tags: bool, tag_parent: bool, view: str) -> type[Schema]:
    declared: dict[str, fields.Field] = {
        "@type": constant("Node"),
        "@id": fields.Function(lambda n: node_iri(n["id"]), metadata=IRI),
    }
    extras = NODE_VIEWS[view]
    if "nodeName" in extras:
        declared["nodeName"] = fields.String(attribute="node_name")
    declared["visible"] = fields.Boolean()
    if "position" in extras:
        declared["position"] = fields.Raw(metadata={"type": "number"})
    if "childrenOrder" in extras:
        declared["childrenOrder"] = constant(CHILDREN_ORDER)
        declared["childrenOrderDirection"] = constant(CHILDREN_ORDER_DIRECTION)
    if tags:
        declared["tags"] = fields.List(fields.Nested(_tag_schema(tag_parent)))
    name = f"{view}Node" + ("" if tags else "WithoutTags")
    if tags and not tag_parent:
        name += "WithTagSummaries"
    return shape(declared, f"{name}Schema")


def document_schema(groups: frozenset[str]) -> type[Schema]:
    return _document_schema("document_display" in groups)


@cache  # one class
def folder_schema() -> type[Schema]:
    """A document's folder (`document_folders`); the fixture format has none: always `[]`."""
    declared = {"slug": fields.String(), "visible": fields.Boolean(), "name": fields.String()}
    return shape(declared, "FolderSchema")


DOCUMENT_OPTIONAL = ("mimeType", "imageWidth", "imageHeight", "alt")


@cache  # one class per shape
def _document_schema(display: bool) -> type[Schema]:
    declared: dict[str, fields.Field] = {
        "@type": constant("Document"),
        "@id": fields.Function(lambda d: document_iri(d["id"]), metadata=IRI),
    }
    if display:  # a summary (app.summaries) as Roadiz shows documents inside node sources (§7)
        declared.update(
            relativePath=fields.String(attribute="relative_path"),
            type=fields.String(),
            processable=fields.Boolean(),
            mimeType=fields.String(attribute="mime_type"),
            imageWidth=fields.Integer(attribute="image_width"),
            imageHeight=fields.Integer(attribute="image_height"),
            mediaDuration=fields.Integer(attribute="media_duration"),
            imageAverageColor=fields.Function(
                lambda d: d.get("image_average_color") or DEFAULT_AVERAGE_COLOR,
                metadata={"type": "string"},
            ),
            alt=fields.String(),
            filename=fields.String(),
            id=fields.Integer(),
            folders=fields.List(fields.Nested(folder_schema())),
        )
    name = "DocumentSchema" if display else "DocumentLinkSchema"
    # unknown size or type, and an empty alt text (decorative): omitted
    return shape(declared, name, omitted_when_null=DOCUMENT_OPTIONAL if display else ())


def reference_schema(groups: frozenset[str], plurals: Plurals) -> type[Schema]:
    """A source listed by a `nodes` field: nodes_sources_base + urls. `plurals`: the stored
    plural of each node type, (name, plural) pairs."""
    tags = "tag_base" in groups
    return _reference_schema(tags, tags and "tag_parent" in groups, plurals)


@cache  # one class per shape (and site's plurals)
def _reference_schema(tags: bool, tag_parent: bool, plurals: Plurals) -> type[Schema]:
    plural_of = dict(plurals)
    node = _node_schema(tags, tag_parent, "")
    declared: dict[str, fields.Field] = {
        "@id": fields.Function(lambda s: source_iri(plural_of[s["type"]], s["_id"]), metadata=IRI),
        "@type": fields.String(attribute="type"),
        "title": fields.String(),
        "publishedAt": fields.Function(
            lambda s: iso(s.get("published_at")), metadata=NULLABLE_DATE_TIME
        ),
        "slug": fields.String(),
        "url": fields.Function(
            lambda s: s["url"] if s["reachable"] else None, metadata=NULLABLE_IRI
        ),
        "node": fields.Nested(node),
        "translation": fields.Nested(translation_schema()),
    }
    name = "NodeSourceReference" + node.__name__.removeprefix("Node").removesuffix("Schema")
    return shape(declared, f"{name}Schema")
