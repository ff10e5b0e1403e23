"""The response cache: serialised public responses of this process, per site generation.

A key names the generation, so loading a site invalidates everything at once; an entry expires
at the next scheduled publication; preview and credential-dependent responses are never stored.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from flask import Request

# Requests carrying any of these are never answered from, nor stored in, the cache.
PRIVATE_PARAMETERS = ("_preview", "password")


# Bytes counted for an entry besides its key, payload and headers (the objects holding them).
ENTRY_OVERHEAD = 512


@dataclass(frozen=True)
class CachedResponse:
    payload: bytes
    headers: dict[str, str]
    s_maxage: int


def entry_size(key: tuple, value: CachedResponse) -> int:
    """What an entry costs the cache: its key, payload and headers, plus ENTRY_OVERHEAD."""
    key_bytes = sum(len(part) if isinstance(part, str | bytes) else 8 for part in key)
    header_bytes = sum(len(name) + len(text) for name, text in value.headers.items())
    return key_bytes + len(value.payload) + header_bytes + ENTRY_OVERHEAD


class ResponseCache:
    """An LRU of CachedResponse by key, bounded by entries and by bytes; thread-safe.

    The byte bound counts keys too: requests with long junk query strings cannot grow a worker
    beyond it. An entry larger than the whole bound is not stored."""

    def __init__(self, max_entries: int, enabled: bool = True, max_bytes: int = 64 * 2**20):
        self.enabled = enabled and max_entries > 0 and max_bytes > 0
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[tuple, tuple[datetime | None, CachedResponse, int]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def key(self, request: Request, version: int, answer: tuple) -> tuple | None:
        """The key of a public request, or None for one that must not be cached.

        `answer`: the normalised values the response depends on besides the path (the resolved
        translation, the canonical query...), as the route computes them; never the raw query
        string, so parameters that change nothing (cache-busters) share one entry."""
        if not self.enabled or "Authorization" in request.headers:
            return None
        if any(name in request.args for name in PRIVATE_PARAMETERS):
            return None
        return (version, request.path, answer)

    def get(self, key: tuple | None, now: datetime) -> CachedResponse | None:
        if key is None:
            return None
        with self._lock:
            found = self._entries.get(key)
            if found is None or (found[0] is not None and found[0] <= now):
                self._drop(key)
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found[1]

    def put(self, key: tuple, value: CachedResponse, expires: datetime | None) -> None:
        size = entry_size(key, value)
        with self._lock:
            self._drop(key)
            if size > self.max_bytes:
                return
            self._entries[key] = (expires, value, size)
            self.bytes += size
            while len(self._entries) > self.max_entries or self.bytes > self.max_bytes:
                _, (_, _, evicted) = self._entries.popitem(last=False)
                self.bytes -= evicted

    def _drop(self, key: tuple) -> None:
        found = self._entries.pop(key, None)
        if found is not None:
            self.bytes -= found[2]

    def __len__(self) -> int:
        return len(self._entries)
