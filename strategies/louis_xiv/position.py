"""The Louis XIV search bot's value of a position (strategies/louis_xiv/search.py, module
docstring: "How far a rollout plays"), in points: a seat's standing plus the worth of what it holds.

It lives apart from search.py so that the game loop can record it (the opt-in ``standings``
table, sim/louis_xiv/standings.py) without importing the search, which imports the game loop:
one evaluation, used by both.
"""
from sim.core.kernels import game_kernel
from sim.louis_xiv import constants as C
from sim.louis_xiv.data import ROUNDS
from sim.louis_xiv.state import ROUND, provisional_score
from strategies.louis_xiv.greedy import needed_tokens, token_value_given
from strategies.louis_xiv.parameters import (HELD_WEIGHT, STOP_VALUE_COURTIER_MARKER, STOP_VALUE_CROWN,
                                             STOP_VALUE_GOLD, STOP_VALUE_INFLUENCE_CARD, STOP_VALUE_INTRIGUE_CARD,
                                             STOP_VALUE_MISSION_ABILITY, STOP_VALUE_OWN_MARKER, STOP_VALUE_TOKEN,
                                             VALUE_COAT, VALUE_GOLD, VALUE_INFLUENCE_CARD, VALUE_INTRIGUE_CARD,
                                             VALUE_MARKER)


@game_kernel
def position_value(state, data, player, params):
    """What a rollout that stops before the end of the game counts for a player (module
    docstring): his standing, plus the stop values of what he holds, plus ``held_weight`` times
    the greedy's valuation of it."""
    return (provisional_score(state, data, player) + stop_valuation(state, data, player, params)
            + params[HELD_WEIGHT] * greedy_valuation(state, data, player, params))


@game_kernel
def stop_valuation(state, data, player, params):
    """The ``stop_value_*`` parameters times what the player holds: markers in his own supply (a
    marker in the general supply counts 0) and on courtiers, gold, intrigue and influence cards,
    crowns, other tokens, and each played mission card's ability for every round still to play."""
    value = state.own_supply[player] * params[STOP_VALUE_OWN_MARKER]
    value += state.markers[:, player].sum() * params[STOP_VALUE_COURTIER_MARKER]
    value += state.gold[player] * params[STOP_VALUE_GOLD]
    value += state.intrigue_hand[player].sum() * params[STOP_VALUE_INTRIGUE_CARD]
    value += state.influence_hand[player].sum() * params[STOP_VALUE_INFLUENCE_CARD]
    crowns = state.tokens[player, C.CROWN]
    value += crowns * params[STOP_VALUE_CROWN]
    value += (state.tokens[player].sum() - crowns) * params[STOP_VALUE_TOKEN]
    rounds_left = data.numbers[ROUNDS] - state.game[ROUND]
    value += state.mission_played[player].sum() * rounds_left * params[STOP_VALUE_MISSION_ABILITY]
    return value


@game_kernel
def greedy_valuation(state, data, player, params):
    """The greedy's valuation of what the player holds: his tokens (a token a mission card in his
    hand needs counts more), gold, intrigue and influence cards, markers on courtiers (a coat
    each) and markers in his own supply."""
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    held = 0.0
    for kind in range(C.N_TOKENS):
        held += state.tokens[player, kind] * token_value_given(kind, needed, params)
    held += state.gold[player] * params[VALUE_GOLD]
    held += state.intrigue_hand[player].sum() * params[VALUE_INTRIGUE_CARD]
    held += state.influence_hand[player].sum() * params[VALUE_INFLUENCE_CARD]
    held += state.markers[:, player].sum() * params[VALUE_COAT]
    held += state.own_supply[player] * params[VALUE_MARKER]
    return held
