"""gunicorn settings, read from the repository root by `gunicorn` (make serve, make load).

Metrics in multiprocess mode (docs/operations.md): with PROMETHEUS_MULTIPROC_DIR set, every worker
writes its metric values to files there and /metrics adds them up; the directory is emptied when
gunicorn starts and a dead worker's live gauges are dropped.
"""

import glob
import os


def on_starting(server):
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        os.makedirs(directory, exist_ok=True)
        for path in glob.glob(os.path.join(directory, "*.db")):
            os.remove(path)  # values of a previous run would be added to this one's


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
