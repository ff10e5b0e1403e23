"""`make bench-embedded`: the embedded store (no MONGODB_URI) served as `make run` serves it.

For each size of EMBEDDED_SIZES (default 1000,10000,50000 sources): generates the site
(seed/generate.py) into a fixture file, starts gunicorn (one worker per core, each loading the
fixture into its own embedded store) with the response cache off (cold), and measures home, the
deep page, an article and common_content with the load generator, plus the static floor, then
the workers' CPU per request of each (requests sent one at a time, read from /proc). A load
run in which one worker did most of the work is run again (measure_balanced). The target
compares cold home with the floor in interleaved pairs (interleaved_share). Prints
the start-up time, the worker RSS, one table, and cold home against the static floor (the
target: >= 25 %).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import loadgen, report, servers  # noqa: E402
from bench.run import endpoints, get, log, measure_endpoint, setting  # noqa: E402
from seed.generate import bench_paths, generate  # noqa: E402

FLOOR_TARGET = 0.25
BALANCE_TRIES = 3
BALANCED_SHARE = 0.75  # of the workers' CPU used by the busiest one, with 2 or more workers
PAIRS = 3
PAIR_SECONDS = 5.0


def rss_mb(pid: int) -> float:
    """Resident memory of the gunicorn workers of master `pid` (the largest one)."""
    sizes = []
    for child in Path("/proc").iterdir():
        if not child.name.isdigit():
            continue
        try:
            stat = (child / "stat").read_text().split()
            if int(stat[3]) == pid:
                status = (child / "status").read_text()
                line = next(x for x in status.splitlines() if x.startswith("VmRSS:"))
                sizes.append(int(line.split()[1]) / 1024)
        except (OSError, StopIteration, ValueError):
            continue
    return round(max(sizes, default=0.0), 1)


def workers_cpu_ms(pid: int) -> dict[int, float]:
    """User and system CPU (ms) used so far by each gunicorn worker of master `pid`."""
    used = {}
    for child in Path("/proc").iterdir():
        if not child.name.isdigit():
            continue
        try:
            stat = (child / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == pid:  # fields after the command: state, ppid, ..., utime, stime
            ticks = int(stat[11]) + int(stat[12])
            used[int(child.name)] = ticks * 1000 / os.sysconf("SC_CLK_TCK")
    return used


def busiest_share(before: dict[int, float], after: dict[int, float]) -> float:
    """The share of the workers' CPU between two readings that the busiest worker used."""
    used = [after[pid] - before.get(pid, 0.0) for pid in after]
    return max(used) / sum(used) if sum(used) > 0 else 1.0


def measure_balanced(measure: Callable[[], dict], pid: int, workers: int) -> dict:
    """`measure()`, again (up to BALANCE_TRIES runs) while one worker did more than
    BALANCED_SHARE of the work: gthread workers accept from one shared socket, and the worker
    awake when the load generator opens its connections sometimes takes all of them, leaving
    the other cores idle for the whole run (half the req/s on 2 cores, whatever the code)."""
    for attempt in range(1, BALANCE_TRIES + 1):
        before = workers_cpu_ms(pid)
        figures = measure()
        share = busiest_share(before, workers_cpu_ms(pid))
        figures["busiest_worker_share"] = round(share, 2)
        if workers < 2 or share <= BALANCED_SHARE or attempt == BALANCE_TRIES:
            return figures
        log(f"  one worker did {share:.0%} of the work: measured again")
    raise AssertionError("unreachable")


def interleaved_share(home: str, floor: str, pid: int, workers: int) -> dict:
    """Cold home against the static floor, measured in alternation (PAIRS pairs of
    PAIR_SECONDS runs, each balanced): the median of the pairs' req/s ratios. The machine's
    load drifts over the minutes a whole table takes; a pair measured back to back shares it."""
    concurrency = int(setting("BENCH_CONCURRENCY", "16"))
    ratios = []
    for _ in range(PAIRS):
        rps = {}
        for name, url in (("floor", floor), ("home", home)):
            figures = measure_balanced(
                lambda u=url: loadgen.measure(u, PAIR_SECONDS, concurrency), pid, workers
            )
            rps[name] = figures["rps"]
        ratios.append(rps["home"] / rps["floor"])
        log(f"  pair: floor {rps['floor']:.0f} req/s, home {rps['home']:.0f} req/s")
    return {"ratios": [round(r, 3) for r in ratios], "median": round(statistics.median(ratios), 3)}


