"""The Heads of State greedy (family GREEDY): a one-step heuristic over the listed moves.

``greedy_choose`` scores the rows of ``moves`` the rules listed at a decision point (layouts in
sim/heads_of_state/decisions.py) with the bot's parameter vector (meanings, defaults and ranges in parameters.py).
It reads only public state and its own hand (H12). The search bot uses it for its own other
decisions, to rank its candidates, and for every seat in its rollouts.
"""
import numpy as np

from sim.core.kernels import game_kernel
from sim.heads_of_state.betrayal_targets import assassination_possible, country_cards_can_kill, is_opponent_noble
from sim.heads_of_state.data import R_MIX_ASSASSIN_COUNTRY
from sim.heads_of_state.decisions import (D_BDISCARD, D_BPLAY, D_BTAKE, D_DISCARD, D_END_REFILL, D_OPTION, D_PAY, D_RAISE,
                                          D_REFILL, D_TAKE, D_TAKE_ORDER)
from sim.heads_of_state.recipes import can_pay_hand
from sim.heads_of_state.events import W_COVERED, W_OPEN_SQUARE, W_PER_COUNTRY
from sim.heads_of_state.state import (ranks_on_empty_boxes, ASSASSIN, CAPITAL, COURTESAN, N_CHAR_TYPES,
                                      N_RANKS, OPT_1A, OPT_1B, OPT_2, S_DECK_N, S_ROUND)
from strategies.heads_of_state.parameters import (
    NEVER_ASSASSINATION, NEVER_CAPITAL_ATTACK, P_ASSASSIN_PREFERENCE, P_ASSASSINATION_WEIGHT, P_BETRAY_DECK_BELOW,
    P_BETRAY_FROM_ROUND, P_BETRAY_MIN_VALUE, P_BETRAY_ROUND_DISCOUNT,
    P_BETRAYAL_COLLECT_VALUE, P_BETRAYAL_DECK_VALUE, P_BETRAYAL_TAKE_WEIGHT, P_CAPITAL_ATTACK_WEIGHT, P_CAPITAL_BIAS,
    P_CHARACTER_FIRST_DECK_BELOW, P_COUNTRY_WEIGHT, P_COURTESAN_SPEND_FROM, P_COURTESAN_VALUE, P_DECK_THRESHOLD,
    P_HAND_TARGET, P_HEX_WEIGHT, P_INFLUENCE_WEIGHT, P_NEW_RANK_WEIGHT, P_RAISE_THRESHOLD, P_RANK_WEIGHT,
    P_REFILL_MAX_CARDS, P_REFRESH_THRESHOLD, P_SQUARE_WEIGHT)

ALL_RANKS = (1 << N_RANKS) - 1


@game_kernel
def payable_ranks(state, data, player):
    """Bitmask of ranks p has a tile of and could pay for now."""
    tiles = state.tiles
    hand = state.hand
    recipe = data.recipe
    courtesan_ok = data.courtesan_ok
    mask = 0
    for r in range(N_RANKS):
        if tiles[player, r] > 0 and can_pay_hand(hand, recipe, courtesan_ok, player, r):
            mask |= 1 << r
    return mask


@game_kernel
def open_rank_mask(state, data, player):
    """Ranks p could still place: a tile in supply and an empty box showing the rank."""
    tiles = state.tiles
    mask = ranks_on_empty_boxes(state, data)
    for r in range(N_RANKS):
        if tiles[player, r] == 0:
            mask &= ~(1 << r)
    return mask


@game_kernel
def card_value(hand, recipe, recipe_size, open_mask, player, card, courtesan_value):
    """How much a character card helps p towards a recipe of a rank he can still place."""
    if card == COURTESAN:
        return courtesan_value
    value = 0.0
    for r in range(N_RANKS):
        if recipe[r, card] > 0 and (open_mask >> r) & 1:
            value += (1.0 if hand[player, card] == 0 else 0.25) / recipe_size[r] * (1.0 + 0.25 * r)
    return value


