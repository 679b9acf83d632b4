"""The Louis XIV game loop (rules §13) and the chunk kernel: one compiled call plays a whole
chunk of games and fills preallocated result matrices (tables.py); no Python per game."""
import numpy as np

from sim.core.kernels import game_kernel, inline_game_kernel, kernel, max_of

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv import tables as R
from sim.louis_xiv.data import ROUNDS
from sim.louis_xiv.evaluation import evaluation_phase
from sim.louis_xiv.influence import influence_phase
from sim.louis_xiv.missions import missions_phase
from sim.louis_xiv.resources import resources_phase
from sim.louis_xiv.scoring import bin_count, end_of_game, record_standing
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.standings import record_final_standings, record_round_end_standings, recording_standings
from sim.louis_xiv.state import (COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_ALTERNATIVE, COUNTERFACTUAL_AVAILABLE,
                                 COUNTERFACTUAL_OPTIONS, COUNTERFACTUAL_TURN, EXHAUSTED_COATS, EXHAUSTED_GOLD,
                                 EXHAUSTED_TOKENS, FIRST_START_SEAT, N_PLAYERS, ROUND, START_SEAT, trace_event)


@inline_game_kernel
def play_rounds(state, data, rules, bot_family, bot_params, moves, options, courtier_rows, first_row):
    """Rounds 1..4, each of four phases (§4); the start player passes left after each round."""
    return play_rounds_from(state, data, rules, bot_family, bot_params, moves, options, courtier_rows,
                            first_row, 1)


@inline_game_kernel
def play_rounds_from(state, data, rules, bot_family, bot_params, moves, options, courtier_rows, first_row,
                     first_round):
    """Rounds first_round..4 (a search rollout finishes a game from a later round)."""
    n_rounds = data.numbers[ROUNDS]
    row = first_row
    for round_number in range(first_round, n_rounds + 1):
        state.game[ROUND] = round_number
        trace_event(state, E.ROUND_START, round_number, state.game[START_SEAT], 0, 0, 0, 0, 0)
        resources_phase(state, data, rules, bot_family, bot_params)
        influence_phase(state, data, rules, bot_family, bot_params, moves)
        row += finish_round(state, data, rules, bot_family, bot_params, options, courtier_rows, row, round_number)
    return row


@inline_game_kernel
def finish_round(state, data, rules, bot_family, bot_params, options, courtier_rows, row, round_number):
    """Phases 3 and 4 of a round, the standing, and the start player passing left; returns the
    number of courtiers-table rows written."""
    rows = evaluation_phase(state, data, rules, bot_family, bot_params, courtier_rows, row)
    missions_phase(state, data, rules, bot_family, bot_params, options)
    record_standing(state, data, round_number)
    if recording_standings(state):
        record_round_end_standings(state, data)
    if round_number < data.numbers[ROUNDS]:
        state.game[START_SEAT] = (state.game[START_SEAT] + 1) % state.game[N_PLAYERS]
    return rows


@inline_game_kernel
def play_game(state, data, rules, n_players, seed, game_index, bot_family, bot_params, moves, options,
              courtier_rows, first_row, scores, trace_on):
    """One complete game: a pure function of (data, rules, bots, seed, game index)."""
    setup_game(state, data, rules, n_players, seed, game_index, trace_on)
    play_rounds(state, data, rules, bot_family, bot_params, moves, options, courtier_rows, first_row)
    winner_mask, decided_by_tiebreak = end_of_game(state, data, rules, scores)
    if recording_standings(state):
        record_final_standings(state, data, scores)
    return winner_mask, decided_by_tiebreak


@game_kernel
def write_game_row(state, row, game_index, scores, winner_mask, decided_by_tiebreak):
    n_players = state.game[N_PLAYERS]
    best = max_of(scores, n_players)
    second = -1
    for player in range(n_players):
        if scores[player] < best and scores[player] > second:
            second = scores[player]
    first_winner = -1
    for player in range(n_players):
        if winner_mask & (1 << player):
            first_winner = player
            break
    n_winners = bin_count(winner_mask)
    row[R.G_GAME_INDEX] = game_index
    row[R.G_N_PLAYERS] = n_players
    row[R.G_FIRST_START_SEAT] = state.game[FIRST_START_SEAT]
    row[R.G_WINNER_MASK] = winner_mask
    row[R.G_WINNER] = first_winner
    row[R.G_N_WINNERS] = n_winners
    row[R.G_SHARED_WIN] = 1 if n_winners > 1 else 0
    row[R.G_DECIDED_BY_TIEBREAK] = 1 if decided_by_tiebreak else 0
    row[R.G_WINNING_SCORE] = best
    # margin between the winner and the best other score (0 when tied on points)
    tied_on_points = 0
    for player in range(n_players):
        if scores[player] == best:
            tied_on_points += 1
    row[R.G_MARGIN] = 0 if tied_on_points > 1 else (best - second if second >= 0 else best)
    row[R.G_EXHAUSTED_TOKENS] = state.game[EXHAUSTED_TOKENS]
    row[R.G_EXHAUSTED_COATS] = state.game[EXHAUSTED_COATS]
    row[R.G_EXHAUSTED_GOLD] = state.game[EXHAUSTED_GOLD]


