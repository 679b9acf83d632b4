"""The time of a kingmaking analysis (issue 40): the counterfactual replays of 1,000 Louis XIV
4-player greedy games on ``--jobs`` workers (target: under 2 minutes on 2 cores).

Not a test (its figures depend on the machine): run it by hand, e.g.

    python benchmarks/kingmaking_time.py --games 1000 --jobs 2

It needs no run with a standings table: who is out of contention comes from a **synthetic rule**
instead of the win-probability model (the last-placed seat of a game, when it is alone there, is
out of contention from the middle turn of the game), and the seat acting at each turn from
own-choice replays of the engine (as a standings table would give it). Only the replays are timed
(sim.studies.kingmaking.kingmaking_of with play_requests: the requests, the joblib workers, the
verdicts and the summary); fitting the model on a real run's standings comes on top (see
reports/analysis/game_arc.py). The kernels are compiled (or loaded) before the clock starts.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
import polars as pl

from sim.louis_xiv.engine import ENGINE
from sim.studies import kingmaking as km

SEED = 40


def synthetic_inputs(games: int, bots) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The games (winner mask, seating), the synthetic out-of-contention seats and each turn's
    acting seat."""
    setup = ENGINE.load_setup()
    tables = ENGINE.play_chunk(setup, 4, bots, SEED, 0, games)
    game_index = tables["games"]["game_index"].astype(np.int64)
    frame = pl.DataFrame({"game_index": game_index, "n_players": np.full(games, 4, np.int32),
                          "winner_mask": tables["games"]["winner_mask"].astype(np.int64),
                          "seating": [",".join(bot.name for bot in bots)] * games})
    turns_played = ENGINE.turns_per_game(tables)
    scores = tables["seats"]["score"].reshape(games, 4)
    last = scores.argmin(axis=1)
    alone = (scores == scores.min(axis=1, keepdims=True)).sum(axis=1) == 1
    out = pl.DataFrame({"game_index": game_index[alone], "seat": last[alone].astype(np.int32),
                        "out_of_contention_turn": (turns_played[alone] // 2).astype(np.int64)})
    longest = int(turns_played.max())
    played = ENGINE.play_counterfactuals(setup, 4, bots, SEED, np.repeat(game_index, longest),
                                         np.tile(np.arange(1, longest + 1), games), np.zeros(games * longest))
    turns = pl.DataFrame({"game_index": np.repeat(game_index, longest),
                          "turn": np.tile(np.arange(1, longest + 1, dtype=np.int64), games),
                          "acting_seat": played["acting_seat"].astype(np.int32)}).filter(pl.col("acting_seat") >= 0)
    return frame, out, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    bots = [ENGINE.resolve_bot("greedy")] * 4
    setup = ENGINE.load_setup()
    frame, out, turns = synthetic_inputs(arguments.games, bots)
    seatings = {",".join(bot.name for bot in bots): km.Seating(4, tuple(bots))}
    started = time.perf_counter()
    replays, summary = km.kingmaking_of(frame, out, turns, lambda requests: km.play_requests(
        ENGINE.name, setup, seatings, SEED, requests, arguments.jobs))
    seconds = time.perf_counter() - started
    everyone = summary.filter(pl.col("seat") == km.ALL_SEATS).row(0, named=True)
    print(json.dumps({"games": arguments.games, "jobs": arguments.jobs, "seats_out_of_contention": out.height,
                      "replays": replays.height, "seconds": round(seconds, 1),
                      "replays_per_second": round(replays.height / seconds), "kingmaker_index":
                      round(everyone["kingmaker_index"], 3), "misjudged_games": everyone["misjudged_games"]}))


if __name__ == "__main__":
    main()
