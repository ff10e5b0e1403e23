"""The bcrypt hash rule of realm passwords: checked when a site is loaded (app.fixture) and
before a request's password is compared (app.realms)."""

from __future__ import annotations

import re
from functools import lru_cache

import bcrypt

BCRYPT_HASH = re.compile(r"\$2[aby]\$(?P<cost>[0-9][0-9])\$(?P<rest>[./A-Za-z0-9]{53})")
# bcrypt costs a realm hash may have: below 4 bcrypt refuses it, above 14 one check pins a core
# for seconds (a password request would cost the service what it costs an attacker to send it).
BCRYPT_COSTS = range(4, 15)


@lru_cache(maxsize=256)
def bcrypt_problem(text: str) -> str | None:
    """Why text is not a bcrypt hash a realm may use, or None: the format, a cost in
    BCRYPT_COSTS, and a salt and digest bcrypt can read (checked at cost 4, in a millisecond)."""
    found = BCRYPT_HASH.fullmatch(text)
    if found is None:
        return "password must be a bcrypt hash, not plain text"
    if int(found["cost"]) not in BCRYPT_COSTS:
        low, high = BCRYPT_COSTS[0], BCRYPT_COSTS[-1]
        return f"bcrypt cost {found['cost']} is outside {low} to {high}"
    try:
        bcrypt.checkpw(b"", f"{text[:4]}04${found['rest']}".encode())
    except ValueError:
        return "password is not a bcrypt hash bcrypt can read (invalid salt)"
    return None
