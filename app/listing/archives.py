"""Archives: `/api/<plural>/archives` (publishable types) and `/api/nodes_sources/archives`.

The collection's filters and restrictions, then the publication dates grouped by year and month,
newest first (Roadiz's ArchiveExtension). Unpaginated: `hydra:totalItems` is the number of years.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from werkzeug.datastructures import MultiDict

from app.errors import NotFound
from app.listing import hydra
from app.listing.params import Params
from app.listing.sources import ACCEPTED, INDEX, VARIABLES, build_query, route
from app.naming import collection_iri
from app.reply import Reply
from app.request_context import RequestContext

ARCHIVES = "archives"


def _genid(path: str, args: MultiDict, year: int) -> str:
    """Archives have no id: a stable blank-node IRI per request and year (stable ETags)."""
    seed = f"{path}?{sorted(args.items(multi=True))}#{year}".encode()
    return f"/.well-known/genid/{hashlib.sha256(seed).hexdigest()[:20]}"


def _month_start(moment: datetime) -> str:
    return datetime(moment.year, moment.month, 1, tzinfo=UTC).isoformat()


def archives(context: RequestContext, plural: str, path: str, args: MultiDict) -> Reply:
    route_ = route(context, plural)
    if route_.node_type is not None and not route_.node_type.publishable:
        raise NotFound(f'No resource "{collection_iri(plural)}/{ARCHIVES}"')
    params = Params(args)
    params.check_known(ACCEPTED, path)
    query = build_query(context, params, route_)
    index = INDEX["type" in query]["published_at"]
    dates = context.site.generation.publication_dates(query, context.visibility, index=index)
    years: dict[int, dict[str, str]] = {}
    for moment in dates:
        moment = moment.astimezone(UTC)
        months = years.setdefault(moment.year, {})
        months.setdefault(f"{moment.year:04d}-{moment.month:02d}", _month_start(moment))
    members: list[dict[str, Any]] = [
        {"@id": _genid(path, args, year), "@type": "Archive", "year": year, "months": months}
        for year, months in years.items()
    ]
    body = hydra.collection("/api/contexts/Archive", path, members, len(members), None,
                            hydra.search(path, VARIABLES))  # fmt: skip
    locale = args.get("_locale") or context.site.default_translation.locale
    return Reply(body, locale)
