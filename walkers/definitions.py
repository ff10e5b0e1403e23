"""Walker definitions: per node type, code supplying an item's children instead of stored ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from walkers.walker import WalkerContext


class WalkerDefinitionError(TypeError):
    """A definition was invoked with a source or a context it does not handle."""


class WalkerDefinition(Protocol):
    """Supplies the children of items of one node type (see docs/extending.md)."""

    #: Name of the node type whose items this definition handles.
    node_type: str
    #: True when the children it supplies get no children of their own.
    stops_collection: bool

    def children(self, source: dict[str, Any], context: WalkerContext) -> list[dict[str, Any]]:
        """Source documents of the children of `source`, in order; at most one store query."""


class DefinitionRegistry:
    """Walker definitions by node type name; every walker (blocks, menus, footers) consults it."""

    def __init__(self) -> None:
        self._definitions: dict[str, WalkerDefinition] = {}

    def register(self, definition: WalkerDefinition) -> None:
        self._definitions[definition.node_type] = definition

    def get(self, node_type: str) -> WalkerDefinition | None:
        return self._definitions.get(node_type)
