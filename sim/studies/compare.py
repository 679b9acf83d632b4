"""``courtsim compare``: what does a rule change do? An experiment played under the baseline
rules and under each variant on common random numbers, then paired statistics per metric.

Every *arm* (the baseline, each variant) plays the same experiment with the same seed and the
same game indices, so game i of every arm starts from the same draws and diverges only where a
rule change bites (sim.core.random_streams keys every stream by seed, game index and source).
The comparison is then paired game by game (reports.comparison_stats), which needs many times
fewer games than two independent runs; the table reports that gain per metric.

Layout of the comparison directory::

    DIR/comparison.yaml            the plan, the variants' overrides, the method, the decisions
    DIR/runs/<arm>/batch-<b>/      one ordinary run per arm and batch (resumes like any run)
    DIR/comparison.parquet         one row per (metric, n_players, variant)
    DIR/report.html                the comparison report (reports.comparison_report)

A batch is the whole experiment (every match-up in every seating) with its games shifted to
new indices: batch b plays the indices after batch b-1's. Without ``--until-resolved`` there is
one batch. With it, batches are played until the sequential test (two one-sided GSPRTs against
+-margin per requested metric, reports.comparison_stats.sequential_decision) has decided every
requested difference, or ``max_games`` is spent; a variant whose every requested metric is
decided plays no further batch. Everything it decides is recomputed from the finished batches,
so a resumed comparison decides exactly as an uninterrupted one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl
import yaml

from reports import comparison_stats as stats
from reports import paired_metrics
from sim import registry
from sim.core import results, variants
from sim.core import run_manifest as manifests
from sim.core.arguments import check_game_count
from sim.core.engine import GAME_INDEX_LIMIT, ConfigError
from sim.core.experiments import ExperimentFile, load_experiment, prepare_experiment
from sim.core.runner import run_cells

BASELINE = "baseline"
FORMAT = 1
PLAN_FILE = "comparison.yaml"
TABLE_FILE = "comparison.parquet"
ADJUSTMENTS = {"holm": "Holm (family-wise error rate)", "fdr_bh": "Benjamini-Hochberg (false discovery rate)"}
DEFAULT_MARGIN = 0.01
CONFIDENCE = 0.95
ALPHA = 0.05


@dataclass
class Arm:
    """The baseline or one variant: its name, variant (None: the printed rules), its batches."""
    name: str
    variant: variants.Variant | None
    runs: list[Path] = field(default_factory=list)
    decided: bool = False


@dataclass
class ComparisonPlan:
    experiment_path: Path
    experiment: ExperimentFile
    baseline: Arm
    variants: list[Arm]
    out_dir: Path
    games_per_matchup: int
    jobs: int
    until_resolved: bool = False
    margin: float = DEFAULT_MARGIN
    metrics: list[str] = field(default_factory=list)
    max_games: int | None = None
    adjustment: str = "holm"
    overwrite: bool = False
    games_per_batch: int = 0         # games of one batch of one arm (every arm plays the same cells)
    bots: list[str] = field(default_factory=list)   # the pool's bot names, in pool order

    @property
    def arms(self) -> list[Arm]:
        return [self.baseline, *self.variants]


def plan_comparison(experiment_file: Path, variant_names: list[str], out_dir: Path, baseline: str | None = None,
                    games_per_matchup: int | None = None, jobs: int | None = None, until_resolved: bool = False,
                    margin: float = DEFAULT_MARGIN, metrics: list[str] | None = None, max_games: int | None = None,
                    adjustment: str = "holm", overwrite: bool = False) -> ComparisonPlan:
    """Validate everything before a game is played (one-line ConfigErrors)."""
    experiment = load_experiment(experiment_file)
    registry.get_engine(experiment.game)
    if not variant_names:
        raise ConfigError("--variants: expected one or more variant names, comma-separated")
    repeated = sorted({name for name in variant_names if variant_names.count(name) > 1})
    if repeated:
        raise ConfigError(f"--variants: expected each variant once, found {', '.join(repeated)} twice")
    baseline_variant = variants.load_variant(baseline, experiment.game, where="--baseline") if baseline else None
    if baseline is None and experiment.variant is not None:
        baseline_variant = variants.load_variant(experiment.variant, experiment.game,
                                                 where=f"{experiment_file}: key 'variant'")
    loaded = [variants.load_variant(name, experiment.game, where="--variants") for name in variant_names]
    arms = [Arm(variant.name, variant) for variant in loaded]
    names = [arm.name for arm in arms]
    baseline_name = baseline_variant.name if baseline_variant else BASELINE
    if baseline_name in names:
        raise ConfigError(f"--variants: {baseline_name} is the baseline; compare it with other variants")
    if len(set(names)) != len(names):
        raise ConfigError(f"--variants: two variants are named alike ({', '.join(names)})")
    if adjustment not in ADJUSTMENTS:
        raise ConfigError(f"--adjust: expected {' or '.join(ADJUSTMENTS)}, found {adjustment!r}")
    if not (0 < margin < 1) or not math.isfinite(margin):
        raise ConfigError(f"--margin: expected a number between 0 and 1 (0.01 = one point of win rate), found {margin}")
    if games_per_matchup is not None:
        check_game_count(games_per_matchup, "--games-per-matchup")
    if max_games is not None:
        check_game_count(max_games, "--max-games")
    plan = ComparisonPlan(Path(experiment_file), experiment, Arm(baseline_name, baseline_variant), arms, Path(out_dir),
                          games_per_matchup or experiment.games_per_matchup,
                          jobs if jobs is not None else experiment.jobs, until_resolved, margin, list(metrics or []),
                          max_games, adjustment, overwrite)
    for arm in plan.arms:   # every arm's rules validated up front, not after the baseline has run
        _, _, _, cells, config = arm_experiment(plan, arm, 0)
    plan.games_per_batch = sum(cell.n_games for cell in cells)
    plan.bots = [bot["name"] for bot in config["bots"]]
    if metrics:
        known = {metric.name for metric in known_metrics(plan)}
        unknown = [name for name in metrics if name not in known]
        if unknown:
            raise ConfigError(f"--metrics: unknown metric {', '.join(unknown)}; expected some of {', '.join(sorted(known))}")
    return plan


def arm_experiment(plan: ComparisonPlan, arm: Arm, batch: int):
    """(experiment, engine, setup, cells, config) of one arm's batch: the same cells for every arm."""
    first_game = batch * plan.games_per_batch
    if first_game >= GAME_INDEX_LIMIT:
        raise ConfigError(f"--max-games: the comparison's batches would need game indices beyond {GAME_INDEX_LIMIT:,}")
    return prepare_experiment(plan.experiment_path, variant=str(arm.variant.path) if arm.variant else None,
                              games_per_matchup=plan.games_per_matchup, first_game=first_game,
                              printed_rules=arm.variant is None)


