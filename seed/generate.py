"""Generate a valid site fixture of a given size (the benchmark's sites).

    python seed/generate.py --sources 10000 --blocks 30 --depth 3 --menu 60 --out /tmp/site.json

`--sources` counts the sources of reachable nodes (pages and articles) across the two translations
(en, the default, and fr): sources / 2 reachable nodes. The node types are copied from
seed/demo.json. Two showcase pages (home and a page at depth 3) carry the full block tree
(`--blocks` ContentBlocks and GroupBlocks nested `--depth` levels) and an ArticleFeedBlock; other
pages carry one ContentBlock. The output is deterministic for a given `--seed`.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

DEMO = Path(__file__).resolve().parent / "demo.json"
LOCALES = ("en", "fr")
SECTIONS = 10  # top-level section pages; each has sub-sections, each has pages (3 levels)
DEEP_PAGE = "deep-page"
TAGS = ("news", "events", "culture", "sport", "town", "school", "health", "travel", "food", "arts")
WORDS = (
    "market river bridge library festival concert school garden museum harbour square mill "
    "church park station theatre bakery forest council street"
).split()


class Builder:
    """Appends nodes with consecutive ids; sources get ids node_id * 10 + locale index."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.nodes: list[dict[str, Any]] = []

    def text(self, words: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(words)).capitalize() + "."

    def date(self, year: int = 2020, span_days: int = 1800) -> str:
        day = self.rng.randrange(span_days)
        return time.strftime("%Y-%m-%dT%H:00:00+00:00", time.gmtime(day * 86400 + 1577836800))

    def add(self, name: str, node_type: str, parent: int | None, fields: dict, **extra) -> int:
        node_id = len(self.nodes) + 1
        published = extra.pop("published_at", None) or self.date()
        title = extra.pop("title", None) or name.replace("-", " ").capitalize()
        sources = {
            locale: {
                "id": node_id * 10 + i + 1,
                "title": title if locale == "en" else f"{title} (fr)",
                "published_at": published,
                "fields": fields,
            }
            for i, locale in enumerate(LOCALES)
        }
        node = {"id": node_id, "node_name": name, "type": node_type, "parent": parent}
        node.update(position=extra.pop("position", node_id), visible=True, status="published")
        node.update(extra, sources=sources)
        self.nodes.append(node)
        return node_id


def fan_out(total: int, depth: int) -> int:
    """The smallest fan-out whose tree (alternating GroupBlock / ContentBlock) holds `total`."""
    fan = 1
    while True:
        capacity, containers = 0, 1
        for _ in range(depth):
            capacity += containers * fan
            containers *= math.ceil(fan / 2)
        if capacity >= total or fan >= total:
            return fan
        fan += 1


