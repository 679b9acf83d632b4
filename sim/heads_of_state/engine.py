"""The Heads of State engine (``ENGINE``): setup loading, bots, chunk play and replays.

Public API (sim.core.engine.GameEngine):
* ``ENGINE.load_setup(game_file=None, rule_overrides=None) -> GameSetup``
* ``ENGINE.resolve_bot(name) -> BotSeat``                ("random", "greedy", "search")
* ``ENGINE.play_chunk(setup, n_players, bots, seed, first_game, n_games) -> {table: {col: array}}``
  tables "games", "seats", "betrayals", "country_scoring" (columns: sim/heads_of_state/tables.py)
* ``ENGINE.replay(setup, n_players, bots, seed, game_index) -> str``
Extras: ``ENGINE.trace_events(...) -> int64[n, 4]`` (the raw event codes, used by golden tests).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from sim import kernel_source_hash
from sim.core.compiled_calls import compiled_entry
from sim.core import buffers
from sim.core.engine import BotSeat, ConfigError, GameSetup, rate_after_overflow
from sim.core.kernels import cached_on_disk
from sim.core.table_schema import WIN_DECIDED_BY_NAMES, bot_column, declared_tables, placements, standing_table_columns
from sim.heads_of_state import events as ev
from strategies.heads_of_state.parameters import GREEDY, RANDOM, SEARCH, default_params
from sim.heads_of_state.data import DEFAULT_FILE, load_data
from sim.heads_of_state.kernel import play_chunk_kernel, play_counterfactuals_kernel
from strategies.heads_of_state.search import search_choose
from sim.heads_of_state.replay import decode_events
from sim.heads_of_state.state import MAX_PLAYERS, N_COUNTRIES, N_ROUNDS, new_state
from sim.heads_of_state.tables import (BETRAYALS_COLUMNS, COUNTRY_COLUMNS, GAMES_COLUMNS, N_B, N_C, N_G, N_SE,
                                       N_ST, SEATS_COLUMNS, STANDINGS_COLUMNS, ZERO_BASED_ROUND_TABLES, table_name,
                                       table_schemas)
from strategies import heads_of_state as strategies

# Betrayal-attempt buffer. Upper bound per game: every attempt spends a betrayal card, every card
# was taken by one Option-2 turn, and every turn takes >= 1 character card from a round's deck, so
# attempts <= turns <= 3 x deck size (300). Allocating that for 20,000-game chunks would cost GBs,
# so the buffer starts at 48 per game (random bots average 31-41, greedy ~6) and, if a chunk
# overflows, it is rerun once with the exact count (the kernel keeps counting past the end).
BETRAYALS_PER_GAME = 48
# Standings rows a chunk's buffer starts with, per game: the turns of a game (§4; about 75 with
# greedy bots at 4 players, up to ~150 with random bots at 5) plus its 3 round ends and the final
# row. A chunk that needs more is played again with the exact count (the kernel counts past the
# end), and the engine's later chunks start from the rate that chunk needed. (Rows a chunk does
# not fill cost nothing: numpy's zeroed pages are only mapped when written.)
STANDING_ROWS_PER_GAME = 160
TRACE_CAPACITY = 1 << 16


def search_entry(data, context):
    """(address, type tag) of the search bot's compiled ``search_choose`` for these data and
    context types, compiled (or loaded from numba's cache) when a chunk first seats a search bot;
    make_ctx stores both in ``context.counters`` and bots.choose calls the search through the
    address (sim/core/compiled_calls.py: why)."""
    return compiled_entry(search_choose, (new_state(data), data, context, 0, 0, 0))


def game_outcome_columns(scores, winner_mask, win_decided_by, n_players) -> dict[str, np.ndarray]:
    """The games-table outcome columns Louis XIV's kernel writes and this one does not, from the
    seats' final scores (rows of whole games, seat order) and the kernel's winner mask and
    tie-break code."""
    per_game = np.asarray(scores).reshape(-1, n_players)
    ordered_scores = np.sort(per_game, axis=1)
    winning_score = ordered_scores[:, -1]
    second = ordered_scores[:, -2] if n_players > 1 else np.zeros_like(winning_score)
    seat_bits = (np.asarray(winner_mask)[:, None] >> np.arange(n_players)) & 1
    return {
        "n_winners": seat_bits.sum(axis=1).astype(np.int32),
        "shared_win": (win_decided_by == WIN_DECIDED_BY_NAMES.index("shared")).astype(np.int32),
        "decided_by_tiebreak": (win_decided_by == WIN_DECIDED_BY_NAMES.index("tiebreak")).astype(np.int32),
        "winning_score": winning_score,
        "margin": winning_score - second,   # 0 when tied on points, as in Louis XIV
    }


def counterfactual_bots(bots):
    """The bots with the greedy's default parameters for a random seat: a counterfactual ranks a
    seat's other options with the greedy whatever its family (counterfactual.py), and the random
    bot reads no parameter, so its games stay what they were."""
    greedy = strategies.resolve_bot("greedy")
    return [replace(bot, params=greedy.params) if bot.family == RANDOM else bot for bot in bots]


def _columns(block, names):
    return {name: np.ascontiguousarray(block[:, i]) for i, name in enumerate(names)}


class HeadsOfStateEngine:
    name = "heads-of-state"
    player_counts = (2, 3, 4, 5)
    tables = ("games", "seats", "betrayals", "country_scoring")
    optional_tables = ("standings",)
    standing_rows_per_game = None     # learned from an overflowing chunk (rate_after_overflow)

    # ------------------------------------------------------------------------------------------
    default_game_file = DEFAULT_FILE

    def load_setup(self, game_file: str | None = None, rule_overrides: dict | None = None,
                   edit_game_data=None) -> GameSetup:
        data, rules, description = load_data(game_file, rule_overrides, edit_game_data)
        return GameSetup(game=self.name, data=data, rules=rules, description=description,
                         resolved={"game_data": description["game_data"], "rules": description["rules"]},
                         source=description["source_file"])

    @property
    def kernel_sources_hash(self) -> str:
        return kernel_source_hash("heads_of_state")

    def resolve_bot(self, name: str) -> BotSeat:
        return strategies.resolve_bot(name)

    # ------------------------------------------------------------------------------------------
    def _check(self, n_players, bots):
        if n_players not in self.player_counts:
            raise ConfigError(f"players: n_players: expected one of {list(self.player_counts)}, found {n_players!r}")
        if len(bots) != n_players:
            raise ConfigError(f"bots: (list): expected {n_players} bots, found {len(bots)}")
        for bot in bots:
            if bot.family not in (RANDOM, GREEDY, SEARCH):
                raise ConfigError(f"bots: {bot.name}: expected a heads-of-state bot family, found {bot.family!r}")

    def kernels_cached(self, bots) -> bool:
        """Whether the kernels a chunk of these bots runs are compiled in numba's disk cache."""
        searching = any(bot.family == SEARCH for bot in bots)
        return cached_on_disk(play_chunk_kernel, *([search_choose] if searching else []))

    def make_ctx(self, setup, n_players, bots, n_games=1, betrayal_capacity=None, trace_capacity=0,
                 standing_capacity=0):
        """The chunk context (rules, bots, scratch, output blocks) for ``play_chunk_kernel`` or for
        calling single rule kernels from Python (tests, search bots); it records
        ``standing_capacity`` standings rows when that is positive (standings.py)."""
        self._check(n_players, bots)
        family = np.array([b.family for b in bots], np.int64)
        params = np.zeros((n_players, strategies.N_PARAMETERS), np.float64)
        for i, b in enumerate(bots):
            vec = np.asarray(b.params, np.float64)[:strategies.N_PARAMETERS]
            params[i, :len(vec)] = vec
        if betrayal_capacity is None:
            betrayal_capacity = max(16, BETRAYALS_PER_GAME * n_games)
        searching = any(b.family == SEARCH for b in bots)
        context = ev.Ctx.from_arrays((
            np.asarray(setup.rules, np.float64), family, params,
            np.zeros((ev.MAX_MOVES, 4), np.int64),
            # a run's chunks reuse these (sim/core/buffers.py: outside one, new arrays)
            buffers.zeros("heads-of-state.games", (n_games, N_G), np.int64),
            buffers.zeros("heads-of-state.seats", (n_games * n_players, N_SE), np.int64),
            buffers.zeros("heads-of-state.betrayals", (betrayal_capacity, N_B), np.int64),
            buffers.zeros("heads-of-state.country_scoring", (n_games * N_ROUNDS * N_COUNTRIES, N_C), np.int64),
            np.array([0, 0, 0, 1 if trace_capacity else 0, 0, 0, 0, 1 if standing_capacity else 0, 0], np.int64),
            np.zeros(max(trace_capacity, 1), np.int64),
            np.zeros((ev.N_WORK_ROWS, ev.WORK_WIDTH), np.int64), np.zeros(ev.WORK_WIDTH, np.float64),
            buffers.overwritten("heads-of-state.standings", (N_ST, max(standing_capacity, 1)), np.int32),
            buffers.overwritten("heads-of-state.standing_values", (MAX_PLAYERS, max(standing_capacity, 1)), np.float32),
            default_params("search") if standing_capacity else np.zeros(1),
            np.zeros(ev.COUNTERFACTUAL_WIDTH, np.int64),
        ))
        if searching:
            context.counters[ev.K_SEARCH_FN], context.counters[ev.K_SEARCH_TAG] = search_entry(setup.data, context)
        return context

    def _run(self, setup, n_players, bots, seed, first_game, n_games, trace_on=False, standings=False,
             counterfactual=(0, 0)):
        b_cap = max(16, BETRAYALS_PER_GAME * n_games)
        t_cap = TRACE_CAPACITY if trace_on else 0
        s_cap = n_games * (self.standing_rows_per_game or STANDING_ROWS_PER_GAME) if standings else 0
        if n_games < 1:
            raise ConfigError(f"run: n_games: expected a positive number of games, found {n_games!r}")
        if not 0 <= int(seed) < 2**64:
            raise ConfigError(f"run: seed: expected an integer 0 .. 2**64-1, found {seed!r}")
        if not 0 <= int(first_game) < 2**62:
            raise ConfigError(f"run: first_game: expected a non-negative game index, found {first_game!r}")
        while True:
            if counterfactual[0]:   # one game's log with a turn overridden (play_counterfactuals)
                context = self.make_ctx(setup, n_players, counterfactual_bots(bots), n_games, b_cap, t_cap, s_cap)
                turn, alternative = counterfactual
                context.counterfactual[ev.COUNTERFACTUAL_TURN] = turn
                context.counterfactual[ev.COUNTERFACTUAL_ALTERNATIVE] = alternative
            else:
                context = self.make_ctx(setup, n_players, bots, n_games, b_cap, t_cap, s_cap)
            stuck = play_chunk_kernel(new_state(setup.data), setup.data, context, n_players, np.uint64(int(seed)),
                                      np.int64(first_game), np.int64(n_games))
            flags = context.counters[ev.K_OVERFLOW]
            if flags & ev.OVERFLOW_MOVES:
                raise RuntimeError("heads-of-state: legal-move buffer overflow (raise events.MAX_MOVES)")
            if flags & ev.OVERFLOW_BETRAYALS:
                b_cap = int(context.counters[ev.K_BETRAYAL_N]) + 1   # exact need: rerun the chunk
                continue
            if flags & ev.OVERFLOW_TRACE:
                t_cap *= 4
                continue
            if context.counters[ev.K_STANDING_N] > s_cap:
                s_cap = int(context.counters[ev.K_STANDING_N])   # exact need: rerun the chunk
                self.standing_rows_per_game = rate_after_overflow(self.standing_rows_per_game, s_cap, n_games)
                continue
            break
        if stuck:
            raise RuntimeError(f"heads-of-state: {stuck} game(s) exceeded the turn safety net")
        return context

    def play_chunk(self, setup, n_players, bots, seed, first_game, n_games):
        recording = "standings" in setup.optional_tables
        context = self._run(setup, n_players, bots, seed, first_game, n_games, standings=recording)
        nb = int(context.counters[ev.K_BETRAYAL_N])
        tables = self.tables_of_chunk(setup, context.games, context.seats, context.betrayals[:nb], context.country,
                                      n_players, bots, seed)
        if recording:
            tables["standings"] = self.standings_table(setup, context, n_players)
        return tables

    def standings_table(self, setup, context, n_players):
        """The recorded standings rows as the declared table."""
        n_rows = int(context.counters[ev.K_STANDING_N])
        standings = standing_table_columns(context.standings, context.standing_values, n_rows, n_players,
                                           STANDINGS_COLUMNS, MAX_PLAYERS)
        return declared_tables(self.table_schemas(setup), {"standings": standings})["standings"]

    def turns_per_game(self, tables) -> np.ndarray:
        """Turns started in the three rounds of each game (§4)."""
        games = tables["games"]
        return np.asarray(games["turns_round_1"] + games["turns_round_2"] + games["turns_round_3"], np.int64)

    def table_schemas(self, setup=None) -> dict:
        """Every table's declared columns (sim.core.table_schema) for this setup's data."""
        return table_schemas((setup or self.load_setup()).description)

    def tables_of_chunk(self, setup, game_block, seat_block, betrayal_block, country_block, n_players, bots, seed):
        """The kernel's blocks as the declared tables: kernel columns renamed to the convention both
        games share (tables.table_name), rounds from 1, and the shared game and seat columns that
        Louis XIV's kernel writes computed here; codes become labels in ``columns_to_arrow``."""
        schemas = self.table_schemas(setup)
        kernel_tables = {"games": (game_block, GAMES_COLUMNS), "seats": (seat_block, SEATS_COLUMNS),
                         "betrayals": (betrayal_block, BETRAYALS_COLUMNS), "country_scoring": (country_block, COUNTRY_COLUMNS)}
        tables = {table: {table_name(name): values for name, values in _columns(block, names).items()}
                  for table, (block, names) in kernel_tables.items()}
        for table in ZERO_BASED_ROUND_TABLES:
            tables[table]["round"] = tables[table]["round"] + 1
        games, seats = tables["games"], tables["seats"]
        # the start player (rules §3 step 11): the kernel's draw (seat 0 with the rule switch
        # random_start_player off); start_position is each seat's place in the turn order
        first_start_seat = games.get("first_start_seat", np.zeros(len(games["game_index"]), np.int64))
        games["first_start_seat"] = first_start_seat
        seats["start_position"] = (seats["seat"] - np.repeat(first_start_seat, n_players)) % n_players
        seats["placement"] = placements(seats["score"], n_players)
        seats["bot"] = bot_column(bots, seats["seat"])
        games.update(game_outcome_columns(seats["score"], games["winner_mask"], games["win_decided_by"], n_players))
        games["seed"] = np.full(len(games["game_index"]), int(seed), np.uint64)   # the kernel block is int64
        return declared_tables(schemas, tables)

    def play_counterfactuals(self, setup, n_players, bots, seed, game_index, turn, alternative) -> dict:
        """Each request i: game ``game_index[i]`` again, the ``turn[i]``-th turn of the game
        (every player's turns counted from 1) played with turn option ``alternative[i]`` instead of
        the seat's own (sim/heads_of_state/counterfactual.py: 0 own, 1, 2 the greedy's next
        picks, -1, -2 random; the rest of the turn is the bot's). One compiled call. Returns
        arrays: winner_mask, acting_seat (-1: the game had fewer turns), available (the
        alternative exists and differs from the own choice), n_options (options listed)."""
        game_index, turn, alternative = (np.ascontiguousarray(values, dtype=np.int64)
                                         for values in (game_index, turn, alternative))
        context = self.make_ctx(setup, n_players, counterfactual_bots(bots), 1)
        results = {name: np.zeros(len(game_index), dtype=np.int64)
                   for name in ("winner_mask", "acting_seat", "available", "n_options")}
        stuck = play_counterfactuals_kernel(new_state(setup.data), setup.data, context, n_players,
                                            np.uint64(int(seed)), game_index, turn, alternative,
                                            results["winner_mask"], results["acting_seat"], results["available"],
                                            results["n_options"])
        if context.counters[ev.K_OVERFLOW] & ev.OVERFLOW_MOVES:
            raise RuntimeError("heads-of-state: legal-move buffer overflow (raise events.MAX_MOVES)")
        if stuck:
            raise RuntimeError(f"heads-of-state: {stuck} replay(s) exceeded the turn safety net")
        results["available"] = results["available"].astype(bool)
        return results

    def counterfactuals_cached(self, bots) -> bool:
        """Whether the counterfactual kernel (and a seated search) is in numba's disk cache."""
        searching = any(bot.family == SEARCH for bot in bots)
        return cached_on_disk(play_counterfactuals_kernel, *([search_choose] if searching else []))

    def trace_events(self, setup, n_players, bots, seed, game_index, counterfactual=(0, 0)):
        """The game's raw event codes; ``counterfactual`` (turn, alternative): with that turn's
        option overridden (``play_counterfactuals``)."""
        context = self._run(setup, n_players, bots, seed, game_index, 1, trace_on=True, counterfactual=counterfactual)
        return context.trace[:context.counters[ev.K_TRACE_N]].reshape(-1, 4).copy()

    def replay(self, setup, n_players, bots, seed, game_index):
        events = self.trace_events(setup, n_players, bots, seed, game_index)
        return "\n".join(decode_events(events, setup.description, [b.name for b in bots]))


ENGINE = HeadsOfStateEngine()
