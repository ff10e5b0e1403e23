"""Plain requests, answered from the materialised calendars and listings, answer as the index does:
a differential test over random sites and random requests, with fixed seeds.

Each site is the generated site or the demo, with dates moved onto a small pool (ties, dates ahead
of now, undated sources, dates finer than the millisecond), statuses, visibility, tags and positions
shuffled (on the demo, two nodes carry four and five tags: it lists combinations of up to five),
small listing chunks and small listed parents. Each request (a page by number, a cursor walk or an
archive; a tag, a tag left out, two tags (any of them, both, both left out, one but not
the other), three tags (any of them, all three, any of two and a third, two and a third left out,
one and two left out, three left out), four tags or more (any of them, none of them, two groups, any
of three and one left out, one and three left out), a listed parent, a translation, the nodes'
visibility, the sources' noIndex (a `no_index` field on every node type, true on some sources),
the home node or a few nodes left out, a span of dates, a range of positions, one order key or
two; anonymous,
with a realm password or an editor in preview) is answered at a few moments of now twice: as served,
and with every plain path turned off (`listings.serves`, and `site_scope` in sources and archives),
which reads the index. A fuzzer of this shape found listings ordered on finer digits than the stored
dates.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import pytest

from app.auth import mint_token
from app.fixture import listings as materialised
from app.listing import archives, sources
from seed.generate import generate
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import freeze_request_clock, on_the_index

# (base, seed): the free demo tags most nodes with three to five tags (it lists pairs only and
# counts up to five together: app.fixture.listings.counted_combinations)
SITES = [("generated", 11), ("generated", 12), ("demo", 13), ("free-demo", 14)]
# the first moment the requests are answered at, with dates around it (not the clock: the same
# sites and requests every day)
ANCHOR = datetime(2025, 6, 1, 12, tzinfo=UTC)
# requests at each of 3 moments: fewer on the real server, where each costs tens of commands
REQUESTS_PER_MOMENT = {"mongomock": 30, "ferretdb": 5}
MOST_PAGES_WALKED = 25
PASSWORD = {"Authorization": "PasswordQuery letmein"}  # the demo's deny realm
EDITOR = {
    "Authorization": "Bearer "
    + mint_token(JWT_SECRET, "eve", ["ROLE_BACKEND_USER"], timedelta(days=1))  # the real clock
}


def _dates(site: dict[str, Any]) -> list[datetime]:
    return sorted(
        {
            datetime.fromisoformat(source["published_at"])
            for node in site["nodes"]
            for source in node["sources"].values()
            if source.get("published_at")
        }
    )


def shuffled(site: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The site with dates on a pool of 20 (the site's own, some around ANCHOR, one far ahead:
    ties; some undated; some finer than the millisecond), some statuses, visibilities, tags and
    positions changed."""
    pool = rng.sample(_dates(site), 12) + [
        ANCHOR + timedelta(days=rng.randint(-30, 30)) for _ in range(7)
    ]
    pool.append(datetime(2099, 1, 1, tzinfo=UTC))
    tag_ids = [tag["id"] for tag in site["tags"]]
    for node in site["nodes"]:
        home = node.get("home")
        for source in node["sources"].values():
            moment = rng.choice(pool) + timedelta(microseconds=rng.choice((0, 0, 0, 500, 999)))
            undated = not home and rng.random() < 0.04
            source["published_at"] = None if undated else moment.isoformat()
        if not home and rng.random() < 0.08:
            node["status"] = rng.choice(("draft", "pending", "archived"))
        if not home and rng.random() < 0.1:
            node["visible"] = not node.get("visible", True)
        if rng.random() < 0.3:
            node["tags"] = sorted(rng.sample(tag_ids, rng.randint(0, 3)))
        if rng.random() < 0.3:
            node["position"] = rng.randint(0, 6)
    return site


@pytest.fixture(scope="module", params=SITES, ids=lambda s: f"{s[0]}-{s[1]}")
def random_site(request, make_app):
    base, seed = request.param
    rng = random.Random(seed)
    generated = base == "generated"
    site = generate(200, blocks=8, depth=2, menu=8, seed=seed) if generated else demo_site()
    site = shuffled(site, rng)
    if base == "demo":  # two nodes of four and five tags: the site lists up to five together
        _many_tags(site, random.Random(seed * 1000))
    if base == "free-demo":
        _tagged_freely(site, random.Random(seed * 1000))
    _not_indexed(site, random.Random(seed * 77))
    patch = pytest.MonkeyPatch()
    chunk = rng.randint(2, 5)
    patch.setattr(materialised, "LISTING_CHUNK", chunk)
    patch.setattr(materialised, "LISTING_HEAD", rng.randint(1, chunk + 1))  # shorter or longer
    patch.setattr(materialised, "PARENT_LISTED", 4)
    try:
        app = make_app(site, RESPONSE_CACHE=False)
    finally:
        patch.undo()
    store = app.extensions["cms.store"]
    with app.app_context():
        generation = store.generation(store.live()["version"])
        parents = sorted(generation.listed_parents())
        if base == "demo":
            assert generation.tag_combinations()[:3] == (5, 5, 5)
        if base == "free-demo":
            assert generation.tag_combinations()[:3] == (2, 5, 5)
    return app, site, parents, rng, base


