"""The contract between a game engine and the game-independent runner, CLI and reports.

A game package (``sim.louis_xiv``, ``sim.heads_of_state``) exposes one object satisfying
:class:`GameEngine`; ``sim.registry`` maps CLI names ("louis-xiv") to them. The runner knows
nothing about any game: it slices ``range(n_games)`` into chunks, calls ``play_chunk`` (in
joblib workers), and streams every returned table to Parquet.

Determinism: ``play_chunk(..., first_game=a, n_games=n)`` must return exactly the rows that
games ``a .. a+n-1`` would produce in any other chunking, because every random stream is keyed
by (seed, game index, source) (see ``sim.core.random_streams``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np


class ConfigError(Exception):
    """A user-facing configuration problem; the CLI prints ``str(error)`` as one line and
    exits non-zero. The message names the file, the key, what was expected and what was found."""


def seed_as_int64(seed: int) -> int:
    """An experiment seed (0 .. 2**64-1) as the int64 with the same 64 bits, for kernels that
    take the seed as int64: the random streams mix its bits (``np.uint64(seed)``), so every
    seed keeps its games, and seeds from 2**63 on need no other compiled version."""
    return seed - 2**64 if seed >= 2**63 else seed


# Game indices are int32 in every table: a run holds at most this many games.
GAME_INDEX_LIMIT = 2**31


@dataclass(frozen=True)
class BotSeat:
    """A resolved bot: its display name, compiled policy family id and parameter vector, and
    (for run.yaml) the family's name and the vector's parameter names, in vector order."""
    name: str
    family: int
    params: np.ndarray  # float64 vector, meaning defined by the family (strategies/<game>.py)
    family_name: str = ""
    parameter_names: tuple[str, ...] = ()

    def parameters(self) -> dict[str, float]:
        """The parameters by name (a vector without names: by position, "0", "1", ...)."""
        values = [float(value) for value in np.asarray(self.params, dtype=np.float64).ravel()]
        names = self.parameter_names or tuple(str(index) for index in range(len(values)))
        return dict(zip(names, values))

    def same_bot(self, other: "BotSeat") -> bool:
        return (self.family, self.family_name, self.parameters()) == (other.family, other.family_name,
                                                                      other.parameters())


@dataclass(frozen=True)
class GameSetup:
    """Everything that defines a game apart from players and seed: validated component data
    (as arrays for the kernel), the rule switches, and where they came from (for run.yaml)."""
    game: str                     # CLI name, e.g. "louis-xiv"
    data: Any                     # kernel-ready arrays (a namedtuple of numpy arrays)
    rules: np.ndarray             # rule switches as a float64 vector (named indices per game)
    description: dict = field(default_factory=dict)  # what the engine keeps for itself (replay names, ...)
    # The identity of the rules played, for run.yaml: every value of the validated game data and
    # every rule switch, as plain data. A run is identified by it, never by a file name.
    resolved: dict = field(default_factory=dict)
    source: str = ""              # where the data came from (provenance only, not identity)
    # the opt-in tables (engine.optional_tables) this run writes besides engine.tables; travels
    # with the setup to every worker and cluster task, and is part of the run's identity
    optional_tables: tuple[str, ...] = ()


class GameEngine(Protocol):
    name: str                         # "louis-xiv"
    player_counts: tuple[int, ...]    # allowed numbers of players
    tables: tuple[str, ...]           # names of the tables play_chunk returns, e.g. ("games", "seats", "courtiers")
    optional_tables: tuple[str, ...]  # tables written only on request (GameSetup.optional_tables), e.g. ("standings",)

    def load_setup(self, game_file: str | None = None, rule_overrides: dict | None = None) -> GameSetup:
        """Read and validate ``configs/games/<game>.yaml`` (or ``game_file``); raise ConfigError."""

    def resolve_bot(self, name: str) -> BotSeat:
        """A built-in bot by name ("random", "greedy"); raise ConfigError for an unknown one."""

    def kernels_cached(self, bots: list[BotSeat]) -> bool:
        """Whether the compiled kernels a chunk of these bots runs are in numba's disk cache (else
        the first chunk compiles them, which the runner announces and times apart)."""

    def play_chunk(self, setup: GameSetup, n_players: int, bots: list[BotSeat], seed: int,
                   first_game: int, n_games: int) -> dict[str, dict[str, np.ndarray]]:
        """Play games first_game .. first_game+n_games-1; return {table: {column: array}}: every
        table of ``tables`` and of ``setup.optional_tables``, the others' contents the same
        whichever optional tables are asked for. Every table has a ``game_index`` column. One
        compiled call per chunk, no Python per game."""

    def turns_per_game(self, tables: dict[str, dict[str, np.ndarray]]) -> np.ndarray:
        """The turns each game of a chunk's tables lasted, in game order (a bot's games per second
        falls with the turns its games last: ``tune-bot --speed-floor``)."""

    def play_counterfactuals(self, setup: GameSetup, n_players: int, bots: list[BotSeat], seed: int,
                             game_index: np.ndarray, turn: np.ndarray,
                             alternative: np.ndarray) -> dict[str, np.ndarray]:
        """Counterfactual replays (kingmaking, sim.studies.kingmaking): request i plays game
        ``game_index[i]`` again from its start, the acting seat taking ``alternative[i]`` instead
        of its own choice at the game's ``turn[i]``-th turn (every seat's turns counted from 1,
        as the standings table numbers them); every other draw is the original game's (the
        streams are keyed by seed, game index and source). Alternatives: 0 the own choice (the
        original game exactly), 1, 2 the next-best legal options by the game's greedy score,
        -1, -2 uniformly random other legal options from a stream of their own. Returns arrays
        winner_mask (bit s: seat s wins), acting_seat (-1: no such turn), available (the
        alternative exists and differs from the own choice), n_options (legal options). One
        compiled call for all requests, no Python per game."""

    def replay(self, setup: GameSetup, n_players: int, bots: list[BotSeat], seed: int,
               game_index: int) -> str:
        """The readable step-by-step log of one game (identical to that game inside any run)."""


def run_tables(engine, setup: GameSetup) -> tuple[str, ...]:
    """The tables a run of ``setup`` writes: the engine's own, then the optional ones it asked for."""
    return tuple(engine.tables) + tuple(setup.optional_tables)


def with_optional_tables(engine, setup: GameSetup, names, where: str) -> GameSetup:
    """``setup`` asking for the optional tables ``names`` (``--tables``, an experiment's
    ``tables:``); ConfigError naming ``where`` for a table the engine cannot write on request."""
    offered = tuple(getattr(engine, "optional_tables", ()))
    chosen: list[str] = []
    for name in names or ():
        if name not in offered:
            always = f" ({name} is always written)" if name in engine.tables else ""
            raise ConfigError(f"{where}: expected one of {', '.join(offered) or 'no optional table'} for "
                              f"{engine.name}, found {name!r}{always}")
        if name not in chosen:
            chosen.append(name)
    return replace(setup, optional_tables=tuple(chosen))


def rate_after_overflow(rate: int | None, needed: int, units: int) -> int:
    """Rows per unit (e.g. per game seat) a variable-length buffer starts with once a chunk of
    ``units`` needed ``needed`` rows, more than the rate estimated so far (``rate``; None: the
    engine's estimate, already exceeded): 10% above that chunk's need, so that later chunks of
    the same engine rarely play twice (the kernel counts past the buffer's end, and the engine
    plays an overflowing chunk again with the exact count)."""
    return max(rate or 0, int(1.1 * needed / units) + 1)
