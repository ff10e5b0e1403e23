"""marshmallow schemas of the responses."""

from __future__ import annotations

import functools

from marshmallow import Schema


@functools.cache
def shared(schema_class: type[Schema]) -> Schema:
    """One instance of a schema class per process (responses, and the query parameters that
    app.api.arguments.QueryParser loads). Instantiating a schema per request binds and copies
    every field and builds every nested schema again (a fifth of a cold home request); the schemas
    keep no per-request state (no marshmallow `context`; `dump` and `load` store nothing on the
    instance), so one instance serves every request and thread."""
    return schema_class()
