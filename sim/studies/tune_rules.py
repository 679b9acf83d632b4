"""``courtsim tune``: the smallest rule change that meets balance targets, found with Optuna.

A tuning file (``configs/tuning/<name>.yaml``) names an experiment (the bots, match-ups and
seed every candidate plays), the balance targets (reports.analysis.targets) and a parameter space of
variant paths::

    name: heads_of_state_2p_balance
    experiment: heads_of_state_mirror
    players: [2]                             # optional: instead of the experiment's
    bots: ["tuned_{players}p"]               # optional: instead of the experiment's pool
    space:
      - path: assassin_bag.own_cubes
        range: {from: 1, to: 4, step: 1}     # integers; without step a continuous range
      - path: rules.some_switch
        values: [false, true]                # a list: categorical (linked: as in a sweep)
    targets:
      - {metric: "*_player_win_rate", fair_share_within: 0.01}
      - {metric: game_length_median, change_within: 2}   # paired with the printed rules (reports.analysis.targets)
    trials: 40
    rungs: [1000, 4000]                      # games per match-up at each rung (successive halving)
    keep: 0.34                               # share of a rung's candidates promoted to the next
    sampler: nsga2                           # or tpe (both multi-objective in Optuna)
    seed: 0
    top: 3                                   # Pareto candidates re-evaluated on fresh games
    fresh_games_per_matchup: 8000            # default: twice the last rung
    out: runs/tuning/heads_of_state_2p_balance

A target on the kingmaker index ("at most 5% at 3 players") needs an experiment that asks for
kingmaking (``kingmaking: {games: N}``): every candidate's run then has it played
(sim.studies.cells).

Two objectives, both minimised: the **miss** (the sum over targets of how far the worst
estimate lies outside its band, in points for a rate; 0 = every target met), and the **change**
from the printed rules (per parameter |value - printed| / its range's width, 1 for a changed
category, summed). The printed rules are the first candidate. Every candidate plays the same
games at a rung (common random numbers), so candidates are compared on equal luck.

The budget schedule is successive halving over the rungs: a candidate plays the first rung; it
goes on to the next only if its miss is within the best ``keep`` share of the misses played at
that rung so far (the first ``ceil(1 / keep)`` always go on), else it is pruned. Optuna's
pruners are single-objective, so the rung rule is applied here, in the ask-and-tell loop; the
study (SQLite in DIR, resumable) holds the values of every candidate's last rung.

When the trials are spent, the Pareto-optimal candidates (no other has both a smaller miss and
a smaller change) with the smallest misses are re-evaluated on fresh games, because the winner
of a noisy search is optimistically biased, and each is written as a variant file
(``DIR/recommended/<name>_<k>.yaml``) whose description carries the re-evaluated figures.
``DIR/tuning.parquet`` has one row per candidate, ``DIR/recommended.parquet`` the re-evaluated
estimates, ``DIR/report.html`` the Pareto table and plot.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Union

import polars as pl
import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from reports.analysis import targets as balance_targets
from sim.core import results
from sim.core import run_manifest as manifests
from sim.core.arguments import check_game_count
from sim.core.engine import ConfigError
from sim.core.experiments import GameCount, NAME_PATTERN, load_experiment
from sim.core.yaml_files import read_yaml_mapping, validate
from sim.studies import cells as study_cells
from sim.studies import directory, optuna_resume, sweep
from sim.studies.tune_bot import trial_progress

FORMAT = 1
STUDY_FILE = directory.OPTUNA_FILE
STUDY_NAME = "tune"
PLAN_FILE = directory.PLAN_FILES["tune"]
TABLE_FILE = "tuning.parquet"
RECOMMENDED_TABLE = "recommended.parquet"
RECOMMENDED_DIR = "recommended"
TUNING_DIR = directory.STUDY_FOLDERS["tune"]
TRIALS = (1, 10_000)            # candidates a study may have (file key or --trials)
MAX_RUNGS = 6                   # rungs of a budget schedule (file key or --rungs)
SAMPLERS = ("nsga2", "tpe")
OBJECTIVES = ("miss", "change")
# fresh games for the re-evaluation start here, far beyond any training game index
FRESH_GAMES_OFFSET = 2**29


# ----------------------------------------------------------------------------- the file

class SpaceRange(BaseModel):
    """``{from, to, step}`` (step optional: a continuous range). Its numbers (finite, a positive
    step, from below to) are checked by :func:`check_space_range`, naming the file and the key."""
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    start: float = Field(alias="from")
    to: float
    step: Optional[float] = None

    @property
    def integer(self) -> bool:
        return self.step is not None and all(float(number).is_integer() for number in (self.start, self.to, self.step))


class SpaceParameter(BaseModel):
    """One tuned value: a game-data path or ``rules.<switch>``, a range or a list of values."""
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    path: str = Field(min_length=1)
    name: Optional[str] = Field(None, pattern=NAME_PATTERN)
    label: Optional[str] = None
    value_range: Optional[SpaceRange] = Field(None, alias="range")
    values: Optional[list[Union[sweep.Value, list[sweep.Value]]]] = Field(None, min_length=2)   # a list: set whole
    linked: dict[str, list[sweep.Value]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def one_way_of_giving_values(self):
        if (self.values is None) == (self.value_range is None):
            raise ValueError("expected either range: {from, to, step} or values: [...]")
        if self.linked and self.values is None:
            raise ValueError("linked: needs values: (one linked value per value)")
        for linked_path, linked in self.linked.items():
            if len(linked) != len(self.values):
                raise ValueError(f"linked.{linked_path}: expected {len(self.values)} values, found {len(linked)}")
        return self

    @property
    def column(self) -> str:
        return self.name or self.path.split(".")[-1]


class TuningFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=NAME_PATTERN)
    description: str = ""
    experiment: str = Field(min_length=1)
    players: Optional[list[int]] = Field(None, min_length=1)
    bots: Optional[list[str]] = Field(None, min_length=1)
    space: list[SpaceParameter] = Field(min_length=1)
    targets: list[sweep.Target] = Field(min_length=1)
    trials: int = Field(ge=TRIALS[0], le=TRIALS[1])
    rungs: list[GameCount] = Field(min_length=1, max_length=MAX_RUNGS)
    keep: float = Field(0.34, gt=0, le=1)
    sampler: Literal["nsga2", "tpe"] = "nsga2"
    seed: int = Field(0, ge=0)
    top: int = Field(3, ge=1, le=20)
    fresh_games_per_matchup: Optional[GameCount] = None
    jobs: Optional[int] = None
    cluster: Optional[str] = Field(None, description="a Dask scheduler address (tcp://HOST:PORT) to play on; --cluster overrides it")
    out: Optional[str] = None

    @model_validator(mode="after")
    def rising_rungs(self):
        if any(later <= earlier for earlier, later in zip(self.rungs, self.rungs[1:])):
            raise ValueError(f"rungs: expected rising games per match-up, found {self.rungs}")
        names = [parameter.column for parameter in self.space]
        if len(set(names)) != len(names):
            raise ValueError(f"space: expected a name of its own for every parameter, found {names}")
        return self


# ----------------------------------------------------------------------------- the plan

@dataclass
class Tuned:
    """A parameter resolved: its column, path, kind, bounds or values, and printed value."""
    column: str
    label: str
    path: str
    kind: Literal["integer", "float", "categorical"]
    low: float | None
    high: float | None
    step: float | None
    values: list[Any] | None
    linked: dict[str, list[Any]]
    printed: Any

    def distribution(self):
        import optuna

        if self.kind == "integer":
            return optuna.distributions.IntDistribution(int(self.low), int(self.high), step=int(self.step))
        if self.kind == "float":
            return optuna.distributions.FloatDistribution(self.low, self.high, step=self.step)
        if self.by_position:    # Optuna's categories are plain values: a list value is asked by its position
            return optuna.distributions.CategoricalDistribution(list(range(len(self.values))))
        return optuna.distributions.CategoricalDistribution(self.values)

    @property
    def by_position(self) -> bool:
        return self.kind == "categorical" and any(isinstance(value, list) for value in self.values)

    def decoded(self, asked: Any) -> Any:
        """The value an Optuna parameter stands for."""
        return self.values[asked] if self.by_position else asked

    def encoded(self, value: Any) -> Any:
        """The Optuna parameter of a value (its position for a list-valued category)."""
        return self.values.index(value) if self.by_position else value

    def change(self, value: Any) -> float:
        """How far ``value`` is from the printed one: a share of the range, or 1 for another category."""
        if self.kind == "categorical":
            return 0.0 if sweep.same_value(value, self.printed) else 1.0
        return abs(float(value) - float(self.printed)) / (self.high - self.low)

    def dimension(self) -> sweep.SweptDimension:
        """The same parameter as a sweep dimension (a candidate's values become rules as a sweep cell's do)."""
        values = list(self.values) if self.values is not None else [self.low, self.high]
        printed_settings = {self.path: self.printed, **{path: None for path in self.linked}}
        return sweep.SweptDimension(self.column, self.label, "categorical" if self.kind == "categorical" else "numeric",
                                    self.path, values, dict(self.linked), self.printed, printed_settings)


@dataclass
class TuningPlan:
    path: Path
    tuning: TuningFile
    experiment_path: Path
    game: str
    parameters: list[Tuned]
    players: list[int]
    bots: list[str]
    out_dir: Path
    jobs: int
    seed: int                            # the experiment's seed: every candidate's games
    targets: list[dict] = field(default_factory=list)
    # the candidates' evaluation (None: play the experiment); a test gives a synthetic one:
    # (values, games_per_matchup, first_game, candidate name) -> rows of metric, n_players, unit, value, low, high
    evaluator: Callable | None = None
    study: study_cells.RulesStudy | None = None      # what every candidate's cell shares: experiment, players, seed

    @property
    def fresh_games(self) -> int:
        return self.tuning.fresh_games_per_matchup or 2 * self.tuning.rungs[-1]


def plan_tuning(path: Path, out_dir: Path | None = None, jobs: int | None = None, trials: int | None = None,
                rungs: list[int] | None = None, fresh_games_per_matchup: int | None = None) -> TuningPlan:
    """Read and validate a tuning file before a game is played (one-line ConfigErrors).
    ``trials``, ``rungs`` and ``fresh_games_per_matchup`` replace the file's (the command's
    --trials, --rungs, --fresh-games-per-matchup: a quick look at a study, or more trials)."""
    tuning = validate(TuningFile, read_yaml_mapping(path, "tuning"), path)
    tuning = with_budget(tuning, trials, rungs, fresh_games_per_matchup)
    experiment_path, experiment, engine = sweep.study_experiment(path, tuning.experiment)
    raw = read_yaml_mapping(Path(experiment.game_file) if experiment.game_file else Path(engine.default_game_file),
                            "game")
    printed_rules = engine.load_setup(experiment.game_file).resolved.get("rules", {})
    parameters = [resolve_parameter(parameter, number, path, raw, printed_rules)
                  for number, parameter in enumerate(tuning.space)]
    out_dir = Path(out_dir if out_dir is not None else tuning.out or Path("runs") / "tuning" / tuning.name)
    plan = TuningPlan(path, tuning, experiment_path, experiment.game, parameters,
                      list(tuning.players or experiment.players), list(tuning.bots or experiment.bots), out_dir,
                      jobs if jobs is not None else (tuning.jobs if tuning.jobs is not None else experiment.jobs),
                      experiment.seed, [target.model_dump() for target in tuning.targets])
    plan.study = study_cells.RulesStudy("tuning", tuning.name, path, experiment_path,
                                        read_yaml_mapping(experiment_path, "experiment"), experiment.game, plan.players,
                                        plan.seed, plan.jobs, out_dir, own_pools=bool(tuning.bots))
    check_targets(plan)
    return plan


def with_budget(tuning: TuningFile, trials: int | None, rungs: list[int] | None,
                fresh_games_per_matchup: int | None) -> TuningFile:
    """The file's tuning with the command line's budget in place of its own."""
    if trials is not None and not TRIALS[0] <= trials <= TRIALS[1]:
        raise ConfigError(f"--trials: expected {TRIALS[0]} to {TRIALS[1]:,} candidates, found {trials}")
    if rungs is not None:
        check_rungs(rungs, "--rungs")
    if fresh_games_per_matchup is not None:
        check_game_count(fresh_games_per_matchup, "--fresh-games-per-matchup")
    updates = {key: value for key, value in (("trials", trials), ("rungs", rungs),
                                             ("fresh_games_per_matchup", fresh_games_per_matchup))
               if value is not None}
    return tuning.model_copy(update=updates)


def check_rungs(rungs: list[int], where: str) -> None:
    if not 1 <= len(rungs) <= MAX_RUNGS:
        raise ConfigError(f"{where}: expected 1 to {MAX_RUNGS} rungs of games per match-up, found {len(rungs)}")
    for games in rungs:
        check_game_count(games, where)
    if any(later <= earlier for earlier, later in zip(rungs, rungs[1:])):
        raise ConfigError(f"{where}: expected rising games per match-up, found {', '.join(map(str, rungs))}")


def check_space_range(value_range: SpaceRange, path: Path, key: str) -> None:
    """A tuned range's numbers: finite, a positive step (if any), from below to."""
    for name, number in (("from", value_range.start), ("to", value_range.to), ("step", value_range.step)):
        if number is not None and not math.isfinite(number):
            raise sweep.refused(path, f"{key}.{name}", f"expected a finite number, found {number:g}")
    if value_range.step is not None and not value_range.step > 0:
        raise sweep.refused(path, f"{key}.step", f"expected a positive step, found {value_range.step:g}")
    if not value_range.start < value_range.to:
        raise sweep.refused(path, key, f"expected from < to, found from {value_range.start:g} and to {value_range.to:g}")