@game_kernel
def greedy_raise(state, data, params, player, moves, n, work, refill):
    """Index of the best-valued raise (rank, free hexagon, new rank, square progress, influence);
    the 'stop' row is worth raise_threshold (0: greedy raises while it can). ``refill``: a Q8
    deferred refill after the betrayal plays, where a rank whose recipe is longer than
    refill_max_cards comes last (the box is left empty when the rules allow it)."""
    box_owner = state.box_owner
    box_region = data.box_region
    region_country = data.region_country
    region_type = data.region_type
    region_hex = data.region_hex
    hex_owner = state.hex_owner
    base_influence = data.base_influence
    country_nreg = data.country_nreg
    raised = state.raised
    # regions of each country where p has a living noble (square-token progress)
    mine = 0
    for box in range(box_owner.shape[0]):
        if box_owner[box] == player:
            mine |= 1 << box_region[box]
    covered = work[W_COVERED]
    covered[:] = 0
    for r in range(region_country.shape[0]):
        if (mine >> r) & 1:
            covered[region_country[r]] += 1
    open_square = work[W_OPEN_SQUARE]
    for c in range(4):
        open_square[c] = 1 if state.square_owner[player, c] == 0 and state.square_next[c] < 2 else 0
    w_rank = params[P_RANK_WEIGHT]
    w_hex = params[P_HEX_WEIGHT]
    w_new = params[P_NEW_RANK_WEIGHT]
    w_square = params[P_SQUARE_WEIGHT]
    w_infl = params[P_INFLUENCE_WEIGHT]
    capital_bias = params[P_CAPITAL_BIAS]
    max_refill_cards = params[P_REFILL_MAX_CARDS]
    recipe_size = data.recipe_size
    best = 0
    best_value = -1e300
    for i in range(n):
        box = moves[i, 0]
        if box < 0:
            value = params[P_RAISE_THRESHOLD]   # keeping the cards for a better raise later
        else:
            rank = moves[i, 1]
            region = box_region[box]
            value = w_rank * (rank + 1)
            if hex_owner[region] < 0:
                value += w_hex * region_hex[region]
            if raised[player, rank] == 0:
                value += w_new
            country = region_country[region]
            if open_square[country] != 0 and (mine >> region) & 1 == 0:
                value += w_square * (covered[country] + 1) / country_nreg[country]
            capital = region_type[region] == CAPITAL
            value += w_infl * base_influence[1 if capital else 0]
            value += params[P_COUNTRY_WEIGHT + country]          # country priorities
            if capital:
                value += capital_bias
            if refill and recipe_size[rank] > max_refill_cards:
                value -= 1e6          # only if the rules leave no other refill (at most one box empty)
        if value > best_value:
            best_value = value
            best = i
    return best


@game_kernel
def victim_value(region_type, box_region, box_rank, box):
    value = box_rank[box] + 1.0
    if region_type[box_region[box]] == CAPITAL:
        value += 2.0
    return value


@game_kernel
def attack_rank_mask(state, data, params, player):
    """Ranks of victims p may attack now: the ones he could refill at once, and those whose recipe
    is longer than refill_max_cards (he would leave their box empty anyway)."""
    mask = payable_ranks(state, data, player)
    for r in range(N_RANKS):
        if data.recipe_size[r] > params[P_REFILL_MAX_CARDS]:
            mask |= 1 << r
    return mask


@game_kernel
def country_cards_in_hand(bhand, btype_mask, player, work, extra, delta):
    """Fill work[W_PER_COUNTRY][c] with the betrayal cards of p's hand usable against country c,
    with ``delta`` more (or fewer) cards of type ``extra`` (-1: the hand as it is). Returns
    nothing: numba cannot return a view of an argument's row from a cached kernel."""
    per_country = work[W_PER_COUNTRY]
    per_country[:] = 0
    for t in range(1, bhand.shape[1]):
        held = bhand[player, t] + (delta if t == extra else 0)
        for c in range(4):
            if (btype_mask[t] >> c) & 1:
                per_country[c] += held


