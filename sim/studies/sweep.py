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

Every cell is the experiment under a variant of its own (``DIR/cells/<cell>/variant.yaml``,
its game-data overrides and rule switches, extending a named variant where the grid has one),
written with the cell's experiment file (``DIR/cells/<cell>/experiment.yaml``): ``courtsim run``
on that file plays the cell again, game for game. The cell whose values are all the printed
ones plays the printed rules, without a variant. Every cell plays the same seed and game
indices, so cells differ only where their rules do (common random numbers), and each cell's
metrics are paired with its pool's printed cell game by game.

Layout of the sweep directory::

    DIR/sweep.yaml              the plan: dimensions, pools, cells, targets (status: complete when done)
    DIR/cells/<cell>/           experiment.yaml, variant.yaml and run/ (an ordinary run directory)
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

import numpy as np
import polars as pl
import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from reports.analysis import comparison_stats as stats
from reports.analysis import paired_metrics
from reports.analysis import players as player_names
from sim import registry
from sim.core import results, variants
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError
from sim.core.experiments import (GameCount, NAME_PATTERN, find_experiment, load_experiment, prepare_experiment)
from sim.core.runner import run_cells
from sim.core.yaml_files import read_yaml_mapping, validate
from sim.studies import directory

FORMAT = 1
PLAN_FILE = "sweep.yaml"
TABLE_FILE = "sweep.parquet"
SWEEPS_DIR = Path(__file__).resolve().parent.parent.parent / "configs" / "sweeps"
VARIANT_DIMENSION = "variant"          # the grid path of named variants
RULES_PREFIX = "rules."                # a grid path of a rule switch
PRINTED = "printed"                    # a named-variant value: the printed rules
PRINTED_LABEL = "printed rules"        # ... as the table and the report show it
CONFIDENCE = 0.95
MAX_CELLS = 1000
DEFAULT_REPORT_METRICS = ("first_player_win_rate", "balance", "game_length", "tiebreak_rate", "winning_score")
FUNCTIONS = {paired_metrics.MEAN: stats.MEAN, paired_metrics.RATIO: stats.RATIO, paired_metrics.BALANCE: stats.balance}

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


def find_sweep(name_or_path: str) -> Path:
    """A path as given, or ``configs/sweeps/<name>.yaml``."""
    path = Path(name_or_path)
    if path.exists() or path.suffix in (".yaml", ".yml") or "/" in name_or_path:
        return path
    return SWEEPS_DIR / f"{name_or_path}.yaml"


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
        return out_dir / "cells" / self.name


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
    return [metric.name for metric in paired_metrics.declared_metrics(plan.game, plan.players, bots)] + \
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
    for number, target in enumerate(plan.sweep.targets):
        if not any(fnmatch(name, target.metric) for name in known):
            raise ConfigError(f"{plan.path}: key 'targets.{number}.metric': no metric matches {target.metric!r}; "
                              f"expected one of {', '.join(sorted(known))}")
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
    """The cell's variant file (None for the printed cell, which plays the printed rules)."""
    if cell.printed:     # every setting is the printed one: the printed rules, as `courtsim run` plays them
        return None
    values = ", ".join(f"{dimension.column} = {cell.values[dimension.column]}" for dimension in plan.dimensions)
    record: dict[str, Any] = {"name": f"{plan.sweep.name}_{cell.name}".replace("-", "_"), "game": plan.game,
                              "description": f"Cell {cell.name} of the sweep {plan.sweep.name}: {values}.",
                              "label": values[:80]}
    if cell.variant is not None:
        record["extends"] = str(variants.find_variant(cell.variant, plan.game).resolve())
    if cell.overrides:
        record["set"] = dict(cell.overrides)
    if cell.rules:
        record["rules"] = dict(cell.rules)
    return record


