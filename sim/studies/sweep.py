"""``courtsim sweep``: a rule's range explored cell by cell on common random numbers.

A sweep file (``configs/sweeps/<name>.yaml``) names an experiment (the bots, match-ups, seating,
games and seed every cell plays) and what varies::

    name: heads_of_state_assassin_cubes
    description: How the assassin's own cubes in the bag move balance, at every player count.
    experiment: heads_of_state_sweep        # a name in configs/experiments/ or a file
    players: [2, 3, 4, 5]                   # optional: instead of the experiment's
    bot_pools:                              # optional: pools crossed with the grid (default: its bots)
      tuned: ["tuned_{players}p"]
      greedy: [greedy]
    games_per_matchup: 4000                 # optional: instead of the experiment's
    grid:                                   # every combination of these (or ``cells:``, a list)
      - path: assassin_bag.own_cubes        # a game-data path as variants write it
        label: the assassin's own cubes
        range: {from: 1, to: 4, step: 1}    # or values: [...]
      - path: rules.strict_supplies         # a rule switch
        values: [false, true]
      - path: variant                       # named variants ("printed" for none)
        values: [printed, imaginary_six_markers_2p]
      - path: imaginary_player.cards_revealed
        values: [1, 2, 3]
        linked: {imaginary_player.markers: [4, 6, 8]}   # set along, one value per value
    targets:                                # optional: what the report checks every cell against
      - {metric: "*_player_win_rate", players: [2], fair_share_within: 0.02}
      - {metric: balance, at_least: 0.95}
    report_metrics: [first_player_win_rate, balance, game_length]   # optional: what the report plots
    out: runs/sweeps/heads_of_state_assassin_cubes

Every cell is the experiment under a variant of its own (its game-data overrides and rule
switches, extending a named variant where the grid has one), planned in memory and played
through the runner (sim.studies.cells); the cell's variant and experiment are recorded in
``DIR/cells/<cell>/variant.yaml`` and ``experiment.yaml`` (``courtsim run`` on that file plays
the cell again, game for game), never read back. The cell whose values are all the printed
ones plays the printed rules, without a variant. Every cell plays the same seed and game
indices, so cells differ only where their rules do (common random numbers), and each cell's
metrics are paired with its pool's printed cell game by game. An experiment that asks for
kingmaking (``kingmaking: {games: N}``) has it played on every cell's run (sim.studies.cells), so
that the kingmaker index is a metric and a target of every cell at 3 players and more.

Layout of the sweep directory::

    DIR/sweep.yaml              the plan: dimensions, pools, cells, targets (status: complete when done)
    DIR/cells/<cell>/           run/ (an ordinary run directory), and experiment.yaml and variant.yaml: its records
    DIR/sweep.parquet           one row per (cell, metric, n_players): the cell's values, value, low, high, games
    DIR/report.html             the sweep report (reports.pages.sweep_report)

A sweep resumes cell by cell: a finished cell's run is complete and is not played again, an
interrupted one resumes from its verified chunks. A sweep directory holding another sweep is
refused.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Union

import polars as pl
import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from reports.analysis import paired_metrics
from reports.analysis import players as player_names
from sim import registry
from sim.core import results, variants
from sim.core.engine import ConfigError
from sim.core.experiments import GameCount, NAME_PATTERN, find_experiment, load_experiment
from sim.core.yaml_files import read_yaml_mapping, validate
from sim.studies import cells as study_cells
from sim.studies import directory
from sim.studies.cells import CONFIDENCE, SKILL_GAP, extra_metric_names

FORMAT = 1
PLAN_FILE = "sweep.yaml"
TABLE_FILE = "sweep.parquet"
SWEEPS_DIR = directory.STUDY_FOLDERS["sweep"]
VARIANT_DIMENSION = "variant"          # the grid path of named variants
RULES_PREFIX = "rules."                # a grid path of a rule switch
PRINTED = "printed"                    # a named-variant value: the printed rules
PRINTED_LABEL = "printed rules"        # ... as the table and the report show it
MEDIAN_LENGTH = study_cells.MEDIAN_LENGTH   # a cell's median game length (sim.studies.cells.order_estimates)
MAX_CELLS = 1000
DEFAULT_REPORT_METRICS = ("first_player_win_rate", "balance", "game_length", "tiebreak_rate", "winning_score")

Value = Union[bool, int, float, str]


# ----------------------------------------------------------------------------- the file

class NumberRange(BaseModel):
    """``{from, to, step}``: from, from + step, ... up to to. Its numbers (finite, a positive step,
    from <= to) and how many values it holds are checked by :func:`check_sweep_file`, which counts
    them without listing them."""
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    start: float = Field(alias="from")
    to: float
    step: float

    def count(self) -> int | float:
        """How many values the range holds, counted arithmetically (0 when to is below from,
        math.inf when more than a float can count); its numbers must be finite, its step positive."""
        quotient = (self.to - self.start) / self.step
        if math.isnan(quotient) or quotient == -math.inf:
            return 0
        if quotient == math.inf:
            return math.inf
        return max(0, math.floor(quotient + 1e-9) + 1)

    def values(self) -> list[Value]:
        count = self.count()
        if count < 1:
            raise ValueError(f"expected from <= to, found from {self.start:g} and to {self.to:g}")
        if count > MAX_CELLS:     # check_sweep_file refuses it with the file and key first
            raise ValueError(f"expected at most {MAX_CELLS:,} values, found {count_text(count)}")
        values = [self.start + index * self.step for index in range(count)]
        whole = all(float(number).is_integer() for number in (self.start, self.step))
        return [int(round(value)) if whole else round(value, 10) for value in values]


class Dimension(BaseModel):
    """One swept parameter: a game-data path, ``rules.<switch>`` or ``variant``, and its values."""
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    path: str = Field(min_length=1)
    name: Optional[str] = Field(None, pattern=NAME_PATTERN, description="the table column (default: the path's last word)")
    label: Optional[str] = Field(None, min_length=1)
    values: Optional[list[Optional[Value]]] = Field(None, min_length=1)
    value_range: Optional[NumberRange] = Field(None, alias="range")
    linked: dict[str, list[Value]] = Field(default_factory=dict,
                                           description="other paths set along, one value per value of this one")

    @model_validator(mode="after")
    def one_way_of_giving_values(self):
        # the range's numbers, the count of values, linked lengths and repeated values are
        # checked by check_sweep_file, naming the file and the key (grid.N.values.M), before any list is built
        if (self.values is None) == (self.value_range is None):
            raise ValueError("expected either values: [...] or range: {from, to, step}")
        return self

    def count(self) -> int | float:
        """How many values the dimension has, without listing a range's."""
        return len(self.values) if self.values is not None else self.value_range.count()

    def listed(self) -> list[Value]:
        return list(self.values) if self.values is not None else self.value_range.values()

    @property
    def column(self) -> str:
        return self.name or self.path.split(".")[-1]