@game_kernel
def reachable_victim_value(state, data, params, player, work, mix, rank_mask, extra, delta):
    """Best value of an opponent noble p's betrayal hand could attack with ``delta`` (+1 / -1) cards
    of type ``extra`` added (-1 = the hand as it is): the victim's value (+capital_attack_weight in a
    capital) +0.5 for a sure kill by country cards or +assassin_preference for an assassination, as
    bplay_value has it (but for assassination_weight and the "never" values, which only plays
    read). Only victims whose rank is in ``rank_mask`` count; -1.0 if none. Public
    board and own betrayal hand only (H12)."""
    n_assassins = state.bhand[player, ASSASSIN] + (delta if extra == ASSASSIN else 0)
    country_cards_in_hand(state.bhand, data.btype_mask, player, work, extra, delta)
    per_country = work[W_PER_COUNTRY]
    preference = params[P_ASSASSIN_PREFERENCE]
    best = -1.0
    for box in range(state.box_owner.shape[0]):
        if not victim_in_reach(state, player, rank_mask, box):
            continue
        value, by_country_cards, by_assassins = attack_on(state, data, params, per_country, n_assassins, mix, box)
        if by_country_cards and value + 0.5 > best:
            best = value + 0.5
        if by_assassins and value + preference > best:
            best = value + preference
    return best


@game_kernel
def victim_in_reach(state, player, rank_mask, box):
    """An opponent's noble (§4.4 step 2.1, betrayal_targets.py) in ``box`` whose rank is in
    ``rank_mask``."""
    return is_opponent_noble(state.box_owner, player, box) and (rank_mask >> state.box_rank[box]) & 1 != 0


@game_kernel
def attack_on(state, data, params, per_country, n_assassins, mix, box):
    """How a betrayal hand of ``n_assassins`` assassins and ``per_country[c]`` cards usable for
    each country c could attack the noble in ``box`` (the cards §4.4 step 2.2 asks for,
    betrayal_targets.py): (the victim's value, +capital_attack_weight in a capital; whether
    country cards kill it; whether an assassination can be attempted). The "never" values of
    capital_attack_weight and assassination_weight rule out plays only (bplay_value): here
    capital_attack_weight counts as the number it is, and assassinations as ever, so that the
    restricted bot takes Option 2 and betrayal cards as the unrestricted one does."""
    region = data.box_region[box]
    capital = data.region_type[region] == CAPITAL
    usable = per_country[data.region_country[region]]
    value = victim_value(data.region_type, data.box_region, state.box_rank, box)
    if capital:
        value += params[P_CAPITAL_ATTACK_WEIGHT]
    return (value, country_cards_can_kill(usable, capital),
            assassination_possible(n_assassins, usable, capital, mix))


@game_kernel
def never_attacks_capitals(params):
    """capital_attack_weight at the low end of its range: no betrayal play on a capital (§4.4 step 2;
    restricted play, configs/landscape/heads_of_state.yaml)."""
    return params[P_CAPITAL_ATTACK_WEIGHT] <= NEVER_CAPITAL_ATTACK


@game_kernel
def never_assassinates(params):
    """assassination_weight at the low end of its range: no assassination attempt (§4.4 steps 2-3;
    restricted play, configs/landscape/heads_of_state.yaml)."""
    return params[P_ASSASSINATION_WEIGHT] <= NEVER_ASSASSINATION


@game_kernel
def best_take_reach(state, data, params, player, work, mix, rank_mask):
    """Best reachable victim value (reachable_victim_value) after taking no betrayal card or one
    of the betrayal display."""
    best = reachable_victim_value(state, data, params, player, work, mix, rank_mask, -1, 0)
    bdisplay = state.bdisplay
    for slot in range(bdisplay.shape[0]):
        if bdisplay[slot] >= 0:
            value = reachable_victim_value(state, data, params, player, work, mix, rank_mask, bdisplay[slot], 1)
            if value > best:
                best = value
    return best


@game_kernel
def reach_now(state, data, params, player, work, mix):
    """The best victim p's betrayal hand reaches as it is, no victim counted as 0 (collecting for
    later: any rank): the ``before`` of betrayal_card_gain, computed once per decision."""
    return max(reachable_victim_value(state, data, params, player, work, mix, ALL_RANKS, -1, 0), 0.0)


