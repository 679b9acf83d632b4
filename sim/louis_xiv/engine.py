"""The Louis XIV engine object the runner and CLI use (sim.core.engine.GameEngine)."""
from __future__ import annotations

import numpy as np

from sim import kernel_source_hash
from sim.core import buffers
from sim.core.engine import BotSeat, ConfigError, GameSetup, rate_after_overflow, seed_as_int64
from sim.core.kernels import cached_on_disk
from sim.core.table_schema import bot_column, declared_tables, standing_table_columns, win_decided_by
from sim.louis_xiv import constants as C
from sim.louis_xiv import tables as R
from sim.louis_xiv.data import (DEFAULT_GAME_FILE, ROUNDS, load_game_file, rule_vector, to_kernel_data)
from sim.louis_xiv.decisions import new_move_buffer, new_option_buffer
from sim.louis_xiv.kernel import play_chunk_kernel, play_counterfactuals_kernel, play_game
from sim.louis_xiv.replay import decode
from sim.louis_xiv.rules import switch_settings
from sim.louis_xiv.state import (COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_ALTERNATIVE, COUNTERFACTUAL_TURN,
                                 STANDING_ROWS, TRACE_LENGTH, new_state)
from strategies import louis_xiv as bots_module
from strategies.louis_xiv.parameters import FAMILY_PARAMETERS, N_PARAMETERS, RANDOM, SEARCH, default_parameters
from strategies.parameters import parameter_vector
from strategies.louis_xiv.search import search_entry, search_influence_turn

TRACE_CAPACITY = 20_000
# Standings rows a chunk's buffer starts with, per game: the influence turns of a game (§4.2;
# about 70 with greedy bots at 4 players, 40 with random bots at 2) plus its round ends and the
# final row. A chunk that needs more is played again with the exact count (the kernel counts past
# the end), and the engine's later chunks start from the rate that chunk needed. (Rows a chunk
# does not fill cost nothing: numpy's zeroed pages are only mapped when written.)
STANDING_ROWS_PER_GAME = 90


def bot_arrays(bots: list[BotSeat]):
    families = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
    params = np.tile(default_parameters(), (C.MAX_PLAYERS, 1))
    for seat, bot in enumerate(bots):
        families[seat] = bot.family
        params[seat, :len(bot.params)] = bot.params   # shorter vectors (older families) keep the defaults
    return families, params


def counterfactual_bot_arrays(bots: list[BotSeat]):
    """``bot_arrays`` with the greedy's default parameters in a random seat's row: a counterfactual
    ranks a seat's other turns by the greedy's score whatever its family (counterfactual.py),
    and the random bot reads no parameter, so its games stay what they were."""
    families, params = bot_arrays(bots)
    for seat, bot in enumerate(bots):
        if bot.family == RANDOM:
            params[seat] = default_parameters()
    return families, params


def state_for(setup, families, params, trace_capacity=1, standing_capacity=0):
    """A game state for these bots: with the compiled search's entry when a search bot is seated
    (strategies/louis_xiv/search.py, ``search_entry``), so that only such a chunk compiles it;
    recording ``standing_capacity`` standings rows when that is positive (standings.py)."""
    state = new_state(setup.data, trace_capacity, standing_buffers(standing_capacity) if standing_capacity > 0 else None)
    if SEARCH in families:
        state.search_entry[:] = search_entry(state, setup.data, setup.rules, params)
    return state


def standing_buffers(capacity):
    """(rows, values, parameters) of a state that records ``capacity`` standings rows: the
    parameters are the search bot's defaults, which its position_value reads."""
    search_defaults = parameter_vector(FAMILY_PARAMETERS["search"], None, N_PARAMETERS, "search")
    # column by column, as the other result matrices (each column one contiguous block, handed out
    # without a copy), but as a C-ordered [column, row] array: a recording-off state's one-row
    # buffer then has the same array type, and both share one compiled game loop
    return (buffers.overwritten("louis-xiv.standings", (R.N_STANDING_ROWS, capacity), np.int32),
            buffers.overwritten("louis-xiv.standing_values", (C.MAX_PLAYERS, capacity), np.float32), search_defaults)


