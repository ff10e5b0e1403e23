"""marshmallow schemas of the responses."""

from __future__ import annotations

import functools

from marshmallow import Schema


@functools.cache
def shared(schema_class: type[Schema]) -> Schema:
    """One instance of a response schema class per process. Instantiating a schema per request
    binds and copies every field and builds every nested schema again (a fifth of a cold home
    request); the response schemas keep no per-request state (no marshmallow `context`, and `dump`
    stores nothing on the instance), so one instance serves every request and thread."""
    return schema_class()
