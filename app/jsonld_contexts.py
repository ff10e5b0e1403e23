"""JSON-LD contexts of the types the API emits, built from the live site's node types.

API Platform names the property `p` of a resource `T` with the term `T/p`, under the vocabulary
`<origin>/api/docs.jsonld#` (so `title` of a Page is `…/api/docs.jsonld#Page/title`, the property
`#Page/title` that /api/docs.jsonld documents). Objects of many types nest in one another here (a
Document in a Page in a walker in a WebResponse), so each type gets a type-scoped context (JSON-LD
1.1) whose `@vocab` is `<vocabulary>T/`: every property of an object whose `@type` is `T` expands
to `T/<property>`, and the scope ends at the next nested object, which applies its own type's."""

from __future__ import annotations

from typing import Any

from app.site import NodeType, SiteModel

HYDRA = "http://www.w3.org/ns/hydra/core#"
XSD = "http://www.w3.org/2001/XMLSchema#"
VOCAB_PATH = "api/docs.jsonld#"

DATE_TIME = {"@type": "xsd:dateTime"}
REFERENCE = {"@type": "@id"}
# Coercions of node type fields by field type; other types are plain JSON literals.
FIELD_TERMS: dict[str, dict[str, str]] = {
    "datetime": DATE_TIME,
    "date": {"@type": "xsd:date"},
    "json": {"@type": "@json"},
}

# Properties of every node source (items and references to them), whatever their node type.
SOURCE_TERMS: dict[str, Any] = {"publishedAt": DATE_TIME, "node": REFERENCE,
                                "translation": REFERENCE,
                                "listingSortOptions": {"@type": "@json"}}  # fmt: skip
# Links of a hydra:PartialCollectionView (collection entry points) are IRIs, as in Hydra's context.
HYDRA_TERMS: dict[str, Any] = {
    f"hydra:{link}": REFERENCE for link in ("first", "last", "previous", "next")
}
# Every type the API emits besides node types, with the coercions its own properties need.
BUILT_IN_TERMS: dict[str, dict[str, Any]] = {
    "WebResponse": {"item": REFERENCE},
    "CommonContent": {"menus": {"@container": "@index"}},
    "Error": {},
    "Node": {},
    "Breadcrumbs": {},
    "NodesSourcesHead": {"shareImage": REFERENCE},
    "AutoChildrenNodeSourceWalker": {"item": REFERENCE},
    "MenuNodeSourceWalker": {"item": REFERENCE},
    "Realm": {},
    "Redirection": {"redirectUri": REFERENCE},
    "Tag": {"parent": REFERENCE},
    "Document": {},
    "Translation": {},
    "Archive": {"months": {"@container": "@index"}},
    "SearchResultItem": {"item": REFERENCE, "highlighting": {"@type": "@json"}},
    "NodesSources": SOURCE_TERMS,
    "Entrypoint": {},  # its keys: type_terms
}
# The @type of these objects is a Hydra class, under which their own properties stay named as
# API Platform names them (`Error/detail`).
TYPE_TERMS = {"Error": "hydra:Error"}
# Hydra's own classes: IriTemplate mappings carry Hydra's properties; the search facets beside a
# collection's members are a free-form JSON literal.
HYDRA_SCOPED: dict[str, Any] = {
    "IriTemplateMapping": {"@id": "hydra:IriTemplateMapping", "@context": {"@vocab": HYDRA}},
    "hydra:Collection": {"@id": "hydra:Collection", "@context": {"facets": {"@type": "@json"}}},
}
# Errors carry no site content: their context is the same for every site.
SITE_FREE = frozenset({"Error"})


def context_types(site: SiteModel) -> list[str]:
    """Names served at /api/contexts/<name>: the built-in types, then the site's node types."""
    return [*BUILT_IN_TERMS, *(name for name in site.node_types if name not in BUILT_IN_TERMS)]


def node_type_terms(node_type: NodeType) -> dict[str, Any]:
    """Coercions of an item of `node_type`: SOURCE_TERMS, then its typed fields; a plain field
    that replaces a property of every source drops that property's coercion."""
    terms: dict[str, Any] = dict(SOURCE_TERMS)
    for field in node_type.fields:
        if not field.key:
            continue
        term = FIELD_TERMS.get(field.type)
        if term is not None:
            terms[field.key] = term
        elif field.key in SOURCE_TERMS:
            del terms[field.key]
    return terms


