"""Phase 3 — Evaluation (rules §4.3): courtiers 1..12 in order; for each, intrigue cards,
DB-ONCEFIRST, the mode of the face-up side (gold / first place / threshold) or the Louis XIV
rule, gifts (§5) and bribes, where every marker goes, and flipping.

Each evaluation also writes one row of the courtiers table (``tables.C_*``), holding every
input and outcome so analysts can re-derive it.
"""
from sim.core.kernels import copy_into, game_kernel, inline_game_kernel

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv import tables as R
from sim.louis_xiv.components import (ability_used, draw_coats, draw_influence_card, draw_intrigue_card,
                                      gain_gold, intrigue_card_under_deck, place_from_general,
                                      retrieve_markers, take_token)
from sim.louis_xiv.data import BRIBE_DISCOUNT, ROUNDS
from sim.louis_xiv.decisions import INTRIGUE_NONE, INTRIGUE_ONE_FROM_GENERAL, INTRIGUE_ONE_FROM_OWN, PURPOSE_CONDE
from sim.louis_xiv.rules import (CONDE_ANY_COURTIER, CONDE_LATER_COURTIERS, CONDE_NOT_HIS_OWN, CONDE_TARGETS,
                                 DISCOUNTED_BRIBE_COSTS_AT_LEAST_ONE, IMAGINARY_PLAYER_TAKES_LOUIS_CROWN,
                                 IMAGINARY_PLAYER_TIES, IMAGINARY_SOLE_TOP_FLIPS, IMAGINARY_TIES_LOSE,
                                 INTRIGUE_NEEDS_OWN_MARKER, INTRIGUE_USABLE_SAME_PHASE, LOUIS_EMPTY_TILE_FLIPS,
                                 MAINTENON_MARKERS_MANDATORY, MARKERS_ADDED_DURING_EVALUATION_STAY,
                                 ONCE_FIRST_PARTNER_IS_SECOND, TIED_SECOND_EACH_GETS_GIFT, TIED_SECOND_NO_BRIBE,
                                 TIED_SECOND_UNDER_LOUIS)
from sim.louis_xiv.state import (BRIBE_GOLD, BRIBES, COATS_FROM_GIFTS, CROWNS_FROM_LOUIS, GAME_INDEX,
                                 GIFTS_RECEIVED, IMAGINARY_ACTIVE, INTRIGUE_PLAYED, LOUIS_COURTIER,
                                 MAINTENON_MARKERS_PLACED, N_PLAYERS, ROUND, seat_order, trace_event)
from strategies.louis_xiv.decide import (choose_bribe, choose_courtier_for_marker, choose_courtier_for_marker_among,
                                  choose_intrigue, choose_maintenon_count, choose_once_first)

CASE_NONE, CASE_A, CASE_B, CASE_C, CASE_D, CASE_E = range(6)


@game_kernel
def evaluation_phase(state, data, rules, bot_family, bot_params, courtier_rows, first_row):
    """Evaluate courtiers 1..12 in order; returns the number of rows written."""
    # DB-ONCEFIRST works once per evaluation phase (§6)
    copy_into(state.uses_left[:, C.DB_ONCEFIRST], state.ability_count[:, C.DB_ONCEFIRST])
    for courtier in range(C.N_COURTIERS):
        evaluate_courtier(state, data, rules, courtier, bot_family, bot_params, courtier_rows[first_row + courtier])
    # Q24 (switch intrigue_usable_same_phase off): cards gained in this phase are playable from the next
    if rules[INTRIGUE_USABLE_SAME_PHASE] == 0.0:
        state.intrigue_waiting[:, :] = 0
    return C.N_COURTIERS