def _many_tags(site: dict[str, Any], rng: random.Random) -> None:
    """Two tagged nodes (not the home) carry four and five tags (their sources carry 28 triples,
    12 quadruples and two sets of five: fewer than the demo's sources, so the loader lists them:
    app.fixture.listings.tag_combinations)."""
    tag_ids = [tag["id"] for tag in site["tags"]]
    nodes = [n for n in site["nodes"] if not n.get("home") and len(n["sources"]) == 2]
    for node, count in zip(rng.sample(nodes, 2), (4, 5), strict=True):
        node["tags"] = sorted(rng.sample(tag_ids, count))


def _not_indexed(site: dict[str, Any], rng: random.Random) -> None:
    """Every node type has a `no_index` field (the sources' noIndex), true on about one source
    in six."""
    for node_type in site["node_types"]:
        node_type.setdefault("fields", []).append({"name": "no_index", "type": "boolean"})
    for node in site["nodes"]:
        for source in node["sources"].values():
            if rng.random() < 1 / 6:
                source.setdefault("fields", {})["no_index"] = True


def _tagged_freely(site: dict[str, Any], rng: random.Random) -> None:
    """Every node but the home carries three to five tags, one at least five: their sources
    carry more triples than the site has sources, fewer than TAG_COUNTED_PER_SOURCE each."""
    tag_ids = [tag["id"] for tag in site["tags"]]
    nodes = [n for n in site["nodes"] if not n.get("home")]
    for number, node in enumerate(nodes):
        node["tags"] = sorted(rng.sample(tag_ids, 5 if number == 0 else rng.randint(3, 5)))


