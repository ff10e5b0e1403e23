"""Search (`/api/search`, and `/api/nodes_sources/search` of Roadiz up to 2.7.30) on MongoDB.

Roadiz asks Solr; here the words of every source are materialised at load (app/search_index.py)
and matched with `$in` on the `search` index. Only published, visible, reachable sources of one
translation that the request may see (deny realms) are candidates; they are ranked by the number
of query words they contain (title words count double), then by recency. Highlights wrap the
matched words in `<span class="solr-highlight">`, cut from the title and text fields (~200
characters); queries of 3 characters or fewer get `"highlighting": []`, as with Solr.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections import Counter
from typing import Any

from werkzeug.datastructures import MultiDict

from app.audience import denied_realm_ids
from app.errors import BadRequest
from app.listing import hydra
from app.listing.params import Page, Params
from app.reply import Reply
from app.request_context import RequestContext
from app.search_index import fold, text_fields, words
from app.web_response import ItemDumper

ITEMS_PER_PAGE = 20
MAX_ITEMS_PER_PAGE = 200  # Roadiz has none; a bound keeps a page's cost bounded
SHORT_QUERY = 3
SNIPPET = 200
HIGHLIGHT = '<span class="solr-highlight">{}</span>'
PER_PAGE_NAMES = ("itemsPerPage", "itemPerPage", "item_per_page")
ACCEPTED = frozenset({"search", "_locale", "page", *PER_PAGE_NAMES, "tag_name", "tag_name[]",
                      "node_type", "node_type[]", "_preview", "password"})  # fmt: skip
_WORD = re.compile(r"\w+")
_INTEGER = re.compile(r"[0-9]{1,9}")


def _integer(params: Params, names: tuple[str, ...], default: int, low: int, high: int) -> int:
    for name in names:
        value = params.get(name)
        if value is None:
            continue
        if not _INTEGER.fullmatch(value) or not low <= int(value) <= high:
            raise BadRequest(f'"{name}" must be an integer from {low} to {high}')
        return int(value)
    return default


def _locale(context: RequestContext, params: Params) -> str:
    wanted = params.get("_locale")
    if wanted is None:
        return context.site.default_translation.locale
    translation = context.site.translations.get(wanted)
    if translation is None or not (translation.available or context.visibility.preview):
        raise BadRequest(f"“{wanted[:40]}” locale is not available")
    return wanted


def _mark(text: str, wanted: set[str]) -> tuple[str, bool]:
    """`text`, HTML-escaped, with every word whose folded form is wanted highlighted."""
    out, last, found = [], 0, False
    for match in _WORD.finditer(text):
        if fold(match.group()) in wanted:
            out.append(html.escape(text[last : match.start()], quote=False))
            out.append(HIGHLIGHT.format(html.escape(match.group(), quote=False)))
            last, found = match.end(), True
    out.append(html.escape(text[last:], quote=False))
    return "".join(out), found


def _snippet(text: str, wanted: set[str]) -> str | None:
    """About SNIPPET characters of `text` around its first wanted word, highlighted."""
    first = next((m for m in _WORD.finditer(text) if fold(m.group()) in wanted), None)
    if first is None:
        return None
    start = max(0, first.start() - SNIPPET // 3)
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < first.start() else start
    end = min(len(text), start + SNIPPET)
    if end < len(text):
        space = text.rfind(" ", first.end(), end)
        end = space if space > 0 else end
    marked, _ = _mark(text[start:end], wanted)
    return ("…" if start else "") + marked + ("…" if end < len(text) else "")


def highlighting(source: dict[str, Any], wanted: set[str], text_names: list[str]) -> dict:
    lang = source["locale"]
    found: dict[str, list[str]] = {}
    title, hit = _mark(source["title"], wanted)
    if hit:
        found[f"title_txt_{lang}"] = [title]
    texts = [source["fields"].get(name) for name in text_names]
    snippets = [s for s in (_snippet(t, wanted) for t in texts if t) if s]
    if snippets:
        found[f"collection_txt_{lang}"] = snippets[:1]
    return found


def _filters(context: RequestContext, params: Params, locale: str) -> dict[str, Any]:
    query: dict[str, Any] = {"locale": locale, "reachable": True}
    types = params.all("node_type") + params.all("node_type[]")
    if types:
        query["type"] = {"$in": types}
    tag_names = params.all("tag_name") + params.all("tag_name[]")
    if tag_names:  # exact translated names of visible tags -> their ids
        default = context.site.default_translation.locale
        ids = [t["_id"] for t in context.site.tags if t.get("visible", True)
               and ((t.get("names") or {}).get(locale) or (t.get("names") or {}).get(default)
                    or t["slug"]) in tag_names]  # fmt: skip
        query["node.tag_ids"] = {"$in": ids}
    listed = types or [t.name for t in context.site.reachable_types()]
    denied = denied_realm_ids(context, check_passwords=True, types=listed)
    if denied:
        query["node.realm_ids"] = {"$nin": denied}
    return query


def _score(source: dict[str, Any], wanted: set[str]) -> tuple[int, float, int]:
    matched = len(wanted.intersection(source.get("words", ())))
    in_title = len(wanted.intersection(words(source["title"])))
    published = source["published_at"].timestamp() if source.get("published_at") else 0.0
    return (matched + in_title, published, source["_id"])


def _facets(found: list[dict[str, Any]]) -> dict:
    """Counts of node types and visible tag names (in the source's translation) of every hit."""
    types = Counter(s["type"] for s in found)
    tags = Counter(t["name"] for s in found for t in s["node"]["tags"] if t.get("visible", True))

    def buckets(counts: Counter) -> dict[str, Any]:
        ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return {"buckets": [{"val": value, "count": count} for value, count in ordered]}

    return {"node_type": buckets(types), "tag_name": buckets(tags)}


def search(context: RequestContext, path: str, args: MultiDict) -> Reply:
    params = Params(args)
    for name in params.names:
        if name not in ACCEPTED:
            listed = ", ".join(sorted(ACCEPTED - {"_preview", "password"}))
            raise BadRequest(f'Unknown parameter "{name}" for {path}; accepted: {listed}')
    text = (params.get("search") or "").strip()
    if not text:
        raise BadRequest("Search param is required.")
    locale = _locale(context, params)
    page = Page(
        _integer(params, ("page",), 1, 1, 1_000_000),
        _integer(params, PER_PAGE_NAMES, ITEMS_PER_PAGE, 0, MAX_ITEMS_PER_PAGE),
    )
    wanted = set(words(text))
    found = []
    if wanted:
        found = context.site.generation.search_matches(
            sorted(wanted), _filters(context, params, locale), context.visibility
        )
    found.sort(key=lambda s: _score(s, wanted), reverse=True)
    members = []
    for source in found[page.skip : page.skip + page.size]:
        node_type = context.site.node_types[source["type"]]
        dumped = ItemDumper(context, frozenset(node_type.operation_groups()))(source)
        marks: dict | list = []
        if len(text) > SHORT_QUERY:
            marks = highlighting(source, wanted, text_fields_of(context, source["type"]))
        seed = f"{path}?{text}#{source['_id']}".encode()
        members.append({
            "@id": f"/.well-known/genid/{hashlib.sha256(seed).hexdigest()[:20]}",
            "@type": "SearchResultItem",
            "item": dumped,
            "highlighting": marks,
        })  # fmt: skip
    body = hydra.collection("/api/contexts/SearchResultItem", path, members, len(found),
                            hydra.view(path, args, page, len(found)), None)  # fmt: skip
    body["facets"] = _facets(found)
    return Reply(body, locale)


def text_fields_of(context: RequestContext, type_name: str) -> list[str]:
    node_type = context.site.node_types[type_name]
    return text_fields({"fields": [{"name": f.name, "type": f.type} for f in node_type.fields]})
