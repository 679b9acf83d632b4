"""CLI game names -> engine objects, imported on demand.

Importing an engine compiles or loads numba kernels, so nothing is imported until a game is
actually asked for (``courtsim --help`` stays instant, and one game's breakage never stops the
other from running).
"""
from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from sim.core.engine import ConfigError, GameEngine

# name -> "module:attribute" of an object satisfying sim.core.engine.GameEngine
GAMES: dict[str, str] = {
    "louis-xiv": "sim.louis_xiv.engine:ENGINE",
    "heads-of-state": "sim.heads_of_state.engine:ENGINE",
}

# the games' bot packages: strategies/bots.py (bot resolution lives there, in one place)


def known_games() -> list[str]:
    return sorted(GAMES)


def get_engine(name: str) -> GameEngine:
    """The engine registered as ``name``; ConfigError for an unknown name or a game whose
    engine module is not installed."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(known_games())}")
    return _load_engine(GAMES[name], name)


@cache
def _load_engine(target: str, name: str) -> GameEngine:
    module_name, attribute = target.split(":")
    if not _module_exists(module_name):
        raise ConfigError(f"game {name!r} is registered but its engine ({module_name}) is not installed")
    module = importlib.import_module(module_name)  # errors inside the engine are bugs: let them show
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise ConfigError(f"game {name!r}: {module_name} defines no {attribute}") from None


def _module_exists(module_name: str) -> bool:
    try:
        return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False
