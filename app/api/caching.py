"""Headers of successful responses: caching (ETag, Cache-Control, Cache-Tags), Vary, languages."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, current_app, g, request

from app.api import negotiation
from app.api.conditional import answer_conditionally, strong_etag
from app.api.encoding import LD_JSON, content_type, dumps
from app.api.hygiene import request_context
from app.api.redact import canonical_pairs
from app.api.response_cache import CachedResponse
from app.api.time_budget import context_limit, query_budget
from app.header_values import token, uri_reference
from app.plain_format import plain
from app.reply import Reply, cache_tags, ttl_seconds
from app.request_context import RequestContext

VARY = "Accept, Accept-Language, Authorization, Origin, Accept-Encoding"
MAX_AGE = 60
STALE_WHILE_REVALIDATE = 3600
MAX_CACHE_TAGS_LENGTH = 4096
# Added when the tags of a response did not all fit: purge it along with any node's tags.
OVERFLOW_TAG = "overflow"
# A preview response says so: behaviour.md names X-Preview, Roadiz sends X-Roadiz-Preview
# (roadiz-read-surface.md §1, Access): both, so that either front-end finds its own.
PREVIEW_HEADERS = {"X-Preview": "1", "X-Roadiz-Preview": "1"}


def cache_tags_header(tags: list[str]) -> str:
    """`tags` as a Cache-Tags value, bounded to MAX_CACHE_TAGS_LENGTH characters."""
    kept, length = [], 0
    for tag in tags:
        if length + len(tag) + 1 > MAX_CACHE_TAGS_LENGTH - len(OVERFLOW_TAG):
            kept.append(OVERFLOW_TAG)
            break
        kept.append(tag)
        length += len(tag) + 1
    return ",".join(kept)


def alternate_links(alternates: list[dict[str, Any]]) -> str | None:
    """`Link` header as Roadiz sends it: every shown translation of the item, its own included,
    with the Base64 translation name as `title`, attributes in a fixed order (clients parse them
    by position), joined by "," without space."""
    links = [
        f'<{uri_reference(other["url"])}>; rel="alternate"; hreflang="{token(other["locale"])}"; '
        f'title="{base64.b64encode(other["name"].encode()).decode()}"; type="text/html"'
        for other in alternates
    ]
    return ",".join(links) or None


def cache_control(context: RequestContext, s_maxage: int) -> str:
    """Public responses never outlive the next scheduled publication (a future-dated source)."""
    if context.visibility.preview:
        return "private, no-store"
    max_age = MAX_AGE
    upcoming = context.site.next_publication(context.visibility.now)
    if upcoming is not None:
        remaining = max(0, int((upcoming - context.visibility.now).total_seconds()))
        max_age, s_maxage = min(max_age, remaining), min(s_maxage, remaining)
    if context.used_credentials:
        return f"private, max-age={max_age}"
    return (
        f"public, max-age={max_age}, s-maxage={s_maxage}, "
        f"stale-while-revalidate={STALE_WHILE_REVALIDATE}"
    )


def respond(
    build: Callable[[RequestContext], Reply],
    *,
    answer: tuple | Callable[[RequestContext], tuple] | None = None,
    iri: str | None = None,
) -> Response:
    """Every content view: the response cache for anonymous requests, else `build` the Reply and
    send it.

    `answer`: the normalised values the response depends on (or a function of the request
    context computing them), the cache key besides generation and path; by default every
    parameter in canonical order (app.api.redact.canonical_pairs), so that no parameter is ever
    answered from another's entry. `iri`: the `@id` of the response when it is not the request's
    own path and query (web_response_by_path: its normalised `path` only).

    The request context (the live site pointer and, once per generation, the site model's build)
    comes first, limited as a whole by the connection's timeout (CMS_MONGODB_TIMEOUT_MS); the
    work that answers the request then shares one time budget, CMS_QUERY_TIMEOUT_MS, past which
    the request is a 503 (app/api/time_budget.py). So a slow model build does not eat the first
    request's budget, and neither phase holds a worker past its limit."""
    with context_limit():
        context = request_context()
    with query_budget():
        return _respond(context, build, answer=answer, iri=iri)


def _respond(
    context: RequestContext,
    build: Callable[[RequestContext], Reply],
    *,
    answer: tuple | Callable[[RequestContext], tuple] | None,
    iri: str | None,
) -> Response:
    if iri is not None:
        context.request_iri = iri
    if answer is None:
        answer = canonical_pairs(request.args)
    elif callable(answer):
        answer = answer(context)
    key, hit = cached(context, answer)
    if hit is not None:
        return hit
    return send(build(context), context, cache_key=key)


def storable(reply: Reply, context: RequestContext) -> bool:
    """The never-store decision: realm-protected replies, previews and responses that depended on
    credentials never enter the response cache."""
    return not (reply.protected or context.visibility.preview or context.used_credentials)


def send(reply: Reply, context: RequestContext, *, cache_key: tuple | None = None) -> Response:
    """A JSON-LD response with every caching header; stored in the response cache under
    `cache_key` when the reply is storable."""
    payload = dumps(reply.body)
    ttl = reply.ttl_minutes
    s_maxage = ttl_seconds(ttl) if ttl else int(current_app.config["DEFAULT_S_MAXAGE"])
    fixed = {
        "ETag": strong_etag(payload),
        "Vary": VARY,
        "Content-Language": token(reply.locale),
        "Cache-Tags": cache_tags_header(cache_tags(payload)),
    }
    if reply.content_location:
        fixed["Content-Location"] = uri_reference(reply.content_location)
    if (links := alternate_links(reply.alternates)) is not None:
        fixed["Link"] = links  # then Hydra's documentation link (app.api.hygiene)
    if context.visibility.preview:
        fixed.update(PREVIEW_HEADERS)
    cached = CachedResponse(payload, fixed, s_maxage)
    if cache_key is not None and storable(reply, context):
        expires = context.site.next_publication(context.visibility.now)
        current_app.extensions["cms.response_cache"].put(cache_key, cached, expires)
    return replay(cached, context)


def cached(context: RequestContext, answer: tuple) -> tuple[tuple | None, Response | None]:
    """(key, response): the cache key of this request and its cached response, if any.
    `answer`: the normalised values the response depends on (ResponseCache.key)."""
    cache = current_app.extensions["cms.response_cache"]
    key = cache.key(request, context.site.version, answer)
    hit = cache.get(key, context.visibility.now)
    g.cache = "bypass" if key is None else "miss" if hit is None else "hit"  # the access log
    return key, None if hit is None else replay(hit, context)


def replay(cached: CachedResponse, context: RequestContext) -> Response:
    """The Response of a stored payload, with Cache-Control computed for now; answered
    conditionally (app.api.conditional). Each media type has its own ETag."""
    mimetype = negotiation.mimetype(request)
    payload = cached.payload
    if mimetype != LD_JSON:
        payload = dumps(plain(orjson.loads(payload), context.site.node_types))
    response = Response(payload, content_type=content_type(mimetype))
    for name, value in cached.headers.items():
        response.headers[name] = value
    if mimetype != LD_JSON:
        response.headers["ETag"] = cached.headers["ETag"][:-1] + '-json"'
    response.headers["Cache-Control"] = cache_control(context, cached.s_maxage)
    return answer_conditionally(response)
