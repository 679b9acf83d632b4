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
the pool, every multiset (``with_repeats``, e.g. two greedy against two random), every multiset
of at most two distinct bots (``pairs``: each bot in every seat, its *mirror*, and each two bots
in every split, k seats against n - k), or an explicit list.
*Seating* decides who sits where: ``rotation`` plays each match-up in its n cyclic
shifts (each bot in each seat equally often, n seatings), ``permutations`` in every distinct
order (n! seatings; seat interactions balanced too). Every seating gets the same number of
games, so no bot is favoured by its seat.

A skill ladder (issue 13) adds three keys::

    bots: [random, greedy, "tuned_{players}p", search]
    matchups: pairs
    games_per_matchup_with: {search: 40}     # match-ups with the slow search bot play fewer games
    skill_levels:                            # weakest first; a level is a bot of the pool, or
      - random                               #   level_name: bot (or [bot, bot, ...])
      - greedy
      - tuned: "tuned_{players}p"
      - search

``{players}`` in a bot name (in ``bots``, ``matchups``, ``games_per_matchup_with`` and
``skill_levels``) is replaced by each player count, so ``tuned_{players}p`` plays
``tuned_3p`` in the 3-player games: the pool is resolved once per player count.
``games_per_matchup_with`` caps the games of every match-up that includes the bot (the smallest
cap of its bots counts). ``skill_levels`` only labels the pool for the report
(:mod:`reports.analysis.skill_ladder`): every level's bots must be in the pool, a bot in one level at most,
and the match-ups must include every level's mirror (all seats of one level), from which the report
checks its findings level by level.

``tables: [standings]`` also writes the game's optional tables (``courtsim tables GAME`` lists
them; ``simulate --tables``); the run's identity records them with the game's own tables.

``kingmaking: {games: 1000}`` asks a study (compare, sweep, tune) to play the kingmaking
(sim.studies.kingmaking, ``courtsim kingmaking``) of at most that many games of each of its
cells' runs once the run is played, so that the kingmaker index is one of the cell's metrics
(reports.analysis.paired_metrics). It implies ``tables: [standings]`` (the kingmaking reads the
standings); it is an analysis of the run, not part of it, so the run's identity leaves it out.

