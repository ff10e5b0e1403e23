"""The search token index: normalised, accent-folded words of a source (title, text fields and
tag names in its translation), materialised at load and matched with `$in` on an index."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

TEXT_FIELD_TYPES = frozenset({"string", "text", "markdown", "rich_text"})
_WORD = re.compile(r"\w+")
MIN_WORD = 2


def fold(text: str) -> str:
    """Lower case without accents: `Élan` -> `elan`."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def words(text: str) -> list[str]:
    """The index words of `text`, in order (folded, at least MIN_WORD characters)."""
    return [w for w in _WORD.findall(fold(text)) if len(w) >= MIN_WORD]


def text_fields(node_type: dict[str, Any]) -> list[str]:
    return [f["name"] for f in node_type.get("fields", []) if f["type"] in TEXT_FIELD_TYPES]


def source_words(title: str, texts: Iterable[str | None], tag_names: Iterable[str]) -> list[str]:
    """The distinct words of a source, sorted (stored as `words`, a multikey index)."""
    found = set(words(title))
    for text in texts:
        if text:
            found.update(words(text))
    for name in tag_names:
        found.update(words(name))
    return sorted(found)