@game_kernel
def betrayal_card_gain(state, data, params, player, work, mix, card, delta, before):
    """How much ``delta`` (+1 taken / -1 discarded) cards of type ``card`` change the best victim
    p's betrayal hand can reach (``before``: reach_now)."""
    after = max(reachable_victim_value(state, data, params, player, work, mix, ALL_RANKS, card, delta), 0.0)
    return after - before


@game_kernel
def best_attack_value(state, data, params, player, work, mix):
    """Best victim value (+capital_attack_weight in a capital) among opponents' nobles p could
    attack with his betrayal hand plus a displayed assassin, requiring that p could refill the box
    now unless refill_max_cards says he would leave it empty (``mix``: Q9 switch, a capital may take
    1 assassin + 1 card usable for its country)."""
    n_assassins = state.bhand[player, ASSASSIN]
    bdisplay = state.bdisplay
    for slot in range(bdisplay.shape[0]):
        if bdisplay[slot] == ASSASSIN:
            n_assassins += 1
            break
    country_cards_in_hand(state.bhand, data.btype_mask, player, work, -1, 0)
    per_country = work[W_PER_COUNTRY]
    payable = attack_rank_mask(state, data, params, player)
    if payable == 0:
        return -1.0
    best = -1.0
    for box in range(state.box_owner.shape[0]):
        if not victim_in_reach(state, player, payable, box):
            continue
        value, by_country_cards, by_assassins = attack_on(state, data, params, per_country, n_assassins, mix, box)
        if (by_assassins or by_country_cards) and value > best:
            best = value
    return best


@game_kernel
def hand_size(hand, player):
    held = 0
    for t in range(N_CHAR_TYPES):
        held += hand[player, t]
    return held


@game_kernel
def betrayal_threshold(state, params):
    """Min victim value for Option 2 in this round: betray_min_value, lowered by
    betray_round_discount per round played (rounds 1589/1689/1789 = 0/1/2)."""
    return params[P_BETRAY_MIN_VALUE] - params[P_BETRAY_ROUND_DISCOUNT] * state.scal[S_ROUND]


@game_kernel
def attack_in_time(state, params):
    """betray_deck_below: attacks wait until the regular deck (its size is public) holds fewer than
    this many cards, so that a kill comes just before the round-end scoring (0 = any time)."""
    wait = params[P_BETRAY_DECK_BELOW]
    return wait <= 0 or state.scal[S_DECK_N] < wait


@game_kernel
def take_value(hand, recipe, recipe_size, open_mask, params, player, slot, card):
    """Greedy value of a take row (display slot or -1 = a blind deck draw)."""
    if slot < 0:
        return params[P_DECK_THRESHOLD]
    return card_value(hand, recipe, recipe_size, open_mask, player, card, params[P_COURTESAN_VALUE])


@game_kernel
def bplay_value(state, data, params, payable, box, card_a):
    """Greedy value of a betrayal-play row (box -1 = stop): the victim's value (+capital_attack_weight
    in a capital), +0.5 for a sure kill by country cards, +assassin_preference +assassination_weight
    for an assassination attempt, -3 if p could not refill a box he means to refill
    (refill_max_cards). Before betray_deck_below allows attacks, stopping is worth most (the cards
    are kept). A play the bot never makes (a capital, an assassination) is worth minus infinity:
    the stop row, always listed and finite, beats it."""
    if box < 0:
        if not attack_in_time(state, params):
            return 1e9
        return betrayal_threshold(state, params) - 0.5
    v = victim_value(data.region_type, data.box_region, state.box_rank, box)
    if data.region_type[data.box_region[box]] == CAPITAL:
        if never_attacks_capitals(params):
            return -np.inf
        v += params[P_CAPITAL_ATTACK_WEIGHT]
    if card_a != ASSASSIN:
        v += 0.5   # a sure kill
    else:
        if never_assassinates(params):
            return -np.inf
        v += params[P_ASSASSIN_PREFERENCE] + params[P_ASSASSINATION_WEIGHT]
    rank = state.box_rank[box]
    if (payable >> rank) & 1 == 0 and data.recipe_size[rank] <= params[P_REFILL_MAX_CARDS]:
        v -= 3.0   # could not refill
    return v


