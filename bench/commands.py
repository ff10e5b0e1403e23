"""Database commands per request, counted in-process with the store's own counter."""

from __future__ import annotations

from typing import Any

from bench.app import create_app
from bench.queries import QueryRecorder, timings

# The Roadiz read surface (issue 14): a filtered collection page, an archive, a search and a
# partial match.
READ_SURFACE = {
    "collection": "/api/articles?node.nodesTags.tag.tagName=news&order[publishedAt]=desc"
    "&itemsPerPage=15&page=2",
    "archives": "/api/articles/archives?_locale=en",
    "search": "/api/search?search=river+bridge&_locale=en",
    # a partial match: the same few titles at every size (the deep page's), among them all
    "title": "/api/nodes_sources?title=deep+page&_locale=en&order[publishedAt]=desc",
    # a range of positions within a span of dates (the grids: app/listing/totals.py)
    "positions_in_span": "/api/articles?_locale=en&node.position[gt]=50"
    "&publishedAt[after]=2022-01-01&order[node.position]=asc&itemsPerPage=15&page=2",
}


def tree_depth(walkers: list[dict[str, Any]]) -> int:
    """Levels of a walker tree below its root (0 when it has no children)."""
    return 1 + max(tree_depth(w.get("children") or []) for w in walkers) if walkers else 0


def count(
    uri: str, db: str, paths: dict[str, str], warm_up: str, cache: bool, samples: int = 0
) -> dict[str, dict[str, Any]]:
    """Per endpoint: database commands of one request, the depth of its tree and its body size.

    One request to `warm_up` first builds the site model (once per generation); with the
    response cache on, each endpoint is requested twice and the second (a hit) is counted.
    As in production, the live pointer is read at most once per SITE_VERSION_TTL per process,
    not per request: the TTL here is long enough that no counted request reads it.
    With `samples`, each endpoint is requested that many times more, and its queries get their
    median server time (`queries`, bench/queries.py). The count is of commands, not of time:
    no time budget (QUERY_TIMEOUT_MS) cuts a request short on a slow engine, whose load
    measures the served app with it (bench/run.py)."""
    recorder = QueryRecorder()
    config = {
        "MONGODB_URI": uri,
        "MONGODB_DB": db,
        "QUERY_TIMEOUT_MS": 0,
        "MONGODB_TIMEOUT_MS": 30000,
        "SITE_VERSION_TTL": 300,
        "RESPONSE_CACHE": cache,
        "MONGODB_EVENT_LISTENERS": [recorder],
    }
    app = create_app(config)
    client = app.test_client()
    store = app.extensions["cms.store"]
    targets = {name: f"/api/web_response_by_path?path={path}" for name, path in paths.items()}
    targets["common_content"] = "/api/common_content"
    targets.update(READ_SURFACE)
    out: dict[str, dict[str, Any]] = {}
    client.get(f"/api/web_response_by_path?path={warm_up}")
    for name, url in targets.items():
        if cache:
            client.get(url)  # fills the response cache
        before = store.commands
        response = client.get(url)
        commands = store.commands - before
        if response.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {response.status_code} {response.data[:300]!r}")
        body = response.get_json()
        if name == "common_content":
            depth = max(tree_depth(m.get("children") or []) for m in body["menus"].values())
        elif name in READ_SURFACE:
            depth = 0
        else:
            depth = tree_depth(body.get("blocks") or [])
        out[name] = {"commands": commands, "depth": depth, "bytes": len(response.data)}
        if samples:
            runs = []
            for _ in range(samples):
                recorder.log = []
                client.get(url)
                runs.append(recorder.log)
            out[name]["queries"] = timings(runs)
    store.db.client.close()
    return out
