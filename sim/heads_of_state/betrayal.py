"""Option 2, steps 2-3 (§4.4): betrayal plays (assassins and country cards) and refilling.

WHERE THE ASSASSIN ODDS ARE DECIDED: :func:`assassination_succeeds` (the bag draw of §4.4 step 3,
``own_cubes`` of the active player + ``target_cubes`` of the victim, data key ``assassin_bag``;
default 3 + 1 -> P(success) = 3/4). Country cards always succeed.

Rule switches (rules §7.1):
* Q8 ``option2_refill``: ``interleaved`` (default) refills right after each kill; ``deferred`` makes
  all refills after the last play, each play needing a feasible refill plan (refill_plan.py).
* Q9 ``mix_assassin_and_country``: ``true`` adds the capital play "1 assassin + 1 card usable for
  the capital's country". Reading (§4.4 step 2 table and step 3): a play that contains an assassin
  is an assassination attempt and is resolved by the bag draw of step 3, like "exactly 2 assassins";
  the automatic success of §1.5/§4.4 belongs to plays made only of cards usable for the country.
  The country card just stands in for the second assassin. Recorded with card_type 3 (mixed).
"""

from sim.core.kernels import game_kernel
from sim.core.random_streams import below
from strategies.heads_of_state.decide import choose
from sim.heads_of_state.betrayal_targets import is_opponent_noble
from sim.heads_of_state.data import R_MIX_ASSASSIN_COUNTRY, R_OPTION2_REFILL
from sim.heads_of_state.decisions import D_BPLAY, D_END_REFILL, D_PAY, D_REFILL
from sim.heads_of_state.events import (EV_BAG, EV_BPLAY, EV_KILL, EV_LEAVE_EMPTY, K_BETRAYAL_N,
                                       K_OVERFLOW, OVERFLOW_BETRAYALS, OVERFLOW_MOVES, trace)
from sim.heads_of_state.nobles import can_pay, place_noble, raise_noble
from sim.heads_of_state.refill_plan import list_deferred_refills, list_plan_payments, plan_with_target
from sim.heads_of_state.state import (STAT_ASSASSINATIONS, STAT_BOXES_LEFT_EMPTY_BY_CHOICE, STAT_CAPITAL_PLAYS, STAT_KILLS, ASSASSIN, CAPITAL, N_RANKS,
                                      RNG_ASSASSIN_BAG, S_GAME_INDEX, S_LEFT_EMPTY, S_ROUND, forget_country_places)
from sim.heads_of_state.tables import (B_BOX, B_BOX_REFILLED, B_CAPITAL, B_CARD_A, B_CARD_B,
                                       B_CARD_TYPE, B_CARDS_SPENT, B_COUNTRY, B_GAME_INDEX,
                                       B_ROUND, B_SEAT, B_SUCCESS, B_TARGET_RANK, B_TARGET_SEAT)

CARD_ASSASSIN, CARD_SINGLE_COUNTRY, CARD_DOUBLE_COUNTRY, CARD_MIXED = 0, 1, 2, 3   # tables.py card_type


@game_kernel
def assassination_succeeds(state, data):
    """§4.4 step 3 -- the assassin odds: draw one cube uniformly from a bag holding ``own_cubes``
    cubes of the active player and ``target_cubes`` of the target's owner; own cube = success."""
    return below(state.streams, RNG_ASSASSIN_BAG, data.own_cubes + data.target_cubes) < data.own_cubes


@game_kernel
def can_refill(state, data, context, player, box):
    """p could raise a noble in ``box`` once it is vacated (a rank the box shows, tile, payment)."""
    ranks = data.box_ranks[box]
    tiles = state.tiles
    for rank in range(N_RANKS):
        if (ranks >> rank) & 1 and tiles[player, rank] > 0 and can_pay(state, data, context, player, rank):
            return True
    return False