@game_kernel
def collect_gain(state, data, params, player, work, mix):
    """The most a displayed betrayal card adds to the best victim p's betrayal hand reaches."""
    best = 0.0
    bdisplay = state.bdisplay
    before = reach_now(state, data, params, player, work, mix)
    for slot in range(bdisplay.shape[0]):
        card = bdisplay[slot]
        if card < 0 or shown_earlier(bdisplay, slot, card):
            continue
        gain = betrayal_card_gain(state, data, params, player, work, mix, card, 1, before)
        if gain > best:
            best = gain
    return best


@game_kernel
def shown_earlier(bdisplay, slot, card):
    """Whether a betrayal-display slot before ``slot`` shows the same card type (its gain is known)."""
    for earlier in range(slot):
        if bdisplay[earlier] == card:
            return True
    return False


@game_kernel
def btake_value(state, data, params, player, work, mix, slot, card, before):
    """Greedy value of a betrayal-take row (slot -1 = a blind deck draw): betrayal_deck_value for
    the deck; a displayed assassin 2 + assassin_preference, a country card 1, each plus
    betrayal_take_weight x the victim value it adds to the betrayal hand's reach (``before``:
    reach_now, or 0 when betrayal_take_weight is 0)."""
    if slot < 0:
        return params[P_BETRAYAL_DECK_VALUE]
    value = 2.0 + params[P_ASSASSIN_PREFERENCE] if card == ASSASSIN else 1.0
    weight = params[P_BETRAYAL_TAKE_WEIGHT]
    if weight > 0.0:
        value += weight * betrayal_card_gain(state, data, params, player, work, mix, card, 1, before)
    return value


@game_kernel
def bdiscard_value(state, data, params, player, work, mix, card, before):
    """Greedy value of discarding a betrayal card of type ``card`` (the highest goes): country cards
    before assassins (by assassin_preference), less so the more victim value the card gives the
    hand (betrayal_take_weight)."""
    value = -params[P_ASSASSIN_PREFERENCE] if card == ASSASSIN else 1.0
    weight = params[P_BETRAYAL_TAKE_WEIGHT]
    if weight > 0.0:
        value += weight * betrayal_card_gain(state, data, params, player, work, mix, card, -1, before)
    return value


@game_kernel
def greedy_option(state, data, context, player, params, moves, n):
    """Row of the greedy's turn option (§4.2/§4.4): Option 2 when it can kill a valuable enough
    opponent noble (not before betray_from_round, nor before betray_deck_below; at any value once
    the hand holds hand_target character cards) or collect a betrayal card that adds at least
    betrayal_collect_value to its reach, else 1b when the display is poor (refresh_threshold),
    else 1a."""
    has2 = -1
    has1a = -1
    has1b = -1
    for i in range(n):
        if moves[i, 0] == OPT_2:
            has2 = i
        elif moves[i, 0] == OPT_1A:
            has1a = i
        elif moves[i, 0] == OPT_1B:
            has1b = i
    mix = context.rules[R_MIX_ASSASSIN_COUNTRY] != 0.0
    if has2 >= 0 and state.scal[S_ROUND] >= params[P_BETRAY_FROM_ROUND]:
        if attack_in_time(state, params):
            if params[P_BETRAYAL_TAKE_WEIGHT] > 0.0:    # displayed country cards count too
                attack = best_take_reach(state, data, params, player, context.work, mix,
                                         attack_rank_mask(state, data, params, player))
            else:
                attack = best_attack_value(state, data, params, player, context.work, mix)
            if attack >= betrayal_threshold(state, params):
                return has2
            if params[P_HAND_TARGET] > 0 and attack > 0 and hand_size(state.hand, player) >= params[P_HAND_TARGET]:
                return has2
        if params[P_BETRAYAL_COLLECT_VALUE] > 0.0 and collect_gain(state, data, params, player, context.work, mix) \
                >= params[P_BETRAYAL_COLLECT_VALUE]:
            return has2
    if has1b >= 0 and params[P_REFRESH_THRESHOLD] > 0.0:
        top = 0.0
        open_mask = open_rank_mask(state, data, player)
        for slot in range(state.display.shape[0]):
            if state.display[slot] >= 0:
                v = card_value(state.hand, data.recipe, data.recipe_size, open_mask, player, state.display[slot],
                               params[P_COURTESAN_VALUE])
                if v > top:
                    top = v
        if top < params[P_REFRESH_THRESHOLD]:
            return has1b
    return has1a if has1a >= 0 else 0


