"""Search (`/api/search`, and `/api/nodes_sources/search` of Roadiz up to 2.7.30) on MongoDB.

Roadiz asks Solr; here the words of every searchable source (published or previewable, visible,
reachable, dated) are materialised at load as postings per word, translation and visibility class,
best first (app/search_index.py). A search reads, per query word, chunks of postings by `_id`
until it holds SEARCH_CHUNK postings that the request may see (out by now, no denied realm, its
filters), within SEARCH_SCAN chunks; it ranks those candidates by the weights of the words they
hold (title words count double), then by recency, and reads only the page's sources by `_id`. So
its cost is bounded by the index, never by the number of matching sources; `hydra:totalItems` and
the facets count the candidates (docs/api.md, search; docs/performance.md, bounded search).
Highlights wrap the matched words in `<span class="solr-highlight">`, cut from the title and
text fields (~200 characters); queries of 3 characters or fewer get `"highlighting": []`, as
with Solr."""

from __future__ import annotations

import hashlib
import html
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from werkzeug.datastructures import MultiDict

from app.audience import denied_realm_ids
from app.errors import BadRequest
from app.listing import hydra
from app.listing.params import Page, Params
from app.listing.sources import dump_member
from app.query_plan import SEARCH_CHUNK, SEARCH_SCAN, postings_id
from app.reply import Reply
from app.request_context import RequestContext
from app.search_index import term, text_fields, words

ITEMS_PER_PAGE = 20
MAX_ITEMS_PER_PAGE = 200  # Roadiz has none; a bound keeps a page's cost bounded
MAX_WORDS = 10  # distinct words of a query: each costs 1 to SEARCH_SCAN postings reads
SHORT_QUERY = 3
SNIPPET = 200
HIGHLIGHT = '<span class="solr-highlight">{}</span>'
PER_PAGE_NAMES = ("itemsPerPage", "itemPerPage", "item_per_page")
ACCEPTED = frozenset({"search", "_locale", "page", *PER_PAGE_NAMES, "tag_name", "tag_name[]",
                      "node_type", "node_type[]", "_preview", "password"})  # fmt: skip
_WORD = re.compile(r"\w+")
_INTEGER = re.compile(r"[0-9]{1,9}")


def _integer(params: Params, names: tuple[str, ...], default: int, low: int, high: int) -> int:
    """The value of the one of `names` (spellings of one parameter) that the request gives."""
    given = [name for name in names if params.has(name)]
    if len(given) > 1:
        quoted = " and ".join(f'"{name}"' for name in given)
        raise BadRequest(f"{quoted} are one parameter: give one")
    if not given:
        return default
    name = given[0]
    value = params.get(name) or ""
    if not _INTEGER.fullmatch(value) or not low <= int(value) <= high:
        raise BadRequest(f'"{name}" must be an integer from {low} to {high}')
    return int(value)


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
        if term(match.group()) in wanted:
            out.append(html.escape(text[last : match.start()], quote=False))
            out.append(HIGHLIGHT.format(html.escape(match.group(), quote=False)))
            last, found = match.end(), True
    out.append(html.escape(text[last:], quote=False))
    return "".join(out), found


def _snippet(text: str, wanted: set[str]) -> str | None:
    """About SNIPPET characters of `text` around its first wanted word, highlighted."""
    first = next((m for m in _WORD.finditer(text) if term(m.group()) in wanted), None)
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


def _visible_tag_names(context: RequestContext, locale: str) -> dict[int, str]:
    """Visible tags by id -> their name in `locale` (the default translation's, else the slug)."""
    default = context.site.default_translation.locale
    return {
        t["_id"]: (t.get("names") or {}).get(locale)
        or (t.get("names") or {}).get(default)
        or t["slug"]
        for t in context.site.tags
        if t.get("visible", True)
    }


def _keep(context: RequestContext, params: Params, locale: str) -> Callable[[dict], bool]:
    """Whether the request may see a posting's source and its filters keep it: out by now, no
    realm denied to the request covers it, of a wanted type, carrying a wanted tag."""
    now = context.visibility.now
    types = set(params.all("node_type") + params.all("node_type[]"))
    tag_names = set(params.all("tag_name") + params.all("tag_name[]"))
    tag_ids = {i for i, name in _visible_tag_names(context, locale).items() if name in tag_names}
    listed = types or [t.name for t in context.site.reachable_types()]
    denied = set(denied_realm_ids(context, check_passwords=True, types=listed))

    def keep(posting: dict[str, Any]) -> bool:
        return (
            posting["published_at"] <= now
            and not denied.intersection(posting["realm_ids"])
            and (not types or posting["type"] in types)
            and (not tag_names or not tag_ids.isdisjoint(posting["tag_ids"]))
        )

    return keep


