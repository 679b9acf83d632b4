"""The study layer: every study is a plan of *cells*, each one rule set x one bot pool x one batch
of games, planned in memory and played through the runner.

A :class:`StudyCell` holds everything its run depends on, resolved before any game is played:
the rules (the game setup, printed or under a variant), the seatings with their blocks of game
indices (runner cells), the seed, the run's identity (run.yaml's ``config``) and its run
directory. :func:`play` plays it through :func:`sim.core.runner.run_cells`, as ``courtsim run``
plays an experiment: chunks in ``--jobs`` worker processes or on a ``--cluster``, an interrupted
run resumed from its verified chunks, a finished one not played again.

- compare: an arm (the baseline or a variant) x a batch of the experiment;
- sweep: a grid cell (values of the swept paths) x a bot pool;
- tune: a candidate's rules x a rung (or the fresh games of the re-evaluation);
- sensitivity: a design point's data;
- tune-bot: a candidate bot in its seatings against the pool (sim.studies.tune_bot).

The first four play an experiment under a rule set: :func:`experiment_cell` (an experiment and a
variant in memory) and :func:`rules_cell` (a study's experiment under a :class:`RuleSet`). The
files a cell writes beside its run (``DIR/cells/<cell>/experiment.yaml`` and ``variant.yaml``:
``courtsim run`` on that experiment plays the cell again, game for game) are *records* of what
was played: no study reads them back, the plan reaches the runner from memory.

A cell whose experiment asks for kingmaking (``kingmaking: {games: N}``) has it played on its
run once the run is finished (sim.studies.kingmaking.ensure_kingmaking: a resumed study does not
play a kingmaking again that is there for the same run), so that its estimates include the
kingmaker index.

A played cell's estimates (:func:`cell_estimates`: every metric with its interval, and its paired
difference from a reference cell played on the same games) are what sweep, tune and
sensitivity read from their cells.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl
import yaml

from reports.analysis import comparison_stats as stats
from reports.analysis import paired_metrics
from sim.core import results, variants
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError, GameSetup
from sim.core.experiments import (ExperimentFile, experiment_from_record, kingmaking_games, landscape_request,
                                  prepare_planned_experiment)
from sim.core.runner import Cell, RunResult, open_run_directory, run_cells

CELLS_DIR = "cells"             # DIR/cells/<cell>/: a cell's records and its run/
CONFIDENCE = 0.95
FUNCTIONS = {paired_metrics.MEAN: stats.MEAN, paired_metrics.RATIO: stats.RATIO, paired_metrics.BALANCE: stats.balance}
MEDIAN_LENGTH = "game_length_median"
SKILL_GAP = "skill_gap:"          # + "<weaker>-><stronger>": how often the stronger level finished ahead


# ----------------------------------------------------------------------------- a cell

@dataclass
class StudyCell:
    """One rule set x one bot pool x one batch of games, resolved: what its run plays and is."""
    name: str
    run_dir: Path
    engine: Any
    setup: GameSetup
    seatings: list[Cell]                 # the runner's cells: a player count, bots in seat order, games
    seed: int
    chunk_size: int
    config: dict                         # the run's identity (run.yaml config, hashed)
    provenance: dict = field(default_factory=dict)
    # files written beside the run as records of it, never read: (path, record, header line)
    records: list[tuple[Path, dict, str]] = field(default_factory=list)
    kingmaking_games: int | None = None  # the experiment's kingmaking: played on the run once it is finished
    landscape: Any = None                # the experiment's landscape: played on the cell's rules once its run is

    @property
    def n_games(self) -> int:
        return sum(seating.n_games for seating in self.seatings)


def play(cell: StudyCell, jobs: int, progress: bool = False, log: Callable[[str], None] = lambda message: None,
         overwrite: bool = False, offers_overwrite: bool = False) -> RunResult:
    """Play a cell into its run directory (a finished run is not played again, an interrupted one
    resumes from its verified chunks), on ``jobs`` workers or the active ``--cluster``; its
    records are written first. ``offers_overwrite``: the study has --overwrite (compare)."""
    write_records(cell)
    result = run_cells(cell.engine, cell.setup, cell.seatings, cell.seed, cell.run_dir, cell.config, jobs=jobs,
                       chunk_size=cell.chunk_size, progress=progress, overwrite=overwrite, log=log,
                       provenance=cell.provenance, offers_overwrite=offers_overwrite)
    if cell.kingmaking_games is not None:
        play_kingmaking(cell, jobs, log)
    if cell.landscape is not None:
        play_landscape(cell, jobs, log)
    return result


def play_landscape(cell: StudyCell, jobs: int, log: Callable[[str], None]) -> None:
    """The landscape the cell's experiment asks for, played on the cell's rules into RUN/landscape
    (not again when it is there for the same run); a problem names the cell."""
    from sim.studies.landscape import ensure_cell_landscape

    try:
        ensure_cell_landscape(cell.run_dir, cell.setup, cell.seatings, cell.seed, cell.landscape,
                              jobs=max(1, jobs or 1), log=log)
    except ConfigError as error:
        raise ConfigError(f"{cell.name}: landscape: {error}") from None


def play_kingmaking(cell: StudyCell, jobs: int, log: Callable[[str], None]) -> None:
    """The kingmaking the cell's experiment asks for, played on its finished run (not again when
    it is there for the same run); a problem names the cell."""
    from sim.studies.kingmaking import ensure_kingmaking

    try:
        ensure_kingmaking(cell.run_dir, cell.kingmaking_games, jobs=max(1, jobs or 1), log=log)
    except ConfigError as error:
        raise ConfigError(f"{cell.name}: kingmaking: {error}") from None


def check_played(cell: StudyCell, offers_overwrite: bool = True) -> None:
    """Refuse, before anything is written, a run directory of the cell that holds another run."""
    open_run_directory(cell.run_dir, cell.config, overwrite=False, offers_overwrite=offers_overwrite)


def write_records(cell: StudyCell) -> None:
    for path, record, header in cell.records:
        write_yaml(path, record, header)


def write_yaml(path: Path, record: dict, header: str) -> None:
    """A record file (left alone when it already says the same)."""
    text = (header + yaml.safe_dump(manifests.to_plain(record), sort_keys=False, allow_unicode=True)).encode("utf-8")
    if not path.is_file() or path.read_bytes() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        results.write_bytes_atomically(text, path)


# ----------------------------------------------------------------------------- cells of seatings

def seatings_cell(name: str, run_dir: Path, game: str, setup: GameSetup, seatings: list[Cell], seed: int,
                  bots: list, provenance: dict) -> StudyCell:
    """A cell that plays ``seatings`` (runner cells: bots in seat order and their games) under
    ``setup``, not an experiment file (tune-bot's candidates, the landscape's pairs): its identity
    is every bot with its parameters and every seating with its games."""
    from sim import registry
    from sim.core.runner import DEFAULT_CHUNK_SIZE

    engine = registry.get_engine(game)
    config = {"game": game, "players": int(seatings[0].n_players), "seed": int(seed),
              "n_games": int(sum(seating.n_games for seating in seatings)), "chunk_size": DEFAULT_CHUNK_SIZE,
              "tables": list(engine.tables), "bots": [manifests.bot_record(bot) for bot in bots],
              "cells": [{"players": seating.n_players, "first_game": seating.first_game, "n_games": seating.n_games,
                         **dict(seating.labels)} for seating in seatings],
              "setup": manifests.setup_record(setup), **manifests.identity_versions(engine)}
    return StudyCell(name, Path(run_dir), engine, setup, seatings, seed, DEFAULT_CHUNK_SIZE, config,
                     {**provenance, **manifests.setup_provenance(setup)})


# ----------------------------------------------------------------------------- cells of an experiment

def experiment_cell(name: str, run_dir: Path, experiment: ExperimentFile, path: Path,
                    variant: variants.Variant | None = None, variant_record: dict | None = None,
                    variant_path: Path | None = None, games_per_matchup: int | None = None, first_game: int = 0,
                    provenance: dict | None = None, records: list | None = None) -> StudyCell:
    """The cell that plays ``experiment`` (in memory; ``path`` is the file it is recorded as,
    never read) under ``variant`` or the variant of ``variant_record`` (recorded as
    ``variant_path``) or the printed rules, its games from ``first_game``: the run ``courtsim
    run`` would make of the same files (sim.core.experiments.prepare_planned_experiment)."""
    experiment, engine, setup, seatings, config = prepare_planned_experiment(
        experiment, path, variant=variant, variant_record=variant_record, variant_path=variant_path,
        games_per_matchup=games_per_matchup, first_game=first_game)
    check_landscape(experiment, path)
    return StudyCell(name, Path(run_dir), engine, setup, seatings, experiment.seed, experiment.chunk_size, config,
                     {**(provenance or {}), **manifests.setup_provenance(setup)}, list(records or []),
                     kingmaking_games(experiment), landscape_request(experiment))


def check_landscape(experiment: ExperimentFile, path: Path) -> None:
    """The experiment's ``landscape:`` names options of the game's inventory and bots it knows
    (checked before any game is played)."""
    if experiment.landscape is not None:
        from sim.studies.landscape import check_request

        check_request(experiment.game, experiment.landscape, f"{path}: key 'landscape")


@dataclass
class RuleSet:
    """A cell's rules in memory: game-data overrides by path, rule switches and a named variant
    they build on; ``printed``: every value the printed one, so the cell plays the printed rules
    without a variant, as ``courtsim run`` plays them."""
    set: dict[str, Any] = field(default_factory=dict)
    rules: dict[str, Any] = field(default_factory=dict)
    extends: str | None = None           # a named variant (a name or file)
    printed: bool = False


@dataclass
class RulesStudy:
    """What every cell of a study of rules (sweep, tune, sensitivity) shares: the study's name
    and file, its experiment (as its file is written), players, seed and jobs, and its directory."""
    kind: str                  # "sweep", "tuning", "sensitivity": the study in words and provenance
    name: str                  # the study's name: a cell's experiment and variant are <name>_<cell>
    path: Path                 # the study file
    experiment_path: Path
    experiment: dict           # the experiment file's mapping, as written
    game: str
    players: list[int]
    seed: int
    jobs: int
    out_dir: Path
    own_pools: bool = False    # the study gives the bots: the experiment's keys naming its own bots are left out

    def directory(self, cell: str) -> Path:
        return self.out_dir / CELLS_DIR / cell


def variant_record(study: RulesStudy, cell: str, rules: RuleSet, words: str) -> dict | None:
    """The cell's variant as its file holds it (None for the printed rules)."""
    if rules.printed:
        return None
    record: dict[str, Any] = {"name": f"{study.name}_{cell}".replace("-", "_"), "game": study.game,
                              "description": f"Cell {cell} of the {study.kind} {study.name}: {words}.",
                              "label": words[:80]}
    if rules.extends is not None:
        record["extends"] = str(variants.find_variant(rules.extends, study.game).resolve())
    if rules.set:
        record["set"] = dict(rules.set)
    if rules.rules:
        record["rules"] = dict(rules.rules)
    return record


