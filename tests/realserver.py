"""The real server of the test tier: TEST_MONGODB_URI, else a FerretDB started here."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pymongo


def ferretdb_binary() -> str | None:
    found = shutil.which("ferretdb")
    if found:
        return found
    gopath = os.environ.get("GOPATH") or str(Path.home() / "go")
    candidate = Path(gopath) / "bin" / "ferretdb"
    return str(candidate) if candidate.is_file() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_ping(uri: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    client = pymongo.MongoClient(uri, serverSelectionTimeoutMS=500)
    try:
        while True:
            try:
                client.admin.command("ping")
                return
            except pymongo.errors.PyMongoError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)  # polling a starting server, not timing a test
    finally:
        client.close()


class FerretDB:
    """A FerretDB process on a free loopback port, SQLite backend in a temporary directory."""

    def __init__(self, binary: str):
        self.binary = binary
        self.port = free_port()
        self.data = tempfile.mkdtemp(prefix="ferretdb-")
        self.uri = f"mongodb://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen | None = None

    def start(self) -> FerretDB:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--handler=sqlite",
                # A test database is thrown away: no fsync on each commit (FerretDB's default
                # is WAL with SQLite's synchronous FULL). It speeds up the site loads; the
                # queries and their plans are the same (docs/testing.md).
                f"--sqlite-url=file:{self.data}/?_pragma=synchronous(off)",
                f"--listen-addr=127.0.0.1:{self.port}",
                "--telemetry=disable",
                "--debug-addr=-",
                "--log-level=error",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_ping(self.uri)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.data, ignore_errors=True)
