"""The content-delivery API. `create_app` is the one factory (see app.factory)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def create_app(config: Mapping[str, Any] | None = None):
    """Build the Flask app (imported lazily so that `import app.x` never builds anything)."""
    from app.factory import create_app as factory

    return factory(config)
