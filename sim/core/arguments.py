"""Validators shared by the command line, experiment files and game files: one rule, and one
wording of its error, for each kind of value wherever the user gives it.

Each takes the value and ``where`` (the option or the file and key, e.g. ``--jobs`` or
``configs/experiments/x.yaml: key 'jobs'``) and returns the checked value, or raises a one-line
:class:`~sim.core.engine.ConfigError` saying where, what was expected and what was found.
"""
from __future__ import annotations

from sim.core.engine import GAME_INDEX_LIMIT, SEED_LIMIT, ConfigError

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
EVERY_CORE = -1


def parse_bool(value, where: str) -> bool:
    """A rule switch's on/off value: a YAML boolean, 0 or 1, or one of the words
    true/false, yes/no, on/off (any case). Anything else (2, 0.5, "maybe") is refused."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise ConfigError(f"{where}: expected true or false, found {value!r}")


def is_integer(value) -> bool:
    """An int that is not a bool (YAML's ``true`` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_jobs(value, where: str) -> int:
    """Worker processes: a positive number, or -1 for every core."""
    if not is_integer(value) or (value < 1 and value != EVERY_CORE):
        raise ConfigError(f"{where}: expected a positive number of worker processes or -1 for every core, "
                          f"found {value!r}")
    return value


def check_game_index(value, where: str) -> int:
    """A game's index in a run: 0 .. GAME_INDEX_LIMIT-1 (int32 in every table)."""
    if not is_integer(value) or not 0 <= value < GAME_INDEX_LIMIT:
        raise ConfigError(f"{where}: expected a game index in 0 .. {GAME_INDEX_LIMIT - 1:,}, found {value!r}")
    return value


def check_game_count(value, where: str) -> int:
    """A number of games: 1 .. GAME_INDEX_LIMIT-1 (game indices must fit int32)."""
    if not is_integer(value) or not 1 <= value < GAME_INDEX_LIMIT:
        raise ConfigError(f"{where}: expected a number of games in 1 .. {GAME_INDEX_LIMIT - 1:,}, found {value!r}")
    return value


def check_seed(value, where: str) -> int:
    """An experiment seed: 0 .. 2**64-1."""
    if not is_integer(value) or not 0 <= value < SEED_LIMIT:
        raise ConfigError(f"{where}: expected a seed in 0 .. 2**64-1, found {value!r}")
    return value