def check_space_values(parameter: SpaceParameter, path: Path, key: str) -> None:
    """A tuned parameter's values, each once (5 and 5.0, true and yes for a switch, are one value)."""
    from sim.core.yaml_files import found_text

    repeated = sweep.repeated_value(parameter.path, list(parameter.values))
    if repeated is not None:
        first, again = repeated
        raise sweep.refused(path, f"{key}.values.{again}", f"expected distinct values ({key}.values.{first} is "
                                                           f"{found_text(parameter.values[first])}, the same), "
                                                           f"found {found_text(parameter.values[again])}")


def resolve_parameter(parameter: SpaceParameter, number: int, path: Path, raw: dict, printed_rules: dict) -> Tuned:
    if parameter.value_range is not None:
        check_space_range(parameter.value_range, path, f"space.{number}.range")
    else:
        check_space_values(parameter, path, f"space.{number}")
    where = f"{path}: key 'space.{number}.path'"
    if parameter.path == sweep.VARIANT_DIMENSION:
        raise ConfigError(f"{where}: a tuning space holds game-data paths and rule switches, not named variants")
    printed = sweep.printed_of(parameter.path, raw, printed_rules, where)
    for linked_path in parameter.linked:
        sweep.printed_of(linked_path, raw, printed_rules, f"{path}: key 'space.{number}.linked.{linked_path}'")
    label = parameter.label or sweep.words_of(parameter.path)
    if parameter.values is not None:
        return Tuned(parameter.column, label, parameter.path, "categorical", None, None, None, list(parameter.values),
                     dict(parameter.linked), printed)
    if not isinstance(printed, (int, float)) or isinstance(printed, bool):
        raise ConfigError(f"{where}: a range needs a number, and the printed value is {printed!r} (use values:)")
    value_range = parameter.value_range
    kind = "integer" if value_range.integer else "float"
    return Tuned(parameter.column, label, parameter.path, kind, value_range.start, value_range.to, value_range.step,
                 None, {}, printed)


