"""Reading the user's YAML files (games, bots, experiments): one line naming file, key, expected, found.

Every YAML file courtsim reads goes through :func:`load_yaml_file`: UTF-8 text only (a binary or
UTF-16 or UTF-32 file is named as such), duplicate keys rejected (PyYAML would let the last one
win silently), nesting too deep for the parser refused instead of a RecursionError, and aliases
that expand to more values than any courtsim file holds (a "billion laughs" file) refused
instead of a validation that never ends. pydantic v2
models do the validation; this module turns the first problem of a ``ValidationError`` (or a
YAML syntax error) into the one-line ``ConfigError`` the CLI prints.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml
from pydantic import BaseModel, ValidationError

from sim.core.engine import ConfigError

# More values than any courtsim file holds by far (the largest shipped game file has ~2,000),
# counted with every alias expanded, as validation would walk them.
MAX_EXPANDED_VALUES = 1_000_000


class DuplicateKeyError(yaml.YAMLError):
    """A mapping names the same key twice."""


# libyaml's parser when PyYAML has it (wheels do): the same documents, ~10x faster, which a
# study reading thousands of run.yaml files notices
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# and libyaml's emitter for files that are read back as data (never for text that is hashed:
# the two emitters need not agree on every character)
SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump_yaml(value, **options) -> str:
    """``yaml.safe_dump`` through libyaml's emitter when PyYAML has it (~10x faster on a
    run.yaml of many chunks)."""
    return yaml.dump(value, Dumper=SafeDumper, **options)


MERGE_TAG = "tag:yaml.org,2002:merge"


class UniqueKeyLoader(SafeLoader):
    """PyYAML's safe loader, refusing a mapping that repeats a key (naming it and its line).

    Only the keys written in the mapping itself count: a merge key (``<<: *base``) brings in keys
    that the mapping's own keys may override (``{<<: *base, markers: 6}``), as YAML defines it.
    So each mapping's keys are checked as written, before PyYAML merges (flattens) them in; a
    mapping merged into another is flattened first, so it is checked there, once."""

    def flatten_mapping(self, node):
        if not getattr(node, "courtsim_keys_checked", False):
            self.check_keys_written_once(node)
            node.courtsim_keys_checked = True
        super().flatten_mapping(node)

    def check_keys_written_once(self, node) -> None:
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == MERGE_TAG:
                continue  # the merged mappings' keys: checked where they are written
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                first_line = seen.get(key)
            except TypeError:
                continue  # an unhashable key: construct_mapping names that problem itself
            if first_line is None:
                seen[key] = line
                continue
            where = f"twice on line {line}" if first_line == line else f"lines {first_line} and {line}"
            raise DuplicateKeyError(f"key {shown(repr(key), 80)} appears twice ({where}); expected each key once")


def decode_text(path: Path, data: bytes) -> str:
    """The file's bytes as UTF-8 text; ConfigError naming what the file is instead."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise ConfigError(f"{path}: expected UTF-8 text, found UTF-32 (save the file as UTF-8)")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or looks_like_utf16(data):
        raise ConfigError(f"{path}: expected UTF-8 text, found UTF-16 (save the file as UTF-8)")
    if b"\x00" in data:
        raise ConfigError(f"{path}: expected a UTF-8 YAML text file, found binary data (a NUL byte)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: expected UTF-8 text, found byte 0x{data[error.start]:02x} at offset "
                          f"{error.start} (save the file as UTF-8)") from None


def looks_like_utf16(data: bytes) -> bool:
    """UTF-16 without a byte-order mark: ASCII text with a NUL byte after (or before) each
    character, so every other byte of the first few is zero."""
    start = data[:64]
    return len(start) >= 4 and (start[1::2].count(0) == len(start[1::2]) or start[0::2].count(0) == len(start[0::2]))


class RecursiveAlias(Exception):
    """A value holds itself through an alias (``a: &a [*a]``): no validation could end."""


def expanded_size(value, sizes: dict | None = None) -> int:
    """How many values ``value`` holds with every alias expanded (linear in the file: a value
    shared through aliases is counted once per use but walked once)."""
    sizes = {} if sizes is None else sizes
    if not isinstance(value, (dict, list)):
        return 1
    if id(value) in sizes and sizes[id(value)] is None:
        raise RecursiveAlias
    if id(value) not in sizes:
        sizes[id(value)] = None  # being counted
        children = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        sizes[id(value)] = 1 + sum(expanded_size(child, sizes) for child in children)
    return sizes[id(value)]