@game_kernel
def betrayal_reach_before(state, data, params, player, work, mix):
    """reach_now once for a betrayal take or discard decision's rows; 0 (unused) when
    betrayal_take_weight is 0, as then no row looks at the reach."""
    if params[P_BETRAYAL_TAKE_WEIGHT] > 0.0:
        return reach_now(state, data, params, player, work, mix)
    return 0.0


@game_kernel
def greedy_choose(state, data, context, player, kind, n):
    moves = context.moves
    params = context.bot_params[player]
    best = 0
    best_value = -1e300
    if kind == D_OPTION:
        return greedy_option(state, data, context, player, params, moves, n)
    elif kind == D_TAKE:
        open_mask = open_rank_mask(state, data, player)
        hand = state.hand
        recipe = data.recipe
        recipe_size = data.recipe_size
        for i in range(n):
            v = take_value(hand, recipe, recipe_size, open_mask, params, player, moves[i, 0], moves[i, 1])
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_RAISE or kind == D_END_REFILL:
        return greedy_raise(state, data, params, player, moves, n, context.work, kind == D_END_REFILL)
    elif kind == D_PAY:
        # keep the courtesan when possible (unless courtesan_spend_from says the hand holds enough);
        # otherwise replace the attribute held least
        hand = state.hand
        spend = 0 < params[P_COURTESAN_SPEND_FROM] <= hand[player, COURTESAN]
        for i in range(n):
            if moves[i, 0] < 0:
                v = -1e9 if spend else 1e9
            else:
                v = -hand[player, moves[i, 0]]
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_BTAKE:
        mix = context.rules[R_MIX_ASSASSIN_COUNTRY] != 0.0
        before = betrayal_reach_before(state, data, params, player, context.work, mix)
        for i in range(n):
            v = btake_value(state, data, params, player, context.work, mix, moves[i, 0], moves[i, 1], before)
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_BPLAY:
        payable = payable_ranks(state, data, player)
        for i in range(n):
            v = bplay_value(state, data, params, payable, moves[i, 0], moves[i, 1])
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_REFILL:
        # the highest rank; leave the box empty rather than pay a recipe longer than refill_max_cards
        for i in range(n):
            rank = moves[i, 0]
            if rank < 0:
                v = -1.0
            elif data.recipe_size[rank] > params[P_REFILL_MAX_CARDS]:
                v = -2.0
            else:
                v = 1.0 + rank
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_DISCARD:
        open_mask = open_rank_mask(state, data, player)
        hand = state.hand
        recipe = data.recipe
        recipe_size = data.recipe_size
        cv = params[P_COURTESAN_VALUE]
        for i in range(n):
            card = moves[i, 0]
            v = -card_value(hand, recipe, recipe_size, open_mask, player, card, cv) + 0.1 * hand[player, card]
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_TAKE_ORDER:
        # rows: 0 = betrayal card first, 1 = character card first (character_first_deck_below)
        wait = params[P_CHARACTER_FIRST_DECK_BELOW]
        order = 1 if wait > 0 and state.scal[S_DECK_N] < wait else 0
        for i in range(n):
            if moves[i, 0] == order:
                return i
        return 0
    elif kind == D_BDISCARD:
        mix = context.rules[R_MIX_ASSASSIN_COUNTRY] != 0.0
        before = betrayal_reach_before(state, data, params, player, context.work, mix)
        for i in range(n):
            v = bdiscard_value(state, data, params, player, context.work, mix, moves[i, 0], before)
            if v > best_value:
                best_value = v
                best = i
        return best
    return 0
