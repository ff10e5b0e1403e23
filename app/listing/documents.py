"""Documents as Roadiz shows them at /api/documents (§7): type and processable derived from the
mime type, nulls omitted, never `private`."""

from __future__ import annotations

from typing import Any

PROCESSABLE = frozenset({"image/png", "image/jpeg", "image/gif", "image/tiff", "image/webp",
                         "image/avif", "image/heic", "image/heif"})  # fmt: skip
# (mime type prefix or exact type, Roadiz document type); the first match wins.
TYPES: tuple[tuple[str, str], ...] = (
    ("image/", "image"),
    ("video/", "video"),
    ("audio/", "audio"),
    ("application/pdf", "pdf"),
    ("application/msword", "word"),
    ("application/vnd.openxmlformats-officedocument.wordprocessingml", "word"),
    ("application/vnd.ms-excel", "excel"),
    ("application/vnd.openxmlformats-officedocument.spreadsheetml", "excel"),
    ("application/vnd.ms-powerpoint", "powerpoint"),
    ("application/vnd.openxmlformats-officedocument.presentationml", "powerpoint"),
    ("application/epub+zip", "epub"),
    ("application/zip", "archive"),
    ("application/x-tar", "archive"),
    ("application/gzip", "archive"),
    ("application/x-7z-compressed", "archive"),
    ("application/x-rar", "archive"),
    ("font/", "font"),
    ("application/font", "font"),
    ("application/x-font", "font"),
    ("model/", "3d"),
    ("application/javascript", "code"),
    ("application/json", "code"),
    ("text/x-", "code"),
    ("text/", "text"),
)


def document_type(mime_type: str | None) -> str:
    for prefix, kind in TYPES:
        if mime_type and mime_type.startswith(prefix):
            return kind
    return "unknown"


def processable(document: dict[str, Any]) -> bool:
    return not document.get("private") and document.get("mime_type") in PROCESSABLE


def document_view(document: dict[str, Any], locale: str) -> dict[str, Any]:
    """A document of /api/documents in `locale` (alt text); null fields are omitted."""
    alt = (document.get("alt") or {}).get(locale)
    fields = {
        "@id": f"/api/documents/{document['_id']}",
        "@type": "Document",
        "relativePath": document["relative_path"],
        "type": document_type(document.get("mime_type")),
        "processable": processable(document),
        "mimeType": document.get("mime_type"),
        "imageWidth": document.get("image_width"),
        "imageHeight": document.get("image_height"),
        "mediaDuration": 0,  # unknown: the fixture format has no duration
        "alt": alt or None,  # empty: decorative, omitted
        "folders": [],  # the fixture format has no folders
    }
    return {key: value for key, value in fields.items() if value is not None}
