"""Compiled bot decision functions (kept apart from the rules).

The rules code writes every legal decision of a decision point into ``cx.moves[:n]`` and calls
:func:`choose`, which dispatches on the seat's family id (an if/elif) and returns a row index.
Bots read only public state and their own hand (H12): board, displays, scores, tokens, noble
cards, hand *sizes*; never decks or other hands.

Families (ids and parameter vectors documented in ``strategies/heads_of_state.py``):
* RANDOM: uniform over the legal decisions at every decision point (seat's own stream).
* GREEDY: one-step heuristic scored with a float parameter vector.

Move row layouts per decision kind (columns 0..3):
  D_OPTION   (option code)                        D_TAKE   (display slot or -1 = deck, card type)
  D_RAISE    (box or -1 = stop, rank)             D_PAY    (attribute replaced by a courtesan or -1)
  D_BTAKE    (betrayal slot or -1 = deck, type)   D_BPLAY  (box or -1 = stop, card a, card b or -1)
  D_REFILL   (rank or -1 = leave empty)           D_DISCARD / D_BDISCARD (card type)
"""
import numpy as np
from numba import njit

from sim.core.random_streams import below
from sim.heads_of_state.state import (ASSASSIN, CAPITAL, COURTESAN, N_ATTRIBUTES, N_RANKS, OPT_1A,
                                      OPT_1B, OPT_2, RNG_BOT_0)

RANDOM, GREEDY = 0, 1
(D_OPTION, D_TAKE, D_RAISE, D_PAY, D_BTAKE, D_BPLAY, D_REFILL, D_DISCARD, D_BDISCARD) = range(9)

# greedy parameter indices (names/defaults/ranges in strategies/heads_of_state.py)
(P_DECK_THRESHOLD, P_COURTESAN_VALUE, P_HEX_WEIGHT, P_RANK_WEIGHT, P_NEW_RANK_WEIGHT,
 P_SQUARE_WEIGHT, P_BETRAY_MIN_VALUE, P_REFRESH_THRESHOLD, P_INFLUENCE_WEIGHT) = range(9)
N_GREEDY_PARAMS = 9


@njit(cache=True)
def choose(st, d, cx, p, kind, n):
    """Index (0..n-1) of the chosen row of cx.moves for seat p at a decision point of ``kind``."""
    if n <= 1:
        return 0
    family = cx.bot_family[p]
    if family == RANDOM:
        return below(st.streams, RNG_BOT_0 + p, n)
    elif family == GREEDY:
        return greedy_choose(st, d, cx, p, kind, n)
    return 0


# ------------------------------------------------------------------------------------------------
# greedy helpers (own hand + public state only)
@njit(cache=True)
def can_pay_own(hand, recipe, courtesan_ok, p, rank):
    missing = 0
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0 and hand[p, a] == 0:
            missing += 1
    if missing == 0:
        return True
    return missing == 1 and courtesan_ok[rank] > 0 and hand[p, COURTESAN] > 0


@njit(cache=True)
def open_rank_mask(st, d, p):
    """Ranks p could still place: a tile in supply and an empty box showing the rank."""
    box_owner = st.box_owner
    box_ranks = d.box_ranks
    tiles = st.tiles
    mask = 0
    for box in range(box_owner.shape[0]):
        if box_owner[box] < 0:
            mask |= box_ranks[box]
    for r in range(N_RANKS):
        if tiles[p, r] == 0:
            mask &= ~(1 << r)
    return mask


@njit(cache=True)
def card_value(hand, recipe, recipe_size, open_mask, p, card, courtesan_value):
    """How much a character card helps p towards a recipe of a rank he can still place."""
    if card == COURTESAN:
        return courtesan_value
    value = 0.0
    for r in range(N_RANKS):
        if recipe[r, card] > 0 and (open_mask >> r) & 1:
            value += (1.0 if hand[p, card] == 0 else 0.25) / recipe_size[r] * (1.0 + 0.25 * r)
    return value


@njit(cache=True)
def raise_value(st, d, prm, p, box, rank):
    region = d.box_region[box]
    value = prm[P_RANK_WEIGHT] * (rank + 1)
    if st.hex_owner[region] < 0:
        value += prm[P_HEX_WEIGHT] * d.region_hex[region]
    if st.raised[p, rank] == 0:
        value += prm[P_NEW_RANK_WEIGHT]
    country = d.region_country[region]
    if st.square_owner[p, country] == 0 and st.square_next[country] < 2:
        box_owner = st.box_owner
        region_box = d.region_box
        country_regions = d.country_regions
        covered = 0
        here = False
        for i in range(d.country_nreg[country]):
            rg = country_regions[country, i]
            for b in range(2):
                bx = region_box[rg, b]
                if bx >= 0 and box_owner[bx] == p:
                    covered += 1
                    if rg == region:
                        here = True
                    break
        if not here:
            value += prm[P_SQUARE_WEIGHT] * (covered + 1) / d.country_nreg[country]
    base = d.base_influence[1 if d.region_type[region] == CAPITAL else 0]
    value += prm[P_INFLUENCE_WEIGHT] * base
    return value


@njit(cache=True)
def victim_value(region_type, box_region, box_rank, box):
    value = box_rank[box] + 1.0
    if region_type[box_region[box]] == CAPITAL:
        value += 2.0
    return value


