"""Tree walkers: an item with its children up to a maximum depth, loaded one level at a time.

Each level costs one `$in` query for all stored children of that level (plus one per definition
invoked), so the number of queries grows with the depth of the tree, never with its size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from app.naming import walker_id
from app.publication import Visibility
from app.store import Generation
from walkers.definitions import DefinitionRegistry

AUTO_CHILDREN = "AutoChildrenNodeSourceWalker"
MENU = "MenuNodeSourceWalker"


@dataclass(frozen=True)
class WalkerContext:
    """What a walk needs to fetch children: the generation, translation and visibility."""

    generation: Generation
    locale: str
    visibility: Visibility
    root: dict[str, Any]
    #: Listed sources this predicate rejects are left out (realm-protected ones, for instance).
    accept: Callable[[dict[str, Any]], bool] = lambda source: True
    #: The realms denied to the request as of now (a password checked for a source already
    #: walked may grant one): `denied_realms`.
    denied: Callable[[], tuple[int, ...]] = lambda: ()

    @property
    def denied_realms(self) -> tuple[int, ...]:
        """Realms whose sources definitions must leave out of their queries (so that a limit
        counts only what the request may see), asked when a definition fetches."""
        return self.denied()


@dataclass
class Walker:
    kind: str
    item: dict[str, Any]
    level: int
    max_level: int
    lineage: tuple[int, ...]
    children: list[Walker] = field(default_factory=list)
    # Set on children supplied by a definition that stops collection below itself.
    stopped: bool = False
    #: The item as the response shows it (schemas.web_response.serialise_items).
    dumped: dict[str, Any] | None = None

    @property
    def blank_id(self) -> str:
        """Deterministic blank-node id: the walker kind and the source ids from the root."""
        return walker_id(self.kind == MENU, self.lineage)

    def child(self, item: dict[str, Any], *, stopped: bool = False) -> Walker:
        return Walker(
            self.kind,
            item,
            self.level + 1,
            self.max_level,
            (*self.lineage, item["_id"]),
            stopped=stopped,
        )

    def expandable(self) -> bool:
        if self.stopped or self.level >= self.max_level:
            return False
        if self.level > 0 and self.item["reachable"]:
            return False  # a reachable child is listed, not expanded
        return self.kind != MENU or self.item["type"] == "Menu"


def walk(
    root: dict[str, Any],
    kind: str,
    max_level: int,
    context: WalkerContext,
    definitions: DefinitionRegistry,
) -> Walker:
    """The walker of `root` with its descendants, breadth first, one query per level."""
    return walk_many([(root, kind)], max_level, context, definitions)[0]


def walk_many(
    roots: list[tuple[dict[str, Any], str]],
    max_level: int,
    context: WalkerContext,
    definitions: DefinitionRegistry,
) -> list[Walker]:
    """Walkers of several (root, kind) trees at once: each level of all trees costs one query
    (plus one per definition invoked). Definitions see the context of their own tree's root."""
    tops = [Walker(kind, root, 0, max_level, (root["_id"],)) for root, kind in roots]
    contexts = {top.item["_id"]: replace(context, root=top.item) for top in tops}
    frontier = list(tops)
    while frontier:
        expanding = [w for w in frontier if w.expandable()]
        frontier = []
        stored: list[Walker] = []
        for walker in expanding:
            definition = definitions.get(walker.item["type"])
            if definition is None:
                stored.append(walker)
                continue
            stops = definition.stops_collection
            items = definition.children(walker.item, contexts[walker.lineage[0]])
            walker.children = [walker.child(i, stopped=stops) for i in items if context.accept(i)]
            frontier.extend(walker.children)
        child_ids = _child_ids(stored, context.generation)
        wanted = [node_id for ids in child_ids for node_id in ids]
        found = {
            s["node_id"]: s
            for s in context.generation.sources_of_nodes(wanted, context.locale, context.visibility)
        }
        for walker, ids in zip(stored, child_ids, strict=True):
            walker.children = [
                walker.child(found[node_id])
                for node_id in ids
                if node_id in found and context.accept(found[node_id])
            ]
            frontier.extend(walker.children)
    return tops


def _child_ids(walkers: list[Walker], generation: Generation) -> list[list[int]]:
    """Walker child ids of each walker's item: embedded in its source, or, for a listing node
    with many (`node.children` null), read with the others of the level in one query."""
    apart = [w.item["node_id"] for w in walkers if w.item["node"]["children"] is None]
    lists = generation.walker_children(apart) if apart else {}
    return [
        lists.get(w.item["node_id"], []) if w.item["node"]["children"] is None
        else w.item["node"]["children"]
        for w in walkers
    ]  # fmt: skip
