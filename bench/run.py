"""`make bench`: generated sites of several sizes, served by gunicorn, measured over loopback.

Sizes from BENCH_SIZES (default 1000,10000,100000 sources with MONGODB_URI, 1000,2000 on the
FerretDB it starts; docs/performance.md lists every variable), BENCH_SECONDS per measurement
(default 10, in BENCH_ROUNDS rounds: 3), BENCH_CONCURRENCY connections (default 16). Every size
is loaded first, then each endpoint is measured at every size in turn. Prints one table and the
targets, and writes bench/results.json.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
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


def load_rounds() -> int:
    """BENCH_ROUNDS: the rounds each line's load is split in (at least 1)."""
    return max(int(setting("BENCH_ROUNDS", "3")), 1)


def measure_endpoint(url: str, workers: int) -> dict[str, Any]:
    """Load figures of one URL (`measure_interleaved`)."""
    return measure_interleaved({0: url}, workers)[0]


def measure_interleaved(urls: dict[int, str], workers: int) -> dict[int, dict[str, Any]]:
    """Load figures of each URL: all warmed up, then loaded in BENCH_ROUNDS rounds of
    BENCH_SECONDS / BENCH_ROUNDS each, the URLs in turn within every round; req/s, p50 and p99
    are the medians of its URL's rounds, requests and errors their sums (a round opens new
    connections: one where a single worker took them all, or the machine stalled, does not
    decide the line). A single timed request when one takes longer than BENCH_SLOW_MS or does
    not answer 200. `errors` counts the answers that were not 200 (the warm-up's too)."""
    rounds = load_rounds()
    seconds = float(setting("BENCH_SECONDS", "10")) / rounds
    concurrency = int(setting("BENCH_CONCURRENCY", "16"))
    out: dict[int, dict[str, Any]] = {}
    failed: dict[int, int] = {}
    for key, url in urls.items():
        failed[key] = warm_up(url, workers)
        probe, status = answered(url)
        failed[key] += status != 200
        if status != 200 or probe > float(setting("BENCH_SLOW_MS", "1000")):
            out[key] = {"rps": None, "p50_ms": round(probe, 3), "p99_ms": None, "requests": 1,
                        "errors": failed[key]}  # fmt: skip
            continue
        loadgen.measure(url, min(1.0, seconds), concurrency)  # warm-up
    loaded = [key for key in urls if key not in out]
    runs: dict[int, list[dict[str, float]]] = {key: [] for key in loaded}
    for _ in range(rounds):
        for key in loaded:
            runs[key].append(loadgen.measure(urls[key], seconds, concurrency))
    for key in loaded:
        found = runs[key]
        figures = {f: statistics.median(r[f] for r in found) for f in ("rps", "p50_ms", "p99_ms")}
        out[key] = {
            **_rounded(figures),
            "requests": sum(r["requests"] for r in found),
            "errors": sum(r["errors"] for r in found) + failed[key],
            "rounds": len(found),
        }
    return out


