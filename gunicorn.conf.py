"""gunicorn settings, read by `make serve` (--config) and by the benchmark and load test
(bench/servers.py).

Threaded workers (gthread): a slow client (a slowloris sending its request byte by byte) holds
one thread, not a whole worker, until `timeout`. Production still belongs behind a buffering
reverse proxy or CDN (docs/security.md).

Metrics in multiprocess mode (docs/operations.md): with PROMETHEUS_MULTIPROC_DIR set, every worker
writes its metric values to files there and /metrics adds them up; the directory is emptied when
gunicorn starts and a dead worker's live gauges are dropped.
"""

import glob
import os
import sys
import uuid
from http import HTTPStatus

from gunicorn import util

worker_class = "gthread"
workers = int(os.environ.get("WORKERS") or os.cpu_count() or 2)
# Threads let a worker serve other requests while one waits for the database. The embedded store
# (no MONGODB_URI) never waits: its requests are pure CPU behind one interpreter lock, and more
# threads only queue for it and migrate between cores (docs/performance-log.md: cold home 24-25 % of
# the static floor's req/s with 8 threads, 26-29 % with 2).
threads = int(os.environ.get("THREADS") or (8 if os.environ.get("MONGODB_URI") else 2))
timeout = 30
keepalive = 5
# Longer than the app's own limit (app/api/hygiene.py MAX_URL_LENGTH, 4096 characters) plus the
# method and version, so that the app answers its problem+json 414 for URLs up to 8,000 bytes;
# a longer request line gets the same problem from gunicorn (write_problem, below).
limit_request_line = 8190
# The access log (off unless --access-logfile is given) shows the path without its query:
# a `password=` parameter is never written to it.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)s'


def on_starting(server):
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:  # before the check below: importing the app opens its metric files there
        os.makedirs(directory, exist_ok=True)
    # A setting the service cannot start with stops gunicorn here, in one line, before any
    # worker would print its traceback and exit (app.factory.check_startup).
    from click import ClickException

    from app.factory import check_startup, settings

    try:
        check_startup(settings())
    except ClickException as error:
        raise SystemExit(f"Error: {error.format_message()}") from None
    if directory:
        # values of a previous run would be added to this one's, and the master's (opened by
        # the import above) are no worker's
        for path in glob.glob(os.path.join(directory, "*.db")):
            os.remove(path)


def post_fork(server, worker):
    """A site the embedded store cannot load (a bad SITE_FIXTURE: only known once a worker loads
    it) stops gunicorn with the fixture's problems in a few lines, without the worker's
    traceback: exit code 4 is gunicorn's "App failed to load", after which the master stops
    instead of starting workers again."""
    from click import ClickException

    load = worker.load_wsgi

    def load_or_stop():
        try:
            load()
        except ClickException as error:
            print(f"Error: {error.format_message()}", file=sys.stderr, flush=True)
            sys.exit(4)

    worker.load_wsgi = load_or_stop
    util.write_error = write_problem  # the worker's own error pages, below


def write_problem(sock, status: int, reason: str, mesg: str) -> None:
    """gunicorn's answer to a request it refuses before the app sees it (a request line over
    limit_request_line, too many or too large headers, malformed HTTP), as the service's
    problem+json rather than gunicorn's HTML page. The detail never repeats the request; the
    request id is a new one (the request's own was not read), and a browser may read the problem
    when every origin is allowed (with an allow-list, the Origin it would be checked against was
    not read either)."""
    from app.api.hygiene import URL_TOO_LONG
    from app.api.problems import problem
    from app.factory import settings

    details = {400: "The request is not valid HTTP/1.1.", 414: URL_TOO_LONG}
    body = problem(status, details.get(status) or HTTPStatus(status).phrase).get_data()
    everyone = settings()["CORS_ORIGINS"] in ("*", ["*"])
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        "Content-Type: application/problem+json; charset=utf-8\r\nCache-Control: no-store\r\n"
        f"X-Content-Type-Options: nosniff\r\nX-Request-Id: {uuid.uuid4().hex}\r\n"
        + ("Access-Control-Allow-Origin: *\r\n" if everyone else "")
        + f"Content-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
