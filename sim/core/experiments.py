"""Experiments as YAML: a pool of bots, match-ups, a seating design, and one run directory.

An experiment file (``configs/experiments/<name>.yaml``)::

    name: louis_xiv_demo
    game: louis-xiv
    players: [4]                  # one or more player counts
    bots: [greedy, crown_hunter, mission_racer, gold_briber, coat_hoarder]
    matchups: combinations        # combinations | with_repeats | [[bot, bot, ...], ...]
    seating: rotation             # rotation | permutations
    games_per_matchup: 2000       # per match-up and player count, split evenly over its seatings
    seed: 7
    jobs: 2
    out: runs/louis_xiv_demo

*Match-ups* are the sets of bots that meet: every combination of ``players`` distinct bots of
the pool, every multiset (``with_repeats``, e.g. two greedy against two random), or an explicit
list. *Seating* decides who sits where: ``rotation`` plays each match-up in its n cyclic
shifts (each bot in each seat equally often, n seatings), ``permutations`` in every distinct
order (n! seatings; seat interactions balanced too). Every seating gets the same number of
games, so no bot is favoured by its seat.

Each (player count, match-up, seating) is one runner :class:`~sim.core.runner.Cell` with its own
block of game indices; the rows of the games and seats tables carry ``matchup`` (the bots of
the match-up, in pool order, joined by `` vs ``) and ``seating`` (bot names in seat order).
"""
from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sim import registry
from sim.core import run_manifest as manifests
from sim.core import variants
from sim.core.arguments import GAME_COUNT, JOBS, PLAYER_COUNT, SEED
from sim.core.engine import GAME_INDEX_LIMIT, BotSeat, ConfigError, GameSetup
from sim.core.runner import DEFAULT_CHUNK_SIZE, Cell
from sim.core.yaml_files import read_yaml_mapping, validate

EXPERIMENTS_DIR = Path(__file__).resolve().parent.parent.parent / "configs" / "experiments"
MATCHUP_SEPARATOR = " vs "
SEATING_SEPARATOR = ","
# Numbers are YAML integers, checked as on the command line (sim.core.arguments), so 1e22 (a
# float), true or "3" is refused, not converted.
GameCount = Annotated[int, GAME_COUNT.validator]


