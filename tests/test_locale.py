"""Locale resolution of common content: `_locale`, then Accept-Language, then the default."""

from __future__ import annotations

import time

import pytest

from app.errors import BadRequest, NotFound
from app.locale import resolve_translation
from app.site import SiteModel, Translation


def site_of(*translations: Translation) -> SiteModel:
    return SiteModel(
        version=1,
        generation=None,  # type: ignore[arg-type]  # resolution never reads the store
        node_types={},
        translations={t.locale: t for t in translations},
        settings={},
        share_image=None,
        realms={},
        homes={},
        policy_sources={},
    )


SITE = site_of(
    Translation("en", "English", True, True, None),
    Translation("fr", "Français", False, True, None),
    Translation("de", "Deutsch", False, False, None),
    Translation("nl", "Nederlands", False, True, "nl_BE"),
)


def resolve(locale=None, accept=None, preview=False, site=SITE) -> str:
    translation = resolve_translation(site, locale=locale, accept_language=accept, preview=preview)
    return translation.locale


def test_without_locale_or_header_the_default_translation():
    assert resolve() == "en"
    assert resolve(accept="") == "en"


@pytest.mark.parametrize(
    ("locale", "expected"), [("en", "en"), ("fr", "fr"), ("nl", "nl"), ("nl_BE", "nl")]
)
def test_explicit_locale_or_override_locale(locale, expected):
    assert resolve(locale, accept="fr") == expected


def test_explicit_locale_beats_accept_language():
    assert resolve("en", accept="fr, nl;q=0.9") == "en"


@pytest.mark.parametrize("locale", ["xx", "de", "FR", "fr-CH"])
def test_explicit_locale_without_available_translation_is_404(locale):
    with pytest.raises(NotFound) as error:
        resolve(locale)
    assert error.value.message == f"No translation for locale {locale}"


def test_preview_finds_an_unavailable_translation_but_not_an_unknown_one():
    assert resolve("de", preview=True) == "de"
    with pytest.raises(NotFound, match="^No translation for locale xx$"):
        resolve("xx", preview=True)


@pytest.mark.parametrize(
    "locale",
    ["", "f", "123", "fr--", "fr-", "fr;q=1", "../en", "abcdefghi", "fr-abcdefghi", "fr\n"],
)
def test_malformed_explicit_locale_is_400(locale):
    with pytest.raises(BadRequest) as error:
        resolve(locale)
    assert error.value.message == "_locale is not a valid locale"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("fr", "fr"),
        ("FR", "fr"),
        ("fr-CH", "fr"),
        ("fr-ch, en;q=0.9", "fr"),
        ("nl-BE", "nl"),
        ("en;q=0.5, fr;q=0.9", "fr"),
        ("en;q=0.5,fr;q=0.9", "fr"),
        ("en; q=0.5, fr; q=0.9", "fr"),
        ("nl, fr", "nl"),
        ("fr, nl", "fr"),
        ("nl;q=0.8, fr;q=0.8", "nl"),
        ("*", "en"),
        ("*;q=0.9, fr", "fr"),
        ("*;q=0.9, fr;q=0.1", "en"),
        ("de", "en"),
        ("de, fr;q=0.1", "fr"),
        ("es, it", "en"),
        ("fr;q=0", "en"),
        ("fr;q=0, nl;q=0.001", "nl"),
        ("fr;q=abc, nl;q=0.2", "nl"),
        ("fr;q=1.5, nl;q=0.2", "nl"),
        ("fr;level=1, nl;q=0.2", "nl"),
        ("f r, 1fr, fr_FR, nl;q=0.2", "nl"),
        (",,;, nl", "nl"),
    ],
)
def test_best_accept_language_match(header, expected):
    assert resolve(accept=header) == expected


def test_accept_language_sees_unavailable_translations_in_preview():
    assert resolve(accept="de, fr;q=0.5", preview=True) == "de"


def test_exact_range_before_primary_subtag():
    site = site_of(
        Translation("en", "English", True, True, None),
        Translation("pt", "Português", False, True, None),
        Translation("pt-BR", "Português do Brasil", False, True, None),
    )
    assert resolve(accept="pt-BR", site=site) == "pt-BR"
    assert resolve(accept="pt-br", site=site) == "pt-BR"
    assert resolve(accept="pt-PT", site=site) == "pt"
    assert resolve(accept="pt", site=site) == "pt"


def test_star_does_not_pick_an_unavailable_default():
    site = site_of(
        Translation("en", "English", True, False, None),
        Translation("fr", "Français", False, True, None),
    )
    assert resolve(accept="*, fr;q=0.5", site=site) == "fr"


def test_only_the_first_32_entries_are_read():
    assert resolve(accept=", ".join(["xx"] * 31 + ["fr"])) == "fr"
    assert resolve(accept=", ".join(["xx"] * 32 + ["fr"])) == "en"


def test_a_huge_header_costs_nothing():
    header = "xx;q=0.1, " * 200_000 + "fr"
    started = time.perf_counter()
    assert resolve(accept=header) == "en"
    assert time.perf_counter() - started < 0.5
