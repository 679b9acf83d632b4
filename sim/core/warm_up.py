"""Compile (or load from numba's on-disk cache) the kernels a game needs.

The first run of a game compiles its kernels, about a minute per game on 2 cores (a search bot's
search, compiled only for a chunk that seats one: half a minute more); numba caches them on disk
(sim/__init__.py), so later runs start at once. ``courtsim compile`` does that first compilation
up front, one joblib worker per game, so both cores work at once (CI does it before the tests):
every bot family is played once, because a search bot compiles code of its own. A run whose
kernels are not cached yet compiles them in its own process before its workers start
(:func:`compile_before_play`), says so in one line with the expected wait, and times the
compilation apart from the play.
"""
from __future__ import annotations

import time

from joblib import Parallel, delayed

from sim import registry
from strategies.bots import bot_package

# a search bot with the smallest budget: compiling its code is the point, not playing well
CHEAP_SEARCH = {"rollouts": 1, "max_candidates": 2}


def warm_up_game(game: str) -> tuple[str, float]:
    """Play one game with each bot family in seat 0 (greedy elsewhere); returns seconds taken."""
    started = time.perf_counter()
    engine = registry.get_engine(game)
    strategies = bot_package(game)
    setup = engine.load_setup()
    n_players = min(engine.player_counts)
    greedy = strategies.resolve_bot("greedy")
    for family in strategies.FAMILIES:
        overrides = {key: value for key, value in CHEAP_SEARCH.items()
                     if key in {parameter.name for parameter in strategies.FAMILY_PARAMETERS[family]}}
        first = strategies.resolve_bot(family, overrides or None)
        engine.play_chunk(setup, n_players, [first] + [greedy] * (n_players - 1), 0, 0, 1)
    return game, time.perf_counter() - started


FIRST_USE_WAIT = "about a minute on 2 cores, half a minute more with a search bot"


def compile_before_play(engine, setup, cells, log) -> float:
    """Compile the kernels ``cells`` need that numba's cache lacks, here, before any worker
    starts (each worker would compile them again at the same time); returns the seconds spent
    (0 when everything was cached). One game of a cell is played for each new set of bot
    families and thrown away: a game is a pure function of its seed and index."""
    if not hasattr(engine, "kernels_cached"):
        return 0.0
    started = None
    seen = set()
    for cell in cells:
        families = tuple(sorted({bot.family for bot in cell.bots}))
        if families in seen:
            continue
        seen.add(families)
        if engine.kernels_cached(list(cell.bots)):
            continue
        if started is None:
            started = time.perf_counter()
            log(f"{engine.name}: compiling the game's kernels for this machine ({FIRST_USE_WAIT}; once: "
                "later runs load them from .numba-cache, and `courtsim compile` does it ahead)")
        engine.play_chunk(setup, cell.n_players, list(cell.bots), 0, cell.first_game, 1)
    if started is None:
        return 0.0
    seconds = time.perf_counter() - started
    log(f"{engine.name}: kernels compiled in {seconds:.0f} s")
    return seconds


def warm_up(games: list[str], jobs: int = -1) -> list[tuple[str, float]]:
    """Warm every game of ``games`` up, in up to ``jobs`` processes (-1: one per core)."""
    n_jobs = min(len(games), jobs) if jobs > 0 else jobs
    if n_jobs == 1:
        return [warm_up_game(game) for game in games]
    return list(Parallel(n_jobs=n_jobs)(delayed(warm_up_game)(game) for game in games))
