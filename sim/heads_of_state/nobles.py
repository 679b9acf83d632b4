"""Raising a noble (§4.3): paying the recipe (§1.4), placing the tile, taking the noble card and
the immediate scoring checks (hexagon, square, large round token; order Q18)."""

from sim.heads_of_state.bots import D_PAY, choose
from sim.heads_of_state.data import R_COURTESAN_ONLY_MISSING
from sim.heads_of_state.recipes import can_pay_hand
from sim.heads_of_state.events import EV_COURTESAN, EV_NO_CARD, EV_RAISE, trace
from sim.heads_of_state.scoring import take_hexagon_token, take_large_token, take_square_token
from sim.heads_of_state.state import kernel, COURTESAN, N_ATTRIBUTES, N_RANKS, STAT_COURTESANS


@kernel
def list_payments(st, d, cx, p, rank):
    """§1.4 legal ways to pay ``rank``: -1 = the exact recipe; a = a courtesan replaces attribute a
    (at most one courtesan, none for baron/king; Q14 switch: only for an attribute not in hand).
    Writes rows into cx.moves and returns their number (0 = cannot pay)."""
    mv = cx.moves
    recipe = d.recipe
    hand = st.hand
    missing = 0
    missing_attr = -1
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0 and hand[p, a] == 0:
            missing += 1
            missing_attr = a
    n = 0
    if missing == 0:
        mv[n, 0] = -1
        n += 1
    if d.courtesan_ok[rank] > 0 and hand[p, COURTESAN] > 0:
        if missing == 1:
            mv[n, 0] = missing_attr
            n += 1
        elif missing == 0 and cx.rules[R_COURTESAN_ONLY_MISSING] == 0.0:
            for a in range(N_ATTRIBUTES):
                if recipe[rank, a] > 0:
                    mv[n, 0] = a
                    n += 1
    return n


@kernel
def can_pay(st, d, cx, p, rank):
    return can_pay_hand(st.hand, d.recipe, d.courtesan_ok, p, rank)


@kernel
def can_raise(st, d, cx, p, box, rank):
    """§4.3 preconditions: empty box showing ``rank``, a tile in supply (Q13), payable."""
    return (st.box_owner[box] < 0 and (d.box_ranks[box] >> rank) & 1 == 1
            and st.tiles[p, rank] > 0 and can_pay(st, d, cx, p, rank))


@kernel
def list_raises(st, d, cx, p):
    """Option 1 step 2: every (empty box, rank) p can raise now, plus a final 'stop' row."""
    mv = cx.moves
    hand = st.hand
    recipe = d.recipe
    courtesan_ok = d.courtesan_ok
    tiles = st.tiles
    box_owner = st.box_owner
    box_ranks = d.box_ranks
    payable = 0                       # bitmask of ranks p has a tile of and can pay for
    for rank in range(N_RANKS):
        if tiles[p, rank] > 0 and can_pay_hand(hand, recipe, courtesan_ok, p, rank):
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
                    mv[n, 0] = box
                    mv[n, 1] = rank
                    n += 1
    mv[n, 0] = -1
    mv[n, 1] = -1
    return n + 1


@kernel
def pay_recipe(st, d, p, rank, replaced):
    """§4.3 step 1: discard one card per recipe attribute (a courtesan instead of ``replaced``)."""
    recipe = d.recipe
    hand = st.hand
    discard = st.discard
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0:
            card = COURTESAN if a == replaced else a
            hand[p, card] -= 1
            discard[card] += 1


@kernel
def raise_noble(st, d, cx, p, box, rank):
    """§4.3 steps 1-5 for a raise the caller checked with ``can_raise`` (the player picks the payment)."""
    n = list_payments(st, d, cx, p, rank)
    replaced = cx.moves[choose(st, d, cx, p, D_PAY, n), 0]
    place_noble(st, d, cx, p, box, rank, replaced)


@kernel
def place_noble(st, d, cx, p, box, rank, replaced):
    """§4.3 steps 1-5 with the payment already chosen (``replaced``: attribute a courtesan replaces
    or -1 = the exact recipe)."""
    pay_recipe(st, d, p, rank, replaced)
    st.tiles[p, rank] -= 1                        # step 2
    st.box_owner[box] = p
    st.box_rank[box] = rank
    trace(cx.counters, cx.trace, EV_RAISE, p, box, rank)
    if replaced >= 0:
        st.stats[p, STAT_COURTESANS] += 1
        trace(cx.counters, cx.trace, EV_COURTESAN, p, replaced, rank)
    if st.cards_left[rank] > 0:                    # step 3 (the 11th noble gets no card)
        st.cards_left[rank] -= 1
        st.cards[p, rank] += 1
    else:
        trace(cx.counters, cx.trace, EV_NO_CARD, p, rank, 0)
    st.raised[p, rank] += 1                        # step 4 (Q17)
    region = d.box_region[box]                     # step 5 (order Q18)
    take_hexagon_token(st, d, cx, p, region)
    take_square_token(st, d, cx, p, d.region_country[region])
    take_large_token(st, d, cx, p)
