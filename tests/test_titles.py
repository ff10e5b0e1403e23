"""Partial matches (`title`, `metaTitle`, `metaDescription`) read their candidates from the title
keys (app/title_index.py, app/listing/titles.py) and answer as the index does.

A differential test over a generated site whose titles mix cases, accents, characters that a
case-insensitive match takes for others (Kelvin sign, long s, final sigma, dotted capital I),
punctuation and long words, with title keys in chunks of a few (keys of one value span chunks):
random values (pieces of titles in random case, longer than a key, absent) in random requests
(pages, cursor walks, archives; any of several values, two fields, a translation, an order, other
filters; anonymous or an editor in preview), answered as served and with the title keys turned off.
"""

from __future__ import annotations

import _sre
import random
import re._casefix as _casefix
import sys
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest

from app import title_index
from app.auth import mint_token
from app.listing import sources, titles
from app.query_plan import TITLE_KEY
from app.title_index import caseless
from seed.generate import generate
from tests.conftest import JWT_SECRET

WORDS = [
    *("Marché", "MARKET", "supermarket", "Straße", "ΟΔΟΣ", "οδός", "\u212aelvin", "kelvin"),
    *("İstanbul", "istanbul", "ſtrange", "strange", "a.b (c)", "[x]*+?", "naïve", "Naive"),
    *("Grünkohl", "Extraordinarily-long-hyphenated-word", "concert", "jazz", "été", "ÉTÉ"),
]
EDITOR = {
    "Authorization": "Bearer "
    + mint_token(JWT_SECRET, "eve", ["ROLE_BACKEND_USER"], timedelta(days=1))
}
REQUESTS = {"mongomock": 120, "ferretdb": 15}


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))


