"""The official Roadiz JavaScript client works against the demo site.

`@roadiz/abstract-api-client` 3.1.4 and its dependencies, pinned exactly by
tests/roadiz_client/package-lock.json, are installed once with `npm ci` into a cache directory
outside the repository (keyed by the lockfile). The demo app is served on a loopback port by a
real HTTP server in a thread, and tests/roadiz_client/run.cjs calls the client's methods against
it in one Node process: `getWebResponseByPath` + `getAlternateLinks`, `fetchAllUrlsForLocale`,
`getNodesSources`, `getArchivesForType` and `searchNodesSourcesByPath`. Without Node or npm (or
with the npm registry out of reach) the tests skip with a message, except under CI=true.

What the client sends (read in node_modules/@roadiz/abstract-api-client/dist/RoadizApi.js): every
request is a GET under the base URL (`…/api`) with `Accept: application/ld+json`, parameters
serialised by qs with indices (`properties[0]=url`, `order[publishedAt]=DESC`);
`fetchAllUrlsForLocale(locale)` pages through `/nodes_sources?node.nodeType.reachable=true&
noIndex=false&properties[0]=url&page=N&_locale=<locale>` while `hydra:view` has `hydra:next`;
`getAlternateLinks` keeps the Link entries with `type="text/html"` and reads, by position, the
url, `hreflang` (3rd) and the Base64 `title` (4th); `getArchivesForType(type)` asks
`/<type>/archives`; `searchNodesSourcesByPath` asks `/nodes_sources/search`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.helpers import get_path

CLIENT_DIR = Path(__file__).parent / "roadiz_client"
PINS = ("package.json", "package-lock.json")
SCRIPT = CLIENT_DIR / "run.cjs"
CLIENT_PACKAGE = "@roadiz/abstract-api-client"
NPM_TIMEOUT = 300  # seconds: a cold install downloads 26 small packages
NODE_TIMEOUT = 120

# The demo site's published pages of reachable types, per available locale. Not in them: the
# Members page (a deny realm), draft-* (draft), future-* (published in 2099), de (unavailable).
# The invisible hidden-article is in: Roadiz's crawl does not filter on node.visible.
ARTICLES_2024 = (
    "first-article", "spring-market", "jazz-night", "new-library-hours", "summer-festival",
    "volunteer-stories", "harvest-fair", "winter-concert", "hidden-article",
)  # fmt: skip
ARTICLES_OLDER = (
    "river-cleanup", "jazz-quartet", "market-hall", "library-garden", "jazz-festival-2023",
    "winter-market-2023",
)  # fmt: skip
SITE_URLS = {
    "en": [
        "/", "/about", "/services", "/team", "/blog", "/premium", "/legal", "/archive",
        "/blog/english-only-note",
        *(f"/blog/{name}" for name in ARTICLES_2024),
        *(f"/archive/{name}" for name in ARTICLES_OLDER),
    ],
    "fr": [
        "/fr", "/a-propos", "/fr/services", "/fr/team", "/fr/blog", "/fr/premium", "/fr/legal",
        "/fr/archive",
        *(f"/fr/blog/{name}" for name in ARTICLES_2024),
        *(f"/fr/archive/{name}" for name in ARTICLES_OLDER),
    ],
}  # fmt: skip
ENGLISH = {"locale": "en", "title": "English"}
FRENCH = {"locale": "fr", "title": "Français"}

# Every call the Node script makes, by name; each test reads the results of its own.
CALLS: list[dict[str, Any]] = [
    {"name": "home", "method": "getWebResponseByPath", "args": ["/"], "alternates": True},
    {"name": "about_fr", "method": "getWebResponseByPath", "args": [{"path": "/a-propos"}],
     "alternates": True},
    {"name": "english_only", "method": "getWebResponseByPath",
     "args": ["/blog/english-only-note"], "alternates": True},
    {"name": "crawl_en", "method": "fetchAllUrlsForLocale", "args": ["en"]},
    {"name": "crawl_fr", "method": "fetchAllUrlsForLocale", "args": ["fr"]},
    {"name": "tagged", "method": "getNodesSources", "args": [{
        "_locale": "en", "node.nodesTags.tag.tagName": ["jazz"], "order": {"publishedAt": "DESC"},
        "properties": ["title", "url"]}]},
    {"name": "tagged_any_of", "method": "getNodesSources", "args": [{
        "node.nodeTypeName": "Article", "node.nodesTags.tag.tagName": ["culture", "featured"],
        "order[publishedAt]": "desc", "_locale": "en", "itemsPerPage": 3}]},
    {"name": "children_page_2", "method": "getNodesSources", "args": [{
        "_locale": "fr", "node.parent": "/api/nodes/60", "order": {"publishedAt": "ASC"},
        "itemsPerPage": 2, "page": 2}]},
    {"name": "recent_visible_articles", "method": "getNodesSources", "args": [{
        "_locale": "en", "node.nodeType.name": "Article", "node.visible": True,
        "publishedAt": {"after": "2024-10-01"}, "properties": ["title"]}]},
    {"name": "not_articles", "method": "getNodesSources", "args": [{
        "_locale": "en", "node.nodeType.reachable": True,
        "not": {"node.nodeType.name": ["Article"]}, "properties": ["url"]}]},
    {"name": "archives_en", "method": "getArchivesForType",
     "args": ["articles", {"_locale": "en"}]},
    {"name": "archives_fr", "method": "getArchivesForType",
     "args": ["articles", {"_locale": "fr"}]},
    {"name": "archives_fr_blog", "method": "getArchivesForType",
     "args": ["articles", {"_locale": "fr", "node.parent": 17}]},
    {"name": "search_en", "method": "searchNodesSourcesByPath",
     "args": [{"search": "quartet", "_locale": "en"}]},
    {"name": "search_fr", "method": "searchNodesSourcesByPath",
     "args": [{"search": "quartet", "_locale": "fr"}]},
    {"name": "search_ranked", "method": "searchNodesSourcesByPath",
     "args": [{"search": "jazz", "_locale": "en"}]},
]  # fmt: skip


def _unavailable(message: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (required under CI=true)")
    pytest.skip(message)


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cms-roadiz-client"


def _pins_key() -> str:
    digest = hashlib.sha256()
    for name in PINS:
        digest.update((CLIENT_DIR / name).read_bytes())
    return digest.hexdigest()[:16]


def _install(npm: str, target: Path) -> None:
    """`npm ci` of the pinned lockfile into `target`, atomically (a rename once complete)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="install-", dir=target.parent))
    try:
        for name in PINS:
            shutil.copyfile(CLIENT_DIR / name, work / name)
        command = [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error",
                   "--fetch-retries=1", "--fetch-retry-maxtimeout=10000"]  # fmt: skip
        try:
            result = subprocess.run(command, cwd=work, capture_output=True, text=True,
                                    timeout=NPM_TIMEOUT, check=False)  # fmt: skip
        except subprocess.TimeoutExpired:
            _unavailable(f"npm ci of {CLIENT_PACKAGE} took over {NPM_TIMEOUT} s")
        if result.returncode != 0:
            first = " / ".join(result.stderr.strip().splitlines()[:4])
            _unavailable(f"npm ci of {CLIENT_PACKAGE} failed (registry out of reach?): {first}")
        (work / ".installed").write_text(_pins_key(), encoding="utf-8")
        if target.exists():  # an incomplete earlier install
            shutil.rmtree(target)
        try:
            work.rename(target)
        except OSError:  # another session finished first: use its copy
            if not (target / ".installed").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="session")
