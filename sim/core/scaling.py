"""How a run's speed grows with cores (``courtsim bench GAME --scaling``).

The same run (the runner's chunks, Parquet parts, run.yaml: everything a user's run pays) is
played with ``--jobs 1`` and with every core, in interleaved pairs (machines here drift by a few
per cent, so the two are only compared side by side), after an untimed run with every core that
starts joblib's worker pool and loads the kernels in each worker, as a long run has done
within its first seconds. The ratio of the median rates of the play (chunks played and written
as parts, what the cores share) is the scaling ratio; the whole run's ratio (wall time from the
call to run.yaml marked complete: opening the directory, planning, the play, summing the chunks'
entries into run.yaml, with no merge since the parts are the tables) is given beside it. The scheduling share is the part of the every-core play's core
time not spent inside chunks (handing chunks out, sending their counts back, the wait for the
last chunk): 1 - (the workers' summed chunk seconds) / (the workers' phase's seconds x cores).
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from joblib import cpu_count

from sim.core.engine import BotSeat, GameEngine, GameSetup
from sim.core.runner import DEFAULT_CHUNK_SIZE, run_simulation

SCALING_SECONDS = 8.0   # about this long for the one-core run
PAIRS = 2               # interleaved (one core, every core) pairs


def scaling_games(rate_per_core: float, cores: int, chunk_size: int = DEFAULT_CHUNK_SIZE) -> int:
    """About SCALING_SECONDS of one core's games, in whole rounds of one chunk per core (so no
    core waits for a last, lone chunk), at least two rounds."""
    round_games = cores * chunk_size
    rounds = max(2, round(rate_per_core * SCALING_SECONDS / round_games))
    return rounds * round_games


def timed_run(engine: GameEngine, setup: GameSetup, players: int, seats: list[BotSeat], seed: int,
              games: int, jobs: int, out_dir: Path, chunk_size: int) -> tuple[float, float, float]:
    """Games per second of the run's play and of the whole run (wall time, to run.yaml complete),
    and the share of the play's core time (``jobs`` cores) spent outside chunks."""
    started = time.perf_counter()
    result = run_simulation(engine, setup, players, seats, seed, games, out_dir, jobs=jobs, chunk_size=chunk_size,
                            progress=False, resume=False, overwrite=True, log=lambda message: None)
    whole = time.perf_counter() - started
    timings = result.manifest["timings"]
    cores = cpu_count() if jobs == -1 else jobs
    outside_chunks = 1.0 - timings["chunk_seconds"] / (timings["workers_seconds"] * cores)
    return games / timings["play_seconds"], games / whole, outside_chunks


def measure_scaling(engine: GameEngine, setup: GameSetup, players: int, seats: list[BotSeat], seed: int,
                    rate_per_core: float, games: int | None = None,
                    chunk_size: int = DEFAULT_CHUNK_SIZE) -> dict:
    """The one-core and every-core rates of the same run, and their ratio (``scaling_ratio``)."""
    cores = cpu_count()
    games = games or scaling_games(rate_per_core, cores, chunk_size)
    one_core, every_core = [], []   # (play, whole run) games per second, share outside chunks
    with tempfile.TemporaryDirectory(prefix="courtsim-scaling-") as scratch:
        out_dir = Path(scratch) / "run"
        timed_run(engine, setup, players, seats, seed, cores * chunk_size, -1, out_dir, chunk_size)
        for _ in range(PAIRS):
            one_core.append(timed_run(engine, setup, players, seats, seed, games, 1, out_dir, chunk_size))
            every_core.append(timed_run(engine, setup, players, seats, seed, games, -1, out_dir, chunk_size))
    single, parallel = (statistics.median(rate for rate, _, _ in rates) for rates in (one_core, every_core))
    single_run, parallel_run = (statistics.median(rate for _, rate, _ in rates) for rates in (one_core, every_core))
    scheduling = statistics.median(share for _, _, share in every_core)
    return {
        "cores": cores, "games": games, "chunk_size": chunk_size, "pairs": PAIRS,
        "games_per_second_one_core": round(single, 1), "games_per_second_every_core": round(parallel, 1),
        "scaling_ratio": round(parallel / single, 3), "efficiency": round(parallel / single / cores, 3),
        "scheduling_share": round(scheduling, 4),
        "whole_run_games_per_second_one_core": round(single_run, 1),
        "whole_run_games_per_second_every_core": round(parallel_run, 1),
        "whole_run_scaling_ratio": round(parallel_run / single_run, 3),
    }