class Target(BaseModel):
    """A balance target: a metric (an fnmatch pattern: ``*_player_win_rate``), optionally at some
    player counts and for one pool, and the band it must lie in."""
    model_config = ConfigDict(extra="forbid")
    metric: str = Field(min_length=1)
    players: Optional[list[int]] = None
    pool: Optional[str] = None
    at_least: Optional[float] = None
    at_most: Optional[float] = None
    between: Optional[tuple[float, float]] = None
    fair_share_within: Optional[float] = Field(None, gt=0)
    # a change target: the paired change from the printed cell (reports.analysis.targets)
    change_at_least: Optional[float] = None
    change_at_most: Optional[float] = None
    change_within: Optional[float] = Field(None, gt=0)
    label: Optional[str] = None

    @model_validator(mode="after")
    def one_band(self):
        bands = [self.at_least is not None or self.at_most is not None, self.between is not None,
                 self.fair_share_within is not None,
                 self.change_at_least is not None or self.change_at_most is not None, self.change_within is not None]
        if sum(bands) != 1:
            raise ValueError("expected one band: at_least and/or at_most, between: [low, high], fair_share_within, "
                             "change_at_least and/or change_at_most, or change_within")
        # a band with no value in it (at_least above at_most) is refused by check_target_bands,
        # naming the file and the bound's key
        return self


