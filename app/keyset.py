"""Keyset cursors of collection pages: the sort values of a page's last member, as a url token.

A page requested with `cursor=<token>` starts after the member the token names instead of skipping
`(page - 1) * itemsPerPage` members, so a deep page costs what the first costs (the index scan
starts at the cursor; see Generation.sources_page and docs/performance.md). `cursor=` (empty)
asks for the first page in cursor mode. The token is base64url of the JSON `[field, value, _id]`;
it is opaque to clients, which only follow `hydra:next`.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from datetime import datetime
from typing import Any

from app.errors import BadRequest
from app.publication import stored_moment

TOKEN_PATTERN = r"^[A-Za-z0-9_-]{0,200}$"
TOKEN = re.compile(TOKEN_PATTERN)
MESSAGE = "cursor must be empty or the cursor of a hydra:next link of this collection's order"
COMBINED_MESSAGE = "page and cursor cannot be combined: follow hydra:next"


def encode(field: str, member: dict[str, Any]) -> str:
    """The cursor after `member` in an order by `field` (then `_id`)."""
    value = member["node"]["position"] if field == "node.position" else member.get(field)
    if isinstance(value, datetime):
        value = value.isoformat()
    raw = json.dumps([field, value, member["_id"]], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(token: str, field: str) -> tuple[Any, int] | None:
    """(sort value, _id) after which the page starts; None for the empty token (first page)."""
    if not TOKEN.fullmatch(token):  # `$` alone would let a final newline through
        raise BadRequest(MESSAGE)
    if token == "":
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        named, value, last_id = json.loads(raw)
        if named != field or type(last_id) is not int:
            raise ValueError(named)
        if field == "published_at" and value is not None:
            value = datetime.fromisoformat(value)
            if value.tzinfo is None or stored_moment(value) != value:  # never issued
                raise ValueError(value)
            value = stored_moment(value)
        elif field == "node.position" and not _position(value):  # positions may be decimals
            raise ValueError(value)
        elif field == "_id" and value != last_id:  # the default order: the value is the id
            raise ValueError(value)
    except (ValueError, TypeError, OverflowError, binascii.Error, UnicodeDecodeError):
        raise BadRequest(MESSAGE) from None
    return value, last_id


def _position(value: Any) -> bool:
    """Whether a cursor's value is a node position: an integer or a finite decimal (the fixture
    allows both), never a boolean, NaN or an infinity."""
    return type(value) is int or (type(value) is float and math.isfinite(value))
