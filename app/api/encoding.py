"""JSON encoding of responses (orjson) and the JSON-LD media type."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response

LD_JSON = "application/ld+json"


def dumps(body: Any) -> bytes:
    return orjson.dumps(body)


def content_type(mimetype: str) -> str:
    """The Content-Type of a JSON body: UTF-8, said as Roadiz says it (`; charset=utf-8`)."""
    return f"{mimetype}; charset=utf-8"


def json_response(body: Any, status: int = 200, mimetype: str = LD_JSON) -> Response:
    return Response(dumps(body), status=status, content_type=content_type(mimetype))