``landscape: {games: 400}`` likewise asks a study to play, on each cell's rules once its run is
played, the strategy landscape (sim.studies.landscape, ``courtsim landscape``) at the cell's
player counts: the meta-game of ``pool`` (default: configs/landscape/<game>.yaml's) and the value
of each of ``options`` (default: every option of the inventory), ``games`` games a match-up, on
the game indices of the cell's own first games. Its figures are the cell's metrics
(reports.analysis.landscape_metrics): ``option_value:<id>`` (paired game by game, so a compare
of a variant that revives a dead option shows it), ``dead_options``, ``equilibrium_top_mass``
and ``equilibrium_entropy``: the targets "no option dead" and "no dominant strategy". It too is
left out of the run's identity.

Each (player count, match-up, seating) is one runner :class:`~sim.core.runner.Cell` with its own
block of game indices; the rows of the games and seats tables carry ``matchup`` (the bots of
the match-up, in pool order, joined by `` vs ``) and ``seating`` (bot names in seat order).
"""
from __future__ import annotations

import itertools
import math
import re
from pathlib import Path
from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sim import registry
from sim.core import run_manifest as manifests
from sim.core import variants
from sim.core.arguments import GAME_COUNT, JOBS, PLAYER_COUNT, SEED
from sim.core.engine import GAME_INDEX_LIMIT, BotSeat, ConfigError, GameSetup, run_tables, with_optional_tables
from sim.core.runner import DEFAULT_CHUNK_SIZE, Cell
from sim.core.yaml_files import read_yaml_mapping, validate

EXPERIMENTS_DIR = Path(__file__).resolve().parent.parent.parent / "configs" / "experiments"
MATCHUP_SEPARATOR = " vs "
PLAYERS_PLACEHOLDER = "{players}"
# keys added for skill ladders: left out of a run's identity while unused, so that the runs of
# experiments written before them keep their run_hash
LADDER_KEYS = ("games_per_matchup_with", "skill_levels")
SEATING_SEPARATOR = ","
# Numbers are YAML integers, checked as on the command line (sim.core.arguments), so 1e22 (a
# float), true or "3" is refused, not converted.
GameCount = Annotated[int, GAME_COUNT.validator]
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_\-]*$"
DEFAULT_KINGMAKING_GAMES = 1000     # games a kingmaking samples unless asked for another number
KINGMAKING_TABLE = "standings"      # the optional table a kingmaking reads


class KingmakingRequest(BaseModel):
    """An experiment's ``kingmaking:``: the kingmaking of its study cells' runs, of at most ``games`` games."""
    model_config = ConfigDict(extra="forbid")
    games: GameCount = DEFAULT_KINGMAKING_GAMES


class LandscapeRequest(BaseModel):
    """An experiment's ``landscape:``: the strategy landscape of its study cells' rules."""
    model_config = ConfigDict(extra="forbid")
    games: GameCount = 400
    pool: Optional[list[str]] = Field(None, min_length=2, description="the meta-game's bots (default: the "
                                      "landscape file's pool; tuned = the player count's tuned bot)")
    meta_game: bool = Field(True, description="play the meta-game (no dominant strategy?)")
    options: Union[Literal["all"], list[str]] = Field("all", description="the options to value: all, or their ids")


class ExperimentFile(BaseModel):
    """One experiment file, as written."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_\-]*$")
    description: str = ""
    game: str
    players: list[Annotated[int, PLAYER_COUNT.validator]] = Field(min_length=1)
    bots: list[str] = Field(min_length=1, description="the pool: bot names or bot file paths")
    matchups: Union[Literal["combinations", "with_repeats", "pairs"], list[list[str]]] = "combinations"
    seating: Literal["rotation", "permutations"] = "rotation"
    games_per_matchup: GameCount
    seed: Annotated[int, SEED.validator] = 0
    jobs: Annotated[int, JOBS.validator] = 1
    cluster: Optional[str] = Field(None, description="a Dask scheduler address (tcp://HOST:PORT) to play on; --cluster overrides it")
    chunk_size: GameCount = DEFAULT_CHUNK_SIZE
    out: Optional[str] = None
    game_file: Optional[str] = None
    rules: dict[str, Union[bool, int, float, str]] = Field(default_factory=dict)
    variant: Optional[str] = Field(None, description="a rule variant (name or file) the experiment plays")
    games_per_matchup_with: dict[str, GameCount] = Field(
        default_factory=dict, description="bot -> at most this many games for a match-up that includes it")
    skill_levels: Optional[list[Union[str, dict[str, Union[str, list[str]]]]]] = Field(
        None, min_length=2, description="the pool's bots as ordered skill levels, weakest first")
    tables: list[str] = Field(default_factory=list, description="optional tables to write besides the game's own "
                              "(e.g. [standings]; courtsim tables GAME lists them)")
    kingmaking: Optional[KingmakingRequest] = Field(
        None, description="a study plays the kingmaking of each cell's run (implies tables: [standings])")
    landscape: Optional[LandscapeRequest] = Field(
        None, description="a study plays the strategy landscape of each cell's rules (option values, meta-game)")

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


def expand(name: str, n_players: int) -> str:
    """A bot name (or path) of the file at ``n_players``: ``tuned_{players}p`` -> ``tuned_3p``."""
    return name.replace(PLAYERS_PLACEHOLDER, str(n_players))


def check_placeholders(name: str, where: str) -> None:
    """ConfigError unless ``{players}`` is the only placeholder in ``name``."""
    if "{" in name.replace(PLAYERS_PLACEHOLDER, "") or "}" in name.replace(PLAYERS_PLACEHOLDER, ""):
        raise ConfigError(f"{where}: expected a bot name whose only placeholder is {PLAYERS_PLACEHOLDER}, "
                          f"found {name!r}")


def pool_at(experiment: ExperimentFile, n_players: int) -> list[str]:
    """The pool's bot names (or paths) at ``n_players``, placeholders replaced."""
    return [expand(name, n_players) for name in experiment.bots]


