"""Rule variants as data: an overlay on a game file, validated by the game file's own models.

A variant file (``configs/variants/<game folder>/<name>.yaml``)::

    name: keep_all_ranks_token_2p
    game: heads-of-state
    description: Keep the 12-point all-ranks token with two players, so ...   # the rationale
    label: Keeping the 12-point token   # optional: the change in a few words, for headlines
    extends: other_variant          # optional: its overrides first, this file's on top
                                    # (a name, or a file relative to this file's folder)
    set:                            # overrides of the game file, by path
      large_tokens.two_players: [16, 12, 8]
      courtiers.Colbert.side_b.value: 4
    rules:                          # rule switch values, as in the game file's rules: block
      some_switch: true

A path walks the game file's YAML one dotted segment at a time: a mapping's key by name (a
number key as written, ``general_supply_at_start.2``), a list item by its ``name`` (exactly, or
a single word of it that no other item has, case-insensitive: ``Colbert``) or its ``number``;
never by position, so a path keeps meaning the same item when the file's order changes. A list
of plain values (an adjacency row, token values) is replaced whole. The overlaid data then goes
through the game's own validation, so a wrong type, a range or a consistency problem
(adjacency no longer symmetric) is refused exactly as in the game file, but named after the
variant file and the path that caused it.

A variant never changes a kernel: it changes the data and switches the kernels are given, and
run.yaml records it (``config.setup.variant``) beside the fully resolved rules.
"""
from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from sim import registry
from sim.core.engine import ConfigError, GameSetup
from sim.core.yaml_files import found_text, looks_like_path, read_yaml_mapping, validate

VARIANTS_DIR = Path(__file__).resolve().parent.parent.parent / "configs" / "variants"
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_\-]*$"
ITEM_KEYS = ("name", "number")        # how a list item is addressed
MAX_EXTENDS = 16                      # a longer chain is a mistake (or a cycle)
KEY_LINE = re.compile(r"^(?P<file>.*?): key '(?P<key>[^']*)': (?P<rest>.*)$")

RuleValue = Union[bool, int, float, str]


class VariantFile(BaseModel):
    """One variant file, as written."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=NAME_PATTERN)
    game: str
    description: str = Field(min_length=1, description="the one-line rationale a designer would give")
    label: Optional[str] = Field(None, min_length=1, max_length=80,
                                 description="a short phrase naming the change, as report headlines use it")
    extends: Optional[str] = None
    set: dict[str, Any] = Field(default_factory=dict)
    rules: dict[str, RuleValue] = Field(default_factory=dict)


@dataclass(frozen=True)
class Override:
    """One ``set:`` entry: the path as written, its value, and the file that set it."""
    path: str
    value: Any
    source: Path


@dataclass(frozen=True)
class Variant:
    """A resolved variant: its own file, the chain it extends, and every override of the chain
    (a later file's value replaces an earlier one's for the same path)."""
    name: str
    game: str
    description: str
    label: str                             # the change in a few words (the name if the file has none)
    path: Path
    chain: tuple[str, ...]                 # names of the variants it extends, nearest first
    overrides: tuple[Override, ...]
    rules: dict[str, RuleValue]
    rule_sources: dict[str, Path]

    def record(self) -> dict:
        """What run.yaml records of it (identity): the name, the chain, every override."""
        return {"name": self.name, "extends": list(self.chain),
                "set": {override.path: override.value for override in self.overrides},
                "rules": dict(self.rules)}

    def apply(self, raw: dict) -> dict:
        """The game file's data with every override applied (a new dict)."""
        edited = copy.deepcopy(raw)
        for override in self.overrides:
            place_value(edited, override)
        return edited


# ----------------------------------------------------------------------------- finding files

def game_folder(game: str) -> str:
    """The game's folder name in configs/variants/, configs/bots/ and configs/sensitivity/, as its
    descriptor declares it (``louis_xiv``); ConfigError for an unknown game."""
    return registry.descriptor(game).folder


def library_names(game: str) -> list[str]:
    folder = VARIANTS_DIR / game_folder(game)
    return sorted(path.stem for path in folder.glob("*.yaml")) if folder.is_dir() else []


