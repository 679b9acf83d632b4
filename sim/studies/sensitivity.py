"""``courtsim sensitivity GAME``: which of the report's conclusions survive the component data the
rulebooks do not print?

A sensitivity file (``configs/sensitivity/<game folder>.yaml``) gives every assumption of the
game's rules file (Louis XIV A1-A7, Heads of State H1-H12) either as an *input* with its
plausible range and why it is plausible, or under ``not_varied`` with the reason (a name with no
rules effect)::

    name: louis_xiv
    game: louis-xiv
    experiment: louis_xiv_demo             # its bots, match-ups and seed at every design point
    games_per_matchup: 300                 # per design point
    trajectories: 10                       # Morris: r trajectories of D + 1 points each
    levels: 4                              # Morris grid levels
    oat_levels: 5                          # points of a one-at-a-time curve (numeric inputs)
    inputs:
      - name: bribe_costs
        assumption: A2
        why: bribes of 2-4 gold cost what one gold card pays ...
        shift: [courtiers.2.side_a.value, ...]   # each path: its printed value + the input
        range: {from: -1, to: 1}
        integer: true                      # values rounded (the data holds integers)
      - name: gold_cards
        assumption: A4
        why: ...
        options:                           # a categorical input; the first option is the printed data
          printed: {}
          3 and 7: {set: {gold_cards: [...]}}
    not_varied:
      - {assumption: A6, why: the piles' gap positions are cosmetic (no rules effect)}
    conclusions:                           # optional; default: at every player count the player who
      - {kind: best_seat, players: 3}      # wins most (by turn order), the strongest bot and the
                                           # tie-break rate's side of 5%
      - {kind: strongest_bot, players: 3}
      - {kind: above, metric: tiebreak_rate, value: 0.05, players: 3}

An input may ``set`` paths to its value, ``shift`` them (printed + value) or ``scale`` them
(printed x value); ``options`` are overlays (``set:`` paths, ``rules:`` switches).

Method (comparison-notes.md): Morris screening with SALib (r (D + 1) design points, the sampler
seeded), every design point playing the *same* games (seed and game indices: common random
numbers), so that game luck is not mistaken for sensitivity. A conclusion is stated at the
printed data ("the first player wins most often at 3 players": players by their place in the
turn order, reports.analysis.players) and scored at every point by its margin (the printed best player's
win rate minus the best other player's; the metric minus the threshold), so it holds where the
score is positive. An input *matters* for a conclusion when its Morris mu* is at least
``matter_share`` of the largest and above the score's noise; each input that matters for some
conclusion is then walked one at a time over its range (the others printed). A conclusion
is **robust** when it holds at every point played, **fragile** when it fails somewhere: the
report names the one-at-a-time input and value nearest the printed data where it fails, and
says when that failure is within the noise (the score's interval reaches 0).

Layout of the sensitivity directory::

    DIR/sensitivity.yaml    the plan, the inputs with ranges and reasons, the conclusions' verdicts
    DIR/cells/<point>/      run/, and experiment.yaml and variant.yaml: its records (as a sweep's cells; resumable)
    DIR/points.parquet      every design point's estimates (metric, n_players, value, low, high)
    DIR/morris.parquet      mu, mu*, sigma per input and conclusion
    DIR/conclusions.parquet each conclusion's verdict, and where it flips
    DIR/report.html         the sensitivity report
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Literal, Optional

import numpy as np
import polars as pl
from pydantic import BaseModel, ConfigDict, Field, model_validator

from reports.analysis import players as turn_order
from sim import registry
from sim.core import results, variants
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError
from sim.core.experiments import GameCount, NAME_PATTERN
from sim.core.yaml_files import read_yaml_mapping, validate
from sim.studies import cells as study_cells
from sim.studies import directory, sweep

FORMAT = 1
PLAN_FILE = directory.PLAN_FILES["sensitivity"]
POINTS_FILE = "points.parquet"
MORRIS_FILE = "morris.parquet"
CONCLUSIONS_FILE = "conclusions.parquet"
SENSITIVITY_DIR = directory.STUDY_FOLDERS["sensitivity"]
DEFAULT_TIEBREAK_LEVEL = 0.05
TRAJECTORIES = (2, 100)        # Morris trajectories a study may have (file key or --trajectories)
OAT_LEVELS = (2, 21)           # points of a one-at-a-time curve (file key or --oat-levels)
Z_95 = 1.959963984540054


# ----------------------------------------------------------------------------- the file

class Overlay(BaseModel):
    model_config = ConfigDict(extra="forbid")
    set: dict[str, Any] = Field(default_factory=dict)
    rules: dict[str, sweep.Value] = Field(default_factory=dict)


class InputRange(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    start: float = Field(alias="from")
    to: float

    @model_validator(mode="after")
    def ordered(self):
        if not self.start < self.to:
            raise ValueError(f"expected from < to, found from {self.start:g} and to {self.to:g}")
        return self


class SensitivityInput(BaseModel):
    """One assumption's plausible range: a number that sets, shifts or scales paths, or options."""
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    name: str = Field(pattern=NAME_PATTERN)
    assumption: str = Field(pattern=r"^[AH][0-9]+$")
    label: Optional[str] = None
    why: str = Field(min_length=1, description="why this range is plausible")
    set: list[str] = Field(default_factory=list)
    shift: list[str] = Field(default_factory=list)
    scale: list[str] = Field(default_factory=list)
    value_range: Optional[InputRange] = Field(None, alias="range")
    integer: bool = False
    options: Optional[dict[str, Overlay]] = Field(None, min_length=2)

    @model_validator(mode="after")
    def numeric_or_options(self):
        paths = self.set or self.shift or self.scale
        if self.options is not None:
            if paths or self.value_range is not None:
                raise ValueError("expected either options: or range: with set/shift/scale paths, not both")
        elif self.value_range is None or not paths:
            raise ValueError("expected options: {name: overlay, ...}, or range: {from, to} with set:, shift: or scale: paths")
        return self

    @property
    def numeric(self) -> bool:
        return self.options is None