def matchups_for(experiment: ExperimentFile, n_players: int, path: Path) -> list[tuple[str, ...]]:
    """The match-ups (bot names at ``n_players``, pool order) at ``n_players``."""
    pool = pool_at(experiment, n_players)
    if experiment.matchups == "combinations":
        if len(pool) < n_players:
            raise ConfigError(f"{path}: key 'matchups': combinations of {n_players} distinct bots need a pool "
                              f"of at least {n_players}, found {len(pool)} (use matchups: with_repeats)")
        return list(itertools.combinations(pool, n_players))
    if experiment.matchups == "with_repeats":
        return list(itertools.combinations_with_replacement(pool, n_players))
    if experiment.matchups == "pairs":
        return [matchup for matchup in itertools.combinations_with_replacement(pool, n_players)
                if len(set(matchup)) <= 2]
    chosen = [tuple(expand(bot, n_players) for bot in matchup) for matchup in experiment.matchups
              if len(matchup) == n_players]
    for number, matchup in enumerate(experiment.matchups):
        unknown = [bot for bot in matchup if expand(bot, n_players) not in pool]
        if unknown:
            raise ConfigError(f"{path}: key 'matchups.{number}': expected bots of the pool ({', '.join(experiment.bots)}), "
                              f"found {', '.join(unknown)}")
    if not chosen:
        raise ConfigError(f"{path}: key 'matchups': no match-up of {n_players} bots for players: {n_players}")
    return chosen


def games_for(experiment: ExperimentFile, matchup: tuple[str, ...], n_players: int) -> int:
    """A match-up's games: ``games_per_matchup``, or the smallest ``games_per_matchup_with`` cap
    of its bots when that is smaller."""
    caps = [games for bot, games in experiment.games_per_matchup_with.items() if expand(bot, n_players) in matchup]
    return min([experiment.games_per_matchup, *caps])


def seatings(matchup: tuple[str, ...], design: str) -> list[tuple[str, ...]]:
    """The seat orders a match-up is played in (see the module docstring)."""
    if design == "rotation":
        return [matchup[shift:] + matchup[:shift] for shift in range(len(matchup))]
    return sorted(set(itertools.permutations(matchup)))


def plan_cells(experiment: ExperimentFile, bots: dict[str, BotSeat], path: Path, first_game: int = 0) -> list[Cell]:
    """Every (player count, match-up, seating) with its block of game indices, in file order,
    the first block starting at ``first_game``. ``bots``: every bot name (or path) of the pool at
    every player count, placeholders replaced, with its resolved bot."""
    cells: list[Cell] = []
    next_game = first_game
    for n_players in experiment.players:
        for matchup in matchups_for(experiment, n_players, path):
            orders = seatings(matchup, experiment.seating)
            per_seating = math.ceil(games_for(experiment, matchup, n_players) / len(orders))
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


def level_entries(skill_levels: list) -> list[tuple[str, tuple[str, ...]]]:
    """(level, its bot names as written) of an experiment's ``skill_levels``, weakest first. A
    plain name is a level of that one bot; ``{level: bot}`` or ``{level: [bot, ...]}`` names it."""
    entries = []
    for item in skill_levels:
        if isinstance(item, str):
            entries.append((item, (item,)))
        else:
            (level, bots), = item.items()
            entries.append((level, (bots,) if isinstance(bots, str) else tuple(bots)))
    return entries


def skill_levels_at(skill_levels: list, n_players: int) -> list[tuple[str, tuple[str, ...]]]:
    """(level, bot names at ``n_players``) weakest first, from ``skill_levels`` as written (an
    experiment's, or as run.yaml records it under ``config.experiment``)."""
    return [(level, tuple(expand(bot, n_players) for bot in bots)) for level, bots in level_entries(skill_levels)]


