"""What one request brings to the domain: the site, its visibility and its credentials."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.publication import Visibility
from app.site import SiteModel

if TYPE_CHECKING:
    from schemas.items import SchemaRegistry
    from walkers.definitions import DefinitionRegistry


@dataclass
class RequestContext:
    site: SiteModel
    visibility: Visibility
    schemas: SchemaRegistry
    definitions: DefinitionRegistry
    #: The request's @id: its path and non-secret query (app.api.redact.public_full_path), or the
    #: route's own IRI when it names one (app.api.caching: web_response_by_path's drops the rest).
    request_iri: str
    password: str | None = None
    claims: dict[str, Any] | None = None
    #: Set when the response depended on credentials (it must then be Cache-Control: private).
    used_credentials: bool = field(default=False)
    #: Realm id -> granted, decided once per request (app.realms.granted).
    grants: dict[int, bool] = field(default_factory=dict)
