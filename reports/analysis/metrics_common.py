"""Balance metrics shared by every game: win rates with intervals, the seat-advantage test,
balance, score distributions, tie-break frequency, game length, drama and match-ups.

Inputs are the standard lazy frames of :mod:`reports.analysis.rundir`; outputs are small pandas frames.
Every group-by and join runs on slices of :data:`BATCH_GAMES` game indices through
:func:`sum_batches` (partial sums and counts, added up; means, shares and quantiles are derived
from them afterwards), so a report's memory does not grow with the number of games.
Wins are counted as *credits*: a shared win gives each of the k winners 1/k, so the credits of
a game sum to 1 and the fair share of a seat is 1 / n_players.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import polars as pl
from scipy import stats as scipy_stats

from reports.analysis import stats
from reports.analysis.rundir import GAME_RANGE, collect, games_slice, index_range

ALPHA = 0.05
# Games per slice: every metric that reads the per-seat or per-game frames (or another per-game
# table) runs on slices of consecutive game indices and adds the partial results up, so memory
# holds one slice at a time however many games the run has (read at call time: tests shrink it).
BATCH_GAMES = 100_000


def wilson_interval(successes, trials, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (arrays or scalars); NaN where there are no trials."""
    return stats.wilson_interval(successes, trials, confidence=1.0 - alpha)


def with_rate(frame: pd.DataFrame, successes: str, trials: str, name: str = "rate") -> pd.DataFrame:
    """Add ``name``, ``name_low``, ``name_high`` (Wilson 95%) to ``frame``."""
    frame = frame.copy()
    frame[name] = frame[successes] / frame[trials].where(frame[trials] > 0)
    frame[f"{name}_low"], frame[f"{name}_high"] = wilson_interval(frame[successes], frame[trials])
    return frame


def win_rates(seats: pl.LazyFrame, by: list[str]) -> pd.DataFrame:
    """Games played, win credits and win rate (with Wilson interval) per group of ``by``."""
    frame = sum_batches(seats, lambda batch, _: batch.group_by(by).agg(
        pl.len().alias("games"), pl.col("credit").sum().alias("wins"),
        pl.col("score").sum().alias("score_sum"), pl.col("score").count().alias("score_count")), by)
    frame["mean_score"] = frame.pop("score_sum") / frame.pop("score_count").where(lambda c: c > 0)
    return with_rate(frame, "wins", "games", "win_rate")


def seat_advantage_test(wins_by_seat) -> dict:
    """Chi-square test of wins by seat against equal shares: statistic, dof, p-value, Cohen's w.

    ``wins_by_seat`` are the win credits of each seat over the same games (they sum to the
    number of games N); effect size w = sqrt(chi2 / N)."""
    observed = np.asarray(wins_by_seat, dtype=float)
    total = observed.sum()
    if len(observed) < 2 or total <= 0:
        return {"chi2": math.nan, "dof": max(len(observed) - 1, 0), "p_value": math.nan,
                "cohens_w": math.nan, "games": float(total)}
    result = scipy_stats.chisquare(observed)
    return {"chi2": float(result.statistic), "dof": len(observed) - 1,
            "p_value": float(result.pvalue), "cohens_w": math.sqrt(result.statistic / total),
            "games": float(total)}


def effect_size_words(w: float) -> str:
    """Cohen's conventional labels for w."""
    if not np.isfinite(w):
        return "undefined"
    if w < 0.1:
        return "negligible"
    if w < 0.3:
        return "small"
    if w < 0.5:
        return "medium"
    return "large"


def rotation_balanced(seat_bot_counts: pd.DataFrame) -> bool:
    """True when every bot sits equally often in every seat (same bots everywhere, or
    seat-rotated match-ups), so that a seat effect is not a bot effect.
    ``seat_bot_counts``: columns ``seat``, ``bot``, ``games``."""
    table = seat_bot_counts.pivot_table(index="bot", columns="seat", values="games",
                                        aggfunc="sum", fill_value=0)
    return bool((table.max(axis=1) == table.min(axis=1)).all())


