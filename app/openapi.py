"""The OpenAPI document of the live site: flask-smorest's paths and parameters, the components
generated from the marshmallow schemas that serialise the responses (schemas/), and what depends on
the node types in the database: one item schema per node type and role, the unions of them where
items appear, and one `<type>_get_by_path` entry of `x-operations` per reachable type."""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema

from app.hydra import API_DOCUMENTATION_LINK
from app.listing.openapi import node_source_collection
from app.listing.openapi import schemas as listing_schemas
from app.naming import context_iri
from app.plain_format import COLLECTION, DOCUMENT, keeps
from app.site import COMMON_CONTENT_GROUPS, NodeType, SiteModel
from app.web_response import BREADCRUMB_GROUPS
from schemas import shapes
from schemas.items import ItemRole, SchemaRegistry

WEB_RESPONSE_PATH = "/api/web_response_by_path"
SUMMARY = "Get a resource by its path wrapped in a WebResponse object"
PROBLEM = {"$ref": "#/components/schemas/Problem"}

# Every error a request can meet, sent as application/problem+json (app.api.problems.problem).
ERRORS = {
    "400": "Malformed parameter (e.g. missing path, a parameter given twice)",
    "401": "A realm denies the resource without credentials, or preview without a token",
    "403": "Preview asked with a token that does not grant it",
    "404": "No published item, resource or translation here",
    "406": "The Accept header admits neither application/ld+json, application/json nor text/html "
    "(text/html alone: the Swagger UI)",
    "412": "If-Match is given and matches no ETag of this representation",
    "414": "The request URL is too long",
    "503": "The database does not answer (in the request's time budget), or no site is loaded",
}
HYGIENE = ("400", "414")  # checked before any route (app.api.hygiene)
API_ERRORS = tuple(ERRORS)
HEALTH_PATHS = ("/healthz", "/readyz")
# Parameters every read accepts (app.api.arguments.Query).
GLOBAL_PARAMETERS = ("_preview", "password")
JSON_LD = ("application/ld+json", "application/json")  # chosen by Accept (app.api.caching)
# path -> (description of the 200, its schema (a components/schemas name), media types, errors).
RESPONSES: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {
    "/healthz": ("The process is up", "Liveness", ("application/json",), HYGIENE),
    "/readyz": ("The database answers and a site is loaded", "Readiness", ("application/json",),
                (*HYGIENE, "503")),
    WEB_RESPONSE_PATH: ("The WebResponse of the item at the path", "WebResponse", JSON_LD,
                        API_ERRORS),
    "/api/common_content": ("The content every page shares", "CommonContent", JSON_LD, API_ERRORS),
    "/api/{plural}/{source_id}": ("A node source", "NodeSource", JSON_LD, API_ERRORS),
    "/api/{plural}": ("A page of node sources", "NodeSourceCollection", JSON_LD, API_ERRORS),
    "/api/nodes/{node_id}": ("A node", "NodeResource", JSON_LD, API_ERRORS),
    "/api/documents/{document_id}": ("A document", "DocumentResource", JSON_LD, API_ERRORS),
    "/api/tags/{tag_id}": ("A tag, with its parents", "TagWithParents", JSON_LD, API_ERRORS),
    "/api/tags": ("A page of tags", "TagCollection", JSON_LD, API_ERRORS),
    "/api/translations": ("A page of translations", "TranslationCollection", JSON_LD, API_ERRORS),
    "/api/translations/{translation_id}": ("A translation", "TranslationResource", JSON_LD,
                                           API_ERRORS),
    "/api/{plural}/archives": ("Years and months of publication", "ArchiveCollection", JSON_LD,
                               API_ERRORS),
    "/api/documents": ("A page of documents", "DocumentCollection", JSON_LD, API_ERRORS),
    "/api/search": ("Search results, best first", "SearchResults", JSON_LD, API_ERRORS),
    "/api/nodes_sources/search": ("Search results, best first", "SearchResults", JSON_LD,
                                  API_ERRORS),
    "/api/realms/{realm_id}": ("A realm", "RealmResource", JSON_LD, API_ERRORS),
}  # fmt: skip

