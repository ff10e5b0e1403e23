"""Hydra documents of API Platform: the entry point (`GET /api`) and the API documentation
(`GET /api/docs.jsonld`), built from the live site's node types and the listing resources."""

from __future__ import annotations

from typing import Any

from app.site import SiteModel

# The Hydra API documentation, and the Link every response under /api names it with (as API
# Platform; app.api.hygiene), relative: a cached response names no host.
API_DOCUMENTATION = "/api/docs.jsonld"
API_DOCUMENTATION_LINK = (
    f'<{API_DOCUMENTATION}>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"'
)

# Resources with a collection operation besides node types: short name -> collection path.
FIXED_COLLECTIONS = {
    "NodesSources": "/api/nodes_sources",
    "Tag": "/api/tags",
    "Translation": "/api/translations",
    "Document": "/api/documents",
}
# Properties of every node source, then those of each other type the API emits, as its responses
# name them: each is documented as `#<Type>/<property>`, the IRI the contexts expand it to
# (app/jsonld_contexts.py).
SOURCE_PROPERTIES = [
    "title",
    "publishedAt",
    "slug",
    "url",
    "node",
    "translation",
    "metaTitle",
    "metaDescription",
    "noIndex",
    "listingSortOptions",
    "urlAliases",
]
WALKER_PROPERTIES = ["children", "childrenCount", "item", "level", "maxLevel"]
TYPE_PROPERTIES = {
    "WebResponse": ["item", "breadcrumbs", "head", "blocks", "realms", "hidingBlocks", "maxAge"],
    "CommonContent": ["home", "menus", "head"],
    "NodesSources": SOURCE_PROPERTIES,
    "Node": ["visible", "position", "tags", "nodeName", "nodeType", "childrenOrder",
             "childrenOrderDirection"],
    "Breadcrumbs": ["items"],
    "NodesSourcesHead": ["googleAnalytics", "googleTagManager", "matomoTagManager", "matomoUrl",
                         "matomoSiteId", "siteName", "metaTitle", "metaDescription", "noIndex",
                         "policyUrl", "mainColor", "facebookUrl", "instagramUrl", "twitterUrl",
                         "youtubeUrl", "linkedinUrl", "tiktokUrl", "homePageUrl", "shareImage"],
    "AutoChildrenNodeSourceWalker": WALKER_PROPERTIES,
    "MenuNodeSourceWalker": WALKER_PROPERTIES,
    "Realm": ["name", "behaviour", "type", "authenticationScheme"],
    "Redirection": ["redirectUri", "url", "type"],
    "Tag": ["slug", "visible", "name", "description", "parent"],
    "Translation": ["name", "defaultTranslation", "available", "locale"],
    "Document": ["relativePath", "type", "processable", "mimeType", "imageWidth", "imageHeight",
                 "mediaDuration", "imageAverageColor", "alt", "folders", "filename", "id"],
    "Archive": ["year", "months"],
    "SearchResultItem": ["item", "highlighting"],
    "Error": ["title", "detail", "status", "type", "description"],
}  # fmt: skip
DATE_PROPERTIES = frozenset({"publishedAt"})
BOOLEAN_PROPERTIES = frozenset({"visible", "defaultTranslation", "available", "processable",
                                "hidingBlocks", "noIndex"})  # fmt: skip
# Ranges of node type fields by field type; other types are strings (or lists, JSON).
FIELD_RANGES = {"datetime": "xsd:dateTime", "date": "xsd:date", "boolean": "xsd:boolean",
                "integer": "xsd:integer", "decimal": "xsd:decimal"}  # fmt: skip
INTEGER_PROPERTIES = frozenset({"imageWidth", "imageHeight", "mediaDuration", "year", "maxAge",
                                "position", "childrenCount", "level", "maxLevel"})  # fmt: skip


def type_properties(
    site: SiteModel, web_response_extra: list[str] | None = None
) -> dict[str, list[str]]:
    """The properties of each type the API emits (built-in types, then node types): what
    docs.jsonld documents as `#<Type>/<property>` and the contexts name `<Type>/<property>`."""
    properties = {name: list(keys) for name, keys in TYPE_PROPERTIES.items()}
    extra = [key for key in web_response_extra or () if key not in properties["WebResponse"]]
    properties["WebResponse"] += extra
    for node_type in site.node_types.values():
        fields = [f.key for f in node_type.fields if f.key not in SOURCE_PROPERTIES]
        properties[node_type.name] = [*SOURCE_PROPERTIES, *fields]
    return properties


