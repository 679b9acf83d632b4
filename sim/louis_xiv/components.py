"""Moving components between supplies: tokens, coats, gold, markers, cards.

Supplies that run out (rules Q14/A7): by default an unlimited virtual supply replaces them and
an ``exhausted_*`` counter records it; with the ``strict_supplies`` switch the item is lost.
"""
from sim.core.kernels import game_kernel

from sim.core.random_streams import below, pick_by_counts
from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.data import BANK_GOLD
from sim.louis_xiv.rules import STRICT_SUPPLIES
from sim.louis_xiv.state import (EXHAUSTED_COATS, EXHAUSTED_GOLD, EXHAUSTED_TOKENS, INFLUENCE_POSITION,
                                 INTRIGUE_COUNT, INTRIGUE_HEAD, INTRIGUE_OBTAINED, N_PLAYERS, TOKENS_GAINED,
                                 trace_event)


@game_kernel
def take_token(state, rules, player, kind):
    """A mission token from its pile (§1.4); returns 1 if the player got it."""
    if state.token_pile[kind] > 0:
        state.token_pile[kind] -= 1
    else:
        state.game[EXHAUSTED_TOKENS] += 1
        trace_event(state, E.EXHAUSTED, 0, kind, player, 0, 0, 0, 0)
        if rules[STRICT_SUPPLIES] != 0.0:
            return 0
    state.tokens[player, kind] += 1
    state.stats[player, TOKENS_GAINED] += 1
    return 1


@game_kernel
def return_token(state, player, kind):
    state.tokens[player, kind] -= 1
    state.token_pile[kind] += 1


@game_kernel
def draw_coats(state, rules, player, count, stat):
    """``count`` coats of arms drawn face down at random (§5); counted under ``stat``."""
    got = 0
    for _ in range(count):
        kind = pick_by_counts(state.streams, C.SOURCE_COATS, state.coat_pile)
        if kind >= 0:
            state.coat_pile[kind] -= 1
        else:
            state.game[EXHAUSTED_COATS] += 1
            trace_event(state, E.EXHAUSTED, 1, 0, player, 0, 0, 0, 0)
            if rules[STRICT_SUPPLIES] != 0.0:
                continue
            kind = below(state.streams, C.SOURCE_COATS, state.coat_pile.shape[0])
        state.coats[player, kind] += 1
        state.stats[player, stat] += 1
        trace_event(state, E.COAT_DRAWN, player, kind, stat, 0, 0, 0, 0)
        got += 1
    return got


@game_kernel
def bank_gold(state, data):
    """Gold left in the bank: the total minus what players hold (gold only moves bank <-> players)."""
    held = 0
    for player in range(state.game[N_PLAYERS]):
        held += state.gold[player]
    return data.numbers[BANK_GOLD] - held


@game_kernel
def gain_gold(state, data, rules, player, amount):
    available = bank_gold(state, data)
    if available < amount:
        state.game[EXHAUSTED_GOLD] += 1
        trace_event(state, E.EXHAUSTED, 2, amount, player, 0, 0, 0, 0)
        if rules[STRICT_SUPPLIES] != 0.0:
            amount = max(0, available)
    state.gold[player] += amount


@game_kernel
def retrieve_markers(state, player, count):
    """Move up to ``count`` own markers general -> own supply; returns how many moved."""
    moved = min(count, state.general_supply[player])
    state.general_supply[player] -= moved
    state.own_supply[player] += moved
    return moved


@game_kernel
def place_from_general(state, player, courtier, count):
    """Markers from the general supply onto a courtier; when the general supply is short the
    player may use his own supply instead (§6 general remark). Returns how many were placed."""
    placed = 0
    for _ in range(count):
        if state.general_supply[player] > 0:
            state.general_supply[player] -= 1
        elif state.own_supply[player] > 0:
            state.own_supply[player] -= 1
        else:
            break
        state.markers[courtier, player] += 1
        placed += 1
    return placed


@game_kernel
def draw_influence_card(state, player):
    """Top card of the influence deck into the hand; -1 if the deck is empty (Q15)."""
    position = state.game[INFLUENCE_POSITION]
    if position >= state.influence_deck.shape[0]:
        return -1
    card = state.influence_deck[position]
    state.game[INFLUENCE_POSITION] = position + 1
    state.influence_hand[player, card] += 1
    return card


@game_kernel
def draw_intrigue_card(state, player):
    """Top intrigue card into the hand; -1 if the deck is empty (Q15)."""
    if state.game[INTRIGUE_COUNT] == 0:
        return -1
    head = state.game[INTRIGUE_HEAD]
    card = state.intrigue_deck[head]
    state.game[INTRIGUE_HEAD] = (head + 1) % state.intrigue_deck.shape[0]
    state.game[INTRIGUE_COUNT] -= 1
    state.intrigue_hand[player, card] += 1
    state.stats[player, INTRIGUE_OBTAINED] += 1
    return card


@game_kernel
def intrigue_card_under_deck(state, courtier):
    capacity = state.intrigue_deck.shape[0]
    bottom = (state.game[INTRIGUE_HEAD] + state.game[INTRIGUE_COUNT]) % capacity
    state.intrigue_deck[bottom] = courtier
    state.game[INTRIGUE_COUNT] += 1


@game_kernel
def draw_mission_card(state, player, colour):
    """Top card of one mission deck into the hand; -1 if that deck is empty."""
    if state.mission_deck_count[colour] == 0:
        return -1
    head = state.mission_deck_head[colour]
    card = state.mission_deck[colour, head]
    state.mission_deck_head[colour] = (head + 1) % state.mission_deck.shape[1]
    state.mission_deck_count[colour] -= 1
    state.mission_hand[player, card] = 1
    return card


@game_kernel
def mission_card_under_deck(state, data, player, card):
    colour = data.mission_colour[card]
    capacity = state.mission_deck.shape[1]
    bottom = (state.mission_deck_head[colour] + state.mission_deck_count[colour]) % capacity
    state.mission_deck[colour, bottom] = card
    state.mission_deck_count[colour] += 1
    state.mission_hand[player, card] = 0


@game_kernel
def markers_on_courtiers(state, player):
    return state.markers[:, player].sum()


@game_kernel
def owns(state, player, ability):
    return state.ability_count[player, ability] > 0


@game_kernel
def ability_used(state, player, ability, detail):
    """Count one use of a mission ability (seats table) and log it."""
    state.ability_uses[player, ability] += 1
    trace_event(state, E.ABILITY_USED, player, ability, detail, 0, 0, 0, 0)


@game_kernel
def list_card_payments(tokens, data, card, payments):
    """The ways to pay ``card`` with ``tokens`` (§4.5 step 1): rows (token for the first cost,
    token for the second) into ``payments``, each multiset of tokens once; returns the count.
    They are the card's ways to pay with tokens enough (``data.mission_payments``, listed in
    this order once at load time, data.card_payments) that the tokens held allow, picked
    without a branch."""
    candidates = data.mission_payments[card]
    count = 0
    for index in range(data.mission_payment_count[card]):
        pay_1 = candidates[index, 0]
        pay_2 = candidates[index, 1]
        payments[count, 0] = pay_1
        payments[count, 1] = pay_2
        held = (tokens[pay_1] >= 1) & (tokens[pay_2] >= (2 if pay_1 == pay_2 else 1))
        count += 1 if held else 0
    return count
