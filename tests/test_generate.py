"""The benchmark's site generator writes valid fixtures of the requested size."""

from __future__ import annotations

import json

from app.fixture.validate import validate_fixture
from seed.generate import DEMO, bench_paths, counts, generate, main


def test_a_small_generated_site_is_valid_with_the_requested_counts() -> None:
    site = generate(sources=200, blocks=30, depth=3, menu=60, seed=1)
    assert validate_fixture(site) == []
    found = counts(site)
    assert found["reachable_sources"] == 200
    assert found["MenuLink"] == 60 + 5  # main menu, then the footer menu's links
    assert found["ArticleFeedBlock"] == 2  # home and the deep page
    assert found["GroupBlock"] + found["ContentBlock"] >= 2 * 30
    assert [t["locale"] for t in site["translations"]] == ["en", "fr"]
    demo_types = json.loads(DEMO.read_text(encoding="utf-8"))["node_types"]
    assert site["node_types"] == demo_types


def test_the_showcase_pages_carry_the_block_tree_to_the_requested_depth() -> None:
    site = generate(sources=200, blocks=30, depth=3, menu=60)
    nodes = {n["id"]: n for n in site["nodes"]}
    children: dict[int, list[int]] = {}
    for node in site["nodes"]:
        children.setdefault(node["parent"], []).append(node["id"])

    def tree(node_id: int) -> tuple[int, int]:
        """(blocks, depth) of the ContentBlock/GroupBlock tree under a node."""
        blocks = [c for c in children.get(node_id, []) if nodes[c]["type"].endswith("Block")]
        below = [tree(c) for c in blocks if nodes[c]["type"] == "GroupBlock"]
        plain = [c for c in blocks if nodes[c]["type"] != "ArticleFeedBlock"]
        return len(plain) + sum(b for b, _ in below), 1 + max((d for _, d in below), default=0)

    home = next(n["id"] for n in site["nodes"] if n.get("home"))
    deep = next(n["id"] for n in site["nodes"] if n["node_name"] == "deep-page")
    assert tree(home) == (30, 3)
    assert tree(deep) == (30, 3)
    assert bench_paths(site) == {
        "home": "/",
        "deep_page": "/section-0/section-0-0/deep-page",
        "article": "/blog/article-43",
    }


def test_the_output_is_deterministic(tmp_path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["--sources", "300", "--out", str(first)]) == 0
    assert main(["--sources", "300", "--out", str(second), "--seed", "1"]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert validate_fixture(json.loads(first.read_text(encoding="utf-8"))) == []