def known_metrics(plan: ComparisonPlan) -> list[paired_metrics.Metric]:
    """The metrics the report knows for this experiment (declared: no games needed)."""
    return paired_metrics.declared_metrics(plan.experiment.game, plan.experiment.players, plan.bots)


# ----------------------------------------------------------------------------- playing

def run_comparison(plan: ComparisonPlan, log: Callable[[str], None] = print, progress: bool = True) -> Path:
    """Play every arm's batches (resuming whatever is finished), then write the table, the plan
    with its decisions, and the report. Returns the comparison directory."""
    plan.out_dir.mkdir(parents=True, exist_ok=True)
    write_plan(plan, decisions=[], batches=0, final=False)
    per_batch = plan.games_per_batch
    max_batches = max(1, math.ceil(plan.max_games / per_batch)) if plan.until_resolved and plan.max_games else (
        1 if not plan.until_resolved else default_max_batches(per_batch))
    batch, decisions, table = 0, [], None
    while True:
        for arm in plan.arms:
            if arm.decided:
                continue
            play_batch(plan, arm, batch, log, progress)
        batch += 1
        table = comparison_table(plan)
        if not plan.until_resolved:
            break
        decisions = sequential_decisions(plan, table)
        for arm in plan.variants:
            arm.decided = all(entry["decision"] != "continue" for entry in decisions if entry["variant"] == arm.name)
        undecided = sum(1 for entry in decisions if entry["decision"] == "continue")
        log(f"after batch {batch}: {len(decisions) - undecided} of {len(decisions)} requested differences decided")
        if undecided == 0 or batch >= max_batches:
            break
    if plan.until_resolved:
        table = apply_sequential_verdicts(table, decisions)
    write_table(plan, table)
    write_plan(plan, decisions=decisions, batches=batch, final=True)
    from reports.comparison_report import write_comparison_report
    write_comparison_report(plan.out_dir)
    return plan.out_dir


def default_max_batches(per_batch: int) -> int:
    """Without --max-games: up to 2,000,000 games per arm (a 0.01 margin needs far fewer)."""
    return max(1, math.ceil(2_000_000 / per_batch))