@njit(cache=True)
def best_attack_value(st, d, p):
    """Best victim value among opponents' nobles p could attack with his betrayal hand plus one
    display card, requiring that p could refill the box now."""
    bhand = st.bhand
    btype_mask = d.btype_mask
    box_owner = st.box_owner
    box_rank = st.box_rank
    box_region = d.box_region
    region_type = d.region_type
    region_country = d.region_country
    n_assassins = bhand[p, ASSASSIN]
    for slot in range(st.bdisplay.shape[0]):
        if st.bdisplay[slot] == ASSASSIN:
            n_assassins += 1
            break
    per_country = np.zeros(4, np.int64)
    for t in range(1, bhand.shape[1]):
        for c in range(4):
            if (btype_mask[t] >> c) & 1:
                per_country[c] += bhand[p, t]
    payable = 0
    for r in range(N_RANKS):
        if st.tiles[p, r] > 0 and can_pay_own(st.hand, d.recipe, d.courtesan_ok, p, r):
            payable |= 1 << r
    if payable == 0:
        return -1.0
    best = -1.0
    for box in range(box_owner.shape[0]):
        owner = box_owner[box]
        if owner < 0 or owner == p or (payable >> box_rank[box]) & 1 == 0:
            continue
        region = box_region[box]
        need = 2 if region_type[region] == CAPITAL else 1
        if n_assassins >= need or per_country[region_country[region]] >= need:
            v = victim_value(region_type, box_region, box_rank, box)
            if v > best:
                best = v
    return best


@njit(cache=True)
def greedy_choose(st, d, cx, p, kind, n):
    mv = cx.moves
    prm = cx.bot_params[p]
    best = 0
    best_value = -1e300
    if kind == D_OPTION:
        has2 = -1
        has1a = -1
        has1b = -1
        for i in range(n):
            if mv[i, 0] == OPT_2:
                has2 = i
            elif mv[i, 0] == OPT_1A:
                has1a = i
            elif mv[i, 0] == OPT_1B:
                has1b = i
        if has2 >= 0 and best_attack_value(st, d, p) >= prm[P_BETRAY_MIN_VALUE]:
            return has2
        if has1b >= 0 and prm[P_REFRESH_THRESHOLD] > 0.0:
            top = 0.0
            open_mask = open_rank_mask(st, d, p)
            for slot in range(st.display.shape[0]):
                if st.display[slot] >= 0:
                    v = card_value(st.hand, d.recipe, d.recipe_size, open_mask, p, st.display[slot],
                                   prm[P_COURTESAN_VALUE])
                    if v > top:
                        top = v
            if top < prm[P_REFRESH_THRESHOLD]:
                return has1b
        return has1a if has1a >= 0 else 0
    elif kind == D_TAKE:
        open_mask = open_rank_mask(st, d, p)
        hand = st.hand
        recipe = d.recipe
        recipe_size = d.recipe_size
        cv = prm[P_COURTESAN_VALUE]
        for i in range(n):
            v = prm[P_DECK_THRESHOLD] if mv[i, 0] < 0 else card_value(hand, recipe, recipe_size, open_mask, p, mv[i, 1], cv)
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_RAISE:
        for i in range(n):
            v = 0.0 if mv[i, 0] < 0 else raise_value(st, d, prm, p, mv[i, 0], mv[i, 1])
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_PAY:
        # keep the courtesan when possible; otherwise replace the attribute held least
        hand = st.hand
        for i in range(n):
            v = 1e9 if mv[i, 0] < 0 else -hand[p, mv[i, 0]]
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_BTAKE:
        for i in range(n):
            if mv[i, 0] < 0:
                v = 0.5
            elif mv[i, 1] == ASSASSIN:
                v = 2.0
            else:
                v = 1.0
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_BPLAY:
        payable = 0
        for r in range(N_RANKS):
            if st.tiles[p, r] > 0 and can_pay_own(st.hand, d.recipe, d.courtesan_ok, p, r):
                payable |= 1 << r
        box_rank = st.box_rank
        box_region = d.box_region
        region_type = d.region_type
        for i in range(n):
            if mv[i, 0] < 0:
                v = prm[P_BETRAY_MIN_VALUE] - 0.5
            else:
                box = mv[i, 0]
                v = victim_value(region_type, box_region, box_rank, box)
                if mv[i, 1] != ASSASSIN:
                    v += 0.5   # a sure kill
                if (payable >> box_rank[box]) & 1 == 0:
                    v -= 3.0   # could not refill
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_REFILL:
        for i in range(n):
            v = -1.0 if mv[i, 0] < 0 else 1.0 + mv[i, 0]
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_DISCARD:
        open_mask = open_rank_mask(st, d, p)
        hand = st.hand
        recipe = d.recipe
        recipe_size = d.recipe_size
        cv = prm[P_COURTESAN_VALUE]
        for i in range(n):
            card = mv[i, 0]
            v = -card_value(hand, recipe, recipe_size, open_mask, p, card, cv) + 0.1 * hand[p, card]
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_BDISCARD:
        for i in range(n):
            v = 0.0 if mv[i, 0] == ASSASSIN else 1.0
            if v > best_value:
                best_value = v
                best = i
        return best
    return 0