def ranked_candidates(
    context: RequestContext, wanted: list[str], locale: str, keep: Callable[[dict], bool]
) -> list[dict[str, Any]]:
    """The candidates of a search, best first: per word, the first SEARCH_CHUNK postings that
    `keep` keeps, looked for in at most SEARCH_SCAN chunks, each read by `_id` (the one filter
    every engine decides in its index, FerretDB 1.24 included). A candidate scores the weights
    (title 2, text 1) of the words whose postings read hold it (kept or not: a chunk read counts
    whole); ties go to the newest, then the highest id."""
    preview = context.visibility.preview
    found: dict[int, dict[str, Any]] = {}
    weights: dict[int, int] = {}
    for word in wanted:
        kept = 0
        for number in range(SEARCH_SCAN):
            chunk = context.site.generation.postings(
                postings_id(word, locale, number, preview=preview)
            )
            if chunk is None:  # no (further) postings of the word
                break
            for posting in chunk["entries"]:
                weights[posting["id"]] = weights.get(posting["id"], 0) + posting["weight"]
                if kept < SEARCH_CHUNK and keep(posting):
                    found.setdefault(posting["id"], posting)
                    kept += 1
            if kept == SEARCH_CHUNK or not chunk["more"]:
                break
    ranked = [{**posting, "score": weights[i]} for i, posting in found.items()]
    return sorted(ranked, key=lambda h: (h["score"], h["published_at"], h["id"]), reverse=True)


def _facets(candidates: list[dict[str, Any]], tag_names: dict[int, str]) -> dict:
    """Counts of node types, documents (none) and visible tag names (in the search's translation)
    of every hit, as Roadiz 2.7.31 gives them: a
    hit counts once per name, even when two of its tags share one (the count is what filtering
    on the name lists)."""
    types = Counter(c["type"] for c in candidates)
    tags = Counter(
        name for c in candidates for name in {tag_names[t] for t in c["tag_ids"] if t in tag_names}
    )

    def buckets(counts: Counter) -> dict[str, Any]:
        ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return {"buckets": [{"val": value, "count": count} for value, count in ordered]}

    # Solr's document_type facet counts the documents it finds: a search finds node sources only
    return {
        "node_type": buckets(types),
        "document_type": {"buckets": []},
        "tag_name": buckets(tags),
    }


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
    wanted = sorted(set(words(text)))
    if len(wanted) > MAX_WORDS:
        raise BadRequest(f'"search" has {len(wanted)} distinct words; at most {MAX_WORDS}')
    candidates = []
    # outside preview an unavailable translation shows nothing (the default one too, when it is)
    shown = context.visibility.preview or context.site.translations[locale].available
    if wanted and shown:
        keep = _keep(context, params, locale)
        candidates = ranked_candidates(context, wanted, locale, keep)
    page_ids = [c["id"] for c in candidates[page.skip : page.skip + page.size]]
    by_id = {}
    if page_ids:
        by_id = {
            s["_id"]: s for s in context.site.generation.search_hits(page_ids, context.visibility)
        }
    found = [by_id[i] for i in page_ids if i in by_id]
    marked = set(wanted)
    members = []
    for source in found:
        dumped = dump_member(context, source)
        marks: dict | list = []
        if len(text) > SHORT_QUERY:
            marks = highlighting(source, marked, text_fields_of(context, source["type"]))
        seed = f"{path}?{text}#{source['_id']}".encode()
        members.append({
            "@id": f"/.well-known/genid/{hashlib.sha256(seed).hexdigest()[:20]}",
            "@type": "SearchResultItem",
            "item": dumped,
            "highlighting": marks,
        })  # fmt: skip
    total = len(candidates)
    body = hydra.collection("/api/contexts/SearchResultItem", path, members, total,
                            hydra.view(path, args, page, total), None)  # fmt: skip
    body["facets"] = _facets(candidates, _visible_tag_names(context, locale))
    return Reply(body, locale)


def text_fields_of(context: RequestContext, type_name: str) -> list[str]:
    node_type = context.site.node_types[type_name]
    return text_fields({"fields": [{"name": f.name, "type": f.type} for f in node_type.fields]})