def random_request(rng: random.Random, site: dict[str, Any], parents: list[int]):
    """(url, headers, kind): kind is page, cursor or archive."""
    kind = rng.choice(("page", "page", "cursor", "archive"))
    params: list[tuple[str, str]] = []
    slugs = [tag["slug"] for tag in site["tags"]]
    if parents and rng.random() < 0.5:
        params.append(("node.parent", str(rng.choice(parents))))
    shape = rng.choice(("tag", "tag id", "left out", "none", "any of two", "both", "groups",
                        "two left out", "one but another", "any of three", "all three",
                        "any of two and a third", "three, one left out",
                        "one, two left out", "three left out", "general"))  # fmt: skip
    # two tags: any two, or two that a node carries (both of two random tags is often nothing)
    slug_of = {tag["id"]: tag["slug"] for tag in site["tags"]}
    carried = [n["tags"] for n in site["nodes"] if len(set(n.get("tags") or [])) > 1]
    two = rng.sample(slugs, 2)
    if carried and rng.random() < 0.7:
        two = [slug_of[tag] for tag in rng.sample(sorted(set(rng.choice(carried))), 2)]
    triples = [n["tags"] for n in site["nodes"] if len(set(n.get("tags") or [])) > 2]
    three = rng.sample(slugs, 3)
    if triples and rng.random() < 0.7:
        three = [slug_of[tag] for tag in rng.sample(sorted(set(rng.choice(triples))), 3)]
    if shape == "general":  # four tags or more (tag_conditions.tag_sets): any of, none of, groups
        many = rng.sample(slugs, min(len(slugs), rng.choice((4, 5, 6))))
        form = rng.choice(("any of", "none of", "groups", "any of three and one left out",
                           "one and three left out"))  # fmt: skip
        if form == "any of":
            params += [("node.nodesTags.tag.tagName[]", slug) for slug in many]
        elif form == "none of":
            params += [("not[node.nodesTags.tag.tagName][]", slug) for slug in many]
        elif form == "groups":
            params += [("tagGroup[]", ",".join(many[:2])), ("tagGroup[]", ",".join(many[2:]))]
        elif form == "any of three and one left out":
            params += [("tagGroup[]", ",".join(many[:3])),
                       ("not[node.nodesTags.tag.tagName]", many[3])]  # fmt: skip
        else:
            params.append(("node.nodesTags.tag.tagName", many[0]))
            params += [("not[node.nodesTags.tag.tagName][]", slug) for slug in many[1:4]]
    elif shape == "any of three":  # a list, or one `tagGroup[]`
        params += (
            [("node.nodesTags.tag.tagName[]", slug) for slug in three]
            if rng.random() < 0.5
            else [("tagGroup[]", ",".join(three))]
        )
    elif shape == "all three":  # `intersect[]`, or a `tagGroup[]` each
        params += (
            [("intersect[node.nodesTags.tag.tagName][]", slug) for slug in three]
            if rng.random() < 0.5
            else [("tagGroup[]", slug) for slug in three]
        )
    elif shape == "any of two and a third":  # `tagGroup[]=a,b&tagGroup[]=c`, or a list and one
        params += (
            [("tagGroup[]", ",".join(three[:2])), ("tagGroup[]", three[2])]
            if rng.random() < 0.5
            else [*(("node.nodesTags.tag.tagName[]", slug) for slug in three[:2]),
                  ("intersect[node.nodesTags.tag.tagName][]", three[2])]
        )  # fmt: skip
    elif shape == "three, one left out":  # any of two or both, and a third left out
        key = rng.choice(
            ("node.nodesTags.tag.tagName[]", "intersect[node.nodesTags.tag.tagName][]")
        )
        params += [(key, slug) for slug in three[:2]]
        params.append(("not[node.nodesTags.tag.tagName]", three[2]))
    elif shape == "one, two left out":
        params.append(("node.nodesTags.tag.tagName", three[0]))
        params += [("not[node.nodesTags.tag.tagName][]", slug) for slug in three[1:]]
    elif shape == "three left out":
        params += [("not[node.nodesTags.tag.tagName][]", slug) for slug in three]
    elif shape == "any of two":
        params += [("node.nodesTags.tag.tagName[]", slug) for slug in two]
    elif shape == "both":
        params += [("intersect[node.nodesTags.tag.tagName][]", slug) for slug in two]
    elif shape == "groups":  # any of two, or both
        params += (
            [("tagGroup[]", ",".join(two))]
            if rng.random() < 0.5
            else [("tagGroup[]", slug) for slug in two]
        )
    elif shape == "two left out":
        params += [("not[node.nodesTags.tag.tagName][]", slug) for slug in two]
    elif shape == "one but another":
        params += [("node.nodesTags.tag.tagName", two[0]),
                   ("not[node.nodesTags.tag.tagName]", two[1])]  # fmt: skip
    elif shape == "tag":
        params.append(("node.nodesTags.tag.tagName", rng.choice(slugs)))
    elif shape == "tag id":
        params.append(("node.nodesTags.tag", f"/api/tags/{rng.choice(site['tags'])['id']}"))
    elif shape == "left out":
        params.append(("not[node.nodesTags.tag.tagName]", rng.choice(slugs)))
    if rng.random() < 0.5:
        params.append(("_locale", rng.choice(("en", "fr"))))
    if rng.random() < 0.2:
        params.append(("node.visible", rng.choice(("true", "false"))))
    if rng.random() < 0.2:
        params.append(("noIndex", rng.choice(("true", "false", "1", "0"))))
    if rng.random() < 0.25:
        params.append(("node.home", "false"))
    if rng.random() < 0.25:  # nodes left out by id (the home among them, at times; no such node;
        # many: more than a page, or a listing's head, holds)
        ids = [n["id"] for n in site["nodes"] if n.get("home") or rng.random() < 0.3] + [99999]
        count = rng.choice((1, 2, 3, 40, 100))
        params += [("not[node.id][]", str(i)) for i in rng.sample(ids, min(len(ids), count))]
    order = None if kind == "archive" else rng.choice((None, "publishedAt", "node.position"))
    if order is not None:
        params.append((f"order[{order}]", rng.choice(("asc", "desc"))))
    if order is not None and kind == "page" and rng.random() < 0.25:  # the other key second
        other = "node.position" if order == "publishedAt" else "publishedAt"
        params.append((f"order[{other}]", rng.choice(("asc", "desc"))))
    if kind != "archive" and rng.random() < 0.4:  # a span of dates (one bound or two), any order
        for _ in range(rng.choice((1, 1, 2))):
            moment = rng.choice(_dates(site)) + timedelta(microseconds=rng.choice((0, -500, 500)))
            bound = rng.choice(("after", "before", "strictly_after", "strictly_before"))
            params.append((f"publishedAt[{bound}]", moment.isoformat()))
    if kind != "archive" and rng.random() < 0.35:  # a range of positions, any order
        params += _position_range(rng, site)
    size = rng.choice((1, 2, 3, 5, 10, 30))
    if kind == "page":
        pages = (1, 2, 3, 7) if size > 2 else (1, 2, 3, 7, 12)  # deep: past the chunks it passes
        params += [("itemsPerPage", str(size)), ("page", str(rng.choice(pages)))]
    elif kind == "cursor":
        params += [("itemsPerPage", str(max(size, 2))), ("cursor", "")]
    headers = rng.choice(({}, {}, PASSWORD, EDITOR))
    if headers is EDITOR:
        params.append(("_preview", "1"))
    plural = rng.choice(("articles", "nodes_sources"))
    path = f"/api/{plural}/archives" if kind == "archive" else f"/api/{plural}"
    return f"{path}?{urlencode(params)}", headers, kind