def server_cpu_per_request(url: str, pid: int, seconds: float = 3.0) -> float:
    """Worker CPU (ms) per request, requests sent one at a time for `seconds`: what a request
    costs the server, whatever else runs on the machine (the load generator included)."""
    before, started, count = sum(workers_cpu_ms(pid).values()), time.monotonic(), 0
    while time.monotonic() - started < seconds:
        get(url)
        count += 1
    return round((sum(workers_cpu_ms(pid).values()) - before) / count, 2)


def home_bytes(url: str) -> int:
    """The size of a response's body."""
    with urllib.request.urlopen(url, timeout=300) as response:
        return len(response.read())


def bench_size(size: int, tmp: Path) -> dict:
    site = generate(size, blocks=30, depth=3, menu=60, seed=1)
    fixture = tmp / f"site-{size}.json"
    fixture.write_text(json.dumps(site, separators=(",", ":")), encoding="utf-8")
    paths = bench_paths(site)
    workers = os.cpu_count() or 1
    env = {"CMS_RESPONSE_CACHE": "false", "SITE_FIXTURE": str(fixture), "MONGODB_URI": ""}
    gunicorn_log = tmp / "gunicorn.log"
    started = time.monotonic()
    rows = []
    with servers.gunicorn("", "cms", env, gunicorn_log, ready_timeout=900) as (base, pid):
        ready = round(time.monotonic() - started, 1)
        log(f"{report.label(size)}: ready in {ready}s")
        # the floor serves as many bytes as cold home (as bench/run.py sizes it)
        urls = endpoints(paths, home_bytes(base + endpoints(paths, 0)["home"]))
        for name, path in urls.items():
            url = base + path
            figures = measure_balanced(lambda u=url: measure_endpoint(u, workers), pid, workers)
            figures["cpu_ms"] = server_cpu_per_request(url, pid)
            rows.append({"endpoint": name, **figures})
            rps = "1 request" if figures["rps"] is None else f"{figures['rps']:.0f} req/s"
            log(
                f"{report.label(size)}: {name}: {rps}, p50 {figures['p50_ms']:.1f} ms, "
                f"worker CPU {figures['cpu_ms']} ms per request"
            )
        log(f"{report.label(size)}: cold home against the floor, {PAIRS} interleaved pairs")
        pairs = interleaved_share(base + urls["home"], base + urls["floor"], pid, workers)
        memory = rss_mb(pid)
    return {"ready_s": ready, "worker_rss_mb": memory, "rows": rows, "home_floor": pairs}


def render(results: dict) -> str:
    head = (
        f"{'size':>6} | {'endpoint (cold)':<16} | {'req/s':>8} | {'p50 ms':>8} | {'p99 ms':>8} | "
        f"{'CPU ms':>6}"
    )
    lines = [head, "-" * len(head)]
    verdicts = []
    for size, data in results.items():
        by_name = {row["endpoint"]: row for row in data["rows"]}
        for row in data["rows"]:
            rps = "1 req*" if row["rps"] is None else f"{row['rps']:.0f}"
            p99 = "-" if row["p99_ms"] is None else f"{row['p99_ms']:.2f}"
            lines.append(
                f"{report.label(int(size)):>6} | {row['endpoint']:<16} | {rps:>8} | "
                f"{row['p50_ms']:>8.2f} | {p99:>8} | {row.get('cpu_ms', '-'):>6}"
            )
        share = data["home_floor"]["median"]
        verdict = "PASS" if share >= FLOOR_TARGET else "FAIL"
        pairs = ", ".join(f"{r:.0%}" for r in data["home_floor"]["ratios"])
        verdicts.append(
            f"  {verdict}  {report.label(int(size))} cold home / static floor req/s: "
            f"{share:.0%} >= {FLOOR_TARGET:.0%} (median of interleaved pairs: {pairs}); "
            f"start-up {data['ready_s']}s, worker RSS {data['worker_rss_mb']} MB"
        )
        home_cpu, floor_cpu = by_name["home"].get("cpu_ms"), by_name["floor"].get("cpu_ms")
        if home_cpu and floor_cpu:
            verdicts.append(
                f"        worker CPU per request: floor {floor_cpu} ms / cold home {home_cpu} ms "
                f"= {floor_cpu / home_cpu:.0%} (the req/s share with the cores to the server)"
            )
    return "\n".join(["", *lines, "", "Targets:", *verdicts])


def main() -> int:
    sizes = [int(s) for s in setting("EMBEDDED_SIZES", "1000,10000,50000").split(",") if s]
    log(f"embedded bench: sizes {sizes}, load generator {loadgen.tool()}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-embedded-") as tmp:
        for size in sizes:
            results[str(size)] = bench_size(size, Path(tmp))
    out = REPO / "bench" / "embedded-results.json"
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(render(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
