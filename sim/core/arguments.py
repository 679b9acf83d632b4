"""Validators shared by the command line, experiment files and game files: one rule, and one
wording of its error, for each kind of value wherever the user gives it.

Each ``check_*`` takes the value and ``where`` (the option, or the file and key, e.g. ``--jobs``
or ``configs/experiments/x.yaml: key 'jobs'``) and returns the checked value, or raises a
one-line :class:`~sim.core.engine.ConfigError` saying where, what was expected and what was
found. The same rules validate the pydantic models of the YAML files (``ValueKind.validator``),
so ``--jobs -2`` and ``jobs: -2`` in an experiment are refused alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Callable

from pydantic import BeforeValidator, Field

from sim.core.engine import GAME_INDEX_LIMIT, ConfigError

SEED_LIMIT = 2**64  # experiment seeds are 0 .. 2**64-1 (the random streams' 64-bit key)

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
EVERY_CORE = -1


def refuse(where: str, expected: str, found) -> ConfigError:
    return ConfigError(f"{where}: expected {expected}, found {found!r}")


def is_integer(value) -> bool:
    """An int that is not a bool (YAML's ``true`` is not a count, nor is ``1e22``)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class ValueKind:
    """A kind of value the user gives: what it must be (in words) and the test of it."""
    expected: str
    accepts: Callable[[Any], bool]

    def check(self, value, where: str):
        if not self.accepts(value):
            raise refuse(where, self.expected, value)
        return value

    def refuse_in_model(self, value):
        """For pydantic (runs before its own conversion, so 1e22 or true is never an int)."""
        if not self.accepts(value):
            raise ValueError(f"expected {self.expected}")
        return value

    @property
    def validator(self) -> BeforeValidator:
        return BeforeValidator(self.refuse_in_model)


JOBS = ValueKind("a positive number of worker processes or -1 for every core",
                 lambda value: is_integer(value) and (value >= 1 or value == EVERY_CORE))
GAME_INDEX = ValueKind(f"a game index in 0 .. {GAME_INDEX_LIMIT - 1:,}",
                       lambda value: is_integer(value) and 0 <= value < GAME_INDEX_LIMIT)
GAME_COUNT = ValueKind(f"a number of games in 1 .. {GAME_INDEX_LIMIT - 1:,}",
                       lambda value: is_integer(value) and 1 <= value < GAME_INDEX_LIMIT)
SEED = ValueKind("a seed in 0 .. 2**64-1", lambda value: is_integer(value) and 0 <= value < SEED_LIMIT)
PLAYER_COUNT = ValueKind("a number of players (an integer)", is_integer)


def check_jobs(value, where: str) -> int:
    """Worker processes: a positive number, or -1 for every core."""
    return JOBS.check(value, where)


def check_game_index(value, where: str) -> int:
    """A game's index in a run: 0 .. GAME_INDEX_LIMIT-1 (int32 in every table)."""
    return GAME_INDEX.check(value, where)


def check_game_count(value, where: str) -> int:
    """A number of games: 1 .. GAME_INDEX_LIMIT-1 (game indices must fit int32)."""
    return GAME_COUNT.check(value, where)


def check_seed(value, where: str) -> int:
    """An experiment seed: 0 .. 2**64-1."""
    return SEED.check(value, where)


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
    raise refuse(where, "true or false", value)


def switch_in_model(value) -> bool:
    """``parse_bool`` for pydantic models of game files (a ValueError names what was expected)."""
    try:
        return parse_bool(value, "rule switch")
    except ConfigError:
        raise ValueError("expected true or false") from None


# A rule switch in a pydantic model: ``first_turn_refresh: RuleSwitch = False``.
RuleSwitch = Annotated[bool, BeforeValidator(switch_in_model)]


def check_integer_in(value, low: int, high: int) -> int:
    """``value`` if it is an integer from ``low`` to ``high`` (a game file's count); ValueError
    (for pydantic) otherwise. It must be written as a YAML integer: ``true`` is refused (YAML
    booleans are Python ints), and so are ``5.0`` and ``"5"``: a count on a printed component is
    a whole number, so a float or a text in its place is a slip, not a value to round. A huge
    number (``1e19``) is refused before it reaches an int64 array, where numba would compile for
    another integer type."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"expected an integer {low}..{high}")
    return value


def integer_in(low: int, high: int):
    """The pydantic type of a game file's number from ``low`` to ``high`` (both included), the
    range named in the error (check_integer_in)."""
    return Annotated[int, BeforeValidator(lambda value: check_integer_in(value, low, high)), Field(ge=low, le=high)]


def names_in(text: str) -> list[str]:
    """A comma-separated option's names (``--variants a,b``, ``--against greedy,coat_hoarder``)."""
    return [name.strip() for name in text.split(",") if name.strip()]


def player_counts_in(text: str, where: str) -> list[int]:
    """Player counts separated by commas (``--players 2,3,4``)."""
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise ConfigError(f"{where}: expected player counts separated by commas (e.g. 2,3,4), found {text!r}") from None


def game_counts_in(text: str, where: str) -> list[int]:
    """Numbers of games separated by commas (``--rungs 200,800``)."""
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise ConfigError(f"{where}: expected whole numbers of games separated by commas (e.g. 200,800), "
                          f"found {text!r}") from None
