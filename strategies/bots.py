"""Bot resolution, in one place: game -> bot package, built-in families, YAML bot files with
inheritance and validation, and resolution to the kernels' vectors (``resolve_bots``).

A bot file (``configs/bots/<game>/<name>.yaml``)::

    # Crown hunter: chases crowns and Louis XIV's courtier, bribes for them.
    name: crown_hunter
    game: louis-xiv
    family: greedy            # a policy family of that game (strategies/<game>/parameters.py)
    description: Chases crowns and Louis XIV's courtier; bribes for them.
    parameters:               # overrides of the family's documented defaults
      value_crown: 6.0

or ``extends: crown_hunter`` instead of ``family:`` to start from another bot's parameters
(its family is inherited). Every family is also a bot of its own name with the family's
defaults (``random``, ``greedy``, ``search``). Wherever a bot name is accepted, a path to a bot
file is accepted too (``courtsim bots show path.yaml`` validates a file being written).

Everything is checked before any game runs: unknown family or parameter, a value out of its
documented range, a bot of another game, a cycle of ``extends``: one line naming the file and
key, what was expected and what was found (a :class:`ConfigError`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field

from sim import registry
from sim.core.engine import BotSeat, ConfigError
from sim.core.yaml_files import looks_like_path, read_yaml_mapping, validate
from strategies.parameters import Parameter, bot_seat, parameter_vector

BOTS_DIR = Path(__file__).resolve().parent.parent / "configs" / "bots"



def bot_package(game: str):
    """The bot package ``game``'s descriptor names (FAMILIES, FAMILY_PARAMETERS, N_PARAMETERS,
    resolve_bot: strategies/parameters.py says what it declares); ConfigError for an unknown game."""
    return registry.descriptor(game).bots()
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_\-]*$"


class BotFile(BaseModel):
    """One bot file, as written."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=NAME_PATTERN, description="the bot's name, unique within its game")
    game: str = Field(description="the game this bot plays, e.g. louis-xiv")
    family: Optional[str] = Field(default=None, description="policy family (or give extends)")
    extends: Optional[str] = Field(default=None, description="another bot to start from")
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict)  # checked per family: parameter_vector


@dataclass(frozen=True)
class BotDefinition:
    """A bot with inheritance resolved: the family and every parameter's final value."""
    name: str
    game: str
    family: str
    description: str
    parameters: dict[str, float]            # the family's full parameter set, resolved
    overrides: dict[str, float]             # what differs from the family defaults
    source: str                             # file path, or "built-in"
    chain: tuple[str, ...] = ()             # the extends chain, nearest first

    def bot_seat(self) -> BotSeat:
        strategies = bot_package(self.game)
        vector = parameter_vector(strategies.FAMILY_PARAMETERS[self.family], self.parameters,
                                  strategies.N_PARAMETERS, f"{self.source}: bot '{self.name}'")
        return bot_seat(self.name, self.family, strategies.FAMILIES, strategies.FAMILY_PARAMETERS[self.family],
                        vector)


def family_parameters(game: str, family: str) -> tuple[Parameter, ...]:
    return tuple(bot_package(game).FAMILY_PARAMETERS[family])


def builtin_definition(game: str, family: str) -> BotDefinition:
    defaults = {parameter.name: float(parameter.default) for parameter in family_parameters(game, family)}
    meaning = {"random": "uniform over the legal decisions", "greedy": "one-step heuristic",
               "search": "flat Monte Carlo search with greedy rollouts"}.get(family, family)
    return BotDefinition(name=family, game=game, family=family, description=f"built-in: {meaning}",
                         parameters=defaults, overrides={}, source="built-in")


def read_bot_file(path: Path) -> BotFile:
    return validate(BotFile, read_yaml_mapping(path, "bot"), path)


def bot_files(bots_dir: Path = BOTS_DIR) -> dict[tuple[str, str], tuple[Path, BotFile]]:
    """(game, name) -> (file, parsed file) for every ``*.yaml`` under ``bots_dir``."""
    found: dict[tuple[str, str], tuple[Path, BotFile]] = {}
    for path in sorted(bots_dir.rglob("*.yaml")) if bots_dir.exists() else []:
        bot = read_bot_file(path)
        key = (bot.game, bot.name)
        if key in found:
            raise ConfigError(f"{path}: key 'name': bot '{bot.name}' of {bot.game} is also defined in {found[key][0]}")
        found[key] = (path, bot)
    return found


