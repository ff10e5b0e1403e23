"""The printed table, the targets with PASS/FAIL, and bench/results.json."""

from __future__ import annotations

from typing import Any

from app.query_plan import SEARCH_SCAN

WEB = ("home", "deep_page", "article")
SCALE_LIMIT = 1.25
SCALE_SIZE = 100_000  # the scale target compares this size with the smallest
FLOOR_SHARE = 0.5
# the static floor's highest / lowest req/s across the sizes, measured at the same moment (first,
# then last): above it, the sizes' lines differ by more noise than the scale ratios can tell
# apart, and the run is not one to judge them by (bench/run.py interleaves the sizes, so that a
# drift of the machine during the run moves them alike)
STEADY_LIMIT = 1.10
FLOOR_FIRST, FLOOR_LAST = "static floor (first)", "static floor (last)"


# Endpoints of the Roadiz read surface (bench/commands.py READ_SURFACE) and the most database
# commands one request may send, whatever the size of the site: a collection page by number reads
# its page and counts its matches; an archive reads the publication dates once; a search reads
# 1 to SEARCH_SCAN postings chunks per word of its query (2 words: `river bridge`), then the page's
# sources by `_id` (app/search.py); a partial match reads its title keys, then the page and the
# count of its candidates.
SEARCH_WORDS = 2
READ_SURFACE_COMMANDS = {
    # the calendars (the total), the listings' first chunks, the page's sources by `_id`
    "collection": (3, "calendars + listing chunks + page"),
    # the calendar by `_id`
    "archives": (1, "the calendar"),
    "search": (
        SEARCH_WORDS * SEARCH_SCAN + 1,
        f"{SEARCH_WORDS} words x {SEARCH_SCAN} chunks + page",
    ),
    # the title keys (chunk 0 of the bucket, then the chunks holding the value), the page of
    # the candidates by `_id`, their count (app/listing/titles.py)
    "title": (4, "title keys (2) + page + count"),
    # the chunks 0 with the tallies, the grid rows and the chunks across the four edges, the
    # chunks the page walks past the head, the page's sources by `_id`
    "positions_in_span": (5, "chunks 0 + grid rows and edges + page chunks + page"),
}


def label(size: int) -> str:
    return f"{size // 1000}k" if size % 1000 == 0 else str(size)


def endpoint_label(name: str, mode: str) -> str:
    """The table's name of an endpoint measured cold or warm."""
    if name == "floor":  # the cold run measures it first, the warm run last
        return FLOOR_FIRST if mode == "cold" else FLOOR_LAST
    if name in WEB or name not in ("common_content", *READ_SURFACE_COMMANDS):
        return f"web_response {name} ({mode})"
    return f"{name} ({mode})"


def table(results: dict[str, Any]) -> str:
    """One line per size and endpoint; db commands from the in-process count."""
    head = f"{'size':>6} | {'endpoint':<34} | {'req/s':>8} | {'p50 ms':>8} | {'p99 ms':>8} | "
    head += f"{'db cmds/req':>11} | errors"
    lines = [head, "-" * len(head)]
    for size, data in results["sizes"].items():
        for row in data["rows"]:
            commands = "" if row["commands"] is None else str(row["commands"])
            rps = "1 req*" if row["rps"] is None else f"{row['rps']:.0f}"
            p99 = "-" if row["p99_ms"] is None else f"{row['p99_ms']:.2f}"
            lines.append(
                f"{label(int(size)):>6} | {row['endpoint']:<34} | {rps:>8} | "
                f"{row['p50_ms']:>8.2f} | {p99:>8} | {commands:>11} | {row['errors']}"
            )
    return "\n".join(lines)


