"""Summaries of documents and tags in one translation: what sources embed at load (app.fixture)
and what resources show at read time (app.resources, app.head). Pure functions of a document."""

from __future__ import annotations

from typing import Any


def document_summary(document: dict[str, Any], locale: str) -> dict[str, Any]:
    """A document as sources embed it: its display fields, alt text in `locale`."""
    return {
        "id": document["id"],
        "relative_path": document["relative_path"],
        "filename": document["filename"],
        "mime_type": document.get("mime_type"),
        "alt": (document.get("alt") or {}).get(locale),
        "image_width": document.get("image_width"),
        "image_height": document.get("image_height"),
    }


def tag_summary(tag: dict[str, Any], locale: str, default_locale: str) -> dict[str, Any]:
    names = tag.get("names") or {}
    return {
        "id": tag["id"],
        "slug": tag["slug"],
        "name": names.get(locale) or names.get(default_locale) or tag["slug"],
        "visible": tag.get("visible", True),
        "parent": tag.get("parent"),
    }
