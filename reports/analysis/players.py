"""One name for a player on every page and in every metric name: the player's place in the turn
order, in words ("the first player", ``first_player_win_rate``).

The tables keep their 0-based ``seat`` (who sat where); pages, sentences and metric names speak
of the turn order instead, from ``position`` (reports.analysis.rundir: each table's ``start_position``, 0 =
the start player). The two agree only while seat 0 starts every game: Heads of State draws its
start player at random (the rulebook's §3 step 11) and Louis XIV does under its
random_start_player switch, and then seat 0 is not always the first player.

Metric names of earlier versions (``seat_1_win_rate``, the pattern ``seat_*_win_rate``,
``start_player_win_rate``) are refused with one line naming the new one (:func:`check_metric_name`).
"""
from __future__ import annotations

import re

ORDINALS = ("first", "second", "third", "fourth", "fifth")
WIN_RATE_SUFFIX = "_player_win_rate"
WIN_RATE_PATTERN = f"*{WIN_RATE_SUFFIX}"      # every player's win rate, as a target's fnmatch pattern
NAMED_BY_TURN_ORDER = "players are named by turn order"
OLD_SEAT_NAME = re.compile(r"seat_(.+)_win_rate")
OLD_START_PLAYER_NAME = "start_player_win_rate"


def ordinal(position: int) -> str:
    """``first`` for turn-order position 0, ``second`` for 1, ..."""
    if not 0 <= position < len(ORDINALS):
        raise ValueError(f"expected a turn-order position 0-{len(ORDINALS) - 1}, found {position}")
    return ORDINALS[position]


def player_words(position: int) -> str:
    """``the first player`` for turn-order position 0 (the start player), ``the second player``
    for 1, ...: how every page and sentence names a player."""
    return f"the {ordinal(position)} player"


def sentence_start(words: str) -> str:
    """``The first player`` for ``the first player``: words that open a sentence."""
    return words[:1].upper() + words[1:]


def win_rate_metric(position: int) -> str:
    """The metric name of the win rate of the player at turn-order ``position``:
    ``first_player_win_rate`` for 0."""
    return f"{ordinal(position)}{WIN_RATE_SUFFIX}"


def win_rate_label(position: int) -> str:
    """``the first player's win rate``: the metric's words."""
    return f"{player_words(position)}'s win rate"


def position_of(metric: str) -> int | None:
    """The turn-order position a player's win rate names (0 for ``first_player_win_rate``), None
    for any other metric."""
    if not metric.endswith(WIN_RATE_SUFFIX):
        return None
    word = metric[:-len(WIN_RATE_SUFFIX)]
    return ORDINALS.index(word) if word in ORDINALS else None


def is_player_win_rate(metric: str) -> bool:
    """Is ``metric`` one player's win rate (``first_player_win_rate``, ...)?"""
    return position_of(metric) is not None


def renamed(name: str) -> str | None:
    """The name an old metric name or pattern has now (``seat_1_win_rate`` ->
    ``first_player_win_rate``, ``seat_*_win_rate`` -> ``*_player_win_rate``,
    ``start_player_win_rate`` -> ``first_player_win_rate``); None for a name that is not old."""
    if name == OLD_START_PLAYER_NAME:
        return win_rate_metric(0)
    match = OLD_SEAT_NAME.fullmatch(name)
    if match is None:
        return None
    seat = match.group(1)
    if seat.isdigit() and 1 <= int(seat) <= len(ORDINALS):
        return win_rate_metric(int(seat) - 1)
    if seat == "*":
        return WIN_RATE_PATTERN
    return ", ".join(win_rate_metric(position) for position in range(len(ORDINALS)))


def old_name_problem(name: str) -> str | None:
    """``seat_1_win_rate is now first_player_win_rate (players are named by turn order)`` for an
    old metric name or pattern; None for any other name."""
    new = renamed(name)
    if new is None:
        return None
    if "," in new:
        return f"{name} is no metric now ({NAMED_BY_TURN_ORDER}: {new})"
    return f"{name} is now {new} ({NAMED_BY_TURN_ORDER})"


def check_metric_name(name: str, where: str) -> None:
    """ConfigError ``WHERE: seat_1_win_rate is now first_player_win_rate (players are named by
    turn order)`` for an old metric name or pattern; nothing for any other name."""
    from sim.core.engine import ConfigError

    problem = old_name_problem(name)
    if problem is not None:
        raise ConfigError(f"{where}: {problem}")