@game_kernel
def evaluate_courtier(state, data, rules, courtier, bot_family, bot_params, row):
    """One courtier (§4.3 steps 1-6), written to its courtiers-table ``row``."""
    counts = state.scratch_counts
    n_players = state.game[N_PLAYERS]
    side = state.side[courtier]
    mode = data.courtier_mode[courtier, side]
    value = data.courtier_value[courtier, side]
    louis = state.game[LOUIS_COURTIER] == courtier
    row[:] = 0
    row[R.C_GAME_INDEX] = state.game[GAME_INDEX]
    row[R.C_ROUND] = state.game[ROUND]
    row[R.C_COURTIER] = courtier + 1
    row[R.C_SIDE] = side
    row[R.C_MODE] = mode
    row[R.C_VALUE] = value
    row[R.C_LOUIS] = 1 if louis else 0
    row[R.C_INTRIGUE_SEAT] = -1
    row[R.C_ONCE_FIRST_SEAT] = -1
    row[R.C_TOP_SEAT] = -1
    row[R.C_CROWN_SEAT] = -1
    row[R.C_SECOND_SEAT] = -1

    if state.intrigue_hand[:, courtier].sum() > 0:
        play_intrigue_cards(state, data, rules, courtier, bot_family, bot_params, row)
    # step 3: the markers present now are the ones evaluated and moved off (Q11)
    copy_into(counts, state.markers[courtier])
    if state.game[IMAGINARY_ACTIVE] == 0:
        counts[C.IMAGINARY] = 0
    for colour in range(C.MAX_PLAYERS):
        row[R.C_MARKERS + colour] = counts[colour] if colour < n_players else -1
    row[R.C_MARKERS + C.IMAGINARY] = counts[C.IMAGINARY]
    # §8/Q19 (switch imaginary_player_takes_louis_crown off): on Louis XIV's courtier the
    # imaginary player is left out of the ranking; its markers still go back to its pool
    imaginary_markers = counts[C.IMAGINARY]
    if louis and rules[IMAGINARY_PLAYER_TAKES_LOUIS_CROWN] == 0.0:
        counts[C.IMAGINARY] = 0

    top_count, n_at_top, top = most_markers(counts)
    # Q19 (switch imaginary_player_ties: lose): a real player tied for most with the imaginary
    # player is the sole top holder (most_markers names the first colour at the top, and the
    # imaginary player's is the last)
    if n_at_top > 1 and counts[C.IMAGINARY] == top_count and rules[IMAGINARY_PLAYER_TIES] == IMAGINARY_TIES_LOSE:
        n_at_top -= 1
    row[R.C_EMPTY] = 1 if top_count == 0 else 0
    row[R.C_MAJORITY_TIE] = 1 if n_at_top > 1 else 0
    # a tie decides who gets the gift (or first place, or Louis XIV's crown) except on a
    # threshold side without Louis XIV, where every qualifying player receives it (§4.3.3)
    decisive_tie = n_at_top > 1 and (louis or mode != C.THRESHOLD_MODE)
    row[R.C_MAJORITY_TIE_DECIDED] = 1 if decisive_tie else 0
    if n_at_top != 1:
        top = -1
    once_first = -1
    if decisive_tie:
        once_first = offer_once_first(state, data, courtier, counts, top_count, bot_family, bot_params)
        if once_first >= 0:
            top = once_first
            row[R.C_ONCE_FIRST_SEAT] = once_first
    row[R.C_TOP_SEAT] = top

    # who receives what, and who may bribe (bitmasks over seats)
    free_mask = 0
    to_general_mask = 0
    second = -1
    crown = -1
    no_bribe_mask = 0
    bribers_allowed = mode == C.GOLD_MODE
    flip = False
    if louis:
        case, crown, second, free_mask, to_general_mask, tied_seconds = louis_rule(
            counts, top, top_count, once_first, n_players, rules[ONCE_FIRST_PARTNER_IS_SECOND] != 0.0)
        if tied_seconds != 0 and mode == C.GOLD_MODE:
            # Q3, gold side, two or more tied for second: by default they may bribe; the switch
            # tied_second_under_louis serves them free (each_gets_gift) or bars them (no_bribe)
            if rules[TIED_SECOND_UNDER_LOUIS] == TIED_SECOND_EACH_GETS_GIFT:
                free_mask |= tied_seconds
            elif rules[TIED_SECOND_UNDER_LOUIS] == TIED_SECOND_NO_BRIBE:
                no_bribe_mask = tied_seconds
        row[R.C_LOUIS_CASE] = case
        flip = case != CASE_E or rules[LOUIS_EMPTY_TILE_FLIPS] != 0.0
    elif mode == C.THRESHOLD_MODE:
        # §4.3.3: everyone with at least the threshold, in seat order; all markers to own supply
        bribers_allowed = False
        for position in range(n_players):
            player = seat_order(state, position)
            if counts[player] > 0 and counts[player] >= value:
                free_mask |= 1 << player
        flip = free_mask != 0
    elif top >= 0:
        # §4.3.1 / §4.3.2: a single top holder wins the gift (the imaginary player gets nothing;
        # Q19: the courtier flips all the same unless the switch imaginary_sole_top_flips is off)
        if top < C.MAX_PLAYERS:
            free_mask = 1 << top
            to_general_mask = 1 << top
        flip = top < C.MAX_PLAYERS or rules[IMAGINARY_SOLE_TOP_FLIPS] != 0.0
    counts[C.IMAGINARY] = imaginary_markers
    row[R.C_CROWN_SEAT] = crown
    row[R.C_SECOND_SEAT] = second
    row[R.C_FREE_MASK] = free_mask
    row[R.C_TO_GENERAL_MASK] = to_general_mask

    trace_event(state, E.MARKER_COUNTS, courtier, counts[0], counts[1], counts[2], counts[3], counts[C.IMAGINARY], 0)
    trace_event(state, E.EVALUATION, courtier, mode, 1 if louis else 0, top, free_mask, row[R.C_LOUIS_CASE], second)
    hand_out_gifts(state, data, rules, courtier, crown, second, free_mask, bot_family, bot_params)
    if bribers_allowed:
        offer_bribes(state, data, rules, courtier, counts, value, free_mask | no_bribe_mask, second, bot_family,
                     bot_params, row)
    if rules[MARKERS_ADDED_DURING_EVALUATION_STAY] == 0.0:
        # Q11 (switch off): markers gifts put here during this evaluation leave with the others
        copy_into(counts, state.markers[courtier])
        if state.game[IMAGINARY_ACTIVE] == 0:
            counts[C.IMAGINARY] = 0
    return_markers(state, courtier, counts, to_general_mask, n_players)
    if flip and state.game[ROUND] < data.numbers[ROUNDS]:
        state.side[courtier] = 1 - side
        row[R.C_FLIPPED] = 1
        trace_event(state, E.FLIP, courtier, 1 - side, 0, 0, 0, 0, 0)
    if louis:
        state.game[LOUIS_COURTIER] = -1  # step 6: Louis XIV returns to the bank