class SweepFile(BaseModel):
    """One sweep file, as written."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=NAME_PATTERN)
    description: str = ""
    experiment: str = Field(min_length=1)
    players: Optional[list[int]] = Field(None, min_length=1)
    bot_pools: Optional[dict[str, list[str]]] = Field(None, min_length=1)
    games_per_matchup: Optional[GameCount] = None
    seed: Optional[int] = None
    jobs: Optional[int] = None
    cluster: Optional[str] = Field(None, description="a Dask scheduler address (tcp://HOST:PORT) to play on; --cluster overrides it")
    grid: Optional[list[Dimension]] = Field(None, min_length=1)
    cells: Optional[list[dict[str, Optional[Value]]]] = Field(None, min_length=1)
    targets: list[Target] = Field(default_factory=list)
    report_metrics: Optional[list[str]] = Field(None, min_length=1)
    out: Optional[str] = None

    @model_validator(mode="after")
    def grid_or_cells(self):
        if (self.grid is None) == (self.cells is None):
            raise ValueError("expected either grid: (every combination) or cells: (a list)")
        return self


# ----------------------------------------------------------------------------- checking the file

def refused(path: Path, key: str, problem: str) -> ConfigError:
    """``FILE: key 'KEY': expected ..., found ...``: the one line the command prints."""
    return ConfigError(f"{path}: key '{key}': {problem}")


def count_text(count: int | float) -> str:
    """A count of values or cells as an error line shows it: 1,000,001, 1e+300, or beyond a float."""
    if count == math.inf:
        return "more than 1.8e+308"      # more than a float counts
    return f"{count:,}" if count < 10**15 else f"{float(count):.3g}"


def check_sweep_file(sweep: SweepFile, path: Path) -> None:
    """Refuse, before any list of values or cells is built and before a game file is read, what
    would make a sweep's cells wrong or endless, naming the file and the key: a range's number
    that is not finite, a step that is not positive, from above to; more values or cells than
    MAX_CELLS (counted arithmetically: a range of 10**300 values is refused at once); a linked
    list of another length; a value given twice in a dimension (5 and 5.0; true and yes for a
    switch); a target band that holds no value."""
    pools = len(sweep.bot_pools) if sweep.bot_pools else 1
    if sweep.grid is None:
        check_cell_count(path, "cells", [len(sweep.cells)], pools, unit="cells")
    else:
        counts = []
        for number, dimension in enumerate(sweep.grid):
            key = f"grid.{number}.range" if dimension.value_range is not None else f"grid.{number}.values"
            count = check_range(dimension.value_range, path, key) if dimension.value_range is not None \
                else len(dimension.values)
            if count > MAX_CELLS:
                raise refused(path, key, f"expected at most {MAX_CELLS:,} values (a sweep plays at most {MAX_CELLS:,} "
                                         f"cells), found {count_text(count)} values")
            counts.append(count)
        check_cell_count(path, "grid", counts, pools)
        for number, dimension in enumerate(sweep.grid):
            for linked_path, linked in dimension.linked.items():
                if len(linked) != counts[number]:
                    raise refused(path, f"grid.{number}.linked.{linked_path}",
                                  f"expected {counts[number]} values (one per value), found {len(linked)}")
            check_distinct(path, f"grid.{number}", dimension)
    check_target_bands(path, sweep.targets)


def check_range(value_range: NumberRange, path: Path, key: str) -> int | float:
    """The number of values of the range at ``key``, counted without listing them, once its
    numbers are finite, its step positive and from at most to."""
    for name, number in (("from", value_range.start), ("to", value_range.to), ("step", value_range.step)):
        if not math.isfinite(number):
            raise refused(path, f"{key}.{name}", f"expected a finite number, found {number:g}")
    if not value_range.step > 0:
        raise refused(path, f"{key}.step", f"expected a positive step, found {value_range.step:g}")
    count = value_range.count()
    if count < 1:
        raise refused(path, key, f"expected from <= to, found from {value_range.start:g} and to {value_range.to:g}")
    return count


def check_cell_count(path: Path, key: str, counts: list[int], pools: int, unit: str = "values") -> None:
    """At most MAX_CELLS cells: the product of the dimensions' counts times the pools, multiplied
    only as far as the limit."""
    total = pools
    for count in counts:
        total *= count
        if total > MAX_CELLS:
            break
    if total <= MAX_CELLS:
        return
    if len(counts) <= 8:      # each count is at most MAX_CELLS: the exact product is small enough to show
        found = (f"{count_text(math.prod(counts) * pools)} ({' x '.join(map(str, counts))} {unit} x {pools} "
                 f"pool{'s' if pools != 1 else ''})")
    else:
        found = f"more than {MAX_CELLS:,} ({len(counts)} dimensions x {pools} pools)"
    raise refused(path, key, f"expected at most {MAX_CELLS:,} cells, found {found}")


def value_key(dimension_path: str, value: Any) -> Any:
    """What makes two values of a dimension the same cell: numbers equal as numbers (5 and 5.0),
    booleans as booleans, a rule switch's on/off words as the switch reads them (true, yes, on and
    1 alike), a named variant's ``printed`` and null alike, a list value item by item."""
    from sim.core.arguments import parse_bool

    if isinstance(value, list):
        return ("list", tuple(value_key("", item) for item in value))
    if dimension_path == VARIANT_DIMENSION:
        return ("variant", PRINTED if value in (None, PRINTED) else str(value))
    if dimension_path.startswith(RULES_PREFIX):
        try:
            return ("switch", parse_bool(value, dimension_path))
        except ConfigError:
            pass                       # a switch with named readings: its names as words
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            return ("number", "nan")
        return ("number", int(value) if isinstance(value, float) and value.is_integer() else value)
    return (type(value).__name__, value)


def repeated_value(dimension_path: str, values: list) -> tuple[int, int] | None:
    """(first, again): the positions of the first value given twice (as :func:`value_key` compares), or None."""
    seen: dict = {}
    for index, value in enumerate(values):
        first = seen.setdefault(value_key(dimension_path, value), index)
        if first != index:
            return first, index
    return None


