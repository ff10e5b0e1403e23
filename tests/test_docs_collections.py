"""docs/collections.md is what scripts/collections_doc.py generates from seed/demo.json."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "collections_doc.py"


def _script():
    spec = importlib.util.spec_from_file_location("collections_doc", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_collections_doc_is_up_to_date():
    current = (ROOT / "docs" / "collections.md").read_text(encoding="utf-8")
    assert _script().render() == current, (
        "docs/collections.md is out of date: run .venv/bin/python scripts/collections_doc.py"
    )