def load_yaml_file(path: Path | str, what: str):
    """The parsed content of a YAML file (any type); ConfigError with one line for a missing,
    unreadable, non-UTF-8, malformed, duplicate-key or too deeply nested file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{path}: {what} file not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: expected a {what} YAML file, found a directory") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the {what} file ({error.strerror or type(error).__name__})") from None
    text = decode_text(path, data)
    try:
        content = yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
        size = expanded_size(content)
    except yaml.YAMLError as error:
        if "maximum nesting depth" in str(error):   # libyaml's own limit (the Python parser recurses)
            raise ConfigError(f"{path}: expected {what} settings, found YAML nested too deeply to read") from None
        raise ConfigError(f"{path}: not valid YAML: {shown(str(error), 2 * SHOWN_LIMIT)}") from None
    except RecursionError:
        raise ConfigError(f"{path}: expected {what} settings, found YAML nested too deeply to read") from None
    except RecursiveAlias:
        raise ConfigError(f"{path}: expected {what} settings, found a value that holds itself through an "
                          "alias (*name inside &name)") from None
    if size > MAX_EXPANDED_VALUES:
        raise ConfigError(f"{path}: expected {what} settings of at most {MAX_EXPANDED_VALUES:,} values, "
                          f"found {size:,} once its aliases (*name) are expanded")
    return content


def looks_like_path(name_or_path: str) -> bool:
    """A command-line name that means a file (a bot, a variant) rather than a shipped name."""
    return "/" in name_or_path or name_or_path.endswith((".yaml", ".yml"))


def read_yaml_mapping(path: Path, what: str) -> dict:
    """The top-level mapping of a YAML file; ConfigError if missing, unreadable or not a mapping."""
    raw = load_yaml_file(path, what)
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping of {what} settings, found {type(raw).__name__}")
    return raw


# An error line shows at most this much of any one value the user wrote (a 300,000-item list
# in a file is named by its first characters, not printed whole).
SHOWN_LIMIT = 200
FOUND = re.compile(r"\bfound ")


def shown(text: str, limit: int = SHOWN_LIMIT) -> str:
    """``text`` on one line, cut to ``limit`` characters (``...`` marks the cut)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def cut_found_values(message: str, limit: int = SHOWN_LIMIT) -> str:
    """A problem's wording with the value it found (``... (found [1, 1, ...])`` or ``found X``
    at the end) cut to ``limit`` characters, and the whole wording to a few times that."""
    message = " ".join(message.split())
    match = FOUND.search(message)
    if match is not None and len(message) - match.end() > limit:
        value = message[match.end():]
        closing = ")" if value.endswith(")") and message[:match.start()].endswith("(") else ""
        message = message[:match.end()] + shown(value[:len(value) - len(closing)], limit) + closing
    return shown(message, 2 * limit)


def found_text(found) -> str:
    """A found value as an error line shows it: a mapping named as such (never the file's content),
    anything else its repr cut to ~80 characters."""
    text = "a mapping" if isinstance(found, dict) else repr(found)
    return text[:77] + "..." if len(text) > 80 else text


def key_error_line(path: Path | str, key: str, expected: str, found) -> str:
    """``<file>: key '<a.b>': <what was expected> (found <value>)``."""
    return f"{path}: key '{shown(key, 120)}': {cut_found_values(expected)} (found {found_text(found)})"


def validation_error_line(path: Path | str, error: ValidationError) -> str:
    """``<file>: key '<a.b>': <what was expected> (found <value>)`` for the first problem; a value
    the message itself quotes (a model's own check: ``... (found [...])``) is cut to
    ``SHOWN_LIMIT`` characters, so the line stays one short line whatever the file holds."""
    first = error.errors()[0]
    message = cut_found_values(first["msg"].removeprefix("Value error, "))
    if first["type"] == "extra_forbidden":
        message = "not a known key"
    # a mapping's key that fails is located as (..., key, "[key]"): named as the key itself
    key = shown(".".join(str(part) for part in first["loc"] if part != "[key]"), 120)
    if not key:
        return f"{path}: {message}"
    if first["type"] == "missing":
        return f"{path}: key '{key}': required but missing"
    return key_error_line(path, key, message, first.get("input"))


def validate(model: type[BaseModel], raw: dict, path: Path | str) -> BaseModel:
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise ConfigError(validation_error_line(path, error)) from None