def check_distinct(path: Path, key: str, dimension: Dimension) -> None:
    """A dimension's values, each once: two equal values would make two identical cells."""
    from sim.core.yaml_files import found_text

    values = dimension.listed()
    repeated = repeated_value(dimension.path, values)
    if repeated is None:
        return
    first, again = repeated
    if dimension.value_range is not None:    # a step below the 10 decimals a range's values are rounded to
        raise refused(path, f"{key}.range.step", f"expected a step that gives distinct values (rounded to 10 "
                                                 f"decimals), found {dimension.value_range.step:g} "
                                                 f"({found_text(values[again])} twice)")
    raise refused(path, f"{key}.values.{again}", f"expected distinct values ({key}.values.{first} is "
                                                 f"{found_text(values[first])}, the same), found {found_text(values[again])}")


def check_target_bands(path: Path, targets: list) -> None:
    """Every target's band holds some value: no NaN bound, no lower bound above its upper bound
    (reports.analysis.targets.bound_problem), for a sweep's targets and a tuning's."""
    from reports.analysis import targets as balance_targets

    for number, target in enumerate(targets):
        problem = balance_targets.bound_problem(target if isinstance(target, dict) else target.model_dump())
        if problem is not None:
            raise refused(path, f"targets.{number}.{problem[0]}", problem[1])


def check_variant_values(sweep: SweepFile, path: Path, game: str) -> None:
    """Every named variant the sweep plays (``printed`` or null: the printed rules) is a variant
    of its game, by name in configs/variants/<game>/ or as a file, before any cell is planned."""
    from sim.core.yaml_files import found_text

    if sweep.grid is not None:
        given = [(f"grid.{number}.values.{index}", value) for number, dimension in enumerate(sweep.grid)
                 if dimension.path == VARIANT_DIMENSION for index, value in enumerate(dimension.listed())]
    else:
        given = [(f"cells.{number}.{VARIANT_DIMENSION}", cell[VARIANT_DIMENSION])
                 for number, cell in enumerate(sweep.cells) if VARIANT_DIMENSION in cell]
    for key, value in given:
        if value is None or value == PRINTED:
            continue
        try:
            variants.find_variant(str(value), game)
        except ConfigError:
            names = ", ".join(variants.library_names(game)) or "none shipped"
            raise refused(path, key, f"expected {PRINTED}, a variant of {game} ({names}) or a variant YAML file, "
                                     f"found {found_text(value)}") from None
        variants.load_variant(str(value), game, where=f"{path}: key '{key}'")   # its file and chain, read once


# ----------------------------------------------------------------------------- the plan

@dataclass
class SweptDimension:
    """A dimension resolved: its column, words, kind, the paths it sets and its values."""
    column: str
    label: str
    kind: Literal["numeric", "categorical"]
    path: str
    values: list[Value]
    linked: dict[str, list[Value]]
    printed: Any
    printed_settings: dict[str, Any]         # the printed value of every path it sets

    def shown(self, value: Value) -> Value:
        """The value as the table holds it: numbers as numbers, anything else as words."""
        if self.kind == "numeric":
            return float(value)
        if self.path == VARIANT_DIMENSION:
            return PRINTED_LABEL if value in (None, PRINTED) else str(value)
        return str(value).lower() if isinstance(value, bool) else str(value)

    def record(self) -> dict:
        return {"name": self.column, "label": self.label, "kind": self.kind,
                "paths": [self.path, *self.linked], "values": [self.shown(value) for value in self.values],
                "printed": None if self.printed is None else self.shown(self.printed)}


@dataclass
class SweepCell:
    name: str
    pool: str
    values: dict[str, Value]                 # dimension column -> value as written
    overrides: dict[str, Value]              # game-data path -> value
    rules: dict[str, Value]                  # rule switch -> value
    variant: str | None                      # a named variant the cell's variant extends
    printed: bool                            # every value the printed one: plays the printed rules

    def directory(self, out_dir: Path) -> Path:
        return out_dir / study_cells.CELLS_DIR / self.name

    @property
    def words(self) -> str:
        """The cell's values in words: ``start_gold = 4, strict_supplies = True``."""
        return ", ".join(f"{column} = {value}" for column, value in self.values.items())

    @property
    def rule_set(self) -> study_cells.RuleSet:
        return study_cells.RuleSet(self.overrides, self.rules, self.variant, self.printed)


@dataclass
class SweepPlan:
    path: Path
    sweep: SweepFile
    experiment_path: Path
    game: str
    dimensions: list[SweptDimension]
    pools: dict[str, list[str]]
    players: list[int]
    cells: list[SweepCell]
    out_dir: Path
    jobs: int
    games_per_matchup: int
    seed: int
    report_metrics: list[str] = field(default_factory=list)
    study: study_cells.RulesStudy | None = None      # what every cell shares: its experiment, players, seed

    def __post_init__(self):
        if self.study is None:
            self.study = study_cells.RulesStudy(
                "sweep", self.sweep.name, self.path, self.experiment_path,
                read_yaml_mapping(self.experiment_path, "experiment"), self.game, self.players, self.seed, self.jobs,
                self.out_dir, own_pools=bool(self.sweep.bot_pools))


