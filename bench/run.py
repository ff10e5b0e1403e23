"""`make bench`: generated sites of several sizes, served by gunicorn, measured over loopback.

Sizes from BENCH_SIZES (default 1000,10000,100000 sources with MONGODB_URI, 1000,2000 on the
FerretDB it starts; docs/performance.md lists every variable), BENCH_SECONDS per measurement
(default 10), BENCH_CONCURRENCY connections (default 16). Prints one table and the targets,
and writes bench/results.json.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import pymongo  # noqa: E402

from app.fixture.load import load_site  # noqa: E402
from app.store import Store  # noqa: E402
from bench import commands, loadgen, queries, report, servers  # noqa: E402
from seed.generate import bench_paths, counts, generate  # noqa: E402

RESULTS = REPO / "bench" / "results.json"
WARM_UP_PATH = "/section-1"  # a generated page outside the measured ones (builds the site model)
STARTED = time.monotonic()


def log(message: str) -> None:
    print(f"[{time.monotonic() - STARTED:7.1f}s] {message}", file=sys.stderr, flush=True)


def setting(name: str, default: str) -> str:
    return os.environ.get(name) or default


def load(uri: str, db: str, size: int) -> dict[str, Any]:
    """Generate the site of `size` sources and load it with the real loader (timed)."""
    started = time.monotonic()
    site = generate(size, blocks=30, depth=3, menu=60, seed=1)
    generated = time.monotonic() - started
    info = {"counts": counts(site), "paths": bench_paths(site), "generate_s": round(generated, 1)}
    log(f"{report.label(size)}: generated {len(site['nodes'])} nodes in {generated:.1f}s; loading")
    client = pymongo.MongoClient(uri, tz_aware=True)
    try:
        client.drop_database(db)
        started = time.monotonic()
        progress = lambda m: log(f"{report.label(size)}: {m}")  # noqa: E731
        summary = load_site(Store(client[db]), site, force=True, progress=progress).summary()
        info["load_s"] = round(time.monotonic() - started, 1)
    finally:
        client.close()
    log(f"{report.label(size)}: {summary} in {info['load_s']}s")
    return info


def endpoints(paths: dict[str, str], floor_bytes: int) -> dict[str, str]:
    out = {name: f"/api/web_response_by_path?path={path}" for name, path in paths.items()}
    out["common_content"] = "/api/common_content"
    out.update(commands.READ_SURFACE)
    out["floor"] = f"/bench/floor?bytes={floor_bytes}"
    return out


def answered(url: str) -> tuple[float, int]:
    """One GET: its time (ms) and HTTP status (a 503 when the time budget ran out is counted
    as an error by the caller, not raised)."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=300) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return (time.perf_counter() - started) * 1000, status


def get(url: str) -> float:
    """One GET (ms); it must answer 200."""
    elapsed, status = answered(url)
    assert status == 200, f"{url}: HTTP {status}"
    return elapsed


def warm_up(url: str, workers: int) -> int:
    """2 x workers requests one after another, so that the workers have served `url` (and, with
    the response cache on, cached it) before the load: in parallel, the first misses would all
    reach the database at once, and on a slow engine exceed the time budget; how many did not
    answer 200."""
    return sum(answered(url)[1] != 200 for _ in range(2 * workers))


def measure_endpoint(url: str, workers: int) -> dict[str, Any]:
    """Load figures; a single timed request when one takes longer than BENCH_SLOW_MS or does
    not answer 200. `errors` counts the answers that were not 200 (the warm-up's too)."""
    seconds = float(setting("BENCH_SECONDS", "10"))
    concurrency = int(setting("BENCH_CONCURRENCY", "16"))
    failed = warm_up(url, workers)
    probe, status = answered(url)
    failed += status != 200
    if status != 200 or probe > float(setting("BENCH_SLOW_MS", "1000")):
        return {"rps": None, "p50_ms": round(probe, 3), "p99_ms": None, "requests": 1,
                "errors": failed}  # fmt: skip
    loadgen.measure(url, min(1.0, seconds), concurrency)  # warm-up
    figures = _rounded(loadgen.measure(url, seconds, concurrency))
    return {**figures, "errors": figures["errors"] + failed}