def cell_experiment(plan: SweepPlan, cell: SweepCell, variant_path: Path | None) -> dict:
    """The cell's experiment file: the sweep's experiment with its players, pool, games and seed."""
    record = dict(read_yaml_mapping(plan.experiment_path, "experiment"))
    record.update({"name": f"{plan.sweep.name}_{cell.name}".replace("-", "_"), "players": plan.players,
                   "bots": plan.pools[cell.pool], "games_per_matchup": plan.games_per_matchup, "seed": plan.seed,
                   "jobs": plan.jobs, "out": str(cell.directory(plan.out_dir) / "run")})
    if plan.sweep.bot_pools and isinstance(record.get("matchups"), list):
        record["matchups"] = "with_repeats"   # listed match-ups name the experiment's bots, not the pool's
    for key in ("games_per_matchup_with", "skill_levels"):
        if key in record and plan.sweep.bot_pools:
            record.pop(key)          # they name the experiment's bots
    if variant_path is not None:
        record["variant"] = str(variant_path.resolve())
    return record


def write_cell_files(plan: SweepPlan, cell: SweepCell) -> Path:
    """Write the cell's variant and experiment files (unchanged files are left alone); return the experiment."""
    directory = cell.directory(plan.out_dir)
    directory.mkdir(parents=True, exist_ok=True)
    variant = cell_variant(plan, cell)
    variant_path = directory / "variant.yaml" if variant is not None else None
    if variant is not None:
        write_yaml(variant_path, variant, f"# The rules of cell {cell.name} of {plan.path}\n")
    experiment_path = directory / "experiment.yaml"
    write_yaml(experiment_path, cell_experiment(plan, cell, variant_path),
               f"# Cell {cell.name} of {plan.path}: courtsim run {experiment_path} plays it again\n")
    return experiment_path


def write_yaml(path: Path, record: dict, header: str) -> None:
    text = (header + yaml.safe_dump(manifests.to_plain(record), sort_keys=False, allow_unicode=True)).encode("utf-8")
    if not path.is_file() or path.read_bytes() != text:
        results.write_bytes_atomically(text, path)


def prepare_cell(plan: SweepPlan, cell: SweepCell, first_game: int = 0):
    """(experiment, engine, setup, cells, config) of one cell, from its written files, its games
    from ``first_game``; a rule problem names the study file's cell."""
    experiment_path = write_cell_files(plan, cell)
    try:
        return prepare_experiment(experiment_path, first_game=first_game)
    except ConfigError as error:
        values = ", ".join(f"{column} = {value}" for column, value in cell.values.items())
        raise ConfigError(f"{plan.path}: cell {cell.name} ({values}, pool {cell.pool}): {error}") from None


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
        f"{sum(sum(item.n_games for item in cells) for _, _, _, cells, _ in prepared):,} games -> {plan.out_dir}")
    for cell, prepared_cell in zip(plan.cells, prepared):
        values = ", ".join(f"{column} = {value}" for column, value in cell.values.items())
        log(f"{cell.name} ({values}; pool {cell.pool}): {sum(item.n_games for item in prepared_cell[3]):,} games "
            f"-> {cell.directory(plan.out_dir) / 'run'}")
        play_cell(plan, cell, prepared_cell, progress=progress, log=log)
    table = sweep_table(plan, [config for *_, config in prepared])
    results.write_parquet_atomically(table.to_arrow(), plan.out_dir / TABLE_FILE)
    write_plan(plan, final=True)
    if report:
        from reports.pages.sweep_report import write_sweep_report
        write_sweep_report(plan.out_dir)
    return plan.out_dir


def play_cell(plan: SweepPlan, cell: SweepCell, prepared=None, progress: bool = False,
              log: Callable[[str], None] = lambda message: None, study: str = "sweep") -> tuple[Path, dict]:
    """Play one cell into DIR/cells/<cell>/run (a finished run is not played again, an
    interrupted one resumes); (its run directory, its run's config)."""
    experiment, engine, setup, cells, config = prepared or prepare_cell(plan, cell)
    out_dir = cell.directory(plan.out_dir) / "run"
    run_cells(engine, setup, cells, experiment.seed, out_dir, config, jobs=plan.jobs,
              chunk_size=experiment.chunk_size, progress=progress, overwrite=False, log=log,
              offers_overwrite=False,       # a sweep, tune or sensitivity study has no --overwrite
              provenance={"experiment_file": str(cell.directory(plan.out_dir) / "experiment.yaml"),
                          study: str(plan.path), **manifests.setup_provenance(setup)})
    return out_dir, config