def plan_sweep(path: Path, out_dir: Path | None = None, jobs: int | None = None,
               games_per_matchup: int | None = None) -> SweepPlan:
    """Read and validate a sweep file and every cell's rules before a game is played."""
    sweep = validate(SweepFile, read_yaml_mapping(path, "sweep"), path)
    check_sweep_file(sweep, path)          # ranges counted, values distinct, bands non-empty: before any list
    experiment_path, experiment, engine = study_experiment(path, sweep.experiment)
    check_variant_values(sweep, path, experiment.game)
    dimensions = resolve_dimensions(sweep, path, engine, experiment.game_file)
    pools = dict(sweep.bot_pools) if sweep.bot_pools else {"pool": list(experiment.bots)}
    players = list(sweep.players or experiment.players)
    cells = plan_cells(sweep, path, dimensions, pools)
    out_dir = Path(out_dir if out_dir is not None else sweep.out or Path("runs") / "sweeps" / sweep.name)
    plan = SweepPlan(path, sweep, experiment_path, experiment.game, dimensions, pools, players, cells, out_dir,
                     jobs if jobs is not None else (sweep.jobs if sweep.jobs is not None else experiment.jobs),
                     games_per_matchup or sweep.games_per_matchup or experiment.games_per_matchup,
                     sweep.seed if sweep.seed is not None else experiment.seed)
    plan.report_metrics = check_metrics(plan)
    check_targets(plan)
    return plan


def study_experiment(path: Path, name: str, game: str | None = None):
    """(path, experiment, engine) of the experiment a study file names under ``experiment:``: an
    existing experiment of ``game`` (if given) under the printed rules (one-line errors)."""
    experiment_path = find_experiment(name)
    if not experiment_path.is_file():
        raise ConfigError(f"{path}: key 'experiment': expected an experiment name or file, found {name!r} "
                          f"({experiment_path} does not exist)")
    experiment = load_experiment(experiment_path)
    if game is not None and experiment.game != game:
        raise ConfigError(f"{path}: key 'experiment': expected a {game} experiment, found {experiment_path} "
                          f"({experiment.game})")
    if experiment.variant is not None:
        raise ConfigError(f"{path}: key 'experiment': {experiment_path} plays the variant {experiment.variant}; a study "
                          "starts from the printed rules (a sweep sweeps named variants with a dimension of path: variant)")
    return experiment_path, experiment, registry.get_engine(experiment.game)


def resolve_dimensions(sweep: SweepFile, path: Path, engine, game_file: str | None) -> list[SweptDimension]:
    """The grid's dimensions, or those of a ``cells:`` list (each path any cell sets, in order)."""
    raw = read_yaml_mapping(Path(game_file) if game_file else Path(engine.default_game_file), "game")
    printed_rules = engine.load_setup(game_file).resolved.get("rules", {})
    if sweep.grid is not None:
        given = [(f"grid.{number}", dimension.path, dimension.column, dimension.label, dimension.listed(),
                  dimension.linked) for number, dimension in enumerate(sweep.grid)]
    else:
        paths = list(dict.fromkeys(key for cell in sweep.cells for key in cell))
        given = [(f"cells (path {key})", key, key.split(".")[-1], None,
                  list(dict.fromkeys(cell[key] for cell in sweep.cells if key in cell)), {}) for key in paths]
    dimensions, columns = [], set()
    for where, dimension_path, column, label, values, linked in given:
        if column in columns or column in RESERVED_COLUMNS:
            raise ConfigError(f"{path}: key '{where}.name': expected a column name of its own, found {column!r} twice "
                              "or reserved (give the dimension a name:)")
        columns.add(column)
        printed = printed_of(dimension_path, raw, printed_rules, f"{path}: key '{where}.path'")
        numeric = all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in values)
        kind = "numeric" if numeric and dimension_path != VARIANT_DIMENSION else "categorical"
        printed_settings = {dimension_path: printed}
        for linked_path in linked:
            if VARIANT_DIMENSION in (linked_path, dimension_path):
                raise ConfigError(f"{path}: key '{where}.linked': a named variant cannot be linked; sweep it as a dimension")
            printed_settings[linked_path] = printed_of(linked_path, raw, printed_rules,
                                                       f"{path}: key '{where}.linked.{linked_path}'")
        dimensions.append(SweptDimension(column, label or words_of(dimension_path), kind, dimension_path, values,
                                         dict(linked), printed, printed_settings))
    return dimensions


RESERVED_COLUMNS = {"cell", "pool", "metric", "metric_label", "group", "unit", "n_players", "value", "low", "high",
                    "games", "reference_cell", "difference", "difference_low", "difference_high", "p_value"}


