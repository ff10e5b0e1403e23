"""JSON encoding of responses (orjson) and the JSON-LD media type."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response

LD_JSON = "application/ld+json"


def dumps(body: Any) -> bytes:
    return orjson.dumps(body)


def json_response(body: Any, status: int = 200, mimetype: str = LD_JSON) -> Response:
    return Response(dumps(body), status=status, mimetype=mimetype)