def block_tree(site: Builder, parent: int, prefix: str, total: int, depth: int) -> None:
    """`total` ContentBlocks and GroupBlocks under `parent`, `depth` levels, breadth first."""
    fan, containers, remaining = fan_out(total, depth), [parent], total
    for level in range(1, depth + 1):
        reserve = depth - level  # at least one block per deeper level
        count = min(fan * len(containers), max(remaining - reserve, 1))
        if count <= 0 or not containers:
            return
        children: list[int] = []
        for i in range(count):
            owner = containers[i % len(containers)]
            group = level < depth and (i // len(containers)) % 2 == 0
            name = f"{prefix}-l{level}-{i}"
            if group:
                children.append(site.add(name, "GroupBlock", owner, {"layout": "columns"}))
            else:
                site.add(name, "ContentBlock", owner, {"content": site.text(30), "image": []})
        remaining -= count
        containers = children


def showcase_blocks(site: Builder, page: int, prefix: str, blocks: int, depth: int) -> None:
    """The full block tree of a showcase page, then an ArticleFeedBlock on two tags."""
    block_tree(site, page, prefix, blocks, depth)
    site.add(f"{prefix}-feed", "ArticleFeedBlock", page, {"listing_count": 4}, tags=[1, 2])


def page_fields(site: Builder) -> dict[str, Any]:
    return {
        "content": site.text(40),
        "sub_title": site.text(4),
        "header_image": [1],
        "sticky": False,
    }


def sections(site: Builder, pages: int, blocks: int, depth: int) -> tuple[list[int], int]:
    """`pages` Pages in a tree of sections 3 levels deep; returns (all page ids, deep page id)."""
    ids: list[int] = []
    level1 = [site.add(f"section-{i}", "Page", None, page_fields(site)) for i in range(SECTIONS)]
    deep = site.add(DEEP_PAGE, "Page", level1[0], page_fields(site), title="Deep page")
    ids += [*level1, deep]
    level2: list[int] = []
    for i in range(min(SECTIONS * 3, max(pages - len(ids), 0))):
        parent = level1[i % SECTIONS]
        level2.append(site.add(f"section-{i % SECTIONS}-{i}", "Page", parent, page_fields(site)))
    ids += level2
    # the deep page sits under a level-2 section: /section-0/section-0-0/deep-page
    site.nodes[deep - 1]["parent"] = level2[0] if level2 else level1[0]
    for i in range(max(pages - len(ids), 0)):
        parent = level2[i % len(level2)] if level2 else level1[i % SECTIONS]
        ids.append(site.add(f"page-{i}", "Page", parent, page_fields(site)))
    for page in ids:
        if page != deep:
            site.add(f"block-of-{page}", "ContentBlock", page, {"content": site.text(20)})
    showcase_blocks(site, deep, DEEP_PAGE, blocks, depth)
    return ids, deep


def menus(site: Builder, links: int, targets: list[int]) -> None:
    """Main menu with `links` MenuLinks (a sub menu and a sub-sub menu), footer menu, footer."""
    main = site.add("main-menu", "Menu", None, {}, position=100000)
    nested = min(10, links // 3)
    for i in range(links - nested):
        fields = {"link_internal_reference": [targets[i % len(targets)]], "link_external_url": None}
        site.add(f"menu-link-{i}", "MenuLink", main, fields)
    sub = site.add("menu-more", "Menu", main, {})
    inner = site.add("menu-more-inner", "Menu", sub, {})
    for i in range(nested):
        fields = {"link_internal_reference": [], "link_external_url": f"https://example.org/{i}"}
        site.add(f"menu-more-{i}", "MenuLink", inner if i % 3 == 2 else sub, fields)
    footer_menu = site.add("footer-menu", "Menu", None, {}, position=100001)
    for i in range(5):
        fields = {"link_internal_reference": [targets[i]], "link_external_url": None}
        site.add(f"footer-link-{i}", "MenuLink", footer_menu, fields)
    footer = site.add("footer", "Footer", None, {"content": site.text(12)}, position=100002)
    site.add("footer-text", "ContentBlock", footer, {"content": site.text(15), "image": []})


def generate(
    sources: int = 1000, blocks: int = 30, depth: int = 3, menu: int = 60, seed: int = 1
) -> dict[str, Any]:
    """A site fixture with `sources` reachable sources (en + fr)."""
    demo = json.loads(DEMO.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    site = Builder(rng)
    reachable = max(sources // len(LOCALES), 4 + SECTIONS)
    home = site.add("home", "Page", None, page_fields(site), home=True, position=0, title="Home")
    showcase_blocks(site, home, "home", blocks, depth)
    blog = site.add("blog", "BlogPost", None, {"content": site.text(10), "image": [2]})
    page_count = max(SECTIONS + 2, reachable // 20)
    pages, _ = sections(site, page_count, blocks, depth)
    for i in range(reachable - 2 - len(pages)):
        tags = sorted(rng.sample(range(1, len(TAGS) + 1), rng.randint(1, 3)))
        category = rng.choice(("news", "event", "story"))
        fields = {"content": site.text(60), "image": [rng.randint(1, 20)], "category": category}
        site.add(f"article-{i}", "Article", blog, fields, tags=tags, position=i + 1)
    menus(site, menu, [blog, *pages])
    return {
        "settings": {**demo["settings"], "site_name": f"Generated site ({sources} sources)"},
        "translations": [
            {"locale": "en", "name": "English", "default": True, "available": True},
            {"locale": "fr", "name": "Français", "default": False, "available": True},
        ],
        "node_types": demo["node_types"],
        "documents": [document(i) for i in range(1, 21)],
        "tags": [
            {"id": i, "slug": slug, "visible": True, "parent": None, "names": {"en": slug}}
            for i, slug in enumerate(TAGS, start=1)
        ],
        "nodes": site.nodes,
        "realms": [],
        "redirections": [],
    }


def document(doc_id: int) -> dict[str, Any]:
    return {
        "id": doc_id,
        "filename": f"image-{doc_id}.jpg",
        "relative_path": f"g{doc_id}/image-{doc_id}.jpg",
        "mime_type": "image/jpeg",
        "image_width": 1200,
        "image_height": 800,
        "private": False,
        "alt": {"en": f"Image {doc_id}", "fr": f"Image {doc_id} (fr)"},
    }


def counts(site: dict[str, Any]) -> dict[str, int]:
    """Nodes per type and reachable sources (the size of the site)."""
    reachable = {t["name"] for t in site["node_types"] if t.get("reachable")}
    out: dict[str, int] = {}
    for node in site["nodes"]:
        out[node["type"]] = out.get(node["type"], 0) + 1
    out["reachable_sources"] = sum(
        len(n["sources"]) for n in site["nodes"] if n["type"] in reachable
    )
    return out


def bench_paths(site: dict[str, Any]) -> dict[str, str]:
    """The paths the benchmark requests: home, the deep page, an article (in the middle)."""
    by_id = {n["id"]: n for n in site["nodes"]}
    node: dict[str, Any] | None = next(n for n in site["nodes"] if n["node_name"] == DEEP_PAGE)
    chain: list[str] = []
    while node is not None:
        chain.insert(0, node["node_name"])
        node = by_id.get(node["parent"])
    articles = [n for n in site["nodes"] if n["type"] == "Article"]
    article = articles[len(articles) // 2]["node_name"]
    return {"home": "/", "deep_page": "/" + "/".join(chain), "article": f"/blog/{article}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=1000, help="reachable sources (en + fr)")
    parser.add_argument("--blocks", type=int, default=30, help="blocks of the showcase pages")
    parser.add_argument("--depth", type=int, default=3, help="levels of the block tree")
    parser.add_argument("--menu", type=int, default=60, help="MenuLinks of the main menu")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="the fixture file to write")
    args = parser.parse_args(argv)
    started = time.monotonic()
    print(f"generating {args.sources} sources ...", file=sys.stderr)
    site = generate(args.sources, args.blocks, args.depth, args.menu, args.seed)
    print(f"  {len(site['nodes'])} nodes; writing {args.out}", file=sys.stderr)
    text = json.dumps(site, ensure_ascii=False, separators=(",", ":"))
    Path(args.out).write_text(text, encoding="utf-8")
    summary = {"counts": counts(site), "paths": bench_paths(site), "bytes": len(text.encode())}
    print(json.dumps(summary), file=sys.stderr)
    print(f"done in {time.monotonic() - started:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
