"""Realms: which protect a node, and whether a request's credentials are granted by them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bcrypt

from app.context import RequestContext
from app.errors import Unauthorized

DENIED = "WebResponse was denied by Realm authorization, check Www-Authenticate header"
SCHEMES = {"plain_password": "PasswordQuery", "bearer_role": "Bearer", "bearer_user": "Bearer"}


def realm_view(realm: dict[str, Any]) -> dict[str, Any]:
    return {
        "@type": "Realm",
        "@id": f"/api/realms/{realm['_id']}",
        "name": realm["name"],
        "behaviour": realm["behaviour"],
        "type": realm["type"],
        "authenticationScheme": SCHEMES[realm["type"]],
    }


def granted(realm: dict[str, Any], context: RequestContext) -> bool:
    """Whether the request's credentials satisfy `realm` (constant-time password check)."""
    kind = realm["type"]
    if kind == "plain_password":
        if context.password is None or not realm.get("password_hash"):
            return False
        context.used_credentials = True
        return bcrypt.checkpw(context.password.encode(), realm["password_hash"].encode())
    claims = context.claims
    if claims is None:
        return False
    context.used_credentials = True
    if kind == "bearer_role":
        return realm.get("role") in (claims.get("roles") or [])
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
        if realm["behaviour"] == "none":
            continue
        if granted(realm, context):
            continue
        if realm["behaviour"] == "deny":
            scheme = SCHEMES[realm["type"]]
            raise Unauthorized(DENIED, {"WWW-Authenticate": f'{scheme} realm="{realm["name"]}"'})
        hiding = True
    return RealmDecision([realm_view(r) for r in realms], hiding)


def withheld(source: dict[str, Any], context: RequestContext) -> bool:
    """Whether a listed source (block, feed entry, menu entry) is withheld from this request:
    a `deny` realm it is not granted protects it."""
    for realm_id in source["node"]["realm_ids"]:
        realm = context.site.realms[realm_id]
        if realm["behaviour"] == "deny" and not granted(realm, context):
            return True
    return False
