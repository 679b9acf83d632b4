"""The strategy landscape's figures as a study cell's metrics (issue 41: "everywhere a metric goes").

A study whose experiment asks for ``landscape: {games: N}`` (sim.core.experiments) has the
landscape of each cell's rules played into ``RUN/landscape/`` once the cell's run is played
(sim.studies.landscape.ensure_cell_landscape), on the game indices of the run's own first games.
Its figures become the cell's metrics, as the kingmaker index does:

- ``option_value:<id>``: the win rate the tuned bot loses with the option switched off, one seat
  against n - 1 unrestricted tuned bots (restricted play, Jaffe et al. 2012). Each game of the
  option's sample gives a paired loss (the mirror game's seat credit minus the restricted seat's,
  the same seat of the same game), so it is a *sampled* metric (paired_metrics.SampledMetric)
  whose components are the loss and the sample indicator: two arms of a comparison (or a sweep's
  cell and the printed one) lose on the same game indices, and their difference is paired game
  by game. A variant that revives a dead option shows it as a paired rise of its value. The
  value is a *difference* of shares (between -1 and 1): it is ``signed``, and its interval is
  not clamped to [0, 1].
- ``dead_options``: how many of the valued options are dead (sim.studies.landscape.option_verdict):
  the target "no option dead" is ``dead_options`` at most 0. A count of verdicts, each already
  judged on its own interval, so the row's interval is the count itself.
- ``equilibrium_top_mass``: the mass of the strategy that holds most of the meta-game's
  maximum-entropy equilibrium (Nash averaging, reports.analysis.meta_game), with its bootstrap
  interval: 1 is a dominant strategy, so "no dominant strategy" is, e.g., at most 0.9 (met when
  the whole interval lies below).
- ``equilibrium_entropy``: the equilibrium's entropy as a share of the most the pool allows (0:
  one strategy holds it; 1: every strategy equally), with its bootstrap interval.

The meta-game's two figures are not means of per-game values: a cell's row carries no paired
difference (a comparison's table leaves them out; its arms' landscape pages show them).
"""
from __future__ import annotations

from pathlib import Path

import polars as pl
import yaml

from reports.analysis.metric import COUNT, RATE, RATIO, Metric, SampledMetric

DIRECTORY = "landscape"                     # RUN/landscape/: the landscape of a study cell's rules
RECORD_FILE = "landscape.yaml"              # what it was played for (the run's identity, the plan)
OPTION_GAMES_FILE = "option_games.parquet"  # per option and game: the paired loss
EQUILIBRIUM_FILE, VERDICTS_FILE, OPTIONS_FILE = "equilibrium.parquet", "verdicts.parquet", "options.parquet"
OPTION_VALUE = "option_value:"              # + an option's id (configs/landscape/<game>.yaml)
OPTION_LOSS = "option_loss:"
OPTION_SAMPLED = "option_sampled:"
DEAD_OPTIONS = "dead_options"
TOP_MASS = "equilibrium_top_mass"
ENTROPY = "equilibrium_entropy"
GROUP = "strategies"
DEAD = "dead"                               # sim.studies.landscape.DEAD: an option verdict


def option_value_metric(option_id: str, name: str) -> SampledMetric:
    """``option_value:<id>``: the mean paired loss over the option's sampled games."""
    return SampledMetric(f"{OPTION_VALUE}{option_id}", f"the value of {name} (the win rate lost without it)", GROUP,
                         RATE, (f"{OPTION_LOSS}{option_id}", f"{OPTION_SAMPLED}{option_id}"), RATIO,
                         sample=f"{OPTION_SAMPLED}{option_id}", signed=True)


META_METRICS = [
    Metric(TOP_MASS, "the equilibrium mass of the strongest strategy (1: a dominant strategy)", GROUP, RATE, ()),
    Metric(ENTROPY, "the equilibrium's entropy (share of the most the pool allows; 0: one strategy)", GROUP, RATE, ()),
]
DEAD_OPTIONS_METRIC = Metric(DEAD_OPTIONS, "the number of dead options", GROUP, COUNT, ())


def requested_metric_names(game: str, request) -> list[str]:
    """Every metric a cell of an experiment with ``landscape: request`` has (no games needed)."""
    if request is None:
        return []
    names = [DEAD_OPTIONS] + [f"{OPTION_VALUE}{option.id}" for option in requested_options(game, request)]
    return names + ([metric.name for metric in META_METRICS] if request.meta_game else [])


