"""Locale resolution: the one rule choosing the translation of a request."""

from __future__ import annotations

import re
from collections.abc import Callable

from app.audience import translation_visible
from app.errors import BadRequest, NotFound
from app.naming import LOCALE
from app.site import SiteModel, Translation

LANGUAGE_RANGE = re.compile(r"\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*")
QUALITY = re.compile(r"q=(0(\.[0-9]{0,3})?|1(\.0{0,3})?)", re.IGNORECASE)  # ASCII digits
# Only the first entries are read, so that a huge header costs no more than a normal one.
MAX_ACCEPT_ENTRIES = 32


def resolve_translation(
    site: SiteModel, *, locale: str | None, accept_language: str | None, preview: bool
) -> Translation:
    """`_locale` if given, else the best Accept-Language match, else the default translation.

    Outside preview only available translations count; an explicit `_locale` without one is 404.
    """
    if locale is not None:
        if not LOCALE.fullmatch(locale):
            raise BadRequest("_locale is not a valid locale")
        found = _visible(site, preview, lambda t: t.matches(locale))
        if not found:
            raise NotFound(f"No translation for locale {locale}")
        return found[0]
    if accept_language:
        candidates = _visible(site, preview, lambda t: True)
        for language_range in _preferred(accept_language):
            match = _match(language_range, candidates, site.default_translation)
            if match is not None:
                return match
    return site.default_translation


def _visible(
    site: SiteModel, preview: bool, wanted: Callable[[Translation], bool]
) -> list[Translation]:
    return [
        t
        for t in site.translations.values()
        if translation_visible(t, preview=preview) and wanted(t)
    ]


def _preferred(header: str) -> list[str]:
    """Acceptable language ranges, lower-cased, by quality then header order; malformed entries
    and `q=0` ones are dropped."""
    weighted: list[tuple[float, int, str]] = []
    for index, entry in enumerate(header.split(",", MAX_ACCEPT_ENTRIES)[:MAX_ACCEPT_ENTRIES]):
        language_range, *params = (part.strip() for part in entry.split(";"))
        if not LANGUAGE_RANGE.fullmatch(language_range):
            continue
        quality = 1.0
        if params:
            q = QUALITY.fullmatch(params[0].replace(" ", ""))
            if q is None or len(params) > 1:
                continue
            quality = float(q.group(1))
        if quality > 0:
            weighted.append((-quality, index, language_range.lower()))
    return [language_range for _, _, language_range in sorted(weighted)]


def _normal(locale: str) -> str:
    return locale.replace("_", "-").lower()


def _match(
    language_range: str, candidates: list[Translation], default: Translation
) -> Translation | None:
    """The candidate a range designates: exact match, else its primary subtag; `*` the default."""
    if language_range == "*":
        return default if default in candidates else None
    primary = language_range.split("-")[0]
    for wanted in (language_range, primary):
        for translation in candidates:
            locales = (translation.locale, translation.override_locale)
            if any(code is not None and _normal(code) == wanted for code in locales):
                return translation
    return None
