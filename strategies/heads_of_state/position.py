"""The Heads of State search bot's value of a position (strategies/heads_of_state/search.py,
module docstring: "How far a rollout plays"), in points for every seat: its score plus what it
would take if the round ended now and what it holds that will score.

It lives apart from search.py so that the game loop can record it (the opt-in ``standings``
table, sim/heads_of_state/standings.py) without importing the search, which imports the game
loop: one evaluation, used by both.
"""
from sim.core.kernels import game_kernel
from sim.heads_of_state.events import W_HEX_KEY, W_INFLUENCE, W_TOP_RANK
from sim.heads_of_state.scoring import country_influence_as_ruled, noble_majority, ranks_before
from sim.heads_of_state.state import (KNOWN_COUNTRY_0, KNOWN_MAJORITY_0, N_COUNTRIES, N_RANKS, N_ROUNDS,
                                      S_FIRST_PLACE_0, S_KEPT_KNOWN, S_MAJORITY_MOST_0, S_MAJORITY_POINTS_0,
                                      S_N_PLAYERS, S_ROUND, S_SECOND_PLACE_0)
from strategies.heads_of_state.greedy import hand_size
from strategies.heads_of_state.parameters import P_FUTURE_ROUNDS_WEIGHT, P_HELD_CARD_VALUE


@game_kernel
def position_values(state, data, context, params, values):
    """values[q] = score + influence points if the round ended now (x (1 + future_rounds_weight x
    later rounds)) + noble-card majority points of the cards held now + held_card_value x
    character cards in hand (module docstring), with the searching bot's parameters ``params``.
    Each seat's value is summed in locals, country by country then rank by rank (the order of its
    additions is the value's definition, to the bit): a store into ``values`` inside the loops
    would make the compiled code read the state's arrays again after each one."""
    n_players = state.scal[S_N_PLAYERS]
    later_rounds = N_ROUNDS - 1 - state.scal[S_ROUND]
    influence_weight = 1.0 + params[P_FUTURE_ROUNDS_WEIGHT] * later_rounds
    keep_country_places(state, data, context)
    keep_majorities(state, data)
    for q in range(n_players):
        value = state.score[q] + params[P_HELD_CARD_VALUE] * hand_size(state.hand, q)
        value = plus_influence_places(state, data, q, value, influence_weight)
        values[q] = plus_majorities(state, q, value)


@game_kernel
def plus_influence_places(state, data, q, value, weight):
    """``value`` + weight x the round tokens (§6.4) seat q would take if the round ended now
    (residual ties, which the real scoring draws, go to the lower seat), country by country. A
    place seat q does not hold adds exactly 0.0 (its token times 0): no branch to mispredict."""
    for c in range(N_COUNTRIES):
        value += weight * (data.round_tokens[c, 0] * (state.scal[S_FIRST_PLACE_0 + c] == q))
        value += weight * (data.round_tokens[c, 1] * (state.scal[S_SECOND_PLACE_0 + c] == q))
    return value


@game_kernel
def plus_majorities(state, q, value):
    """``value`` + the §6.5 noble-card majority points of the cards seat q holds now, rank by rank
    (a rank it does not score adds exactly 0.0, without a branch)."""
    for r in range(N_RANKS):
        most = state.scal[S_MAJORITY_MOST_0 + r]
        value += state.scal[S_MAJORITY_POINTS_0 + r] * (most != 0 and state.cards[q, r] == most)
    return value


@game_kernel
def keep_country_places(state, data, context):
    """Work out again the places of every country a raise or a kill has changed since."""
    for c in range(N_COUNTRIES):
        country_places(state, data, context, c)


@game_kernel
def country_places(state, data, context, c):
    """(first, second): the seats that would take country ``c``'s round tokens if the round ended
    now (-1 none), kept in the state until a noble is raised or killed there
    (state.forget_country_places): the board is all they depend on."""
    bit = 1 << (KNOWN_COUNTRY_0 + c)
    if state.scal[S_KEPT_KNOWN] & bit == 0:
        first, second = ranked_places(state, data, context, c)
        state.scal[S_FIRST_PLACE_0 + c] = first
        state.scal[S_SECOND_PLACE_0 + c] = second
        state.scal[S_KEPT_KNOWN] |= bit
    return state.scal[S_FIRST_PLACE_0 + c], state.scal[S_SECOND_PLACE_0 + c]


@game_kernel
def ranked_places(state, data, context, c):
    """§6.4 steps 1 and 3 for country ``c`` without the residual draw: the first and second seats
    by influence, highest rank and hexagon key, residual ties to the lower seat."""
    n_players = state.scal[S_N_PLAYERS]
    infl = context.work[W_INFLUENCE]
    top_rank = context.work[W_TOP_RANK]
    hex_key = context.work[W_HEX_KEY]
    country_influence_as_ruled(state, data, context, c)
    first = -1
    second = -1
    for q in range(n_players):
        if infl[q] <= 0:
            continue
        if first < 0 or ranks_before(infl, top_rank, hex_key, q, first):
            second = first
            first = q
        elif second < 0 or ranks_before(infl, top_rank, hex_key, q, second):
            second = q
    return first, second


@game_kernel
def keep_majorities(state, data):
    """Work out again the §6.5 majority of every rank whose noble cards were taken since, into the
    state (S_MAJORITY_MOST_0 + rank, S_MAJORITY_POINTS_0 + rank)."""
    for r in range(N_RANKS):
        bit = 1 << (KNOWN_MAJORITY_0 + r)
        if state.scal[S_KEPT_KNOWN] & bit == 0:
            most, points = noble_majority(state, data, r)
            state.scal[S_MAJORITY_MOST_0 + r] = most
            state.scal[S_MAJORITY_POINTS_0 + r] = points
            state.scal[S_KEPT_KNOWN] |= bit
