"""Counterfactual turns (issue 40, kingmaking): the same game with one seat's turn option (§4.2:
1a, 1b or 2; the first turn's take or refresh with the Q3 switch) replaced, every other draw
identical.

A game is a pure function of (rules, bots, seed, game index) and every source of chance draws
from a stream of its own (sim/core/random_streams.py), so replaying a game from its start with one
decision overridden *is* the counterfactual on common random numbers: no snapshot is needed.

A request lives in ``context.counterfactual`` (fields ``COUNTERFACTUAL_*`` in events.py): the turn (the t-th
turn of the game, ``S_TURN``, counting every player's turns from 1; 0: no request) and the
alternative. When the t-th turn comes, the acting seat's bot first chooses its option as always
(its draws happen as in the original game), then the option played is replaced:

- a = 0: its own choice (the original game, exactly);
- a = 1, 2: the greedy's pick among the *other* listed options, then among those left (the
  greedy's option choice, greedy.py ``greedy_option``, is a ranking by rules of thumb, not a
  score: its pick among the rest is the next-best), whatever the seat's family;
- a = -1, -2: an option drawn uniformly among the other listed options, the -a-th draw of a
  stream of its own. Its key is derived from the game's character-deck key (keys are fixed for a
  game) mixed with ``RNG_COUNTERFACTUAL``: a row of its own in ``state.streams`` would re-key a
  search bot's rollouts (state.py, RNG_START_PLAYER says why), and no stream's counter moves.

Only the turn's main decision is overridden: the rest of the turn (takes, raises, betrayal plays)
is the bot's own. When there is no other option, the own choice is played and ``COUNTERFACTUAL_AVAILABLE``
stays 0.
"""
import numpy as np

from sim.core.kernels import game_kernel
from sim.core.random_streams import GOLDEN_GAMMA, KEY, draw_at, index_below, splitmix64, unit_float
from sim.heads_of_state.decisions import D_OPTION
from sim.heads_of_state.events import (COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_ALTERNATIVE,
                                       COUNTERFACTUAL_AVAILABLE, COUNTERFACTUAL_OPTIONS, COUNTERFACTUAL_TURN)
from sim.heads_of_state.state import RNG_CHARACTER_DECK, RNG_START_PLAYER, S_TURN
from strategies.heads_of_state.greedy import greedy_choose

RNG_COUNTERFACTUAL = RNG_START_PLAYER + 1   # outside the streams array, as the start player's draw
NO_ROW = -1


@game_kernel
def note_counterfactual_turn(state, context, player):
    """At the start of a turn: the requested turn's acting seat (and one option until a decision
    lists more: a first turn without the Q3 switch has no choice)."""
    request = context.counterfactual
    if state.scal[S_TURN] == request[COUNTERFACTUAL_TURN]:
        request[COUNTERFACTUAL_ACTING_SEAT] = player
        request[COUNTERFACTUAL_OPTIONS] = 1


@game_kernel
def counterfactual_option(state, data, context, player, n, choice):
    """The row of ``context.moves`` whose option the seat plays at this turn: ``choice`` (its
    bot's) unless this is the requested turn (module docstring)."""
    request = context.counterfactual
    if state.scal[S_TURN] != request[COUNTERFACTUAL_TURN]:
        return choice
    request[COUNTERFACTUAL_OPTIONS] = n
    moves = context.moves
    own = moves[choice, 0]
    n_others = 0   # the other options, moved to the first rows in listing order
    for row in range(n):
        if moves[row, 0] != own:
            moves[n_others, 0] = moves[row, 0]
            n_others += 1
    alternative = request[COUNTERFACTUAL_ALTERNATIVE]
    row = NO_ROW
    if alternative > 0:
        row = greedy_ranked_option(state, data, context, player, n_others, alternative)
    elif alternative < 0 and n_others > 0:
        row = index_below(unit_float(draw_at(counterfactual_key(state), np.uint64(-alternative))), n_others)
    if row != NO_ROW:
        request[COUNTERFACTUAL_AVAILABLE] = 1
        return row
    moves[0, 0] = own
    return 0


@game_kernel
def greedy_ranked_option(state, data, context, player, n_others, rank):
    """The row of the ``rank``-th option in the greedy's order among the first ``n_others`` rows
    (its pick, then its pick among those left, ...), or NO_ROW when there are fewer."""
    if rank > n_others:
        return NO_ROW
    moves = context.moves
    left = n_others
    for _ in range(rank - 1):   # take the greedy's pick out: move it past the rows still listed
        pick = greedy_choose(state, data, context, player, D_OPTION, left)
        picked = moves[pick, 0]
        for row in range(pick, left - 1):
            moves[row, 0] = moves[row + 1, 0]
        moves[left - 1, 0] = picked
        left -= 1
    return greedy_choose(state, data, context, player, D_OPTION, left)


@game_kernel
def counterfactual_key(state):
    """The counterfactual stream's key: the game's character-deck key mixed with its source id."""
    return splitmix64(state.streams[RNG_CHARACTER_DECK, KEY] ^ (np.uint64(RNG_COUNTERFACTUAL) * GOLDEN_GAMMA))
