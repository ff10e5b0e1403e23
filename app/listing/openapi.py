"""OpenAPI schemas of translations, tags, documents and their collections."""

from __future__ import annotations

from typing import Any

from app.listing.filters import Variable

STRING = {"type": "string"}
BOOL = {"type": "boolean"}
# A folder as documents list it (roadiz-read-surface.md §7); the fixture format has none yet.
FOLDER = {"type": "object", "properties": {"slug": STRING, "visible": BOOL, "name": STRING},
          "required": ["slug", "visible", "name"]}  # fmt: skip


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}  # fmt: skip


def _view() -> dict[str, Any]:
    links = {f"hydra:{k}": STRING for k in ("first", "last", "previous", "next")}
    return _object({"@id": STRING, "@type": {"const": "hydra:PartialCollectionView"}, **links},
                   ["@id", "@type"])  # fmt: skip


def collection_of(member: dict[str, Any]) -> dict[str, Any]:
    return _object(
        {
            "@context": STRING,
            "@id": STRING,
            "@type": {"const": "hydra:Collection"},
            "hydra:totalItems": {"type": "integer", "minimum": 0},
            "hydra:member": {"type": "array", "items": member},
            "hydra:view": ref("HydraView"),
            "hydra:search": ref("IriTemplate"),
        },
        ["@context", "@id", "@type", "hydra:totalItems", "hydra:member"],
    )


TRANSLATION = {"@id": STRING, "@type": {"const": "Translation"}, "name": STRING,
               "defaultTranslation": BOOL, "available": BOOL, "locale": STRING}  # fmt: skip
TAG = {"@id": STRING, "@type": {"const": "Tag"}, "slug": STRING, "visible": BOOL, "name": STRING,
       "description": {"type": ["string", "null"]}}  # fmt: skip
DOCUMENT = {"@id": STRING, "@type": {"const": "Document"}, "relativePath": STRING, "type": STRING,
            "processable": BOOL, "mimeType": STRING, "imageWidth": {"type": "integer"},
            "imageHeight": {"type": "integer"}, "mediaDuration": {"type": "integer"},
            "imageAverageColor": STRING, "alt": STRING,
            "folders": {"type": "array", "items": FOLDER}}  # fmt: skip
# Null fields are omitted (mime type, size, average colour, alt text): these are always sent.
DOCUMENT_REQUIRED = ["@id", "@type", "relativePath", "type", "processable", "mediaDuration",
                     "folders"]  # fmt: skip
# A member under properties[]: only @id, @type (and url) are sure to be there.
SPARSE = {"type": "object", "properties": {"@id": STRING, "@type": STRING},
          "required": ["@id", "@type"]}  # fmt: skip


def _member(name: str) -> dict[str, Any]:
    return {"anyOf": [ref(name), SPARSE]}


def node_source_collection(item_names: list[str]) -> dict[str, Any]:
    """`/api/<plural>` and `/api/nodes_sources`: members of any type (blocks too), sparse under
    properties[]; keyset pages (`cursor`) carry no hydra:totalItems."""
    schema = collection_of({"anyOf": [*(ref(n) for n in item_names), SPARSE]})
    schema["required"] = [k for k in schema["required"] if k != "hydra:totalItems"]
    return schema