class ExperimentFile(BaseModel):
    """One experiment file, as written."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_\-]*$")
    description: str = ""
    game: str
    players: list[Annotated[int, PLAYER_COUNT.validator]] = Field(min_length=1)
    bots: list[str] = Field(min_length=1, description="the pool: bot names or bot file paths")
    matchups: Union[Literal["combinations", "with_repeats"], list[list[str]]] = "combinations"
    seating: Literal["rotation", "permutations"] = "rotation"
    games_per_matchup: GameCount
    seed: Annotated[int, SEED.validator] = 0
    jobs: Annotated[int, JOBS.validator] = 1
    chunk_size: GameCount = DEFAULT_CHUNK_SIZE
    out: Optional[str] = None
    game_file: Optional[str] = None
    rules: dict[str, Union[bool, int, float, str]] = Field(default_factory=dict)
    variant: Optional[str] = Field(None, description="a rule variant (name or file) the experiment plays")

    @field_validator("players")
    @classmethod
    def distinct_player_counts(cls, players: list[int]) -> list[int]:
        if len(set(players)) != len(players):
            raise ValueError("expected distinct player counts")
        return players

    @field_validator("bots")
    @classmethod
    def distinct_bots(cls, bots: list[str]) -> list[str]:
        repeated = sorted({bot for bot in bots if bots.count(bot) > 1})
        if repeated:
            raise ValueError(f"expected each bot once in the pool (use matchups: with_repeats for "
                             f"several copies), repeated: {', '.join(repeated)}")
        return bots



def load_experiment(path: Path) -> ExperimentFile:
    return validate(ExperimentFile, read_yaml_mapping(path, "experiment"), path)


def find_experiment(name_or_path: str) -> Path:
    """A path as given, or ``configs/experiments/<name>.yaml``."""
    path = Path(name_or_path)
    if path.exists() or path.suffix in (".yaml", ".yml") or "/" in name_or_path:
        return path
    return EXPERIMENTS_DIR / f"{name_or_path}.yaml"


def matchups_for(experiment: ExperimentFile, n_players: int, path: Path) -> list[tuple[str, ...]]:
    """The match-ups (bot names, pool order) at ``n_players``."""
    pool = experiment.bots
    if experiment.matchups == "combinations":
        if len(pool) < n_players:
            raise ConfigError(f"{path}: key 'matchups': combinations of {n_players} distinct bots need a pool "
                              f"of at least {n_players}, found {len(pool)} (use matchups: with_repeats)")
        return list(itertools.combinations(pool, n_players))
    if experiment.matchups == "with_repeats":
        return list(itertools.combinations_with_replacement(pool, n_players))
    chosen = [tuple(matchup) for matchup in experiment.matchups if len(matchup) == n_players]
    for number, matchup in enumerate(experiment.matchups):
        unknown = [bot for bot in matchup if bot not in pool]
        if unknown:
            raise ConfigError(f"{path}: key 'matchups.{number}': expected bots of the pool ({', '.join(pool)}), "
                              f"found {', '.join(unknown)}")
    if not chosen:
        raise ConfigError(f"{path}: key 'matchups': no match-up of {n_players} bots for players: {n_players}")
    return chosen


def seatings(matchup: tuple[str, ...], design: str) -> list[tuple[str, ...]]:
    """The seat orders a match-up is played in (see the module docstring)."""
    if design == "rotation":
        return [matchup[shift:] + matchup[:shift] for shift in range(len(matchup))]
    return sorted(set(itertools.permutations(matchup)))


def plan_cells(experiment: ExperimentFile, bots: dict[str, BotSeat], path: Path, first_game: int = 0) -> list[Cell]:
    """Every (player count, match-up, seating) with its block of game indices, in file order,
    the first block starting at ``first_game``."""
    cells: list[Cell] = []
    next_game = first_game
    for n_players in experiment.players:
        for matchup in matchups_for(experiment, n_players, path):
            orders = seatings(matchup, experiment.seating)
            per_seating = math.ceil(experiment.games_per_matchup / len(orders))
            for order in orders:
                labels = (("matchup", MATCHUP_SEPARATOR.join(bots[name].name for name in matchup)),
                          ("seating", SEATING_SEPARATOR.join(bots[name].name for name in order)))
                cells.append(Cell(n_players, tuple(bots[name] for name in order), next_game, per_seating, labels))
                next_game += per_seating
                if next_game >= GAME_INDEX_LIMIT:
                    raise ConfigError(f"{path}: key 'games_per_matchup': expected fewer than {GAME_INDEX_LIMIT:,} "
                                      f"games in all (game indices are int32), found {experiment.games_per_matchup:,} "
                                      f"per match-up making {next_game:,} or more")
    return cells


def experiment_config(experiment: ExperimentFile, engine, setup: GameSetup, bots: dict[str, BotSeat],
                      cells: list[Cell], chunk_size: int) -> dict:
    """The identity of an experiment's run (run.yaml records and hashes it): the design, every
    bot resolved, every cell, the resolved rules. Not its description, jobs, out or file names."""
    return {
        "game": experiment.game,
        "experiment": experiment.model_dump(exclude={"jobs", "out", "description", "game_file", "variant"}),
        "seed": int(experiment.seed),
        "n_games": int(sum(cell.n_games for cell in cells)),
        "chunk_size": int(chunk_size),
        "tables": list(engine.tables),
        "bots": [manifests.bot_record(bot) for bot in bots.values()],
        "cells": [{"players": cell.n_players, "first_game": cell.first_game, "n_games": cell.n_games,
                   **dict(cell.labels)} for cell in cells],
        "setup": manifests.setup_record(setup),
        **manifests.identity_versions(engine),
    }


def check_players(engine, experiment: ExperimentFile, path: Path) -> None:
    for n_players in experiment.players:
        if n_players not in engine.player_counts:
            raise ConfigError(f"{path}: key 'players': {experiment.game} is played by "
                              f"{', '.join(map(str, engine.player_counts))} players, found {n_players}")


def load_setup_with_rules(engine, experiment: ExperimentFile, path: Path,
                          variant: variants.Variant | None = None) -> GameSetup:
    """The game setup under the variant (if any) with the experiment's ``rules:``. The game file
    and the variant are read on their own first, so that an error of the game file names that
    file, of the variant its file, and an error of a rule this one."""
    setup = variants.load_setup(engine, experiment.game_file, variant)
    if not experiment.rules:
        return setup
    try:
        return variants.load_setup(engine, experiment.game_file, variant, dict(experiment.rules))
    except ConfigError as error:
        raise ConfigError(f"{path}: key 'rules': {error}") from None


def experiment_variant(experiment: ExperimentFile, path: Path, variant: str | None) -> variants.Variant | None:
    """The variant to play: ``variant`` (a command line's), else the experiment's ``variant:``."""
    if variant is not None:
        return variants.load_variant(variant, experiment.game)
    if experiment.variant is None:
        return None
    return variants.load_variant(experiment.variant, experiment.game, where=f"{path}: key 'variant'")


def prepare_experiment(path: Path, variant: str | None = None, games_per_matchup: int | None = None,
                       first_game: int = 0, printed_rules: bool = False):
    """Load and validate everything before any game runs: (experiment, engine, setup, cells, config).
    ``variant`` replaces the experiment's ``variant:``; ``games_per_matchup`` its number of games;
    ``first_game`` shifts every game index (a comparison's later batches play new games);
    ``printed_rules`` plays without the experiment's ``variant:`` (a comparison's baseline)."""
    from strategies.bots import BotCatalogue  # strategies imports sim; keep the import one-way at load

    experiment = load_experiment(path)
    engine = registry.get_engine(experiment.game)
    check_players(engine, experiment, path)
    catalogue = BotCatalogue()
    definitions = {name: catalogue.definition(experiment.game, name, f"{path}: key 'bots'")
                   for name in experiment.bots}
    bots = {name: definition.bot_seat() for name, definition in definitions.items()}
    game_file = experiment.game_file
    if game_file is not None and not Path(game_file).is_file():
        raise ConfigError(f"{path}: key 'game_file': expected an existing file, found {game_file!r}")
    names = [bot.name for bot in bots.values()]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:  # in a pool even the same bot twice is a mistake (with_repeats plays copies)
        raise ConfigError(f"{path}: key 'bots': expected bots with distinct names, found {', '.join(repeated)} twice")
    if games_per_matchup is not None:
        experiment = experiment.model_copy(update={"games_per_matchup": games_per_matchup})
    chosen = None if printed_rules and variant is None else experiment_variant(experiment, path, variant)
    setup = load_setup_with_rules(engine, experiment, path, chosen)
    cells = plan_cells(experiment, bots, path, first_game)
    config = experiment_config(experiment, engine, setup, bots, cells, experiment.chunk_size)
    return experiment, engine, setup, cells, config
