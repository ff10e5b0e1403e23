"""The application the benchmark serves: the service's own factory, plus the static floor route
(bench/floor.py). Production (`app:create_app()`) never registers it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from app.factory import create_app as create_service_app
from bench import floor


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = create_service_app(config)
    app.register_blueprint(floor.blp)
    return app
