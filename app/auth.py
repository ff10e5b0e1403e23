"""Credentials of a request (bearer JWT, realm password) and the preview switch."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import click
import jwt
from flask import Request, current_app
from flask.cli import with_appcontext

from app.config import DEFAULTS, ConfigError
from app.errors import BadRequest, Forbidden, Unauthorized

ALGORITHM = "HS256"
PREVIEW_ROLE = "ROLE_BACKEND_USER"
PREVIEW_ON = frozenset({"1", "true", "on", "yes", "y"})
PREVIEW_OFF = frozenset({"", "0", "false", "off", "no", "n"})
# The longest lifetime (seconds) a token may claim: exp - iat, or exp - now without iat.
DEFAULT_MAX_LIFETIME = DEFAULTS["JWT_MAX_LIFETIME"]
TIME_CLAIMS = ("exp", "iat", "nbf")


@dataclass(frozen=True)
class Credentials:
    password: str | None
    claims: dict[str, Any] | None


def decode_token(
    token: str, secret: str | None, max_lifetime: float = DEFAULT_MAX_LIFETIME
) -> dict[str, Any] | None:
    """Claims of a valid HS256 token, else None: `exp` required, `exp`, `iat` and `nbf` numbers
    (not strings or booleans), nbf honoured, and a lifetime of at most `max_lifetime` seconds."""
    if not secret:
        return None
    try:
        claims = jwt.decode(token, secret, algorithms=[ALGORITHM], options={"require": ["exp"]})
    except jwt.PyJWTError:
        return None
    for name in TIME_CLAIMS:
        value = claims.get(name)
        if name in claims and (isinstance(value, bool) or not isinstance(value, int | float)):
            return None
    start = claims["iat"] if "iat" in claims else datetime.now(UTC).timestamp()
    if claims["exp"] - start > max_lifetime:
        return None
    return claims


def roles_of(claims: dict[str, Any]) -> list[str]:
    """The `roles` claim when it is a list of strings, else none (never a substring match)."""
    roles = claims.get("roles")
    if not isinstance(roles, list):
        return []
    return [role for role in roles if isinstance(role, str)]


def mint_token(secret: str, sub: str, roles: list[str], ttl: timedelta) -> str:
    now = datetime.now(UTC)
    claims = {"sub": sub, "roles": roles, "iat": now, "nbf": now, "exp": now + ttl}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def request_credentials(
    request: Request, secret: str | None, max_lifetime: float = DEFAULT_MAX_LIFETIME
) -> Credentials:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    password = request.args.get("password")
    claims = None
    if scheme.lower() == "passwordquery" and value:
        password = value
    elif scheme.lower() == "bearer" and value:
        claims = decode_token(value.strip(), secret, max_lifetime)
    return Credentials(password=password, claims=claims)


def wants_preview(request: Request) -> bool:
    value = request.args.get("_preview")
    if value is None:
        return False
    value = value.strip().lower()
    if value in PREVIEW_ON:
        return True
    if value in PREVIEW_OFF:
        return False
    raise BadRequest("_preview must be one of 1, true, on, yes, y (or 0, false, off, no, n)")


def check_preview(credentials: Credentials) -> None:
    """Preview needs a valid bearer token carrying ROLE_BACKEND_USER."""
    if credentials.claims is None:
        raise Unauthorized(
            "Preview mode needs a valid bearer token.", {"WWW-Authenticate": "Bearer"}
        )
    if PREVIEW_ROLE not in roles_of(credentials.claims):
        raise Forbidden("You are not granted to use preview mode.")


MIN_SECRET_BYTES = 32


def check_secret(config: Mapping[str, Any]) -> None:
    """In production the service refuses to start without a strong JWT secret."""
    secret = config.get("JWT_SECRET") or ""
    if config.get("PRODUCTION") and len(secret.encode()) < MIN_SECRET_BYTES:
        raise ConfigError(
            f"JWT_SECRET must be set to at least {MIN_SECRET_BYTES} bytes in production "
            "(CMS_PRODUCTION=true)"
        )


@click.command("token")
@with_appcontext
@click.option("--sub", default="preview@localhost", show_default=True, help="Subject (user).")
@click.option(
    "--role",
    "roles",
    multiple=True,
    default=[PREVIEW_ROLE],
    show_default=True,
    help="A role; repeat for several.",
)
@click.option("--ttl", default=3600, show_default=True, help="Lifetime in seconds.")
def token_command(sub: str, roles: tuple[str, ...], ttl: int) -> None:
    """Mint a bearer token signed with JWT_SECRET (for local preview and realm tests)."""
    secret = current_app.config.get("JWT_SECRET")
    if not secret:
        click.echo("JWT_SECRET is not set: tokens could not be verified.", err=True)
        sys.exit(2)
    click.echo(mint_token(secret, sub, list(roles), timedelta(seconds=ttl)))