@game_kernel
def list_betrayal_plays(state, data, context, player, left_empty):
    """§4.4 step 2: every (target box, cards) p may play now, plus a final 'stop' row.
    Province: exactly 1 assassin or 1 card usable for its country; capital: exactly 2 assassins or
    2 cards usable for its country (Q10: never 2 on a province; Q9: never mixed, or with the switch
    also 1 assassin + 1 card usable for its country). A noble can be targeted once per turn; own
    nobles never. Q8 interleaved: once a vacated box was left empty, a play is only legal if p could
    refill the target's box; Q8 deferred: only if a refill plan exists for (vacated boxes + target)."""
    moves = context.moves
    cap = moves.shape[0] - 1
    n = 0
    deferred = context.rules[R_OPTION2_REFILL] != 0.0
    mix = context.rules[R_MIX_ASSASSIN_COUNTRY] != 0.0
    bhand = state.bhand
    n_types = bhand.shape[1]
    box_owner = state.box_owner
    targeted = state.targeted
    box_region = data.box_region
    region_country = data.region_country
    region_type = data.region_type
    btype_mask = data.btype_mask
    n_assassins = bhand[player, ASSASSIN]
    n_country = 0
    for t in range(1, n_types):
        n_country += bhand[player, t]
    if n_assassins + n_country == 0:
        moves[0, 0] = -1
        moves[0, 1] = -1
        moves[0, 2] = -1
        return 1
    for box in range(box_owner.shape[0]):
        if not is_opponent_noble(box_owner, player, box) or targeted[box] != 0:
            continue
        if deferred:
            if not plan_with_target(state, data, context, player, box):        # Q8 deferred
                continue
        elif left_empty != 0 and not can_refill(state, data, context, player, box):
            continue
        region = box_region[box]
        country = region_country[region]
        capital = region_type[region] == CAPITAL
        if capital:
            if n_assassins >= 2 and n < cap:
                moves[n, 0] = box
                moves[n, 1] = ASSASSIN
                moves[n, 2] = ASSASSIN
                n += 1
            if mix and n_assassins >= 1:                       # Q9 switch: assassin + country card
                for t in range(1, n_types):
                    if (btype_mask[t] >> country) & 1 and bhand[player, t] >= 1 and n < cap:
                        moves[n, 0] = box
                        moves[n, 1] = ASSASSIN
                        moves[n, 2] = t
                        n += 1
            for t1 in range(1, n_types):
                if (btype_mask[t1] >> country) & 1 == 0 or bhand[player, t1] == 0:
                    continue
                for t2 in range(t1, n_types):
                    if (btype_mask[t2] >> country) & 1 == 0:
                        continue
                    if (t1 == t2 and bhand[player, t1] >= 2) or (t1 != t2 and bhand[player, t2] >= 1):
                        if n < cap:
                            moves[n, 0] = box
                            moves[n, 1] = t1
                            moves[n, 2] = t2
                            n += 1
        else:
            if n_assassins >= 1 and n < cap:
                moves[n, 0] = box
                moves[n, 1] = ASSASSIN
                moves[n, 2] = -1
                n += 1
            for t in range(1, n_types):
                if (btype_mask[t] >> country) & 1 and bhand[player, t] >= 1 and n < cap:
                    moves[n, 0] = box
                    moves[n, 1] = t
                    moves[n, 2] = -1
                    n += 1
    if n >= cap:
        context.counters[K_OVERFLOW] |= OVERFLOW_MOVES
    moves[n, 0] = -1
    moves[n, 1] = -1
    moves[n, 2] = -1
    return n + 1


@game_kernel
def card_kind(data, t):
    if t == ASSASSIN:
        return CARD_ASSASSIN
    m = data.btype_mask[t]
    return CARD_SINGLE_COUNTRY if (m & (m - 1)) == 0 else CARD_DOUBLE_COUNTRY


@game_kernel
def kill_noble(state, data, context, box):
    """§4.4 step 5 / §4.7: the tile goes face down onto the region's hexagon; the box is empty."""
    owner = state.box_owner[box]
    rank = state.box_rank[box]
    state.dead[owner, data.box_region[box], rank] += 1
    state.lost[owner] += 1
    state.box_owner[box] = -1
    state.box_rank[box] = -1
    forget_country_places(state, data, box)
    state.vacated[box] = 1
    trace(context.counters, context.trace, EV_KILL, owner, box, rank)


@game_kernel
def refill_now(state, data, context, player, box, left_empty):
    """§4.4 step 3, Q8 interleaved: right after the kill, refill ``box`` or (if no other box was left
    empty) leave it empty. Returns 1 if refilled."""
    moves = context.moves
    n = 0
    for r in range(N_RANKS):
        if (data.box_ranks[box] >> r) & 1 and state.tiles[player, r] > 0 and can_pay(state, data, context, player, r):
            moves[n, 0] = r
            n += 1
    refills = n
    if left_empty == 0:
        moves[n, 0] = -1
        n += 1
    r = moves[choose(state, data, context, player, D_REFILL, n), 0] if n > 0 else -1
    if r >= 0:
        raise_noble(state, data, context, player, box, r)
        return 1
    if refills > 0:                 # it could have refilled the box: left empty by choice
        state.stats[player, STAT_BOXES_LEFT_EMPTY_BY_CHOICE] += 1
    trace(context.counters, context.trace, EV_LEAVE_EMPTY, player, box, 0)
    return 0


@game_kernel
def refill_at_end(state, data, context, player, first_row):
    """§4.4 step 3, Q8 deferred: after the last play, refill vacated boxes one at a time (each
    refill and its payment keep a plan for the rest) until at most one is empty and p stops; then
    mark box_refilled in this turn's betrayal rows (from ``first_row``)."""
    moves = context.moves
    while True:
        n = list_deferred_refills(state, data, context, player)
        if n == 0:
            break
        i = choose(state, data, context, player, D_END_REFILL, n)
        box = moves[i, 0]
        if box < 0:
            if n > 1:               # a refill was listed beside the stop: left empty by choice
                state.stats[player, STAT_BOXES_LEFT_EMPTY_BY_CHOICE] += 1
            break
        rank = moves[i, 1]
        n = list_plan_payments(state, data, context, player, box, rank)
        place_noble(state, data, context, player, box, rank, moves[choose(state, data, context, player, D_PAY, n), 0])
        last = min(context.counters[K_BETRAYAL_N], context.betrayals.shape[0])
        for k in range(first_row, last):
            if context.betrayals[k, B_BOX] == box:
                context.betrayals[k, B_BOX_REFILLED] = 1
    for box in range(state.vacated.shape[0]):
        if state.vacated[box] != 0 and state.box_owner[box] < 0:
            trace(context.counters, context.trace, EV_LEAVE_EMPTY, player, box, 0)


