"""Realms: which protect a node, and whether a request's credentials are granted by them."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import bcrypt

from app.auth import roles_of
from app.context import RequestContext
from app.errors import Unauthorized
from app.fixture.rules import bcrypt_problem
from app.header_values import quoted_string
from app.publication import is_shown

log = logging.getLogger(__name__)

DENIED = "WebResponse was denied by Realm authorization, check Www-Authenticate header"
SCHEMES = {"plain_password": "PasswordQuery", "bearer_role": "Bearer", "bearer_user": "Bearer"}
# bcrypt reads at most 72 bytes; a longer password can match no stored hash.
MAX_PASSWORD_BYTES = 72


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
        return bcrypt.checkpw(password, stored.encode())
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


def _not_granted(source: dict[str, Any], context: RequestContext, behaviour: str) -> bool:
    realms = context.site.realms
    return any(
        realms[i]["behaviour"] == behaviour and not granted(realms[i], context)
        for i in source["node"]["realm_ids"]
    )


def denied(source: dict[str, Any], context: RequestContext) -> bool:
    """A `deny` realm the request is not granted covers the source."""
    return _not_granted(source, context, "deny")


def withheld(source: dict[str, Any], context: RequestContext) -> bool:
    """Whether a source listed inside another (block, feed entry, menu entry, reference,
    breadcrumb) is withheld from this request: denied, or a block (non-reachable) that a
    `hide_blocks` realm hides from it."""
    if denied(source, context):
        return True
    return not source["reachable"] and _not_granted(source, context, "hide_blocks")


def denied_realm_ids(context: RequestContext, *, check_passwords: bool = False) -> list[int]:
    """`deny` realms this request is not granted (queries exclude what they cover).

    A password is checked only against realms covering the response (its item, or a source
    listed in it): a page's walkers and feeds count a password realm as granted only when that
    check was already made for this request, so a `password=` on a page no password realm
    covers costs no bcrypt run and leaves the response public. A collection, which may list any
    node of its type, checks them (`check_passwords`)."""
    return [
        r["_id"]
        for r in context.site.realms.values()
        if r["behaviour"] == "deny"
        and not (
            context.grants.get(r["_id"], False)
            if r["type"] == "plain_password" and not check_passwords
            else granted(r, context)
        )
    ]


def may_see(source: dict[str, Any], context: RequestContext, *, listed: bool = False) -> bool:
    """Whether this request may see a source at all: published (or previewed), in a translation
    it may see, not denied by a realm. `listed` adds the rule of lists (visible nodes only)."""
    translation = context.site.translations.get(source["locale"])
    if translation is None or not (translation.available or context.visibility.preview):
        return False
    return is_shown(source, context.visibility, listed=listed) and not denied(source, context)