def _rows(results: dict[str, Any]) -> dict[tuple[int, str], dict[str, Any]]:
    return {
        (int(size), row["endpoint"]): row
        for size, data in results["sizes"].items()
        for row in data["rows"]
    }


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target of the issue, evaluated on the measured figures."""
    out: list[dict[str, Any]] = []
    sizes = sorted(int(s) for s in results["sizes"])
    for name in (*WEB, "common_content"):
        base = 4 if name in WEB else 3
        worst = max(
            (results["sizes"][str(s)]["commands"]["cold"][name] for s in sizes),
            key=lambda c: c["commands"] - c["depth"],
        )
        limit = base + worst["depth"]
        what = "tree depth" if name in WEB else "menu depth"
        out.append(
            {
                "target": f"db commands {name} <= {base} + {what}",
                "value": f"{worst['commands']} <= {base} + {worst['depth']} = {limit}",
                "pass": worst["commands"] <= limit,
            }
        )
    for name, (limit, what) in READ_SURFACE_COMMANDS.items():
        counted = [results["sizes"][str(s)]["commands"]["cold"].get(name) for s in sizes]
        if any(c is None for c in counted):
            continue
        worst = max(c["commands"] for c in counted)
        at = ", ".join(
            f"{c['commands']} at {label(s)}" for c, s in zip(counted, sizes, strict=True)
        )
        out.append(
            {
                "target": f"db commands {name} <= {limit} ({what}), any size",
                "value": f"{at} <= {limit}",
                "pass": worst <= limit,
            }
        )
    rows = _rows(results)
    failed = [f"{row['errors']} at {label(size)} {endpoint}"
              for (size, endpoint), row in rows.items() if row.get("errors")]  # fmt: skip
    out.append({"target": "every request answered 200 (a 503: the time budget ran out)",
                "value": "; ".join(failed) or "no errors", "pass": not failed})  # fmt: skip
    small, large = sizes[0], sizes[-1]
    if large != small:
        for (size, endpoint), row in rows.items():
            if size != large or (small, endpoint) not in rows:
                continue
            ratio = row["p50_ms"] / max(rows[(small, endpoint)]["p50_ms"], 1e-9)
            out.append(
                {
                    "target": f"p50 {label(large)} / {label(small)}: {endpoint}",
                    "value": f"{ratio:.2f} <= {SCALE_LIMIT}",
                    "pass": ratio <= SCALE_LIMIT,
                }
            )
    if large < SCALE_SIZE:
        out.append(
            {
                "target": f"p50 {label(SCALE_SIZE)} / {label(small)}: every endpoint",
                "value": f"not measured (largest size {label(large)}): see docs/performance.md",
                "pass": None,
            }
        )
    out += _steady(rows)
    for size in sizes:
        floor = rows[(size, FLOOR_LAST)]["rps"] or 0.0
        for name in WEB:
            rps = rows[(size, f"web_response {name} (warm)")]["rps"]
            ratio = (rps or 0.0) / max(floor, 1e-9)
            out.append(
                {
                    "target": f"{label(size)} warm web_response {name} / static floor req/s",
                    "value": f"{ratio:.0%} >= {FLOOR_SHARE:.0%}"
                    + ("" if rps else " (too slow to load-test)"),
                    "pass": ratio >= FLOOR_SHARE,
                }
            )
    return out


def _steady(rows: dict[tuple[int, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """Whether the machine's speed held while the sizes were measured: the static floor (no
    database) measured at every size at the same moment (first, then last), highest / lowest
    req/s across the sizes; and, for the record, how far it drifted from first to last (alike
    at every size, a drift does not move the ratios: the sizes are interleaved). A moment with
    fewer than two sizes measured compares nothing (a floor too slow to load-test counts as
    not measured)."""
    floors = {
        moment: {size: row["rps"] for (size, at), row in rows.items() if at == endpoint}
        for moment, endpoint in (("first", FLOOR_FIRST), ("last", FLOOR_LAST))
    }
    spreads = {
        moment: max(by_size.values()) / min(by_size.values())
        for moment, by_size in floors.items()
        if len(by_size) > 1 and all(by_size.values())
    }
    unmeasured = [m for m, by_size in floors.items() if len(by_size) > 1 and m not in spreads]
    drift = ", ".join(
        f"{floors['last'][size] / first:.2f} at {label(size)}"
        for size, first in floors["first"].items()
        if first and floors["last"].get(size)
    )
    if unmeasured:
        value, ok = f"{', '.join(unmeasured)} not measured at every size", False
    elif not spreads:
        value, ok = "one size: nothing to compare", None
    else:
        value = "; ".join(f"{moment} {spread:.2f}" for moment, spread in spreads.items())
        value, ok = f"{value} <= {STEADY_LIMIT}", max(spreads.values()) <= STEADY_LIMIT
    return [
        {
            "target": "steady machine: static floor req/s across the sizes, highest / lowest",
            "value": value,
            "pass": ok,
        },
        {
            "target": "static floor req/s, last / first (the machine's drift)",
            "value": drift or "not measured",
            "pass": None,
        },
    ]


def queries_table(results: dict[str, Any]) -> list[str]:
    """Each query of each endpoint (cold, one request) with its median server time per size."""
    sizes = list(results["sizes"])
    rows: dict[tuple[str, int, str], dict[str, float]] = {}
    for size, data in results["sizes"].items():
        for endpoint, counted in data["commands"]["cold"].items():
            for position, query in enumerate(counted.get("queries", [])):
                rows.setdefault((endpoint, position, query["query"]), {})[size] = query["ms"]
    if not rows:
        return []
    head = f"{'endpoint':<15} | {'query':<100} | " + " | ".join(
        f"{label(int(s)) + ' ms':>9}" for s in sizes
    )
    lines = [head, "-" * len(head)]
    for (endpoint, _, query), times in rows.items():
        cells = " | ".join(f"{times[s]:>9.2f}" if s in times else f"{'':>9}" for s in sizes)
        lines.append(f"{endpoint:<15} | {query[:100]:<100} | {cells}")
    return ["Queries per request (cold; median server time, pymongo command monitoring):", *lines]


def slowest(results: dict[str, Any]) -> list[str]:
    out = []
    for size, data in results["sizes"].items():
        found = data.get("slowest")
        if found:
            out += [
                f"Slowest query at {label(int(size))}: {found['endpoint']}: {found['query']} "
                f"({found['ms']} ms); explain:",
                found["explain"],
            ]
    return out


VERDICTS = {True: "PASS", False: "FAIL", None: "----"}


def failed(checks: list[dict[str, Any]]) -> bool:
    """Whether a target failed (BENCH_STRICT's exit 1): one that measures nothing (None: a
    record, or a size not measured) is printed, not failed."""
    return any(check["pass"] is False for check in checks)


def render_targets(checks: list[dict[str, Any]]) -> str:
    width = max(len(c["target"]) for c in checks)
    return "\n".join(
        f"  {VERDICTS[c['pass']]}  {c['target']:<{width}}  {c['value']}" for c in checks
    )


def render(results: dict[str, Any]) -> str:
    """Everything `make bench` prints on stdout."""
    meta = results["meta"]
    sites = [
        f"  {label(int(size)):>6}: {data['counts']['reachable_sources']} reachable sources, "
        f"{sum(v for k, v in data['counts'].items() if k != 'reachable_sources')} nodes; "
        f"generated in {data['generate_s']}s, loaded in {data['load_s']}s; paths {data['paths']}"
        for size, data in results["sizes"].items()
    ]
    notes = [
        f"database: {meta['database']}; gunicorn -w {meta['gunicorn_workers']} (gthread "
        "workers with gunicorn.conf.py's threads, "
        f"CMS_SITE_VERSION_TTL=1); load generator: {meta['load_generator']}, "
        f"{meta['concurrency']} connections, {meta['seconds']:g}s per line in "
        f"{meta.get('rounds', 1)} rounds, the sizes in turn (the median of each round's req/s, "
        "p50 and p99), after a warm-up",
        "cold = CMS_RESPONSE_CACHE=false, warm = CMS_RESPONSE_CACHE=true (separate gunicorn runs)",
        "db cmds/req: one request, in-process, after a request to another page built the site "
        "model; warm: the second request (a cache hit); the live pointer, read at most once "
        "per second per worker (CMS_SITE_VERSION_TTL=1), is not counted per request",
        "1 req* = one request took longer than BENCH_SLOW_MS (1000 ms): its latency is shown "
        "instead of a load test",
        f"static floor: /bench/floor, a pre-serialised body of the size of the home WebResponse "
        f"({next(iter(results['sizes'].values()))['commands']['cold']['home']['bytes']} bytes "
        "at the first size)",
    ]
    return "\n".join(
        [
            "",
            "Sites:",
            *sites,
            "",
            table(results),
            "",
            *queries_table(results),
            "",
            *slowest(results),
            "",
            *notes,
            "",
            "Targets:",
            render_targets(results["targets"]),
            "",
            f"wall time {meta['wall_s']}s; results in bench/results.json",
        ]
    )
