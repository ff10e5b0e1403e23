"""Headers of successful responses: caching (ETag, Cache-Control, Cache-Tags), Vary, languages."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import orjson
from flask import Response, current_app, request

from app import negotiation
from app.context import RequestContext
from app.jsonld import LD_JSON, dumps
from app.response_cache import CachedResponse

VARY = "Accept, Accept-Language, Authorization, Origin, Accept-Encoding"
MAX_AGE = 60
STALE_WHILE_REVALIDATE = 3600
MAX_CACHE_TAGS_LENGTH = 4096
# Added when the tags of a response did not all fit: purge it along with any node's tags.
OVERFLOW_TAG = "overflow"
_IRI = re.compile(r"^/api/(?P<kind>[a-z_]+)/(?P<id>\d+)$")
_TAG_PREFIX = {"nodes": "n", "documents": "d", "tags": "t", "realms": "r"}


def cache_tags(body: Any) -> str:
    """Compact tags of every node source (s), node (n), document (d), tag (t) and realm (r) IRI
    in `body`, in order of appearance, bounded to MAX_CACHE_TAGS_LENGTH characters."""
    seen: dict[str, None] = {}

    def visit(value: Any) -> None:
        if isinstance(value, dict):
            iri = value.get("@id")
            if isinstance(iri, str) and (match := _IRI.match(iri)):
                seen.setdefault(_TAG_PREFIX.get(match["kind"], "s") + match["id"])
            for child in value.values():
                visit(child)
        elif isinstance(value, list):
            for child in value:
                visit(child)

    visit(body)
    tags, length = [], 0
    for tag in seen:
        if length + len(tag) + 1 > MAX_CACHE_TAGS_LENGTH - len(OVERFLOW_TAG):
            tags.append(OVERFLOW_TAG)
            break
        tags.append(tag)
        length += len(tag) + 1
    return ",".join(tags)


def alternate_links(source: dict[str, Any] | None, context: RequestContext) -> str | None:
    """`Link` header: the item's other shown translations (hreflang)."""
    if source is None:
        return None
    links = []
    for other in source.get("alternates", []):
        translation = context.site.translations[other["locale"]]
        published = other["published_at"]
        if context.visibility.preview or (
            translation.available and published is not None and published <= context.visibility.now
        ):
            links.append(f'<{other["url"]}>; rel="alternate"; hreflang="{other["locale"]}"')
    return ", ".join(links) or None


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


def send(
    body: Any,
    context: RequestContext,
    *,
    locale: str,
    s_maxage: int,
    source: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    cache_key: tuple | None = None,
) -> Response:
    """A JSON-LD response with every caching header; stored in the response cache when
    `cache_key` is given and the response is public."""
    payload = dumps(body)
    fixed = {
        "ETag": f'"{hashlib.sha256(payload).hexdigest()[:32]}"',
        "Vary": VARY,
        "Content-Language": locale,
        "Cache-Tags": cache_tags(body),
        **(headers or {}),
    }
    if (links := alternate_links(source, context)) is not None:
        fixed["Link"] = links
    if context.visibility.preview:
        fixed["X-Preview"] = "1"
    cached = CachedResponse(payload, fixed, s_maxage)
    if cache_key is not None and not context.visibility.preview and not context.used_credentials:
        expires = context.site.next_publication(context.visibility.now)
        current_app.extensions["cms.response_cache"].put(cache_key, cached, expires)
    return replay(cached, context)


def cached(context: RequestContext, *, language: bool) -> tuple[tuple | None, Response | None]:
    """(key, response): the cache key of this request and its cached response, if any.
    `language`: the response depends on Accept-Language."""
    cache = current_app.extensions["cms.response_cache"]
    key = cache.key(request, context.site.version, language=language)
    hit = cache.get(key, context.visibility.now)
    return key, None if hit is None else replay(hit, context)


def replay(cached: CachedResponse, context: RequestContext) -> Response:
    """The Response of a stored payload, with Cache-Control computed for now; 304 when the
    client's If-None-Match matches. Each media type has its own ETag."""
    mimetype = negotiation.mimetype(request)
    payload = cached.payload
    if mimetype != LD_JSON:
        payload = dumps(negotiation.plain(orjson.loads(payload), context.site.node_types))
    response = Response(payload, mimetype=mimetype)
    for name, value in cached.headers.items():
        response.headers[name] = value
    if mimetype != LD_JSON:
        response.headers["ETag"] = cached.headers["ETag"][:-1] + '-json"'
    response.headers["Cache-Control"] = cache_control(context, cached.s_maxage)
    return response.make_conditional(request)
