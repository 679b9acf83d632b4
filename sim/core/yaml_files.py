"""Reading the user's YAML files (bots, experiments): one line naming file, key, expected, found.

pydantic v2 models do the validation; this module only turns the first problem of a
``ValidationError`` (or a YAML syntax error) into the one-line ``ConfigError`` the CLI prints.
"""
from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ValidationError

from sim.core.engine import ConfigError


def read_yaml_mapping(path: Path, what: str) -> dict:
    """The top-level mapping of a YAML file; ConfigError if missing, unreadable or not a mapping."""
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: {what} file not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: expected a {what} YAML file, found a directory") from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML: {' '.join(str(error).split())}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping of {what} settings, found {type(raw).__name__}")
    return raw


def validation_error_line(path: Path | str, error: ValidationError) -> str:
    """``<file>: key '<a.b>': <what was expected> (found <value>)`` for the first problem."""
    first = error.errors()[0]
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        message = "not a known key"
    key = ".".join(str(part) for part in first["loc"])
    if not key:
        return f"{path}: {message}"
    if first["type"] == "missing":
        return f"{path}: key '{key}': required but missing"
    found = first.get("input")
    found_text = "a mapping" if isinstance(found, dict) else repr(found)
    if len(found_text) > 80:
        found_text = found_text[:77] + "..."
    return f"{path}: key '{key}': {message} (found {found_text})"


def validate(model: type[BaseModel], raw: dict, path: Path | str) -> BaseModel:
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise ConfigError(validation_error_line(path, error)) from None