def serve_and_measure(
    uri: str, db: str, size: int, mode: str, urls: dict[str, str], counted: dict[str, Any]
) -> list[dict[str, Any]]:
    """One gunicorn (response cache off for `cold`, on for `warm`); every endpoint measured."""
    env = {"CMS_RESPONSE_CACHE": "true" if mode == "warm" else "false"}
    workers = os.cpu_count() or 1
    rows = []
    with tempfile.NamedTemporaryFile(prefix="bench-gunicorn-", suffix=".log", delete=False) as f:
        gunicorn_log = Path(f.name)
    try:
        with servers.gunicorn(uri, db, env, gunicorn_log) as (base, _):
            for name, path in urls.items():
                if name == "floor" and mode != "warm":
                    continue
                figures = measure_endpoint(base + path, workers)
                endpoint = report.endpoint_label(name, mode)
                cmds = counted.get(mode, {}).get(name, {}).get("commands")
                rows.append({"endpoint": endpoint, "name": name, "mode": mode, "commands": cmds,
                             **figures})  # fmt: skip
                rps = "1 request" if figures["rps"] is None else f"{figures['rps']:.0f} req/s"
                log(f"{report.label(size)}: {endpoint}: {rps}, p50 {figures['p50_ms']:.1f} ms")
    except Exception:
        print(gunicorn_log.read_text(errors="replace")[-3000:], file=sys.stderr)
        raise
    finally:
        gunicorn_log.unlink(missing_ok=True)
    return rows


def _rounded(figures: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


def bench_size(uri: str, size: int) -> dict[str, Any]:
    db = f"cms_bench_{size}"
    info = load(uri, db, size)
    log(f"{report.label(size)}: counting database commands per request")
    samples = int(setting("BENCH_QUERY_SAMPLES", "3"))
    counted = {
        "cold": commands.count(uri, db, info["paths"], WARM_UP_PATH, cache=False, samples=samples),
        "warm": commands.count(uri, db, info["paths"], WARM_UP_PATH, cache=True),
    }
    info["slowest"] = slowest_query(uri, db, counted["cold"])
    urls = endpoints(info["paths"], counted["cold"]["home"]["bytes"])
    rows = serve_and_measure(uri, db, size, "cold", urls, counted)
    rows += serve_and_measure(uri, db, size, "warm", urls, counted)
    names = [*info["paths"], "common_content", *commands.READ_SURFACE, "floor"]
    modes = ("cold", "warm")
    rows.sort(key=lambda r: (names.index(r["name"]), modes.index(r["mode"])))
    client = pymongo.MongoClient(uri)
    client.drop_database(db)
    client.close()
    return {**info, "commands": counted, "rows": rows}


def slowest_query(uri: str, db: str, counted: dict[str, Any]) -> dict[str, Any] | None:
    """The slowest query of any endpoint (median server time) with the engine's explain."""
    timed = [(q, name) for name, c in counted.items() for q in c.get("queries", [])]
    if not timed:
        return None
    query, endpoint = max(timed, key=lambda t: t[0]["ms"])
    client = pymongo.MongoClient(uri, tz_aware=True)
    try:
        plan = queries.explain(client[db], query["command"])
    except pymongo.errors.PyMongoError as error:
        plan = {"error": str(error)}
    finally:
        client.close()
    log(f"slowest query: {endpoint}: {query['query']} {query['ms']} ms")
    return {"endpoint": endpoint, "query": query["query"], "ms": query["ms"],
            "explain": queries.render_explain(plan)}  # fmt: skip


def main() -> int:
    results: dict[str, Any] = {"sizes": {}}
    with servers.database() as (uri, database):
        # FerretDB's SQLite backend uses no secondary index (every non-_id query scans the
        # collection, about 1 ms per source): larger sizes do not fit the 15-minute budget there.
        default = "1000,10000,100000" if database == "MONGODB_URI" else "1000,2000"
        sizes = [int(s) for s in setting("BENCH_SIZES", default).split(",") if s.strip()]
        workers = os.cpu_count() or 1
        results["meta"] = {
            "database": database,
            "load_generator": loadgen.tool(),
            "gunicorn_workers": workers,
            "concurrency": int(setting("BENCH_CONCURRENCY", "16")),
            "seconds": float(setting("BENCH_SECONDS", "10")),
            "sizes": sizes,
            "site": {"blocks": 30, "depth": 3, "menu": 60, "seed": 1},
        }
        log(f"bench: {json.dumps(results['meta'])}")
        for size in sizes:
            results["sizes"][str(size)] = bench_size(uri, size)
    results["targets"] = report.targets(results)
    results["meta"]["wall_s"] = round(time.monotonic() - STARTED, 1)
    RESULTS.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    print(report.render(results))
    strict = setting("BENCH_STRICT", "false") == "true"
    return 1 if strict and not all(t["pass"] for t in results["targets"]) else 0


if __name__ == "__main__":
    sys.exit(main())
