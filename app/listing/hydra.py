"""The Hydra parts of a collection: hydra:view (pages) and hydra:search (IriTemplate)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from werkzeug.datastructures import MultiDict

from app.listing.filters import Variable
from app.listing.params import Page, normalise

PAGE_PARAMETERS = ("page", "pagination")


def _iri(path: str, args: MultiDict, page: int | str | None, name: str = "page") -> str:
    """As API Platform's IriHelper: names re-encoded RFC 3986 with list indices collapsed to `[]`,
    `page` (or `cursor`) moved last. `args` come without secret parameters."""
    pairs = [(normalise(k), v) for k, v in args.items(multi=True) if k not in ("page", "cursor")]
    if page is not None:
        pairs.append((name, str(page)))
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


def unpaginated_view(path: str, args: MultiDict) -> dict[str, Any] | None:
    """hydra:view of an unpaginated collection (archives), as API Platform's
    PartialCollectionViewNormalizer gives it: absent without a parameter besides the page ones,
    else its `@id` (the path and query, `page` dropped) and `@type`."""
    if not [k for k in args if k not in PAGE_PARAMETERS]:
        return None
    return {"@id": _iri(path, args, None), "@type": "hydra:PartialCollectionView"}


def cursor_view(path: str, args: MultiDict, token: str, next_token: str | None) -> dict:
    """The view of a keyset page: itself, the first page and, when there is one, the next."""
    found = {
        "@id": _iri(path, args, token, "cursor"),
        "@type": "hydra:PartialCollectionView",
        "hydra:first": _iri(path, args, "", "cursor"),
    }
    if next_token is not None:
        found["hydra:next"] = _iri(path, args, next_token, "cursor")
    return found


def search(path: str, variables: list[Variable], *, sparse: bool = False) -> dict[str, Any]:
    """hydra:search: an IriTemplate with one mapping per declared variable; `sparse`: and
    `properties[]` (the property filter, app.listing.properties), which maps no property, as API
    Platform's PropertyFilter declares it."""
    mapping = [(v.name, v.property) for v in variables]
    if sparse:
        mapping.append(("properties[]", None))
    return {
        "@type": "hydra:IriTemplate",
        "hydra:template": f"{path}{{?{','.join(name for name, _ in mapping)}}}",
        "hydra:variableRepresentation": "BasicRepresentation",
        "hydra:mapping": [
            {
                "@type": "IriTemplateMapping",
                "variable": name,
                "property": property_,
                "required": False,
            }
            for name, property_ in mapping
        ],
    }


def collection(
    context_iri: str,
    path: str,
    members: list[dict[str, Any]],
    total: int | None,
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
    if total is None:  # keyset pages are not counted
        del body["hydra:totalItems"]
    if view_ is not None:
        body["hydra:view"] = view_
    if search_ is not None:
        body["hydra:search"] = search_
    return body