def type_terms(site: SiteModel, name: str) -> dict[str, Any]:
    """Coercions of the properties of an object whose @type is `name`."""
    terms = dict(BUILT_IN_TERMS.get(name, {}))
    if name == "Entrypoint":  # each collection link: an IRI (the term `Entrypoint/<key>`)
        from app.hydra import entrypoint_keys

        terms.update({key: REFERENCE for key in entrypoint_keys(site)})
    node_type = site.node_types.get(name)
    if node_type is not None:
        terms.update(node_type_terms(node_type))
    return terms


def named_terms(
    name: str, properties: list[str], coercions: dict[str, Any], *, base: str = ""
) -> dict[str, Any]:
    """API Platform's terms of `properties` of the type `name`: `<name>/<property>` (relative to
    the top @vocab when `base` is empty, else under `base`), coerced by `coercions`."""
    terms: dict[str, Any] = {}
    for key in properties:
        iri = f"{base}{name}/{key}"
        coercion = coercions.get(key)
        terms[key] = {"@id": iri, **coercion} if coercion else iri
    return terms


def scoped(
    vocab: str, name: str, terms: dict[str, Any], own: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The term of the type `name`: its properties under `<vocab><name>/`, coerced by `terms`;
    `own`: explicit terms of its properties that the top of the context names for another type
    (a nested object's `title` is its own, not the top type's)."""
    context = {"@vocab": f"{vocab}{name}/", **terms, **(own or {})}
    definition: dict[str, Any] = {"@context": context}
    if name in TYPE_TERMS:
        definition = {"@id": TYPE_TERMS[name], **definition}
    return definition


def site_terms(
    site: SiteModel, vocab: str, names: list[str], top: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """HYDRA_TERMS, then one type-scoped context per type of `names`; each redefines those of
    its properties that are `top` terms (named for the context's own type)."""
    from app.hydra import type_properties

    properties = type_properties(site)
    terms: dict[str, Any] = {**HYDRA_TERMS, **HYDRA_SCOPED}
    for name in names:
        coercions = type_terms(site, name)
        shadowed = [key for key in properties.get(name, []) if key in top]
        own = named_terms(name, shadowed, coercions, base=vocab)
        terms[TYPE_TERMS.get(name, name)] = scoped(vocab, name, coercions, own)
    return terms


def top_terms(site: SiteModel, name: str) -> dict[str, Any]:
    """The terms API Platform puts at the top of `/api/contexts/<name>`: each property of the
    type `name` as `<name>/<property>` (relations: `{"@id": ..., "@type": "@id"}`)."""
    from app.hydra import entrypoint_keys, type_properties

    keys = entrypoint_keys(site) if name == "Entrypoint" else type_properties(site).get(name, [])
    return named_terms(name, keys, type_terms(site, name))


def vocabulary(base: str) -> str:
    """The `@vocab` IRI under `base` (VOCAB_BASE: configuration, never the request's Host)."""
    return base.rstrip("/") + "/" + VOCAB_PATH


def context_document(site: SiteModel, name: str, vocab_base: str) -> dict[str, Any] | None:
    """The context served for `name` (None for a type the API does not emit): the prefixes, the
    vocabulary under `vocab_base`, and the terms of every type, since any may nest in any other;
    built once per site generation (an error's, which holds no site content, is smaller)."""
    if name not in context_types(site):
        return None
    vocab = vocabulary(vocab_base)
    site_free = name in SITE_FREE and name not in site.node_types
    key = ("context", vocab, name)
    document = site.cache.get(key)
    if document is None:
        names = [name] if site_free else context_types(site)
        header = {"@version": 1.1, "@vocab": vocab, "hydra": HYDRA, "xsd": XSD}
        top = top_terms(site, name)
        terms = site_terms(site, vocab, names, frozenset(top))
        document = {"@context": {**header, **top, **terms}}
        site.cache[key] = document
    return document