class LouisXIVEngine:
    name = "louis-xiv"
    player_counts = (2, 3, 4)
    tables = ("games", "seats", "courtiers")
    optional_tables = ("standings",)
    standing_rows_per_game = None     # learned from an overflowing chunk (rate_after_overflow)

    default_game_file = DEFAULT_GAME_FILE

    def load_setup(self, game_file=None, rule_overrides=None, edit_game_data=None) -> GameSetup:
        model = load_game_file(game_file, edit_game_data=edit_game_data)
        rules = rule_vector(model, rule_overrides)
        self.player_counts = tuple(range(model.players.min, model.players.max + 1))
        switches = switch_settings(rules)
        source = str(game_file or DEFAULT_GAME_FILE)
        return GameSetup(
            game=self.name, data=to_kernel_data(model), rules=rules,
            description={"game_file": source, "rules": switches},
            resolved={"game_data": model.model_dump(mode="json", exclude={"rules"}), "rules": switches},
            source=source,
        )

    @property
    def kernel_sources_hash(self) -> str:
        return kernel_source_hash("louis_xiv")

    def resolve_bot(self, name: str) -> BotSeat:
        return bots_module.resolve_bot(name)

    def _check(self, n_players, bots):
        if n_players not in self.player_counts:
            raise ConfigError(f"louis-xiv: --players expected one of {self.player_counts}, found {n_players}")
        if len(bots) != n_players:
            raise ConfigError(f"louis-xiv: expected {n_players} bots (one per seat), found {len(bots)}")

    def kernels_cached(self, bots) -> bool:
        """Whether the kernels a chunk of these bots runs are compiled in numba's disk cache."""
        searching = any(bot.family == SEARCH for bot in bots)
        return cached_on_disk(play_chunk_kernel, *([search_influence_turn] if searching else []))

    def play_chunk(self, setup, n_players, bots, seed, first_game, n_games):
        self._check(n_players, bots)
        recording = "standings" in setup.optional_tables
        standing_capacity = n_games * (self.standing_rows_per_game or STANDING_ROWS_PER_GAME) if recording else 0
        while True:
            state, matrices = self.play_chunk_matrices(setup, n_players, bots, seed, first_game, n_games,
                                                       standing_capacity)
            needed = int(state.standing_counts[STANDING_ROWS])
            if needed <= standing_capacity:
                break
            standing_capacity = needed     # the buffer overflowed: play the chunk again with the exact count
            self.standing_rows_per_game = rate_after_overflow(self.standing_rows_per_game, needed, n_games)
        tables = self.tables_of_chunk(setup, *matrices, seed, bots)
        if recording:
            tables["standings"] = self.standings_table(setup, state, needed, n_players)
        return tables

    def play_chunk_matrices(self, setup, n_players, bots, seed, first_game, n_games, standing_capacity=0):
        """(final state, (game, seat, courtier result matrices)) of one compiled chunk call."""
        data = setup.data
        rows_per_game = int(data.numbers[ROUNDS]) * C.N_COURTIERS
        # column-major, so that each table column is one contiguous block that ``columns`` hands
        # out without copying (a copy measured ~2-4 us per game, mostly page faults)
        game_rows = result_matrix(n_games, R.GAME_COLUMNS, "louis-xiv.games")
        seat_rows = result_matrix(n_games * n_players, R.SEAT_COLUMNS, "louis-xiv.seats")
        courtier_rows = result_matrix(n_games * rows_per_game, R.COURTIER_COLUMNS, "louis-xiv.courtiers")
        families, params = bot_arrays(bots)
        state = state_for(setup, families, params, standing_capacity=standing_capacity)
        play_chunk_kernel(state, data, setup.rules, n_players, seed_as_int64(seed), first_game, n_games,
                          families, params, new_move_buffer(), new_option_buffer(),
                          game_rows, seat_rows, courtier_rows)
        return state, (game_rows, seat_rows, courtier_rows)

    def standings_table(self, setup, state, n_rows, n_players):
        """The recorded standings rows as the declared table."""
        standings = standing_table_columns(state.standings, state.standing_values, n_rows, n_players,
                                           R.STANDING_COLUMNS, C.MAX_PLAYERS)
        return declared_tables(self.table_schemas(setup), {"standings": standings})["standings"]

    def play_counterfactuals(self, setup, n_players, bots, seed, game_index, turn, alternative) -> dict:
        """Each request i: game ``game_index[i]`` again, the ``turn[i]``-th influence turn of the
        game (every seat's turns counted from 1, §4.2) played with ``alternative[i]`` instead of
        the seat's own choice (sim/louis_xiv/counterfactual.py: 0 own, 1, 2 next-best by the
        greedy's score, -1, -2 random). One compiled call for all requests. Returns arrays:
        winner_mask, acting_seat (-1: the game had fewer turns), available (the alternative
        exists and differs from the own choice), n_options (legal turns listed)."""
        self._check(n_players, bots)
        game_index, turn, alternative = (np.ascontiguousarray(values, dtype=np.int64)
                                         for values in (game_index, turn, alternative))
        families, params = counterfactual_bot_arrays(bots)
        results = {name: np.zeros(len(game_index), dtype=np.int64)
                   for name in ("winner_mask", "acting_seat", "available", "n_options")}
        play_counterfactuals_kernel(state_for(setup, families, params), setup.data, setup.rules, n_players,
                                    seed_as_int64(seed), game_index, turn, alternative, families, params,
                                    new_move_buffer(), new_option_buffer(), results["winner_mask"],
                                    results["acting_seat"], results["available"], results["n_options"])
        results["available"] = results["available"].astype(bool)
        return results

    def counterfactuals_cached(self, bots) -> bool:
        """Whether the counterfactual kernel (and a seated search) is in numba's disk cache."""
        searching = any(bot.family == SEARCH for bot in bots)
        return cached_on_disk(play_counterfactuals_kernel, *([search_influence_turn] if searching else []))

    def turns_per_game(self, tables) -> np.ndarray:
        """Influence turns (§4.2) of every seat of each game, summed."""
        seats = tables["seats"]
        return np.bincount(np.unique(seats["game_index"], return_inverse=True)[1],
                           weights=seats["influence_turns"]).astype(np.int64)

    def table_schemas(self, setup=None) -> dict:
        """Every table's declared columns (sim.core.table_schema), for this setup's rounds."""
        setup = setup or self.load_setup()
        return R.table_schemas(int(setup.data.numbers[ROUNDS]))

    def tables_of_chunk(self, setup, game_rows, seat_rows, courtier_rows, seed, bots) -> dict:
        """The kernel's result matrices as the declared tables: kernel columns renamed to the
        shared convention (R.GAME_RENAMES, R.SEAT_RENAMES), per-round columns only for the
        game's rounds; codes stay integers here and become labels in ``columns_to_arrow``."""
        schemas = self.table_schemas(setup)
        n_games = game_rows.shape[0]
        games = renamed(columns(game_rows, R.GAME_COLUMNS), R.GAME_RENAMES)
        games["win_decided_by"] = win_decided_by(games["decided_by_tiebreak"], games["shared_win"])
        games["seed"] = np.full(n_games, seed, dtype=np.uint64)
        kept = R.seat_table_columns(int(setup.data.numbers[ROUNDS]))
        seats = {name: values for name, values in renamed(columns(seat_rows, R.SEAT_COLUMNS), R.SEAT_RENAMES).items()
                 if name in kept}
        seats["bot"] = bot_column(bots, seats["seat"])
        return declared_tables(schemas, {"games": games, "seats": seats,
                                         "courtiers": columns(courtier_rows, R.COURTIER_COLUMNS)})

    def replay(self, setup, n_players, bots, seed, game_index) -> str:
        self._check(n_players, bots)
        state, _ = self.replay_state(setup, n_players, bots, seed, game_index)
        names = mission_names(setup.data)
        header = (f"Louis XIV, {n_players} players, seed {seed}, game {game_index}; seats numbered from 1 "
                  "(seat 1 is seat 0 in the tables); bots: "
                  + ", ".join(f"seat {seat + 1} {bot.name}" for seat, bot in enumerate(bots)))
        return header + "\n" + decode(state.trace, int(state.game[TRACE_LENGTH]), names) + "\n"

    def replay_state(self, setup, n_players, bots, seed, game_index, counterfactual=(0, 0)):
        """Play one game with the event log on; returns (final state, scores). ``counterfactual``
        (turn, alternative): that game with the turn overridden (``play_counterfactuals``)."""
        data = setup.data
        families, params = counterfactual_bot_arrays(bots) if counterfactual[0] else bot_arrays(bots)
        state = state_for(setup, families, params, TRACE_CAPACITY)
        state.counterfactual[COUNTERFACTUAL_TURN], state.counterfactual[COUNTERFACTUAL_ALTERNATIVE] = counterfactual
        state.counterfactual[COUNTERFACTUAL_ACTING_SEAT] = -1
        courtier_rows = result_matrix(int(data.numbers[ROUNDS]) * C.N_COURTIERS, R.COURTIER_COLUMNS)
        scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
        play_game(state, data, setup.rules, n_players, seed_as_int64(seed), game_index, families, params,
                  new_move_buffer(), new_option_buffer(), courtier_rows, 0, scores, 1)
        return state, scores