def experiment_record(study: RulesStudy, cell: str, pool: list[str], games_per_matchup: int,
                      variant_path: Path | None) -> dict:
    """The cell's experiment as its file holds it: the study's experiment with its players, pool,
    games, seed and the cell's variant."""
    record = dict(study.experiment)
    record.update({"name": f"{study.name}_{cell}".replace("-", "_"), "players": study.players, "bots": pool,
                   "games_per_matchup": games_per_matchup, "seed": study.seed, "jobs": study.jobs,
                   "out": str(study.directory(cell) / "run")})
    if study.own_pools and isinstance(record.get("matchups"), list):
        record["matchups"] = "with_repeats"   # listed match-ups name the experiment's bots, not the pool's
    for key in ("games_per_matchup_with", "skill_levels"):
        if key in record and study.own_pools:
            record.pop(key)          # they name the experiment's bots
    if variant_path is not None:
        record["variant"] = str(variant_path.resolve())
    return manifests.to_plain(record)


def rules_cell(study: RulesStudy, cell: str, rules: RuleSet, words: str, pool: list[str], games_per_matchup: int,
               first_game: int = 0, where: str | None = None) -> StudyCell:
    """The cell ``cell`` of a study of rules: its experiment under ``rules`` (``words``: its values
    in words) with ``pool``, planned in memory; run in DIR/cells/<cell>/run, recorded beside it in
    experiment.yaml and variant.yaml. A rule problem is one line naming the study file, the cell
    and ``where`` (its values and pool)."""
    directory = study.directory(cell)
    variant = variant_record(study, cell, rules, words)
    variant_path = directory / "variant.yaml" if variant is not None else None
    experiment_path = directory / "experiment.yaml"
    experiment = experiment_record(study, cell, pool, games_per_matchup, variant_path)
    records = [(experiment_path, experiment, f"# Cell {cell} of {study.path}: courtsim run {experiment_path} plays "
                                             "it again\n")]
    if variant is not None:
        variant = manifests.to_plain(variant)
        records.insert(0, (variant_path, variant, f"# The rules of cell {cell} of {study.path}\n"))
    try:
        return experiment_cell(cell, directory / "run", experiment_from_record(experiment, experiment_path),
                               experiment_path, variant_record=variant,
                               variant_path=None if variant_path is None else variant_path.resolve(),
                               first_game=first_game, records=records,
                               provenance={"experiment_file": str(experiment_path), study.kind: str(study.path)})
    except ConfigError as error:
        raise ConfigError(f"{study.path}: cell {cell} ({where or words}): {error}") from None