def serve_and_measure(
    uri: str, prepared: dict[int, dict[str, Any]], mode: str
) -> dict[int, list[dict[str, Any]]]:
    """One gunicorn per size (response cache off for `cold`, on for `warm`), all serving at
    once; each endpoint measured at every size in turn (`measure_interleaved`: round by round),
    so that a machine whose speed drifts during the run (an engine busy after a bulk load,
    another process) moves every size's figures alike rather than one size's ratios. The
    static floor is measured first in the cold run and last in the warm one: how much it moved
    says how steady the machine was (report.targets)."""
    env = {"CMS_RESPONSE_CACHE": "true" if mode == "warm" else "false"}
    workers = os.cpu_count() or 1
    rows: dict[int, list[dict[str, Any]]] = {size: [] for size in prepared}
    logs = {size: _temporary_log() for size in prepared}
    try:
        with contextlib.ExitStack() as stack:
            bases = {
                size: stack.enter_context(servers.gunicorn(uri, _db_name(size), env, logs[size]))[0]
                for size in prepared
            }
            # the floor serves the first size's home body at every size: one workload to compare
            first = next(iter(prepared.values()))
            floor_bytes = first["floor_bytes"]
            names = list(endpoints(first["paths"], floor_bytes))
            names.remove("floor")
            names = ["floor", *names] if mode == "cold" else [*names, "floor"]
            for name in names:
                urls = {
                    size: bases[size] + endpoints(info["paths"], floor_bytes)[name]
                    for size, info in prepared.items()
                }
                endpoint = report.endpoint_label(name, mode)
                for size, figures in measure_interleaved(urls, workers).items():
                    cmds = prepared[size]["commands"].get(mode, {}).get(name, {}).get("commands")
                    rows[size].append({"endpoint": endpoint, "name": name, "mode": mode,
                                       "commands": cmds, **figures})  # fmt: skip
                    rps = "1 request" if figures["rps"] is None else f"{figures['rps']:.0f} req/s"
                    log(f"{report.label(size)}: {endpoint}: {rps}, p50 {figures['p50_ms']:.1f} ms")
    except Exception:
        for size, gunicorn_log in logs.items():
            print(f"--- gunicorn, {report.label(size)}:", file=sys.stderr)
            print(gunicorn_log.read_text(errors="replace")[-3000:], file=sys.stderr)
        raise
    finally:
        for gunicorn_log in logs.values():
            gunicorn_log.unlink(missing_ok=True)
    return rows


def _temporary_log() -> Path:
    with tempfile.NamedTemporaryFile(prefix="bench-gunicorn-", suffix=".log", delete=False) as f:
        return Path(f.name)


def _rounded(figures: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


def _db_name(size: int) -> str:
    return f"cms_bench_{size}"


def prepare_size(uri: str, size: int) -> dict[str, Any]:
    """Load the site of `size` sources, count each endpoint's commands and explain the slowest
    query (the site stays loaded until every size has been measured)."""
    db = _db_name(size)
    info = load(uri, db, size)
    log(f"{report.label(size)}: counting database commands per request")
    samples = int(setting("BENCH_QUERY_SAMPLES", "3"))
    info["commands"] = {
        "cold": commands.count(uri, db, info["paths"], WARM_UP_PATH, cache=False, samples=samples),
        "warm": commands.count(uri, db, info["paths"], WARM_UP_PATH, cache=True),
    }
    info["slowest"] = slowest_query(uri, db, info["commands"]["cold"])
    info["floor_bytes"] = info["commands"]["cold"]["home"]["bytes"]
    return info


def bench_sizes(uri: str, sizes: list[int]) -> dict[str, Any]:
    """Every size loaded first, then measured cold and warm, the sizes interleaved."""
    prepared: dict[int, dict[str, Any]] = {}
    written: list[int] = []  # dropped at the end, even when a size fails after its load
    try:
        for size in sizes:
            written.append(size)
            prepared[size] = prepare_size(uri, size)
        rows = {size: [] for size in sizes}
        for mode in ("cold", "warm"):
            labels = ", ".join(map(report.label, sizes))
            log(f"measuring {mode}: every endpoint at {labels} in turn")
            for size, measured in serve_and_measure(uri, prepared, mode).items():
                rows[size] += measured
    finally:
        client = pymongo.MongoClient(uri)
        for size in written:
            client.drop_database(_db_name(size))
        client.close()
    out = {}
    for size, info in prepared.items():
        names = [*info["paths"], "common_content", *commands.READ_SURFACE, "floor"]
        modes = ("cold", "warm")
        rows[size].sort(key=lambda r: (names.index(r["name"]), modes.index(r["mode"])))
        out[str(size)] = {**info, "rows": rows[size]}
    return out


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
            "rounds": load_rounds(),
            "sizes": sizes,
            "site": {"blocks": 30, "depth": 3, "menu": 60, "seed": 1},
        }
        log(f"bench: {json.dumps(results['meta'])}")
        results["sizes"] = bench_sizes(uri, sizes)
    results["targets"] = report.targets(results)
    results["meta"]["wall_s"] = round(time.monotonic() - STARTED, 1)
    RESULTS.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    print(report.render(results))
    strict = setting("BENCH_STRICT", "false") == "true"
    return 1 if strict and report.failed(results["targets"]) else 0


if __name__ == "__main__":
    sys.exit(main())