def schemas() -> dict[str, Any]:
    tag = _object(TAG, list(TAG))
    tag_item = _object({"@context": STRING, **TAG, "parent": ref("TagParent")}, list(TAG))
    tag_parent = _object({**TAG, "parent": ref("TagParent")}, list(TAG))
    return {
        "HydraView": _view(),
        "IriTemplate": _object(
            {
                "@type": {"const": "hydra:IriTemplate"},
                "hydra:template": STRING,
                "hydra:variableRepresentation": {"const": "BasicRepresentation"},
                "hydra:mapping": {
                    "type": "array",
                    "items": _object(
                        {
                            "@type": {"const": "IriTemplateMapping"},
                            "variable": STRING,
                            "property": {"type": ["string", "null"]},  # null: properties[]
                            "required": BOOL,
                        },
                        ["@type", "variable", "property", "required"],
                    ),
                },
            },
            ["@type", "hydra:template", "hydra:variableRepresentation", "hydra:mapping"],
        ),  # fmt: skip
        "Translation": _object(TRANSLATION, list(TRANSLATION)),
        "TranslationResource": _object({"@context": STRING, **TRANSLATION}, list(TRANSLATION)),
        "TranslationCollection": collection_of(_member("Translation")),
        "TagListed": tag,
        "TagParent": tag_parent,
        "TagWithParents": tag_item,
        "TagCollection": collection_of(_member("TagListed")),
        "DocumentListed": _object(DOCUMENT, DOCUMENT_REQUIRED),
        "DocumentResource": _object({"@context": STRING, **DOCUMENT}, DOCUMENT_REQUIRED),
        "DocumentCollection": collection_of(_member("DocumentListed")),
        "Archive": _object(
            {
                "@id": STRING,
                "@type": {"const": "Archive"},
                "year": {"type": "integer"},
                "months": {"type": "object", "additionalProperties": STRING},
            },
            ["@id", "@type", "year", "months"],
        ),
        "ArchiveCollection": collection_of(ref("Archive")),
        "SearchResultItem": _object(
            {
                "@id": STRING,
                "@type": {"const": "SearchResultItem"},
                "item": {"type": "object"},
                "highlighting": {
                    "anyOf": [
                        {
                            "type": "object",
                            "additionalProperties": {"type": "array", "items": STRING},
                        },
                        {"type": "array", "maxItems": 0, "items": STRING},
                    ]
                },
            },
            ["@id", "@type", "item", "highlighting"],
        ),
        "SearchResults": {
            **collection_of(ref("SearchResultItem")),
            "properties": {
                **collection_of(ref("SearchResultItem"))["properties"],
                "facets": {
                    "type": "object",
                    "additionalProperties": _object(
                        {
                            "buckets": {
                                "type": "array",
                                "items": _object(
                                    {"val": STRING, "count": {"type": "integer"}}, ["val", "count"]
                                ),
                            }
                        },
                        ["buckets"],
                    ),
                },
            },
        },
    }


CURSOR_PARAMETER = {
    "name": "cursor", "in": "query", "required": False,
    "schema": {"type": "string", "pattern": r"^[A-Za-z0-9_-]{0,200}$"},
    "description": "Keyset cursor: empty for the first page, then the one of hydra:next; such "
    "pages cost the same at any depth and carry no hydra:totalItems (not with page; one order "
    "key at most)",
}  # fmt: skip


PROPERTIES_PARAMETER = {
    "name": "properties[]",
    "in": "query",
    "required": False,
    "schema": {"type": "array", "items": {"type": "string"}},
    "description": "Sparse fields (properties[node][]=visible for nested ones)",
}


def parameters(
    variables: list[Variable], *, cursor: bool = False, sparse: bool = True
) -> list[dict[str, Any]]:
    """OpenAPI query parameters of a collection: its filters, pagination and (`sparse`)
    properties[]."""
    from app.listing.params import MAX_PAGE

    # `x[]` (several values) is documented on `x` rather than as a parameter of its own:
    # generated clients name both `x`, and drop the operation when two parameters collide.
    names = {v.name for v in variables}
    found = []
    for v in variables:
        if v.name.endswith("[]") and v.name[:-2] in names:
            continue
        description = v.description
        if f"{v.name}[]" in names:
            description = f"{description} (several: `{v.name}[]=a&{v.name}[]=b`)"
        found.append({"name": v.name, "in": "query", "required": False, "schema": v.schema,
                      "description": description})  # fmt: skip
    found += [
        {
            "name": "page",
            "in": "query",
            "required": False,
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
            "description": "Page, from 1",
        },
        {
            "name": "itemsPerPage",
            "in": "query",
            "required": False,
            "schema": {"type": "integer", "minimum": 0},
            "description": "Members per page (default 15; more than 50 is read as 50)",
        },
    ]
    if sparse:
        found.append(PROPERTIES_PARAMETER)
    if cursor:
        found.append(CURSOR_PARAMETER)
    return found