class NotVaried(BaseModel):
    model_config = ConfigDict(extra="forbid")
    assumption: str = Field(pattern=r"^[AH][0-9]+$")
    why: str = Field(min_length=1)


class Conclusion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["best_seat", "strongest_bot", "above", "below"]
    players: int
    metric: Optional[str] = None
    value: Optional[float] = None
    label: Optional[str] = None

    @model_validator(mode="after")
    def threshold_needs_a_metric(self):
        if self.kind in ("above", "below") and (self.metric is None or self.value is None):
            raise ValueError(f"kind {self.kind}: expected metric: and value:")
        return self


class SensitivityFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=NAME_PATTERN)
    description: str = ""
    game: str
    experiment: str = Field(min_length=1)
    players: Optional[list[int]] = Field(None, min_length=1)
    games_per_matchup: Optional[GameCount] = None
    trajectories: int = Field(10, ge=TRAJECTORIES[0], le=TRAJECTORIES[1])
    levels: int = Field(4, ge=2, le=20)
    oat_levels: int = Field(5, ge=OAT_LEVELS[0], le=OAT_LEVELS[1])
    matter_share: float = Field(0.1, gt=0, le=1)
    seed: int = Field(0, ge=0)
    jobs: Optional[int] = None
    cluster: Optional[str] = Field(None, description="a Dask scheduler address (tcp://HOST:PORT) to play on; --cluster overrides it")
    inputs: list[SensitivityInput] = Field(min_length=1)
    not_varied: list[NotVaried] = Field(default_factory=list)
    conclusions: Optional[list[Conclusion]] = None
    out: Optional[str] = None


# ----------------------------------------------------------------------------- the plan

