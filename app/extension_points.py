"""The project's extension points, resolved from configuration (see docs/extending.md)."""

from __future__ import annotations

import importlib
from typing import Any

from flask import Flask

from app.config import ConfigError, variable_name
from app.web_response import WebResponseTransformer
from walkers.definitions import DefinitionRegistry


def import_dotted(path: str, setting: str) -> Any:
    """`package.module:attribute` or `package.module.attribute`, named by `setting`.

    A module or attribute that is not there is a ConfigError naming the setting (one line at
    start-up); an error raised inside the module, a missing import of its own included, keeps
    its traceback."""
    module_name, sep, attribute = path.partition(":")
    if not sep:
        module_name, _, attribute = path.rpartition(".")
    module = _module(module_name, path, setting)
    if not attribute or not hasattr(module, attribute):
        raise _not_found(setting, path, f"{module_name} has no attribute {attribute!r}")
    return getattr(module, attribute)


def _module(name: str, path: str, setting: str) -> Any:
    if not name or any(not part.isidentifier() for part in name.split(".")):
        raise _not_found(setting, path, "not a dotted module path (package.module:attribute)")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is None or not (name == error.name or name.startswith(error.name + ".")):
            raise  # the module is there, and one of its own imports is not
        raise _not_found(setting, path, f"no module named {error.name!r}") from error


def _not_found(setting: str, path: str, reason: str) -> ConfigError:
    return ConfigError(f"{variable_name(setting)}: cannot import {path!r}: {reason}")


def walker_definitions(app: Flask) -> DefinitionRegistry:
    registry = DefinitionRegistry()
    for module in app.config["WALKER_DEFINITION_MODULES"]:
        _module(module, module, "WALKER_DEFINITION_MODULES").register(registry)
    return registry


def web_response_transformer(app: Flask) -> Any:
    """The built-in transformer, wrapped by the configured project transformer if any."""
    transformer: Any = WebResponseTransformer()
    dotted = app.config["WEB_RESPONSE_TRANSFORMER"]
    if dotted:
        transformer = import_dotted(dotted, "WEB_RESPONSE_TRANSFORMER")(transformer)
    return transformer