def cell_estimates(plan: SweepPlan, cell: SweepCell, run_dir: Path, config: dict,
                   reference: tuple[str, Path] | None = None) -> list[dict]:
    """A played cell's estimates with their intervals, one row per metric and player count; with a
    ``reference`` (the printed cell's name and run, played on the same games) each is paired with
    it game by game, as a sweep's cells are with its printed cell."""
    bots = [bot["name"] for bot in config["bots"]]
    rows = []
    for n_players in plan.players:
        frame, metrics = paired_metrics.per_game([run_dir], n_players, bots)
        paired_with = None
        if reference is not None:
            paired_with = (reference[0], frame if reference[0] == cell.name
                           else paired_metrics.per_game([reference[1]], n_players, bots)[0])
        rows += cell_rows(plan, cell, n_players, frame, metrics, paired_with)
        rows += [{**cell_identity(plan, cell, None if reference is None else reference[0]), **row}
                 for row in order_estimates(run_dir, n_players, frame,
                                            None if paired_with is None or reference[0] == cell.name else paired_with)]
    return rows


MEDIAN_LENGTH = "game_length_median"
SKILL_GAP = "skill_gap:"          # + "<weaker>-><stronger>": how often the stronger level finished ahead


def extra_metric_names(experiment) -> list[str]:
    """The metrics a cell has beyond the per-game means: the median game length, and each step of
    a skill-ladder experiment's levels."""
    from sim.core.experiments import level_entries

    names = [MEDIAN_LENGTH]
    if experiment.skill_levels:
        levels = [level for level, _ in level_entries(experiment.skill_levels)]
        names += [f"{SKILL_GAP}{weaker}->{stronger}" for weaker, stronger in zip(levels, levels[1:])]
    return names


def order_estimates(run_dir: Path, n_players: int, frame: pl.DataFrame,
                    reference: tuple[str, pl.DataFrame] | None = None) -> list[dict]:
    """The estimates that are not a mean of per-game values: the median game length (with the
    distribution-free interval of order statistics, and with a ``reference`` cell (its name and
    per-game frame) the paired change of the median on the games both played:
    reports.analysis.comparison_stats.paired_median_difference) and, in a skill ladder, each step's skill
    gap (reports.analysis.skill_ladder: the share of pairs of the two levels' seats in which the stronger
    finished ahead, with its Wilson interval)."""
    from scipy import stats as scipy_stats

    from reports.analysis import rundir, skill_ladder

    rows = []
    lengths = np.sort(frame["length"].to_numpy()) if "length" in frame.columns else np.empty(0)
    if len(lengths):
        games = len(lengths)
        low_rank = int(scipy_stats.binom.ppf((1 - CONFIDENCE) / 2, games, 0.5))
        high_rank = min(games - 1, int(scipy_stats.binom.isf((1 - CONFIDENCE) / 2, games, 0.5)))
        rows.append({"metric": MEDIAN_LENGTH, "metric_label": "the median game length", "group": "outcome",
                     "unit": paired_metrics.TURNS, "n_players": n_players, "value": float(np.median(lengths)),
                     "low": float(lengths[max(0, low_rank - 1)]), "high": float(lengths[high_rank]), "games": games,
                     **median_length_change(frame, reference)})
    run = rundir.load_run(run_dir)
    ladder = skill_ladder.ladder_of(run.manifest)
    if ladder is not None:
        seats, _ = rundir.seat_frame(run)
        gaps = skill_ladder.skill_gaps(skill_ladder.level_matrix(skill_ladder.with_levels(
            seats.filter(pl.col("n_players") == n_players), ladder)), ladder)
        for gap in gaps[gaps["n_players"] == str(n_players)].itertuples():
            rows.append({"metric": f"{SKILL_GAP}{gap.weaker}->{gap.stronger}",
                         "metric_label": f"the skill gap {gap.weaker} -> {gap.stronger}", "group": "skill",
                         "unit": paired_metrics.RATE, "n_players": n_players, "value": float(gap.rate),
                         "low": float(gap.rate_low), "high": float(gap.rate_high), "games": int(gap.games)})
    return rows