# ----------------------------------------------------------------------------- a played cell's estimates

def cell_estimates(run_dir: Path, config: dict, players: list[int], start: dict,
                   reference: tuple[str, Path] | None = None) -> list[dict]:
    """A played cell's estimates with their intervals, one row per metric and player count, each
    row starting with ``start`` (the cell's name, pool and values); with a ``reference`` (a
    cell's name and run, played on the same games) each is paired with it game by game."""
    bots = [bot["name"] for bot in config["bots"]]
    rows = []
    for n_players in players:
        frame, metrics = paired_metrics.per_game([run_dir], n_players, bots)
        paired_with = None
        if reference is not None:
            paired_with = (reference[0], frame if reference[0] == start["cell"]
                           else paired_metrics.per_game([reference[1]], n_players, bots)[0])
        rows += metric_rows(start, n_players, frame, metrics, paired_with)
        rows += [{**identity_row(start, None if reference is None else reference[0]), **row}
                 for row in order_estimates(run_dir, n_players, frame,
                                            None if paired_with is None or reference[0] == start["cell"] else paired_with)]
        rows += landscape_rows(run_dir, n_players, start, reference)
    return rows


def landscape_rows(run_dir: Path, n_players: int, start: dict, reference: tuple[str, Path] | None) -> list[dict]:
    """The cell's landscape figures that are not means of per-game values (the number of dead
    options, the meta-game's top mass and entropy: reports.analysis.landscape_metrics); with a
    ``reference`` cell, the change from its figure, without an interval (nothing pairs them)."""
    from reports.analysis import landscape_metrics, rundir

    def played(run: Path) -> Path | None:
        return landscape_metrics.played_landscape_of(rundir.load_run(run))

    found = landscape_metrics.meta_rows(played(run_dir), n_players)
    theirs = {}
    if reference is not None and reference[0] != start["cell"] and found:
        theirs = {row["metric"]: row["value"]
                  for row in landscape_metrics.meta_rows(played(reference[1]), n_players)}
    rows = []
    for row in found:
        rows.append({**identity_row(start, None if reference is None else reference[0]), **row})
        if row["metric"] in theirs:
            rows[-1].update(reference_cell=reference[0], difference=row["value"] - theirs[row["metric"]])
    return rows