def seat_advantage(seats: pl.LazyFrame) -> pd.DataFrame:
    """Per player count: the chi-square test of wins by turn-order position, balance and the
    first player's win rate. Columns: n_players, games, chi2, dof, p_value, cohens_w,
    rotation_balanced, balance, first_player_rate."""
    by_position = win_rates(seats, ["n_players", "position"])
    keys = ["n_players", "position", "bot"]
    seat_bots = sum_batches(seats, lambda batch, _: batch.group_by(keys).agg(pl.len().alias("games")),
                            keys).rename(columns={"position": "seat"})
    rows = []
    for n_players, group in by_position.groupby("n_players"):
        group = group.sort_values("position")
        test = seat_advantage_test(group["wins"].to_numpy())
        rates = group["win_rate"].to_numpy()
        rows.append({"n_players": int(n_players), "games": int(round(test["games"])),
                     "chi2": test["chi2"], "dof": test["dof"], "p_value": test["p_value"],
                     "cohens_w": test["cohens_w"],
                     "rotation_balanced": rotation_balanced(seat_bots[seat_bots.n_players == n_players]),
                     "balance": balance_index(rates),
                     "first_player_rate": float(rates[0]), "fair_share": 1.0 / n_players})
    return pd.DataFrame(rows)


def balance_index(win_rates_by_seat) -> float:
    """One minus the largest gap between seats' win rates (1 = perfectly even)."""
    rates = np.asarray(win_rates_by_seat, dtype=float)
    return float(1.0 - (rates.max() - rates.min())) if len(rates) else math.nan


def value_counts(lf: pl.LazyFrame, value: str, by: list[str]) -> pd.DataFrame:
    """Histogram of integer ``value`` per group: ``by`` + value + count + share."""
    keys = by + [value]
    frame = sum_batches(lf, lambda batch, _: batch.group_by(keys).agg(pl.len().alias("count")), keys)
    frame["share"] = frame["count"] / frame.groupby(by)["count"].transform("sum")
    return frame


