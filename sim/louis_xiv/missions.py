"""Phase 4 — Missions (rules §4.5, §6): in seat order each player plays mission cards, paying
two tokens each (a crown replaces any token, "?" takes any token), draws after each card,
may use LB-TOKENSWAP and LB-MISSIONSWAP, and keeps at most one token (the rest become coats)."""
from sim.core.kernels import copy_into, game_kernel, nonzero_indices

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.components import (ability_used, draw_coats, list_card_payments, draw_mission_card, mission_card_under_deck,
                                      return_token, take_token)
from sim.louis_xiv.data import LB_TOKENSWAP_COST, TOKENS_KEPT_AFTER_MISSIONS
from sim.louis_xiv.decisions import OPTION_CARD, OPTION_PAY_1, OPTION_PAY_2
from sim.louis_xiv.rules import MISSION_SWAP_AT_PHASE_END
from sim.louis_xiv.state import (COATS_FROM_TOKEN_CAP, CROWNS_AS_WILDCARD, GOLD_SPENT_TOKENSWAP, N_PLAYERS,
                                 seat_order, trace_event)
from strategies.louis_xiv.decide import (choose_mission_deck, choose_mission_play, choose_mission_swap,
                                  choose_token_swap, choose_token_to_return)


@game_kernel
def missions_phase(state, data, rules, bot_family, bot_params, options):
    copy_into(state.uses_left[:, C.LB_TOKENSWAP], state.ability_count[:, C.LB_TOKENSWAP])
    swap_at_end = rules[MISSION_SWAP_AT_PHASE_END] != 0.0
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        family = bot_family[player]
        params = bot_params[player]
        play_missions(state, data, rules, player, family, params, options)
        if not swap_at_end:
            mission_swaps(state, data, player, family, params)
        token_cap(state, data, rules, player, family, params)
    if swap_at_end:
        for position in range(state.game[N_PLAYERS]):
            player = seat_order(state, position)
            mission_swaps(state, data, player, bot_family[player], bot_params[player])


@game_kernel
def play_missions(state, data, rules, player, family, params, options):
    """§4.5 steps 1-4: play payable cards one at a time, drawing after each, as long as the
    player can and wants; LB-TOKENSWAP at any moment of the turn (Q18)."""
    while True:
        offer_token_swaps(state, data, rules, player, family, params)
        n_options = list_mission_options(state, data, player, options)
        if n_options == 0:
            return
        choice = choose_mission_play(state, data, player, options, n_options, family, params)
        if choice < 0:
            return
        play_mission_card(state, data, player, options[choice], family, params)


@game_kernel
def offer_token_swaps(state, data, rules, player, family, params):
    """LB-TOKENSWAP (§6): pay gold, return one token, take a crown; once per card per phase."""
    cost = data.numbers[LB_TOKENSWAP_COST]
    while state.uses_left[player, C.LB_TOKENSWAP] > 0 and state.gold[player] >= cost:
        held = 0
        for kind in range(1, C.N_TOKENS):
            held += state.tokens[player, kind]
        if held == 0:
            return
        kind = choose_token_swap(state, data, player, family, params)
        if kind < 1 or state.tokens[player, kind] == 0:
            return
        state.gold[player] -= cost
        state.stats[player, GOLD_SPENT_TOKENSWAP] += cost
        state.uses_left[player, C.LB_TOKENSWAP] -= 1
        return_token(state, player, kind)
        take_token(state, rules, player, C.CROWN)
        ability_used(state, player, C.LB_TOKENSWAP, kind)
        trace_event(state, E.TOKEN_SWAP, player, kind, cost, 0, 0, 0, 0)


