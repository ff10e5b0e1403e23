"""Marshmallow schemas of every response shape besides node-type items: they serialise the
responses and the OpenAPI document is generated from them (app.openapi adds only what depends on
the live site: one item schema per node type, and the unions of them).

Parts arrive as dicts keyed by their output names (`metaTitle`, `@id`); `keyed()` declares a field
read from and written to the same key. Fields marked required are always sent."""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields, validate

from app.naming import context_iri
from app.realms import SCHEMES
from schemas.fields import DISPLAY, document_schema, node_schema


def keyed(field: fields.Field, key: str) -> fields.Field:
    """`field` read from and written to `key` (an output name, such as `@id`)."""
    field.data_key = key
    field.attribute = key
    field.required = True
    return field


def text(key: str, *, nullable: bool = False, **metadata: Any) -> fields.Field:
    return keyed(fields.String(allow_none=nullable, metadata=metadata), key)


def const(key: str, value: str) -> fields.Field:
    return keyed(fields.Constant(value, metadata={"type": "string", "enum": [value]}), key)


def shaped(name: str, declared: dict[str, fields.Field]) -> type[Schema]:
    return Schema.from_dict(declared, name=name)


def with_context(schema: type[Schema], name: str, type_name: str) -> type[Schema]:
    """`schema` preceded by the `@context` of its type (resources served at their own IRI)."""
    declared = {"@context": const("@context", context_iri(type_name))}
    for key, field in schema._declared_fields.items():  # noqa: SLF001
        declared[key] = field
    return shaped(name, declared)


NodesSourcesHeadSchema = shaped(
    "NodesSourcesHeadSchema",
    {
        "@type": const("@type", "NodesSourcesHead"),
        "@id": text("@id"),
        "googleAnalytics": text("googleAnalytics", nullable=True),
        "googleTagManager": text("googleTagManager", nullable=True),
        "matomoTagManager": text("matomoTagManager", nullable=True),
        "matomoUrl": text("matomoUrl", nullable=True),
        "matomoSiteId": text("matomoSiteId", nullable=True),
        "siteName": text("siteName"),
        "metaTitle": text("metaTitle"),
        "metaDescription": text("metaDescription"),
        "noIndex": keyed(fields.Boolean(), "noIndex"),
        "policyUrl": text("policyUrl", nullable=True),
        "mainColor": text("mainColor", nullable=True),
        "facebookUrl": text("facebookUrl", nullable=True),
        "instagramUrl": text("instagramUrl", nullable=True),
        "twitterUrl": text("twitterUrl", nullable=True),
        "youtubeUrl": text("youtubeUrl", nullable=True),
        "linkedinUrl": text("linkedinUrl", nullable=True),
        "tiktokUrl": text("tiktokUrl", nullable=True),
        "homePageUrl": text("homePageUrl", nullable=True),
        "shareImage": keyed(fields.Nested(document_schema(DISPLAY), allow_none=True), "shareImage"),
    },
)

RealmSchema = shaped(
    "RealmSchema",
    {
        "@type": const("@type", "Realm"),
        "@id": text("@id"),
        "name": text("name"),
        "behaviour": keyed(
            fields.String(metadata={"enum": ["none", "deny", "hide_blocks"]}), "behaviour"
        ),
        "type": keyed(fields.String(metadata={"enum": sorted(SCHEMES)}), "type"),
        "authenticationScheme": keyed(
            fields.String(metadata={"enum": sorted(set(SCHEMES.values()))}),
            "authenticationScheme",
        ),
    },
)

RedirectionSchema = shaped(
    "RedirectionSchema",
    {
        "@type": const("@type", "Redirection"),
        "@id": text("@id"),
        "redirectUri": text("redirectUri"),
        "type": keyed(fields.Integer(metadata={"enum": [301, 302]}), "type"),
        # where the client should go: the absolute redirectUri (types' RoadizRedirection.url)
        "url": text("url"),
    },
)

# Items (node sources) arrive serialised by their node type's schema (schemas.items); the
# document names their union per place (app.openapi).
BreadcrumbsSchema = shaped(
    "BreadcrumbsSchema",
    {
        "@type": const("@type", "Breadcrumbs"),
        "@id": text("@id"),
        "items": keyed(fields.List(fields.Dict()), "items"),
    },
)


