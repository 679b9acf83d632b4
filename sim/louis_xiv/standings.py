"""The opt-in standings table (``--tables standings``): every seat's standing after each
influence turn (rules §4.2 step 2), after each round's end phases (§4.3 evaluation, §4.4
missions) and after the end-of-game scoring (§7).

Recording is off unless the engine gives the state a row buffer (state.new_state, ``standings``);
off, each call site costs one compare. A copy of the state (a search rollout) records nothing:
copy_state gives it recording off. The rows go straight into the chunk's buffer; past its end
they are only counted, and the engine grows the buffer and plays the chunk again (the games
are the same: a game is a pure function of rules, bots, seed and game index).
"""
from sim.core.kernels import game_kernel, inline_game_kernel

from sim.louis_xiv import tables as R
from sim.louis_xiv.state import (GAME_INDEX, LAST_ROWS_A_TURN, N_PLAYERS, ROUND, STANDING_ROWS, STANDINGS_ON,
                                 influence_turns_played, provisional_score)
from strategies.louis_xiv.position import position_value

NOT_A_TURN = -1   # acting_seat of the rows after a round's end phases and after §7


@inline_game_kernel  # inlined: with recording off a turn pays one compare
def recording_standings(state):
    return state.standing_counts[STANDINGS_ON] != 0


@game_kernel
def record_turn_standings(state, data, acting_seat):
    """After an influence turn of ``acting_seat`` (§4.2 step 2): every seat's score so far and
    the search bot's position value. An influence turn changes only its own seat's holdings (a
    card played, own markers placed or taken back, gold paid for LB-SKIP, a card drawn for
    B-CARDSWAP), so after another turn of the same pass the other seats' rows repeat theirs
    instead of valuing their unchanged positions again (tests/louis_xiv/test_standings.py replays
    every turn of a round and values every seat)."""
    repeat_others = state.standing_counts[LAST_ROWS_A_TURN] != 0
    for seat in range(state.game[N_PLAYERS]):
        row = next_standing_row(state)
        if row < 0:
            continue
        if repeat_others and seat != acting_seat and row >= state.game[N_PLAYERS]:
            repeat_standing(state, row, acting_seat)
        else:
            write_standing(state, data, row, acting_seat, seat, provisional_score(state, data, seat),
                           position_value(state, data, seat, state.standing_parameters))
    state.standing_counts[LAST_ROWS_A_TURN] = 1


@game_kernel
def record_round_end_standings(state, data):
    """After a round's end phases (§4.3 evaluation, §4.4 missions): every seat's standing."""
    for seat in range(state.game[N_PLAYERS]):
        row = next_standing_row(state)
        if row >= 0:
            write_standing(state, data, row, NOT_A_TURN, seat, provisional_score(state, data, seat),
                           position_value(state, data, seat, state.standing_parameters))
    state.standing_counts[LAST_ROWS_A_TURN] = 0


@game_kernel
def record_final_standings(state, data, scores):
    """After the end-of-game scoring (§7): the final scores, which are also the position values
    (nothing more will score; a search rollout that reaches the end counts the final scores too)."""
    for seat in range(state.game[N_PLAYERS]):
        row = next_standing_row(state)
        if row >= 0:
            write_standing(state, data, row, NOT_A_TURN, seat, scores[seat], float(scores[seat]))
    state.standing_counts[LAST_ROWS_A_TURN] = 0


@game_kernel
def next_standing_row(state):
    """The buffer row of the next standing, or -1 past the buffer's end (counted all the same)."""
    row = state.standing_counts[STANDING_ROWS]
    state.standing_counts[STANDING_ROWS] = row + 1
    return row if row < state.standings.shape[1] else -1


@game_kernel
def repeat_standing(state, row, acting_seat):
    """The seat's row of the previous turn, as this turn's (only turn and acting seat change)."""
    previous = row - state.game[N_PLAYERS]
    columns = state.standings
    for column in range(columns.shape[0]):
        columns[column, row] = columns[column, previous]
    columns[R.ST_TURN, row] = columns[R.ST_TURN, previous] + 1
    columns[R.ST_ACTING_SEAT, row] = acting_seat
    state.standing_values[row] = state.standing_values[previous]


@game_kernel
def write_standing(state, data, row, acting_seat, seat, score, value):
    """Row ``row`` of the buffer, which holds the table column by column (``standings[column, row]``:
    each column is one contiguous block that the engine hands out without copying)."""
    columns = state.standings
    columns[R.ST_GAME_INDEX, row] = state.game[GAME_INDEX]
    columns[R.ST_TURN, row] = influence_turns_played(state)
    columns[R.ST_ROUND, row] = state.game[ROUND]
    columns[R.ST_ACTING_SEAT, row] = acting_seat
    columns[R.ST_SEAT, row] = seat
    columns[R.ST_SCORE, row] = score
    columns[R.ST_COATS, row] = state.coats[seat].sum()
    columns[R.ST_MISSIONS_PLAYED, row] = state.mission_played[seat].sum()
    columns[R.ST_MISSIONS_IN_HAND, row] = state.mission_hand[seat].sum()
    columns[R.ST_GOLD, row] = state.gold[seat]
    columns[R.ST_TOKENS, row] = state.tokens[seat].sum()
    columns[R.ST_MARKERS_ON_COURTIERS, row] = state.markers[:, seat].sum()
    columns[R.ST_OWN_SUPPLY, row] = state.own_supply[seat]
    state.standing_values[row] = value