# Response shapes, by component name; the parts they nest get their own component (the name of
# their schema without its `Schema` suffix).
SHAPES: dict[str, type[Schema]] = {
    "CommonContent": shapes.CommonContentSchema,
    "NodeSourceCollection": shapes.NodeSourceCollectionSchema,
    "NodeResource": shapes.NodeResourceSchema,
    "RealmResource": shapes.RealmResourceSchema,
    "Redirection": shapes.RedirectionSchema,
    "Problem": shapes.ProblemSchema,
    "Liveness": shapes.LivenessSchema,
    "Readiness": shapes.ReadinessSchema,
}

SECURITY_SCHEMES = {
    "bearer": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": "HS256 token: ROLE_BACKEND_USER grants preview (`_preview`); `roles` and "
        "`sub` grant bearer_role and bearer_user realms.",
    },
    "realmPassword": {
        "type": "apiKey",
        "in": "query",
        "name": "password",
        "description": "Password of a plain_password realm (also accepted as the header "
        "`Authorization: PasswordQuery <password>`).",
    },
}
# Every operation is public; credentials only widen what it shows.
SECURITY = [{}, {"bearer": []}, {"realmPassword": []}]
SERVERS = [{"url": "/", "description": "This service"}]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _header(description: str) -> dict[str, Any]:
    return {"description": description, "schema": {"type": "string"}}


# app.api.hygiene: on every response under /api, errors and 304s too
DOCUMENTATION_LINK = _header(API_DOCUMENTATION_LINK)


def _problem_responses(
    statuses: tuple[str, ...] = API_ERRORS, *, api: bool = True
) -> dict[str, Any]:
    """Problem responses; `api`: of a route under /api (with Hydra's documentation link)."""
    content = {"application/problem+json": {"schema": PROBLEM}}
    headers = {"headers": {"Link": DOCUMENTATION_LINK}} if api else {}
    return {
        status: {"description": ERRORS[status], **headers, "content": content}
        for status in statuses
    }


# The headers of every successful read (app.api.caching.send and replay; behaviour.md, HTTP
# caching), and of its 304.
CACHING_HEADERS = {
    "ETag": _header("Strong validator of this body in this format (If-None-Match: 304)"),
    "Cache-Control": _header(
        "public, max-age, s-maxage (the node's ttl, else the default) and "
        "stale-while-revalidate; private, no-store in preview or with "
        "credentials"
    ),
    "Vary": _header("Accept, Accept-Language, Authorization, Origin, Accept-Encoding"),
}
SUCCESS_HEADERS = {
    **CACHING_HEADERS,
    "Content-Language": _header("The locale of the translation served"),
    "Cache-Tags": _header(
        "IRIs of the node sources, nodes, documents and tags in the body, "
        "compact form, for CDN purges"
    ),
    "Link": _header(
        '<url>; rel="alternate"; hreflang="<locale>" for each published translation '
        f"of the item, when it has some, then Hydra's {API_DOCUMENTATION_LINK}"
    ),
    "Content-Location": _header("The canonical url of the item a redirection leads to"),
}
NOT_MODIFIED = {
    "description": "Not Modified: If-None-Match names the ETag of the body (no body)",
    "headers": {**CACHING_HEADERS, "Link": SUCCESS_HEADERS["Link"]},
}


def _responses(path: str) -> dict[str, Any]:
    description, schema, media_types, errors = RESPONSES[path]
    # a JSON-LD body's JSON format is described by its own schema (app.plain_format)
    plain = _plain_name(schema) if media_types == JSON_LD else schema
    content = {
        media_type: {"schema": _ref(schema if media_type == JSON_LD[0] else plain)}
        for media_type in media_types
    }
    if path in HEALTH_PATHS:  # plain JSON, never cached
        return {"200": {"description": description, "content": content},
                **_problem_responses(errors, api=path.startswith("/api"))}  # fmt: skip
    success = {"description": description, "headers": SUCCESS_HEADERS, "content": content}
    return {"200": success, "304": NOT_MODIFIED, **_problem_responses(errors)}


