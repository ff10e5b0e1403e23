"""The live site's model: node types, serialization groups, translations, settings, realms.

Built once per generation and shared by every request; a worker notices a new generation within
SITE_VERSION_TTL seconds, so loading a site needs no restart.
"""

from __future__ import annotations

import bisect
import functools
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from flask import current_app, g

from app import metrics
from app.errors import ServiceUnavailable
from app.naming import camel, slug
from app.store import Generation, Store, unreadable_layout

# Serialization groups of every `<type>_get_by_path` operation (seed.md); a type's own
# `nodes_sources_<group>` entries go before nodes_sources_lien.
OPERATION_GROUPS_HEAD = (
    "nodes_sources",
    "node_listing",
    "urls",
    "tag_base",
    "tag_parent",
    "translation_base",
    "document_display",
    "document_thumbnails",
    "document_display_sources",
)
OPERATION_GROUPS_TAIL = ("nodes_sources_lien", "web_response", "walker", "children")

COMMON_CONTENT_GROUPS = (
    "get",
    "common_content",
    "web_response",
    "walker",
    "walker_level",
    "children",
    "children_count",
    "nodes_sources_base",
    "nodes_sources_default",
    "urls",
    "blocks_urls",
    "tag_base",
    "translation_base",
    "document_display",
    "document_folders",
)


LINK_FIELDS = ("link_internal_reference", "link_external_url")


@dataclass(frozen=True)
class FieldDef:
    name: str
    type: str
    groups: frozenset[str]
    group: str | None
    values: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The field's name in responses."""
        return camel(self.name)


def field_groups(field: dict[str, Any]) -> frozenset[str]:
    """Groups of a node type field (behaviour.md, Serialization groups)."""
    if field.get("serialization_groups") is not None:
        return frozenset(field["serialization_groups"])
    group = field.get("group")
    return frozenset(
        {"nodes_sources", f"nodes_sources_{slug(group)}" if group else "nodes_sources_default"}
    )


@dataclass(frozen=True)
class NodeType:
    name: str
    reachable: bool
    plural: str
    default_ttl: int
    fields: tuple[FieldDef, ...]
    publishable: bool = False

    def is_link(self) -> bool:
        """A menu link: not reachable itself, its `url` is where it points (see
        schemas.items.link_url)."""
        return not self.reachable and any(f.name in LINK_FIELDS for f in self.fields)

    @property
    def operation(self) -> str:
        return f"{self.name.lower()}_get_by_path"

    @functools.cached_property
    def reference_fields(self) -> tuple[str, ...]:
        """Names of the fields that list other nodes' sources (`nodes` fields)."""
        return tuple(f.name for f in self.fields if f.type == "nodes")

    def operation_groups(self) -> tuple[str, ...]:
        own = []
        for f in self.fields:
            if f.group:
                name = f"nodes_sources_{slug(f.group)}"
                if name not in own and name not in OPERATION_GROUPS_HEAD + OPERATION_GROUPS_TAIL:
                    own.append(name)
        return (*OPERATION_GROUPS_HEAD, *own, *OPERATION_GROUPS_TAIL)

    def resource_groups(self, *, tag_parent: bool = False) -> frozenset[str]:
        """The groups of its sources at their own `@id`, in collections and in search results:
        the operation's, without `tag_parent` unless asked (roadiz-read-surface.md §7: a tag's
        parent is nested in the WebResponse, `/api/nodes_sources` and the tag item only)."""
        groups = frozenset(self.operation_groups())
        return groups if tag_parent else groups - {"tag_parent"}

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> NodeType:
        fields = tuple(
            FieldDef(
                name=f["name"],
                type=f["type"],
                groups=field_groups(f),
                group=f.get("group"),
                values=tuple(f.get("values") or ()),
            )
            for f in doc["fields"]
            if f["type"] != "children_nodes"
        )
        return cls(doc["_id"], doc["reachable"], doc["plural"], doc["default_ttl"], fields,
                   bool(doc.get("publishable")))  # fmt: skip


@dataclass(frozen=True)
class Translation:
    locale: str
    name: str
    default: bool
    available: bool
    override_locale: str | None
    id: int = 0  # the IRI id (/api/translations/<id>)

    def matches(self, locale: str) -> bool:
        return locale in (self.locale, self.override_locale)