class BotCatalogue:
    """Every bot of every game: built-in families plus the YAML files under ``bots_dir``."""

    def __init__(self, bots_dir: Path = BOTS_DIR):
        self.bots_dir = bots_dir
        self._files = bot_files(bots_dir)

    def names(self, game: str) -> list[str]:
        builtins = list(bot_package(game).FAMILIES)
        return builtins + sorted(name for (bot_game, name) in self._files if bot_game == game
                                 and name not in builtins)

    def definition(self, game: str, name_or_path: str, where: str = "bot") -> BotDefinition:
        """Resolve a bot name of ``game`` or a bot file path; ConfigError naming ``where``."""
        if looks_like_path(name_or_path):
            path = Path(name_or_path)
            return self._resolve_file(game, path, read_bot_file(path), chain=())
        if (game, name_or_path) in self._files:
            path, bot = self._files[(game, name_or_path)]
            return self._resolve_file(game, path, bot, chain=())
        families = bot_package(game).FAMILIES
        if name_or_path in families:
            return builtin_definition(game, name_or_path)
        raise ConfigError(f"{where}: unknown {game} bot '{name_or_path}': expected one of "
                          f"{', '.join(self.names(game))} or a path to a bot file")

    def _resolve_file(self, game: str, path: Path, bot: BotFile, chain: tuple[str, ...]) -> BotDefinition:
        if bot.game != game:
            raise ConfigError(f"{path}: key 'game': expected {game} (the game being played), found {bot.game!r}")
        if bot.name in bot_package(game).FAMILIES:
            raise ConfigError(f"{path}: key 'name': expected a name of its own, found {bot.name!r}, the name "
                              "of a built-in bot (its rows would be merged with the built-in's)")
        if bot.name in chain:
            raise ConfigError(f"{path}: key 'extends': a cycle of bots ({' -> '.join((*chain, bot.name))})")
        base = self._base(game, path, bot, chain)
        family = base.family if base else bot.family
        families = bot_package(game).FAMILIES
        if family not in families:
            raise ConfigError(f"{path}: key 'family': expected one of {', '.join(families)}, found {family!r}")
        parameters = dict(base.parameters) if base else builtin_definition(game, family).parameters
        # validates names and ranges (file and key in the message) before anything is stored
        parameter_vector(family_parameters(game, family), bot.parameters, len(parameters) or 1,
                         f"{path}: key 'parameters'")
        parameters.update({key: float(value) for key, value in bot.parameters.items()})
        defaults = builtin_definition(game, family).parameters
        overrides = {key: value for key, value in parameters.items() if value != defaults[key]}
        return BotDefinition(name=bot.name, game=game, family=family, description=bot.description,
                             parameters=parameters, overrides=overrides, source=str(path),
                             chain=((base.name, *base.chain) if base else ()))

    def _base(self, game: str, path: Path, bot: BotFile, chain: tuple[str, ...]) -> BotDefinition | None:
        """The bot that ``bot`` extends (None when it names a family)."""
        if (bot.family is None) == (bot.extends is None):
            raise ConfigError(f"{path}: key 'family': expected exactly one of 'family' or 'extends', "
                              f"found {'both' if bot.family else 'neither'}")
        if bot.extends is None:
            return None
        if (game, bot.extends) in self._files:
            base_path, base_bot = self._files[(game, bot.extends)]
            return self._resolve_file(game, base_path, base_bot, (*chain, bot.name))
        if bot.extends in bot_package(game).FAMILIES:
            return builtin_definition(game, bot.extends)
        raise ConfigError(f"{path}: key 'extends': expected a {game} bot ({', '.join(self.names(game))}), "
                          f"found {bot.extends!r}")


def check_distinct_names(seats: list[BotSeat], sources: list[str], where: str) -> None:
    """One name, one bot: two different bots under one name would share every table row and
    summary line. ConfigError naming both sources."""
    first: dict[str, int] = {}
    for index, seat in enumerate(seats):
        other = first.setdefault(seat.name, index)
        if other != index and not seat.same_bot(seats[other]):
            raise ConfigError(f"{where}: expected bots with distinct names, found two different bots named "
                              f"'{seat.name}' ({sources[other]} and {sources[index]})")


def resolve_bots(game: str, names: list[str], where: str = "--bots",
                 bots_dir: Path = BOTS_DIR) -> list[BotSeat]:
    """Bot names or paths -> BotSeats, all validated before any game runs; two different bots
    under one name are refused. A game without a bot module (a test engine) resolves its
    built-in names itself."""
    if registry.descriptor(game).bots_path is None:
        engine = registry.get_engine(game)
        return [engine.resolve_bot(name) for name in names]
    catalogue = BotCatalogue(bots_dir)
    definitions = [catalogue.definition(game, name, where) for name in names]
    seats = [definition.bot_seat() for definition in definitions]
    check_distinct_names(seats, [definition.source for definition in definitions], where)
    return seats


def listed_bots(game: str | None = None) -> list[tuple[str, BotDefinition]]:
    """``courtsim bots list``: (game, definition) of every bot of ``game`` (None: of every game)."""
    catalogue = BotCatalogue()
    return [(name, catalogue.definition(name, bot))
            for name in ([registry.check_game(game)] if game else registry.known_games())
            for bot in catalogue.names(name)]


def shown_bots(name_or_path: str, game: str | None = None) -> list[tuple[BotDefinition, list[Parameter]]]:
    """``courtsim bots show``: each game's bot of that name (or the bot file), with its family's
    parameters; ConfigError for an unknown bot or a file of an unknown game."""
    catalogue = BotCatalogue()
    if looks_like_path(name_or_path):
        game = registry.check_game(game or read_bot_file(Path(name_or_path)).game)
    games = [game] if game else [name for name in registry.known_games() if name_or_path in catalogue.names(name)]
    if not games:
        raise ConfigError(f"unknown bot '{name_or_path}': see `courtsim bots list`")
    definitions = [catalogue.definition(name, name_or_path) for name in games]
    return [(definition, list(family_parameters(definition.game, definition.family))) for definition in definitions]