def score_summary(seats: pl.LazyFrame, by: list[str]) -> pd.DataFrame:
    """Mean, standard deviation and quartiles of the final score per group, computed from the
    integer score histogram (a small table, so memory does not grow with the run)."""
    histogram = value_counts(seats, "score", by)
    rows = []
    for key, part in histogram.groupby(by, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        rows.append(dict(zip(by, key), **histogram_summary(part["score"].to_numpy(), part["count"].to_numpy())))
    return pd.DataFrame(rows)


def histogram_summary(values, counts) -> dict:
    """seat_games, mean, std (sample), q25, median, q75 of a weighted integer histogram
    (quantiles: the smallest value whose cumulative share reaches q)."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    order = np.argsort(values)
    values, counts = values[order], counts[order]
    total = counts.sum()
    mean = float((values * counts).sum() / total)
    variance = float((counts * (values - mean) ** 2).sum() / (total - 1)) if total > 1 else math.nan
    cumulative = np.cumsum(counts) / total
    quantile = {q: float(values[np.searchsorted(cumulative, q - 1e-12)]) for q in (0.25, 0.5, 0.75)}
    return {"seat_games": int(total), "mean": mean, "std": math.sqrt(variance) if variance == variance else math.nan,
            "q25": quantile[0.25], "median": quantile[0.5], "q75": quantile[0.75]}


def histogram_quantiles(values, counts, quantiles: dict[str, tuple[float, str]]) -> dict:
    """Quantiles of a weighted histogram exactly as polars' ``Expr.quantile(q, method)``
    computes them on the expanded values (methods ``nearest`` and ``linear``; ``median`` is
    ``linear`` at 0.5). ``quantiles``: name -> (q, method)."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=np.int64)
    order = np.argsort(values, kind="stable")
    values, cumulative = values[order], np.cumsum(counts[order])
    total = int(cumulative[-1]) if len(cumulative) else 0

    def at(index: int) -> float:        # the index-th smallest value (0-based)
        return float(values[np.searchsorted(cumulative, index, side="right")])

    result = {}
    for name, (q, method) in quantiles.items():
        if total == 0:
            result[name] = math.nan
            continue
        position = (total - 1) * q
        if method == "nearest":
            result[name] = at(min(int(math.floor(position + 0.5)), total - 1))
        else:
            low = int(math.floor(position))
            base = at(low)
            result[name] = base if low + 1 >= total else base + (at(low + 1) - base) * (position - low)
    return result


def game_indicators(games: pl.LazyFrame) -> pd.DataFrame:
    """Per player count: games, how often the final tie-break decided (with interval), shared
    wins, mean winning score, mean margin, mean length."""
    means = {"winning_score": "mean_winning_score", "margin": "mean_margin", "length": "mean_length"}

    def sums(batch: pl.LazyFrame, _) -> pl.LazyFrame:
        return batch.group_by("n_players").agg(
            pl.len().alias("games"),
            pl.col("tiebreak_decided").sum().alias("tiebreak_games"),
            pl.col("shared_win").sum().alias("shared_games"),
            *[pl.col(c).sum().cast(pl.Float64).alias(f"{c}_sum") for c in means],
            *[pl.col(c).count().alias(f"{c}_count") for c in means])

    frame = sum_batches(games, sums, ["n_players"])
    for column, name in means.items():
        count = frame.pop(f"{column}_count")
        frame[name] = frame.pop(f"{column}_sum") / count.where(count > 0)
    frame = with_rate(frame, "tiebreak_games", "games", "tiebreak_rate")
    return with_rate(frame, "shared_games", "games", "shared_rate")


def drama(seats: pl.LazyFrame, round_columns: list[str], batch_games: int | None = None) -> pd.DataFrame:
    """Per player count and round: how often none of the leaders after that round (the seats
    with the highest score then, ties included) is a final winner, with interval."""
    if not round_columns:
        return pd.DataFrame(columns=["n_players", "round", "games", "upsets", "upset_rate"])
    def upsets(batch: pl.LazyFrame, in_batch: pl.Expr) -> pl.LazyFrame:
        per_game = batch.group_by("game_index").agg(
            pl.col("n_players").first(),
            *[((pl.col(c) == pl.col(c).max()) & (pl.col("win") > 0)).any().alias(c) for c in round_columns])
        return per_game.group_by("n_players").agg(
            pl.len().alias("games"), *[(~pl.col(c)).sum().alias(c) for c in round_columns])

    frame = sum_batches(seats, upsets, ["n_players"], batch_games)
    long = frame.melt(id_vars=["n_players", "games"], value_vars=round_columns,
                      var_name="round", value_name="upsets")
    long["round"] = long["round"].str.rsplit("_", n=1).str[-1].astype(int)
    return with_rate(long.sort_values(["n_players", "round"]).reset_index(drop=True),
                     "upsets", "games", "upset_rate")


def game_range(lf: pl.LazyFrame) -> tuple[int, int] | None:
    """First and last ``game_index`` of ``lf`` (None: no rows). The standard frames of
    :mod:`reports.analysis.rundir` carry it (attribute ``GAME_RANGE``, from the games table), because
    computing it through their join would hold the whole run."""
    known = getattr(lf, GAME_RANGE, None)
    return known if known is not None else index_range(lf)


def in_label_order(frame: pd.DataFrame, keys: list[str], labels: dict[str, tuple[str, ...]]) -> pd.DataFrame:
    """``frame`` sorted by ``keys`` with each labelled key in its declared label order (the order
    of its codes, sim.core.table_schema) instead of alphabetically."""
    positions = {column: {label: index for index, label in enumerate(names)} for column, names in labels.items()}
    return frame.sort_values(keys, key=lambda values: values.map(positions[values.name])
                             if values.name in positions else values, na_position="first").reset_index(drop=True)


def sum_batches(lf: pl.LazyFrame, aggregate, keys: list[str], batch_games: int | None = None,
                combine: str = "sum") -> pd.DataFrame:
    """Run ``aggregate(batch, in_batch)`` (a group-by or join ending in sums or counts per
    ``keys``; ``in_batch`` is the slice's filter on game_index, for other tables it joins) on
    slices of ``batch_games`` (default :data:`BATCH_GAMES`) consecutive game indices and add the
    results up (``combine="first"``: keep the first slice's value), sorted by ``keys`` (none:
    one row of totals). Nothing holds more than one slice (the filter reaches the Parquet scans,
    which skip the other row groups), so memory stays flat however big the run. A frame without
    ``game_index`` is aggregated in one go."""
    batch_games = max(1, int(batch_games or BATCH_GAMES))
    bounds = game_range(lf) if "game_index" in lf.collect_schema().names() else None
    if bounds is None:
        parts = [collect(aggregate(lf, pl.lit(True))).to_pandas()]
    else:
        parts = []
        for start in range(bounds[0], bounds[1] + 1, batch_games):
            in_batch = pl.col("game_index").is_between(start, start + batch_games - 1)
            with games_slice(start, start + batch_games - 1):
                parts.append(collect(aggregate(lf.filter(in_batch), in_batch)).to_pandas())
    frame = pd.concat(parts, ignore_index=True)
    if not keys:
        return pd.DataFrame([frame.sum(numeric_only=True)])
    grouped = frame.groupby(keys, as_index=False, dropna=False)
    return ((grouped.first() if combine == "first" else grouped.sum(numeric_only=True))
            .sort_values(keys, na_position="first").reset_index(drop=True))


def matchup_seat_table(seats: pl.LazyFrame) -> pd.DataFrame:
    """Win credits per (n_players, matchup, seating, seat, bot): the small table match-up views use."""
    keys = ["n_players", "matchup", "seating", "seat", "bot"]
    return sum_batches(seats, lambda batch, _: batch.group_by(keys).agg(
        pl.len().alias("games"), pl.col("credit").sum().alias("wins")), keys)


def matchup_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """Head-to-head matrix: win rate of bot ``row`` (per seat it plays) over the games in which
    at least one *other* seat plays bot ``column``; with games and Wilson interval.
    Input: :func:`matchup_seat_table`."""
    rows = []
    for _, group in table.groupby(["n_players", "seating"]):
        bots = dict(zip(group["seat"], group["bot"]))
        for record in group.itertuples():
            opponents = {bots[s] for s in bots if s != record.seat}
            for opponent in opponents:
                rows.append({"bot": record.bot, "opponent": opponent,
                             "games": record.games, "wins": record.wins})
    if not rows:
        return pd.DataFrame(columns=["bot", "opponent", "games", "wins", "win_rate"])
    frame = pd.DataFrame(rows).groupby(["bot", "opponent"], as_index=False)[["games", "wins"]].sum()
    return with_rate(frame, "wins", "games", "win_rate")


def pairwise_results(seats: pl.LazyFrame, batch_games: int | None = None) -> pd.DataFrame:
    """For every pair of seats of a game played by different bots, who finished ahead (higher
    score; at equal score a winner ahead of a non-winner; otherwise half each), summed per
    (bot_a, bot_b) with bot_a < bot_b: columns bot_a, bot_b, wins_a, wins_b (the input of the
    Bradley-Terry ratings in reports.analysis.stats). Computed in slices of games (flat memory)."""
    def pairs(batch: pl.LazyFrame, in_batch: pl.Expr) -> pl.LazyFrame:
        left = batch.select("game_index", "seat", pl.col("bot").alias("bot_a"),
                            pl.col("score").alias("score_a"), pl.col("win").alias("won_a"))
        right = batch.select("game_index", pl.col("seat").alias("seat_b"), pl.col("bot").alias("bot_b"),
                             pl.col("score").alias("score_b"), pl.col("win").alias("won_b"))
        ahead = (pl.col("score_a") > pl.col("score_b")) | (
            (pl.col("score_a") == pl.col("score_b")) & (pl.col("won_a") > pl.col("won_b")))
        tied = (pl.col("score_a") == pl.col("score_b")) & (pl.col("won_a") == pl.col("won_b"))
        return (left.join(right, on="game_index")
                .filter(pl.col("bot_a") < pl.col("bot_b"))
                .with_columns(pl.when(ahead).then(1.0).when(tied).then(0.5).otherwise(0.0).alias("a_points"))
                .group_by("bot_a", "bot_b")
                .agg(pl.col("a_points").sum().alias("wins_a"), (1.0 - pl.col("a_points")).sum().alias("wins_b")))
    return sum_batches(seats, pairs, ["bot_a", "bot_b"], batch_games)


def percent(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"