@dataclass
class SiteModel:
    version: int
    generation: Generation
    node_types: dict[str, NodeType]
    translations: dict[str, Translation]
    settings: dict[str, Any]
    share_image: dict[str, Any] | None
    realms: dict[int, dict[str, Any]]
    homes: dict[str, dict[str, Any]]
    # Sources of the nodes named privacy / legal, per locale, in that order of preference.
    policy_sources: dict[str, list[dict[str, Any]]]
    # The stored plural of every node type, (name, plural) pairs: the IRIs of sources use it.
    plurals: tuple[tuple[str, str], ...] = ()
    # Tag ids by slug (collection filters take slugs; sources store ids).
    tag_ids: dict[str, int] = field(default_factory=dict)
    # Every tag, in id order (a small collection, read whole: /api/tags filters it in memory).
    tags: list[dict[str, Any]] = field(default_factory=list)
    # Parents whose children have calendars and listings of their own (query_plan.PARENT_LISTED).
    listed_parents: frozenset[int] = frozenset()
    # How many tags the largest combinations of tags with calendars and listings have (1: none,
    # 2: pairs, 3: triples too, 4...; query_plan.TAG_COMBINATIONS_MAX), with calendars only (at
    # least as many), and the most tags a source carries (None: unknown;
    # app/listing/tag_conditions.py; store.TagCombinations).
    tag_combinations: int = 1
    counted_combinations: int = 1
    most_tags: int | None = None
    # The most entries a listing's chunk 0 holds (None: not recorded): a page starting within it
    # passes no chunk (app/listing/walk.py, `passes`).
    listing_head: int | None = None
    # How many entries each other chunk of a listing holds but the last (None: not recorded): a
    # span's month with fewer sources than a few chunks hold is not dense (app/listing/totals.py).
    listing_chunk: int | None = None
    # How many title keys a chunk holds (app/listing/titles.py); None: a generation written
    # before them, whose partial matches go to the index.
    title_key_chunk: int | None = None
    # Future published_at values, sorted: public responses change by themselves at these moments.
    publication_times: list[datetime] = field(default_factory=list)
    cache: dict[Any, Any] = field(default_factory=dict)
    # When the generation was loaded (the live pointer's loaded_at): /readyz, metrics.
    loaded_at: datetime | None = None

    @property
    def default_translation(self) -> Translation:
        return next(t for t in self.translations.values() if t.default)

    def translation(self, locale: str) -> Translation | None:
        """The translation of a locale or override locale."""
        return next((t for t in self.translations.values() if t.matches(locale)), None)

    def next_publication(self, now: datetime) -> datetime | None:
        """The first moment after `now` at which some source becomes published, if any."""
        index = bisect.bisect_right(self.publication_times, now)
        return self.publication_times[index] if index < len(self.publication_times) else None

    def reachable_types(self) -> list[NodeType]:
        return [t for t in self.node_types.values() if t.reachable]

    @classmethod
    def load(cls, generation: Generation) -> SiteModel:
        settings = {s["_id"]: s for s in generation.all("settings")}
        tags = generation.all("tags")
        share = settings.get("share_image", {}).get("document")
        policy: dict[str, list[dict[str, Any]]] = {}
        for source in sorted(
            generation.sources_by_node_name(["privacy", "legal"]),
            key=lambda s: s["node"]["node_name"] != "privacy",
        ):
            policy.setdefault(source["locale"], []).append(source)
        node_types = {d["_id"]: NodeType.from_document(d) for d in generation.all("node_types")}
        combinations = generation.tag_combinations()
        return cls(
            version=generation.version,
            generation=generation,
            node_types=node_types,
            translations={
                d["_id"]: Translation(
                    d["_id"],
                    d["name"],
                    d["default"],
                    d["available"],
                    d["override_locale"],
                    d.get("id", 0),
                )
                for d in generation.all("translations")
            },
            settings={key: s["value"] for key, s in settings.items()},
            share_image=share,
            realms={r["_id"]: r for r in generation.all("realms")},
            homes={h["locale"]: h for h in generation.homes()},
            policy_sources=policy,
            plurals=tuple((name, t.plural) for name, t in node_types.items()),
            tag_ids={t["slug"]: t["_id"] for t in tags},
            tags=tags,
            listed_parents=generation.listed_parents(),
            tag_combinations=combinations.largest,
            counted_combinations=combinations.counted,
            most_tags=combinations.most,
            listing_head=combinations.head,
            listing_chunk=combinations.chunk,
            title_key_chunk=generation.title_key_chunk(),
            publication_times=generation.publication_times_after(datetime.now(UTC)),
        )


class SiteCache:
    """The live SiteModel of one process, refreshed when the live generation changes."""

    def __init__(self, store: Store, ttl: float):
        self.store = store
        self.ttl = ttl
        self._model: SiteModel | None = None
        self._checked = 0.0
        self._lock = threading.Lock()

    def current(self) -> SiteModel:
        now = time.monotonic()
        model = self._model
        if model is not None and now - self._checked < self.ttl:
            return model
        live = self.store.live()
        if live is None:
            raise ServiceUnavailable("No site is loaded: run `make seed`.")
        if (unreadable := unreadable_layout(live)) is not None:
            raise ServiceUnavailable(
                f"The live site cannot be served: {unreadable}. Load the site again with this "
                "version (`make seed`)."
            )
        with self._lock:
            if self._model is None or self._model.version != live["version"]:
                if missing := self.store.missing_collections(live["version"]):
                    raise ServiceUnavailable(
                        f"The live site cannot be served: generation v{live['version']} lacks "
                        f"{len(missing)} of its collections ({', '.join(missing)}). Load the "
                        "site again (`make seed`) or make the previous generation live "
                        "(`make rollback`)."
                    )
                self._model = SiteModel.load(self.store.generation(live["version"]))
                self._model.loaded_at = live.get("loaded_at")
                metrics.site_model_built(self._model.version, self._model.loaded_at)
            self._checked = now
            return self._model


def current_site() -> SiteModel:
    site = current_app.extensions["cms.site"].current()
    g.generation = site.version  # the access log's `generation` (app.api.observe)
    return site