def every_metric_name(game: str) -> list[str]:
    """The landscape metrics an experiment of ``game`` could ask for (to name the missing key)."""
    return ([DEAD_OPTIONS] + [metric.name for metric in META_METRICS]
            + [f"{OPTION_VALUE}{option.id}" for option in inventory(game).options])


def inventory(game: str):
    from sim.studies.landscape_options import load_options   # the inventory is the landscape's

    return load_options(game)


def requested_options(game: str, request) -> list:
    options = inventory(game).options
    return list(options) if request.options == "all" else [option for option in options if option.id in request.options]


# ----------------------------------------------------------------------------- reading a played cell

def played_landscape(run_dir: Path, identity: str) -> Path | None:
    """RUN/landscape when it was played for this very run (its record names it), else None."""
    directory = Path(run_dir) / DIRECTORY
    record = directory / RECORD_FILE
    if not record.is_file():
        return None
    recorded = yaml.safe_load(record.read_text(encoding="utf-8")) or {}
    return directory if recorded.get("run") == identity else None


def played_landscape_of(run) -> Path | None:
    """``played_landscape`` of a loaded run (reports.analysis.rundir.Run), by its identity."""
    from reports.analysis.paired_metrics import run_identity   # paired_metrics reads this module

    return played_landscape(run.path, run_identity(run))


def option_components(directory: Path | None, n_players: int) -> tuple[pl.LazyFrame, list[Metric]] | None:
    """Per sampled game, each option's paired loss and sample indicator, and the options' metrics;
    None without option values at ``n_players``."""
    if directory is None or not (directory / OPTION_GAMES_FILE).is_file():
        return None
    games = pl.read_parquet(directory / OPTION_GAMES_FILE).filter(pl.col("n_players") == n_players)
    if games.is_empty():
        return None
    names = dict(pl.read_parquet(directory / OPTIONS_FILE).select("decision", "name").unique().iter_rows())
    decisions = sorted(games["decision"].unique().to_list())
    wide = games.pivot(on="decision", index="game_index", values="loss").select(
        pl.col("game_index").cast(pl.Int64),
        *[pl.col(decision).cast(pl.Float64).alias(f"{OPTION_LOSS}{decision}") for decision in decisions],
        *[pl.col(decision).is_not_null().cast(pl.Float64).alias(f"{OPTION_SAMPLED}{decision}") for decision in decisions])
    return wide.lazy(), [option_value_metric(decision, names.get(decision, decision)) for decision in decisions]


def meta_rows(directory: Path | None, n_players: int) -> list[dict]:
    """The cell's rows that are not means of per-game values, at ``n_players``: the number of dead
    options, and the meta-game's top mass and entropy with their bootstrap intervals."""
    if directory is None:
        return []
    rows = []
    if (directory / OPTIONS_FILE).is_file():
        options = pl.read_parquet(directory / OPTIONS_FILE).filter(pl.col("n_players") == n_players)
        if options.height:
            dead = float((options["verdict"] == DEAD).sum())
            rows.append(row(DEAD_OPTIONS_METRIC, n_players, dead, dead, dead, int(options["games"].max())))
    if (directory / EQUILIBRIUM_FILE).is_file():
        table = pl.read_parquet(directory / EQUILIBRIUM_FILE).filter(pl.col("n_players") == n_players)
        verdicts = pl.read_parquet(directory / VERDICTS_FILE).filter(pl.col("n_players") == n_players)
        if table.height and verdicts.height:
            top = table.sort(["mass", "strategy"], descending=[True, False]).row(0, named=True)
            verdict = verdicts.row(0, named=True)
            rows.append(row(META_METRICS[0], n_players, top["mass"], top["mass_low"], top["mass_high"], None))
            rows.append(row(META_METRICS[1], n_players, verdict["normalised_entropy"],
                            verdict["normalised_entropy_low"], verdict["normalised_entropy_high"], None))
    return rows


def row(metric: Metric, n_players: int, value: float, low: float, high: float, games: int | None) -> dict:
    return {"metric": metric.name, "metric_label": metric.label, "group": metric.group, "unit": metric.unit,
            "n_players": n_players, "value": float(value), "low": float(low), "high": float(high), "games": games}
