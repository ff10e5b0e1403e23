"""The OpenAPI document of the live site: the static part from flask-smorest, plus what depends on
the node types in the database (one `<type>_get_by_path` operation and item schema per type)."""

from __future__ import annotations

import copy
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from app.listing.openapi import schemas as listing_schemas
from app.realms import SCHEMES
from app.resources import DISPLAY
from app.site import COMMON_CONTENT_GROUPS, SiteModel
from schemas.fields import document_schema, node_schema
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


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


# Every error a request can meet, sent as application/problem+json (app.errors.problem).
ERRORS = {
    "400": "Malformed parameter (e.g. missing path, a parameter given twice)",
    "401": "A realm denies the resource without credentials, or preview without a token",
    "403": "Preview asked with a token that does not grant it",
    "404": "No published item, resource or translation here",
    "406": "The Accept header admits no JSON media type",
    "414": "The request URL is too long",
    "503": "The database does not answer, or no site is loaded",
}
HYGIENE = ("400", "414")  # checked before any route (app.api.hygiene)
API_ERRORS = tuple(ERRORS)
JSON_LD = ("application/ld+json", "application/json")  # chosen by Accept (app.api.caching)
# path -> (description of the 200, its schema (a components/schemas name), media types, errors).
RESPONSES: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {
    "/healthz": ("The process is up", "Liveness", ("application/json",), HYGIENE),
    "/readyz": ("The database answers", "Readiness", ("application/json",), (*HYGIENE, "503")),
    WEB_RESPONSE_PATH: ("The WebResponse of the item at the path", "WebResponse", JSON_LD,
                        API_ERRORS),
    "/api/common_content": ("The content every page shares", "CommonContent", JSON_LD, API_ERRORS),
    "/api/{plural}/{source_id}": ("A node source", "NodeSource", JSON_LD, API_ERRORS),
    "/api/{plural}": ("A page of node sources", "NodeSourceCollection", JSON_LD, API_ERRORS),
    "/api/nodes/{node_id}": ("A node", "Node", JSON_LD, API_ERRORS),
    "/api/documents/{document_id}": ("A document", "Document", JSON_LD, API_ERRORS),
    "/api/tags/{tag_id}": ("A tag, with its parents", "TagResource", JSON_LD, API_ERRORS),
    "/api/tags": ("A page of tags", "TagCollection", JSON_LD, API_ERRORS),
    "/api/translations": ("A page of translations", "TranslationCollection", JSON_LD, API_ERRORS),
    "/api/translations/{translation_id}": ("A translation", "TranslationResource", JSON_LD,
                                           API_ERRORS),
    "/api/{plural}/archives": ("Years and months of publication", "ArchiveCollection", JSON_LD,
                               API_ERRORS),
    "/api/documents": ("A page of public documents", "DocumentCollection", JSON_LD, API_ERRORS),
    "/api/realms/{realm_id}": ("A realm", "Realm", JSON_LD, API_ERRORS),
}  # fmt: skip


def _problem_responses(statuses: tuple[str, ...] = API_ERRORS) -> dict[str, Any]:
    content = {"application/problem+json": {"schema": PROBLEM}}
    return {status: {"description": ERRORS[status], "content": content} for status in statuses}


def _responses(path: str) -> dict[str, Any]:
    description, schema, media_types, errors = RESPONSES[path]
    content = {media_type: {"schema": _ref(schema)} for media_type in media_types}
    return {"200": {"description": description, "content": content}, **_problem_responses(errors)}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    """A closed object whose every property is required (as the service always sends them)."""
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}  # fmt: skip


def _with_context(json_schema: dict[str, Any], **properties: Any) -> dict[str, Any]:
    """A resource schema: `json_schema` preceded by its "@context" and followed by `properties`."""
    return _object({"@context": {"type": "string"}, **json_schema["properties"], **properties})


def _one_of(names: list[str]) -> dict[str, Any]:
    return {"oneOf": [_ref(name) for name in names]}


def _status(value: str) -> dict[str, Any]:
    return _object({"status": {"type": "string", "const": value}})


