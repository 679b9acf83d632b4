"""Raising a noble (§4.3): paying the recipe (§1.4), placing the tile, taking the noble card and
the immediate scoring checks (hexagon, square, large round token; order Q18)."""

from sim.core.kernels import game_kernel
from strategies.heads_of_state.decide import choose
from sim.heads_of_state.data import R_COURTESAN_ONLY_MISSING
from sim.heads_of_state.decisions import D_PAY
from sim.heads_of_state.recipes import can_pay_hand
from sim.heads_of_state.events import EV_COURTESAN, EV_NO_CARD, EV_RAISE, trace
from sim.heads_of_state.scoring import take_hexagon_token, take_large_token, take_square_token
from sim.heads_of_state.state import (COURTESAN, N_ATTRIBUTES, N_RANKS, STAT_COURTESANS, STAT_COURTESANS_FOR_HELD,
                                      forget_country_places, forget_majority)


@game_kernel
def list_payments(state, data, context, player, rank):
    """§1.4 legal ways to pay ``rank``: -1 = the exact recipe; a = a courtesan replaces attribute a
    (at most one courtesan, none for baron/king; Q14 switch: only for an attribute not in hand).
    Writes rows into context.moves and returns their number (0 = cannot pay)."""
    moves = context.moves
    recipe = data.recipe
    hand = state.hand
    missing = 0
    missing_attr = -1
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0 and hand[player, a] == 0:
            missing += 1
            missing_attr = a
    n = 0
    if missing == 0:
        moves[n, 0] = -1
        n += 1
    if data.courtesan_ok[rank] > 0 and hand[player, COURTESAN] > 0:
        if missing == 1:
            moves[n, 0] = missing_attr
            n += 1
        elif missing == 0 and context.rules[R_COURTESAN_ONLY_MISSING] == 0.0:
            for a in range(N_ATTRIBUTES):
                if recipe[rank, a] > 0:
                    moves[n, 0] = a
                    n += 1
    return n


@game_kernel
def can_pay(state, data, context, player, rank):
    return can_pay_hand(state.hand, data.recipe, data.courtesan_ok, player, rank)


@game_kernel
def can_raise(state, data, context, player, box, rank):
    """§4.3 preconditions: empty box showing ``rank``, a tile in supply (Q13), payable."""
    return (state.box_owner[box] < 0 and (data.box_ranks[box] >> rank) & 1 == 1
            and state.tiles[player, rank] > 0 and can_pay(state, data, context, player, rank))


@game_kernel
def list_raises(state, data, context, player):
    """Option 1 step 2: every (empty box, rank) p can raise now, plus a final 'stop' row."""
    moves = context.moves
    hand = state.hand
    recipe = data.recipe
    courtesan_ok = data.courtesan_ok
    tiles = state.tiles
    box_owner = state.box_owner
    box_ranks = data.box_ranks
    payable = 0                       # bitmask of ranks p has a tile of and can pay for
    for rank in range(N_RANKS):
        if tiles[player, rank] > 0 and can_pay_hand(hand, recipe, courtesan_ok, player, rank):
            payable |= 1 << rank
    n = 0
    if payable != 0:
        for box in range(box_owner.shape[0]):
            if box_owner[box] >= 0:
                continue
            ok = box_ranks[box] & payable
            if ok == 0:
                continue
            for rank in range(N_RANKS):
                if (ok >> rank) & 1:
                    moves[n, 0] = box
                    moves[n, 1] = rank
                    n += 1
    moves[n, 0] = -1
    moves[n, 1] = -1
    return n + 1


@game_kernel
def pay_recipe(state, data, player, rank, replaced):
    """§4.3 step 1: discard one card per recipe attribute (a courtesan instead of ``replaced``)."""
    recipe = data.recipe
    hand = state.hand
    discard = state.discard
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0:
            card = COURTESAN if a == replaced else a
            hand[player, card] -= 1
            discard[card] += 1


@game_kernel
def raise_noble(state, data, context, player, box, rank):
    """§4.3 steps 1-5 for a raise the caller checked with ``can_raise`` (the player picks the payment)."""
    n = list_payments(state, data, context, player, rank)
    replaced = context.moves[choose(state, data, context, player, D_PAY, n), 0]
    place_noble(state, data, context, player, box, rank, replaced)


@game_kernel
def place_noble(state, data, context, player, box, rank, replaced):
    """§4.3 steps 1-5 with the payment already chosen (``replaced``: attribute a courtesan replaces
    or -1 = the exact recipe)."""
    pay_recipe(state, data, player, rank, replaced)
    state.tiles[player, rank] -= 1                        # step 2
    state.box_owner[box] = player
    state.box_rank[box] = rank
    forget_country_places(state, data, box)
    trace(context.counters, context.trace, EV_RAISE, player, box, rank)
    if replaced >= 0:
        state.stats[player, STAT_COURTESANS] += 1
        if state.hand[player, replaced] > 0:      # Q14: in place of an attribute card the seat holds
            state.stats[player, STAT_COURTESANS_FOR_HELD] += 1
        trace(context.counters, context.trace, EV_COURTESAN, player, replaced, rank)
    if state.cards_left[rank] > 0:                    # step 3 (the 11th noble gets no card)
        state.cards_left[rank] -= 1
        state.cards[player, rank] += 1
        forget_majority(state, rank)
    else:
        trace(context.counters, context.trace, EV_NO_CARD, player, rank, 0)
    state.raised[player, rank] += 1                        # step 4 (Q17)
    region = data.box_region[box]                     # step 5 (order Q18)
    take_hexagon_token(state, data, context, player, region)
    take_square_token(state, data, context, player, data.region_country[region])
    take_large_token(state, data, context, player)