def check_targets(plan: TuningPlan) -> None:
    from reports.analysis import paired_metrics

    sweep.check_target_bands(plan.path, plan.targets)     # no band that holds no value (at_least above at_most)
    experiment = load_experiment(plan.experiment_path)
    known = [metric.name for metric in paired_metrics.requestable_metrics(plan.game, plan.players, plan.bots)] + \
        study_cells.extra_metric_names(experiment)
    for number, target in enumerate(plan.targets):
        problem = study_cells.landscape_target_problem(target["metric"], known, experiment, plan.experiment_path)
        if problem is not None:
            raise ConfigError(f"{plan.path}: key 'targets.{number}.metric': {problem}")
        if not any(balance_targets.matches(target, name, plan.players[0]) or
                   any(balance_targets.matches(target, name, count) for count in plan.players) for name in known):
            raise ConfigError(f"{plan.path}: key 'targets.{number}.metric': no metric matches {target['metric']!r} "
                              f"at {', '.join(map(str, plan.players))} players; expected one of {', '.join(sorted(known))}")
        problem = study_cells.kingmaking_target_problem(target["metric"], known, experiment, plan.experiment_path,
                                                        target.get("players") or plan.players)
        if problem is not None:
            raise ConfigError(f"{plan.path}: key 'targets.{number}.metric': {problem}")
        if target.get("pool") is not None:
            raise ConfigError(f"{plan.path}: key 'targets.{number}.pool': a tuning plays one pool; leave pool out")
        sweep.check_change_target(plan.path, number, target, known, printed=True)


