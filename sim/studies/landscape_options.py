"""The option inventory for restricted play (issue 41, "Option values"; Jaffe, Miller, Andersen,
Liu, Karlin, Popovic, "Evaluating competitive game balance with restricted play", AIIDE 2012).

An option's value is the win rate the strongest bot loses when it may not take that option,
against the unrestricted bot (seat-rotated, on common random numbers). This module reads, per
game, the data that says what "may not take" means: ``configs/landscape/<game folder>.yaml``::

    game: louis-xiv
    family: greedy                  # the tuned bots' family: the overlays name its parameters
    options:
      - id: lb_skip                 # for bot names and table rows
        name: LB-SKIP               # in the rules' own words
        section: "§4.2 step 2 (c); §6"
        label: pass an influence turn for 2 gold instead of playing a card
        switch_off: {skip_score: -20}    # parameters that make the bot never take it ...
        never_because: >-               # ... whatever its other parameters: the argument
          ...
        taken: {seats: [uses_lb_skip]}  # how often it was taken: the sum of these seats columns
        # or, where no table holds it: taken: {proposed: {table: seats, column: ..., meaning: ...}}
    without_switch:                 # decisions no parameter can rule out (not played restricted)
      - name: DB-PLACE4
        section: ...
        nearest: {place_four_cost: 20}  # optional: the setting that comes closest
        why_not: ...
        proposal: ...

Everything is checked when the file is read, each problem one line naming the file and the key
(as every courtsim file, sim.core.yaml_files): unknown keys, option ids or names given twice, an
overlay parameter the family does not have or a value outside its documented range
(strategies/<game>/parameters.py, through the same check a bot file gets), a seats column the
game's tables do not have.

``restricted_bot`` gives the bot the landscape plays for an option (a player count's shipped
tuned bot, ``configs/bots/<game>/tuned_<n>p.yaml``, with the option's overlay), ``restricted_bot_file``
the same as a bot file's content, and ``take_rates`` how often a run's seats took an option.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim import registry
from sim.core.engine import BotSeat, ConfigError
from sim.core.table_schema import game_schemas
from sim.core.yaml_files import read_yaml_mapping, validate
from strategies.bots import BOTS_DIR, BotCatalogue, bot_package
from strategies.parameters import bot_seat, parameter_vector

LANDSCAPE_DIR = Path(__file__).resolve().parent.parent.parent / "configs" / "landscape"
ID_PATTERN = r"^[a-z][a-z0-9_]*$"
TAKE_TABLE = "seats"             # where an option's uses are counted: one row per game and seat


# ----------------------------------------------------------------------------- the file

class ProposedColumn(BaseModel):
    """A column no table has yet that would count the option's uses."""
    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1)
    column: str = Field(pattern=ID_PATTERN)
    meaning: str = Field(min_length=1)


class TakeCount(BaseModel):
    """How often a seat took the option: the sum of some seats-table columns, or (no table holds
    it) the column that would."""
    model_config = ConfigDict(extra="forbid")
    seats: Optional[list[str]] = Field(None, min_length=1)
    proposed: Optional[ProposedColumn] = None

    @model_validator(mode="after")
    def one_way(self):
        if (self.seats is None) == (self.proposed is None):
            raise ValueError("expected either seats: [columns] or proposed: {table, column, meaning}")
        return self


class OptionEntry(BaseModel):
    """One option the bot can be restricted from, as written."""
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1, description="the option in the rules' own words")
    section: str = Field(min_length=1, description="the rules file's section(s)")
    label: str = Field(min_length=1, description="what taking it does, in a few words")
    switch_off: dict[str, Any] = Field(min_length=1, description="bot parameters that never take it (checked "
                                      "by the family's own parameter check)")
    never_because: str = Field(min_length=1, description="why, whatever the bot's other parameters")
    taken: TakeCount


class UnswitchedEntry(BaseModel):
    """A decision the rules offer that no bot parameter can rule out."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    section: str = Field(min_length=1)
    label: str = Field(min_length=1)
    nearest: Optional[dict[str, Any]] = Field(None, min_length=1)
    why_not: str = Field(min_length=1)
    proposal: str = Field(min_length=1)


class OptionsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1)
    family: str = Field(min_length=1)
    description: str = ""
    options: list[OptionEntry] = Field(min_length=1)
    without_switch: list[UnswitchedEntry] = Field(default_factory=list)
    # courtsim landscape's meta-game pool and skill ladder (weakest first): bot names, "tuned"
    # for each player count's tuned bot (sim.studies.landscape)
    pool: list[str] = Field(default_factory=lambda: ["random", "greedy", "tuned"], min_length=2)
    skill_levels: list[str] = Field(default_factory=lambda: ["random", "greedy", "tuned"], min_length=2)


# ----------------------------------------------------------------------------- the inventory

@dataclass(frozen=True)
class Option:
    """An option of the inventory, checked against the game's bots and tables."""
    id: str
    name: str
    section: str
    label: str
    switch_off: dict[str, float]
    never_because: str
    take_columns: tuple[str, ...]          # seats columns summed; () when no table counts it
    proposed_column: ProposedColumn | None

    @property
    def counted(self) -> bool:
        """Whether a run's tables say how often it was taken."""
        return bool(self.take_columns)