def _position_range(rng: random.Random, site: dict[str, Any]) -> list[tuple[str, str]]:
    """`node.position=n`, `[between]=a..b` (at times empty: a > b), one or two of
    `[gt|gte|lt|lte]`, or any of three (`node.position[]`, instead of a third of the single
    ones), around the site's positions."""
    positions = [node.get("position", 0) for node in site["nodes"]]
    low, high = min(positions) - 1, max(positions) + 1

    def value() -> int:
        return rng.choice((rng.randint(low, high), rng.choice(positions)))

    form = rng.choice(("equals", "between", "bounds", "bounds"))
    if form == "equals":  # one position, or (a third of them) any of three around it
        found = value()
        if found % 3 == 0:  # with no draw more: the same requests as before on every other shape
            return [("node.position[]", str(p)) for p in (found, found + 1, found + 3)]
        return [("node.position", str(found))]
    if form == "between":
        return [("node.position[between]", f"{value()}..{value()}")]
    operators = rng.sample(("gt", "gte", "lt", "lte"), rng.choice((1, 2)))
    return [(f"node.position[{op}]", str(value())) for op in operators]


def answer(client, url: str, headers: dict[str, str], kind: str) -> list[Any]:
    """The answer's status and body; for a cursor walk, every page's, following hydra:next."""
    answers, next_url = [], url
    while next_url and len(answers) < MOST_PAGES_WALKED:
        response = client.get(next_url, headers=headers)
        answers.append((response.status_code, response.json))
        view = (response.json or {}).get("hydra:view", {}) if response.status_code == 200 else {}
        next_url = view.get("hydra:next") if kind == "cursor" else None
    return answers


def counting_plain(monkeypatch: pytest.MonkeyPatch, plain: list[Any]) -> None:
    """Record the plain scopes (None: not plain) of the served answers."""
    for module in (sources, archives):

        def counted(*args, _found=module.site_scope, **kwargs):
            scope = _found(*args, **kwargs)
            plain.append(scope)
            return scope

        monkeypatch.setattr(module, "site_scope", counted)


@pytest.mark.ferretdb_rows(random_site=[0, 2, 3])  # one generated site (the other's: 360 s)
def test_plain_requests_answer_as_the_index(random_site, tier):
    app, site, parents, rng, base = random_site
    client = app.test_client()
    dates = _dates(site)
    moments = [ANCHOR, *(rng.choice(dates) + timedelta(seconds=1) for _ in range(2))]
    listed, plain = 0, []
    for moment in moments:
        for _ in range(REQUESTS_PER_MOMENT[tier]):
            url, headers, kind = random_request(rng, site, parents)
            with pytest.MonkeyPatch.context() as patch:
                freeze_request_clock(patch, moment)
                counting_plain(patch, plain)
                served = answer(client, url, headers, kind)
            with pytest.MonkeyPatch.context() as patch:
                freeze_request_clock(patch, moment)
                on_the_index(patch)
                assert answer(client, url, headers, kind) == served, (moment, url, headers)
            assert all(status in (200, 400) for status, _ in served), url
            listed += any(body.get("hydra:member") for status, body in served if status == 200)
    # many requests list something (the demo, shuffled and filtered at random, often lists
    # nothing), and most take a plain path; on FerretDB's 15 a site's draws still count some
    # range of positions from the tallies (4 a moment drew none on the freely tagged demo)
    requests = len(moments) * REQUESTS_PER_MOMENT[tier]
    assert listed > requests / 5
    assert sum(scope is not None for scope in plain) > requests / 2
    # some count a range of positions from the tallies (app/listing/totals.py); on mongomock's
    # more requests, some of them less sources left out by id, and some within a span of dates
    ranged = [
        scope
        for scope in plain
        if scope and (scope.spans or (scope.span and scope.span.order == "position"))
    ]
    assert ranged and (tier != "mongomock" or any(scope.left for scope in ranged))
    assert tier != "mongomock" or any(scope.dates for scope in ranged)  # totals.rectangle_total
    if base == "free-demo":  # some counted by groups that have a calendar and no listing
        assert any(not all(map(scope.has_listings, scope.groups)) for scope in plain if scope)
