"""The search token index: normalised, accent-folded words of a source (title, text fields and
tag names in its translation), materialised at load as postings (word -> sources, best first)
that a search reads by `_id` (app/search.py; docs/performance.md, bounded search)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from app.publication import PREVIEW_STATUSES, PUBLIC_STATUSES
from app.query_plan import SEARCH_CHUNK, SEARCH_SCAN, postings_id

TEXT_FIELD_TYPES = frozenset({"string", "text", "markdown", "rich_text"})
_WORD = re.compile(r"\w+")
MIN_WORD = 2
# A longer word is indexed and searched by its first MAX_WORD characters (Solr's StandardTokenizer
# also stops at 255): a posting's `_id` stays small (DocumentDB refuses index keys above 2 KB),
# whatever a text holds (a base64 run in rich text is one long word).
MAX_WORD = 255
TITLE_WEIGHT, TEXT_WEIGHT = 2, 1  # a word of the title counts double


def fold(text: str) -> str:
    """Lower case without accents: `Élan` -> `elan`."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def term(word: str) -> str:
    """One word of a text as the index holds it (a `\\w+` match of the unfolded text)."""
    return fold(word)[:MAX_WORD]


def words(text: str) -> list[str]:
    """The index words of `text`, in order (folded, at least MIN_WORD characters, cut to
    MAX_WORD)."""
    return [w[:MAX_WORD] for w in _WORD.findall(fold(text)) if len(w) >= MIN_WORD]


def text_fields(node_type: dict[str, Any]) -> list[str]:
    return [f["name"] for f in node_type.get("fields", []) if f["type"] in TEXT_FIELD_TYPES]


def source_words(title: str, texts: Iterable[str | None], tag_names: Iterable[str]) -> list[str]:
    """The distinct words of a source, sorted."""
    found = set(words(title))
    for text in texts:
        if text:
            found.update(words(text))
    for name in tag_names:
        found.update(words(name))
    return sorted(found)


def postings_docs(
    sources: list[dict[str, Any]], node_types: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The `postings` chunks of every (word, translation, visibility class).

    A source is searchable when it is reachable, visible and dated (a search never lists what is
    not out: `published_at <= now` is decided per request, from the entry). Classes: `public`
    (published) and `preview` (every status preview shows). A word's postings are ordered as a
    one-word search ranks them: title matches first, then newest (`published_at`, then `_id`);
    only the first SEARCH_CHUNK * SEARCH_SCAN are stored, since no search reads further.
    """
    searchable = [
        s
        for s in sources
        if s["reachable"] and s["node"]["visible"] and s["published_at"] is not None
    ]
    searchable.sort(key=lambda s: (s["published_at"], s["_id"]), reverse=True)
    stored = SEARCH_CHUNK * SEARCH_SCAN
    # (word, locale, preview) -> [title postings, text postings, number of postings]
    heads: dict[tuple[str, str, bool], list[Any]] = {}
    for source in searchable:
        status = source["node"]["status"]
        classes = [preview for preview, statuses in ((False, PUBLIC_STATUSES),
                   (True, PREVIEW_STATUSES)) if status in statuses]  # fmt: skip
        if not classes:
            continue
        texts = (source["fields"].get(name) for name in text_fields(node_types[source["type"]]))
        tag_names = (t["name"] for t in source["node"]["tags"])
        in_title = set(words(source["title"]))
        for word in source_words(source["title"], texts, tag_names):
            weight = TITLE_WEIGHT if word in in_title else TEXT_WEIGHT
            for preview in classes:
                head = heads.setdefault((word, source["locale"], preview), [[], [], 0])
                head[2] += 1
                listed = head[0] if weight == TITLE_WEIGHT else head[1]
                if len(listed) < stored:
                    listed.append(_posting(source, weight))
    docs = []
    for (word, locale, preview), (titled, other, total) in sorted(heads.items()):
        postings = (titled + other)[:stored]
        for number, start in enumerate(range(0, len(postings), SEARCH_CHUNK)):
            docs.append({
                "_id": postings_id(word, locale, number, preview=preview),
                "entries": postings[start : start + SEARCH_CHUNK],
                "more": start + SEARCH_CHUNK < total,  # later postings exist (stored or not)
            })  # fmt: skip
    return docs


def _posting(source: dict[str, Any], weight: int) -> dict[str, Any]:
    """What a search decides per request without reading the source: date, realms, filters."""
    return {
        "id": source["_id"],
        "weight": weight,
        "published_at": source["published_at"],
        "type": source["type"],
        "tag_ids": source["node"]["tag_ids"],
        "realm_ids": source["node"]["realm_ids"],
    }
