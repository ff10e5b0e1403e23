"""`make load`: a bounded loopback load test of gunicorn serving the demo site, with the memory
of its workers before and after.

LOAD_SECONDS (default 60) at LOAD_CONCURRENCY connections (default 32), over a mix of pages, common
content and resource entry points, with the response cache on (the production configuration).
Stops by itself; loopback only. Exit code 1 when a request failed or a worker's memory grew by more
than LOAD_RSS_GROWTH_MB (default 50). The response-cache hit ratio and the database commands of the
measured run come from the service's own /metrics (multiprocess mode, every worker added up).
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import pymongo  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from app.config import DEMO_FIXTURE  # noqa: E402
from app.fixture.load import load_site, read_fixture  # noqa: E402
from app.store import Store  # noqa: E402
from bench import loadgen, servers  # noqa: E402

WR = "/api/web_response_by_path?path="
MIX = [
    WR + "/", WR + "/about", WR + "/blog", WR + "/blog/first-article", WR + "/fr",
    WR + "/fr/blog", WR + "/a-propos", WR + "/old-about", WR + "/premium",
    "/api/common_content", "/api/common_content?_locale=fr",
    "/api/articles?node.nodesTags.tag.tagName=news", "/api/pages/1101", "/api/nodes/11",
]  # fmt: skip


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def scrape(base: str, token: str) -> dict[str, float]:
    """Totals of the service's metrics (over labels and workers), by sample name."""
    request = urllib.request.Request(
        f"{base}/metrics", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    totals: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            key = sample.name
            if family.name == "cms_response_cache_lookups":
                key = f"cache_{sample.labels.get('result')}"
            if key.endswith("_bucket"):
                continue
            totals[key] = totals.get(key, 0.0) + sample.value
    return totals


def report_metrics(before: dict[str, float], after: dict[str, float]) -> list[str]:
    """The measured run's cache hit ratio and database commands, from two scrapes."""

    def moved(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    hits, misses = moved("cache_hit"), moved("cache_miss")
    lookups = hits + misses
    ratio = f"{hits / lookups:.1%}" if lookups else "n/a"
    commands = moved("cms_db_commands_per_request_sum")
    requests = moved("cms_db_commands_per_request_count")
    per_request = commands / requests if requests else 0.0
    db_seconds = moved("cms_db_time_per_request_seconds_sum")
    return [
        f"response cache (from /metrics): {ratio} hits ({hits:.0f} hits, {misses:.0f} misses)",
        f"database (from /metrics): {commands:.0f} commands for {requests:.0f} requests, "
        f"{per_request:.2f} per request, {db_seconds * 1000 / max(requests, 1):.2f} ms per request",
    ]


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
        token = secrets.token_urlsafe(24)
        with (
            tempfile.NamedTemporaryFile(prefix="load-gunicorn-", suffix=".log") as log,
            tempfile.TemporaryDirectory(prefix="load-metrics-") as metrics_dir,
        ):
            env = {"CMS_METRICS_TOKEN": token, "PROMETHEUS_MULTIPROC_DIR": metrics_dir}
            with servers.gunicorn(uri, "load", env, Path(log.name)) as (base, master):
                loadgen.measure(base + MIX[0], 3, concurrency, MIX)  # warm every worker
                scraped = scrape(base, token)
                workers = workers_of(master)
                before = {pid: rss_mb(pid) for pid in workers}
                print(f"load: {seconds:g}s at {concurrency} connections over {len(MIX)} URLs "
                      f"({loadgen.tool()}), {len(workers)} gunicorn workers, {label}",
                      flush=True)  # fmt: skip
                started = time.monotonic()
                figures = loadgen.measure(base + MIX[0], seconds, concurrency, MIX)
                elapsed = time.monotonic() - started
                after = {pid: rss_mb(pid) for pid in workers if Path(f"/proc/{pid}").exists()}
                observed = report_metrics(scraped, scrape(base, token))
    growth = max((after.get(pid, 0) - before[pid] for pid in before), default=0.0)
    print(f"requests {figures['requests']}, errors {figures['errors']}, "
          f"{figures['rps']:.0f} req/s, p50 {figures['p50_ms']:.1f} ms, "
          f"p99 {figures['p99_ms']:.1f} ms, in {elapsed:.0f}s")  # fmt: skip
    for line in observed:
        print(line)
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
