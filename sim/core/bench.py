"""``courtsim bench``: games per second per core, measured as a long run sustains them.

The command line parses and prints (cli.py); this module measures. A warm-up call first loads
(or compiles) the kernels, so numba's compile is never timed; an untimed chunk of the run's size
then brings the process to the state a long run is in; the timed games are played as a run plays
them, in ``play_chunk`` calls of the runner's chunk size. ``--scaling`` (sim.core.scaling) times
whole runs with one core and with every core.
"""
from __future__ import annotations

import os
import time

from sim.core import buffers
from sim.core.engine import BotSeat, GameEngine, GameSetup
from sim.core.run_manifest import courtsim_version
from sim.core.runner import DEFAULT_CHUNK_SIZE, plan_chunks

BENCH_TARGET_SECONDS = 3.0    # default bench length: "a few seconds" whatever the game's speed
BENCH_CALIBRATION_GAMES = 100
BENCH_SETTLE_SECONDS = 1.5     # at most this long: the untimed run-sized chunk before the timed games


def scaling_report(engine: GameEngine, setup: GameSetup, game: str, players: int, seats: list[BotSeat],
                   seed: int, games: int | None) -> dict:
    """``--scaling``: a whole run timed with one core and with every core (sim.core.scaling)."""
    from sim.core.scaling import measure_scaling

    _, rate = settle(engine, setup, players, seats, seed)
    return {"game": game, "players": players, "bots": [seat.name for seat in seats], "seed": seed,
            **measure_scaling(engine, setup, players, seats, seed, rate, games)}


def bench_bots(engine: GameEngine, setup: GameSetup, game: str, players: int, seats: list[BotSeat],
               seed: int, games: int | None) -> dict:
    """The timed games (``play_as_a_run``) after a warm-up and a settling chunk; the figures as a
    plain dict."""
    warm_up_started = time.perf_counter()
    engine.play_chunk(setup, players, seats, seed, 0, 2)
    warm_up_seconds = time.perf_counter() - warm_up_started
    settle_games, rate = settle(engine, setup, players, seats, seed)
    if games is None:
        games = games_for_target_time(rate)
    started = time.perf_counter()
    play_as_a_run(engine, setup, players, seats, seed, games)
    seconds = time.perf_counter() - started
    return {
        "game": game, "players": players, "bots": [seat.name for seat in seats], "seed": seed,
        "games": games, "chunk_size": DEFAULT_CHUNK_SIZE, "seconds": round(seconds, 4),
        "games_per_second_per_core": round(games / seconds, 1) if seconds > 0 else None,
        "warmup_seconds": round(warm_up_seconds, 3), "settle_games": settle_games,
        "numba_disable_jit": os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"),
        "courtsim_version": courtsim_version(),
    }


def play_as_a_run(engine: GameEngine, setup: GameSetup, players: int, seats: list[BotSeat], seed: int,
                  games: int) -> None:
    """Play ``games`` games the way a run does: ``play_chunk`` calls of the runner's chunk size,
    each reusing the result buffers of the one before (sim/core/buffers.py), as a run's chunks do.
    (One call for 50,000 games measured ~20% slower on this machine: its ~270 MB of result
    arrays cost ~0.6 s of the operating system's page allocation, which no run pays.)"""
    with buffers.reused_between_chunks():
        for chunk in plan_chunks(games, DEFAULT_CHUNK_SIZE):
            engine.play_chunk(setup, players, seats, seed, chunk.first_game, chunk.n_games)


def settle(engine: GameEngine, setup: GameSetup, players: int, seats: list[BotSeat],
           seed: int) -> tuple[int, float]:
    """Untimed games before the timed ones: a short calibration call, then one chunk of the
    run's chunk size (at most ~BENCH_SETTLE_SECONDS long). The process's first result arrays
    of that size cost the operating system fresh pages (~4 us per game on this machine),
    which a run pays once, not per chunk; the timed games then measure what a long run
    sustains. Returns (games played in the chunk, games per second measured on it)."""
    rate = timed_rate(engine, setup, players, seats, seed, BENCH_CALIBRATION_GAMES)
    settle_games = max(BENCH_CALIBRATION_GAMES, min(DEFAULT_CHUNK_SIZE, int(rate * BENCH_SETTLE_SECONDS)))
    return settle_games, timed_rate(engine, setup, players, seats, seed, settle_games)


def timed_rate(engine: GameEngine, setup: GameSetup, players: int, seats: list[BotSeat], seed: int,
               games: int) -> float:
    """Games per second of one ``play_chunk`` call of ``games`` games."""
    started = time.perf_counter()
    engine.play_chunk(setup, players, seats, seed, 0, games)
    return games / max(time.perf_counter() - started, 1e-6)


def games_for_target_time(rate: float) -> int:
    """A game count the timed games need ~BENCH_TARGET_SECONDS for at ``rate`` games per second,
    rounded to two significant digits so repeated benches usually time the same games."""
    games = max(BENCH_CALIBRATION_GAMES, min(int(rate * BENCH_TARGET_SECONDS), 5_000_000))
    digits = len(str(games)) - 2
    return round(games, -digits) if digits > 0 else games


def limit_numba_to_one_thread() -> None:
    """Per-core figures must not include numba's own threads (parallel=True kernels)."""
    try:
        import numba
        numba.set_num_threads(1)
    except (ImportError, ValueError, RuntimeError):
        pass


def bench_each_bot(engine: GameEngine, setup: GameSetup, game: str, players: int, seed: int,
                   games: int | None) -> dict[str, dict]:
    """``--each-bot``: every bot of the game (search ones too), each in every seat alike."""
    from strategies.bots import BotCatalogue, resolve_bots  # strategies imports sim: one-way at load

    names = BotCatalogue().names(game)
    return {name: bench_bots(engine, setup, game, players, resolve_bots(game, [name] * players), seed, games)
            for name in names}