def collections(site: SiteModel) -> dict[str, str]:
    """Short name -> first collection path, for every resource with a collection operation."""
    found = {t.name: f"/api/{t.plural}" for t in site.reachable_types()}
    found.update(FIXED_COLLECTIONS)
    return found


def entry_key(short_name: str) -> str:
    return short_name[0].lower() + short_name[1:]


def entrypoint_keys(site: SiteModel) -> list[str]:
    return sorted(entry_key(name) for name in collections(site))


def entrypoint(site: SiteModel) -> dict[str, Any]:
    body: dict[str, Any] = {"@context": "/api/contexts/Entrypoint", "@id": "/api",
                            "@type": "Entrypoint"}  # fmt: skip
    paths = {entry_key(name): path for name, path in collections(site).items()}
    body.update({key: paths[key] for key in sorted(paths)})
    return body


def _range(name: str) -> str:
    if name in DATE_PROPERTIES:
        return "xsd:dateTime"
    if name in BOOLEAN_PROPERTIES:
        return "xsd:boolean"
    if name in INTEGER_PROPERTIES:
        return "xsd:integer"
    return "xsd:string"


def _class(
    short_name: str,
    properties: list[str],
    collection: str | None,
    ranges: dict[str, str] | None = None,
) -> dict[str, Any]:
    ranges = ranges or {}
    supported = [
        {
            "@type": "hydra:SupportedProperty",
            "hydra:property": {"@id": f"#{short_name}/{name}", "@type": "rdf:Property",
                               "label": name, "domain": f"#{short_name}",
                               "range": ranges.get(name) or _range(name)},
            "hydra:title": name,
            "hydra:required": False,
            "hydra:readable": True,
            "hydra:writeable": False,
        }
        for name in properties
    ]  # fmt: skip
    operations = []
    if collection is not None:
        operations.append({"@type": ["hydra:Operation", "schema:FindAction"],
                           "hydra:method": "GET", "hydra:title": f"get{short_name}Collection",
                           "returns": "hydra:Collection"})  # fmt: skip
    return {
        "@id": f"#{short_name}",
        "@type": "hydra:Class",
        "hydra:title": short_name,
        "hydra:supportedProperty": supported,
        "hydra:supportedOperation": operations,
    }


def documentation(
    site: SiteModel,
    title: str,
    description: str,
    vocab: str,
    web_response_extra: list[str] | None = None,
) -> dict[str, Any]:
    """The hydra:ApiDocumentation of the site; `vocab`: the @vocab of the contexts;
    `web_response_extra`: the properties a project transformer adds to the WebResponse."""
    paths = collections(site)
    properties = type_properties(site, web_response_extra)
    ranges = {
        node_type.name: {
            f.key: FIELD_RANGES[f.type] for f in node_type.fields if f.type in FIELD_RANGES
        }
        for node_type in site.node_types.values()
    }
    classes = [
        _class(name, keys, paths.get(name), ranges.get(name)) for name, keys in properties.items()
    ]
    entry = _class("Entrypoint", entrypoint_keys(site), None)
    for supported in entry["hydra:supportedProperty"]:
        link = supported["hydra:property"]
        link["range"], link["@type"] = "hydra:Collection", "hydra:Link"
    classes.append(entry)
    classes.append(_class("ConstraintViolationList", ["violations"], None))
    return {
        "@context": {
            "@vocab": vocab,
            "hydra": "http://www.w3.org/ns/hydra/core#",
            "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
            "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
            "xsd": "http://www.w3.org/2001/XMLSchema#",
            "schema": "https://schema.org/",
            "domain": {"@id": "rdfs:domain", "@type": "@id"},
            "range": {"@id": "rdfs:range", "@type": "@id"},
            "label": "rdfs:label",
            "returns": {"@id": "hydra:returns", "@type": "@id"},
        },
        "@id": API_DOCUMENTATION,
        "@type": "hydra:ApiDocumentation",
        "hydra:title": title,
        "hydra:description": description,
        "hydra:entrypoint": "/api",
        "hydra:supportedClass": classes,
    }
