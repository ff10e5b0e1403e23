"""Loopback load generators: wrk when installed, else threads (in processes) with http.client."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from urllib.parse import urlsplit

# wrk's done() hook prints the figures as one JSON line (latencies in microseconds).
WRK_SCRIPT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "errors": %d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
"""


def tool() -> str:
    """The load generator that `measure` uses."""
    return "wrk" if shutil.which("wrk") and not os.environ.get("BENCH_NO_WRK") else "python"


def measure(
    url: str, seconds: float, concurrency: int, paths: list[str] | None = None
) -> dict[str, float]:
    """Requests per second, p50 and p99 latency (ms) and errors of GETs for `seconds`: of `url`,
    or, with `paths`, of those paths of `url`'s server in turn."""
    if tool() == "wrk":
        return _wrk(url, seconds, concurrency, paths)
    return _python(url, seconds, concurrency, paths)


def _rotation(paths: list[str]) -> str:
    """wrk request() hook: each connection takes the paths in turn."""
    quoted = ", ".join(json.dumps(p) for p in paths)
    return (
        f"local paths = {{{quoted}}}\nlocal i = 0\n"
        "request = function()\n  i = i % #paths + 1\n"
        '  return wrk.format("GET", paths[i])\nend\n'
    )


def _wrk(
    url: str, seconds: float, concurrency: int, paths: list[str] | None = None
) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT + (_rotation(paths) if paths else ""))
    threads = max(1, min(os.cpu_count() or 1, concurrency))
    command = ["wrk", f"-t{threads}", f"-c{concurrency}", f"-d{max(1, round(seconds))}s"]
    command += ["--timeout", "10s", "-s", script.name, url]
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    finally:
        os.unlink(script.name)
    line = next((x for x in out.stdout.splitlines() if x.startswith("BENCH ")), None)
    if line is None:
        raise RuntimeError(f"wrk failed: {out.stdout}\n{out.stderr}")
    data = json.loads(line[len("BENCH ") :])
    return {
        "rps": data["requests"] / (data["duration_us"] / 1e6),
        "p50_ms": data["p50_us"] / 1000,
        "p99_ms": data["p99_us"] / 1000,
        "requests": data["requests"],
        "errors": data["errors"],
    }


def _worker(
    url: str, seconds: float, threads: int, paths: list[str] | None = None
) -> tuple[list[float], int]:
    """One process: `threads` keep-alive clients until the deadline; (latencies in s, errors)."""
    parts = urlsplit(url)
    targets = paths or [parts.path + (f"?{parts.query}" if parts.query else "")]
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        mine: list[float] = []
        turn = 0
        while time.monotonic() < deadline:
            target, turn = targets[turn % len(targets)], turn + 1
            start = time.perf_counter()
            try:
                conn.request("GET", target)
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                conn.close()
                ok = False
            mine.append(time.perf_counter() - start)
            if not ok:
                with lock:
                    errors[0] += 1
        conn.close()
        with lock:
            latencies.extend(mine)

    pool = [threading.Thread(target=client) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(seconds + 30)
    return latencies, errors[0]


def _python(
    url: str, seconds: float, concurrency: int, paths: list[str] | None = None
) -> dict[str, float]:
    processes = max(1, min(os.cpu_count() or 1, concurrency))
    shares = [concurrency // processes + (i < concurrency % processes) for i in range(processes)]
    with ProcessPoolExecutor(processes) as pool:
        results = list(
            pool.map(_worker, [url] * processes, [seconds] * processes, shares, [paths] * processes)
        )
    elapsed = seconds  # every client stops starting requests at its deadline
    latencies = sorted(x for lat, _ in results for x in lat)
    if not latencies:
        raise RuntimeError(f"no request completed on {url}")

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    return {
        "rps": len(latencies) / elapsed,
        "p50_ms": pct(50),
        "p99_ms": pct(99),
        "requests": len(latencies),
        "errors": sum(e for _, e in results),
    }