def _one_of(names: list[str], *, nullable: bool = False) -> dict[str, Any]:
    """A union of item schemas told apart by `@type` (each fixes its own)."""
    union: dict[str, Any] = {"oneOf": [_ref(name) for name in names]}
    if nullable:
        union["oneOf"].append({"type": "null"})
    return union


def _spec() -> tuple[APISpec, Any]:
    spec = APISpec("shapes", "1", "3.1.0", plugins=[MarshmallowPlugin()])
    return spec, spec.plugins[0].converter


# What every listed item shows whatever the groups it is listed with (they all include the base
# and url groups); its other fields depend on the page or the menu that lists it.
LISTED_ALWAYS = ("@id", "@type", "title", "publishedAt", "slug", "url", "node")


def _item(converter: Any, schema: Schema, node_type: NodeType, *, all_required: bool) -> dict:
    json_schema = converter.schema2jsonschema(schema)
    json_schema["properties"]["@type"] = {"type": "string", "const": node_type.name}
    properties = list(json_schema["properties"])
    required = properties if all_required else [p for p in LISTED_ALWAYS if p in properties]
    json_schema["required"] = required
    return json_schema


def _listed_groups(site: SiteModel) -> frozenset[str]:
    """Every group a listed item (walker child, breadcrumb) may be serialised with: the groups of
    the page operations, of common content and of breadcrumbs."""
    groups = set(COMMON_CONTENT_GROUPS) | BREADCRUMB_GROUPS
    for node_type in site.node_types.values():
        groups.update(node_type.operation_groups())
    return frozenset(groups)


def item_schemas(site: SiteModel, schemas: SchemaRegistry, converter: Any) -> dict[str, Any]:
    """Per node type: the WebResponse item, the resource and the common content home (reachable
    types); the listed item (every type: walkers list blocks too) and the member of collections
    and search results (every type: /api/nodes_sources lists blocks and menus too)."""
    out: dict[str, Any] = {}
    common = frozenset(COMMON_CONTENT_GROUPS)
    for node_type in site.reachable_types():
        groups = frozenset(node_type.operation_groups())
        page = schemas.item(node_type, groups, site.plurals, ItemRole.WEB_RESPONSE)
        out[f"{node_type.name}WebResponseItem"] = _item(
            converter, page, node_type, all_required=True
        )
        single = schemas.item(
            node_type, node_type.resource_groups(), site.plurals, ItemRole.RESOURCE
        )
        resource = _item(converter, single, node_type, all_required=True)
        context = {"type": "string", "enum": [context_iri(node_type.name)]}
        resource["properties"] = {"@context": context, **resource["properties"]}
        resource["required"] = ["@context", *resource["required"]]
        out[f"{node_type.name}Resource"] = resource
        home = schemas.item(node_type, common, site.plurals)
        out[f"{node_type.name}CommonContentItem"] = _item(
            converter, home, node_type, all_required=True
        )
    listed = _listed_groups(site)
    for node_type in site.node_types.values():
        schema = schemas.item(node_type, listed, site.plurals)
        out[f"{node_type.name}ListedItem"] = _item(converter, schema, node_type, all_required=False)
        # /api/nodes_sources lists every type, each with its own groups and `tag_parent`; a
        # type's collection and search hits the same without it (one schema serves both: a
        # tag's `parent` is optional, absent from those)
        groups = node_type.resource_groups(tag_parent=True)
        member = schemas.item(node_type, groups, site.plurals, ItemRole.MEMBER)
        out[f"{node_type.name}MemberItem"] = _item(converter, member, node_type, all_required=True)
    return out


def _components(
    transformer_schema: type[Schema], site: SiteModel, schemas: SchemaRegistry
) -> dict[str, Any]:
    """The response shapes and the node types' item schemas, with every part they nest."""
    spec, converter = _spec()
    spec.components.schema("WebResponse", schema=transformer_schema)
    for name, schema in SHAPES.items():
        spec.components.schema(name, schema=schema)
    items = item_schemas(site, schemas, converter)
    return {**copy.deepcopy(spec.to_dict()["components"]["schemas"]), **items}


