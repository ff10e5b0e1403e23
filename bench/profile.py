"""Profile of cold requests on the embedded store (cProfile): where a request's CPU goes.

    python -m bench.profile [--sources 1000] [--requests 50] [--path /] [--top 25]
    python -m bench.profile --cpu [--sources 1000] [--requests 100] [--runs 5]

Generates a site (seed/generate.py), serves it from the embedded store (mongomock, as `make run`
without MONGODB_URI) with the response cache off, builds the site model with one request to
another page, then profiles `--requests` requests of `--path` and prints the time per request and
the top functions by own time and by cumulative time.

With `--cpu`, no profiler: the CPU time per request (`time.process_time()`, the best of `--runs`
runs of `--requests` requests) of home, the deep page, an article, common_content and the static
floor, the figures of docs/performance.md (CPU time, as wall time varies with the load of the
machine).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.app import create_app  # noqa: E402
from seed.generate import bench_paths, generate  # noqa: E402


def embedded_app(sources: int, fixture_dir: Path, **config):
    """The app on the embedded store seeded with a generated site of `sources` sources, and the
    site's benchmark paths (seed.generate.bench_paths)."""
    site = generate(sources, blocks=30, depth=3, menu=60, seed=1)
    fixture = fixture_dir / f"site-{sources}.json"
    fixture.write_text(json.dumps(site, separators=(",", ":")), encoding="utf-8")
    app = create_app({"MONGODB_URI": None, "SITE_FIXTURE": str(fixture), **config})
    return app, bench_paths(site)


def cpu_per_request(client, url: str, requests: int, runs: int) -> float:
    """The best of `runs` runs of `requests` GETs of `url`: CPU ms per request."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        for _ in range(requests):
            client.get(url)
        best = min(best, (time.process_time() - started) / requests * 1000)
    return best


def cpu_table(client, paths: dict[str, str], requests: int, runs: int) -> None:
    urls = {name: f"/api/web_response_by_path?path={path}" for name, path in paths.items()}
    urls["common_content"] = "/api/common_content"
    urls["floor"] = "/bench/floor?bytes=20000"
    for url in urls.values():
        assert client.get(url).status_code == 200, url
    print(f"CPU per request, best of {runs} x {requests} (time.process_time):")
    for name, url in urls.items():
        print(f"  {name:<16} {cpu_per_request(client, url, requests, runs):7.2f} ms", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--path", default="/", help="a page path, or an /api/... url")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--cpu", action="store_true", help="CPU per request, no profiler")
    parser.add_argument("--runs", type=int, default=5, help="with --cpu: runs, the best counts")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        app, paths = embedded_app(args.sources, Path(tmp), RESPONSE_CACHE=False)
        print(f"site of {args.sources} sources loaded in {time.monotonic() - started:.1f}s")
    client = app.test_client()
    client.get("/api/web_response_by_path?path=/section-1")  # builds the site model
    if args.cpu:
        cpu_table(client, paths, args.requests, args.runs)
        return 0
    url = args.path
    if not url.startswith("/api/"):
        url = f"/api/web_response_by_path?path={url}"
    assert client.get(url).status_code == 200
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for _ in range(args.requests):
        client.get(url)
    profiler.disable()
    elapsed = (time.perf_counter() - started) / args.requests * 1000
    print(f"{args.path}: {elapsed:.2f} ms per request under cProfile ({args.requests} requests)")
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(args.top)
        print(f"--- top {args.top} by {order} ---")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:6000])
    return 0


if __name__ == "__main__":
    sys.exit(main())