def play_batch(plan: ComparisonPlan, arm: Arm, batch: int, log, progress: bool) -> None:
    experiment, engine, setup, cells, config = arm_experiment(plan, arm, batch)
    out_dir = plan.out_dir / "runs" / arm.name / f"batch-{batch:03d}"
    log(f"{arm.name}, batch {batch + 1}: {sum(cell.n_games for cell in cells):,} games -> {out_dir}")
    run_cells(engine, setup, cells, experiment.seed, out_dir, config, jobs=plan.jobs,
              chunk_size=experiment.chunk_size, progress=progress, overwrite=plan.overwrite, log=log,
              provenance={"experiment_file": str(plan.experiment_path), "comparison": str(plan.out_dir),
                          **manifests.setup_provenance(setup)})
    arm.runs.append(out_dir)


# ----------------------------------------------------------------------------- statistics

FUNCTIONS = {paired_metrics.MEAN: stats.MEAN, paired_metrics.RATIO: stats.RATIO, paired_metrics.BALANCE: stats.balance}


def comparison_table(plan: ComparisonPlan) -> pl.DataFrame:
    """One row per (metric, n_players, variant) over every finished batch; p-values adjusted
    over the whole table."""
    rows = []
    bots = plan.bots
    for n_players in plan.experiment.players:
        baseline, metrics = paired_metrics.per_game(plan.baseline.runs, n_players, bots)
        for arm in plan.variants:
            variant, _ = paired_metrics.per_game(arm.runs, n_players, bots)
            paired_baseline = baseline.join(variant.select("game_index"), on="game_index", how="inner")
            variant = variant.join(paired_baseline.select("game_index"), on="game_index", how="inner")
            for metric in metrics:
                if not all(column in variant.columns for column in metric.components):
                    continue
                if repeats_another_metric(metric, n_players, paired_baseline, variant):
                    continue
                result = stats.paired(paired_baseline.select(metric.components).to_numpy(),
                                      variant.select(metric.components).to_numpy(), FUNCTIONS[metric.function],
                                      confidence=CONFIDENCE)
                rows.append({"metric": metric.name, "metric_label": metric.label, "group": metric.group,
                             "unit": metric.unit, "n_players": n_players, "variant": arm.name,
                             "baseline_value": result.baseline_value, "variant_value": result.variant_value,
                             "difference": result.difference, "low": result.low, "high": result.high,
                             "p_value": result.p_value, "crn_gain": result.crn_gain, "games": result.games,
                             "margin": metric_margin(plan, metric, result.baseline_value),
                             "n": result.n, "mean_d": result.mean_d, "var_d": result.var_d})
    table = pl.DataFrame(rows, infer_schema_length=None)
    adjusted = stats.adjust(table["p_value"].to_numpy(), plan.adjustment)
    table = table.with_columns(pl.Series("p_adjusted", adjusted))
    verdicts = [stats.verdict(low, high, p, margin, ALPHA)
                for low, high, p, margin in table.select("low", "high", "p_adjusted", "margin").iter_rows()]
    return table.with_columns(pl.Series("verdict", verdicts, dtype=pl.String))


def repeats_another_metric(metric: paired_metrics.Metric, n_players: int, baseline: pl.DataFrame,
                           variant: pl.DataFrame) -> bool:
    """A row that would only repeat another: at 2 players seat 2's win rate is 100% minus seat
    1's (win credits sum to 1), and the first player's win rate is seat 1's whenever seat 1
    starts every game of both arms (unless random_start_player is on)."""
    if n_players == 2 and metric.name == "seat_2_win_rate":
        return True
    if metric.name == "start_player_win_rate":
        return all(frame["win_start_player"].equals(frame["win_seat_0"]) for frame in (baseline, variant))
    return False


def metric_margin(plan: ComparisonPlan, metric: paired_metrics.Metric, baseline_value: float) -> float:
    """The margin in the metric's unit: --margin itself for a rate (0.01 = one point), else
    --margin times the baseline value (0.01 = 1% of it; --margin itself where the baseline is 0)."""
    if metric.unit == paired_metrics.RATE:
        return plan.margin
    if not math.isfinite(baseline_value):
        return float("nan")
    if baseline_value == 0:   # nothing to take a share of: the margin in the metric's own unit
        return plan.margin
    return plan.margin * abs(baseline_value)


