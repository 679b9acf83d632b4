"""The rules' one entry point to the Heads of State bots: ``choose`` (kept apart from the rules).

The rules code writes every legal decision of a decision point into ``context.moves[:n]`` and calls
:func:`choose`, which dispatches on the seat's family id (an if/elif) and returns a row index.
Bots read only public state and their own hand (H12): board, displays, scores, tokens, noble
cards, hand *sizes*; never decks or other hands.

Families (ids and parameter vectors documented in ``parameters.py``):
* RANDOM: uniform over the legal decisions at every decision point (seat's own stream).
* GREEDY: one-step heuristic scored with a float parameter vector (greedy.py).
* SEARCH: determinized Monte Carlo rollouts at the turn option, take and betrayal-play decisions
  (search.py); greedy with its own greedy parameters everywhere else and inside the rollouts.

The decision kinds (``D_*``) and the move row layout of each are in sim/heads_of_state/decisions.py.
"""

from sim.core.compiled_calls import call_compiled
from sim.core.kernels import game_kernel
from sim.core.random_streams import below
from sim.heads_of_state.events import K_FORCED, K_SEARCH_FN, K_SEARCH_TAG
from sim.heads_of_state.state import RNG_BOT_0
from strategies.heads_of_state.greedy import greedy_choose
from strategies.heads_of_state.parameters import GREEDY, RANDOM, SEARCH


@game_kernel
def choose(state, data, context, player, kind, n):
    """Index (0..n-1) of the chosen row of context.moves for seat p at a decision point of ``kind``."""
    forced = context.counters[K_FORCED]
    if forced != 0:                    # a search bot replaying its candidate on a copy (search.py)
        context.counters[K_FORCED] = 0
        return forced - 1
    if n <= 1:
        return 0
    family = context.bot_family[player]
    if family == RANDOM:
        return below(state.streams, RNG_BOT_0 + player, n)
    elif family == GREEDY:
        return greedy_choose(state, data, context, player, kind, n)
    elif family == SEARCH:   # through the search's compiled entry (sim/core/compiled_calls.py: why)
        return call_compiled(context.counters[K_SEARCH_FN], context.counters[K_SEARCH_TAG], state, data, context,
                             player, kind, n)
    return 0