def identity_row(start: dict, reference_name: str | None = None) -> dict:
    """How every order-statistic row of a cell starts: ``start`` (its name, pool and values) and
    no paired difference (the reference cell names itself as its reference, as its mean rows do:
    its change is 0)."""
    itself = reference_name == start["cell"]
    return {**start, "reference_cell": start["cell"] if itself else None, "difference": math.nan,
            "difference_low": math.nan, "difference_high": math.nan, "p_value": math.nan}


def metric_rows(start: dict, n_players: int, frame: pl.DataFrame, metrics,
                reference: tuple[str, pl.DataFrame] | None) -> list[dict]:
    """Every per-game metric of a cell at ``n_players``: its estimate with its interval, and with a
    ``reference`` (another cell's name and per-game frame) its paired difference from it."""
    paired_reference = None
    if reference is not None and reference[0] != start["cell"]:
        # row i of both the same game (the paired difference's interval: stats.paired, honest
        # where few games differ from the printed cell's, never [0, 0] from games that could not vary)
        paired_reference = reference[1].join(frame.select("game_index"), on="game_index", how="inner",
                                             maintain_order="left")
        frame = paired_reference.select("game_index").join(frame, on="game_index", how="inner", maintain_order="left")
    rows = []
    for metric in metrics:
        if not all(column in frame.columns for column in metric.components):
            continue
        # a sampled metric (the kingmaker index) is estimated on its sample's games alone
        mine, theirs = paired_metrics.in_sample(metric, frame, paired_reference)
        if paired_metrics.is_sampled(metric) and mine.is_empty():
            continue                 # no game of its sample at this player count: nothing measured
        components = mine.select(metric.components).to_numpy()
        function = FUNCTIONS[metric.function]
        # a share stays in [0, 1]; a difference of shares (an option's value) is signed
        estimator = stats.share_estimate if metric.unit == paired_metrics.RATE and not metric.signed else stats.estimate
        value, low, high = estimator(components, function, confidence=CONFIDENCE)
        difference = (math.nan,) * 4
        if theirs is not None:
            paired = stats.paired(theirs.select(metric.components).to_numpy(), components, function,
                                  confidence=CONFIDENCE)
            difference = (paired.difference, paired.low, paired.high, paired.p_value)
        rows.append({**start, "metric": metric.name,
                     "metric_label": metric.label, "group": metric.group, "unit": metric.unit, "n_players": n_players,
                     "value": value, "low": low, "high": high, "games": int(components.shape[0]),
                     "reference_cell": reference[0] if reference is not None else None,
                     "difference": difference[0], "difference_low": difference[1], "difference_high": difference[2],
                     "p_value": difference[3]})
    return rows