def find_variant(name_or_path: str, game: str | None = None, near: Path | None = None) -> Path:
    """A variant file: a path as given (with ``near``, the folder of the file that names it, a
    relative path is taken from that folder, as an ``extends`` means it), else
    ``<near>/<name>.yaml`` (an ``extends`` beside its file), else the library file of ``game``
    (or of the one game that has that name)."""
    if looks_like_path(name_or_path):
        path = Path(name_or_path)
        if near is not None and not path.is_absolute():
            path = near / path
        if not path.is_file():
            relative = f" ({name_or_path} from the folder {near} of the file naming it)" if path != Path(name_or_path) else ""
            raise ConfigError(f"variant file {path} does not exist{relative}")
        return path
    if near is not None and (near / f"{name_or_path}.yaml").is_file():
        return near / f"{name_or_path}.yaml"
    games = [game] if game else registry.known_games()
    candidates = [VARIANTS_DIR / game_folder(name) / f"{name_or_path}.yaml" for name in games]
    found = [path for path in candidates if path.is_file()]
    if len(found) > 1:
        raise ConfigError(f"variant '{name_or_path}' exists for several games; name the game (--game) or the file")
    if not found:
        known = (", ".join(library_names(game)) or "none shipped") if game else "see `courtsim variants list`"
        where = f" of {game}" if game else ""
        raise ConfigError(f"unknown variant '{name_or_path}'{where}: expected a variant name ({known}) "
                          "or a variant YAML file")
    return found[0]


def read_variant_file(path: Path) -> VariantFile:
    return validate(VariantFile, read_yaml_mapping(path, "variant"), path)


def load_variant(name_or_path: str, game: str | None = None, where: str = "--variant") -> Variant:
    """Read a variant and every variant it extends; ConfigError (one line) for an unknown name,
    a bad file, a cycle or a variant of another game."""
    try:
        path = find_variant(name_or_path, game)
    except ConfigError as error:
        raise ConfigError(f"{where}: {error}") from None
    return resolve_files(path, read_variant_file(path), game)


def variant_from_record(record: dict, path: Path, game: str | None = None) -> Variant:
    """A variant given as data, as its file would hold it (a study's cell, planned in memory):
    validated and resolved as :func:`load_variant` does a file's, the variants it extends read
    from their files. ``path`` is the file the variant is recorded as: it names the variant in
    errors and in run.yaml's provenance, and is never read."""
    return resolve_files(Path(path), validate(VariantFile, record, path), game)


def resolve_files(path: Path, variant_file: VariantFile, game: str | None) -> Variant:
    """The variant of ``variant_file`` (read from, or recorded as, ``path``) and every variant it
    extends, read from their files; one-line errors for a variant of another game or an unknown
    game, a cycle, a chain too long or an ``extends`` that names no variant."""
    files: list[tuple[Path, VariantFile]] = []
    while True:
        if variant_file.game not in registry.known_games():
            raise ConfigError(f"{path}: key 'game': expected one of {', '.join(registry.known_games())}, "
                              f"found {found_text(variant_file.game)}")
        if game is not None and variant_file.game != game:
            raise ConfigError(f"{path}: key 'game': expected a variant of {game}, found {variant_file.game}")
        game = variant_file.game
        if any(seen == path.resolve() for seen, _ in files):
            chain = " -> ".join(file.name for _, file in files)
            raise ConfigError(f"{path}: key 'extends': the variants extend each other in a cycle ({chain} -> {variant_file.name})")
        files.append((path.resolve(), variant_file))
        if variant_file.extends is None:
            break
        if len(files) > MAX_EXTENDS:
            raise ConfigError(f"{path}: key 'extends': expected at most {MAX_EXTENDS} variants in a chain")
        try:
            path = find_variant(variant_file.extends, game, near=path.parent)
        except ConfigError as error:
            raise ConfigError(f"{path}: key 'extends': {error}") from None
        variant_file = read_variant_file(path)
    return resolve_chain(files)


def resolve_chain(files: list[tuple[Path, VariantFile]]) -> Variant:
    """The overrides of a chain, the root's first; a nearer file's value replaces a farther one's."""
    overrides: dict[str, Override] = {}
    rules: dict[str, RuleValue] = {}
    rule_sources: dict[str, Path] = {}
    for path, variant_file in reversed(files):
        for key, value in variant_file.set.items():
            overrides.pop(key, None)
            overrides[key] = Override(key, value, path)
        for name, value in variant_file.rules.items():
            rules[name] = value
            rule_sources[name] = path
    own_path, own = files[0]
    return Variant(own.name, own.game, own.description, own.label or own.name, own_path,
                   tuple(file.name for _, file in files[1:]), tuple(overrides.values()), rules, rule_sources)