@inline_game_kernel
def most_markers(counts):
    """(the most markers of one colour, how many colours have that many, the first of them);
    (0, 0, -1) on an empty courtier. Counted and picked without branches: which colour leads
    is no pattern a branch predictor could learn."""
    top_count = 0
    for colour in range(C.N_COLOURS):
        top_count = max(top_count, counts[colour])
    n_at_top = 0
    top = -1
    for colour in range(C.N_COLOURS - 1, -1, -1):
        at_top = counts[colour] == top_count
        n_at_top += 1 if at_top else 0
        top = colour if at_top else top
    if top_count == 0:
        return 0, 0, -1
    return top_count, n_at_top, top


@game_kernel
def play_intrigue_cards(state, data, rules, courtier, bot_family, bot_params, row):
    """§4.3 step 1: the holder of this courtier's intrigue card may play it: 1 marker from the
    general supply, or 1-2 from the own supply, onto the courtier; the card goes under the deck.
    Q5 (switch intrigue_needs_own_marker): only where the holder has a marker; Q24 (switch
    intrigue_usable_same_phase off): not a card gained in this evaluation phase."""
    needs_marker = rules[INTRIGUE_NEEDS_OWN_MARKER] != 0.0
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        if needs_marker and state.markers[courtier, player] == 0:
            continue
        while state.intrigue_hand[player, courtier] - state.intrigue_waiting[player, courtier] > 0:
            option = choose_intrigue(state, data, player, courtier, bot_family[player], bot_params[player])
            if option == INTRIGUE_NONE:
                break
            if option == INTRIGUE_ONE_FROM_GENERAL:
                added = min(1, state.general_supply[player])
                state.general_supply[player] -= added
                row[R.C_INTRIGUE_FROM_GENERAL] = 1
            else:
                added = min(1 if option == INTRIGUE_ONE_FROM_OWN else 2, state.own_supply[player])
                state.own_supply[player] -= added
            state.markers[courtier, player] += added
            state.intrigue_hand[player, courtier] -= 1
            intrigue_card_under_deck(state, courtier)
            state.stats[player, INTRIGUE_PLAYED] += 1
            row[R.C_INTRIGUE_SEAT] = player
            row[R.C_INTRIGUE_MARKERS] += added
            trace_event(state, E.INTRIGUE_PLAYED, player, courtier, option, added, 0, 0, 0)


