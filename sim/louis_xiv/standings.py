"""The opt-in standings table (``--tables standings``): one row per position, with every seat's
standing, after each influence turn (rules §4.2 step 2), after each round's end phases (§4.3
evaluation, §4.4 missions) and after the end-of-game scoring (§7).

Recording is off unless the engine gives the state a row buffer (state.new_state, ``standings``);
off, each call site costs one compare. A copy of the state (a search rollout) records nothing:
copy_state gives it recording off. The rows go straight into the chunk's buffer; past its end
they are only counted, and the engine grows the buffer and plays the chunk again (the games
are the same: a game is a pure function of rules, bots, seed and game index).
"""
from sim.core.kernels import game_kernel, inline_game_kernel

from sim.louis_xiv import tables as R
from sim.louis_xiv.state import (GAME_INDEX, LAST_ROWS_A_TURN, N_PLAYERS, ROUND, STANDING_ROWS, STANDINGS_ON,
                                 influence_turns_played, missions_completed, provisional_score_given)
from strategies.louis_xiv.position import position_value_given_score

NOT_A_TURN = -1   # acting_seat of the rows after a round's end phases and after §7


@inline_game_kernel  # inlined: with recording off a turn pays one compare
def recording_standings(state):
    return state.standing_counts[STANDINGS_ON] != 0


@game_kernel
def record_turn_standings(state, data, acting_seat):
    """After an influence turn of ``acting_seat`` (§4.2 step 2): the position's row, with every
    seat's score so far and the search bot's position value. An influence turn changes only its
    own seat's holdings (a card played, own markers placed or taken back, gold paid for LB-SKIP, a
    card drawn for B-CARDSWAP), so after another turn of the same pass the other seats' standings
    repeat the previous row's instead of valuing their unchanged positions again
    (tests/louis_xiv/test_standings.py replays every turn of a round and values every seat)."""
    row = next_standing_row(state)
    if row >= 0:
        write_position(state, row, acting_seat)
        repeat_others = state.standing_counts[LAST_ROWS_A_TURN] != 0
        for seat in range(state.game[N_PLAYERS]):
            if repeat_others and seat != acting_seat:
                repeat_standing(state, row, seat)
            else:
                write_valued_standing(state, data, row, seat)
    state.standing_counts[LAST_ROWS_A_TURN] = 1


@game_kernel
def record_round_end_standings(state, data):
    """After a round's end phases (§4.3 evaluation, §4.4 missions): every seat's standing."""
    row = next_standing_row(state)
    if row >= 0:
        write_position(state, row, NOT_A_TURN)
        for seat in range(state.game[N_PLAYERS]):
            write_valued_standing(state, data, row, seat)
    state.standing_counts[LAST_ROWS_A_TURN] = 0


@game_kernel
def record_final_standings(state, data, scores):
    """After the end-of-game scoring (§7): the final scores, which are also the position values
    (nothing more will score; a search rollout that reaches the end counts the final scores too)."""
    row = next_standing_row(state)
    if row >= 0:
        write_position(state, row, NOT_A_TURN)
        for seat in range(state.game[N_PLAYERS]):
            write_standing(state, row, seat, scores[seat], float(scores[seat]))
    state.standing_counts[LAST_ROWS_A_TURN] = 0


@game_kernel
def next_standing_row(state):
    """The buffer row of the next position, or -1 past the buffer's end (counted all the same:
    a row past the end is followed only by rows past the end, so a repeated standing always
    finds the previous row)."""
    row = state.standing_counts[STANDING_ROWS]
    state.standing_counts[STANDING_ROWS] = row + 1
    return row if row < state.standings.shape[1] else -1


@game_kernel
def write_position(state, row, acting_seat):
    """Row ``row``'s own columns. The buffer holds the table column by column
    (``standings[column, row]``: each column is one contiguous block that the engine hands out
    without copying)."""
    columns = state.standings
    columns[R.ST_GAME_INDEX, row] = state.game[GAME_INDEX]
    columns[R.ST_TURN, row] = influence_turns_played(state)
    columns[R.ST_ROUND, row] = state.game[ROUND]
    columns[R.ST_ACTING_SEAT, row] = acting_seat


@game_kernel
def write_valued_standing(state, data, row, seat):
    """The seat's score so far and the search bot's position value (its default parameters)."""
    missions = missions_completed(state, seat)     # counted once for the score and the value
    score = provisional_score_given(state, data, seat, missions)
    write_standing(state, row, seat, score,
                   position_value_given_score(state, data, seat, state.standing_parameters, score, missions))


@game_kernel
def write_standing(state, row, seat, score, value):
    state.standings[R.ST_SCORE_SEAT + seat, row] = score
    state.standing_values[seat, row] = value


@game_kernel
def repeat_standing(state, row, seat):
    """The seat's standing in the previous row (the same game's: see record_turn_standings)."""
    state.standings[R.ST_SCORE_SEAT + seat, row] = state.standings[R.ST_SCORE_SEAT + seat, row - 1]
    state.standing_values[seat, row] = state.standing_values[seat, row - 1]
