"""The processes of the benchmark: the database (FerretDB or MONGODB_URI) and gunicorn."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tests.realserver import FerretDB, ferretdb_binary, free_port

REPO = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def database() -> Iterator[tuple[str, str]]:
    """(uri, label): MONGODB_URI when set, else a FerretDB on a free loopback port."""
    uri = os.environ.get("MONGODB_URI")
    if uri:
        yield uri, "MONGODB_URI"
        return
    extra = [str(Path.home() / "go")]
    if shutil.which("go"):
        gopath = subprocess.run(["go", "env", "GOPATH"], capture_output=True, text=True)
        extra.insert(0, gopath.stdout.strip())
    os.environ["PATH"] += "".join(f"{os.pathsep}{p}/bin" for p in extra)
    binary = ferretdb_binary()
    if binary is None:
        sys.exit("bench: no MONGODB_URI and no ferretdb binary: run `make ferretdb` first")
    server = FerretDB(binary)
    try:
        server.start()
        yield server.uri, "FerretDB (SQLite)"
    finally:
        server.close()


def wait_ready(base: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    """Poll /readyz until it answers 200 (the server is up and the site is loaded)."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/readyz", timeout=5) as response:
                if response.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{base}/readyz not ready after {timeout:.0f}s")
        time.sleep(0.2)  # polling a starting server


@contextlib.contextmanager
def gunicorn(uri: str, db: str, env: dict[str, str], log: Path) -> Iterator[tuple[str, int]]:
    """gunicorn (gunicorn.conf.py: threaded workers) with one worker per core on a free loopback
    port; yields (base url, master pid)."""
    port = free_port()
    workers = str(os.cpu_count() or 1)
    command = [str(Path(sys.executable).parent / "gunicorn"), "-c", str(REPO / "gunicorn.conf.py")]
    command += ["-w", workers]
    command += ["-b", f"127.0.0.1:{port}", "--timeout", "120", "bench.app:create_app()"]
    environment = {
        **os.environ,
        "MONGODB_URI": uri,
        "MONGODB_DB": db,
        "CMS_SITE_VERSION_TTL": "1",
        **env,
    }
    with open(log, "ab") as out:
        process = subprocess.Popen(command, cwd=REPO, env=environment, stdout=out, stderr=out)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(base, process)
        yield base, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
