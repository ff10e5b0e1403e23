"""Names the API derives from content: camelCase fields, plural resource names, and every IRI and
blank-node id the responses carry (the one place they are built)."""

from __future__ import annotations

import functools
import re

from app.inflection import pluralize

# A locale code (`en`, `fr-CA`, `de_CH`): the one syntax the loader checks and `_locale` accepts.
LOCALE = re.compile(r"[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*")
_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def camel(name: str) -> str:
    """`sub_title` -> `subTitle`; `main-menu walker` -> `mainMenuWalker`."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    if not words:
        return ""
    return words[0][0].lower() + words[0][1:] + "".join(w[0].upper() + w[1:] for w in words[1:])


# The root node types whose walkers common_content serves in `menus` (fixture-format.md).
MENU_ROOT_TYPES = ("Menu", "Footer")


def menu_key(node_name: str) -> str:
    """The key of a root menu's walker in common_content's `menus`: `main-menu` ->
    `mainMenuWalker` (two roots with the same key are refused at load)."""
    return camel(f"{node_name} walker")


def slug(text: str) -> str:
    """Lower case; runs of non-alphanumerics become `_` (serialization group names)."""
    return _NON_ALNUM.sub("_", text.lower()).strip("_")


@functools.cache  # a few type names, asked for every item of every response
def plural(type_name: str) -> str:
    """Collection name of a node type, as Roadiz names it (app.inflection): `BlogPost` ->
    `blog_posts`, `Gallery` -> `galleries`, `Person` -> `people`. Computed once, at load (stored
    with the node type); reads use the stored plural."""
    return _WORD_BOUNDARY.sub("_", pluralize(type_name)).lower()


API = "/api"
COMMON_CONTENT_IRI = f"{API}/common_content"


def collection_iri(plural_name: str) -> str:
    """The collection of a reachable node type, by its stored plural."""
    return f"{API}/{plural_name}"


def source_iri(plural_name: str, source_id: int) -> str:
    """A node source, by its type's stored plural and its id."""
    return f"{API}/{plural_name}/{source_id}"


def node_iri(node_id: int) -> str:
    return f"{API}/nodes/{node_id}"


def document_iri(document_id: int) -> str:
    return f"{API}/documents/{document_id}"


def tag_iri(tag_id: int) -> str:
    return f"{API}/tags/{tag_id}"


def realm_iri(realm_id: int) -> str:
    return f"{API}/realms/{realm_id}"


def translation_iri(translation_id: int) -> str:
    """A translation, by its id (its rank in the fixture, from 1), as /api/translations lists it."""
    return f"{API}/translations/{translation_id}"


def redirection_iri(redirection_id: int) -> str:
    """A redirection, by its id (its rank in the fixture, from 1); not served (NotExposed)."""
    return f"{API}/redirections/{redirection_id}"


def context_iri(type_name: str) -> str:
    """The JSON-LD context of a type the API emits (app.api.contexts serves it)."""
    return f"{API}/contexts/{type_name}"


def error_iri(status: int) -> str:
    return f"{API}/errors/{status}"


def error_type(status: int) -> str:
    return f"/errors/{status}"


def head_id(locale: str, item_id: int | None) -> str:
    """Blank-node id of a head: of an item, or of common content (`item_id` None)."""
    return f"_:head-{locale}-{'common' if item_id is None else item_id}"


def breadcrumbs_id(source_id: int | None) -> str:
    """Blank-node id of breadcrumbs: of a source, or of an external redirection (None)."""
    return "_:breadcrumbs" if source_id is None else f"_:breadcrumbs-{source_id}"


def walker_id(menu: bool, lineage: tuple[int, ...]) -> str:
    """Deterministic blank-node id of a walker: its kind and the source ids from its root."""
    return ("_:mw" if menu else "_:w") + "-".join(str(i) for i in lineage)
