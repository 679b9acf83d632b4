"""Option 2, step 3 with deferred refills (§4.4 step 3, rule question Q8 ``option2_refill: deferred``).

All refills of the turn are made after the last betrayal play. Before each play the player must
have a *feasible refill plan* for (the boxes vacated so far + the target's box): a way to raise
nobles, one after the other, in all of those boxes but at most one (§4.4 step 3 "at most one may
be left empty"), with his tiles (§4.3, Q13) and his character hand (§1.4 payments, one courtesan
per noble, Q14 switch). The hand and tiles do not change during the betrayal plays (the plays
spend betrayal cards only and never kill own nobles), so a plan found before a play still works
at the end of the plays.

The search is a small depth-first search over the boxes (one level per box; each level tries
"rank r paid exactly / with a courtesan instead of attribute a", then "leave it empty"). Plans
hold at most ~6 boxes (one kill per betrayal card, <= 5 cards), and card payments prune quickly.
It works on the scratch rows W_PLAN_* of the context (kernels do not allocate).
"""

from sim.core.kernels import game_kernel
from sim.heads_of_state.data import R_COURTESAN_ONLY_MISSING
from sim.heads_of_state.events import W_PLAN_HAND, W_PLAN_MASK, W_PLAN_OPTION, W_PLAN_TILES
from sim.heads_of_state.state import COURTESAN, N_ATTRIBUTES, N_CHAR_TYPES, N_RANKS

# option o of a plan level: o = rank * PAY_CHOICES + replaced + 1 (replaced = -1: exact recipe);
# o = LEAVE_EMPTY: the box is the one left empty
PAY_CHOICES = N_ATTRIBUTES + 1
LEAVE_EMPTY = N_RANKS * PAY_CHOICES


@game_kernel
def payment_fits(hand, data, strict, rank, replaced):
    """§1.4 (same legality as nobles.list_payments) for a hand row: the exact recipe
    (``replaced`` = -1), or one courtesan instead of attribute ``replaced`` (not for baron/king;
    Q14 ``strict``: only for an attribute not in hand)."""
    recipe = data.recipe
    if replaced >= 0:
        if data.courtesan_ok[rank] == 0 or recipe[rank, replaced] == 0 or hand[COURTESAN] == 0:
            return False
        if strict and hand[replaced] > 0:
            return False
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0 and a != replaced and hand[a] == 0:
            return False
    return True


@game_kernel
def pay_hand(hand, data, rank, replaced, sign):
    """Take (sign = -1) or give back (sign = +1) the cards of a payment in a hand row."""
    recipe = data.recipe
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0:
            hand[COURTESAN if a == replaced else a] += sign


@game_kernel
def load_plan(state, data, context, player, skip_box, extra_mask):
    """Fill the plan rows: the rank masks of the boxes vacated this turn and still empty (except
    ``skip_box``), plus ``extra_mask`` (the target's box) if >= 0; p's hand and tiles.
    Returns the number of boxes in the plan."""
    masks = context.work[W_PLAN_MASK]
    n = 0
    for box in range(state.vacated.shape[0]):
        if state.vacated[box] != 0 and state.box_owner[box] < 0 and box != skip_box and n < masks.shape[0]:
            masks[n] = data.box_ranks[box]
            n += 1
    if extra_mask >= 0 and n < masks.shape[0]:
        masks[n] = extra_mask
        n += 1
    hand = context.work[W_PLAN_HAND]
    for t in range(N_CHAR_TYPES):
        hand[t] = state.hand[player, t]
    tiles = context.work[W_PLAN_TILES]
    for r in range(N_RANKS):
        tiles[r] = state.tiles[player, r]
    return n


@game_kernel
def option_fits(data, hand, tiles, mask, o, empties, strict):
    if o == LEAVE_EMPTY:
        return empties == 0                       # §4.4 step 3: at most one box left empty
    rank = o // PAY_CHOICES
    return (mask >> rank) & 1 == 1 and tiles[rank] > 0 and payment_fits(hand, data, strict, rank,
                                                                          o % PAY_CHOICES - 1)


