"""The request's path and query as the service repeats them (in @id, hydra links, logs, cache
keys): without secrets, and in a canonical form where a response depends on them."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import quote, unquote_plus, urlencode

from flask import request
from werkzeug.datastructures import MultiDict

SECRET_PARAMETERS = frozenset({"password"})


def is_secret(name: str) -> bool:
    """Whether a parameter carries a secret: `password`, in any case, and any list or map form
    of it PHP would read as one (`password[]`, `password[0]`), which the service refuses but
    still logs."""
    return name.partition("[")[0].lower() in SECRET_PARAMETERS


def public_query() -> str:
    """The raw query string, in its order and encoding, without secret parameters (logs)."""
    raw = request.query_string.decode("latin-1")
    kept = [
        pair
        for pair in raw.split("&")
        if pair and not is_secret(unquote_plus(pair.partition("=")[0]))
    ]
    return "&".join(kept)


def public_full_path() -> str:
    query = public_query()
    return f"{request.path}?{query}" if query else request.path


def canonical_pairs(args: MultiDict) -> tuple[tuple[str, str], ...]:
    """Every parameter but the secrets the service reads (`password`: app.auth), sorted by name:
    two spellings of one query are one key and one IRI. `order[...]` parameters keep their
    relative order (the first sorts first) after the others. A name only like a secret's
    (`Password`, `PASSWORD[]`) stays: a route that refuses unknown parameters refuses it (a
    collection would else answer as if no password were given), and it is a key of its own; the
    logs redact it still (`is_secret`)."""
    pairs = [(k, v) for k, v in args.items(multi=True) if k not in SECRET_PARAMETERS]
    return tuple(
        sorted(
            pairs,
            key=lambda kv: (
                kv[0].startswith("order["),
                "" if kv[0].startswith("order[") else kv[0],
            ),
        )
    )


def iri(path: str, pairs: Iterable[tuple[str, str]]) -> str:
    """`path` with a query of `pairs` (slashes left readable: ?path=/about)."""
    query = urlencode(list(pairs), safe="/", quote_via=quote)
    return f"{path}?{query}" if query else path
