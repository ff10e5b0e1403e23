"""The head (NodesSourcesHead) of a page or of common content, built for one translation."""

from __future__ import annotations

from typing import Any

from app.audience import may_see, visible_home
from app.naming import head_id
from app.request_context import RequestContext
from app.site import SiteModel
from app.summaries import document_summary

# Head fields read straight from settings, in output order around the computed ones.
ANALYTICS = (
    ("googleAnalytics", "universal_analytics_id"),
    ("googleTagManager", "google_tag_manager_id"),
    ("matomoTagManager", None),  # Roadiz's; the fixture format has no such setting: null
    ("matomoUrl", "matomo_url"),
    ("matomoSiteId", "matomo_site_id"),
)
SOCIAL = (
    ("facebookUrl", "facebook_url"),
    ("instagramUrl", "instagram_url"),
    ("twitterUrl", "twitter_url"),
    ("youtubeUrl", "youtube_url"),
    ("linkedinUrl", "linkedin_url"),
    # spelled as @roadiz/types spells it (roadiz-read-surface.md §7); no such setting: null
    ("tiktokUrl", None),
)
SHARE_IMAGE_FIELDS = ("header_image", "image")


def _share_image(site: SiteModel, locale: str, item: dict[str, Any] | None) -> dict | None:
    if item is not None:
        for name in SHARE_IMAGE_FIELDS:
            documents = item["fields"].get(name)
            if documents:
                return documents[0]
    if site.share_image is not None:
        return document_summary(site.share_image, locale)
    return None


def no_index(item: dict[str, Any] | None) -> bool:
    """The source's noIndex, as stored at load (app.fixture.materialise: a node type field
    `no_index`, else false), which the `noIndex` filter reads too. Common content (no item) is
    indexable."""
    return item is not None and bool(item["no_index"])


def home_url(context: RequestContext, locale: str) -> str | None:
    home = visible_home(context, locale)
    return None if home is None else home["url"]


def policy_url(context: RequestContext, locale: str) -> str | None:
    for source in context.site.policy_sources.get(locale, []):
        if may_see(source, context):
            return source["url"]
    return None


def build_head(
    context: RequestContext, locale: str, item: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Head fields in the order of seed.md (serialised by schemas.shapes.NodesSourcesHeadSchema);
    `item` is None for common content."""
    site = context.site
    settings = site.settings
    site_name = settings.get("site_name") or ""
    seo_description = settings.get("seo_description") or ""
    if item is None:
        meta_title, meta_description = site_name, seo_description
    else:
        meta_title = item.get("meta_title") or f"{item['title']} – {site_name}"
        meta_description = item.get("meta_description") or f"{item['title']}, {seo_description}"
    head: dict[str, Any] = {
        "@type": "NodesSourcesHead",
        "@id": head_id(locale, item["_id"] if item else None),
    }
    head.update({key: settings.get(name) if name else None for key, name in ANALYTICS})
    head["siteName"] = site_name
    head["metaTitle"] = meta_title
    head["metaDescription"] = meta_description
    head["noIndex"] = no_index(item)
    head["policyUrl"] = policy_url(context, locale)
    head["mainColor"] = settings.get("main_color")
    head.update({key: settings.get(name) if name else None for key, name in SOCIAL})
    head["homePageUrl"] = home_url(context, locale)
    head["shareImage"] = _share_image(site, locale, item)
    return head