@dataclass(frozen=True)
class OptionInventory:
    game: str
    family: str
    path: Path
    options: tuple[Option, ...]
    without_switch: tuple[UnswitchedEntry, ...]
    pool: tuple[str, ...] = ("random", "greedy", "tuned")
    skill_levels: tuple[str, ...] = ("random", "greedy", "tuned")

    def option(self, id_or_name: str) -> Option:
        """The option of that id or name; ConfigError naming the known ones."""
        for option in self.options:
            if id_or_name in (option.id, option.name):
                return option
        unswitched = [entry.name for entry in self.without_switch]
        if id_or_name in unswitched:
            raise ConfigError(f"{self.path}: {id_or_name!r} has no switch (it is under without_switch): "
                              "no bot parameter rules it out")
        raise ConfigError(f"{self.path}: no option {id_or_name!r}; expected one of "
                          f"{', '.join(option.id for option in self.options)}")


def options_path(game: str) -> Path:
    """The shipped inventory of ``game``: configs/landscape/<game folder>.yaml."""
    return LANDSCAPE_DIR / f"{registry.descriptor(game).folder}.yaml"


def load_options(game: str | None = None, path: Path | str | None = None) -> OptionInventory:
    """The option inventory of ``game`` (its shipped file) or of the file ``path``, checked:
    ConfigError (one line, file and key) for any problem."""
    if path is None:
        if game is None:
            raise ValueError("load_options needs a game or a path")
        path = options_path(game)
    path = Path(path)
    written = validate(OptionsFile, read_yaml_mapping(path, "landscape options"), path)
    if written.game not in registry.known_games():
        raise ConfigError(f"{path}: key 'game': expected one of {', '.join(registry.known_games())}, "
                          f"found {written.game!r}")
    if game is not None and written.game != game:
        raise ConfigError(f"{path}: key 'game': expected {game}, found {written.game!r}")
    families = bot_package(written.game).FAMILY_PARAMETERS
    if written.family not in families:
        raise ConfigError(f"{path}: key 'family': expected one of {', '.join(families)}, found {written.family!r}")
    check_distinct(path, "id", [(f"options.{number}.id", option.id) for number, option in enumerate(written.options)])
    check_distinct(path, "name", [(f"options.{number}.name", option.name) for number, option in enumerate(written.options)]
                   + [(f"without_switch.{number}.name", entry.name)
                      for number, entry in enumerate(written.without_switch)])
    seats_columns = set(game_schemas(registry.get_engine(written.game), table=TAKE_TABLE)[0].names())
    options = []
    for number, option in enumerate(written.options):
        check_overlay(path, f"options.{number}.switch_off", written.game, written.family, option.switch_off)
        for index, column in enumerate(option.taken.seats or []):
            if column not in seats_columns:
                raise ConfigError(f"{path}: key 'options.{number}.taken.seats.{index}': expected a column of the "
                                  f"{written.game} seats table (courtsim tables {written.game} --table seats), "
                                  f"found {column!r}")
        proposed = option.taken.proposed
        if proposed is not None and proposed.column in seats_columns:
            raise ConfigError(f"{path}: key 'options.{number}.taken.proposed.column': expected a column no table "
                              f"has yet, found {proposed.column!r}, a seats column (count it with seats: [...])")
        overlay = {key: float(value) for key, value in option.switch_off.items()}
        options.append(Option(option.id, option.name, option.section, option.label, overlay,
                              option.never_because, tuple(option.taken.seats or ()), proposed))
    for number, entry in enumerate(written.without_switch):
        if entry.nearest is not None:
            check_overlay(path, f"without_switch.{number}.nearest", written.game, written.family, entry.nearest)
    return OptionInventory(written.game, written.family, path, tuple(options), tuple(written.without_switch),
                           tuple(written.pool), tuple(written.skill_levels))


def check_distinct(path: Path, field: str, keyed_values: list[tuple[str, str]]) -> None:
    """Each (key, value) a value of its own: an option is found by its id or name."""
    seen: set[str] = set()
    for key, value in keyed_values:
        if value in seen:
            raise ConfigError(f"{path}: key '{key}': expected each {field} once, found {value!r} twice")
        seen.add(value)


def check_overlay(path: Path, key: str, game: str, family: str, overlay: dict[str, float]) -> None:
    """Every overlay parameter a documented parameter of the family, each value in its range
    (the check every bot file's parameters get: strategies.parameters.parameter_vector)."""
    package = bot_package(game)
    try:
        parameter_vector(package.FAMILY_PARAMETERS[family], overlay, package.N_PARAMETERS, OVERLAY)
    except ConfigError as error:
        raise ConfigError(overlay_error_line(path, key, str(error))) from None


# the ``where`` the family's check is given, replaced by the file and key in its message
OVERLAY = "<overlay>"