def words_of(dimension_path: str) -> str:
    """A path in words: ``assassin_bag.own_cubes`` -> ``assassin bag own cubes``."""
    if dimension_path == VARIANT_DIMENSION:
        return "the rule variant"
    return dimension_path.removeprefix(RULES_PREFIX).replace(".", " ").replace("_", " ")


def printed_of(dimension_path: str, raw: dict, printed_rules: dict, where: str) -> Any:
    """The printed rules' value of a path (None for the variant dimension: "printed")."""
    if dimension_path == VARIANT_DIMENSION:
        return PRINTED
    if dimension_path.startswith(RULES_PREFIX):
        name = dimension_path.removeprefix(RULES_PREFIX)
        if name not in printed_rules:
            raise ConfigError(f"{where}: unknown rule switch {name!r}; expected one of {', '.join(sorted(printed_rules))}")
        return printed_rules[name]
    try:
        container, key, _ = variants.walk(raw, variants.path_segments(dimension_path))
    except variants.PathProblem as problem:
        raise ConfigError(f"{where}: {problem}") from None
    return container[key]


def plan_cells(sweep: SweepFile, path: Path, dimensions: list[SweptDimension],
               pools: dict[str, list[str]]) -> list[SweepCell]:
    """Every (pool, combination of values) as a cell, in pool order then grid order (the cells
    counted before they are listed; a ``cells:`` list naming the same rules twice refused)."""
    if sweep.grid is not None:
        check_cell_count(path, "grid", [len(dimension.values) for dimension in dimensions], len(pools))
        combinations = [dict(zip([dimension.column for dimension in dimensions], values))
                        for values in itertools.product(*[dimension.values for dimension in dimensions])]
    else:
        check_cell_count(path, "cells", [len(sweep.cells)], len(pools), unit="cells")
        combinations = [{dimension.column: cell.get(dimension.path, dimension.printed) for dimension in dimensions}
                        for cell in sweep.cells]
        seen: dict = {}
        for number, values in enumerate(combinations):
            rules = tuple(value_key(dimension.path, values[dimension.column]) for dimension in dimensions)
            first = seen.setdefault(rules, number)
            if first != number:
                raise refused(path, f"cells.{number}", f"expected distinct cells (cells.{first} has the same rules), "
                                                       f"found {values}")
    cells = []
    for pool in pools:
        for values in combinations:
            cells.append(cell_of(f"cell-{len(cells):03d}", pool, values, dimensions))
    return cells


def cell_of(name: str, pool: str, values: dict[str, Value], dimensions: list[SweptDimension]) -> SweepCell:
    overrides: dict[str, Value] = {}
    rules: dict[str, Value] = {}
    variant = None
    printed = True
    for dimension in dimensions:
        value = values[dimension.column]
        if dimension.path == VARIANT_DIMENSION:
            variant = None if value in (None, PRINTED) else str(value)
            printed = printed and variant is None
            continue
        index = dimension.values.index(value) if value in dimension.values else None
        settings = {dimension.path: value, **{linked_path: linked[index] for linked_path, linked in dimension.linked.items()
                                              if index is not None}}
        printed = printed and all(same_value(setting, dimension.printed_settings[setting_path])
                                  for setting_path, setting in settings.items())
        for setting_path, setting in settings.items():
            if setting_path.startswith(RULES_PREFIX):
                rules[setting_path.removeprefix(RULES_PREFIX)] = setting
            else:
                overrides[setting_path] = setting
    return SweepCell(name, pool, values, overrides, rules, variant, printed)


def same_value(value: Any, printed: Any) -> bool:
    """Is a swept value the printed one (a number equal as a number, a switch the same switch)?"""
    if isinstance(value, bool) or isinstance(printed, bool):
        return type(value) is type(printed) and value == printed
    if isinstance(value, (int, float)) and isinstance(printed, (int, float)):
        return float(value) == float(printed)
    return value == printed


def known_metrics(plan: SweepPlan) -> list[str]:
    """Every metric a cell of this plan estimates (no games needed)."""
    bots = sorted({name for pool in plan.pools.values() for name in pool})
    return [metric.name for metric in paired_metrics.requestable_metrics(plan.game, plan.players, bots)] + \
        extra_metric_names(load_experiment(plan.experiment_path))


def check_metrics(plan: SweepPlan) -> list[str]:
    known = set(known_metrics(plan))
    chosen = list(plan.sweep.report_metrics or [name for name in DEFAULT_REPORT_METRICS if name in known])
    for number, name in enumerate(chosen):
        player_names.check_metric_name(name, f"{plan.path}: key 'report_metrics.{number}'")
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise ConfigError(f"{plan.path}: key 'report_metrics': unknown metric {', '.join(unknown)}; expected some of "
                          f"{', '.join(sorted(known))}")
    return chosen