def _site_unions(components: dict[str, Any], site: SiteModel, extra: dict[str, Any]) -> None:
    """Where items appear, the union of the node types' item schemas of the live site."""
    reachable = [t.name for t in site.reachable_types()]
    every = list(site.node_types)
    refs = {name: f"#/components/schemas/{name}WebResponseItem" for name in reachable}
    refs["Redirection"] = "#/components/schemas/Redirection"
    web_response = components["WebResponse"]
    web_response["properties"]["item"] = {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "@type", "mapping": refs},
    }
    web_response["properties"].update(extra)
    listed = _one_of([f"{name}ListedItem" for name in every])
    for walker in ("Walker", "MenuWalker"):
        components[walker]["properties"]["item"] = listed
    components["Breadcrumbs"]["properties"]["items"]["items"] = listed
    common = components["CommonContent"]["properties"]
    common["home"] = _one_of([f"{n}CommonContentItem" for n in reachable], nullable=True)
    components["NodeSource"] = _one_of([f"{n}Resource" for n in reachable])


REF = "#/components/schemas/"


def _plain_name(name: str) -> str:
    """The component of the JSON format of `name`'s JSON-LD body (app.plain_format)."""
    return f"{name}Json"


def _kind(schema: dict[str, Any]) -> Any:
    """The `@type` an object schema fixes (None: any, or not one)."""
    fixed = schema.get("properties", {}).get("@type", {})
    values = fixed.get("enum") or ([fixed["const"]] if "const" in fixed else [])
    return values[0] if len(values) == 1 else None


def _plain_variants(
    components: dict[str, Any], roots: list[str], node_types: Collection[str]
) -> dict[str, Any]:
    """The JSON format's schema of each root response schema and of every schema it reaches
    (`<Name>Json`), by app.plain_format's rule: members it does not keep are left out (and not
    required), a collection is the array of its members' JSON format; a union told apart by a
    `@type` that the JSON format may drop loses its discriminator (any of its schemas)."""
    found: dict[str, Any] = {}

    def kinds_of(kind: Any) -> list[Any]:
        """The kinds an object of `kind` may be (None: any, such as a reference to a source of
        any type)."""
        return [kind] if kind is not None else [DOCUMENT, *node_types, None]

    def may_keep(member: str, kind: Any) -> bool:
        """Whether the JSON format may keep `member` of an object of `kind`."""
        return any(keeps(member, one, node_types) for one in kinds_of(kind))

    def must_keep(member: str, kind: Any) -> bool:
        """Whether the JSON format keeps `member` of an object of `kind`, whatever it is."""
        return all(keeps(member, one, node_types) for one in kinds_of(kind))

    def variant(name: str) -> str:
        plain = _plain_name(name)
        if plain not in found:
            found[plain] = {}  # taken: a schema that reaches itself refers to it
            found[plain] = convert(components[name])
        return plain

    def convert(schema: Any) -> Any:
        if isinstance(schema, list):
            return [convert(item) for item in schema]
        if not isinstance(schema, dict):
            return schema
        if str(schema.get("$ref", "")).startswith(REF):
            return {"$ref": REF + variant(schema["$ref"][len(REF) :])}
        kind, out = _kind(schema), {}
        for key, value in schema.items():
            if key == "properties":  # an unknown kind may keep them: documented, not required
                out[key] = {k: convert(v) for k, v in value.items() if may_keep(k, kind)}
            elif key == "required":
                out[key] = [k for k in value if must_keep(k, kind)]
            elif key == "discriminator":
                continue
            elif key == "oneOf" and "discriminator" in schema:
                out["anyOf"] = convert(value)
            else:
                out[key] = convert(value)
        return out

    for root in roots:
        schema = components[root]
        if _kind(schema) == COLLECTION:  # the bare array of its members
            members = schema["properties"]["hydra:member"]
            found[_plain_name(root)] = {"type": "array", "items": convert(members["items"])}
        else:
            variant(root)
    return found


