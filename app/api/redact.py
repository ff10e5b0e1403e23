"""The request's path and query as the service repeats them (in @id, logs): without secrets."""

from __future__ import annotations

from urllib.parse import unquote_plus

from flask import request
from werkzeug.datastructures import MultiDict

SECRET_PARAMETERS = frozenset({"password"})


def public_query() -> str:
    """The raw query string, in its order and encoding, without secret parameters."""
    raw = request.query_string.decode("latin-1")
    kept = [
        pair
        for pair in raw.split("&")
        if pair and unquote_plus(pair.partition("=")[0]) not in SECRET_PARAMETERS
    ]
    return "&".join(kept)


def public_args() -> MultiDict:
    """The parsed query arguments without secret parameters (what the domain may repeat)."""
    return MultiDict(
        [(k, v) for k, v in request.args.items(multi=True) if k not in SECRET_PARAMETERS]
    )


def public_full_path() -> str:
    query = public_query()
    return f"{request.path}?{query}" if query else request.path