@game_kernel
def offer_once_first(state, data, courtier, counts, top_count, bot_family, bot_params):
    """§4.3 step 2 / §6 DB-ONCEFIRST: a player tied for most may become the sole top holder
    (once per evaluation phase). Returns the seat that used it, or -1."""
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        if state.uses_left[player, C.DB_ONCEFIRST] > 0 and counts[player] == top_count:
            if choose_once_first(state, data, player, courtier, bot_family[player], bot_params[player]):
                state.uses_left[player, C.DB_ONCEFIRST] -= 1
                ability_used(state, player, C.DB_ONCEFIRST, courtier)
                trace_event(state, E.ONCE_FIRST, player, courtier, 0, 0, 0, 0, 0)
                return player
    return -1


@game_kernel
def louis_rule(counts, top, top_count, once_first, n_players, once_first_partner_second):
    """§4.3.4, cases A-E, with Q4 (DB-ONCEFIRST: the other tied players are the second group,
    or with ``once_first_partner_second`` off get nothing) and Q19 (the imaginary player counts
    for majorities but receives nothing).
    Returns (case, crown seat, second-place seat, free-gift mask, to-general mask, the real
    players tied for second in case B (a mask, Q3))."""
    if top_count == 0:
        return CASE_E, -1, -1, 0, 0, 0
    if top < 0:
        # D: each tied (real) player gets the gift, no crown; their markers go to the general supply
        mask = 0
        for player in range(n_players):
            if counts[player] == top_count:
                mask |= 1 << player
        return CASE_D, -1, -1, mask, mask, 0
    crown = top if top < C.MAX_PLAYERS else -1
    free_mask = (1 << top) if top < C.MAX_PLAYERS else 0
    if once_first >= 0 and not once_first_partner_second:
        return CASE_B, crown, -1, free_mask, free_mask, 0
    if once_first >= 0:
        second_count = top_count
    else:
        second_count = 0
        for colour in range(C.N_COLOURS):
            if counts[colour] < top_count and counts[colour] > second_count:
                second_count = counts[colour]
    n_second = 0
    second = -1
    seconds_mask = 0
    if second_count > 0:
        for colour in range(C.N_COLOURS):
            if colour != top and counts[colour] == second_count:
                n_second += 1
                second = colour
                seconds_mask |= (1 << colour) if colour < C.MAX_PLAYERS else 0
    if n_second == 0:
        return CASE_C, crown, -1, free_mask, free_mask, 0
    if n_second == 1:
        if second < C.MAX_PLAYERS:
            return CASE_A, crown, second, free_mask, free_mask, 0
        return CASE_A, crown, -1, free_mask, free_mask, 0
    return CASE_B, crown, -1, free_mask, free_mask, seconds_mask


