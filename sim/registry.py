"""The one list of games: command-line name -> the game's descriptor (sim.core.descriptor).

Everything the rest of courtsim asks about a game (its engine, bots, tables, metrics, report
sections, title, assumptions) comes from the descriptor its own package declares; nothing outside
the games' packages compares a game's name. A descriptor is imported on first use and its engine
(which compiles or loads numba kernels) only when asked for: ``courtsim --help`` stays instant, and
one game's breakage never stops the other from running. An unknown name is one ConfigError line.
"""
from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from sim.core.descriptor import GameDescriptor
from sim.core.engine import ConfigError, GameEngine

# name -> "module:attribute" of the game's GameDescriptor
GAMES: dict[str, str] = {
    "louis-xiv": "sim.louis_xiv.descriptor:DESCRIPTOR",
    "heads-of-state": "sim.heads_of_state.descriptor:DESCRIPTOR",
}


def known_games() -> list[str]:
    return sorted(GAMES)


def check_game(name: str) -> str:
    """``name`` if it is a registered game; ConfigError naming the known ones otherwise."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(known_games())}")
    return name


def descriptor(name: str) -> GameDescriptor:
    """The descriptor of the game registered as ``name``."""
    return _load(GAMES[check_game(name)], name)


def get_engine(name: str) -> GameEngine:
    """The engine of the game registered as ``name``; ConfigError for an unknown name or a game
    whose engine module is not installed."""
    game = descriptor(name)
    module_name = game.engine_path.split(":")[0]
    if not _module_exists(module_name):
        raise ConfigError(f"game {name!r} is registered but its engine ({module_name}) is not installed")
    return game.engine()   # errors inside the engine are bugs: let them show


@cache
def _load(target: str, name: str) -> GameDescriptor:
    module_name, attribute = target.split(":")
    if not _module_exists(module_name):
        raise ConfigError(f"game {name!r} is registered but its package ({module_name}) is not installed")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except AttributeError:
        raise ConfigError(f"game {name!r}: {module_name} defines no {attribute}") from None


def _module_exists(module_name: str) -> bool:
    try:
        return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False