@dataclass
class Input:
    """An input resolved: its name, assumption, words, reason, and how it becomes game data."""
    name: str
    assumption: str
    label: str
    why: str
    numeric: bool
    low: float
    high: float
    printed: Any                           # the printed data's value (a number, or the first option's name)
    integer: bool = False
    set_paths: list[str] = field(default_factory=list)
    shifts: dict[str, float] = field(default_factory=dict)     # path -> printed value
    scales: dict[str, float] = field(default_factory=dict)     # path -> printed value
    options: dict[str, Overlay] = field(default_factory=dict)

    def value_at(self, unit: float) -> Any:
        """The input's value at ``unit`` in [0, 1] (Morris works on the unit interval): a number
        in the range, or an option (the unit interval cut into equal parts)."""
        if not self.numeric:
            names = list(self.options)
            return names[min(len(names) - 1, int(math.floor(unit * len(names))))]
        value = self.low + unit * (self.high - self.low)
        return int(round(value)) if self.integer else float(value)

    def curve(self, levels: int) -> list[Any]:
        """The values of a one-at-a-time curve: every option, or ``levels`` evenly spaced numbers."""
        if not self.numeric:
            return list(self.options)
        values = [self.value_at(index / (levels - 1)) for index in range(levels)]
        return list(dict.fromkeys(values))

    def settings(self, value: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """(game-data overrides, rule switches) of the input at ``value``."""
        if not self.numeric:
            overlay = self.options[value]
            return dict(overlay.set), dict(overlay.rules)
        overrides: dict[str, Any] = {path: value for path in self.set_paths}
        overrides.update({path: keep_type(printed + value, printed) for path, printed in self.shifts.items()})
        overrides.update({path: keep_type(printed * value, printed) for path, printed in self.scales.items()})
        return overrides, {}

    def is_printed(self, value: Any) -> bool:
        return sweep.same_value(value, self.printed)


def keep_type(value: float, printed: Any) -> Any:
    """An integer datum stays an integer (rounded)."""
    return int(round(value)) if isinstance(printed, int) and not isinstance(printed, bool) else float(value)


@dataclass
class SensitivityPlan:
    path: Path
    sensitivity: SensitivityFile
    experiment_path: Path
    game: str
    inputs: list[Input]
    conclusions: list[Conclusion]
    players: list[int]
    bots: list[str]
    out_dir: Path
    jobs: int
    games_per_matchup: int
    seed: int
    study: study_cells.RulesStudy | None = None      # what every design point's cell shares


def plan_sensitivity(game: str, path: Path, out_dir: Path | None = None, jobs: int | None = None,
                     games_per_matchup: int | None = None, trajectories: int | None = None,
                     oat_levels: int | None = None) -> SensitivityPlan:
    """Read and validate a sensitivity file (every assumption covered, every path known);
    ``trajectories`` and ``oat_levels`` replace the file's (the command line's budget)."""
    engine = registry.get_engine(game)
    if not Path(path).is_file():
        raise ConfigError(f"{path}: sensitivity file not found (configs/sensitivity/ has one per game)")
    sensitivity = with_budget(validate(SensitivityFile, read_yaml_mapping(path, "sensitivity"), path),
                              trajectories, oat_levels)
    if sensitivity.game != engine.name:
        raise ConfigError(f"{path}: key 'game': expected {engine.name}, found {sensitivity.game}")
    experiment_path, experiment, _ = sweep.study_experiment(path, sensitivity.experiment, engine.name)
    check_coverage(sensitivity, path)
    raw = read_yaml_mapping(Path(experiment.game_file) if experiment.game_file else Path(engine.default_game_file),
                            "game")
    printed_rules = engine.load_setup(experiment.game_file).resolved.get("rules", {})
    inputs = [resolve_input(entry, number, path, raw, printed_rules) for number, entry in enumerate(sensitivity.inputs)]
    names = [entry.name for entry in inputs]
    if len(set(names)) != len(names):
        raise ConfigError(f"{path}: key 'inputs': expected a name of its own for every input, found {names}")
    players = list(sensitivity.players or experiment.players)
    conclusions = sensitivity.conclusions or default_conclusions(players)
    for number, conclusion in enumerate(conclusions):
        if conclusion.metric is not None:
            turn_order.check_metric_name(conclusion.metric, f"{path}: key 'conclusions.{number}.metric'")
        if conclusion.players not in players:
            raise ConfigError(f"{path}: key 'conclusions.{number}.players': the experiment plays "
                              f"{', '.join(map(str, players))} players, found {conclusion.players}")
    out_dir = Path(out_dir if out_dir is not None else sensitivity.out
                   or Path("runs") / "sensitivity" / variants.game_folder(game))
    plan = SensitivityPlan(Path(path), sensitivity, experiment_path, engine.name, inputs, conclusions, players,
                           list(experiment.bots), out_dir,
                           jobs if jobs is not None else (sensitivity.jobs if sensitivity.jobs is not None
                                                          else experiment.jobs),
                           games_per_matchup or sensitivity.games_per_matchup or experiment.games_per_matchup,
                           experiment.seed)
    plan.study = study_cells.RulesStudy("sensitivity", sensitivity.name, plan.path, experiment_path,
                                        read_yaml_mapping(experiment_path, "experiment"), engine.name, players,
                                        plan.seed, plan.jobs, out_dir)
    return plan


def with_budget(sensitivity: SensitivityFile, trajectories: int | None, oat_levels: int | None) -> SensitivityFile:
    """The file's study with the command line's screening budget in place of its own."""
    updates = {}
    for key, option, value, (low, high), what in (
            ("trajectories", "--trajectories", trajectories, TRAJECTORIES, "Morris trajectories"),
            ("oat_levels", "--oat-levels", oat_levels, OAT_LEVELS, "points per one-at-a-time curve")):
        if value is None:
            continue
        if not low <= value <= high:
            raise ConfigError(f"{option}: expected {low} to {high} {what}, found {value}")
        updates[key] = value
    return sensitivity.model_copy(update=updates)


def check_coverage(sensitivity: SensitivityFile, path: Path) -> None:
    """Every assumption of the game's rules file is an input or excused, and no other is named."""
    known = list(registry.descriptor(sensitivity.game).assumptions)   # a config must vary or excuse each
    named = {entry.assumption for entry in sensitivity.inputs} | {entry.assumption for entry in sensitivity.not_varied}
    missing = [assumption for assumption in known if assumption not in named]
    unknown = sorted(named - set(known))
    if missing:
        raise ConfigError(f"{path}: key 'inputs': expected every assumption of the rules file ({', '.join(known)}) as "
                          f"an input or under not_varied, missing {', '.join(missing)}")
    if unknown:
        raise ConfigError(f"{path}: key 'inputs': the rules file numbers {', '.join(known)}, found {', '.join(unknown)}")


def resolve_input(entry: SensitivityInput, number: int, path: Path, raw: dict, printed_rules: dict) -> Input:
    where = f"{path}: key 'inputs.{number}"
    label = entry.label or entry.name.replace("_", " ")
    if not entry.numeric:
        for option, overlay in entry.options.items():
            for override in overlay.set:
                sweep.printed_of(override, raw, printed_rules, f"{where}.options.{option}.set.{override}'")
            for rule in overlay.rules:
                sweep.printed_of(sweep.RULES_PREFIX + rule, raw, printed_rules, f"{where}.options.{option}.rules'")
        return Input(entry.name, entry.assumption, label, entry.why, False, 0.0, 1.0, next(iter(entry.options)),
                     options=dict(entry.options))

    def printed_number(kind: str, override: str) -> float:
        value = sweep.printed_of(override, raw, printed_rules, f"{where}.{kind}'")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ConfigError(f"{where}.{kind}': {override} holds {value!r}, not a number (use options:)")
        return value

    shifts = {override: printed_number("shift", override) for override in entry.shift}
    scales = {override: printed_number("scale", override) for override in entry.scale}
    set_printed = [printed_number("set", override) for override in entry.set]
    printed = set_printed[0] if set_printed else (0.0 if shifts else 1.0)
    return Input(entry.name, entry.assumption, label, entry.why, True, entry.value_range.start, entry.value_range.to,
                 printed, entry.integer, list(entry.set), shifts, scales)


def default_conclusions(players: list[int]) -> list[Conclusion]:
    """At every player count: the player who wins most (by turn order), the strongest bot, and the
    tie-break rate's side of 5%."""
    return [conclusion for n_players in players for conclusion in (
        Conclusion(kind="best_seat", players=n_players), Conclusion(kind="strongest_bot", players=n_players),
        Conclusion(kind="above", metric="tiebreak_rate", value=DEFAULT_TIEBREAK_LEVEL, players=n_players))]


# ----------------------------------------------------------------------------- design points

@dataclass
class DesignPoint:
    name: str
    phase: Literal["printed", "morris", "oat"]
    values: dict[str, Any]                # input name -> value
    trajectory: int | None = None
    varied: str | None = None             # the one-at-a-time input


def printed_point(plan: SensitivityPlan) -> DesignPoint:
    return DesignPoint("printed", "printed", {entry.name: entry.printed for entry in plan.inputs})


def morris_problem(plan: SensitivityPlan) -> dict:
    return {"num_vars": len(plan.inputs), "names": [entry.name for entry in plan.inputs],
            "bounds": [[0.0, 1.0]] * len(plan.inputs)}


def morris_points(plan: SensitivityPlan) -> tuple[np.ndarray, list[DesignPoint]]:
    """SALib's Morris design on the unit cube (seeded), and its points as input values."""
    from SALib.sample import morris as morris_sample

    unit = morris_sample.sample(morris_problem(plan), plan.sensitivity.trajectories,
                                num_levels=plan.sensitivity.levels, seed=plan.sensitivity.seed)
    per_trajectory = len(plan.inputs) + 1
    points = [DesignPoint(f"morris-{index:04d}", "morris",
                          {entry.name: entry.value_at(float(row[column])) for column, entry in enumerate(plan.inputs)},
                          trajectory=index // per_trajectory)
              for index, row in enumerate(unit)]
    return unit, points


def oat_points(plan: SensitivityPlan, inputs: list[Input]) -> list[DesignPoint]:
    """One-at-a-time curves of ``inputs`` (the others at their printed values; the printed
    value itself is the printed point, not played again)."""
    points = []
    for entry in inputs:
        for number, value in enumerate(entry.curve(plan.sensitivity.oat_levels)):
            if entry.is_printed(value):
                continue
            values = {other.name: other.printed for other in plan.inputs}
            values[entry.name] = value
            points.append(DesignPoint(f"oat-{entry.name}-{number}", "oat", values, varied=entry.name))
    return points


def point_rules(plan: SensitivityPlan, point: DesignPoint) -> study_cells.RuleSet:
    """A design point's data as rules: every input's overrides and switches at its value."""
    overrides: dict[str, Any] = {}
    rules: dict[str, Any] = {}
    for entry in plan.inputs:
        entry_overrides, entry_rules = entry.settings(point.values[entry.name])
        overrides.update(entry_overrides)
        rules.update(entry_rules)
    printed = all(entry.is_printed(point.values[entry.name]) for entry in plan.inputs)
    return study_cells.RuleSet(overrides, rules, None, printed)


def point_cell(plan: SensitivityPlan, point: DesignPoint) -> study_cells.StudyCell:
    """A design point's cell, planned in memory (sim.studies.cells): the experiment under the
    point's data, in DIR/cells/<point>/; a bad overlay is one line naming the file and the values."""
    words = ", ".join(f"{entry.name} = {point.values[entry.name]}" for entry in plan.inputs)
    return study_cells.rules_cell(plan.study, point.name, point_rules(plan, point), words, plan.bots,
                                  plan.games_per_matchup, where=f"{words}, pool pool")


def check_every_value(plan: SensitivityPlan) -> None:
    """Validate the game data at every option and both ends of every range (the others
    printed) before a game is played, in memory (nothing is written): a bad overlay is a
    one-line error naming its point."""
    for entry in plan.inputs:
        for value in entry.curve(2) if entry.numeric else entry.options:
            values = {other.name: other.printed for other in plan.inputs}
            values[entry.name] = value
            point_cell(plan, DesignPoint(f"check-{entry.name}", "oat", values, varied=entry.name))


def play_point(plan: SensitivityPlan, point: DesignPoint) -> list[dict]:
    """Play one design point (resuming a finished one); its estimates."""
    cell = point_cell(plan, point)
    study_cells.play(cell, plan.jobs)
    rows = study_cells.cell_estimates(cell.run_dir, cell.config, plan.players, {"cell": point.name, "pool": "pool"})
    return [{"point": point.name, "phase": point.phase, "trajectory": point.trajectory, "varied_input": point.varied,
             **{entry.name: shown(entry, point.values[entry.name]) for entry in plan.inputs},
             **{key: row[key] for key in ("metric", "metric_label", "group", "unit", "n_players", "value", "low",
                                          "high", "games")}} for row in rows]


def shown(entry: Input, value: Any) -> Any:
    return float(value) if entry.numeric else str(value)


# ----------------------------------------------------------------------------- conclusions

def estimates_at(rows: pl.DataFrame, n_players: int) -> dict[str, tuple[float, float, float]]:
    """metric -> (value, low, high) of one point's rows at ``n_players``."""
    return {metric: (value, low, high) for metric, value, low, high in
            rows.filter(pl.col("n_players") == n_players).select("metric", "value", "low", "high").iter_rows()}


def standard_error(estimate: tuple[float, float, float]) -> float:
    _, low, high = estimate
    return (high - low) / (2 * Z_95) if math.isfinite(low) and math.isfinite(high) else math.nan


def contenders(conclusion: Conclusion, estimates: dict) -> dict[str, tuple]:
    """The metrics a best-of conclusion compares: every player's (first_player_win_rate, ...) or
    every bot's win rate."""
    if conclusion.kind == "best_seat":
        return {metric: estimate for metric, estimate in estimates.items() if turn_order.is_player_win_rate(metric)}
    return {metric: estimate for metric, estimate in estimates.items() if metric.startswith("bot_win_rate:")}


@dataclass
class Statement:
    """A conclusion as the printed data states it: its words and what it claims."""
    conclusion: Conclusion
    text: str
    subject: str | None          # the best player's or bot's metric at the printed data
    above: bool | None           # for a threshold: is the printed value above it


def state(conclusion: Conclusion, printed: dict) -> Statement:
    n_players = conclusion.players
    if conclusion.kind in ("best_seat", "strongest_bot"):
        candidates = contenders(conclusion, printed)
        best = max(candidates, key=lambda metric: candidates[metric][0])
        if conclusion.kind == "best_seat":
            player = turn_order.player_words(turn_order.position_of(best))
            text = f"{player} wins most often at {n_players} players (printed: {candidates[best][0]:.1%})"
        else:
            text = (f"{best.removeprefix('bot_win_rate:')} is the strongest bot at {n_players} players "
                    f"(printed: {candidates[best][0]:.1%})")
        return Statement(conclusion, conclusion.label or text, best, None)
    value = printed.get(conclusion.metric, (math.nan,))[0]
    above = value > conclusion.value
    position = turn_order.position_of(conclusion.metric)
    words = conclusion.metric.replace("_", " ") if position is None else turn_order.win_rate_label(position)
    text = f"{words} {'above' if above else 'at most'} {conclusion.value:.3g} at {n_players} players (printed: {value:.3g})"
    return Statement(conclusion, conclusion.label or text, conclusion.metric, above)


def score(statement: Statement, estimates: dict) -> tuple[float, float]:
    """(score, standard error) of a statement at one point: positive where it holds. A best-of
    statement scores its subject's margin over the best other; a threshold its distance from it."""
    conclusion = statement.conclusion
    if conclusion.kind in ("best_seat", "strongest_bot"):
        candidates = contenders(conclusion, estimates)
        if statement.subject not in candidates or len(candidates) < 2:
            return math.nan, math.nan
        mine = candidates[statement.subject]
        other = max((estimate for metric, estimate in candidates.items() if metric != statement.subject),
                    key=lambda estimate: estimate[0])
        return mine[0] - other[0], math.hypot(standard_error(mine), standard_error(other))
    estimate = estimates.get(conclusion.metric)
    if estimate is None:
        return math.nan, math.nan
    distance = estimate[0] - conclusion.value
    return (distance if statement.above else -distance), standard_error(estimate)


# ----------------------------------------------------------------------------- the study

def run_sensitivity(plan: SensitivityPlan, log: Callable[[str], None] = print, progress: bool = True,
                    report: bool = True) -> Path:
    """Screen with Morris, walk the inputs that matter one at a time, judge every conclusion,
    write the tables, the plan and the report."""
    with directory.open_study(plan.out_dir, "sensitivity", identity(plan), SENSITIVITY_WORDS, added=("oat_levels",)):
        return run_sensitivity_held(plan, log, progress, report)


def run_sensitivity_held(plan: SensitivityPlan, log: Callable[[str], None], progress: bool, report: bool) -> Path:
    """:func:`run_sensitivity` in its held directory."""
    from SALib.analyze import morris as morris_analyze
    from rich.progress import Progress

    unit, morris_design = morris_points(plan)
    check_every_value(plan)
    write_plan(plan, [], final=False)
    log(f"{plan.sensitivity.name}: {len(plan.inputs)} inputs, {len(morris_design) + 1} screening points of "
        f"{plan.games_per_matchup:,} games per match-up -> {plan.out_dir}")
    rows: list[dict] = []
    with Progress(disable=not progress) as bar:
        task = bar.add_task("screening", total=len(morris_design) + 1)
        for point in [printed_point(plan), *morris_design]:
            rows += play_point(plan, point)
            bar.advance(task)
    table = pl.DataFrame(rows, infer_schema_length=None)
    statements = [state(conclusion, estimates_at(table.filter(pl.col("point") == "printed"), conclusion.players))
                  for conclusion in plan.conclusions]
    morris_rows = screen(plan, table, unit, morris_design, statements, morris_analyze)
    mattering = [entry for entry in plan.inputs
                 if any(row["matters"] for row in morris_rows if row["input"] == entry.name)]
    curve = oat_points(plan, mattering)
    log(f"screening done: {len(mattering)} of {len(plan.inputs)} inputs matter "
        f"({', '.join(entry.name for entry in mattering) or 'none'}); {len(curve)} one-at-a-time points")
    with Progress(disable=not progress) as bar:
        task = bar.add_task("one at a time", total=len(curve))
        for point in curve:
            rows += play_point(plan, point)
            bar.advance(task)
    table = pl.DataFrame(rows, infer_schema_length=None)
    verdicts = judge(plan, table, statements)
    results.write_parquet_atomically(table.with_columns(pl.col("n_players").cast(pl.Int32)).to_arrow(),
                                     plan.out_dir / POINTS_FILE)
    results.write_parquet_atomically(pl.DataFrame(morris_rows, infer_schema_length=None).to_arrow(),
                                     plan.out_dir / MORRIS_FILE)
    results.write_parquet_atomically(pl.DataFrame(verdicts, infer_schema_length=None).to_arrow(),
                                     plan.out_dir / CONCLUSIONS_FILE)
    write_plan(plan, verdicts, final=True)
    if report:
        from reports.pages.sensitivity_report import write_sensitivity_report
        write_sensitivity_report(plan.out_dir)
    return plan.out_dir


def screen(plan: SensitivityPlan, table: pl.DataFrame, unit: np.ndarray, design: list[DesignPoint],
           statements: list[Statement], morris_analyze) -> list[dict]:
    """Morris elementary effects of every conclusion's score, per input; which inputs matter."""
    rows = []
    problem = morris_problem(plan)
    for number, statement in enumerate(statements):
        n_players = statement.conclusion.players
        scores = [score(statement, estimates_at(table.filter(pl.col("point") == point.name), n_players))
                  for point in design]
        values = np.array([value for value, _ in scores], dtype=np.float64)
        noise = float(np.nanmedian([error for _, error in scores])) if scores else math.nan
        if not np.all(np.isfinite(values)):
            values = np.nan_to_num(values, nan=float(np.nanmean(values)) if np.isfinite(values).any() else 0.0)
        analysis = morris_analyze.analyze(problem, unit, values, num_levels=plan.sensitivity.levels,
                                          seed=plan.sensitivity.seed, print_to_console=False)
        largest = float(np.nanmax(analysis["mu_star"])) if len(analysis["mu_star"]) else 0.0
        for column, entry in enumerate(plan.inputs):
            mu_star = float(analysis["mu_star"][column])
            rows.append({"conclusion": number, "conclusion_text": statement.text, "n_players": n_players,
                         "input": entry.name, "assumption": entry.assumption, "mu": float(analysis["mu"][column]),
                         "mu_star": mu_star, "sigma": float(analysis["sigma"][column]),
                         "mu_star_conf": float(analysis["mu_star_conf"][column]), "noise": noise,
                         "matters": bool(mu_star > 0 and mu_star >= plan.sensitivity.matter_share * largest
                                         and not mu_star < noise)})
    return rows


def judge(plan: SensitivityPlan, table: pl.DataFrame, statements: list[Statement]) -> list[dict]:
    """Each conclusion's verdict: robust (it holds at every point played) or fragile, with the
    one-at-a-time input and value nearest the printed data where it fails."""
    points = table.select("point", "phase", "varied_input").unique(maintain_order=True).rows()
    verdicts = []
    for number, statement in enumerate(statements):
        n_players = statement.conclusion.players
        failures = []
        for point, phase, varied in points:
            value, error = score(statement, estimates_at(table.filter(pl.col("point") == point), n_players))
            if math.isfinite(value) and value <= 0:
                failures.append((point, phase, varied, value, error))
        flip = nearest_flip(plan, table, failures)
        verdict = "fragile" if failures else "robust"
        row = {"conclusion": number, "text": statement.text, "kind": statement.conclusion.kind, "n_players": n_players,
               "metric": statement.conclusion.metric, "threshold": statement.conclusion.value, "verdict": verdict, "points": len(points), "failing_points": len(failures),
               "failing_screening_points": sum(1 for failure in failures if failure[1] == "morris"),
               "flip_input": None, "flip_assumption": None, "flip_value": None, "flip_score": math.nan,
               "within_noise": None}
        if flip is not None:
            entry, value, flip_score, error = flip
            row.update({"flip_input": entry.name, "flip_assumption": entry.assumption, "flip_value": str(value),
                        "flip_score": flip_score, "within_noise": bool(flip_score > -Z_95 * error)})
        row["sentence"] = sentence(statement, row, plan)
        verdicts.append(row)
    return verdicts


def nearest_flip(plan: SensitivityPlan, table: pl.DataFrame, failures: list) -> tuple | None:
    """Of the one-at-a-time failures, the one nearest its input's printed value (a share of the range)."""
    by_name = {entry.name: entry for entry in plan.inputs}
    found = []
    for point, phase, varied, value, error in failures:
        if phase != "oat":
            continue
        entry = by_name[varied]
        setting = table.filter(pl.col("point") == point)[entry.name][0]
        distance = (abs(float(setting) - float(entry.printed)) / (entry.high - entry.low) if entry.numeric
                    else list(entry.options).index(setting))
        found.append((distance, entry, setting, value, error))
    if not found:
        return None
    _, entry, setting, value, error = min(found, key=lambda item: item[0])
    return entry, (f"{setting:g}" if isinstance(setting, float) else setting), value, error


def sentence(statement: Statement, row: dict, plan: SensitivityPlan) -> str:
    """The verdict in a designer's words."""
    assumptions = ", ".join(sorted({entry.assumption for entry in plan.inputs}, key=lambda name: int(name[1:])))
    if row["verdict"] == "robust":
        return (f"Robust: {statement.text} holds at all {row['points']} design points over the plausible range of "
                f"{assumptions}.")
    if row["flip_input"] is None:
        return (f"Fragile: {statement.text} fails at {row['failing_points']} of {row['points']} screening points "
                f"(several inputs moved at once; no single input flips it alone).")
    entry = next(entry for entry in plan.inputs if entry.name == row["flip_input"])
    noise = " (within the noise)" if row["within_noise"] else ""
    return (f"Fragile: {statement.text} fails when {setting_words(entry, row['flip_value'])} ({entry.assumption})"
            f"{noise}; it fails at {row['failing_points']} of {row['points']} design points.")


def setting_words(entry: Input, value: str) -> str:
    """An input at a value in words: "the bribe costs move by -1", "the gold cards are 3 and 7"."""
    if entry.numeric and entry.shifts and not entry.set_paths:
        return f"{entry.label} move by {float(value):+g}"
    if entry.numeric and entry.scales and not entry.set_paths:
        return f"{entry.label} are scaled by {float(value):g}"
    return f"{entry.label} is {value}"


# ----------------------------------------------------------------------------- the plan file

def identity(plan: SensitivityPlan) -> dict:
    return manifests.to_plain({"game": plan.game, "experiment_file": str(plan.experiment_path), "players": plan.players,
                               "seed": plan.seed, "games_per_matchup": plan.games_per_matchup,
                               "inputs": [input_record(entry) for entry in plan.inputs],
                               "trajectories": plan.sensitivity.trajectories, "levels": plan.sensitivity.levels,
                               "oat_levels": plan.sensitivity.oat_levels, "sampler_seed": plan.sensitivity.seed})


SENSITIVITY_WORDS = "sensitivity study"


def input_record(entry: Input) -> dict:
    record = {"name": entry.name, "assumption": entry.assumption, "label": entry.label, "why": entry.why,
              "kind": "numeric" if entry.numeric else "options", "printed": entry.printed}
    if entry.numeric:
        record.update({"low": entry.low, "high": entry.high, "integer": entry.integer,
                       "paths": {"set": entry.set_paths, "shift": list(entry.shifts), "scale": list(entry.scales)}})
    else:
        record["options"] = {name: overlay.model_dump() for name, overlay in entry.options.items()}
    return record


def write_plan(plan: SensitivityPlan, verdicts: list[dict], final: bool) -> None:
    record = {
        "courtsim_sensitivity": FORMAT, "status": "complete" if final else "incomplete",
        "name": plan.sensitivity.name, "description": plan.sensitivity.description, "game": plan.game,
        "sensitivity_file": str(plan.path), "experiment_file": str(plan.experiment_path), "players": plan.players,
        "bots": plan.bots, "seed": plan.seed, "games_per_matchup": plan.games_per_matchup,
        "inputs": [input_record(entry) for entry in plan.inputs],
        "not_varied": [entry.model_dump() for entry in plan.sensitivity.not_varied],
        "method": {"screening": "Morris elementary effects (SALib)", "trajectories": plan.sensitivity.trajectories,
                   "levels": plan.sensitivity.levels, "sampler_seed": plan.sensitivity.seed,
                   "oat_levels": plan.sensitivity.oat_levels, "matter_share": plan.sensitivity.matter_share,
                   "pairing": "every design point plays the same seed and game indices (common random numbers)"},
        "conclusions": verdicts,
        "identity": identity(plan),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    directory.write_plan(plan.out_dir, "sensitivity", record)
