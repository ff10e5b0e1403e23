"""Summaries of documents and tags in one translation: what sources embed at load (app.fixture)
and what resources show at read time (app.resources, app.head). Pure functions of a document."""

from __future__ import annotations

from collections.abc import Mapping
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


def document_summary(document: dict[str, Any], locale: str) -> dict[str, Any]:
    """A document in `locale` as sources embed it and every resource shows it (Roadiz's fields,
    roadiz-read-surface.md §7): display fields, the type and processability its mime type gives,
    alt text (None when empty: a decorative image). The fixture format has no duration, average
    colour or folders: 0, None and []."""
    return {
        "id": document["id"],
        "relative_path": document["relative_path"],
        "filename": document["filename"],
        "type": document_type(document.get("mime_type")),
        "processable": processable(document),
        "mime_type": document.get("mime_type"),
        "alt": (document.get("alt") or {}).get(locale) or None,
        "image_width": document.get("image_width"),
        "image_height": document.get("image_height"),
        "media_duration": 0,
        "image_average_color": None,
        "folders": [],
    }


# Tag.parent is nested up to two ancestor levels (Roadiz's MaxDepth 2, roadiz-read-surface.md §7).
TAG_PARENT_DEPTH = 2


def tag_summary(
    tag: dict[str, Any],
    locale: str,
    default_locale: str,
    tags: Mapping[int, dict[str, Any]] | None = None,
    *,
    parents: int = 0,
) -> dict[str, Any]:
    """A tag in `locale` (else the default translation's name, else its slug), with `parents`
    ancestor levels nested from `tags` (by id) as `parent`; None beyond them or at a root."""
    names = tag.get("names") or {}
    parent = (tags or {}).get(tag.get("parent")) if parents > 0 else None
    return {
        "id": tag["id"],
        "slug": tag["slug"],
        "name": names.get(locale) or names.get(default_locale) or tag["slug"],
        "visible": tag.get("visible", True),
        "parent": None
        if parent is None
        else tag_summary(parent, locale, default_locale, tags, parents=parents - 1),
    }