# ----------------------------------------------------------------------------- one candidate

def as_cell(plan: TuningPlan, name: str, values: dict[str, Any]) -> sweep.SweepCell:
    """A candidate's values as a sweep cell's: the overrides and switches they set."""
    dimensions = [parameter.dimension() for parameter in plan.parameters]
    cell = sweep.cell_of(name, "pool", values, dimensions)
    cell.printed = all(sweep.same_value(values[parameter.column], parameter.printed) and not parameter.linked
                       for parameter in plan.parameters)
    return cell


def candidate_cell(plan: TuningPlan, name: str, values: dict[str, Any], games_per_matchup: int,
                   first_game: int = 0) -> study_cells.StudyCell:
    """The cell of a candidate at a rung (or on fresh games), planned in memory: the experiment
    under its rules, in DIR/cells/<name>/ (sim.studies.cells)."""
    cell = as_cell(plan, name, values)
    return study_cells.rules_cell(plan.study, name, cell.rule_set, cell.words, plan.bots, games_per_matchup,
                                  first_game, where=f"{cell.words}, pool {cell.pool}")


def play_candidate(plan: TuningPlan, values: dict[str, Any], games_per_matchup: int, first_game: int,
                   name: str, reference_name: str | None = None) -> list[dict]:
    """Play the experiment under the candidate's rules into DIR/cells/<name>/run (resuming a
    finished or interrupted run); its estimates, one row per metric and player count. When the
    targets bound a change from the printed rules, the printed rules are played too on the same
    games (DIR/cells/<reference_name>/run, once per rung) and every estimate is paired with them
    game by game; the printed candidate is then that run itself."""
    if plan.evaluator is not None:
        return plan.evaluator(values, games_per_matchup, first_game, name)
    reference = None
    if reference_name is not None and has_change_targets(plan):
        printed = printed_rules(plan)
        reference = (reference_name, play_cell(plan, printed, reference_name, games_per_matchup, first_game)[0])
        if all(sweep.same_value(values[column], value) for column, value in printed.items()):
            name = reference_name
    run_dir, config = play_cell(plan, values, name, games_per_matchup, first_game)
    return study_cells.cell_estimates(run_dir, config, plan.players, {"cell": name, "pool": "pool"}, reference)


