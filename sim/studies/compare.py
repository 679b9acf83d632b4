"""``courtsim compare``: what does a rule change do? An experiment played under the baseline
rules and under each variant on common random numbers, then paired statistics per metric.

Every *arm* (the baseline, each variant) plays the same experiment with the same seed and the
same game indices, so game i of every arm starts from the same draws and diverges only where a
rule change bites (sim.core.random_streams keys every stream by seed, game index and source).
The comparison is then paired game by game (reports.analysis.comparison_stats), which needs many times
fewer games than two independent runs; the table reports that gain per metric.

Layout of the comparison directory::

    DIR/comparison.yaml            the plan, the variants' overrides, the method, the decisions
    DIR/runs/<arm>/batch-<b>/      one ordinary run per arm and batch (resumes like any run)
    DIR/comparison.parquet         one row per (metric, n_players, variant)
    DIR/report.html                the comparison report (reports.pages.comparison_report)

Every (arm, batch) is a cell of the study layer (sim.studies.cells): the experiment, loaded once,
under the arm's rules, planned in memory and played through the runner. A batch is the whole
experiment (every match-up in every seating) with its games shifted to new indices: batch b
plays the indices after batch b-1's. Without ``--until-resolved`` there is
one batch. With it, batches are played until the sequential test (two one-sided GSPRTs against
+-margin per requested metric, reports.analysis.comparison_stats.sequential_decision) has decided every
requested difference, or ``max_games`` is spent; a variant whose every requested metric is
decided plays no further batch. The decisions come from running sums of the paired games
(:class:`RunningComparison`, reports.analysis.comparison_stats.PairedSums) to which each finished batch is
added once, so a decision costs the same at batch 139 as at batch 2; a resumed comparison adds
the batches it finds one by one, in the same order, so it decides exactly as an uninterrupted one.
The table is computed from every game once, at the end; every verdict in it is decided by
reports.analysis.comparison_stats.verdict (the sequential decision, where --until-resolved made one).
An experiment that asks for kingmaking (``kingmaking: {games: N}``) has it played on every
batch's run (sim.studies.cells), so the kingmaker index is paired like every other metric, over
the games of the kingmaking's sample (the same in every arm: it depends on the game indices alone).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import polars as pl

from reports.analysis import comparison_stats as stats
from reports.analysis import landscape_metrics
from reports.analysis import paired_metrics
from reports.analysis import players as player_names
from sim import registry
from sim.core import results, variants
from sim.core.arguments import check_game_count
from sim.core.engine import GAME_INDEX_LIMIT, ConfigError
from sim.core.experiments import ExperimentFile, load_experiment
from sim.studies import cells as study_cells
from sim.studies import directory

BASELINE = "baseline"
FORMAT = 1
PLAN_FILE = directory.PLAN_FILES["compare"]
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
    running: RunningComparison | None = None         # --until-resolved's running sums (running_decisions)

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
        cell = arm_cell(plan, arm, 0)
    plan.games_per_batch = cell.n_games
    plan.bots = [bot["name"] for bot in cell.config["bots"]]
    if metrics:
        for name in metrics:
            player_names.check_metric_name(name, "--metrics")   # seat_1_win_rate: names first_player_win_rate
        known = {metric.name for metric in known_metrics(plan)}
        for name in metrics:
            problem = study_cells.landscape_target_problem(name, sorted(known), plan.experiment, plan.experiment_path)
            if problem is not None:
                raise ConfigError(f"--metrics: {problem}")
        unknown = [name for name in metrics if name not in known]
        if unknown:
            raise ConfigError(f"--metrics: unknown metric {', '.join(unknown)}; expected some of {', '.join(sorted(known))}")
        for name in metrics:
            reason = left_out_everywhere(plan, name)
            if reason:
                players = ", ".join(map(str, plan.experiment.players))
                raise ConfigError(f"--metrics: {name} is left out of the table at every player count of "
                                  f"{plan.experiment.name} ({players} players), so nothing could decide it: {reason}")
    return plan


LEFT_OUT_WORDS = {   # why repeats_another_metric leaves a row out, for --metrics' refusal
    "second_player_win_rate": "at 2 players the second player's win rate is 100% minus the first player's (win "
                              "credits sum to 1), so it would only repeat first_player_win_rate; request "
                              "first_player_win_rate instead",
}


def left_out_everywhere(plan: ComparisonPlan, name: str) -> str | None:
    """Why the table leaves metric ``name`` out at every player count of the experiment, known
    before any game (:func:`repeats_another_metric`, asked without games; or no such metric at
    that player count), or None if some player count keeps it. --until-resolved would otherwise
    play, decide "0 of 0" and stop."""
    reasons = []
    if name.startswith(landscape_metrics.OPTION_VALUE):
        return None                      # known only where the experiment asks for the landscape
    if name == paired_metrics.KINGMAKER_INDEX.name and plan.experiment.kingmaking is None:
        return (f"the kingmaker index is measured by a kingmaking played on each batch's run; add kingmaking: "
                f"{{games: 1000}} to {plan.experiment_path}")
    for n_players in plan.experiment.players:
        declared = {metric.name: metric for metric in paired_metrics.declared_metrics(
            plan.experiment.game, [n_players], plan.bots)}
        if name == paired_metrics.KINGMAKER_INDEX.name and n_players < paired_metrics.KINGMAKING_PLAYERS:
            reasons.append(f"at {n_players} players there is no kingmaker by definition (a seat that cannot win "
                           "hands the game to the only other seat whatever it does)")
        elif name not in declared:
            reasons.append(f"there is no {name} at {n_players} players")
        elif repeats_another_metric(declared[name], n_players, None, None):
            reasons.append(LEFT_OUT_WORDS.get(name, "it would only repeat another row"))
        else:
            return None
    return "; ".join(dict.fromkeys(reasons))


def arm_cell(plan: ComparisonPlan, arm: Arm, batch: int) -> study_cells.StudyCell:
    """The cell of one arm's batch (sim.studies.cells): the experiment under the arm's rules, its
    games those of the batch, the same for every arm; its run in DIR/runs/<arm>/batch-<b>/."""
    first_game = batch * plan.games_per_batch
    if first_game >= GAME_INDEX_LIMIT:
        raise ConfigError(f"--max-games: the comparison's batches would need game indices beyond {GAME_INDEX_LIMIT:,}")
    return study_cells.experiment_cell(f"{arm.name}, batch {batch + 1}", batch_directory(plan, arm, batch),
                                       plan.experiment, plan.experiment_path, variant=arm.variant,
                                       games_per_matchup=plan.games_per_matchup, first_game=first_game,
                                       provenance={"experiment_file": str(plan.experiment_path),
                                                   "comparison": str(plan.out_dir)})


def known_metrics(plan: ComparisonPlan) -> list[paired_metrics.Metric]:
    """The metrics the report knows for this experiment (declared: no games needed; the kingmaker
    index too, so that asking for it without a kingmaking is refused with the reason)."""
    metrics = paired_metrics.requestable_metrics(plan.experiment.game, plan.experiment.players, plan.bots)
    if plan.experiment.landscape is not None:      # its option values are paired game by game
        metrics += [landscape_metrics.option_value_metric(option.id, option.name) for option in
                    landscape_metrics.requested_options(plan.experiment.game, plan.experiment.landscape)]
    return metrics


# ----------------------------------------------------------------------------- playing

def run_comparison(plan: ComparisonPlan, log: Callable[[str], None] = print, progress: bool = True) -> Path:
    """Play every arm's batches (resuming whatever is finished), then write the table, the plan
    with its decisions, and the report. Returns the comparison directory."""
    with directory.open_study(plan.out_dir, "compare", identity(plan), COMPARISON_WORDS, replace=plan.overwrite):
        return run_comparison_held(plan, log, progress)


def run_comparison_held(plan: ComparisonPlan, log: Callable[[str], None], progress: bool) -> Path:
    """:func:`run_comparison` in its held directory: every batch already there is checked before
    anything is written (a refusal writes nothing), then the batches are played."""
    if not plan.overwrite:
        check_played_batches(plan)
    write_plan(plan, decisions=[], batches=0, final=False)
    per_batch = plan.games_per_batch
    max_batches = max(1, math.ceil(plan.max_games / per_batch)) if plan.until_resolved and plan.max_games else (
        1 if not plan.until_resolved else default_max_batches(per_batch))
    batch, decisions = 0, []
    while True:
        for arm in plan.arms:
            if arm.decided:
                continue
            play_batch(plan, arm, batch, log, progress)
        batch += 1
        if not plan.until_resolved:
            break
        decisions = running_decisions(plan, batch)   # running sums: the new batch is added, no earlier one reread
        for arm in plan.variants:
            arm.decided = all(entry["decision"] != "continue" for entry in decisions if entry["variant"] == arm.name)
        undecided = sum(1 for entry in decisions if entry["decision"] == "continue")
        log(f"after batch {batch}: {len(decisions) - undecided} of {len(decisions)} requested differences decided")
        if undecided == 0 or batch >= max_batches:
            break
    table = comparison_table(plan, decisions)        # every game once, at the end
    write_table(plan, table)
    write_plan(plan, decisions=decisions, batches=batch, final=True)
    from reports.pages.comparison_report import write_comparison_report
    write_comparison_report(plan.out_dir)
    return plan.out_dir


COMPARISON_WORDS = "comparison"


def identity(plan: ComparisonPlan) -> dict:
    """What a resumed comparison must share with the one in its directory: the experiment, every
    arm's rules (by what they set, not by file name), the games and the method that decides how
    many batches are played."""
    engine = registry.get_engine(plan.experiment.game)
    arms = [{key: record[key] for key in ("name", "overrides", "rules")}
            for record in (arm_record(arm, engine, plan.experiment.game_file) for arm in plan.arms)]
    return {"game": plan.experiment.game, "experiment_file": str(plan.experiment_path),
            "players": list(plan.experiment.players), "bots": plan.bots, "seed": plan.experiment.seed,
            "games_per_matchup": plan.games_per_matchup, "arms": arms, "until_resolved": plan.until_resolved,
            "margin": plan.margin, "metrics": plan.metrics, "max_games": plan.max_games,
            "adjustment": plan.adjustment}


def check_played_batches(plan: ComparisonPlan) -> None:
    """Refuse, before anything is written, a batch directory already there that holds another run
    (an engine or bot that changed since it was played): the same one-line refusal a run gives."""
    for arm in plan.arms:
        batch = 0
        while batch_directory(plan, arm, batch).is_dir():
            study_cells.check_played(arm_cell(plan, arm, batch))
            batch += 1


def batch_directory(plan: ComparisonPlan, arm: Arm, batch: int) -> Path:
    return plan.out_dir / "runs" / arm.name / f"batch-{batch:03d}"


def default_max_batches(per_batch: int) -> int:
    """Without --max-games: up to 2,000,000 games per arm (a 0.01 margin needs far fewer)."""
    return max(1, math.ceil(2_000_000 / per_batch))


def play_batch(plan: ComparisonPlan, arm: Arm, batch: int, log, progress: bool) -> None:
    cell = arm_cell(plan, arm, batch)
    log(f"{cell.name}: {cell.n_games:,} games -> {cell.run_dir}")
    study_cells.play(cell, plan.jobs, progress=progress, log=log, overwrite=plan.overwrite, offers_overwrite=True)
    arm.runs.append(cell.run_dir)


# ----------------------------------------------------------------------------- statistics

FUNCTIONS = {paired_metrics.MEAN: stats.MEAN, paired_metrics.RATIO: stats.RATIO, paired_metrics.BALANCE: stats.balance}


def comparison_table(plan: ComparisonPlan, decisions: list[dict] = ()) -> pl.DataFrame:
    """One row per (metric, n_players, variant) over every finished batch; p-values adjusted
    over the whole table; each row's verdict decided by stats.verdict, from the row's sequential
    decision where ``decisions`` (--until-resolved's) has one, else from its interval and
    adjusted p-value."""
    rows = []
    bots = plan.bots
    for n_players in plan.experiment.players:
        baseline, metrics = paired_metrics.per_game(plan.baseline.runs, n_players, bots)
        for arm in plan.variants:
            variant, _ = paired_metrics.per_game(arm.runs, n_players, bots)
            paired_baseline, variant = paired_games(baseline, variant)
            for metric in metrics:
                if not all(column in variant.columns for column in metric.components):
                    continue
                if repeats_another_metric(metric, n_players, paired_baseline, variant):
                    continue
                # a sampled metric (the kingmaker index) is paired on the games of its sample alone
                sampled_variant, sampled_baseline = paired_metrics.in_sample(metric, variant, paired_baseline)
                if sampled_baseline is None or (paired_metrics.is_sampled(metric) and sampled_variant.is_empty()):
                    continue             # no game of the sample in both arms: nothing to pair
                result = stats.paired(sampled_baseline.select(metric.components).to_numpy(),
                                      sampled_variant.select(metric.components).to_numpy(), FUNCTIONS[metric.function],
                                      confidence=CONFIDENCE)
                rows.append({"metric": metric.name, "metric_label": metric.label, "group": metric.group,
                             "unit": metric.unit, "n_players": n_players, "variant": arm.name,
                             "baseline_value": result.baseline_value, "variant_value": result.variant_value,
                             "difference": result.difference, "low": result.low, "high": result.high,
                             "p_value": result.p_value, "crn_gain": result.crn_gain, "games": result.games,
                             "margin": metric_margin(plan, metric, result.baseline_value),
                             "n": result.n, "mean_d": result.mean_d, "var_d": result.var_d,
                             "discordant": result.discordant, "spread": result.spread})
    table = pl.DataFrame(rows, infer_schema_length=None)
    adjusted = stats.adjust(table["p_value"].to_numpy(), plan.adjustment)
    table = table.with_columns(pl.Series("p_adjusted", adjusted))
    sequential = {(entry["metric"], entry["n_players"], entry["variant"]): entry["decision"] for entry in decisions}
    verdicts = [stats.verdict(low, high, p, margin, ALPHA, sequential=sequential.get((metric, n_players, variant)))
                for metric, n_players, variant, low, high, p, margin in table.select(
                    "metric", "n_players", "variant", "low", "high", "p_adjusted", "margin").iter_rows()]
    return table.with_columns(pl.Series("verdict", verdicts, dtype=pl.String))


def paired_games(baseline: pl.DataFrame, variant: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The games both arms played, row i of each the same game (in the baseline's order)."""
    paired_baseline = baseline.join(variant.select("game_index"), on="game_index", how="inner", maintain_order="left")
    variant = paired_baseline.select("game_index").join(variant, on="game_index", how="inner", maintain_order="left")
    return paired_baseline, variant


def repeats_another_metric(metric: paired_metrics.Metric, n_players: int, baseline: pl.DataFrame,
                           variant: pl.DataFrame) -> bool:
    """A row that would only repeat another: at 2 players the second player's win rate is 100%
    minus the first player's (win credits sum to 1)."""
    return n_players == 2 and metric.name == "second_player_win_rate"


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
    """The rows --until-resolved decides on: --metrics, by default every player's win rate
    (``first_player_win_rate``, ...: reports.analysis.players)."""
    names = plan.metrics or [name for name in table["metric"].unique().to_list()
                             if paired_metrics.is_player_win_rate(name)]
    return table.filter(pl.col("metric").is_in(names))


def sequential_decisions(plan: ComparisonPlan, table: pl.DataFrame) -> list[dict]:
    """Each requested difference's GSPRT decision over all paired games so far, from a table of
    every game (the full recomputation :func:`running_decisions` equals); alpha is split over the
    m requested differences (Bonferroni: a false "real" anywhere has chance <= alpha), beta
    applies to each."""
    rows = requested(plan, table)
    alpha = ALPHA / max(1, rows.height)
    decisions = []
    for row in rows.iter_rows(named=True):
        decision = stats.sequential_decision(int(row["n"]), float(row["mean_d"]), float(row["var_d"]),
                                             float(row["margin"]), alpha=alpha, beta=ALPHA,
                                             discordant=int(row["discordant"]), spread=float(row["spread"]))
        decisions.append({"metric": row["metric"], "n_players": int(row["n_players"]), "variant": row["variant"],
                          "decision": decision.decision, "games": int(row["games"]),
                          "llr_up": float(decision.llr_up), "llr_down": float(decision.llr_down)})
    return decisions


@dataclass
class RunningComparison:
    """--until-resolved's state between batches: per (n_players, variant, metric) the running
    sums of the paired games (stats.PairedSums), each batch added once."""
    batches: dict[str, int] = field(default_factory=dict)        # variant -> batches added so far
    sums: dict[tuple[int, str, str], stats.PairedSums] = field(default_factory=dict)
    metrics: dict[int, list[paired_metrics.Metric]] = field(default_factory=dict)   # per n_players, table order
    # per (n_players, variant, metric): repeats_another_metric in every batch so far (the table,
    # over every game, leaves the row out)
    repeated: dict[tuple[int, str, str], bool] = field(default_factory=dict)


def requested_names(plan: ComparisonPlan, metrics: list[paired_metrics.Metric]) -> list[str]:
    """:func:`requested`'s metric names among ``metrics``, before any table."""
    return plan.metrics or [metric.name for metric in metrics if paired_metrics.is_player_win_rate(metric.name)]


def add_finished_batches(plan: ComparisonPlan, running: RunningComparison) -> None:
    """Add to the running sums every batch a variant finished since the last call, paired game by
    game with the baseline's batch of the same index (the same game indices), batch after batch
    in order: only the new batches are read, so the cost does not grow with the batches before."""
    baseline_frames: dict[tuple[int, int], pl.DataFrame] = {}     # (batch, n_players): read once per call
    for arm in plan.variants:
        for batch in range(running.batches.get(arm.name, 0), len(arm.runs)):
            for n_players in plan.experiment.players:
                if (batch, n_players) not in baseline_frames:
                    baseline_frames[(batch, n_players)], metrics = paired_metrics.per_game(
                        [plan.baseline.runs[batch]], n_players, plan.bots)
                    running.metrics.setdefault(n_players, metrics)
                variant, _ = paired_metrics.per_game([arm.runs[batch]], n_players, plan.bots)
                baseline, variant = paired_games(baseline_frames[(batch, n_players)], variant)
                names = requested_names(plan, running.metrics[n_players])
                for metric in running.metrics[n_players]:
                    if metric.name not in names or not all(column in variant.columns and column in baseline.columns
                                                            for column in metric.components):
                        continue
                    key = (n_players, arm.name, metric.name)
                    running.repeated[key] = running.repeated.get(key, True) and repeats_another_metric(
                        metric, n_players, baseline, variant)
                    sums = running.sums.setdefault(key, stats.PairedSums(len(metric.components)))
                    sampled_variant, sampled_baseline = paired_metrics.in_sample(metric, variant, baseline)
                    sums.add(sampled_baseline.select(metric.components).to_numpy(),
                             sampled_variant.select(metric.components).to_numpy())
            running.batches[arm.name] = batch + 1


def running_decisions(plan: ComparisonPlan, batches: int) -> list[dict]:
    """:func:`sequential_decisions` after ``batches`` batches from the running sums: the finished
    batches not yet added are added first (a new comparison starts its sums at batch 1). The same
    rows in the same order as the table's requested rows (a row the table leaves out is left out)."""
    if plan.running is None or batches == 1:
        plan.running = RunningComparison()
    running = plan.running
    add_finished_batches(plan, running)
    rows = []
    for n_players in plan.experiment.players:
        for arm in plan.variants:
            for metric in running.metrics.get(n_players, []):
                key = (n_players, arm.name, metric.name)
                if key not in running.sums or running.repeated[key]:
                    continue
                rows.append((key, metric, running.sums[key].statistics(FUNCTIONS[metric.function])))
    alpha = ALPHA / max(1, len(rows))
    decisions = []
    for (n_players, variant, name), metric, result in rows:
        decision = stats.sequential_decision(result.n, result.mean_d, result.var_d,
                                             metric_margin(plan, metric, result.baseline_value), alpha=alpha,
                                             beta=ALPHA, discordant=result.discordant, spread=result.spread)
        decisions.append({"metric": name, "n_players": n_players, "variant": variant,
                          "decision": decision.decision, "games": result.games,
                          "llr_up": float(decision.llr_up), "llr_down": float(decision.llr_down)})
    return decisions


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


INTERVAL_WORDS = (f"paired t interval of the delta-method linearised per-game differences; where fewer than "
                  f"{stats.MINIMUM_DISCORDANT_GAMES} games differ between the arms or the differences do not vary, "
                  "the Wilson score bounds of the games that moved up and down, times the most one game can move "
                  "the metric, combined by MOVER, with an exact sign test (identical games never give [0, 0])")


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
                   "interval": INTERVAL_WORDS,
                   "until_resolved": plan.until_resolved,
                   "metrics": plan.metrics or (["every player's win rate"] if plan.until_resolved else []),
                   "games_per_batch": plan.games_per_batch, "games_per_matchup": plan.games_per_matchup,
                   "batches": batches, "max_games": plan.max_games, "seed": plan.experiment.seed},
        "sequential": decisions,
        "runs": {arm.name: [str(path) for path in arm.runs] for arm in plan.arms},
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    directory.write_plan(plan.out_dir, "compare", record)