def result_matrix(n_rows: int, names, role: str | None = None) -> np.ndarray:
    """A zeroed int32 kernel result matrix, one row per table row, stored column by column (a
    chunk's ``role`` buffer of the last chunk, reused between a run's chunks: sim/core/buffers.py)."""
    if role is None:
        return np.zeros((n_rows, len(names)), dtype=np.int32, order="F")
    return buffers.zeros(role, (n_rows, len(names)), np.int32, order="F")


def columns(matrix: np.ndarray, names) -> dict[str, np.ndarray]:
    """Named columns of a kernel result matrix (int32 throughout, so every chunk of a run has
    the same Parquet schema); views, not copies, for a column-major ``result_matrix``."""
    return {name: np.ascontiguousarray(matrix[:, index]) for index, name in enumerate(names)}


def renamed(table: dict[str, np.ndarray], renames: dict[str, str]) -> dict[str, np.ndarray]:
    """``table`` with kernel column names replaced by their table names, order kept."""
    return {renames.get(name, name): values for name, values in table.items()}


def mission_names(data) -> list[str]:
    counts: dict[str, int] = {}
    names = []
    for card in range(len(data.mission_ability)):
        ability = C.ABILITY_NAMES[int(data.mission_ability[card])]
        counts[ability] = counts.get(ability, 0) + 1
        names.append(f"{ability}#{counts[ability]}")
    return names


ENGINE = LouisXIVEngine()