# Properties whose names generated clients turn into the same identifier (`@type` and `type` both
# become `type` in Python, `@id` and `id` both `id`): the member named here is documented as the
# object's additional properties instead (still sent, still described), so that every client keeps
# both. Redirection keeps `@type`, the discriminator of the WebResponse item.
COLLIDING = {"Problem": "@type", "Realm": "@type", "RealmResource": "@type", "Redirection": "type"}
# Other schemas with both members of a pair demote the third (a document inside node sources has
# `type` and `id` beside `@type` and `@id`: it keeps its IRI `@id` and its `type`).
COLLIDING_PAIRS = (("@type", "type", "@type"), ("@id", "id", "id"))


def _json_types(schema: dict[str, Any]) -> set[str]:
    kind = schema.get("type", "string")
    return set(kind) if isinstance(kind, list) else {kind}


def _described(member: str, demoted: dict[str, Any]) -> str:
    values_enum = demoted.get("enum") or ([demoted["const"]] if "const" in demoted else [])
    return f"`{member}`: " + (
        f"always `{values_enum[0]}`" if len(values_enum) == 1 else
        "one of " + ", ".join(f"`{v}`" for v in values_enum) if values_enum else
        demoted.get("type", "string")
    )  # fmt: skip


def _demote_colliding(components: dict[str, Any]) -> None:
    """Generated clients name both `@type` and `type` `type`, `@id` and `id` `id`: one of each
    pair is documented as the additional properties (COLLIDING says which, else
    COLLIDING_PAIRS)."""
    colliding = {name: [member] for name, member in COLLIDING.items()}
    for name, schema in components.items():
        properties = schema.get("properties", {})
        for first, second, member in COLLIDING_PAIRS:
            taken = colliding.get(name, [])
            if first in properties and second in properties and not {first, second} & set(taken):
                colliding[name] = [*taken, member]
    for name, members in colliding.items():
        schema = components[name]
        demoted = [schema["properties"].pop(member) for member in members]
        schema["required"] = [r for r in schema["required"] if r not in members]
        # A supertype of every declared property, as typed languages need of an index signature:
        # their scalar types, and each list property's own schema.
        values = [*demoted, *schema["properties"].values()]
        lists = [v for v in values if "array" in _json_types(v)]
        scalars = set().union(*(_json_types(v) for v in values if v not in lists))
        described = "; ".join(_described(m, d) for m, d in zip(members, demoted, strict=True))
        supertype: dict[str, Any] = {"type": sorted(scalars)}
        if lists:
            unique = [v for i, v in enumerate(lists) if v not in lists[:i]]
            supertype = {"anyOf": [supertype, *unique]}
        schema["additionalProperties"] = {**supertype, "description": described}
        schema["description"] = f"Also carries {described}."


def _global_parameters(document: dict[str, Any]) -> None:
    """Every read but the probes accepts `_preview` and `password` (app.api.arguments.Query); an
    operation whose parameters are listed by hand (collections, search: their filters) gets them
    as the others document them."""
    operations = [
        operation
        for path, item in document["paths"].items()
        if path not in HEALTH_PATHS
        for method, operation in item.items()
        if method != "parameters"
    ]
    documented = {
        parameter["name"]: parameter
        for operation in operations
        for parameter in operation.get("parameters", [])
        if parameter["name"] in GLOBAL_PARAMETERS
    }
    for operation in operations:
        names = {parameter["name"] for parameter in operation.get("parameters", [])}
        missing = [documented[n] for n in GLOBAL_PARAMETERS if n not in names and n in documented]
        if missing:
            operation["parameters"] = [*operation.get("parameters", []), *copy.deepcopy(missing)]


def _path_parameters(document: dict[str, Any], site: SiteModel) -> None:
    """Path parameters as the converters of the routes accept them: `plural` one of the plurals
    the route answers (any other is 404): a reachable type's, `nodes_sources` for collections
    and archives, archives of publishable types only; ids non-negative integers."""
    reachable = list(site.reachable_types())
    plurals = {
        "/api/{plural}": [*(t.plural for t in reachable), "nodes_sources"],
        "/api/{plural}/{source_id}": [t.plural for t in reachable],
        "/api/{plural}/archives": [
            *(t.plural for t in reachable if t.publishable),
            "nodes_sources",
        ],
    }
    for path, item in document["paths"].items():
        for parameter in item.get("parameters", []):
            if parameter["in"] == "path" and parameter["name"] == "plural":
                found = sorted(plurals[path])  # none: a site without reachable types
                parameter["schema"] = {"type": "string", **({"enum": found} if found else {})}


