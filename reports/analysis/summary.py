"""Fair-comparison summary of a run directory: win rates, score differences, ratings, games needed.

Everything is computed with lazy polars scans over the Parquet tables (flat memory for any run
size); the small result frames are pandas, ready for a terminal table (``courtsim summary``) or
the HTML report. A win shared by k seats counts 1/k to each, so win rates add up to 1 per game.

- ``by_bot``: per player count and bot: games, win rate with Wilson interval, its fair share
  (1/players), mean score difference to the other seats with a normal interval, and how many
  more games would resolve the gap to the fair share (and a difference of ``difference``);
- ``by_seat``: per player count and place in the turn order (``position``: 0 = the first player,
  from the seats table's ``start_position``; a table without it has seat 0 start every game), so
  a drawn start player does not hide the first player's advantage;
- ``by_matchup``: per player count, match-up and bot (experiments only);
- ``ratings``: Bradley-Terry strengths from every pair of seats of every game
  (``reports.analysis.metrics_common.pairwise_results``, shared with the report).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import polars.selectors as cs

from reports.analysis import skill_ladder, stats
from reports.analysis.metrics_common import pairwise_results
from reports.analysis.rundir import check_table_file, load_run, read_run_manifest, seat_frame
from sim.core import results
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError

WIN_COLUMNS = ("is_winner",)   # the seats tables' "this seat won" column (both games, sim.core.table_schema)
DEFAULT_DIFFERENCE = 0.01


@dataclass
class RunSummary:
    game: str
    n_games: int
    by_bot: pd.DataFrame
    by_seat: pd.DataFrame
    by_matchup: pd.DataFrame
    ratings: pd.DataFrame
    difference: float
    ladder: object = None            # reports.analysis.skill_ladder.Ladder of a skill-ladder run
    ladder_result: object = None     # its reports.analysis.skill_ladder.LadderResult


def check_run_directory(run_dir: Path) -> dict:
    """The run's manifest; ConfigError unless it is a complete run with its tables."""
    run_dir = Path(run_dir)
    manifest = read_run_manifest(run_dir)
    if manifest.get("status") != manifests.COMPLETE:
        raise ConfigError(f"{run_dir}: the run is incomplete; run the same command again to finish it")
    for table in ("games", "seats"):
        if not results.table_path(run_dir, table).exists():
            raise ConfigError(f"{run_dir}: {table}.parquet is missing")
        check_table_file(results.table_path(run_dir, table))
    return manifest


def seat_outcomes(run_dir: Path) -> pl.LazyFrame:
    """One row per game and seat: n_players, seat, its place in the turn order, bot, score, win share, score difference to
    the mean of the other seats, and matchup when the run is an experiment."""
    # labelled columns (bot, matchup: dictionaries in Parquet) as plain strings for pandas
    seats = pl.scan_parquet(results.table_path(run_dir, "seats")).with_columns(cs.categorical().cast(pl.String))
    games = pl.scan_parquet(results.table_path(run_dir, "games")).with_columns(cs.categorical().cast(pl.String))
    seat_names = seats.collect_schema().names()
    win_column = next((name for name in WIN_COLUMNS if name in seat_names), None)
    if win_column is None or "score" not in seat_names or "bot" not in seat_names:
        raise ConfigError(f"{run_dir}: seats.parquet lacks the score, bot or winner columns")
    game_names = games.collect_schema().names()
    game_columns = ["game_index", "n_players"] + (["matchup"] if "matchup" in game_names else [])
    position = pl.col("start_position") if "start_position" in seat_names else pl.col("seat")
    frame = (seats.select("game_index", "seat", position.alias("position"), "bot", "score",
                          pl.col(win_column).cast(pl.Float64).alias("won"))
             .join(games.select(game_columns), on="game_index", how="left"))
    if "matchup" not in game_names:
        frame = frame.with_columns(pl.lit("(all)").alias("matchup"))
    n_winners = pl.col("won").sum().over("game_index")
    others_mean = (pl.col("score").sum().over("game_index") - pl.col("score")) / (pl.col("n_players") - 1)
    return frame.with_columns(
        (pl.col("won") / pl.when(n_winners > 0).then(n_winners).otherwise(1)).alias("win_share"),
        (pl.col("score") - others_mean).alias("score_difference"),
    )


def rate_table(outcomes: pl.LazyFrame, keys: list[str]) -> pd.DataFrame:
    """Games, wins, win rate with Wilson interval and mean score difference with interval."""
    frame = (outcomes.group_by(keys)
             .agg(pl.len().alias("games"), pl.col("win_share").sum().alias("wins"),
                  pl.col("score").mean().alias("mean_score"),
                  pl.col("score_difference").mean().alias("score_difference"),
                  pl.col("score_difference").std().alias("score_difference_std"))
             .sort(keys).collect().to_pandas())
    frame["win_rate"] = frame["wins"] / frame["games"]
    frame["win_low"], frame["win_high"] = stats.wilson_interval(frame["wins"], frame["games"])
    frame["fair_share"] = 1.0 / frame["n_players"]
    frame["difference_low"], frame["difference_high"] = stats.mean_interval(
        frame["score_difference"], frame["score_difference_std"].fillna(0.0), frame["games"])
    return frame.drop(columns=["score_difference_std"])


def add_games_needed(frame: pd.DataFrame, difference: float) -> pd.DataFrame:
    """``more_games_gap``: further games until the gap to the fair share is resolved (0 when it
    already is); ``games_for_difference``: games to resolve a win-rate difference of
    ``difference`` around this rate."""
    needed_gap, needed_difference = [], []
    for row in frame.itertuples():
        needed = stats.games_needed(row.win_rate, row.fair_share)
        needed_gap.append(max(0.0, needed - row.games) if np.isfinite(needed) else np.inf)
        reference = min(max(row.win_rate + difference, 0.0), 1.0)
        needed_difference.append(stats.games_needed(row.win_rate, reference))
    frame["more_games_gap"] = needed_gap
    frame["games_for_difference"] = needed_difference
    return frame


def summarise(run_dir: str | Path, difference: float = DEFAULT_DIFFERENCE) -> RunSummary:
    run_dir = Path(run_dir)
    manifest = check_run_directory(run_dir)
    outcomes = seat_outcomes(run_dir)
    by_bot = add_games_needed(rate_table(outcomes, ["n_players", "bot"]), difference)
    by_seat = rate_table(outcomes, ["n_players", "position"])
    by_matchup = rate_table(outcomes, ["n_players", "matchup", "bot"])
    summary = RunSummary(game=manifest["config"].get("game", "?"), n_games=int(manifest["config"]["n_games"]),
                         by_bot=by_bot, by_seat=by_seat, by_matchup=by_matchup,
                         ratings=stats.bradley_terry(pairwise_results(outcomes.rename({"won": "win"}))),
                         difference=difference)
    summary.ladder = skill_ladder.ladder_of(manifest)
    if summary.ladder is not None:
        seats, _ = seat_frame(load_run(run_dir))
        summary.ladder_result = skill_ladder.analyse(seats, summary.ladder)
    return summary