def play_cell(plan: TuningPlan, values: dict[str, Any], name: str, games_per_matchup: int,
              first_game: int) -> tuple[Path, dict]:
    """One candidate's run, played or resumed: its directory and experiment config."""
    cell = candidate_cell(plan, name, values, games_per_matchup, first_game)
    study_cells.play(cell, plan.jobs)
    return cell.run_dir, cell.config


def has_change_targets(plan: TuningPlan) -> bool:
    return any(balance_targets.is_change_target(target) for target in plan.targets)


def printed_rules(plan: TuningPlan) -> dict[str, Any]:
    """The printed value of every tuned parameter (in its range or not)."""
    return printed_values(plan) or {parameter.column: parameter.printed for parameter in plan.parameters}


def decoded(plan: TuningPlan, params: dict[str, Any]) -> dict[str, Any]:
    """A trial's parameters as the values they stand for."""
    return {parameter.column: parameter.decoded(params[parameter.column]) for parameter in plan.parameters}


def change_of(plan: TuningPlan, values: dict[str, Any]) -> float:
    return sum(parameter.change(values[parameter.column]) for parameter in plan.parameters)


def changed_count(plan: TuningPlan, values: dict[str, Any]) -> int:
    return sum(parameter.change(values[parameter.column]) > 0 for parameter in plan.parameters)


def printed_values(plan: TuningPlan) -> dict[str, Any] | None:
    """The printed rules as a candidate (None when a printed value lies outside its range)."""
    values = {}
    for parameter in plan.parameters:
        value = parameter.printed
        if parameter.kind == "categorical":
            if not any(sweep.same_value(value, option) for option in parameter.values):
                return None
        elif not parameter.low <= float(value) <= parameter.high:
            return None
        values[parameter.column] = int(value) if parameter.kind == "integer" else value
    return values


# ----------------------------------------------------------------------------- the study

def open_study(plan: TuningPlan):
    """The SQLite study of ``plan.out_dir`` (created, or resumed: sim.studies.optuna_resume); the
    printed rules are its first candidate."""
    start = printed_values(plan)
    first = (None if start is None
             else {parameter.column: parameter.encoded(start[parameter.column]) for parameter in plan.parameters})
    return optuna_resume.open_stored(plan.out_dir, STUDY_NAME, plan_record(plan), sampler_of(plan, plan.tuning.seed),
                                     first, [parameter.column for parameter in plan.parameters],
                                     directions=["minimize", "minimize"])