def check_skill_levels(experiment: ExperimentFile, path: Path) -> None:
    """ConfigError (file and key) unless the levels are distinct names over distinct bots of the
    pool and every level has its mirror match-up at every player count."""
    levels = experiment.skill_levels
    if levels is None:
        return
    names: list[str] = []
    for number, item in enumerate(levels):
        where = f"{path}: key 'skill_levels.{number}'"
        if isinstance(item, dict) and len(item) != 1:
            raise ConfigError(f"{where}: expected a bot name or one 'level: bot' pair, found {len(item)} keys")
        level, members = level_entries([item])[0]
        if not re.match(NAME_PATTERN, level):
            raise ConfigError(f"{where}: expected a level name (letters, digits, _ and -), found {level!r} "
                              "(name a level of a pattern: '- tuned: tuned_{players}p')")
        if level in names:
            raise ConfigError(f"{where}: expected each level once, found {level!r} twice")
        if not members:
            raise ConfigError(f"{where}: expected at least one bot in level {level!r}")
        names.append(level)
    for n_players in experiment.players:
        pool = pool_at(experiment, n_players)
        level_of: dict[str, str] = {}
        for number, (level, members) in enumerate(skill_levels_at(levels, n_players)):
            for bot in members:
                if bot not in pool:
                    raise ConfigError(f"{path}: key 'skill_levels.{number}': expected bots of the pool "
                                      f"({', '.join(pool)}) at {n_players} players, found {bot!r}")
                if bot in level_of:
                    raise ConfigError(f"{path}: key 'skill_levels.{number}': bot {bot!r} is already in level "
                                      f"{level_of[bot]!r}; a bot belongs to one level")
                level_of[bot] = level
        matchups = matchups_for(experiment, n_players, path)
        for level, members in skill_levels_at(levels, n_players):
            if not any(set(matchup) <= set(members) for matchup in matchups):
                raise ConfigError(f"{path}: key 'skill_levels': level {level!r} has no mirror match-up (every "
                                  f"seat one of its bots) at {n_players} players; use matchups: pairs or with_repeats")


def ladder_record(experiment: ExperimentFile, bots: dict[str, BotSeat]) -> list[dict] | None:
    """The skill ladder as run.yaml records it (``config.skill_ladder``): per player count, each
    level (weakest first) with the names its bots have in the tables. None without levels."""
    if experiment.skill_levels is None:
        return None
    return [{"players": int(n_players),
             "levels": [{"level": level, "bots": [bots[bot].name for bot in members]}
                        for level, members in skill_levels_at(experiment.skill_levels, n_players)]}
            for n_players in experiment.players]


def check_caps(experiment: ExperimentFile, path: Path) -> None:
    for bot in experiment.games_per_matchup_with:
        check_placeholders(bot, f"{path}: key 'games_per_matchup_with.{bot}'")
        if bot not in experiment.bots:
            raise ConfigError(f"{path}: key 'games_per_matchup_with.{bot}': expected a bot of the pool "
                              f"({', '.join(experiment.bots)}), found {bot!r}")