def overlay_error_line(path: Path, key: str, message: str) -> str:
    """The family check's message (``<overlay>: unknown parameter ...`` or ``<overlay>.NAME:
    expected ...``) as ``FILE: key 'KEY[.NAME]': ...``."""
    rest = message.removeprefix(OVERLAY)
    if rest.startswith("."):
        name, rest = rest[1:].split(": ", 1)
        return f"{path}: key '{key}.{name}': {rest}"
    return f"{path}: key '{key}'{rest}"


# ----------------------------------------------------------------------------- the restricted bot

def tuned_bot_name(n_players: int) -> str:
    """The shipped tuned bot of a player count (configs/bots/<game>/tuned_<n>p.yaml)."""
    return f"tuned_{n_players}p"


def restricted_bot_name(option: Option, n_players: int) -> str:
    return f"{tuned_bot_name(n_players)}_without_{option.id}"


def tuned_definition(inventory: OptionInventory, n_players: int, bots_dir: Path = BOTS_DIR):
    """The tuned bot of ``n_players`` (a BotDefinition), of the inventory's family."""
    name = tuned_bot_name(n_players)
    catalogue = BotCatalogue(bots_dir)
    if name not in catalogue.names(inventory.game):
        raise ConfigError(f"{inventory.path}: no tuned {inventory.game} bot for {n_players} players (expected "
                          f"{bots_dir / registry.descriptor(inventory.game).folder / (name + '.yaml')})")
    definition = catalogue.definition(inventory.game, name)
    if definition.family != inventory.family:
        raise ConfigError(f"{definition.source}: key 'family': expected {inventory.family} (the family "
                          f"{inventory.path} switches options off for), found {definition.family!r}")
    return definition


def restricted_bot(inventory: OptionInventory, option: str | Option, n_players: int,
                   bots_dir: Path = BOTS_DIR) -> BotSeat:
    """The player count's tuned bot with ``option`` switched off (its overlay on top of the tuned
    parameters), named ``tuned_<n>p_without_<id>``."""
    option = option if isinstance(option, Option) else inventory.option(option)
    definition = tuned_definition(inventory, n_players, bots_dir)
    package = bot_package(inventory.game)
    parameters = package.FAMILY_PARAMETERS[inventory.family]
    values = {**definition.parameters, **option.switch_off}
    vector = parameter_vector(parameters, values, package.N_PARAMETERS, f"{inventory.path}: option '{option.id}'")
    return bot_seat(restricted_bot_name(option, n_players), inventory.family, package.FAMILIES, parameters, vector)


def restricted_bot_file(inventory: OptionInventory, option: str | Option, n_players: int,
                        bots_dir: Path = BOTS_DIR) -> dict:
    """``restricted_bot`` as a bot file's content (strategies/bots.py): the tuned bot extended
    by the overlay, for a study that names its bots by file."""
    option = option if isinstance(option, Option) else inventory.option(option)
    tuned = tuned_definition(inventory, n_players, bots_dir)
    return {"name": restricted_bot_name(option, n_players), "game": inventory.game, "extends": tuned.name,
            "description": f"{tuned.name} that never takes {option.name} ({option.section}): "
                           f"restricted play, {inventory.path.name}",
            "parameters": dict(option.switch_off)}


# ----------------------------------------------------------------------------- take rates

def take_rates(run_dir, inventory: OptionInventory, option: str | Option,
               bot: str | None = None) -> pl.DataFrame | None:
    """How often the seats of a finished run took ``option``, per player count and bot (only
    ``bot``'s seats if given): ``n_players``, ``bot``, ``seat_games`` (seats of games played),
    ``takes`` (times taken), ``take_rate`` (takes per seat and game) and ``taken_share`` (the
    share of seats and games that took it at least once). None for an option whose uses no
    table holds (``Option.proposed_column`` says which column would). Read lazily (polars):
    only the columns counted. ``run_dir``: a run directory, or a run already loaded
    (reports.analysis.rundir.Run: the landscape asks once per option)."""
    from reports.analysis import rundir      # the reports package reads runs; imported on use
    option = option if isinstance(option, Option) else inventory.option(option)
    if not option.counted:
        return None
    run = run_dir if isinstance(run_dir, rundir.Run) else rundir.load_run(Path(run_dir))
    run_dir = run.path
    if run.game != inventory.game:
        raise ConfigError(f"{run_dir}: expected a {inventory.game} run ({inventory.path}), found a {run.game} run")
    if not run.has(TAKE_TABLE):
        raise ConfigError(f"{run_dir}: the run has no {TAKE_TABLE} table, where {option.name}'s uses are counted")
    seats = run.scan(TAKE_TABLE).select("game_index", "bot",
                                        pl.sum_horizontal(*option.take_columns).alias("takes"))
    if bot is not None:
        seats = seats.filter(pl.col("bot") == bot)
    games = run.scan("games").select("game_index", "n_players")
    return (seats.join(games, on="game_index")
            .group_by("n_players", "bot")
            .agg(seat_games=pl.len(), takes=pl.col("takes").sum(), taken_share=(pl.col("takes") > 0).mean())
            .with_columns(take_rate=pl.col("takes") / pl.col("seat_games"))
            .select("n_players", "bot", "seat_games", "takes", "take_rate", "taken_share")
            .sort("n_players", "bot")
            .collect())