@game_kernel
def play_kind(data, card_a, card_b):
    """tables.py card_type of a play: assassin(s), single-country card(s), >= 1 double-country
    card, or (Q9 switch) mixed assassin + country card."""
    if card_a == ASSASSIN and card_b > ASSASSIN:
        return CARD_MIXED
    kind = card_kind(data, card_a)
    if card_b >= 0 and card_kind(data, card_b) == CARD_DOUBLE_COUNTRY:
        kind = CARD_DOUBLE_COUNTRY
    return kind


@game_kernel
def count_play(state, data, player, region, card_a):
    """The seats table's counts of the plays restricted play can switch off: on a capital, and
    assassination attempts (§4.4 step 3, a Q9 mixed play too)."""
    if data.region_type[region] == CAPITAL:
        state.stats[player, STAT_CAPITAL_PLAYS] += 1
    if card_a == ASSASSIN:
        state.stats[player, STAT_ASSASSINATIONS] += 1


@game_kernel
def betrayal_plays(state, data, context, player):
    """§4.4 steps 2-3: plays one after the other; refills interleaved (Q8 default, Q33) or, with
    option2_refill = deferred, all after the last play."""
    state.vacated[:] = 0
    state.targeted[:] = 0
    state.scal[S_LEFT_EMPTY] = 0
    continue_betrayal_plays(state, data, context, player, context.counters[K_BETRAYAL_N])


@game_kernel
def continue_betrayal_plays(state, data, context, player, first_row):
    """The play loop of :func:`betrayal_plays`; everything it carries between plays is in the state
    (targeted, vacated, S_LEFT_EMPTY), so a search bot can continue it on a copy. ``first_row``:
    this turn's first betrayals-table row (Q8 deferred marks refilled boxes there)."""
    deferred = context.rules[R_OPTION2_REFILL] != 0.0
    moves = context.moves
    while True:
        left_empty = state.scal[S_LEFT_EMPTY]
        n = list_betrayal_plays(state, data, context, player, left_empty)
        i = choose(state, data, context, player, D_BPLAY, n)
        box = moves[i, 0]
        if box < 0:
            if deferred:
                refill_at_end(state, data, context, player, first_row)
            return
        card_a = moves[i, 1]
        card_b = moves[i, 2]
        owner = state.box_owner[box]
        rank = state.box_rank[box]
        region = data.box_region[box]
        state.targeted[box] = 1
        state.bhand[player, card_a] -= 1                   # step 4: cards go to the discard pile
        state.bdiscard[card_a] += 1
        spent = 1
        kind = play_kind(data, card_a, card_b)
        if card_b >= 0:
            state.bhand[player, card_b] -= 1
            state.bdiscard[card_b] += 1
            spent = 2
        trace(context.counters, context.trace, EV_BPLAY, player, box, card_a * 100 + card_b + 1)
        count_play(state, data, player, region, card_a)
        if card_a == ASSASSIN:                     # step 3 (also a Q9 mixed play, see module doc)
            success = assassination_succeeds(state, data)
            trace(context.counters, context.trace, EV_BAG, player, 1 if success else 0, owner)
        else:
            success = True
        refilled = 0
        if success:
            kill_noble(state, data, context, box)
            state.stats[player, STAT_KILLS] += 1
            if not deferred:
                refilled = refill_now(state, data, context, player, box, left_empty)
                if refilled == 0:
                    state.scal[S_LEFT_EMPTY] = 1
        k = context.counters[K_BETRAYAL_N]
        context.counters[K_BETRAYAL_N] = k + 1
        if k >= context.betrayals.shape[0]:
            context.counters[K_OVERFLOW] |= OVERFLOW_BETRAYALS
            continue
        row = context.betrayals[k]
        row[B_GAME_INDEX] = state.scal[S_GAME_INDEX]
        row[B_ROUND] = state.scal[S_ROUND]
        row[B_SEAT] = player
        row[B_CARD_TYPE] = kind
        row[B_CARD_A] = card_a
        row[B_CARD_B] = card_b
        row[B_CARDS_SPENT] = spent
        row[B_TARGET_SEAT] = owner
        row[B_TARGET_RANK] = rank
        row[B_CAPITAL] = 1 if data.region_type[region] == CAPITAL else 0
        row[B_COUNTRY] = data.region_country[region]
        row[B_BOX] = box
        row[B_SUCCESS] = 1 if success else 0
        row[B_BOX_REFILLED] = refilled