def sampler_of(plan: TuningPlan, seed: int):
    """The plan's Optuna sampler seeded ``seed`` (each ask has its own: optuna_resume)."""
    import optuna

    return (optuna.samplers.NSGAIISampler(seed=seed) if plan.tuning.sampler == "nsga2"
            else optuna.samplers.TPESampler(seed=seed))


def plan_record(plan: TuningPlan) -> dict:
    """What a resumed study must share with this one (the games its values were measured on)."""
    return manifests.to_plain({"game": plan.game, "experiment_file": str(plan.experiment_path),
                               "players": plan.players, "bots": plan.bots, "seed": plan.seed,
                               "space": [parameter.__dict__ for parameter in plan.parameters],
                               "targets": plan.targets, "rungs": list(plan.tuning.rungs), "keep": plan.tuning.keep,
                               "sampler": plan.tuning.sampler, "tuning_seed": plan.tuning.seed})


def finished(study) -> list:
    import optuna

    return study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED))


def rung_misses(study, rung: int) -> list[float]:
    """The misses every finished trial had at ``rung`` (the schedule compares a new one with them)."""
    return [trial.user_attrs[f"miss_{rung}"] for trial in finished(study) if f"miss_{rung}" in trial.user_attrs]


def promoted(miss: float, earlier: list[float], keep: float) -> bool:
    """Successive halving: does a candidate with this miss go on to the next rung? The first
    ceil(1 / keep) always do; later ones when no more than a ``keep`` share of the earlier
    misses at this rung is smaller (a met target, miss 0, always goes on)."""
    if miss == 0.0 or len(earlier) < math.ceil(1.0 / keep):
        return True
    better = sum(1 for other in earlier if other < miss)
    return better < keep * (len(earlier) + 1)


def played_before(study, trial):
    """A finished trial with the same parameters (a sampler may ask for a candidate again)."""
    return next((other for other in finished(study) if other.params == trial.params), None)


def evaluate_trial(plan: TuningPlan, study, trial) -> tuple[str, tuple[float, float] | None]:
    """Play a trial rung by rung; ("complete", (miss, change)) or ("pruned", None). A candidate
    played before is not played again: it has the same games, so the same results."""
    earlier = played_before(study, trial)
    if earlier is not None:
        for key, value in earlier.user_attrs.items():
            trial.set_user_attr(key, value)
        trial.set_user_attr("same_as_trial", optuna_resume.position_of(study, earlier))
        if earlier.state.name == "PRUNED":
            return "pruned", None
        return "complete", tuple(earlier.values)
    values = decoded(plan, trial.params)
    change = change_of(plan, values)
    trial.set_user_attr("change", change)
    position = optuna_resume.position_of(study, trial)
    for rung, games in enumerate(plan.tuning.rungs):
        earlier = rung_misses(study, rung)
        rows = play_candidate(plan, values, games, 0, f"trial-{position:04d}-rung-{rung}", f"printed-rung-{rung}")
        miss = balance_targets.total_miss(rows, plan.targets)
        trial.set_user_attr(f"miss_{rung}", miss)
        trial.set_user_attr("rung", rung)
        if rung < len(plan.tuning.rungs) - 1 and not promoted(miss, earlier, plan.tuning.keep):
            return "pruned", None
    return "complete", (miss, change)


def check_space(plan: TuningPlan) -> None:
    """Validate the game data at both ends of every range and at every value (the others
    printed) before a game is played, in memory (nothing is written); a bad end is a one-line
    error naming the tuning file and the values. (A combination of valid values may still be
    refused when it is reached.)"""
    base = printed_values(plan) or {parameter.column: parameter.printed for parameter in plan.parameters}
    for parameter in plan.parameters:
        ends = parameter.values if parameter.kind == "categorical" else [parameter.low, parameter.high]
        for value in ends:
            values = {**base, parameter.column: int(value) if parameter.kind == "integer" else value}
            candidate_cell(plan, f"check-{parameter.column}", values, plan.tuning.rungs[0])


def tune(plan: TuningPlan, log: Callable[[str], None] = print, progress: bool = True, report: bool = True) -> Path:
    """Run the trials (resuming a stored study), re-evaluate the best, write the variants,
    tables and report. Returns the tuning directory."""
    with directory.open_study(plan.out_dir, "tune", plan_record(plan), "tuning"):
        return tune_held(plan, log, progress, report)


