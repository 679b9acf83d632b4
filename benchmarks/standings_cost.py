"""What the opt-in standings table costs a run (issue 40: at most 15% of the run's speed).

The same run (the runner's chunks, Parquet parts, run.yaml: everything a user's run pays) is
played with one core without and with ``--tables standings``, in interleaved pairs in ABBA order
(machines here drift by a few per cent under load, so the two are only compared side by side),
after an untimed run of each that loads the kernels. Prints each pair's whole-run games per second
and their ratio, then the median ratio; the last line is one JSON object.

    python benchmarks/standings_cost.py louis-xiv --players 4 --games 40000 --pairs 4
    python benchmarks/standings_cost.py heads-of-state --players 4 --games 20000 --pairs 4
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim import registry  # noqa: E402
from sim.core.bench import limit_numba_to_one_thread  # noqa: E402
from sim.core.runner import DEFAULT_CHUNK_SIZE  # noqa: E402
from sim.core.scaling import timed_run  # noqa: E402
from strategies.bots import resolve_bots  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    limit_numba_to_one_thread()
    engine = registry.get_engine(arguments.game)
    without = engine.load_setup()
    with_standings = dataclasses.replace(without, optional_tables=("standings",))
    seats = resolve_bots(arguments.game, [arguments.bots] * arguments.players)
    setups = {"without": without, "with": with_standings}
    ratios, rows = [], []
    with tempfile.TemporaryDirectory(prefix="courtsim-standings-cost-") as scratch:
        def rate(label: str) -> float:
            _, whole_run, _ = timed_run(engine, setups[label], arguments.players, seats, arguments.seed,
                                        arguments.games, 1, Path(scratch) / label, DEFAULT_CHUNK_SIZE)
            return whole_run

        for label in setups:   # untimed: kernels loaded, first result arrays allocated
            timed_run(engine, setups[label], arguments.players, seats, arguments.seed, DEFAULT_CHUNK_SIZE, 1,
                      Path(scratch) / label, DEFAULT_CHUNK_SIZE)
        for pair in range(arguments.pairs):
            order = ("without", "with") if pair % 2 == 0 else ("with", "without")
            measured = {label: rate(label) for label in order}
            ratios.append(measured["with"] / measured["without"])
            rows.append({"first": order[0], **measured, "ratio": round(ratios[-1], 3)})
            print(f"pair {pair + 1} ({order[0]} first): without {measured['without']:,.0f} games/s, "
                  f"with standings {measured['with']:,.0f} games/s, ratio {ratios[-1]:.3f}", flush=True)
    median = statistics.median(ratios)
    print(f"median ratio {median:.3f}: the standings table costs {1 - median:.1%} of the run's speed")
    print(json.dumps({"game": arguments.game, "players": arguments.players, "bots": arguments.bots,
                      "games": arguments.games, "pairs": rows, "median_ratio": round(median, 3)}))


if __name__ == "__main__":
    main()