@game_kernel
def list_mission_options(state, data, player, options):
    """Every (card, payment) the player can afford now (§4.5 step 1); returns the count."""
    n_options = 0
    tokens = state.tokens[player]
    held = 0
    for kind in range(C.N_TOKENS):
        held += tokens[kind]
    if held < 2:
        return 0  # every card costs two tokens: nothing to look through (the common case)
    mission_cost = data.mission_cost
    payments = state.scratch_payments
    in_hand = state.scratch_ints   # the cards in hand, in card order
    n_in_hand = nonzero_indices(state.mission_hand[player, :mission_cost.shape[0]], in_hand)
    for position in range(n_in_hand):
        card = in_hand[position]
        for index in range(list_card_payments(tokens, data, card, payments)):
            if n_options < options.shape[0]:
                options[n_options, OPTION_CARD] = card
                options[n_options, OPTION_PAY_1] = payments[index, 0]
                options[n_options, OPTION_PAY_2] = payments[index, 1]
                n_options += 1
    return n_options


@game_kernel
def play_mission_card(state, data, player, option, family, params):
    card = option[OPTION_CARD]
    for slot in range(2):
        paid = option[OPTION_PAY_1 + slot]
        return_token(state, player, paid)
        if paid == C.CROWN and data.mission_cost[card, slot] != C.CROWN:
            state.stats[player, CROWNS_AS_WILDCARD] += 1
    state.mission_hand[player, card] = 0
    state.mission_played[player, card] = 1
    ability = data.mission_ability[card]
    state.ability_count[player, ability] += 1
    if ability == C.LB_TOKENSWAP:
        state.uses_left[player, C.LB_TOKENSWAP] += 1  # usable immediately after it is played (§6)
    trace_event(state, E.MISSION_PLAYED, player, card, option[OPTION_PAY_1], option[OPTION_PAY_2], ability, 0, 0)
    draws = 2 if ability == C.LB_EXTRA else 1        # LB-EXTRA: draw 2 instead of 1 (§6)
    if ability == C.LB_EXTRA:
        ability_used(state, player, C.LB_EXTRA, 2)
    for _ in range(draws):
        draw_from_chosen_deck(state, data, player, family, params)


@game_kernel
def draw_from_chosen_deck(state, data, player, family, params):
    """§4.5 step 2 (Q15): one card from any non-empty deck, chosen before seeing it."""
    if state.mission_deck_count.sum() == 0:
        return
    colour = choose_mission_deck(state, data, player, family, params)
    card = draw_mission_card(state, player, colour)
    trace_event(state, E.MISSION_DRAWN, player, colour, card, 0, 0, 0, 0)


@game_kernel
def mission_swaps(state, data, player, family, params):
    """LB-MISSIONSWAP (§6): put 1-2 hand cards under their decks, draw as many (once per card)."""
    chosen = state.scratch_ints[:2]
    for _ in range(state.ability_count[player, C.LB_MISSIONSWAP]):
        n_swapped = choose_mission_swap(state, data, player, family, params, chosen)
        if n_swapped == 0:
            continue
        # logged before the draws, which may reuse the scratch space holding the chosen cards
        trace_event(state, E.MISSION_SWAP, player, chosen[0], chosen[1] if n_swapped > 1 else -1, n_swapped,
                    0, 0, 0)
        for slot in range(n_swapped):
            mission_card_under_deck(state, data, player, chosen[slot])
        for _ in range(n_swapped):
            draw_from_chosen_deck(state, data, player, family, params)
        ability_used(state, player, C.LB_MISSIONSWAP, n_swapped)


@game_kernel
def token_cap(state, data, rules, player, family, params):
    """§4.5 step 5: keep at most one token; each one returned gives one random coat."""
    kept = data.numbers[TOKENS_KEPT_AFTER_MISSIONS]
    returned = 0
    while state.tokens[player].sum() > kept:
        kind = choose_token_to_return(state, data, player, family, params)
        return_token(state, player, kind)
        draw_coats(state, rules, player, 1, COATS_FROM_TOKEN_CAP)
        returned += 1
    if returned > 0:
        tokens = state.tokens[player]
        trace_event(state, E.TOKEN_CAP, player, returned, tokens[C.CROWN], tokens[C.SCEPTER], tokens[C.HELMET],
                    tokens[C.RING], tokens[C.DOCUMENT])
