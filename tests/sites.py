"""Site fixtures derived from the demo site for tests that need more content."""

from __future__ import annotations

from typing import Any

from tests.conftest import demo_site
from tests.helpers import node


def _node(node_id: int, name: str, node_type: str, parent: int, position: int, **fields) -> dict:
    return {
        "id": node_id,
        "node_name": name,
        "type": node_type,
        "parent": parent,
        "position": position,
        "visible": True,
        "status": "published",
        "sources": {
            "en": {
                "id": node_id * 100 + 1,
                "title": f"{name} en",
                "published_at": "2024-03-01T00:00:00+00:00",
                "fields": fields,
            },
            "fr": {
                "id": node_id * 100 + 2,
                "title": f"{name} fr",
                "published_at": "2024-03-01T00:00:00+00:00",
                "fields": fields,
            },
        },
    }


def with_blocks(groups: int, per_group: int) -> dict[str, Any]:
    """The demo site whose `about` page has `groups` GroupBlocks of `per_group` ContentBlocks."""
    site = demo_site()
    about = node(site, "about")["id"]
    next_id = 1000
    for g in range(groups):
        group_id = next_id
        site["nodes"].append(_node(group_id, f"group-{g}", "GroupBlock", about, 10 + g))
        next_id += 1
        for b in range(per_group):
            site["nodes"].append(
                _node(next_id, f"block-{g}-{b}", "ContentBlock", group_id, b, content=f"Text {b}")
            )
            next_id += 1
    return site


def with_menu_links(count: int) -> dict[str, Any]:
    """The demo site whose main menu has `count` extra links."""
    site = demo_site()
    menu = node(site, "main-menu")["id"]
    about = node(site, "about")["id"]
    for i in range(count):
        site["nodes"].append(
            _node(2000 + i, f"extra-link-{i}", "MenuLink", menu, 100 + i,
                  link_internal_reference=[about])
        )  # fmt: skip
    return site
