"""Archives: `/api/<plural>/archives` (publishable types) and `/api/nodes_sources/archives`.

The collection's filters and restrictions, then the publication dates grouped by year and month,
newest first (Roadiz's ArchiveExtension). Unpaginated: `hydra:totalItems` is the number of years;
the collection's `order[...]`, `page` and `itemsPerPage` are checked, then change nothing. With a
parameter besides `page` and `pagination`, `hydra:view` is the request's IRI
(hydra.unpaginated_view).
"""

from __future__ import annotations

import hashlib
from typing import Any

from werkzeug.datastructures import MultiDict

from app.errors import NotFound
from app.listing import hydra, listings
from app.listing.filters import sort_of
from app.listing.params import Params, pagination
from app.listing.plain import site_scope
from app.listing.sources import (
    ACCEPTED,
    ITEMS_PER_PAGE,
    MAX_ITEMS_PER_PAGE,
    ORDERS,
    VARIABLES,
    build_query,
    route,
)
from app.naming import collection_iri
from app.query_plan import month_of, month_span, order_index
from app.reply import Reply
from app.request_context import RequestContext

ARCHIVES = "archives"


def _genid(path: str, args: MultiDict, year: int) -> str:
    """Archives have no id: a stable blank-node IRI per request and year (stable ETags)."""
    seed = f"{path}?{sorted(args.items(multi=True))}#{year}".encode()
    return f"/.well-known/genid/{hashlib.sha256(seed).hexdigest()[:20]}"


def _months(context: RequestContext, query: dict[str, Any], index: str) -> list[str]:
    """`YYYY-MM` of the months having a matching source, newest first: from the calendar for a
    plain request (one lookup, app.listing.listings.months), else from the dates of every match
    along `index`."""
    generation, visibility = context.site.generation, context.visibility
    scope = site_scope(query, context.site)
    if scope is not None:
        return listings.months(generation, scope, visibility)
    dates = generation.publication_dates(query, visibility, index=index)
    return list(dict.fromkeys(month_of(moment) for moment in dates))


def archives(context: RequestContext, plural: str, path: str, args: MultiDict) -> Reply:
    missing = NotFound(f'No resource "{collection_iri(plural)}/{ARCHIVES}"')
    try:
        route_ = route(context, plural)
    except NotFound:
        raise missing from None
    if route_.node_type is not None and not route_.node_type.publishable:
        raise missing
    params = Params(args)
    params.check_known(ACCEPTED, path, sparse=False)  # an Archive has no fields to leave out
    query = build_query(context, params, route_)
    # the collection's order and pages change nothing here (newest first, unpaginated), but a
    # malformed one is the 400 it is on the collection
    sort_of(params, list(ORDERS))
    pagination(params, default=ITEMS_PER_PAGE, maximum=MAX_ITEMS_PER_PAGE)
    index = order_index(query, "published_at")
    years: dict[int, dict[str, str]] = {}
    for month in _months(context, query, index):
        years.setdefault(int(month[:4]), {})[month] = month_span(month)[0].isoformat()
    members: list[dict[str, Any]] = [
        {"@id": _genid(path, args, year), "@type": "Archive", "year": year, "months": months}
        for year, months in years.items()
    ]
    view = hydra.unpaginated_view(path, args)
    search = hydra.search(path, VARIABLES)
    body = hydra.collection("/api/contexts/Archive", path, members, len(members), view, search)
    locale = args.get("_locale") or context.site.default_translation.locale
    return Reply(body, locale)