def node_client() -> tuple[str, Path]:
    """(node binary, node_modules holding the pinned client), installed once per pinned set."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        _unavailable("no node/npm on PATH: the Roadiz JavaScript client test is not run")
    target = _cache_root() / _pins_key()
    if not (target / ".installed").is_file():
        _install(npm, target)
    return node, target / "node_modules"


@pytest.fixture(scope="module")
def base_url(app):
    """The demo app on a free loopback port, in a background thread."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/api"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture(scope="module")
def results(node_client, base_url) -> dict[str, dict[str, Any]]:
    node, modules = node_client
    env = {**os.environ, "NODE_PATH": str(modules)}
    command = [node, str(SCRIPT), base_url, json.dumps(CALLS)]
    run = subprocess.run(command, capture_output=True, text=True, env=env,
                         timeout=NODE_TIMEOUT, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def ok(results: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """The result of a call that must have succeeded (else the error the client got)."""
    result = results[name]
    assert "error" not in result, json.dumps(result)[:3000]
    return result


def members(result: dict[str, Any]) -> list[dict[str, Any]]:
    return result["data"]["hydra:member"]


def test_the_installed_client_is_the_pinned_one(node_client):
    _, modules = node_client
    lock = json.loads((CLIENT_DIR / "package-lock.json").read_text(encoding="utf-8"))
    locked = {path: entry["version"] for path, entry in lock["packages"].items() if path}
    assert locked[f"node_modules/{CLIENT_PACKAGE}"] == "3.1.4"
    for path, version in locked.items():
        installed = json.loads((modules.parent / path / "package.json").read_text("utf-8"))
        assert installed["version"] == version, path


def test_get_web_response_by_path(results):
    home = ok(results, "home")
    assert home["requests"] == ["/api/web_response_by_path?path=%2F"]
    assert home["status"] == 200
    assert home["contentType"].split(";")[0] == "application/ld+json"
    assert home["data"]["@type"] == "WebResponse"
    item = home["data"]["item"]
    assert (item["@id"], item["@type"], item["title"], item["url"]) == (
        "/api/pages/101", "Page", "Home", "/"
    )  # fmt: skip
    about = ok(results, "about_fr")
    assert about["requests"] == ["/api/web_response_by_path?path=%2Fa-propos"]
    assert (about["data"]["item"]["title"], about["data"]["item"]["url"]) == (
        "À propos",
        "/a-propos",
    )


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("home", [{"url": "/", **ENGLISH}, {"url": "/fr", **FRENCH}]),
        ("about_fr", [{"url": "/about", **ENGLISH}, {"url": "/a-propos", **FRENCH}]),
        ("english_only", [{"url": "/blog/english-only-note", **ENGLISH}]),
    ],
)
def test_get_alternate_links(results, name, expected):
    """Every available translation of the page, its own included (not de: unavailable), with
    the translation's name decoded from Base64 by the client."""
    alternates = ok(results, name)["alternates"]
    assert sorted(alternates, key=lambda link: link["locale"]) == expected


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_fetch_all_urls_for_locale_is_the_site_map(results, client, locale):
    crawl = ok(results, f"crawl_{locale}")
    urls = crawl["data"]
    assert len(urls) == len(set(urls)), urls
    assert sorted(urls) == sorted(SITE_URLS[locale])
    # 15 per page (the default itemsPerPage): two pages, the second without hydra:next.
    query = "node.nodeType.reachable=true&noIndex=false&properties%5B0%5D=url"
    assert crawl["requests"] == [
        f"/api/nodes_sources?{query}&page={page}&_locale={locale}" for page in (1, 2)
    ]
    for url in urls:  # each is a page of that locale the site serves
        response = get_path(client, url)
        assert response.status_code == 200, url
        assert response.json["item"]["url"] == url