def kingmaking_target_problem(pattern: str, known: list[str], experiment, experiment_path: Path,
                              players: list[int]) -> str | None:
    """Why a target on the kingmaker index (a metric pattern that matches it and no other known
    metric) could never be judged, or None: the experiment does not ask for kingmaking, or the
    target's player counts (``players``) are all 2 (no kingmaker by definition)."""
    from fnmatch import fnmatch

    name = paired_metrics.KINGMAKER_INDEX.name
    if not fnmatch(name, pattern) or any(fnmatch(other, pattern) for other in known if other != name):
        return None
    if experiment.kingmaking is None:
        return (f"{name} is measured by a kingmaking played on each cell's run, and {experiment_path} asks for none; "
                f"add kingmaking: {{games: 1000}} to it (it implies tables: [standings])")
    if players and max(players) < paired_metrics.KINGMAKING_PLAYERS:
        return (f"{name} at {', '.join(map(str, players))} players: there is no kingmaker by definition at 2 players "
                "(a seat that cannot win hands the game to the only other seat); ask for 3 players or more")
    return None


def landscape_target_problem(pattern: str, known: list[str], experiment, experiment_path: Path) -> str | None:
    """Why a target on a landscape metric (an option's value, dead options, the equilibrium's top
    mass or entropy: a pattern that matches one of them and no other known metric) could never be
    judged, or None: the experiment does not ask for the landscape."""
    from fnmatch import fnmatch

    from reports.analysis import landscape_metrics

    if experiment.landscape is not None or any(fnmatch(name, pattern) for name in known):
        return None
    try:
        names = landscape_metrics.every_metric_name(experiment.game)
    except ConfigError:
        return None                      # a game without a landscape inventory
    if not any(fnmatch(name, pattern) for name in names):
        return None
    return (f"{pattern} is measured by the strategy landscape played on each cell's rules, and {experiment_path} "
            f"asks for none; add landscape: {{games: 400}} to it")


def extra_metric_names(experiment) -> list[str]:
    """The metrics a cell has beyond the per-game means: the median game length, each step of a
    skill-ladder experiment's levels, and the landscape's figures of an experiment that asks for it."""
    from reports.analysis import landscape_metrics
    from sim.core.experiments import level_entries

    names = [MEDIAN_LENGTH] + landscape_metrics.requested_metric_names(experiment.game, experiment.landscape)
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