def tune_held(plan: TuningPlan, log: Callable[[str], None], progress: bool, report: bool) -> Path:
    """:func:`tune` in its held directory."""
    import optuna

    if plan.evaluator is None:
        check_space(plan)
    study = open_study(plan)
    log(f"{plan.tuning.name}: {plan.game}, {plan.tuning.trials} candidates over {len(plan.parameters)} "
        f"{'value' if len(plan.parameters) == 1 else 'values'}, rungs of "
        f"{', '.join(f'{games:,}' for games in plan.tuning.rungs)} games per match-up -> {plan.out_dir}")
    space = {parameter.column: parameter.distribution() for parameter in plan.parameters}
    with trial_progress(progress, plan.tuning.trials, best=min, shown=lambda miss: f"miss {miss:.2f}") as advance:
        advance([trial.values[0] for trial in finished(study) if trial.values])
        resumed = optuna_resume.unfinished(study)     # asked by an interrupted session: played first, in place
        while len(finished(study)) < plan.tuning.trials:
            trial = resumed.pop(0) if resumed else optuna_resume.ask(
                study, space, lambda seed: sampler_of(plan, seed), plan.tuning.seed)
            state, values = evaluate_trial(plan, study, trial)
            if state == "pruned":
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
                advance([math.inf])
            else:
                study.tell(trial, list(values))
                advance([values[0]])
    write_candidates(plan, study)
    recommended = reevaluate(plan, study, log)
    write_plan(plan, study, recommended)
    if report:
        from reports.pages.tuning_report import write_tuning_report
        write_tuning_report(plan.out_dir)
    return plan.out_dir


def pareto(trials: list) -> list:
    """The trials no other trial beats in both objectives (ties kept, a candidate asked again
    once), by miss then change."""
    trials = [trial for trial in trials if "same_as_trial" not in trial.user_attrs]
    front = [trial for trial in trials
             if not any(other.values[0] <= trial.values[0] and other.values[1] <= trial.values[1]
                        and other.values != trial.values for other in trials)]
    return sorted(front, key=lambda trial: (trial.values[0], trial.values[1], trial.number))


def complete(study) -> list:
    import optuna

    return study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))


def write_candidates(plan: TuningPlan, study) -> None:
    """DIR/tuning.parquet: one row per finished candidate, its values, rung, miss and change."""
    front = {trial.number for trial in pareto(complete(study))}
    positions = optuna_resume.positions(study)
    rows = []
    for trial in finished(study):
        rung = int(trial.user_attrs.get("rung", 0))
        values = decoded(plan, trial.params)
        rows.append({"trial": positions[trial.number], **{parameter.column: shown(parameter, values[parameter.column])
                                               for parameter in plan.parameters},
                     "state": trial.state.name.lower(), "rung": rung, "games_per_matchup": plan.tuning.rungs[rung],
                     "miss": float(trial.user_attrs.get(f"miss_{rung}", math.nan)),
                     "change": float(trial.user_attrs.get("change", math.nan)),
                     "changed_values": changed_count(plan, values), "pareto": trial.number in front,
                     "same_as_trial": trial.user_attrs.get("same_as_trial")})
    table = pl.DataFrame(rows, infer_schema_length=None).with_columns(pl.col("same_as_trial").cast(pl.Int64))
    results.write_parquet_atomically(table.to_arrow(), plan.out_dir / TABLE_FILE)


def shown(parameter: Tuned, value: Any) -> Any:
    """A parameter value as the tables hold it: numbers as numbers, categories as words."""
    if parameter.kind == "categorical":
        return str(value).lower() if isinstance(value, bool) else str(value)
    return float(value)


