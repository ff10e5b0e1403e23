"""`make load`: a bounded loopback load test of gunicorn serving the demo site, with the memory
of its workers before and after.

LOAD_SECONDS (default 60) at LOAD_CONCURRENCY connections (default 32), over a mix of pages, common
content and resource entry points, with the response cache on (the production configuration).
Stops by itself; loopback only. Exit code 1 when a request failed or a worker's memory grew by more
than LOAD_RSS_GROWTH_MB (default 50).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import pymongo  # noqa: E402

from app.config import DEMO_FIXTURE  # noqa: E402
from app.fixture.load import load_site, read_fixture  # noqa: E402
from app.store import Store  # noqa: E402
from bench import loadgen, servers  # noqa: E402

WR = "/api/web_response_by_path?path="
MIX = [
    WR + "/", WR + "/about", WR + "/blog", WR + "/blog/first-article", WR + "/fr",
    WR + "/fr/blog", WR + "/a-propos", WR + "/old-about", WR + "/premium",
    "/api/common_content", "/api/common_content?_locale=fr", "/api/articles?tags=news",
    "/api/pages/1101", "/api/nodes/11",
]  # fmt: skip


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def workers_of(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return sorted(int(pid) for pid in children)


def main() -> int:
    seconds = float(os.environ.get("LOAD_SECONDS") or 60)
    concurrency = int(os.environ.get("LOAD_CONCURRENCY") or 32)
    allowed_growth = float(os.environ.get("LOAD_RSS_GROWTH_MB") or 50)
    with servers.database() as (uri, label):
        client = pymongo.MongoClient(uri, tz_aware=True)
        load_site(Store(client["load"]), read_fixture(DEMO_FIXTURE), force=True)
        client.close()
        with tempfile.NamedTemporaryFile(prefix="load-gunicorn-", suffix=".log") as log:
            with servers.gunicorn(uri, "load", {}, Path(log.name)) as (base, master):
                loadgen.measure(base + MIX[0], 3, concurrency, MIX)  # warm every worker
                workers = workers_of(master)
                before = {pid: rss_mb(pid) for pid in workers}
                print(f"load: {seconds:g}s at {concurrency} connections over {len(MIX)} URLs "
                      f"({loadgen.tool()}), {len(workers)} gunicorn workers, {label}",
                      flush=True)  # fmt: skip
                started = time.monotonic()
                figures = loadgen.measure(base + MIX[0], seconds, concurrency, MIX)
                elapsed = time.monotonic() - started
                after = {pid: rss_mb(pid) for pid in workers if Path(f"/proc/{pid}").exists()}
    growth = max((after.get(pid, 0) - before[pid] for pid in before), default=0.0)
    print(f"requests {figures['requests']}, errors {figures['errors']}, "
          f"{figures['rps']:.0f} req/s, p50 {figures['p50_ms']:.1f} ms, "
          f"p99 {figures['p99_ms']:.1f} ms, in {elapsed:.0f}s")  # fmt: skip
    for pid in before:
        print(f"worker {pid}: RSS {before[pid]:.1f} MB before, {after.get(pid, 0):.1f} MB after")
    restarted = len(after) != len(before)
    ok = figures["errors"] == 0 and growth <= allowed_growth and not restarted
    verdict = "PASS" if ok else "FAIL"
    print(f"{verdict}: errors {figures['errors']} (0 allowed), worst RSS growth {growth:.1f} MB "
          f"({allowed_growth:g} allowed), workers restarted: {restarted}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