def experiment_config(experiment: ExperimentFile, engine, setup: GameSetup, bots: dict[str, BotSeat],
                      cells: list[Cell], chunk_size: int) -> dict:
    """The identity of an experiment's run (run.yaml records and hashes it): the design, every
    bot resolved, every cell, the resolved rules. Not its description, jobs, cluster, out or file names."""
    return {
        "game": experiment.game,
        # ``tables`` is recorded once, below, with the game's own tables (an experiment without it
        # keeps the run_hash it had before the key existed)
        # ``kingmaking`` is an analysis played on the finished run, not part of the run (the
        # standings table it implies is recorded with the tables)
        "experiment": experiment.model_dump(exclude={"jobs", "cluster", "out", "description", "game_file", "variant",
                                                     "tables", "kingmaking", "landscape",
                                                     *(key for key in LADDER_KEYS if not getattr(experiment, key))}),
        "seed": int(experiment.seed),
        "n_games": int(sum(cell.n_games for cell in cells)),
        "chunk_size": int(chunk_size),
        "tables": list(run_tables(engine, setup)),
        "bots": [manifests.bot_record(bot) for bot in bots.values()],
        "cells": [{"players": cell.n_players, "first_game": cell.first_game, "n_games": cell.n_games,
                   **dict(cell.labels)} for cell in cells],
        "setup": manifests.setup_record(setup),
        **manifests.identity_versions(engine),
        **({"skill_ladder": ladder_record(experiment, bots)} if experiment.skill_levels else {}),
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
    experiment = load_experiment(path)
    engine, bots = resolve_pool(experiment, path)
    if games_per_matchup is not None:
        experiment = experiment.model_copy(update={"games_per_matchup": games_per_matchup})
    chosen = None if printed_rules and variant is None else experiment_variant(experiment, path, variant)
    return prepared(experiment, path, engine, bots, chosen, first_game)


def prepare_planned_experiment(experiment: ExperimentFile, path: Path, variant: variants.Variant | None = None,
                               variant_record: dict | None = None, variant_path: Path | None = None,
                               games_per_matchup: int | None = None, first_game: int = 0):
    """:func:`prepare_experiment` of an experiment planned in memory (a study's cell), checked
    as its file would be: (experiment, engine, setup, cells, config), the config (the run's
    identity) the same as the file's. ``path`` is the file the experiment is recorded as (errors
    name it; it is never read). It plays ``variant`` (loaded), or the variant ``variant_record``
    holds (recorded as ``variant_path``: its errors name that file, which is never read; made
    once the pool is checked, as the file's ``variant:`` is), or the printed rules; the
    experiment's own ``variant:`` is not read."""
    engine, bots = resolve_pool(experiment, path)
    if games_per_matchup is not None:
        experiment = experiment.model_copy(update={"games_per_matchup": games_per_matchup})
    if variant is None and variant_record is not None:
        variant = variants.variant_from_record(variant_record, variant_path, experiment.game)
    return prepared(experiment, path, engine, bots, variant, first_game)


def experiment_from_record(record: dict, path: Path) -> ExperimentFile:
    """An experiment given as data, validated as its file (recorded as ``path``) would be."""
    return validate(ExperimentFile, record, path)


def resolve_pool(experiment: ExperimentFile, path: Path) -> tuple:
    """(engine, every bot of the pool at every player count, resolved), once the experiment's
    players, bots, game file, caps and skill levels are checked (errors name ``path``)."""
    from strategies.bots import BotCatalogue  # strategies imports sim; keep the import one-way at load

    engine = registry.get_engine(experiment.game)
    check_players(engine, experiment, path)
    catalogue = BotCatalogue()
    bots: dict[str, BotSeat] = {}
    for number, name in enumerate(experiment.bots):
        check_placeholders(name, f"{path}: key 'bots.{number}'")
        for n_players in experiment.players:
            expanded = expand(name, n_players)
            where = f"{path}: key 'bots'" + (f" ({name} at {n_players} players)" if expanded != name else "")
            if expanded not in bots:
                bots[expanded] = catalogue.definition(experiment.game, expanded, where).bot_seat()
    for n_players in experiment.players:
        pool = pool_at(experiment, n_players)
        repeated = sorted({name for name in pool if pool.count(name) > 1})
        if repeated:
            raise ConfigError(f"{path}: key 'bots': expected each bot once in the pool, found {', '.join(repeated)} "
                              f"twice at {n_players} players")
    game_file = experiment.game_file
    if game_file is not None and not Path(game_file).is_file():
        raise ConfigError(f"{path}: key 'game_file': expected an existing file, found {game_file!r}")
    names = [bot.name for bot in bots.values()]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:  # in a pool even the same bot twice is a mistake (with_repeats plays copies)
        raise ConfigError(f"{path}: key 'bots': expected bots with distinct names, found {', '.join(repeated)} twice")
    check_caps(experiment, path)
    check_skill_levels(experiment, path)
    return engine, bots


def tables_asked(experiment: ExperimentFile) -> list[str]:
    """The optional tables the experiment's runs write: its ``tables``, and the standings when it
    asks for kingmaking (which reads them)."""
    tables = list(experiment.tables)
    if experiment.kingmaking is not None and KINGMAKING_TABLE not in tables:
        tables.append(KINGMAKING_TABLE)
    return tables


def landscape_request(experiment: ExperimentFile) -> LandscapeRequest | None:
    """The landscape the experiment asks of its study cells' rules (None: none)."""
    return experiment.landscape


def kingmaking_games(experiment: ExperimentFile) -> int | None:
    """The games of the kingmaking the experiment asks of its study cells' runs (None: none)."""
    return None if experiment.kingmaking is None else int(experiment.kingmaking.games)


def prepared(experiment: ExperimentFile, path: Path, engine, bots: dict[str, BotSeat],
             variant: variants.Variant | None, first_game: int):
    """(experiment, engine, setup, cells, config) of a checked experiment under ``variant``."""
    setup = with_optional_tables(engine, load_setup_with_rules(engine, experiment, path, variant),
                                 tables_asked(experiment), f"{path}: key 'tables'")
    cells = plan_cells(experiment, bots, path, first_game)
    config = experiment_config(experiment, engine, setup, bots, cells, experiment.chunk_size)
    return experiment, engine, setup, cells, config
