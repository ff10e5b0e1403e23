"""JSON-LD contexts of the types the API emits, built from the live site's node types."""

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

# Properties of every item (and of references to items), whatever their node type.
GLOBAL_TERMS: dict[str, Any] = {"publishedAt": DATE_TIME}
# Links of a hydra:PartialCollectionView (collection entry points) are IRIs, as in Hydra's context.
HYDRA_TERMS: dict[str, Any] = {
    f"hydra:{link}": REFERENCE for link in ("first", "last", "previous", "next")
}
# Every type the API emits besides node types, with the terms its own objects need.
BUILT_IN_TERMS: dict[str, dict[str, Any]] = {
    "WebResponse": {},
    "CommonContent": {"menus": {"@container": "@index"}},
    "Error": {},
    "Node": {},
    "Breadcrumbs": {},
    "NodesSourcesHead": {},
    "AutoChildrenNodeSourceWalker": {},
    "MenuNodeSourceWalker": {},
    "Realm": {},
    "Redirection": {"redirectUri": REFERENCE},
    "Tag": {"parent": REFERENCE},
    "Document": {},
    "Translation": {},
    "Archive": {"months": {"@container": "@index"}},
    "NodesSources": {},
    "Entrypoint": {},  # its keys: type_terms
}
# Errors carry no site content: their context is the same for every site.
SITE_FREE = frozenset({"Error"})
CACHE_KEY = ("context", "*")


def context_types(site: SiteModel) -> list[str]:
    """Names served at /api/contexts/<name>: the built-in types, then the site's node types."""
    return [*BUILT_IN_TERMS, *(name for name in site.node_types if name not in BUILT_IN_TERMS)]


def node_type_terms(node_type: NodeType) -> dict[str, Any]:
    """Terms of an item of `node_type` beyond GLOBAL_TERMS: its typed fields, and no coercion for
    a plain field that replaces a global property of the same name."""
    terms: dict[str, Any] = {}
    for field in node_type.fields:
        term = FIELD_TERMS.get(field.type)
        if term is not None:
            terms[field.key] = term
        elif field.key in GLOBAL_TERMS:
            terms[field.key] = {"@type": "@none"}
    return {key: term for key, term in terms.items() if key}


def type_terms(site: SiteModel, name: str) -> dict[str, Any]:
    """Terms of an object whose @type is `name`."""
    terms = dict(BUILT_IN_TERMS.get(name, {}))
    if name == "Entrypoint":  # each collection link: an IRI named as API Platform names it
        from app.hydra import entrypoint_keys

        terms.update({k: {"@id": f"Entrypoint/{k}", "@type": "@id"} for k in entrypoint_keys(site)})
    node_type = site.node_types.get(name)
    if node_type is not None:
        terms.update(node_type_terms(node_type))
    return terms


def site_terms(site: SiteModel) -> dict[str, Any]:
    """GLOBAL_TERMS, then one type-scoped context per type that needs terms of its own: two node
    types may type one property differently, and items of every type nest in one another."""
    scoped = {name: type_terms(site, name) for name in context_types(site)}
    return {
        **GLOBAL_TERMS,
        **HYDRA_TERMS,
        **{name: {"@context": terms} for name, terms in scoped.items() if terms},
    }


def context_terms(site: SiteModel, name: str) -> dict[str, Any] | None:
    """The host-independent terms of the context of `name` (None for a type the API does not
    emit); every site-dependent context holds the site's terms, built once per generation."""
    if name not in context_types(site):
        return None
    if name in SITE_FREE and name not in site.node_types:
        return {}
    terms = site.cache.get(CACHE_KEY)
    if terms is None:
        terms = site.cache[CACHE_KEY] = site_terms(site)
    return terms


def vocabulary(base: str) -> str:
    """The `@vocab` IRI under `base` (VOCAB_BASE: configuration, never the request's Host)."""
    return base.rstrip("/") + "/" + VOCAB_PATH


def context_document(terms: dict[str, Any], vocab_base: str) -> dict[str, Any]:
    """The served document: prefixes and the vocabulary under `vocab_base`, then `terms`."""
    header = {"@version": 1.1, "@vocab": vocabulary(vocab_base), "hydra": HYDRA, "xsd": XSD}
    return {"@context": {**header, **terms}}