def median_length_change(frame: pl.DataFrame, reference: tuple[str, pl.DataFrame] | None) -> dict:
    """The paired change of the median game length from the reference cell (none: no keys)."""
    if reference is None or "length" not in reference[1].columns:
        return {}
    paired = reference[1].select("game_index", pl.col("length").alias("reference_length")).join(
        frame.select("game_index", "length"), on="game_index", how="inner")
    change = stats.paired_median_difference(paired["reference_length"].to_numpy(), paired["length"].to_numpy(),
                                            confidence=CONFIDENCE)
    return {"reference_cell": reference[0], "difference": change.difference, "difference_low": change.low,
            "difference_high": change.high, "p_value": change.p_value}


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
                rows += cell_rows(plan, cell, n_players, frame, metrics,
                                  None if reference is None else (reference.name, frames[reference.name][0]))
                paired_with = (None if reference is None or reference.name == cell.name
                               else (reference.name, frames[reference.name][0]))
                rows += [{**cell_identity(plan, cell, None if reference is None else reference.name), **row}
                         for row in order_estimates(cell.directory(plan.out_dir) / "run", n_players, frame,
                                                    paired_with)]
    table = pl.DataFrame(rows, infer_schema_length=None)
    casts = [pl.col("n_players").cast(pl.Int32), pl.col("games").cast(pl.Int64)]
    casts += [pl.col(dimension.column).cast(pl.Float64 if dimension.kind == "numeric" else pl.String)
              for dimension in plan.dimensions]
    return table.with_columns(casts)


def cell_identity(plan: SweepPlan, cell: SweepCell, reference_name: str | None = None) -> dict:
    """The cell's name, pool and values, as every row of it starts (no paired difference; the
    printed cell names itself as its reference, as its mean rows do: its change is 0)."""
    itself = reference_name == cell.name
    return {"cell": cell.name, "pool": cell.pool,
            **{dimension.column: dimension.shown(cell.values[dimension.column]) for dimension in plan.dimensions},
            "reference_cell": cell.name if itself else None, "difference": math.nan, "difference_low": math.nan,
            "difference_high": math.nan, "p_value": math.nan}


def cell_rows(plan: SweepPlan, cell: SweepCell, n_players: int, frame: pl.DataFrame, metrics,
              reference: tuple[str, pl.DataFrame] | None) -> list[dict]:
    values = {dimension.column: dimension.shown(cell.values[dimension.column]) for dimension in plan.dimensions}
    paired_reference = None
    if reference is not None and reference[0] != cell.name:
        # row i of both the same game (the paired difference's interval: stats.paired, honest
        # where few games differ from the printed cell's, never [0, 0] from games that could not vary)
        paired_reference = reference[1].join(frame.select("game_index"), on="game_index", how="inner",
                                             maintain_order="left")
        frame = paired_reference.select("game_index").join(frame, on="game_index", how="inner", maintain_order="left")
    rows = []
    for metric in metrics:
        if not all(column in frame.columns for column in metric.components):
            continue
        components = frame.select(metric.components).to_numpy()
        function = FUNCTIONS[metric.function]
        estimator = stats.share_estimate if metric.unit == paired_metrics.RATE else stats.estimate
        value, low, high = estimator(components, function, confidence=CONFIDENCE)
        difference = (math.nan,) * 4
        if paired_reference is not None:
            paired = stats.paired(paired_reference.select(metric.components).to_numpy(), components, function,
                                  confidence=CONFIDENCE)
            difference = (paired.difference, paired.low, paired.high, paired.p_value)
        rows.append({"cell": cell.name, "pool": cell.pool, **values, "metric": metric.name,
                     "metric_label": metric.label, "group": metric.group, "unit": metric.unit, "n_players": n_players,
                     "value": value, "low": low, "high": high, "games": int(components.shape[0]),
                     "reference_cell": reference[0] if reference is not None else None,
                     "difference": difference[0], "difference_low": difference[1], "difference_high": difference[2],
                     "p_value": difference[3]})
    return rows


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
    results.write_bytes_atomically(yaml.safe_dump(manifests.to_plain(record), sort_keys=False, allow_unicode=True)
                                   .encode("utf-8"), plan.out_dir / PLAN_FILE)


def cell_games(plan: SweepPlan, cell: SweepCell) -> int | None:
    manifest = cell.directory(plan.out_dir) / "run" / "run.yaml"
    if not manifest.is_file():
        return None
    record = yaml.safe_load(manifest.read_text(encoding="utf-8")) or {}
    return int(record.get("config", {}).get("n_games", 0)) or None
