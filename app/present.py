"""Per-request presentation of stored sources: what a request may see of their embedded parts."""

from __future__ import annotations

from typing import Any

from app.context import RequestContext
from app.publication import is_shown
from app.realms import withheld


def present(source: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    """`source` without the references (`nodes` fields) this request may not see: unpublished
    ones, and ones a realm withholds from it (app.realms.withheld)."""
    node_type = context.site.node_types[source["type"]]
    reference_fields = [f.name for f in node_type.fields if f.type == "nodes"]
    if not reference_fields:
        return source
    fields = dict(source["fields"])
    for name in reference_fields:
        fields[name] = [
            r for r in fields[name] if is_shown(r, context.visibility) and not withheld(r, context)
        ]
    return {**source, "fields": fields}


def link_url(source: dict[str, Any]) -> str | None:
    """A menu link's target: url of its first internal reference, else its external url."""
    fields = source["fields"]
    for reference in fields.get("link_internal_reference") or []:
        if reference.get("url"):
            return reference["url"]
    return fields.get("link_external_url")