@game_kernel
def write_seat_rows(state, data, seat_rows, first_row, game_index, scores, winner_mask):
    n_players = state.game[N_PLAYERS]
    for player in range(n_players):
        row = seat_rows[first_row + player]
        rank = 1
        for other in range(n_players):
            if scores[other] > scores[player]:
                rank += 1
        row[R.S_GAME_INDEX] = game_index
        row[R.S_SEAT] = player
        row[R.S_START_POSITION] = (player - state.game[FIRST_START_SEAT]) % n_players
        row[R.S_SCORE] = scores[player]
        row[R.S_RANK] = rank
        row[R.S_WINNER] = 1 if winner_mask & (1 << player) else 0
        row[R.S_COATS] = state.coats[player].sum()
        row[R.S_MISSIONS_LIGHT] = 0
        row[R.S_MISSIONS_BLUE] = 0
        row[R.S_MISSIONS_DARK] = 0
        for card in range(data.mission_colour.shape[0]):
            if state.mission_played[player, card]:
                row[R.S_MISSIONS_LIGHT + data.mission_colour[card]] += 1
        row[R.S_MISSIONS_IN_HAND] = state.mission_hand[player].sum()
        row[R.S_GOLD] = state.gold[player]
        row[R.S_OWN_SUPPLY] = state.own_supply[player]
        row[R.S_GENERAL_SUPPLY] = state.general_supply[player]
        row[R.S_MARKERS_ON_COURTIERS] = state.markers[:, player].sum()
        row[R.S_TOKENS_LEFT] = state.tokens[player].sum()
        row[R.S_INFLUENCE_LEFT] = state.influence_hand[player].sum()
        row[R.S_INTRIGUE_LEFT] = state.intrigue_hand[player].sum()
        for round_index in range(R.MAX_ROUNDS):
            if round_index < state.score_after_round.shape[1]:
                row[R.S_SCORE_AFTER_ROUND + round_index] = state.score_after_round[player, round_index]
            else:
                row[R.S_SCORE_AFTER_ROUND + round_index] = -1
        for stat in range(state.stats.shape[1]):
            row[R.S_STATS + stat] = state.stats[player, stat]
        for ability in range(C.N_ABILITIES):
            row[R.S_ABILITY_USES + ability] = state.ability_uses[player, ability]


@kernel  # allocates the scores vector, so not a ``game_kernel``
def play_chunk_kernel(state, data, rules, n_players, seed, first_game, n_games, bot_family, bot_params,
                      moves, options, game_rows, seat_rows, courtier_rows):
    """Play games first_game .. first_game + n_games - 1 and fill the three result matrices."""
    scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
    rows_per_game = data.numbers[ROUNDS] * C.N_COURTIERS
    for offset in range(n_games):
        game_index = first_game + offset
        scores[:] = 0
        winner_mask, decided_by_tiebreak = play_game(
            state, data, rules, n_players, seed, game_index, bot_family, bot_params, moves, options,
            courtier_rows, offset * rows_per_game, scores, 0)
        write_game_row(state, game_rows[offset], game_index, scores, winner_mask, decided_by_tiebreak)
        write_seat_rows(state, data, seat_rows, offset * n_players, game_index, scores, winner_mask)


@kernel  # allocates the scores vector and one game's courtier rows
def play_counterfactuals_kernel(state, data, rules, n_players, seed, game_index, turn, alternative, bot_family,
                                bot_params, moves, options, winner_mask, acting_seat, available, n_options):
    """Request i: game ``game_index[i]`` played again from its start with ``alternative[i]`` at its
    ``turn[i]``-th influence turn (sim/louis_xiv/counterfactual.py); fills the i-th entry of each
    result vector (acting_seat -1: the game had fewer turns)."""
    scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
    courtier_rows = np.zeros((data.numbers[ROUNDS] * C.N_COURTIERS, len(R.COURTIER_COLUMNS)), dtype=np.int32)
    for request in range(game_index.shape[0]):
        state.counterfactual[:] = 0
        state.counterfactual[COUNTERFACTUAL_TURN] = turn[request]
        state.counterfactual[COUNTERFACTUAL_ALTERNATIVE] = alternative[request]
        state.counterfactual[COUNTERFACTUAL_ACTING_SEAT] = -1
        scores[:] = 0
        mask, _ = play_game(state, data, rules, n_players, seed, game_index[request], bot_family, bot_params, moves,
                            options, courtier_rows, 0, scores, 0)
        winner_mask[request] = mask
        acting_seat[request] = state.counterfactual[COUNTERFACTUAL_ACTING_SEAT]
        available[request] = state.counterfactual[COUNTERFACTUAL_AVAILABLE]
        n_options[request] = state.counterfactual[COUNTERFACTUAL_OPTIONS]
    state.counterfactual[:] = 0
