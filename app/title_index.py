"""Title keys: every position of a source's title (and meta title, meta description), caseless,
materialised at load so that a partial match (`title=market`) reads the sources that may hold its
value instead of testing every source of the route (app/listing/titles.py; query_plan.TITLE_*;
docs/performance.md, partial matches).

A partial match is the database's case-insensitive `$regex` on the escaped value, and stays so: the
keys only choose the sources it is tried on. So they must never miss one. `caseless` maps every
character to one character, the same for all the characters a case-insensitive match takes for
one another (MongoDB's PCRE and Go's regexp, Unicode simple case folding; Python's `re`, which
mongomock runs, also takes `i` for `ı` and a few Greek symbols for their letters), so a title the
regex matches holds the caseless value at the same place in its caseless text.
"""

from __future__ import annotations

import functools
from typing import Any

from app.query_plan import (
    TITLE_BUCKET,
    TITLE_CHUNK,
    TITLE_FIELDS,
    TITLE_KEY,
    TITLE_KEYS_ID,
    title_keys_id,
    title_keys_shape,
)

# Characters that a case-insensitive match takes for another one that neither their upper nor
# their lower case tells (Python's `re._casefix`): each to one representative.
_SAME = {
    "\u1fd3": "\u0390",  # iota with dialytika and oxia / tonos
    "\u1fe3": "\u03b0",  # upsilon with dialytika and oxia / tonos
    "\ufb05": "\ufb06",  # ligatures long s t, s t
}


@functools.cache
def _representative(char: str) -> str:
    """The lower case of the character's upper case (`ς`, `ſ`, `K`, `ᲀ` and the like meet their
    letters there), when each is one character; else its lower case, or the first character of
    it (`İ` lowers to `i` and a combining dot: a case-insensitive match takes `i`)."""
    upper = char.upper()
    lower = (upper if len(upper) == 1 else char).lower()
    if len(lower) != 1:
        lower = char.lower()[0]
    return _SAME.get(lower, lower)


def caseless(text: str) -> str:
    """`text` with each character replaced by one representative of its case: as long as
    `text`, so a match at a position of a text is at the same position of its caseless text."""
    return "".join(map(_representative, text))


def title_key_docs(sources: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The `postings` documents of the title keys of every source, whatever its status (the
    request's filter decides the rest), and the marker TITLE_KEYS_ID."""
    buckets: dict[tuple[str, str, str], set[tuple[str, int]]] = {}
    for source in sources:
        for field in TITLE_FIELDS:
            text = caseless(source.get(field) or "")
            for start in range(len(text) - TITLE_BUCKET + 1):
                key = text[start : start + TITLE_KEY]
                bucket = buckets.setdefault((field, source["locale"], key[:TITLE_BUCKET]), set())
                bucket.add((key[TITLE_BUCKET:], source["_id"]))
    docs: list[dict[str, Any]] = [{
        "_id": TITLE_KEYS_ID, **title_keys_shape(TITLE_FIELDS, TITLE_BUCKET, TITLE_KEY),
        "chunk": TITLE_CHUNK,
    }]  # fmt: skip
    for (field, locale, bucket), keys in sorted(buckets.items()):
        ordered = sorted(keys)
        chunks = [ordered[i : i + TITLE_CHUNK] for i in range(0, len(ordered), TITLE_CHUNK)]
        for number, chunk in enumerate(chunks):
            doc: dict[str, Any] = {  # two lists side by side: no engine refuses them
                "_id": title_keys_id(field, locale, bucket, number),
                "keys": [rest for rest, _ in chunk],
                "sources": [source_id for _, source_id in chunk],
            }
            if number == 0:  # what a read needs to know which chunks hold a value
                doc["size"] = len(ordered)
                doc["starts"] = [chunk[0][0] for chunk in chunks]
            docs.append(doc)
    return docs