@game_kernel
def hand_out_gifts(state, data, rules, courtier, crown, second, free_mask, bot_family, bot_params):
    """Gift order (§4.3 general rules): the free recipients in seat order from the start player
    (the crown with the top holder's gift), then the second place under Louis XIV."""
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        if free_mask & (1 << player):
            if player == crown:
                trace_event(state, E.LOUIS_CROWN, player, courtier, 0, 0, 0, 0, 0)
                take_token(state, rules, player, C.CROWN)
                state.stats[player, CROWNS_FROM_LOUIS] += 1
            apply_gift(state, data, rules, player, courtier, bot_family[player], bot_params[player])
    if second >= 0:
        apply_gift(state, data, rules, second, courtier, bot_family[second], bot_params[second])


@game_kernel
def bribe_cost(state, data, rules, player, value):
    """The printed bribe minus DB-BRIBE-1's discount (Q13: never below zero, or with the switch
    discounted_bribe_costs_at_least_one never below 1 gold where the printed cost is not 0)."""
    if state.ability_count[player, C.DB_BRIBE_1] > 0:
        lowest = min(1, value) if rules[DISCOUNTED_BRIBE_COSTS_AT_LEAST_ONE] != 0.0 else 0
        return max(lowest, value - data.numbers[BRIBE_DISCOUNT])
    return value


@game_kernel
def offer_bribes(state, data, rules, courtier, counts, value, free_mask, second, bot_family, bot_params, row):
    """§4.3.1: on a gold side, every player with at least one marker there who did not already
    receive the gift may pay the bribe, in seat order from the start player (later players see
    earlier choices); a player gets each gift at most once per round."""
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        if counts[player] == 0 or free_mask & (1 << player) or player == second:
            continue
        cost = bribe_cost(state, data, rules, player, value)
        if state.gold[player] < cost:
            continue
        if not choose_bribe(state, data, player, courtier, cost, bot_family[player], bot_params[player]):
            continue
        state.gold[player] -= cost
        state.stats[player, BRIBES] += 1
        state.stats[player, BRIBE_GOLD] += cost
        row[R.C_BRIBE_MASK] |= 1 << player
        row[R.C_BRIBE_GOLD] += cost
        if cost < value:
            ability_used(state, player, C.DB_BRIBE_1, value - cost)
        trace_event(state, E.BRIBE, player, courtier, cost, 0, 0, 0, 0)
        apply_gift(state, data, rules, player, courtier, bot_family[player], bot_params[player])


@game_kernel
def apply_gift(state, data, rules, player, courtier, family, params):
    """§5: a courtier's gift, as described by the game data (token, coats, gold, cards,
    markers placed by Condé / Maintenon, markers retrieved)."""
    state.stats[player, GIFTS_RECEIVED] += 1
    # what the gift holds by the game data (Condé's and Maintenon's markers get lines of their own)
    trace_event(state, E.GIFT, player, courtier, data.gift_token[courtier], data.gift_coats[courtier],
                data.gift_gold[courtier], data.gift_influence_cards[courtier], data.gift_intrigue_cards[courtier])
    if data.gift_token[courtier] >= 0:
        take_token(state, rules, player, data.gift_token[courtier])
    if data.gift_coats[courtier] > 0:
        draw_coats(state, rules, player, data.gift_coats[courtier], COATS_FROM_GIFTS)
    if data.gift_gold[courtier] > 0:
        gain_gold(state, data, rules, player, data.gift_gold[courtier])
    for _ in range(data.gift_influence_cards[courtier]):
        card = draw_influence_card(state, player)   # Mazarin: played in next round's influence phase
        trace_event(state, E.GIFT_CARD, player, courtier, 0, card, 0, 0, 0)
    for _ in range(data.gift_intrigue_cards[courtier]):
        # Louvois: usable from the next courtier on (Q24), or with the switch
        # intrigue_usable_same_phase off from the next evaluation phase
        card = draw_intrigue_card(state, player)
        trace_event(state, E.GIFT_CARD, player, courtier, 1, card, 0, 0, 0)
        if card >= 0 and rules[INTRIGUE_USABLE_SAME_PHASE] == 0.0:
            state.intrigue_waiting[player, card] += 1
    for _ in range(data.gift_place_any[courtier]):
        place_conde_marker(state, data, rules, player, courtier, family, params)
    if data.gift_place_on[courtier] >= 0:
        place_maintenon_markers(state, data, rules, player, courtier, family, params)
    if data.gift_retrieve[courtier] > 0:
        moved = retrieve_markers(state, player, data.gift_retrieve[courtier])
        trace_event(state, E.GIFT_RETRIEVE, player, courtier, moved, 0, 0, 0, 0)