def test_get_nodes_sources_by_tag_name_newest_first_sparse(results):
    tagged = ok(results, "tagged")
    assert tagged["requests"] == [
        "/api/nodes_sources?_locale=en&node.nodesTags.tag.tagName%5B0%5D=jazz"
        "&order%5BpublishedAt%5D=DESC&properties%5B0%5D=title&properties%5B1%5D=url"
    ]
    assert tagged["data"]["hydra:totalItems"] == 2
    assert members(tagged) == [
        {"@id": "/api/articles/6501", "@type": "Article", "title": "Jazz festival: the programme",
         "url": "/archive/jazz-festival-2023"},
        {"@id": "/api/articles/6201", "@type": "Article", "title": "A jazz quartet on the square",
         "url": "/archive/jazz-quartet"},
    ]  # fmt: skip


def test_get_nodes_sources_any_of_two_tags_first_page(results):
    """Articles tagged culture or featured (8), newest first; a flat `order[publishedAt]` key."""
    tagged = ok(results, "tagged_any_of")
    assert tagged["data"]["hydra:totalItems"] == 8
    assert [m["@id"] for m in members(tagged)] == [
        "/api/articles/3001",
        "/api/articles/2701",
        "/api/articles/2501",
    ]
    assert tagged["data"]["hydra:view"]["hydra:next"].endswith("&page=2")


