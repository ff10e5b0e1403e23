"""The JSON format of a JSON-LD body (`Accept: application/json`, a `.json` suffix), as API
Platform gives it: the same members without `@context` and `@id`, a collection as the bare array
of its members; node sources keep their `@type`, documents their `@id` and `@type`. One rule for
the bodies (`plain`, app.api.negotiation) and for the schemas that describe them (app.openapi).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

COLLECTION = "hydra:Collection"
DOCUMENT = "Document"


def keeps(member: str, kind: Any, node_types: Collection[str]) -> bool:
    """Whether the JSON format keeps `member` of an object whose `@type` is `kind`."""
    if member == "@context":
        return False
    if member == "@id":
        return kind == DOCUMENT
    if member == "@type":
        return kind == DOCUMENT or kind in node_types
    return True


def plain(body: Any, node_types: Collection[str]) -> Any:
    """The JSON format of a JSON-LD body."""
    if isinstance(body, dict) and body.get("@type") == COLLECTION:
        return [_plain(member, node_types) for member in body.get("hydra:member", [])]
    return _plain(body, node_types)


def _plain(value: Any, node_types: Collection[str]) -> Any:
    if isinstance(value, list):
        return [_plain(item, node_types) for item in value]
    if not isinstance(value, dict):
        return value
    kind = value.get("@type")
    return {
        key: _plain(item, node_types) for key, item in value.items() if keeps(key, kind, node_types)
    }
