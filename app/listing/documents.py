"""Documents as Roadiz shows them at /api/documents (§7): the summary's fields, nulls omitted
(`imageAverageColor` too), neither `filename` nor `id` (node-source documents only), never
`private`."""

from __future__ import annotations

from typing import Any

from app.naming import document_iri
from app.summaries import document_summary


def document_view(document: dict[str, Any], locale: str) -> dict[str, Any]:
    """A document of /api/documents in `locale` (alt text); null fields are omitted."""
    summary = document_summary(document | {"id": document["_id"]}, locale)
    fields = {
        "@id": document_iri(summary["id"]),
        "@type": "Document",
        "relativePath": summary["relative_path"],
        "type": summary["type"],
        "processable": summary["processable"],
        "mimeType": summary["mime_type"],
        "imageWidth": summary["image_width"],
        "imageHeight": summary["image_height"],
        "mediaDuration": summary["media_duration"],
        "imageAverageColor": summary["image_average_color"],
        "alt": summary["alt"],
        "folders": summary["folders"],
    }
    return {key: value for key, value in fields.items() if value is not None}