def titled_site(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    site = generate(150, blocks=6, depth=2, menu=6, seed=seed)
    for node in site["nodes"]:
        for source in node["sources"].values():
            source["title"] = _text(rng)
            if rng.random() < 0.3:
                source["meta_title"] = _text(rng)
            if rng.random() < 0.2:
                source["meta_description"] = _text(rng) + ". " + _text(rng)
        if rng.random() < 0.1:
            node["status"] = rng.choice(("draft", "pending"))
    return site


@pytest.fixture(scope="module")
def titled(make_app):
    site = titled_site(7)
    patch = pytest.MonkeyPatch()
    patch.setattr(title_index, "TITLE_CHUNK", 3)  # one value's keys span chunks
    try:
        app = make_app(site, RESPONSE_CACHE=False)
    finally:
        patch.undo()
    return app, site


def _texts(site: dict[str, Any], field: str) -> list[tuple[int, str, str]]:
    return [
        (source["id"], locale, source[field])
        for node in site["nodes"]
        for locale, source in node["sources"].items()
        if source.get(field)
    ]


def _value(rng: random.Random, site: dict[str, Any]) -> str:
    kind = rng.random()
    if kind < 0.15:  # most likely absent
        return "".join(rng.choice("qxzwv") for _ in range(rng.randint(3, 6)))
    _, _, text = rng.choice(_texts(site, "title"))
    length = rng.choice((1, 2, 3, 3, 4, 6, TITLE_KEY + 4))
    start = rng.randrange(max(len(text) - length, 0) + 1)
    piece = text[start : start + length]
    if rng.random() < 0.5:  # its case changed: a case-insensitive match still finds it
        piece = "".join(c.swapcase() if rng.random() < 0.5 else c for c in piece)
    return piece


def _request(rng: random.Random, site: dict[str, Any]) -> tuple[str, dict[str, str]]:
    kind = rng.choice(("page", "page", "cursor", "archive"))
    field = rng.choice(("title", "title", "metaTitle", "metaDescription"))
    values = [_value(rng, site) for _ in range(rng.choice((1, 1, 2)))]
    params = [(field, values[0])] if len(values) == 1 else [(f"{field}[]", v) for v in values]
    if rng.random() < 0.2:
        params.append((rng.choice(("title", "metaTitle")), _value(rng, site)))
    if rng.random() < 0.5:
        params.append(("_locale", rng.choice(("en", "fr"))))
    if rng.random() < 0.3:
        params.append(("node.visible", "true"))
    if kind != "archive" and rng.random() < 0.6:
        params.append(rng.choice((("order[publishedAt]", "desc"), ("order[publishedAt]", "asc"),
                                  ("order[node.position]", "asc"))))  # fmt: skip
    if kind == "page":
        params += [("itemsPerPage", str(rng.choice((1, 3, 15)))), ("page", str(rng.randint(1, 3)))]
    elif kind == "cursor":
        params += [("cursor", ""), ("itemsPerPage", str(rng.choice((1, 2, 4))))]
    plural = rng.choice(("articles", "nodes_sources") if kind == "archive" else
                        ("articles", "nodes_sources", "pages"))  # fmt: skip
    path = f"/api/{plural}/archives" if kind == "archive" else f"/api/{plural}"
    headers = EDITOR if rng.random() < 0.25 else {}
    if headers:
        params.append(("_preview", "1"))
    return f"{path}?{urlencode(params)}", headers


def _walk(client, url: str, headers: dict[str, str]) -> list[Any]:
    """The bodies of a request, and of the pages its `hydra:next` links to (cursor walks)."""
    bodies: list[Any] = []
    while url and len(bodies) < 20:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, (url, response.json)
        bodies.append(response.json)
        url = response.json.get("hydra:view", {}).get("hydra:next") if "cursor=" in url else None
    return bodies


def test_partial_matches_answer_as_the_index_does(titled, monkeypatch, tier):
    app, site = titled
    client = app.test_client()
    rng = random.Random(70)
    restricted: list[int] = []
    restrict = titles.restrict

    def recording(query: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        restrict(query, *args, **kwargs)
        if "_id" in query:
            restricted.append(len(query["_id"]["$in"]))

    for _ in range(REQUESTS[tier]):
        url, headers = _request(rng, site)
        monkeypatch.setattr(titles, "restrict", recording)
        served = _walk(client, url, headers)
        monkeypatch.setattr(titles, "restrict", lambda *args, **kwargs: None)
        indexed = _walk(client, url, headers)
        assert served == indexed, url
    # nearly every request read its candidates (the rest: two values of more keys than a read
    # holds); some matched nothing, some many
    assert len(restricted) > REQUESTS[tier] * 0.8
    assert 0 in restricted and max(restricted) > 10


@pytest.fixture
def built_queries(monkeypatch) -> list[dict[str, Any]]:
    """The filters that the requests of a test build (sources.build_query), in order."""
    queries: list[dict[str, Any]] = []
    build_query = sources.build_query

    def recording(*args: Any) -> dict[str, Any]:
        queries.append(build_query(*args))
        return queries[-1]

    monkeypatch.setattr(sources, "build_query", recording)
    return queries


def test_the_candidates_are_the_sources_whose_text_holds_the_value(titled, built_queries):
    """Whatever the site's size, a partial match reads the sources whose field holds the value
    (cut to TITLE_KEY characters, caseless) in the request's translations, and no other."""
    app, site = titled
    client = app.test_client()
    for field, param in (("title", "title"), ("meta_description", "metaDescription")):
        for value in (
            "ß",
            "zz",
            "ΟΔ",
            "mar",
            "ARKET super",
            "ΟΔΟΣ",
            "kelvin",
            "Extraordinarily-long-hyph",
        ):
            built_queries.clear()
            response = client.get(f"/api/nodes_sources?_locale=fr&{param}={value}")
            assert response.status_code == 200
            key = caseless(value)[:TITLE_KEY]
            expected = sorted(
                source_id
                for source_id, locale, text in _texts(site, field)
                if locale == "fr" and key in caseless(text)
            )
            assert built_queries[0]["_id"] == {"$in": expected}, (field, value)
            assert response.json["hydra:totalItems"] <= len(expected)


def test_a_partial_match_costs_four_commands(titled):
    """The live pointer, the title keys (chunk 0 of its bucket, then the chunks holding the
    value: one read), the page and the count of the candidates; no candidate: no page, no
    count (query_plan.matches_nothing)."""
    app, _ = titled
    client, store = app.test_client(), app.extensions["cms.store"]
    client.get("/api/articles")  # the site model
    for url, expected in (
        ("/api/articles?_locale=en&title=qxz", 2),  # no such bucket: nothing to read further
        ("/api/articles?_locale=en&title=kelvinqxz", 3),  # chunks 0 then n, no candidate
        ("/api/articles/archives?_locale=en&title=qxz", 2),
        ("/api/articles?_locale=en&title=kelvin&order[publishedAt]=desc", 5),  # chunks 0 then n
        ("/api/articles/archives?_locale=en&title=kelvin", 4),  # the candidates' dates
    ):
        before = store.commands
        response = client.get(url)
        assert response.status_code == 200
        assert store.commands - before == expected, url


@pytest.mark.parametrize(
    ("params", "why"),
    [
        ("title=", "an empty value: every source holds it"),
        ("title=MARKET", "more candidates than TITLE_CANDIDATES_MAX"),
        ("title=e", "more keys beyond chunk 0 than TITLE_CANDIDATES_MAX"),
    ],
)
def test_values_the_keys_cannot_bound_go_to_the_index(
    titled, monkeypatch, built_queries, params, why
):
    app, _ = titled
    client = app.test_client()
    monkeypatch.setattr(titles, "TITLE_CANDIDATES_MAX", 2)
    served = client.get(f"/api/nodes_sources?{params}&itemsPerPage=50").json
    assert "_id" not in built_queries[0], why
    monkeypatch.setattr(titles, "restrict", lambda *args, **kwargs: None)
    assert client.get(f"/api/nodes_sources?{params}&itemsPerPage=50").json == served
    assert served["hydra:totalItems"] > 2


@pytest.mark.parametrize(
    ("params", "bounded"),
    [
        # an empty value: the other filter bounds the read alone
        ("title=&metaDescription=kelvin", True),
        ("metaTitle=&title=ΟΔΟΣ&_locale=fr", True),
        ("title=&metaTitle=", False),
        # values of one and two characters
        ("title=ma&metaTitle=k", True),
        # nodes named by id bound it better (a source per translation)
        ("node.id=5&title=kelvin", False),
        # more values x translations than TITLE_LOOKUPS_MAX (9 x 2)
        ("&".join(f"title[]=kelvin{n}" for n in range(9)), False),
        ("&".join(f"title[]=kelvin{n}" for n in range(8)), True),
    ],
)
def test_each_partial_filter_bounds_the_read_on_its_own(
    titled, monkeypatch, built_queries, params, bounded
):
    app, _ = titled
    client = app.test_client()
    served = client.get(f"/api/nodes_sources?{params}&itemsPerPage=50").json
    assert ("_id" in built_queries[0]) is bounded
    monkeypatch.setattr(titles, "restrict", lambda *args, **kwargs: None)
    assert client.get(f"/api/nodes_sources?{params}&itemsPerPage=50").json == served


def test_a_generation_without_title_keys_reads_the_index():
    query = {"locale": "en", "$and": [{"title": {"$regex": "market", "$options": "i"}}]}
    titles.restrict(query, None, chunk=None)  # type: ignore[arg-type]
    assert "_id" not in query


def test_keys_of_another_shape_are_not_read(make_app, built_queries):
    """A generation written with another bucket (keys by their first three characters, as
    before stop 36) is read from the index until it is loaded again."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(title_index, "TITLE_BUCKET", 3)
        app = make_app(titled_site(8))
    store = app.extensions["cms.store"]
    assert store.generation(store.live()["version"]).title_key_chunk() is None
    response = app.test_client().get("/api/nodes_sources?title=kelvin")
    assert response.status_code == 200 and response.json["hydra:totalItems"] > 0
    assert "_id" not in built_queries[0]


@pytest.mark.parametrize(
    ("starts", "rest", "chunks"),
    [
        (["a", "c", "e"], "c", [0, 1]),  # chunk 0 may end with keys equal to its successor's first
        (["a", "c", "e"], "d", [1]),
        (["a", "c", "c", "e"], "c", [0, 1, 2]),  # equal keys span chunks
        (["a", "cb", "cd", "e"], "c", [0, 1, 2]),
        (["b"], "a", []),  # every key comes after the value
        (["a", "b"], "z", [1]),
        (["", "x"], "", [0, 1]),  # a value of exactly a bucket: every chunk
    ],
)
def test_the_chunks_that_may_hold_a_value(starts, rest, chunks):
    assert titles._chunks_holding(starts, rest) == chunks


def test_caseless_keeps_every_character_a_case_insensitive_match_takes_for_another():
    """Python's `re` (IGNORECASE) takes two characters for one another when their lower cases
    (`_sre.unicode_tolower`) are equal, or when one's is among the other's extra cases
    (`re._casefix`): every such pair has one caseless form, one character long."""
    joined: dict[int, int] = {}  # a lower case -> one it is taken for (union-find)

    def root(lower: int) -> int:
        while joined.get(lower, lower) != lower:
            lower = joined[lower]
        return lower

    for lower, extra in _casefix._EXTRA_CASES.items():
        for other in extra:
            joined[root(other)] = root(lower)
    groups: dict[int, set[str]] = {}
    for point in range(sys.maxunicode + 1):
        if not 0xD800 <= point <= 0xDFFF:
            groups.setdefault(root(_sre.unicode_tolower(point)), set()).add(chr(point))
    for group in groups.values():
        forms = {caseless(char) for char in group}
        assert len(forms) == 1 and len(forms.pop()) == 1, sorted(group)
    assert caseless("\u212aelvin ſtraße ΟΔΟΣ İstanbul ı") == "kelvin straße οδοσ istanbul i"