def _concrete_archives(document: dict[str, Any]) -> None:
    """`/api/{plural}/archives` as one path per plural it answers (`/api/articles/archives`,
    operation `articles_archives`): as a template it would also match `/api/nodes/{node_id}` and
    the other item routes (Redocly's no-ambiguous-paths), though no plural it answers is theirs."""
    template = "/api/{plural}/archives"
    paths: dict[str, Any] = {}
    for path, item in document["paths"].items():
        if path != template:
            paths[path] = item
            continue
        plural = next(p for p in item["parameters"] if p["name"] == "plural")
        others = [p for p in item["parameters"] if p is not plural]
        for name in plural["schema"].get("enum", []):
            concrete = copy.deepcopy({k: v for k, v in item.items() if k != "parameters"})
            if others:
                concrete["parameters"] = copy.deepcopy(others)
            concrete["get"]["operationId"] = f"{name}_archives"
            paths[f"/api/{name}/archives"] = concrete
    document["paths"] = paths


def build_document(
    base: dict[str, Any],
    site: SiteModel,
    schemas: SchemaRegistry,
    transformer_schema: type[Schema],
    extra_properties: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`base` (flask-smorest's document) completed with the response shapes (the configured
    transformer's WebResponse schema among them) and the node types of `site`."""
    document = copy.deepcopy(base)
    document["servers"] = SERVERS
    components = document.setdefault("components", {})
    components.pop("responses", None)  # flask-smorest's DEFAULT_ERROR is not what errors are
    components["securitySchemes"] = SECURITY_SCHEMES
    found = components.setdefault("schemas", {})
    found.pop("Error", None)  # flask-smorest's defaults, unused: errors are Problem
    found.pop("PaginationMetadata", None)
    found.update(_components(transformer_schema, site, schemas))
    _site_unions(found, site, extra_properties or {})
    # Roadiz's collections (app/listing): filters, hydra:search, sparse members, other resources
    found.update(copy.deepcopy(listing_schemas()))  # edited below: never the shared constants
    members = [f"{t.name}MemberItem" for t in site.node_types.values()]
    found["NodeSourceCollection"] = node_source_collection(members)
    # a search hit wraps a source of a reachable type, as collections list it
    found["SearchResultItem"]["properties"]["item"] = {
        "oneOf": [_ref(f"{t.name}MemberItem") for t in site.reachable_types()]
    }
    roots = [schema for _, schema, media_types, _ in RESPONSES.values() if media_types == JSON_LD]
    found.update(_plain_variants(found, roots, site.node_types))
    _demote_colliding(found)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                operation["responses"] = (
                    _responses(path) if path in RESPONSES else _problem_responses()
                )
                # probes answer anyone and read no credentials
                operation["security"] = [] if path in HEALTH_PATHS else SECURITY
    _global_parameters(document)
    _path_parameters(document, site)
    _concrete_archives(document)
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
        for node_type in site.reachable_types()
    ]
    _drop_unreferenced(document)
    return document


def _drop_unreferenced(document: dict[str, Any]) -> None:
    """Component schemas no operation reaches (directly or through other schemas) are left out:
    a generated client would carry them as dead types, and linters flag them."""
    schemas = document["components"]["schemas"]
    prefix = "#/components/schemas/"

    def refs(value: Any) -> set[str]:
        if isinstance(value, dict):
            found = (
                {value["$ref"][len(prefix) :]}
                if str(value.get("$ref", "")).startswith(prefix)
                else set()
            )
            for child in value.values():
                found |= refs(child)
            if isinstance(value.get("mapping"), dict):
                found |= {ref[len(prefix) :] for ref in value["mapping"].values()}
            return found
        if isinstance(value, list):
            return set().union(*map(refs, value)) if value else set()
        return set()

    reached, frontier = set(), refs(document["paths"])
    while frontier:
        reached |= frontier
        frontier = set().union(*(refs(schemas.get(name, {})) for name in frontier)) - reached
    for name in list(schemas):
        if name not in reached:
            del schemas[name]