# ----------------------------------------------------------------------------- paths

class PathProblem(ConfigError):
    pass


def path_segments(path: str) -> list[str]:
    segments = path.split(".")
    if not path or any(not segment for segment in segments):
        raise PathProblem("expected a dotted path of keys and item names such as 'assassin_bag.own_cubes'")
    return segments


def mapping_key(node: dict, segment: str):
    """The key of ``node`` that ``segment`` names (a YAML number key as its digits), or None."""
    for key in node:
        if str(key) == segment:
            return key
    return None


def item_matches(item: Any, segment: str) -> str | None:
    """How a list item answers to ``segment``: "exact" (its name or number), "word" (a word of its
    name), or None."""
    if not isinstance(item, dict):
        return None
    wanted = segment.casefold()
    for key in ITEM_KEYS:
        if key in item and str(item[key]).casefold() == wanted:
            return "exact"
    name = item.get("name")
    if isinstance(name, str) and wanted in re.split(r"[\s'’_\-]+", name.casefold()):
        return "word"
    return None


def list_index(node: list, segment: str, where: str) -> int:
    """The index of the one item ``segment`` names (never a position)."""
    if not any(isinstance(item, dict) and any(key in item for key in ITEM_KEYS) for item in node):
        raise PathProblem(f"'{where}' is a list of values without names: set it whole, as a list")
    exact = [index for index, item in enumerate(node) if item_matches(item, segment) == "exact"]
    words = [index for index, item in enumerate(node) if item_matches(item, segment) == "word"]
    matches = exact or words
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(str(item.get("name", item.get("number"))) for item in node if isinstance(item, dict))
    if not matches:
        raise PathProblem(f"no item of '{where}' is named or numbered '{segment}' (items: {names})")
    raise PathProblem(f"'{segment}' names several items of '{where}': use a full name or the number")


def walk(node: Any, segments: list[str], create_top_level: bool = False) -> tuple[Any, Any, list[str]]:
    """(container, key or index, positional path) of the place ``segments`` names in ``node``.
    The positional path (list indices as numbers) is how validation errors locate a value."""
    positional: list[str] = []
    for depth, segment in enumerate(segments):
        where = ".".join(segments[:depth]) or "(top level)"
        last = depth == len(segments) - 1
        if isinstance(node, dict):
            key = mapping_key(node, segment)
            if key is None:
                if depth == 0 and last and create_top_level:
                    key = segment   # a key the game file may leave out (its model has a default)
                else:
                    known = ", ".join(str(key) for key in node)
                    raise PathProblem(f"unknown key '{segment}' in '{where}' (keys: {known[:300]})")
        elif isinstance(node, list):
            key = list_index(node, segment, where)
        else:
            raise PathProblem(f"'{where}' is a single value ({found_text(node)}): it has no '{segment}'")
        positional.append(str(key))
        if last:
            return node, key, positional
        node = node[key] if not (isinstance(node, dict) and key not in node) else {}
    raise PathProblem("expected a non-empty path")  # unreachable: path_segments refuses ""


def place_value(raw: dict, override: Override) -> list[str]:
    try:
        container, key, positional = walk(raw, path_segments(override.path), create_top_level=True)
    except PathProblem as problem:
        raise ConfigError(f"{override.source}: key 'set.{override.path}': {problem}") from None
    container[key] = copy.deepcopy(override.value)
    return positional


def printed_value(raw: dict, path: str) -> Any:
    """The game file's value at ``path`` ("(absent)" where the file leaves it to the default)."""
    try:
        container, key, _ = walk(raw, path_segments(path), create_top_level=True)
    except PathProblem:
        return "(absent)"
    return container[key] if not isinstance(container, dict) or key in container else "(absent)"


def positional_paths(variant: Variant, raw: dict) -> list[tuple[str, Override]]:
    """(positional path of each override, as a validation error names it; the override), in
    the order the overrides are applied."""
    edited = copy.deepcopy(raw)
    return [(".".join(place_value(edited, override)), override) for override in variant.overrides]


def blamed_override(key: str, variant: Variant, raw: dict) -> Override | None:
    """The override that put the value at ``key`` (a positional path) into the data: the last
    applied one at ``key`` or above it (a whole item replaced after a path into it wins, and the
    other way round), else one below it (an error about a whole item that an override edited)."""
    paths = positional_paths(variant, raw)
    above = [override for positional, override in paths if key == positional or key.startswith(positional + ".")]
    if above:
        return above[-1]
    below = [override for positional, override in paths if positional.startswith(key + ".")]
    return below[-1] if below else None