@game_kernel
def plan_exists(data, context, n):
    """Depth-first search for a refill plan of the ``n`` loaded boxes leaving at most one empty.
    Leaves the plan rows in an undefined state (callers reload them with ``load_plan``)."""
    if n <= 1:
        return True                               # a single box may always be left empty
    strict = context.rules[R_COURTESAN_ONLY_MISSING] != 0.0
    masks = context.work[W_PLAN_MASK]
    option = context.work[W_PLAN_OPTION]
    hand = context.work[W_PLAN_HAND]
    tiles = context.work[W_PLAN_TILES]
    empties = 0
    level = 0
    option[0] = -1
    while level >= 0:
        o = option[level]
        if o == LEAVE_EMPTY:                      # undo this level's current choice
            empties -= 1
        elif o >= 0:
            pay_hand(hand, data, o // PAY_CHOICES, o % PAY_CHOICES - 1, 1)
            tiles[o // PAY_CHOICES] += 1
        o += 1
        while o <= LEAVE_EMPTY and not option_fits(data, hand, tiles, masks[level], o, empties, strict):
            o += 1
        if o > LEAVE_EMPTY:                       # no choice left here: back to the previous box
            option[level] = -1
            level -= 1
            continue
        if o == LEAVE_EMPTY:
            empties += 1
        else:
            pay_hand(hand, data, o // PAY_CHOICES, o % PAY_CHOICES - 1, -1)
            tiles[o // PAY_CHOICES] -= 1
        option[level] = o
        if level == n - 1:
            return True
        level += 1
        option[level] = -1
    return False


@game_kernel
def plan_with_target(state, data, context, player, box):
    """Q8 deferred, before a play on ``box``: a refill plan exists for (vacated boxes + box)."""
    return plan_exists(data, context, load_plan(state, data, context, player, -1, data.box_ranks[box]))


@game_kernel
def refill_keeps_plan(state, data, context, player, box, rank, replaced):
    """Q8 deferred, at the end of the plays: refilling ``box`` with ``rank`` paid this way is
    legal (§4.3) and the other empty vacated boxes still have a plan leaving at most one empty."""
    n = load_plan(state, data, context, player, box, -1)
    hand = context.work[W_PLAN_HAND]
    tiles = context.work[W_PLAN_TILES]
    strict = context.rules[R_COURTESAN_ONLY_MISSING] != 0.0
    if (data.box_ranks[box] >> rank) & 1 == 0 or tiles[rank] == 0 or \
            not payment_fits(hand, data, strict, rank, replaced):
        return False
    pay_hand(hand, data, rank, replaced, -1)
    tiles[rank] -= 1
    return plan_exists(data, context, n)


@game_kernel
def empty_vacated_boxes(state):
    n = 0
    for box in range(state.vacated.shape[0]):
        if state.vacated[box] != 0 and state.box_owner[box] < 0:
            n += 1
    return n


@game_kernel
def list_deferred_refills(state, data, context, player):
    """Every (vacated empty box, rank) p may refill now keeping a plan for the rest (some payment
    of it does), plus a final 'stop' row when at most one vacated box is still empty."""
    moves = context.moves
    n = 0
    for box in range(state.vacated.shape[0]):
        if state.vacated[box] == 0 or state.box_owner[box] >= 0:
            continue
        for rank in range(N_RANKS):
            if (data.box_ranks[box] >> rank) & 1 == 0:
                continue
            for replaced in range(-1, N_ATTRIBUTES):
                if refill_keeps_plan(state, data, context, player, box, rank, replaced):
                    moves[n, 0] = box
                    moves[n, 1] = rank
                    n += 1
                    break
    if empty_vacated_boxes(state) <= 1:
        moves[n, 0] = -1
        moves[n, 1] = -1
        n += 1
    return n


@game_kernel
def list_plan_payments(state, data, context, player, box, rank):
    """The payments of nobles.list_payments (same order) that keep a plan for the other boxes."""
    moves = context.moves
    n = 0
    for replaced in range(-1, N_ATTRIBUTES):
        if refill_keeps_plan(state, data, context, player, box, rank, replaced):
            moves[n, 0] = replaced
            n += 1
    return n
