"""The OpenAPI document of the live site: the static part from flask-smorest, plus what depends on
the node types in the database (one `<type>_get_by_path` operation and item schema per type)."""

from __future__ import annotations

import copy
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from app.site import SiteModel
from schemas.items import SchemaRegistry

WEB_RESPONSE_PATH = "/api/web_response_by_path"
SUMMARY = "Get a resource by its path wrapped in a WebResponse object"
PROBLEM = {"$ref": "#/components/schemas/Problem"}

PROBLEM_SCHEMA = {
    "type": "object",
    "properties": {
        "@context": {"type": "string"},
        "@id": {"type": "string"},
        "@type": {"type": "string"},
        "title": {"type": "string"},
        "detail": {"type": "string"},
        "status": {"type": "integer"},
        "type": {"type": "string"},
        "description": {"type": "string"},
        "hydra:title": {"type": "string"},
        "hydra:description": {"type": "string"},
    },
    "required": ["@context", "@id", "@type", "title", "detail", "status", "type"],
}
REDIRECTION_SCHEMA = {
    "type": "object",
    "properties": {
        "@type": {"type": "string", "const": "Redirection"},
        "redirectUri": {"type": "string"},
        "type": {"type": "integer", "enum": [301, 302]},
    },
    "required": ["@type", "redirectUri", "type"],
}
WALKER_SCHEMA = {
    "type": "object",
    "properties": {
        "@type": {"type": "string"},
        "@id": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/components/schemas/Walker"}},
        "childrenCount": {"type": "integer"},
        "item": {"type": "object"},
        "level": {"type": "integer"},
        "maxLevel": {"type": "integer"},
    },
    "required": ["@type", "@id", "children", "item"],
}


def _converter():
    spec = APISpec("items", "1", "3.1.0", plugins=[MarshmallowPlugin(lambda schema: None)])
    return spec.plugins[0].converter


def _problem_responses() -> dict[str, Any]:
    content = {"application/problem+json": {"schema": PROBLEM}}
    return {
        status: {"description": text, "content": content}
        for status, text in (
            ("400", "Malformed parameter (e.g. missing path)"),
            ("401", "A realm denies the resource without credentials"),
            ("404", "No published item at this path"),
            ("503", "The database does not answer"),
        )
    }


def web_response_schema(extra: dict[str, Any], types: list[str]) -> dict[str, Any]:
    refs = {name: f"#/components/schemas/{name}WebResponseItem" for name in types}
    refs["Redirection"] = "#/components/schemas/Redirection"
    properties = {
        "@context": {"type": "string"},
        "@id": {"type": "string"},
        "@type": {"type": "string", "const": "WebResponse"},
        "item": {
            "oneOf": [{"$ref": ref} for ref in refs.values()],
            "discriminator": {"propertyName": "@type", "mapping": refs},
        },
        "breadcrumbs": {"type": "object"},
        "head": {"type": "object"},
        "blocks": {"type": "array", "items": {"$ref": "#/components/schemas/Walker"}},
        "realms": {"type": "array", "items": {"type": "object"}},
        "hidingBlocks": {"type": "boolean"},
        **extra,
    }
    return {"type": "object", "properties": properties, "required": list(properties)}


def build_document(
    base: dict[str, Any],
    site: SiteModel,
    schemas: SchemaRegistry,
    extra_properties: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`base` (flask-smorest's document) completed for the node types of `site`."""
    document = copy.deepcopy(base)
    components = document.setdefault("components", {}).setdefault("schemas", {})
    converter = _converter()
    types = site.reachable_types()
    for node_type in types:
        schema = schemas.item(node_type, frozenset(node_type.operation_groups()), item=True)
        json_schema = converter.schema2jsonschema(schema)
        json_schema["required"] = list(json_schema["properties"])
        components[f"{node_type.name}WebResponseItem"] = json_schema
    components["Redirection"] = REDIRECTION_SCHEMA
    components["Walker"] = WALKER_SCHEMA
    components["Problem"] = PROBLEM_SCHEMA
    components["WebResponse"] = web_response_schema(extra_properties or {}, [t.name for t in types])
    operation = document["paths"][WEB_RESPONSE_PATH]["get"]
    operation["responses"] = {
        "200": {
            "description": "The WebResponse of the item at the path",
            "content": {
                "application/ld+json": {"schema": {"$ref": "#/components/schemas/WebResponse"}}
            },
        },
        **_problem_responses(),
    }
    operation["x-operations"] = [
        {
            "operationId": node_type.operation,
            "nodeType": node_type.name,
            "method": "GET",
            "path": "/web_response_by_path",
            "tags": ["WebResponse"],
            "summary": SUMMARY,
            "read": False,
            "pagination": False,
            "maxDepth": True,
            "serializationGroups": list(node_type.operation_groups()),
        }
        for node_type in types
    ]
    return document