def _resource_schemas(site: SiteModel, schemas: SchemaRegistry, converter: Any) -> dict[str, Any]:
    """Schemas of the entry points of app.api.resources and of common_content, from the same
    marshmallow schemas that serialise them."""
    out: dict[str, Any] = {}
    types = site.reachable_types()
    for node_type in types:
        groups = frozenset(node_type.operation_groups())
        common = schemas.item(node_type, frozenset(COMMON_CONTENT_GROUPS), site.plurals)
        for suffix, schema in (
            ("Resource", schemas.item(node_type, groups, site.plurals, item=True)),
            ("Item", schemas.item(node_type, groups, site.plurals)),
            ("CommonContentItem", common),
        ):
            json_schema = converter.schema2jsonschema(schema)
            json_schema["properties"]["@type"] = {"type": "string", "const": node_type.name}
            if suffix == "Resource":
                json_schema = _with_context(json_schema)
            else:
                json_schema["required"] = list(json_schema["properties"])
            out[f"{node_type.name}{suffix}"] = json_schema
    names = [t.name for t in types]
    out["NodeSource"] = _one_of([f"{n}Resource" for n in names])
    # /api/nodes_sources lists blocks too, and properties[] keeps only the fields it names
    out["SparseNodeSource"] = {
        "type": "object",
        "properties": {"@id": {"type": "string"}, "@type": {"type": "string"}},
        "required": ["@id", "@type"],
    }
    member = {"anyOf": [_ref(f"{n}Item") for n in names] + [_ref("SparseNodeSource")]}
    view = {
        "type": "object",
        "properties": {
            "@id": {"type": "string"},
            "@type": {"const": "hydra:PartialCollectionView"},
            **{f"hydra:{k}": {"type": "string"} for k in ("first", "last", "previous", "next")},
        },
        "required": ["@id", "@type"],
        "additionalProperties": False,
    }
    out["IriTemplate"] = _object({
        "@type": {"const": "hydra:IriTemplate"},
        "hydra:template": {"type": "string"},
        "hydra:variableRepresentation": {"const": "BasicRepresentation"},
        "hydra:mapping": {"type": "array", "items": _object({
            "@type": {"const": "IriTemplateMapping"},
            "variable": {"type": "string"},
            "property": {"type": "string"},
            "required": {"type": "boolean"},
        })},
    })  # fmt: skip
    out["NodeSourceCollection"] = _object({
        "@context": {"type": "string"},
        "@id": {"type": "string"},
        "@type": {"const": "hydra:Collection"},
        "hydra:totalItems": {"type": "integer", "minimum": 0},
        "hydra:member": {"type": "array", "items": member},
        "hydra:view": view,
        "hydra:search": _ref("IriTemplate"),
    }) | {"required": ["@context", "@id", "@type", "hydra:totalItems", "hydra:member"]}  # fmt: skip
    home = _one_of([f"{n}CommonContentItem" for n in names])
    home["oneOf"].append({"type": "null"})
    out["CommonContent"] = _object({
        "@context": {"type": "string"},
        "@id": {"type": "string"},
        "@type": {"const": "CommonContent"},
        "home": home,
        "menus": {"type": "object", "additionalProperties": _ref("Walker")},
        "head": {"type": "object"},
    })  # fmt: skip
    node = converter.schema2jsonschema(node_schema(DISPLAY, with_position=True))
    out["Node"] = _with_context(node, nodeName={"type": "string"}, nodeType={"type": "string"})
    out["Document"] = _with_context(converter.schema2jsonschema(document_schema(DISPLAY)))
    out.update(listing_schemas())
    out["Realm"] = _object({
        "@context": {"type": "string"},
        "@type": {"const": "Realm"},
        "@id": {"type": "string"},
        "name": {"type": "string"},
        "behaviour": {"type": "string"},
        "type": {"type": "string", "enum": sorted(SCHEMES)},
        "authenticationScheme": {"type": "string", "enum": sorted(set(SCHEMES.values()))},
    })  # fmt: skip
    out["Liveness"] = _status("ok")
    out["Readiness"] = _status("ready")
    return out


def _path_parameters(document: dict[str, Any], site: SiteModel) -> None:
    """Path parameters as the converters of the routes accept them: `plural` one of the reachable
    types' plurals (any other is 404), ids non-negative integers."""
    plurals = sorted([*(t.plural for t in site.reachable_types()), "nodes_sources"])
    for item in document["paths"].values():
        for parameter in item.get("parameters", []):
            if parameter["in"] == "path" and parameter["name"] == "plural":
                parameter["schema"] = {"type": "string", "enum": plurals}


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
        schema = schemas.item(
            node_type, frozenset(node_type.operation_groups()), site.plurals, item=True
        )
        json_schema = converter.schema2jsonschema(schema)
        json_schema["properties"]["@type"] = {"type": "string", "const": node_type.name}
        json_schema["required"] = list(json_schema["properties"])
        components[f"{node_type.name}WebResponseItem"] = json_schema
    components["Redirection"] = REDIRECTION_SCHEMA
    components["Walker"] = WALKER_SCHEMA
    components["Problem"] = PROBLEM_SCHEMA
    components["WebResponse"] = web_response_schema(extra_properties or {}, [t.name for t in types])
    components.update(_resource_schemas(site, schemas, converter))
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method != "parameters":  # flask-smorest's DEFAULT_ERROR is not what errors are
                operation["responses"] = (
                    _responses(path) if path in RESPONSES else _problem_responses()
                )
    document["components"].pop("responses", None)
    components.pop("Error", None)
    _path_parameters(document, site)
    operation = document["paths"][WEB_RESPONSE_PATH]["get"]
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
