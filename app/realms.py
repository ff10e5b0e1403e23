"""Realms: whether a request's credentials are granted by them, and the decision for a WebResponse
item (401, hidden blocks). What realms withhold from lists is decided in app.audience."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import bcrypt

from app.auth import roles_of
from app.errors import Unauthorized
from app.fixture.rules import bcrypt_problem
from app.header_values import quoted_string
from app.naming import realm_iri
from app.request_context import RequestContext

log = logging.getLogger(__name__)

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
        stored = realm.get("password_hash")
        if not password or not stored or len(password) > MAX_PASSWORD_BYTES:
            return False
        context.used_credentials = True
        # The loader refuses such hashes; a database written otherwise still gets no 500 and no
        # bcrypt run of unbounded cost.
        if problem := bcrypt_problem(stored):
            log.warning("realm %s: %s; its password never matches", realm["_id"], problem)
            return False
        try:
            return bcrypt.checkpw(password, stored.encode())
        except ValueError:  # unreadable after all: never a 500
            return False
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
            challenge = f'{scheme} realm="{quoted_string(realm["name"])}"'
            raise Unauthorized(DENIED, {"WWW-Authenticate": challenge})
        hiding = True
    return RealmDecision([realm_view(r) for r in realms], hiding)
