"""Phase 1 — Resources (rules §4.1): gold card and Louis XIV, the three-player compensation,
resources abilities of played mission cards, drawing influence cards."""
from sim.core.kernels import game_kernel

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.components import (ability_used, draw_coats, draw_influence_card, draw_intrigue_card, gain_gold,
                                      retrieve_markers)
from sim.louis_xiv.data import INFLUENCE_HAND
from sim.louis_xiv.decisions import INCOME_GOLD_AND_MARKER, INCOME_TWO_GOLD, ORDER_BITS, ORDER_MASK
from sim.louis_xiv.rules import THREE_PLAYER_COMPENSATION
from sim.louis_xiv.state import (COATS_FROM_MISSIONS, DB_MARKERS3_MARKERS, INCOME_TWO_GOLD_TAKEN, LOUIS_COURTIER,
                                 N_PLAYERS, ROUND, TRACE_ON, seat_order, trace_event)
from strategies.louis_xiv.decide import (choose_income, choose_markers_to_retrieve, choose_resources_order,
                                  use_optional_ability)


@game_kernel
def resources_phase(state, data, rules, bot_family, bot_params):
    reveal_gold_card(state, data, rules)
    three_player_compensation(state, rules)
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        use_resources_abilities(state, data, rules, player, bot_family[player], bot_params[player])
    draw_influence_hands(state, data)


@game_kernel
def reveal_gold_card(state, data, rules):
    """§4.1 step 1: every player takes the card's gold; Louis XIV goes to its courtier."""
    card = state.gold_sequence[state.game[ROUND] - 1]
    amount = data.gold_card_gold[card]
    for player in range(state.game[N_PLAYERS]):
        gain_gold(state, data, rules, player, amount)
    state.game[LOUIS_COURTIER] = data.gold_card_courtier[card]
    trace_event(state, E.GOLD_CARD, card, amount, data.gold_card_courtier[card], 0, 0, 0, 0)


@game_kernel
def three_player_compensation(state, rules):
    """§9 (timing Q23): with 3 players the start player of the last round takes the top intrigue
    card, after the gold card and before the resources abilities."""
    if state.game[N_PLAYERS] != 3 or rules[THREE_PLAYER_COMPENSATION] == 0.0:
        return
    if state.game[ROUND] != state.score_after_round.shape[1]:
        return
    player = seat_order(state, 0)
    card = draw_intrigue_card(state, player)
    trace_event(state, E.COMPENSATION_INTRIGUE, player, card, 0, 0, 0, 0, 0)


@game_kernel
def use_resources_abilities(state, data, rules, player, family, params):
    """§4.1 step 2 / §6: each played card with a resources ability works once per round, in the
    order the player chooses (the rulebook fixes none: DB-CARDFORMARKER's marker, say, can come
    back with LB-MARKER only when DB-CARDFORMARKER goes first)."""
    order = choose_resources_order(state, data, player, family, params)
    for slot in range(len(C.RESOURCES_ABILITIES)):
        ability = (order >> (ORDER_BITS * slot)) & ORDER_MASK
        for _ in range(state.ability_count[player, ability]):
            use_resources_ability(state, data, rules, player, ability, family, params)


@game_kernel
def use_resources_ability(state, data, rules, player, ability, family, params):
    """One card's resources ability (§6)."""
    if ability == C.LB_MARKER:
        if use_optional_ability(state, data, player, C.LB_MARKER, family, params):
            moved = retrieve_markers(state, player, 1)
            ability_used(state, player, C.LB_MARKER, moved)
    elif ability == C.LB_GOLD:
        gain_gold(state, data, rules, player, 1)
        ability_used(state, player, C.LB_GOLD, 1)
    elif ability == C.B_INCOME:
        choice = choose_income(state, data, player, family, params)
        if choice == INCOME_TWO_GOLD:
            gain_gold(state, data, rules, player, 2)
        elif choice == INCOME_GOLD_AND_MARKER:
            gain_gold(state, data, rules, player, 1)
            retrieve_markers(state, player, 1)
        else:
            retrieve_markers(state, player, 2)
        ability_used(state, player, C.B_INCOME, choice)
        state.stats[player, INCOME_TWO_GOLD_TAKEN + choice] += 1    # the choices' counters follow INCOME_* order
    elif ability == C.B_COAT:
        draw_coats(state, rules, player, 1, COATS_FROM_MISSIONS)
        ability_used(state, player, C.B_COAT, 1)
    elif ability == C.DB_MARKERS3:
        count = choose_markers_to_retrieve(state, data, player, 3, family, params)
        moved = retrieve_markers(state, player, count)
        ability_used(state, player, C.DB_MARKERS3, moved)
        state.stats[player, DB_MARKERS3_MARKERS] += moved
    elif ability == C.DB_GOLD3:
        gain_gold(state, data, rules, player, 3)
        ability_used(state, player, C.DB_GOLD3, 3)
    elif ability == C.DB_INTRIGUE:
        if use_optional_ability(state, data, player, C.DB_INTRIGUE, family, params):
            card = draw_intrigue_card(state, player)
            ability_used(state, player, C.DB_INTRIGUE, card)
    elif ability == C.DB_CARDFORMARKER:
        # one own marker own -> general supply buys the top influence card (an extra turn)
        if state.own_supply[player] > 0 and use_optional_ability(state, data, player, C.DB_CARDFORMARKER, family, params):
            state.own_supply[player] -= 1
            state.general_supply[player] += 1
            card = draw_influence_card(state, player)
            ability_used(state, player, C.DB_CARDFORMARKER, card)


@game_kernel
def draw_influence_hands(state, data):
    """§4.1 step 3: each player draws the hand size in seat order from the start player (Q22)."""
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        for _ in range(data.numbers[INFLUENCE_HAND]):
            draw_influence_card(state, player)
        trace_event(state, E.INFLUENCE_DRAWN, player, state.influence_hand[player].sum(), 0, 0, 0, 0, 0)
        if state.game[TRACE_ON] != 0:
            trace_influence_hand(state, player)


@game_kernel
def trace_influence_hand(state, player):
    """Replay mode only: the cards of ``player``'s influence hand, one event per kind held."""
    for kind in range(C.N_INFLUENCE_KINDS):
        if state.influence_hand[player, kind] > 0:
            trace_event(state, E.INFLUENCE_HAND, player, kind, state.influence_hand[player, kind], 0, 0, 0, 0)