# ----------------------------------------------------------------------------- setup

def blame(line: str, variant: Variant, raw: dict) -> str:
    """A game file's error line, renamed after the variant file and the ``set:`` path that
    caused it (the path as the variant writes it)."""
    match = KEY_LINE.match(line)
    override = blamed_override(match["key"], variant, raw) if match else None
    if override is not None:
        return f"{override.source}: key 'set.{override.path}': {match['rest']}"
    message = line.split(": ", 1)[1] if ": " in line else line
    if len(variant.overrides) == 1:
        override = variant.overrides[0]
        return f"{override.source}: key 'set.{override.path}': {message}"
    return f"{variant.path}: key 'set': the overrides make the game data inconsistent: {message}"


def blame_rule(line: str, variant: Variant, name: str) -> str:
    message = line
    for prefix in (f"--rule {name}: ", f"rule '{name}': "):
        message = message.replace(prefix, "")
    return f"{variant.rule_sources.get(name, variant.path)}: key 'rules.{name}': {message}"


def load_setup(engine, game_file: str | None, variant: Variant | None, rule_overrides: dict | None = None,
               where_rules: str = "") -> GameSetup:
    """The game setup: the game file, the variant's overlay and rule switches, then
    ``rule_overrides`` (an experiment's ``rules:`` or ``--rule``). Each is validated on its own
    first, so that an error names the file that caused it."""
    if variant is None:
        return engine.load_setup(game_file, rule_overrides or None)
    if variant.game != engine.name:
        raise ConfigError(f"{variant.path}: key 'game': expected a variant of {engine.name}, found {variant.game}")
    engine.load_setup(game_file, None)          # the game file's own errors name the game file
    try:
        engine.load_setup(game_file, None, edit_game_data=variant.apply)
    except ConfigError as error:
        raw = read_yaml_mapping(Path(game_file) if game_file else Path(engine.default_game_file), "game")
        raise ConfigError(blame(str(error), variant, raw)) from None
    for name, value in variant.rules.items():
        try:
            engine.load_setup(game_file, {name: value}, edit_game_data=variant.apply)
        except ConfigError as error:
            raise ConfigError(blame_rule(str(error), variant, name)) from None
    rules = {**variant.rules, **(rule_overrides or {})}
    setup = engine.load_setup(game_file, rules or None, edit_game_data=variant.apply)
    return with_variant_record(setup, variant)


def with_variant_record(setup: GameSetup, variant: Variant) -> GameSetup:
    """The setup with the variant in its identity (run.yaml ``config.setup.variant``) and its
    file and rationale in its description (run.yaml ``provenance``)."""
    return dataclasses.replace(
        setup, resolved={**setup.resolved, "variant": variant.record()},
        description={**setup.description, "variant_file": str(variant.path),
                     "variant_description": variant.description})


def override_rows(variant: Variant, engine, game_file: str | None = None) -> tuple[list[dict], list[dict]]:
    """(each override, each rule switch) with the game file's printed value: what `variants show`
    and the comparison report list."""
    raw = read_yaml_mapping(Path(game_file) if game_file else Path(engine.default_game_file), "game")
    rows = [{"path": override.path, "printed": printed_value(raw, override.path), "value": override.value}
            for override in variant.overrides]
    printed_rules = engine.load_setup(game_file).resolved.get("rules", {})
    rule_rows = [{"name": name, "printed": printed_rules.get(name, "(absent)"), "value": value}
                 for name, value in variant.rules.items()]
    return rows, rule_rows


def listed_variants(game: str | None = None) -> list[tuple[str, Variant]]:
    """``courtsim variants list``: (game, variant) of every variant in configs/variants/ of
    ``game`` (None: of every game); ConfigError for an unknown game."""
    games = [registry.check_game(game)] if game else registry.known_games()
    return [(name, load_variant(variant_name, name)) for name in games for variant_name in library_names(name)]


def shown_variant(name_or_path: str, game: str | None = None) -> tuple[Variant, list[dict], list[dict]]:
    """``courtsim variants show``: the variant (refused here if it does not load) with its
    override rows and rule rows (:func:`override_rows`)."""
    variant = load_variant(name_or_path, game)
    engine = registry.get_engine(variant.game)
    load_setup(engine, None, variant)
    return (variant, *override_rows(variant, engine))
