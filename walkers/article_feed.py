"""The shipped walker definition: an article feed block lists the newest matching articles."""

from __future__ import annotations

from typing import Any

from app.fixture.feeds import FEED_BLOCKS
from walkers.definitions import DefinitionRegistry, WalkerDefinitionError
from walkers.walker import WalkerContext


class ArticleFeedDefinition:
    """Children of an ArticleFeedBlock: published, visible Articles of the same translation,
    carrying all of the block's tags, newest first, at most listing_count (default 4)."""

    node_type = "ArticleFeedBlock"
    article_type = FEED_BLOCKS[node_type]  # the loader materialises its feeds (bounded reads)
    default_limit = 4
    stops_collection = True

    def children(self, source: dict[str, Any], context: WalkerContext) -> list[dict[str, Any]]:
        if source.get("type") != self.node_type:
            raise WalkerDefinitionError(
                f"{type(self).__name__} handles {self.node_type} items, not {source.get('type')}"
            )
        if not isinstance(context, WalkerContext):
            raise WalkerDefinitionError(
                f"{type(self).__name__} needs a node source walker context, "
                f"not {type(context).__name__}"
            )
        limit = source["fields"].get("listing_count")
        limit = self.default_limit if limit is None else limit
        if limit <= 0:
            return []
        root = context.root
        return context.generation.feed(
            node_type=self.article_type,
            locale=source["locale"],
            visibility=context.visibility,
            tag_ids=source["node"]["tag_ids"],
            exclude_source=root["_id"] if root["type"] == self.article_type else None,
            exclude_realms=list(context.denied_realms),
            limit=limit,
        )


def register(registry: DefinitionRegistry) -> None:
    registry.register(ArticleFeedDefinition())
