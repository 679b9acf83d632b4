"""Counterfactual influence turns (issue 40, kingmaking): the same game with one seat's choice at
one influence turn (rules §4.2 step 2) replaced, every other draw identical.

A game is a pure function of (rules, bots, seed, game index) and every source of chance draws
from a stream of its own (sim/core/random_streams.py), so replaying a game from its start with
one decision overridden *is* the counterfactual on common random numbers: no snapshot is needed.

A request lives in ``state.counterfactual`` (fields in sim/louis_xiv/state.py): the turn
(``COUNTERFACTUAL_TURN``: the t-th influence turn of the game, counting every seat's turns from 1, as the
standings table numbers them; 0: no request) and the alternative (``COUNTERFACTUAL_ALTERNATIVE``). When the
t-th turn comes, the acting seat's bot first chooses as always (its draws happen as in the
original game), then the turn it plays is replaced:

- a = 0: its own choice (the original game, exactly);
- a = 1, 2, ...: the a-th best of the *other* listed turns by the greedy's score of listed turns
  (``score_listed_turns``, without noise), whatever the seat's family: the random bot has no
  ranking of its own, and the search bot ranks its candidates with the same score;
- a = -1, -2, ...: a turn drawn uniformly among the other listed turns, the -a-th draw of a
  stream of its own (``SOURCE_COUNTERFACTUAL``), so that no other stream moves.

"Other" means a listed turn that is not the move the bot chose (same kind, card and path). When
there is no such alternative (too few legal turns), the own choice is played and ``COUNTERFACTUAL_AVAILABLE``
stays 0. The rest of the turn (e.g. which card DB-PLACE4 spends) is the bot's own.
"""
from sim.core.kernels import game_kernel
from sim.core.random_streams import below
from sim.louis_xiv import constants as C
from sim.louis_xiv.decisions import MOVE_LENGTH, MOVE_PATH, MOVE_WIDTH
from sim.louis_xiv.state import (COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_ALTERNATIVE, COUNTERFACTUAL_AVAILABLE,
                                 COUNTERFACTUAL_OPTIONS, COUNTERFACTUAL_OWN_MOVE, COUNTERFACTUAL_TURN,
                                 influence_turns_played)
from sim.louis_xiv.turn_options import list_turn_options
from strategies.louis_xiv.greedy import score_listed_turns

NO_ROW = -1


@game_kernel
def counterfactual_influence_turn(state, data, rules, player, moves, choice, params):
    """The row of ``moves`` the seat plays at this influence turn: ``choice`` (its bot's) unless
    this is the requested turn (module docstring)."""
    if influence_turns_played(state) + 1 != state.counterfactual[COUNTERFACTUAL_TURN]:
        return choice
    request = state.counterfactual
    request[COUNTERFACTUAL_ACTING_SEAT] = player
    for column in range(MOVE_WIDTH):   # listing overwrites the buffer the bot chose from
        request[COUNTERFACTUAL_OWN_MOVE + column] = moves[choice, column]
    n_moves = list_turn_options(state, data, rules, player, moves)
    request[COUNTERFACTUAL_OPTIONS] = n_moves
    alternative = request[COUNTERFACTUAL_ALTERNATIVE]
    row = NO_ROW
    if alternative > 0:
        row = ranked_other_turn(state, data, player, moves, n_moves, params, alternative)
    elif alternative < 0:
        row = drawn_other_turn(state, moves, n_moves, -alternative)
    if row != NO_ROW:
        request[COUNTERFACTUAL_AVAILABLE] = 1
        return row
    for column in range(MOVE_WIDTH):   # the own choice, back into row 0
        moves[0, column] = request[COUNTERFACTUAL_OWN_MOVE + column]
    return 0


@game_kernel
def is_own_move(request, moves, row):
    """Whether listed turn ``row`` is the move the bot chose: same kind, card and path (columns
    past the path's end are left over from earlier listings and mean nothing)."""
    for column in range(MOVE_PATH):
        if moves[row, column] != request[COUNTERFACTUAL_OWN_MOVE + column]:
            return False
    for column in range(MOVE_PATH, MOVE_PATH + 2 * moves[row, MOVE_LENGTH]):
        if moves[row, column] != request[COUNTERFACTUAL_OWN_MOVE + column]:
            return False
    return True


@game_kernel
def ranked_other_turn(state, data, player, moves, n_moves, params, rank):
    """The ``rank``-th best listed turn other than the own move by the greedy's score (the first
    listed of equal scores first), or NO_ROW when there are fewer."""
    scores = state.counterfactual_scores
    score_listed_turns(state, data, player, moves, n_moves, params, scores)
    for row in range(n_moves):
        if is_own_move(state.counterfactual, moves, row):
            scores[row] = -1e300   # never picked
    picked = NO_ROW
    for _ in range(rank):
        picked = NO_ROW
        best = -1e299
        for row in range(n_moves):
            if scores[row] > best:
                best = scores[row]
                picked = row
        if picked == NO_ROW:
            return NO_ROW
        scores[picked] = -1e300
    return picked


@game_kernel
def drawn_other_turn(state, moves, n_moves, draw):
    """The listed turn other than the own move picked by the ``draw``-th uniform draw of the
    counterfactual stream, or NO_ROW when there is none."""
    n_others = 0
    for row in range(n_moves):
        if not is_own_move(state.counterfactual, moves, row):
            n_others += 1
    if n_others == 0:
        return NO_ROW
    pick = 0
    for _ in range(draw):
        pick = below(state.streams, C.SOURCE_COUNTERFACTUAL, n_others)
    for row in range(n_moves):
        if not is_own_move(state.counterfactual, moves, row):
            if pick == 0:
                return row
            pick -= 1
    return NO_ROW