@cache
def walker_schema(counts: bool) -> type[Schema]:
    """A walker read from walkers.walker.Walker (its item already serialised, `dumped`);
    childrenCount, level and maxLevel only with `counts` (the children_count and walker_level
    groups of common content)."""
    name = "MenuWalkerSchema" if counts else "WalkerSchema"
    declared: dict[str, fields.Field] = {
        "@type": fields.String(attribute="kind", data_key="@type", required=True),
        "@id": fields.String(attribute="blank_id", data_key="@id", required=True),
        "children": fields.List(fields.Nested(lambda: walker_schema(counts)()), required=True),
    }
    if counts:
        declared["childrenCount"] = fields.Function(
            lambda w: len(w.children), required=True, metadata={"type": "integer"}
        )
    declared["item"] = fields.Dict(attribute="dumped", required=True)
    if counts:
        declared["level"] = fields.Integer(required=True)
        declared["maxLevel"] = fields.Integer(attribute="max_level", required=True)
    return shaped(name, declared)


ProblemSchema = shaped(
    "ProblemSchema",
    {
        "@context": text("@context"),
        "@id": text("@id"),
        "@type": const("@type", "hydra:Error"),
        "title": text("title"),
        "detail": text("detail"),
        "status": keyed(fields.Integer(), "status"),
        "type": text("type"),
        "description": text("description"),
        "hydra:title": text("hydra:title"),
        "hydra:description": text("hydra:description"),
    },
)

CommonContentSchema = shaped(
    "CommonContentSchema",
    {
        "@context": const("@context", context_iri("CommonContent")),
        "@id": text("@id"),
        "@type": const("@type", "CommonContent"),
        "home": keyed(fields.Dict(allow_none=True), "home"),
        "menus": keyed(
            fields.Dict(keys=fields.String(), values=fields.Nested(walker_schema(True))), "menus"
        ),
        "head": keyed(fields.Nested(NodesSourcesHeadSchema), "head"),
    },
)

PartialCollectionViewSchema = shaped(
    "PartialCollectionViewSchema",
    {
        "@id": text("@id"),
        "@type": const("@type", "hydra:PartialCollectionView"),
        "hydra:first": text("hydra:first"),
        # keyset pages (`cursor`, app/keyset.py) have no last page and no total
        "hydra:last": fields.String(data_key="hydra:last", attribute="hydra:last"),
        "hydra:previous": fields.String(data_key="hydra:previous", attribute="hydra:previous"),
        "hydra:next": fields.String(data_key="hydra:next", attribute="hydra:next"),
    },
)

NodeSourceCollectionSchema = shaped(
    "NodeSourceCollectionSchema",
    {
        "@context": text("@context"),
        "@id": text("@id"),
        "@type": const("@type", "hydra:Collection"),
        "hydra:totalItems": fields.Integer(
            validate=validate.Range(min=0),
            data_key="hydra:totalItems",
            attribute="hydra:totalItems",
        ),
        "hydra:member": keyed(fields.List(fields.Dict()), "hydra:member"),
        "hydra:view": keyed(fields.Nested(PartialCollectionViewSchema), "hydra:view"),
    },
)

RealmResourceSchema = with_context(RealmSchema, "RealmResourceSchema", "Realm")

_node = node_schema(DISPLAY, view="Item")
NodeResourceSchema = shaped(
    "NodeResourceSchema",
    {
        "@context": const("@context", context_iri("Node")),
        **_node._declared_fields,  # noqa: SLF001
        "nodeName": text("nodeName"),
        "nodeType": text("nodeType"),
    },
)

LivenessSchema = shaped("LivenessSchema", {"status": const("status", "ok")})
ReadinessSchema = shaped(
    "ReadinessSchema",
    {
        "status": const("status", "ready"),
        "generation": keyed(
            fields.Integer(metadata={"description": "The site generation served"}), "generation"
        ),
        "loaded_at": keyed(
            fields.String(allow_none=True, metadata={"format": "date-time"}), "loaded_at"
        ),
        "age_seconds": keyed(
            fields.Raw(
                allow_none=True,
                metadata={"type": "number", "description": "Seconds since loaded_at"},
            ),
            "age_seconds",
        ),
    },
)
