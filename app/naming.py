"""Names the API derives from content: camelCase fields, plural resource names, IRIs."""

from __future__ import annotations

import functools
import re

_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def camel(name: str) -> str:
    """`sub_title` -> `subTitle`; `main-menu walker` -> `mainMenuWalker`."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    if not words:
        return ""
    return words[0][0].lower() + words[0][1:] + "".join(w[0].upper() + w[1:] for w in words[1:])


def slug(text: str) -> str:
    """Lower case; runs of non-alphanumerics become `_` (serialization group names)."""
    return _NON_ALNUM.sub("_", text.lower()).strip("_")


@functools.cache  # a few type names, asked for every item of every response
def plural(type_name: str) -> str:
    """Collection name of a node type: `BlogPost` -> `blog_posts`, `Gallery` -> `galleries`."""
    snake = _WORD_BOUNDARY.sub("_", type_name).lower()
    if re.search(r"[^aeiou]y$", snake):
        return snake[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", snake):
        return snake + "es"
    return snake + "s"


def source_iri(type_name: str, source_id: int) -> str:
    return f"/api/{plural(type_name)}/{source_id}"


def node_iri(node_id: int) -> str:
    return f"/api/nodes/{node_id}"