def check_change_target(path: Path, number: int, target: dict, known: list[str], printed: bool) -> None:
    """A change target is judged on the paired change from the printed cell: it needs the printed
    cell, and metrics that are paired game by game (a skill gap is not)."""
    from fnmatch import fnmatch

    from reports.analysis import targets as balance_targets

    if not balance_targets.is_change_target(target):
        return
    if not printed:
        raise ConfigError(f"{path}: key 'targets.{number}': a change target is judged against the printed rules, "
                          f"and no cell plays them; add the printed values to the grid")
    unpaired = [name for name in known if name.startswith(SKILL_GAP) and fnmatch(name, target["metric"])]
    if unpaired:
        raise ConfigError(f"{path}: key 'targets.{number}.metric': a change target needs a metric paired game by game "
                          f"with the printed rules, found {unpaired[0]!r} (a skill gap is not paired)")


def check_targets(plan: SweepPlan) -> None:
    from fnmatch import fnmatch

    known = known_metrics(plan)
    experiment = load_experiment(plan.experiment_path)
    for number, target in enumerate(plan.sweep.targets):
        problem = study_cells.landscape_target_problem(target.metric, known, experiment, plan.experiment_path)
        if problem is not None:
            raise ConfigError(f"{plan.path}: key 'targets.{number}.metric': {problem}")
        if not any(fnmatch(name, target.metric) for name in known):
            raise ConfigError(f"{plan.path}: key 'targets.{number}.metric': no metric matches {target.metric!r}; "
                              f"expected one of {', '.join(sorted(known))}")
        problem = study_cells.kingmaking_target_problem(target.metric, known, experiment, plan.experiment_path,
                                                        target.players or plan.players)
        if problem is not None:
            raise ConfigError(f"{plan.path}: key 'targets.{number}.metric': {problem}")
        check_change_target(plan.path, number, target.model_dump(), known,
                            printed=any(cell.printed for cell in plan.cells))
        if target.pool is not None and target.pool not in plan.pools:
            raise ConfigError(f"{plan.path}: key 'targets.{number}.pool': expected one of {', '.join(plan.pools)}, "
                              f"found {target.pool!r}")
        unknown = [count for count in target.players or [] if count not in plan.players]
        if unknown:
            raise ConfigError(f"{plan.path}: key 'targets.{number}.players': the sweep plays "
                              f"{', '.join(map(str, plan.players))} players, found {', '.join(map(str, unknown))}")


# ----------------------------------------------------------------------------- each cell's files

def cell_variant(plan: SweepPlan, cell: SweepCell) -> dict | None:
    """The cell's variant as its record holds it (None for the printed cell, which plays the printed rules)."""
    return study_cells.variant_record(plan.study, cell.name, cell.rule_set, cell.words)


def prepare_cell(plan: SweepPlan, cell: SweepCell, first_game: int = 0) -> study_cells.StudyCell:
    """One cell planned in memory (sim.studies.cells), its games from ``first_game``; a rule
    problem names the study file's cell."""
    return study_cells.rules_cell(plan.study, cell.name, cell.rule_set, cell.words, plan.pools[cell.pool],
                                  plan.games_per_matchup, first_game, where=f"{cell.words}, pool {cell.pool}")


# ----------------------------------------------------------------------------- playing

def run_sweep(plan: SweepPlan, log: Callable[[str], None] = print, progress: bool = True,
              report: bool = True) -> Path:
    """Play every cell (resuming whatever is finished), then write the table, the plan and the report."""
    with directory.open_study(plan.out_dir, "sweep", identity(plan), SWEEP_WORDS, added=("cell_rules",)):
        return run_sweep_held(plan, log, progress, report)


def run_sweep_held(plan: SweepPlan, log: Callable[[str], None], progress: bool, report: bool) -> Path:
    """:func:`run_sweep` in its held directory."""
    prepared = [prepare_cell(plan, cell) for cell in plan.cells]   # every cell's rules checked before a game
    write_plan(plan, final=False)
    log(f"{plan.sweep.name}: {plan.game}, {len(plan.cells)} cells ({len(plan.pools)} "
        f"{'pool' if len(plan.pools) == 1 else 'pools'}), players {', '.join(map(str, plan.players))}, "
        f"{sum(item.n_games for item in prepared):,} games -> {plan.out_dir}")
    for cell, prepared_cell in zip(plan.cells, prepared):
        log(f"{cell.name} ({cell.words}; pool {cell.pool}): {prepared_cell.n_games:,} games -> {prepared_cell.run_dir}")
        study_cells.play(prepared_cell, plan.jobs, progress=progress, log=log)
    table = sweep_table(plan, [item.config for item in prepared])
    results.write_parquet_atomically(table.to_arrow(), plan.out_dir / TABLE_FILE)
    write_plan(plan, final=True)
    if report:
        from reports.pages.sweep_report import write_sweep_report
        write_sweep_report(plan.out_dir)
    return plan.out_dir


