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
  D_TAKE_ORDER (0 = betrayal card first, 1 = character card first; Q7 player_choice only)
  D_END_REFILL (box or -1 = stop, rank; Q8 deferred only: refills after the last betrayal play,
               each followed by a D_PAY decision; greedy ranks them like D_RAISE)
"""

from sim.core.random_streams import below
from sim.heads_of_state.data import R_MIX_ASSASSIN_COUNTRY
from sim.heads_of_state.recipes import can_pay_hand
from sim.heads_of_state.events import W_COVERED, W_OPEN_SQUARE, W_PER_COUNTRY
from sim.heads_of_state.state import (kernel, ranks_on_empty_boxes, ASSASSIN, CAPITAL, COURTESAN, N_RANKS, OPT_1A,
                                      OPT_1B, OPT_2, RNG_BOT_0)

RANDOM, GREEDY = 0, 1
(D_OPTION, D_TAKE, D_RAISE, D_PAY, D_BTAKE, D_BPLAY, D_REFILL, D_DISCARD, D_BDISCARD,
 D_TAKE_ORDER, D_END_REFILL) = range(11)

# greedy parameter indices (names/defaults/ranges in strategies/heads_of_state.py)
(P_DECK_THRESHOLD, P_COURTESAN_VALUE, P_HEX_WEIGHT, P_RANK_WEIGHT, P_NEW_RANK_WEIGHT,
 P_SQUARE_WEIGHT, P_BETRAY_MIN_VALUE, P_REFRESH_THRESHOLD, P_INFLUENCE_WEIGHT) = range(9)
N_GREEDY_PARAMS = 9


@kernel
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
@kernel
def payable_ranks(st, d, p):
    """Bitmask of ranks p has a tile of and could pay for now."""
    tiles = st.tiles
    hand = st.hand
    recipe = d.recipe
    courtesan_ok = d.courtesan_ok
    mask = 0
    for r in range(N_RANKS):
        if tiles[p, r] > 0 and can_pay_hand(hand, recipe, courtesan_ok, p, r):
            mask |= 1 << r
    return mask


@kernel
def open_rank_mask(st, d, p):
    """Ranks p could still place: a tile in supply and an empty box showing the rank."""
    tiles = st.tiles
    mask = ranks_on_empty_boxes(st, d)
    for r in range(N_RANKS):
        if tiles[p, r] == 0:
            mask &= ~(1 << r)
    return mask


@kernel
def card_value(hand, recipe, recipe_size, open_mask, p, card, courtesan_value):
    """How much a character card helps p towards a recipe of a rank he can still place."""
    if card == COURTESAN:
        return courtesan_value
    value = 0.0
    for r in range(N_RANKS):
        if recipe[r, card] > 0 and (open_mask >> r) & 1:
            value += (1.0 if hand[p, card] == 0 else 0.25) / recipe_size[r] * (1.0 + 0.25 * r)
    return value


@kernel
def greedy_raise(st, d, prm, p, mv, n, work):
    """Index of the best-valued raise (rank, free hexagon, new rank, square progress, influence);
    the 'stop' row is worth 0, so greedy raises while it can."""
    box_owner = st.box_owner
    box_region = d.box_region
    region_country = d.region_country
    region_type = d.region_type
    region_hex = d.region_hex
    hex_owner = st.hex_owner
    base_influence = d.base_influence
    country_nreg = d.country_nreg
    raised = st.raised
    # regions of each country where p has a living noble (square-token progress)
    mine = 0
    for box in range(box_owner.shape[0]):
        if box_owner[box] == p:
            mine |= 1 << box_region[box]
    covered = work[W_COVERED]
    covered[:] = 0
    for r in range(region_country.shape[0]):
        if (mine >> r) & 1:
            covered[region_country[r]] += 1
    open_square = work[W_OPEN_SQUARE]
    for c in range(4):
        open_square[c] = 1 if st.square_owner[p, c] == 0 and st.square_next[c] < 2 else 0
    w_rank = prm[P_RANK_WEIGHT]
    w_hex = prm[P_HEX_WEIGHT]
    w_new = prm[P_NEW_RANK_WEIGHT]
    w_square = prm[P_SQUARE_WEIGHT]
    w_infl = prm[P_INFLUENCE_WEIGHT]
    best = 0
    best_value = -1e300
    for i in range(n):
        box = mv[i, 0]
        if box < 0:
            value = 0.0
        else:
            rank = mv[i, 1]
            region = box_region[box]
            value = w_rank * (rank + 1)
            if hex_owner[region] < 0:
                value += w_hex * region_hex[region]
            if raised[p, rank] == 0:
                value += w_new
            country = region_country[region]
            if open_square[country] != 0 and (mine >> region) & 1 == 0:
                value += w_square * (covered[country] + 1) / country_nreg[country]
            value += w_infl * base_influence[1 if region_type[region] == CAPITAL else 0]
        if value > best_value:
            best_value = value
            best = i
    return best


@kernel
def victim_value(region_type, box_region, box_rank, box):
    value = box_rank[box] + 1.0
    if region_type[box_region[box]] == CAPITAL:
        value += 2.0
    return value


@kernel
def best_attack_value(st, d, p, work, mix):
    """Best victim value among opponents' nobles p could attack with his betrayal hand plus one
    display card, requiring that p could refill the box now (``mix``: Q9 switch, a capital may
    take 1 assassin + 1 card usable for its country)."""
    bhand = st.bhand
    btype_mask = d.btype_mask
    box_owner = st.box_owner
    box_rank = st.box_rank
    box_region = d.box_region
    region_type = d.region_type
    region_country = d.region_country
    n_assassins = bhand[p, ASSASSIN]
    bdisplay = st.bdisplay
    for slot in range(bdisplay.shape[0]):
        if bdisplay[slot] == ASSASSIN:
            n_assassins += 1
            break
    per_country = work[W_PER_COUNTRY]
    per_country[:] = 0
    for t in range(1, bhand.shape[1]):
        for c in range(4):
            if (btype_mask[t] >> c) & 1:
                per_country[c] += bhand[p, t]
    payable = payable_ranks(st, d, p)
    if payable == 0:
        return -1.0
    best = -1.0
    for box in range(box_owner.shape[0]):
        owner = box_owner[box]
        if owner < 0 or owner == p or (payable >> box_rank[box]) & 1 == 0:
            continue
        region = box_region[box]
        need = 2 if region_type[region] == CAPITAL else 1
        usable = per_country[region_country[region]]
        if n_assassins >= need or usable >= need or (mix and n_assassins >= 1 and usable >= 1):
            v = victim_value(region_type, box_region, box_rank, box)
            if v > best:
                best = v
    return best


@kernel
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
        mix = cx.rules[R_MIX_ASSASSIN_COUNTRY] != 0.0
        if has2 >= 0 and best_attack_value(st, d, p, cx.work, mix) >= prm[P_BETRAY_MIN_VALUE]:
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
    elif kind == D_RAISE or kind == D_END_REFILL:
        return greedy_raise(st, d, prm, p, mv, n, cx.work)
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
        payable = payable_ranks(st, d, p)
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
    elif kind == D_TAKE_ORDER:
        return 0           # betrayal card first: its choice informs nothing hidden either way
    elif kind == D_BDISCARD:
        for i in range(n):
            v = 0.0 if mv[i, 0] == ASSASSIN else 1.0
            if v > best_value:
                best_value = v
                best = i
        return best
    return 0
