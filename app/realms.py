"""Realms: whether a request's credentials are granted by them, and the decision for a WebResponse
item (401, hidden blocks). What realms withhold from lists is decided in app.audience."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bcrypt

from app.auth import roles_of
from app.errors import Unauthorized
from app.naming import realm_iri
from app.request_context import RequestContext

DENIED = "WebResponse was denied by Realm authorization, check Www-Authenticate header"
SCHEMES = {"plain_password": "PasswordQuery", "bearer_role": "Bearer", "bearer_user": "Bearer"}
# bcrypt reads at most 72 bytes; a longer password can match no stored hash.
MAX_PASSWORD_BYTES = 72


def realm_view(realm: dict[str, Any]) -> dict[str, Any]:
    return {
        "@type": "Realm",
        "@id": realm_iri(realm["_id"]),
        "name": realm["name"],
        "behaviour": realm["behaviour"],
        "type": realm["type"],
        "authenticationScheme": SCHEMES[realm["type"]],
    }


def granted(realm: dict[str, Any], context: RequestContext) -> bool:
    """Whether the request's credentials satisfy `realm`; decided once per realm and request
    (a bcrypt check costs milliseconds on purpose)."""
    found = context.grants.get(realm["_id"])
    if found is None:
        found = context.grants[realm["_id"]] = _grants(realm, context)
    return found


def _grants(realm: dict[str, Any], context: RequestContext) -> bool:
    kind = realm["type"]
    if kind == "plain_password":
        password = (context.password or "").encode()
        if not password or not realm.get("password_hash") or len(password) > MAX_PASSWORD_BYTES:
            return False
        context.used_credentials = True
        return bcrypt.checkpw(password, realm["password_hash"].encode())
    claims = context.claims
    if claims is None:
        return False
    context.used_credentials = True
    if kind == "bearer_role":
        return realm.get("role") in roles_of(claims)
    return claims.get("sub") in (realm.get("users") or [])


@dataclass(frozen=True)
class RealmDecision:
    realms: list[dict[str, Any]]
    hiding_blocks: bool


def decide(source: dict[str, Any], context: RequestContext) -> RealmDecision:
    """Realms of a source; raises Unauthorized for a `deny` realm the request is not granted."""
    realms = [context.site.realms[i] for i in source["node"]["realm_ids"]]
    hiding = False
    for realm in realms:
        if realm["behaviour"] == "none" or granted(realm, context):
            continue
        if realm["behaviour"] == "deny":
            scheme = SCHEMES[realm["type"]]
            raise Unauthorized(DENIED, {"WWW-Authenticate": f'{scheme} realm="{realm["name"]}"'})
        hiding = True
    return RealmDecision([realm_view(r) for r in realms], hiding)
