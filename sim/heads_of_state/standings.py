"""The opt-in standings table (``--tables standings``): one row per position, with every seat's
standing, after each player turn (rules §4), after each round's end (§5.2) and at the end of the
game (§6).

A round ends inside the turn that reveals the revolution card (§5.2), so the row of that turn
already shows the round-end scoring; the round-end row (acting_seat -1) follows it, and after
the last round the final row, whose scores are the final scores (seats.score).

Recording is on when ``context.counters[K_STANDINGS_ON]`` is 1 (engine.make_ctx); a search
rollout's context has it 0, so a rollout never writes the game's table. Rows past the buffer's
end are only counted; the engine grows the buffer and plays the chunk again.
"""
from sim.core.kernels import game_kernel

from sim.heads_of_state.events import K_STANDING_N
from sim.heads_of_state.state import N_ROUNDS, S_GAME_INDEX, S_GAME_OVER, S_N_PLAYERS, S_ROUND, S_TURN
from sim.heads_of_state.tables import ST_ACTING_SEAT, ST_GAME_INDEX, ST_ROUND, ST_SCORE_SEAT, ST_TURN
from strategies.heads_of_state.position import position_values

NOT_A_TURN = -1   # acting_seat of the rows after a round's end and at the end of the game


@game_kernel
def record_turn_standings(state, data, context, acting_seat, round_index):
    """After the turn of ``acting_seat`` that started in round ``round_index`` (0-based): its
    rows, then the round-end rows if the turn ended the round (§5.2), then the final rows if it
    ended the game (§6)."""
    values = context.fwork
    standing_values(state, data, context, values)
    record_rows(state, context, values, acting_seat, round_index + 1)
    if state.scal[S_ROUND] != round_index or state.scal[S_GAME_OVER] != 0:
        record_rows(state, context, values, NOT_A_TURN, round_index + 1)
    if state.scal[S_GAME_OVER] != 0:
        record_rows(state, context, values, NOT_A_TURN, N_ROUNDS)


@game_kernel
def standing_values(state, data, context, values):
    """values[seat] = every seat's position value: the search bot's (default parameters) while the
    game runs, the final score once it has ended (a rollout that reaches the end counts the final
    score too). ``values`` is the context's float scratch, which no rule reads across turns."""
    if state.scal[S_GAME_OVER] != 0:
        for seat in range(state.scal[S_N_PLAYERS]):
            values[seat] = state.score[seat]
    else:
        position_values(state, data, context, context.standing_parameters, values)
    return values


@game_kernel
def record_rows(state, context, values, acting_seat, round_number):
    """One row: the position's columns and every seat's score and position value."""
    row = context.counters[K_STANDING_N]
    context.counters[K_STANDING_N] = row + 1
    if row < context.standings.shape[1]:
        columns = context.standings
        # the buffer holds the table column by column (``columns[column, row]``: each column is
        # one contiguous block that the engine hands out without copying)
        columns[ST_GAME_INDEX, row] = state.scal[S_GAME_INDEX]
        columns[ST_TURN, row] = state.scal[S_TURN]
        columns[ST_ROUND, row] = round_number
        columns[ST_ACTING_SEAT, row] = acting_seat
        for seat in range(state.scal[S_N_PLAYERS]):
            columns[ST_SCORE_SEAT + seat, row] = state.score[seat]
            context.standing_values[seat, row] = values[seat]
