"""A synthetic standings table (the opt-in table of issue 40: one row per game and position, with
every seat's standing, in game order) for a real run directory, and a copy of the run that lists it, for the game-arc tests
(tests/analysis/test_game_arc.py, tests/pages/test_game_arc_report.py)."""
import shutil

import numpy as np
import polars as pl

from sim.core import results
from sim.core import run_manifest as manifests

TURNS = 24
ROUND_TURNS = 6


def synthetic_standings(run_dir, seed: int = 0) -> pl.DataFrame:
    """The standings table's schema, in game order: a row after each of 24 turns, after every 6th
    turn a row for the round's end phases (acting_seat null, the same turn), and a final standing
    (acting_seat null) at the seats' final scores, each row with every seat's score and position
    value. Scores climb towards the final score with noise; the position value adds half of what
    is still to come; ``gold_seat_s`` are game-specific columns the arc must not use."""
    seats = pl.concat([pl.read_parquet(part) for part in results.table_files(results.table_path(run_dir, "seats"))])
    seats = seats.select("game_index", "seat", "score").sort("game_index", "seat")
    rng = np.random.default_rng(seed)
    n_players = seats.group_by("game_index").len()["len"].max()
    final = seats["score"].to_numpy().reshape(-1, n_players).astype(float)
    games = seats["game_index"].unique().sort().to_numpy()
    blocks = []          # (turn, round, acting_seat or -1, progress)
    for turn in range(1, TURNS + 1):
        blocks.append((turn, (turn - 1) // ROUND_TURNS + 1, (turn - 1) % n_players, turn / TURNS))
        if turn % ROUND_TURNS == 0:
            blocks.append((turn, turn // ROUND_TURNS, -1, turn / TURNS))
    frames = []
    for turn, round_number, acting, progress in blocks:
        noise = rng.normal(0, 4 * np.sqrt(progress * (1 - progress)) + 1e-9, final.shape)
        score = np.maximum(0, np.rint(final * progress + noise))
        value = score + 0.5 * (final - score) + rng.normal(0, 1, final.shape)
        frames.append((turn, round_number, acting, score, value))
    frames.append((TURNS, TURNS // ROUND_TURNS, -1, final, final))
    rows = []
    for order, (turn, round_number, acting, score, value) in enumerate(frames):
        rows.append(pl.DataFrame({
            "game_index": games, "turn": np.full(len(games), turn, np.int32),
            "round": np.full(len(games), round_number, np.int32),
            "acting_seat": pl.Series([None if acting < 0 else acting] * len(games), dtype=pl.Int32),
            **{f"score_seat_{seat}": score[:, seat].astype(np.int32) for seat in range(n_players)},
            **{f"position_value_seat_{seat}": value[:, seat].astype(np.float32) for seat in range(n_players)},
            **{f"gold_seat_{seat}": rng.integers(0, 9, len(games)).astype(np.int32) for seat in range(n_players)},
            "order": np.full(len(games), order)}))
    return pl.concat(rows).sort("game_index", "order").drop("order")


def per_game_rows(standings, n_players):
    """An engine's standings columns (one chunk's) as {game_index: the game's rows as a dict of
    arrays}, with ``score`` and ``position_value`` (positions x seats) gathered from the per-seat
    columns."""
    games = np.asarray(standings["game_index"])
    per_game = {}
    for game in np.unique(games):
        rows = {name: np.asarray(values)[games == game] for name, values in standings.items()}
        for column in ("score", "position_value"):
            rows[column] = np.column_stack([rows[f"{column}_seat_{seat}"] for seat in range(n_players)])
        per_game[int(game)] = rows
    return per_game


def with_standings(run_dir, target, standings: pl.DataFrame | None = None):
    """A copy of the run with a standings table (two parts) listed in its run.yaml."""
    shutil.copytree(run_dir, target)
    standings = synthetic_standings(run_dir) if standings is None else standings
    table = results.table_path(target, "standings")
    table.mkdir()
    middle = int(standings["game_index"].max()) // 2
    standings.filter(pl.col("game_index") < middle).write_parquet(table / results.part_name(0))
    standings.filter(pl.col("game_index") >= middle).write_parquet(table / results.part_name(middle))
    manifest = manifests.read_manifest(target)
    manifest["config"]["tables"] = [*manifest["config"]["tables"], "standings"]
    manifest["run_hash"] = manifests.content_hash(manifest["config"])
    manifests.write_manifest(target, manifest)
    return target
