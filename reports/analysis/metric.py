"""What a metric is: its components (per-game columns), how they combine, and its unit.

The common metrics (reports.analysis.paired_metrics) and each game's own (metrics_<game>.py, named
by the game's descriptor) are built from these; a game's metrics module imports this module, not
paired_metrics, which finds the game's module through the registry.
"""
from __future__ import annotations

from dataclasses import dataclass

import polars as pl

MEAN, RATIO, BALANCE = "mean", "ratio", "balance"
RATE, POINTS, ROUNDS, TURNS, COUNT = "rate", "points", "rounds", "turns", "count"


@dataclass(frozen=True)
class Metric:
    """One row of the comparison table: its components and how they combine."""
    name: str
    label: str                       # plain words: "the first player's win rate"
    group: str                       # seats, bots, scores, outcome, mechanics
    unit: str                        # rate (percent, differences in points) or points, turns, count
    components: tuple[str, ...]
    function: str = MEAN             # MEAN (one component), RATIO (a / b), BALANCE (the players' rates)
    signed: bool = False             # a rate's difference (between -1 and 1): its interval is not kept in [0, 1]


@dataclass(frozen=True)
class SampledMetric(Metric):
    """A metric measured on a sample of the games only: ``sample`` is its component that is 1
    for a game in the sample (0 outside it, where every component is 0)."""
    sample: str = ""


def is_sampled(metric: Metric) -> bool:
    return bool(getattr(metric, "sample", ""))


def counts_per_game(lf: pl.LazyFrame, games: pl.LazyFrame, aggregations: list[pl.Expr]) -> pl.LazyFrame:
    """Per-game sums of a table with rows per event (every game of ``games`` gets a row: 0 when
    it had no such event)."""
    sums = lf.group_by("game_index").agg(aggregations)
    return games.select("game_index").join(sums, on="game_index", how="left").fill_null(0)


def per_game_metric(name: str, label: str, component: str, unit: str = COUNT) -> Metric:
    return Metric(name, label, "mechanics", unit, (component,))