def requested(plan: ComparisonPlan, table: pl.DataFrame) -> pl.DataFrame:
    """The rows --until-resolved decides on: --metrics, by default every seat's win rate."""
    names = plan.metrics or [name for name in table["metric"].unique().to_list()
                             if name.startswith("seat_") and name.endswith("_win_rate")]
    return table.filter(pl.col("metric").is_in(names))


def sequential_decisions(plan: ComparisonPlan, table: pl.DataFrame) -> list[dict]:
    """Each requested difference's GSPRT decision over all paired games so far; alpha is split
    over the m requested differences (Bonferroni: a false "real" anywhere has chance <= alpha),
    beta applies to each."""
    rows = requested(plan, table)
    alpha = ALPHA / max(1, rows.height)
    decisions = []
    for row in rows.iter_rows(named=True):
        decision = stats.sequential_decision(int(row["n"]), float(row["mean_d"]), float(row["var_d"]),
                                             float(row["margin"]), alpha=alpha, beta=ALPHA)
        decisions.append({"metric": row["metric"], "n_players": int(row["n_players"]), "variant": row["variant"],
                          "decision": decision.decision, "games": int(row["games"]),
                          "llr_up": float(decision.llr_up), "llr_down": float(decision.llr_down)})
    return decisions


def apply_sequential_verdicts(table: pl.DataFrame, decisions: list[dict]) -> pl.DataFrame:
    """With --until-resolved the requested rows' verdicts are the sequential test's ("continue"
    when the budget ran out: "not resolved"); the other rows keep the fixed-sample verdict."""
    if not decisions:
        return table
    words = pl.DataFrame([{"metric": entry["metric"], "n_players": entry["n_players"], "variant": entry["variant"],
                           "sequential": "not resolved" if entry["decision"] == "continue" else entry["decision"]}
                          for entry in decisions])
    table = table.join(words, on=["metric", "n_players", "variant"], how="left")
    return table.with_columns(pl.coalesce("sequential", "verdict").alias("verdict")).drop("sequential")


# ----------------------------------------------------------------------------- files

TABLE_COLUMNS = ("metric", "metric_label", "group", "unit", "n_players", "variant", "baseline_value",
                 "variant_value", "difference", "low", "high", "p_value", "p_adjusted", "verdict", "crn_gain",
                 "games", "margin")


def write_table(plan: ComparisonPlan, table: pl.DataFrame) -> None:
    table = table.select(*TABLE_COLUMNS).with_columns(pl.col("n_players").cast(pl.Int32), pl.col("games").cast(pl.Int64))
    results.write_parquet_atomically(table.to_arrow(), plan.out_dir / TABLE_FILE)


def arm_record(arm: Arm, engine, game_file: str | None) -> dict:
    if arm.variant is None:
        return {"name": arm.name, "label": "the printed rules", "description": "the rules as printed (the game file)",
                "overrides": [], "rules": []}
    overrides, rules = variants.override_rows(arm.variant, engine, game_file)
    return {"name": arm.name, "label": arm.variant.label, "description": arm.variant.description,
            "file": str(arm.variant.path),
            "extends": list(arm.variant.chain), "overrides": overrides, "rules": rules}


def write_plan(plan: ComparisonPlan, decisions: list[dict], batches: int, final: bool) -> None:
    engine = registry.get_engine(plan.experiment.game)
    game_file = plan.experiment.game_file
    record = {
        "courtsim_comparison": FORMAT,
        "status": "complete" if final else "incomplete",
        "game": plan.experiment.game,
        "experiment": plan.experiment.name,
        "experiment_file": str(plan.experiment_path),
        "players": list(plan.experiment.players),
        "baseline": arm_record(plan.baseline, engine, game_file),
        "variants": [arm_record(arm, engine, game_file) for arm in plan.variants],
        "method": {"confidence": CONFIDENCE, "adjustment": plan.adjustment, "alpha": ALPHA, "margin": plan.margin,
                   "until_resolved": plan.until_resolved,
                   "metrics": plan.metrics or (["seat win rates"] if plan.until_resolved else []),
                   "games_per_batch": plan.games_per_batch, "games_per_matchup": plan.games_per_matchup,
                   "batches": batches, "max_games": plan.max_games, "seed": plan.experiment.seed},
        "sequential": decisions,
        "runs": {arm.name: [str(path) for path in arm.runs] for arm in plan.arms},
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    results.write_bytes_atomically(yaml.safe_dump(manifests.to_plain(record), sort_keys=False, allow_unicode=True)
                                   .encode("utf-8"), plan.out_dir / PLAN_FILE)