@game_kernel
def place_conde_marker(state, data, rules, player, courtier, family, params):
    """Condé (§5, Q12, Q26): one own marker from the general supply onto any courtier,
    mandatory when the general supply has one, else optional from the own supply. The switch
    conde_targets may leave out his own courtier, or allow only courtiers evaluated later."""
    if state.general_supply[player] == 0 and state.own_supply[player] == 0:
        return
    targets = rules[CONDE_TARGETS]
    if targets == CONDE_ANY_COURTIER:
        target = choose_courtier_for_marker(state, data, player, PURPOSE_CONDE, family, params)
    else:
        first = courtier + 1 if targets == CONDE_LATER_COURTIERS else 0
        excluded = courtier if targets == CONDE_NOT_HIS_OWN else -1
        if first >= C.N_COURTIERS:
            return   # no courtier is evaluated after this one: nowhere to go
        target = choose_courtier_for_marker_among(state, data, player, first, excluded, family, params)
    if target < 0 and state.general_supply[player] > 0:
        target = 0  # a bot declining a mandatory placement: the first courtier (never chosen by shipped bots)
    if target >= 0:
        place_from_general(state, player, target, 1)
        trace_event(state, E.CONDE_PLACEMENT, player, target, 0, 0, 0, 0, 0)


@game_kernel
def place_maintenon_markers(state, data, rules, player, courtier, family, params):
    """Maintenon (§5, Q12): up to the given number of own markers from the general supply
    (own supply when short) onto her named courtier (5); optional, 0..count (with the switch
    maintenon_markers_mandatory: as many as the supplies allow)."""
    maximum = min(data.gift_place_on_count[courtier], state.general_supply[player] + state.own_supply[player])
    if rules[MAINTENON_MARKERS_MANDATORY] != 0.0:
        count = maximum
    else:
        count = choose_maintenon_count(state, data, player, maximum, family, params)
    from_own = max(0, count - state.general_supply[player])
    placed = place_from_general(state, player, data.gift_place_on[courtier], count)
    state.stats[player, MAINTENON_MARKERS_PLACED] += placed
    trace_event(state, E.MAINTENON, player, data.gift_place_on[courtier], placed, from_own, 0, 0, 0)


@game_kernel
def return_markers(state, courtier, counts, to_general_mask, n_players):
    """§4.3 step 4: the evaluated markers leave the courtier: a winning top holder's to the
    general supply, everyone else's to their own supply, the imaginary player's to its pool."""
    for colour in range(C.N_COLOURS):
        # every colour, adding 0 where there is nothing to move: picks, not branches
        count = counts[colour]
        to_general = (colour < C.MAX_PLAYERS) & (((to_general_mask >> colour) & 1) == 1)
        state.markers[courtier, colour] -= count
        state.general_supply[colour] += count if to_general else 0
        state.own_supply[colour] += 0 if to_general else count
    trace_event(state, E.MARKERS_RETURNED, courtier, to_general_mask, 0, 0, 0, 0, 0)
