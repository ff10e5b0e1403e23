"""The benchmark's static floor: a pre-serialised JSON body of a requested size, no database.

Registered only by the benchmark's application (bench/app.py), so production never serves it.
"""

from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, Response, request

from app.api.encoding import LD_JSON, dumps

blp = Blueprint("floor", __name__)
MAX_BYTES = 1 << 20


@lru_cache(maxsize=16)
def body_of(size: int) -> bytes:
    """A valid JSON document of exactly `size` bytes (at least 12)."""
    skeleton = dumps({"floor": ""})
    return dumps({"floor": "x" * max(0, size - len(skeleton))})


@blp.route("/bench/floor")
def floor() -> Response:
    size = min(max(request.args.get("bytes", 4096, type=int), 12), MAX_BYTES)
    return Response(body_of(size), mimetype=LD_JSON)