def test_get_nodes_sources_children_second_page(results):
    page = ok(results, "children_page_2")
    assert page["data"]["hydra:totalItems"] == 6
    assert [m["title"] for m in members(page)] == [
        "La halle du marché rouvre",
        "Un jardin derrière la bibliothèque",
    ]
    assert [m["url"] for m in members(page)] == [
        "/fr/archive/market-hall",
        "/fr/archive/library-garden",
    ]
    view = page["data"]["hydra:view"]
    assert "page=1" in view["hydra:previous"] and "page=3" in view["hydra:next"]


def test_get_nodes_sources_type_visibility_and_date(results):
    """`node.nodeType.name` (the client's spelling), `node.visible` and `publishedAt[after]`:
    the hidden article and the 2099 one are left out."""
    recent = ok(results, "recent_visible_articles")
    assert [m["title"] for m in members(recent)] == ["A note for English readers", "Winter concert"]
    assert recent["data"]["hydra:totalItems"] == 2


def test_get_nodes_sources_not_type_name(results):
    pages = ok(results, "not_articles")
    assert sorted(m["url"] for m in members(pages)) == sorted(
        ["/", "/about", "/services", "/team", "/blog", "/premium", "/legal", "/archive"]
    )


def archive_months(result: dict[str, Any]) -> dict[int, list[str]]:
    return {archive["year"]: list(archive["months"]) for archive in members(result)}


def test_get_archives_for_type(results):
    archives = ok(results, "archives_en")
    assert archives["requests"] == ["/api/articles/archives?_locale=en"]
    assert [archive["year"] for archive in members(archives)] == [2024, 2023, 2022]
    assert archive_months(archives) == {
        2024: ["2024-12", "2024-11", "2024-10", "2024-09", "2024-07", "2024-06", "2024-05",
               "2024-04", "2024-03", "2024-01"],
        2023: ["2023-12", "2023-07", "2023-03"],
        2022: ["2022-11", "2022-07", "2022-04"],
    }  # fmt: skip
    first = members(archives)[0]
    assert first["@type"] == "Archive"
    assert first["months"]["2024-12"] == "2024-12-01T00:00:00+00:00"


def test_get_archives_for_type_in_french(results):
    """No 2024-10: its only article is English only."""
    archives = ok(results, "archives_fr")
    assert {year: len(months) for year, months in archive_months(archives).items()} == {
        2024: 9,
        2023: 3,
        2022: 3,
    }
    assert "2024-10" not in archive_months(archives)[2024]


def test_get_archives_for_type_with_filters(results):
    """French blog articles only: no 2022-2023 (the news archive) and no 2024-10 (English only)."""
    archives = ok(results, "archives_fr_blog")
    assert archives["requests"] == ["/api/articles/archives?_locale=fr&node.parent=17"]
    assert archive_months(archives) == {
        2024: ["2024-12", "2024-11", "2024-09", "2024-07", "2024-06", "2024-05", "2024-04",
               "2024-03", "2024-01"],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("locale", "title", "url", "highlighted"),
    [
        ("en", "A jazz quartet on the square", "/archive/jazz-quartet",
         'A jazz <span class="solr-highlight">quartet</span> on the square'),
        ("fr", "Un quartet de jazz sur la place", "/fr/archive/jazz-quartet",
         'Un <span class="solr-highlight">quartet</span> de jazz sur la place'),
    ],
)  # fmt: skip
def test_search_nodes_sources_by_path(results, locale, title, url, highlighted):
    search = ok(results, f"search_{locale}")
    assert search["requests"] == [f"/api/nodes_sources/search?search=quartet&_locale={locale}"]
    assert search["data"]["hydra:totalItems"] == 1
    (hit,) = members(search)
    assert hit["@type"] == "SearchResultItem"
    assert (hit["item"]["title"], hit["item"]["url"]) == (title, url)
    assert hit["highlighting"][f"title_txt_{locale}"] == [highlighted]


def test_search_nodes_sources_by_path_ranks_and_highlights(results):
    """Three hits for "jazz", one matched word each: newest first (2024, 2023, 2022)."""
    search = ok(results, "search_ranked")
    assert search["data"]["hydra:totalItems"] == 3
    assert [hit["item"]["@id"] for hit in members(search)] == [
        "/api/articles/2101",
        "/api/articles/6501",
        "/api/articles/6201",
    ]
    assert members(search)[0]["highlighting"]["title_txt_en"] == [
        '<span class="solr-highlight">Jazz</span> night at the old mill'
    ]
