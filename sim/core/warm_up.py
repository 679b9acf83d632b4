"""Compile (or load from numba's on-disk cache) every kernel a game needs, games in parallel.

The first run of a game compiles its kernels, which takes a minute or more per game; numba
caches them on disk (sim/__init__.py), so later runs start at once. ``courtsim compile`` does
that first compilation up front, one joblib worker per game, so both cores work at once (CI
does it before the tests). Every bot family is played once, because some families compile
code of their own (a search bot: its search, and the rules engine for its context type).
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


def warm_up(games: list[str], jobs: int = -1) -> list[tuple[str, float]]:
    """Warm every game of ``games`` up, in up to ``jobs`` processes (-1: one per core)."""
    n_jobs = min(len(games), jobs) if jobs > 0 else jobs
    if n_jobs == 1:
        return [warm_up_game(game) for game in games]
    return list(Parallel(n_jobs=n_jobs)(delayed(warm_up_game)(game) for game in games))
