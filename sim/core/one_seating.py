"""One seating of named bots, as ``simulate``, ``replay`` and ``bench`` play it: the command
line's game, players, ``--bots``, game file, variant and ``--rule`` switches, validated in the
order a user would fix them, before any game runs.

An experiment file (sim.core.experiments) plans many seatings of a bot pool; this is the same
preparation for one seating given on the command line, and its run is one unlabelled cell.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from sim import registry
from sim.core import variants
from sim.core.engine import BotSeat, ConfigError, GameEngine, GameSetup

DEFAULT_BOT = "greedy"


def rule_example(engine: GameEngine) -> str:
    """A real ``--rule`` of ``engine`` for error messages: its first rule switch, set to the
    opposite of (or, if not a switch, the same as) its default."""
    try:
        switches = engine.load_setup().description.get("rules") or {}
    except ConfigError:
        switches = {}
    for name, default in switches.items():
        if isinstance(default, bool):
            return f"{name}={str(not default).lower()}"
        return f"{name}={default}"
    return "NAME=VALUE"


def parse_rules(rules: list[str] | None, engine: GameEngine) -> dict:
    """``--rule KEY=VALUE`` pairs -> {key: value}; values are read as YAML scalars, so
    ``3`` is an int, ``0.5`` a float, ``true`` a bool, anything else a string."""
    overrides = {}
    for text in rules or []:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise ConfigError(f"bad --rule {text!r}: expected KEY=VALUE, e.g. --rule {rule_example(engine)}")
        if key in overrides:
            raise ConfigError(f"--rule {key} given twice")
        try:
            overrides[key] = yaml.safe_load(value)
        except yaml.YAMLError:
            overrides[key] = value.strip()
    return overrides


def check_players(engine: GameEngine, players: int) -> None:
    if players not in engine.player_counts:
        counts = ", ".join(map(str, engine.player_counts))
        raise ConfigError(f"{engine.name} is played by {counts} players, not {players}")


def bot_names(bots: str | None, players: int) -> list[str]:
    """``--bots``: absent -> greedy everywhere; one name -> that bot everywhere; else one per seat."""
    names = [name.strip() for name in (DEFAULT_BOT if bots is None else bots).split(",")]
    if not any(names):
        raise ConfigError(f"bad --bots {bots!r}: expected bot names (one, or one per seat), found none")
    if any(not name for name in names):
        raise ConfigError(f"bad --bots {bots!r}: empty bot name")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ConfigError(f"--bots names {len(names)} bots ({bots}) but there are {players} players; "
                          "give one name for every seat or exactly one per player")
    return names


def load_setup(engine: GameEngine, game_file: Path | None, rules: list[str] | None,
               variant: str | None = None) -> GameSetup:
    """The game file (or --game-file), then --variant's overlay and switches, then --rule."""
    if game_file is not None and game_file.is_dir():
        raise ConfigError(f"--game-file {game_file}: expected a game YAML file, found a directory")
    if game_file is not None and not game_file.is_file():
        raise ConfigError(f"game file {game_file} does not exist")
    resolved_variant = variants.load_variant(variant, engine.name) if variant else None
    return variants.load_setup(engine, str(game_file) if game_file else None, resolved_variant,
                               parse_rules(rules, engine) or None)


def prepare_one_seating(game: str, players: int, bots: str | None, game_file: Path | None,
                        rules: list[str] | None, variant: str | None = None
                        ) -> tuple[GameEngine, GameSetup, list[BotSeat]]:
    """(engine, setup, the seats' bots), validated in the order a user would fix them."""
    from strategies.bots import resolve_bots  # strategies imports sim; keep the import one-way at load

    engine = registry.get_engine(game)
    check_players(engine, players)
    seats = resolve_bots(game, bot_names(bots, players), where="--bots")
    setup = load_setup(engine, game_file, rules, variant)
    return engine, setup, seats
