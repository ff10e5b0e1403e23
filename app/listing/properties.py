"""API Platform's property filter: `properties[]=title&properties[node][]=visible`."""

from __future__ import annotations

import re
from typing import Any

from app.errors import BadRequest
from app.listing.params import Params

ALWAYS_KEPT = ("@id", "@type", "url")
_KEY = re.compile(r"properties((?:\[[A-Za-z0-9_.]+\])*)\[\]")
_PART = re.compile(r"\[([A-Za-z0-9_.]+)\]")

Tree = dict[str, "Tree"]


def requested(params: Params) -> Tree | None:
    """The requested fields as a tree, or None when the request names none."""
    tree: Tree = {}
    found = False
    for name in params.names:
        if not name.startswith("properties"):
            continue
        match = _KEY.fullmatch(name)
        if match is None:
            raise BadRequest(f'"{name}" must be properties[]=field or properties[object][]=field')
        found = True
        branch = tree
        for part in _PART.findall(match.group(1)):
            branch = branch.setdefault(part, {})
        for value in params.all(name):
            branch.setdefault(value, {})
    return tree if found else None


def sparse(value: Any, tree: Tree) -> Any:
    """`value` keeping only the fields of `tree` (and @id, @type, url); a field with no listed
    sub-fields is kept whole."""
    if isinstance(value, list):
        return [sparse(item, tree) for item in value]
    if not isinstance(value, dict):
        return value
    kept = {}
    for key, item in value.items():
        if key in ALWAYS_KEPT:
            kept[key] = item
        elif key in tree:
            kept[key] = sparse(item, tree[key]) if tree[key] else item
    return kept
