"""The project's extension points, resolved from configuration (see docs/extending.md)."""

from __future__ import annotations

import importlib
from typing import Any

from flask import Flask

from app.web_response import WebResponseTransformer
from walkers.definitions import DefinitionRegistry


def import_dotted(path: str) -> Any:
    """`package.module:attribute` or `package.module.attribute`."""
    module_name, sep, attribute = path.partition(":")
    if not sep:
        module_name, _, attribute = path.rpartition(".")
    return getattr(importlib.import_module(module_name), attribute)


def walker_definitions(app: Flask) -> DefinitionRegistry:
    registry = DefinitionRegistry()
    for module in app.config["WALKER_DEFINITION_MODULES"]:
        importlib.import_module(module).register(registry)
    return registry


def web_response_transformer(app: Flask) -> Any:
    """The built-in transformer, wrapped by the configured project transformer if any."""
    transformer: Any = WebResponseTransformer()
    dotted = app.config["WEB_RESPONSE_TRANSFORMER"]
    if dotted:
        transformer = import_dotted(dotted)(transformer)
    return transformer