def reevaluate(plan: TuningPlan, study, log) -> list[dict]:
    """Re-evaluate the best ``top`` Pareto candidates (by miss) and the printed rules on fresh
    games; write each candidate as a variant file; DIR/recommended.parquet holds the estimates."""
    printed = printed_values(plan)
    # the printed rules are re-evaluated anyway: a recommendation is a change
    front = [trial for trial in pareto(complete(study))
             if printed is None or change_of(plan, decoded(plan, trial.params)) > 0][:plan.tuning.top]
    recommended, rows = [], []
    positions = optuna_resume.positions(study)
    candidates = [("printed", None, printed)] if printed is not None else []
    candidates += [(f"{plan.tuning.name}_{rank + 1}", trial, decoded(plan, trial.params))
                   for rank, trial in enumerate(front)]
    for name, trial, values in candidates:
        estimates = play_candidate(plan, values, plan.fresh_games, FRESH_GAMES_OFFSET, f"fresh-{name}", "fresh-printed")
        statuses = [balance_targets.evaluate(estimates, target) for target in plan.targets]
        miss = balance_targets.total_miss(estimates, plan.targets)
        entry = {"name": name, "trial": None if trial is None else positions[trial.number],
                 "values": {parameter.column: shown(parameter, values[parameter.column]) for parameter in plan.parameters},
                 "training_miss": None if trial is None else float(trial.values[0]),
                 "fresh_miss": miss, "change": change_of(plan, values), "changed_values": changed_count(plan, values),
                 "targets": [{"target": balance_targets.target_text(target), "status": status, "miss": target_miss}
                             for target, (status, target_miss, _) in zip(plan.targets, statuses)]}
        if trial is not None:
            entry["variant_file"] = str(write_variant(plan, name, values, entry, estimates))
        recommended.append(entry)
        rows += [{"candidate": name, **{key: row[key] for key in ("metric", "metric_label", "unit", "n_players",
                                                                 "value", "low", "high", "games")},
                  # the paired change from the printed rules (NaN unless a change target asked for it)
                  **dict(zip(balance_targets.CHANGE_COLUMNS, balance_targets.paired_change(row)))}
                 for row in estimates if any(balance_targets.matches(target, row["metric"], int(row["n_players"]))
                                             for target in plan.targets)]
        log(f"re-evaluated {name} on fresh games: miss {miss:.2f} (training "
            f"{'-' if trial is None else f'{trial.values[0]:.2f}'}), change {entry['change']:.2f}")
    if rows:
        results.write_parquet_atomically(pl.DataFrame(rows, infer_schema_length=None).to_arrow(),
                                         plan.out_dir / RECOMMENDED_TABLE)
    return recommended


def write_variant(plan: TuningPlan, name: str, values: dict[str, Any], entry: dict, estimates: list[dict]) -> Path:
    """A recommended candidate as a variant file a designer can compare, sweep or play."""
    cell = as_cell(plan, name, values)
    changed_paths = {path for parameter in plan.parameters if parameter.change(values[parameter.column]) > 0
                     for path in (parameter.path, *parameter.linked)}
    cell.overrides = {path: value for path, value in cell.overrides.items() if path in changed_paths}
    cell.rules = {rule: value for rule, value in cell.rules.items() if sweep.RULES_PREFIX + rule in changed_paths}
    changes = ", ".join(f"{parameter.column} {parameter.printed} -> {values[parameter.column]}"
                        for parameter in plan.parameters if parameter.change(values[parameter.column]) > 0) \
        or "no change"
    met = "; ".join(f"{target['target']}: {target['status']}" for target in entry["targets"])
    record: dict[str, Any] = {
        "name": name, "game": plan.game,
        "description": (f"Recommended by courtsim tune {plan.path} ({changes}): on "
                        f"{plan.fresh_games:,} fresh games per match-up, {met} (miss {entry['fresh_miss']:.2f}, "
                        f"training {entry['training_miss']:.2f})."),
        "label": changes[:80]}
    if cell.overrides:
        record["set"] = dict(cell.overrides)
    if cell.rules:
        record["rules"] = dict(cell.rules)
    path = plan.out_dir / RECOMMENDED_DIR / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    results.write_bytes_atomically(yaml.safe_dump(manifests.to_plain(record), sort_keys=False, allow_unicode=True,
                                                  width=100).encode("utf-8"), path)
    return path


def write_plan(plan: TuningPlan, study, recommended: list[dict]) -> None:
    record = {
        "courtsim_tuning": FORMAT, "status": "complete", "name": plan.tuning.name,
        "description": plan.tuning.description, "tuning_file": str(plan.path), "game": plan.game,
        "experiment_file": str(plan.experiment_path), "players": plan.players, "bots": plan.bots, "seed": plan.seed,
        "space": [{"name": parameter.column, "label": parameter.label, "path": parameter.path, "kind": parameter.kind,
                   "low": parameter.low, "high": parameter.high, "step": parameter.step, "values": parameter.values,
                   "printed": parameter.printed} for parameter in plan.parameters],
        "targets": [{**target, "text": balance_targets.target_text(target)} for target in plan.targets],
        "schedule": {"rungs": list(plan.tuning.rungs), "keep": plan.tuning.keep, "trials": plan.tuning.trials,
                     "sampler": plan.tuning.sampler, "fresh_games_per_matchup": plan.fresh_games},
        "trials": {"complete": len(complete(study)), "pruned": len(finished(study)) - len(complete(study))},
        "recommended": recommended,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    directory.write_plan(plan.out_dir, "tune", record)
