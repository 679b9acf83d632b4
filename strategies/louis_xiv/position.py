"""The Louis XIV search bot's value of a position (strategies/louis_xiv/search.py, module
docstring: "How far a rollout plays"), in points: a seat's standing plus the worth of what it holds.

It lives apart from search.py so that the game loop can record it (the opt-in ``standings``
table, sim/louis_xiv/standings.py) without importing the search, which imports the game loop:
one evaluation, used by both.
"""
from sim.core.kernels import game_kernel, inline_game_kernel
from sim.louis_xiv import constants as C
from sim.louis_xiv.data import ROUNDS
from sim.louis_xiv.state import ROUND, missions_completed, provisional_score_given
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
    missions = missions_completed(state, player)
    score = provisional_score_given(state, data, player, missions)
    return position_value_given_score(state, data, player, params, score, missions)


@game_kernel
def position_value_given_score(state, data, player, params, score, missions):
    """``position_value`` of a player whose standing ``score`` and completed ``missions`` are
    already counted (the standings table records the standing too). What he holds is counted
    once for both valuations."""
    markers_on_courtiers, intrigue_cards, influence_cards = held_cards_and_markers(state, player)
    standing_and_stop = score + stop_valuation(state, data, player, params, missions, markers_on_courtiers,
                                               intrigue_cards, influence_cards)
    held_weight = params[HELD_WEIGHT]
    if held_weight == 0.0:
        # the default (and the standings table's): 0 x the finite greedy valuation is +-0.0,
        # and adding +-0.0 leaves any sum but -0.0 as it is (this one starts from an integer
        # standing, never -0.0): the same number without the valuation, the costlier half (a
        # walk of the mission hand); tests/louis_xiv/test_position_value.py checks it
        return standing_and_stop
    return standing_and_stop + held_weight * greedy_valuation(state, data, player, params, markers_on_courtiers,
                                                              intrigue_cards, influence_cards)


@inline_game_kernel
def held_cards_and_markers(state, player):
    """(markers on courtiers, intrigue cards, influence cards) of the player: explicit loops,
    cheaper than summing array slices (the standings table values a position after every turn)."""
    markers_on_courtiers = 0
    intrigue_cards = 0
    for courtier in range(C.N_COURTIERS):
        markers_on_courtiers += state.markers[courtier, player]
        intrigue_cards += state.intrigue_hand[player, courtier]
    influence_cards = 0
    for kind in range(C.N_INFLUENCE_KINDS):
        influence_cards += state.influence_hand[player, kind]
    return markers_on_courtiers, intrigue_cards, influence_cards


@inline_game_kernel
def stop_valuation(state, data, player, params, missions, markers_on_courtiers, intrigue_cards, influence_cards):
    """The ``stop_value_*`` parameters times what the player holds: markers in his own supply (a
    marker in the general supply counts 0) and on courtiers, gold, intrigue and influence cards,
    crowns, other tokens, and each played mission card's ability for every round still to play."""
    value = state.own_supply[player] * params[STOP_VALUE_OWN_MARKER]
    value += markers_on_courtiers * params[STOP_VALUE_COURTIER_MARKER]
    value += state.gold[player] * params[STOP_VALUE_GOLD]
    value += intrigue_cards * params[STOP_VALUE_INTRIGUE_CARD]
    value += influence_cards * params[STOP_VALUE_INFLUENCE_CARD]
    crowns = state.tokens[player, C.CROWN]
    value += crowns * params[STOP_VALUE_CROWN]
    tokens = 0
    for kind in range(C.N_TOKENS):
        tokens += state.tokens[player, kind]
    value += (tokens - crowns) * params[STOP_VALUE_TOKEN]
    rounds_left = data.numbers[ROUNDS] - state.game[ROUND]
    value += missions * rounds_left * params[STOP_VALUE_MISSION_ABILITY]
    return value


@inline_game_kernel
def greedy_valuation(state, data, player, params, markers_on_courtiers, intrigue_cards, influence_cards):
    """The greedy's valuation of what the player holds: his tokens (a token a mission card in his
    hand needs counts more), gold, intrigue and influence cards, markers on courtiers (a coat
    each) and markers in his own supply."""
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    held = 0.0
    for kind in range(C.N_TOKENS):
        held += state.tokens[player, kind] * token_value_given(kind, needed, params)
    held += state.gold[player] * params[VALUE_GOLD]
    held += intrigue_cards * params[VALUE_INTRIGUE_CARD]
    held += influence_cards * params[VALUE_INFLUENCE_CARD]
    held += markers_on_courtiers * params[VALUE_COAT]
    held += state.own_supply[player] * params[VALUE_MARKER]
    return held
