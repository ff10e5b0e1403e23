"""The Hydra parts of a collection: hydra:view (pages) and hydra:search (IriTemplate)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from werkzeug.datastructures import MultiDict

from app.listing.filters import Variable
from app.listing.params import Page, normalise

PAGE_PARAMETERS = ("page", "pagination")


def _iri(path: str, args: MultiDict, page: int | None) -> str:
    """As API Platform's IriHelper: names re-encoded RFC 3986 with list indices collapsed to `[]`,
    `page` moved last. `args` come without secret parameters (app.api.redact.public_args)."""
    pairs = [(normalise(k), v) for k, v in args.items(multi=True) if k != "page"]
    if page is not None:
        pairs.append(("page", str(page)))
    query = "&".join(f"{quote(k, safe='.')}={quote(v, safe='')}" for k, v in pairs)
    return f"{path}?{query}" if query else path


def view(path: str, args: MultiDict, page: Page, total: int) -> dict[str, Any] | None:
    """hydra:view: absent with one page and no parameter besides the page ones."""
    last = max(1, -(-total // page.size)) if page.size else 1
    others = [k for k in args if k not in PAGE_PARAMETERS]
    if last <= 1 and page.number == 1 and not others:
        return None
    found: dict[str, Any] = {
        "@id": _iri(path, args, page.number),
        "@type": "hydra:PartialCollectionView",
    }
    if last <= 1 and page.number == 1:
        return found
    found["hydra:first"] = _iri(path, args, 1)
    found["hydra:last"] = _iri(path, args, last)
    if page.number > 1:
        found["hydra:previous"] = _iri(path, args, page.number - 1)
    if page.number < last:
        found["hydra:next"] = _iri(path, args, page.number + 1)
    return found


def search(path: str, variables: list[Variable]) -> dict[str, Any]:
    """hydra:search: an IriTemplate with one mapping per declared variable."""
    names = [v.name for v in variables]
    return {
        "@type": "hydra:IriTemplate",
        "hydra:template": f"{path}{{?{','.join(names)}}}",
        "hydra:variableRepresentation": "BasicRepresentation",
        "hydra:mapping": [
            {
                "@type": "IriTemplateMapping",
                "variable": v.name,
                "property": v.property,
                "required": False,
            }
            for v in variables
        ],
    }


def collection(
    context_iri: str,
    path: str,
    members: list[dict[str, Any]],
    total: int,
    view_: dict[str, Any] | None,
    search_: dict[str, Any] | None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "@context": context_iri,
        "@id": path,
        "@type": "hydra:Collection",
        "hydra:totalItems": total,
        "hydra:member": members,
    }
    if view_ is not None:
        body["hydra:view"] = view_
    if search_ is not None:
        body["hydra:search"] = search_
    return body