SWEEP_WORDS = "sweep"


def identity(plan: SweepPlan) -> dict:
    """What a resumed sweep must share with the one in its directory: its cells' values and
    every setting they make (a linked path's value too), pools, players, seed and games."""
    return {"game": plan.game, "experiment_file": str(plan.experiment_path), "players": plan.players,
            "seed": plan.seed, "games_per_matchup": plan.games_per_matchup, "pools": plan.pools,
            "cells": [{"cell": cell.name, "pool": cell.pool, "values": cell.values} for cell in plan.cells],
            "cell_rules": [{"cell": cell.name, "set": cell.overrides, "rules": cell.rules, "variant": cell.variant}
                           for cell in plan.cells]}


# ----------------------------------------------------------------------------- the table

def sweep_table(plan: SweepPlan, configs: list[dict]) -> pl.DataFrame:
    """One row per (cell, metric, n_players): the cell's estimate with its interval, and its
    paired difference from its pool's printed cell (common random numbers)."""
    rows = []
    for pool in plan.pools:
        pool_cells = [(cell, config) for cell, config in zip(plan.cells, configs) if cell.pool == pool]
        bots = [bot["name"] for bot in pool_cells[0][1]["bots"]]
        reference = next((cell for cell, _ in pool_cells if cell.printed), None)
        for n_players in plan.players:
            frames = {cell.name: paired_metrics.per_game([cell.directory(plan.out_dir) / "run"], n_players, bots)
                      for cell, _ in pool_cells}
            for cell, _ in pool_cells:
                frame, metrics = frames[cell.name]
                start = row_start(plan, cell)
                rows += study_cells.metric_rows(start, n_players, frame, metrics,
                                                None if reference is None else (reference.name, frames[reference.name][0]))
                paired_with = (None if reference is None or reference.name == cell.name
                               else (reference.name, frames[reference.name][0]))
                rows += [{**study_cells.identity_row(start, None if reference is None else reference.name), **row}
                         for row in study_cells.order_estimates(cell.directory(plan.out_dir) / "run", n_players, frame,
                                                                paired_with)]
                rows += study_cells.landscape_rows(
                    cell.directory(plan.out_dir) / "run", n_players, start,
                    None if reference is None else (reference.name, reference.directory(plan.out_dir) / "run"))
    table = pl.DataFrame(rows, infer_schema_length=None)
    casts = [pl.col("n_players").cast(pl.Int32), pl.col("games").cast(pl.Int64)]
    casts += [pl.col(dimension.column).cast(pl.Float64 if dimension.kind == "numeric" else pl.String)
              for dimension in plan.dimensions]
    return table.with_columns(casts)


def row_start(plan: SweepPlan, cell: SweepCell) -> dict:
    """How every row of a cell starts: its name, pool and values as the table holds them."""
    return {"cell": cell.name, "pool": cell.pool,
            **{dimension.column: dimension.shown(cell.values[dimension.column]) for dimension in plan.dimensions}}


# ----------------------------------------------------------------------------- the plan file

def write_plan(plan: SweepPlan, final: bool) -> None:
    record = {
        "courtsim_sweep": FORMAT,
        "status": "complete" if final else "incomplete",
        "name": plan.sweep.name,
        "description": plan.sweep.description,
        "sweep_file": str(plan.path),
        "game": plan.game,
        "experiment_file": str(plan.experiment_path),
        "players": plan.players,
        "seed": plan.seed,
        "games_per_matchup": plan.games_per_matchup,
        "dimensions": [dimension.record() for dimension in plan.dimensions],
        "pools": plan.pools,
        "cells": [{"cell": cell.name, "pool": cell.pool,
                   "values": {dimension.column: dimension.shown(cell.values[dimension.column])
                              for dimension in plan.dimensions},
                   "run": str(cell.directory(plan.out_dir) / "run"), "printed": cell.printed,
                   "games": cell_games(plan, cell) if final else None} for cell in plan.cells],
        "targets": [target.model_dump() for target in plan.sweep.targets],
        "report_metrics": plan.report_metrics,
        "method": {"confidence": CONFIDENCE,
                   "interval": "t interval of the delta-method linearised per-game values",
                   "pairing": "every cell plays the same seed and game indices (common random numbers); each "
                              "cell's difference is paired game by game with its pool's printed cell"},
        "identity": identity(plan),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    directory.write_plan(plan.out_dir, "sweep", record)


def cell_games(plan: SweepPlan, cell: SweepCell) -> int | None:
    manifest = cell.directory(plan.out_dir) / "run" / "run.yaml"
    if not manifest.is_file():
        return None
    record = yaml.safe_load(manifest.read_text(encoding="utf-8")) or {}
    return int(record.get("config", {}).get("n_games", 0)) or None
