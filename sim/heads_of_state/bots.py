"""Compiled bot decision functions (kept apart from the rules).

The rules code writes every legal decision of a decision point into ``cx.moves[:n]`` and calls
:func:`choose`, which dispatches on the seat's family id (an if/elif) and returns a row index.
Bots read only public state and their own hand (H12): board, displays, scores, tokens, noble
cards, hand *sizes*; never decks or other hands.

Families (ids and parameter vectors documented in ``strategies/heads_of_state.py``):
* RANDOM: uniform over the legal decisions at every decision point (seat's own stream).
* GREEDY: one-step heuristic scored with a float parameter vector.
* SEARCH: determinized Monte Carlo rollouts at the turn option, take and betrayal-play decisions
  (search.py); greedy with its own greedy parameters everywhere else and inside the rollouts.

Move row layouts per decision kind (columns 0..3):
  D_OPTION   (option code)                        D_TAKE   (display slot or -1 = deck, card type)
  D_RAISE    (box or -1 = stop, rank)             D_PAY    (attribute replaced by a courtesan or -1)
  D_BTAKE    (betrayal slot or -1 = deck, type)   D_BPLAY  (box or -1 = stop, card a, card b or -1)
  D_REFILL   (rank or -1 = leave empty)           D_DISCARD / D_BDISCARD (card type)
  D_TAKE_ORDER (0 = betrayal card first, 1 = character card first; Q7 player_choice only)
  D_END_REFILL (box or -1 = stop, rank; Q8 deferred only: refills after the last betrayal play,
               each followed by a D_PAY decision; greedy ranks them like D_RAISE)
"""

import hashlib

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from sim.core.random_streams import below
from sim.heads_of_state.data import R_MIX_ASSASSIN_COUNTRY
from sim.heads_of_state.recipes import can_pay_hand
from sim.heads_of_state.events import (K_FORCED, K_SEARCH_FN, K_SEARCH_TAG, W_COVERED, W_OPEN_SQUARE,
                                       W_PER_COUNTRY, SearchCtx)
from sim.heads_of_state.state import (kernel, ranks_on_empty_boxes, ASSASSIN, CAPITAL, COURTESAN, N_CHAR_TYPES,
                                      N_RANKS, OPT_1A, OPT_1B, OPT_2, RNG_BOT_0, S_ROUND)

RANDOM, GREEDY, SEARCH = 0, 1, 2
(D_OPTION, D_TAKE, D_RAISE, D_PAY, D_BTAKE, D_BPLAY, D_REFILL, D_DISCARD, D_BDISCARD,
 D_TAKE_ORDER, D_END_REFILL) = range(11)

# greedy parameter indices (names/defaults/ranges in strategies/heads_of_state.py)
# (P_COUNTRY_WEIGHT + country: one weight per country, GB FR ES DE). Every parameter added after
# P_INFLUENCE_WEIGHT is neutral at its default: the default greedy plays exactly as before.
(P_DECK_THRESHOLD, P_COURTESAN_VALUE, P_HEX_WEIGHT, P_RANK_WEIGHT, P_NEW_RANK_WEIGHT,
 P_SQUARE_WEIGHT, P_BETRAY_MIN_VALUE, P_REFRESH_THRESHOLD, P_INFLUENCE_WEIGHT,
 P_COUNTRY_WEIGHT, _FR, _ES, _DE, P_CAPITAL_BIAS, P_ASSASSIN_PREFERENCE, P_BETRAY_FROM_ROUND,
 P_BETRAY_ROUND_DISCOUNT, P_RAISE_THRESHOLD, P_HAND_TARGET) = range(19)
N_GREEDY_PARAMS = 19
# search parameters follow the greedy ones in a search bot's vector (search.py)
P_ROLLOUTS, P_MAX_CANDIDATES = N_GREEDY_PARAMS, N_GREEDY_PARAMS + 1
N_SEARCH_PARAMS = 2


@kernel
def choose(st, d, cx, p, kind, n):
    """Index (0..n-1) of the chosen row of cx.moves for seat p at a decision point of ``kind``."""
    forced = cx.counters[K_FORCED]
    if forced != 0:                    # a search bot replaying its candidate on a copy (search.py)
        cx.counters[K_FORCED] = 0
        return forced - 1
    if n <= 1:
        return 0
    family = cx.bot_family[p]
    if family == RANDOM:
        return below(st.streams, RNG_BOT_0 + p, n)
    elif family == GREEDY:
        return greedy_choose(st, d, cx, p, kind, n)
    elif family == SEARCH:
        return search_or_greedy(st, d, cx, p, kind, n)
    return 0


def search_or_greedy(st, d, cx, p, kind, n):
    """A search bot's decision: compiled per context type (the overload below); this body runs
    only interpreted (NUMBA_DISABLE_JIT=1), where rollouts (counters[K_SEARCH_FN] == 0) never
    search."""
    if cx.counters[K_SEARCH_FN] == 0:
        return greedy_choose(st, d, cx, p, kind, n)
    return call_search(st, d, cx, p, kind, n)


@overload(search_or_greedy)
def _search_or_greedy(st, d, cx, p, kind, n):
    """In a chunk with a search bot (``SearchCtx``), search (search.py). In a ``Ctx`` -- a chunk
    without search bots, or a rollout, where every seat is greedy -- the greedy: the code of every
    chunk without a search bot stays free of the search call."""
    if getattr(cx, "instance_class", None) is not SearchCtx:
        def greedy_impl(st, d, cx, p, kind, n):
            return greedy_choose(st, d, cx, p, kind, n)
        return greedy_impl

    def search_impl(st, d, cx, p, kind, n):
        return call_search(st, d, cx, p, kind, n)
    return search_impl


def search_signature_tag(st_type, d_type, cx_type):
    """A 60-bit tag of the numba types (state, data, context) a search is compiled for: the
    compiled search is called through a bare function pointer, so the types at the call site
    must be exactly the ones it was compiled for (checked at run time, see call_search)."""
    text = repr((str(st_type), str(d_type), str(cx_type)))
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def call_search(st, d, cx, p, kind, n):
    """A search bot's decision (search.search_choose). Compiled (the overload below), the search is
    called through the function pointer ``cx.counters[K_SEARCH_FN]`` that engine.make_ctx stores:
    bots.choose then does not call search_choose in numba's compiled call graph, so the graph has
    no cycle choose -> search -> rollout -> choose (numba's on-disk cache cannot reload a compiled
    recursion), and the SearchCtx rules engine does not link in the search and the Ctx engine of
    its rollouts (events.SearchCtx). This body runs only interpreted (NUMBA_DISABLE_JIT=1)."""
    from sim.heads_of_state.search import search_choose    # search.py imports the rules (cycle)
    return search_choose(st, d, cx, p, kind, n)


@overload(call_search)
def _call_search(st, d, cx, p, kind, n):
    tag = search_signature_tag(st, d, cx)

    def impl(st, d, cx, p, kind, n):
        if cx.counters[K_SEARCH_TAG] != tag:
            raise RuntimeError("heads-of-state: the search was compiled for other argument types")
        # "+ 0" drops numba's literal types: the function pointer takes int64
        return _call_native_search(cx.counters[K_SEARCH_FN], st, d, cx, p + 0, kind + 0, n + 0)
    return impl


@intrinsic
def _call_native_search(typingctx, fn, st, d, cx, p, kind, n):
    """Call the compiled function at address ``fn`` (numba's native calling convention, as
    numba's first-class function types do) with (st, d, cx, p, kind, n); returns its int64."""
    signature = types.int64(types.int64, st, d, cx, types.int64, types.int64, types.int64)

    def codegen(context, builder, sig, args):
        arg_types = sig.args[1:]
        fn_type = context.call_conv.get_function_type(types.int64, arg_types)
        fn_ptr = builder.inttoptr(args[0], fn_type.as_pointer())
        status, result = context.call_conv.call_function(builder, fn_ptr, types.int64, arg_types,
                                                         args[1:])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result
    return signature, codegen


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
    capital_bias = prm[P_CAPITAL_BIAS]
    best = 0
    best_value = -1e300
    for i in range(n):
        box = mv[i, 0]
        if box < 0:
            value = prm[P_RAISE_THRESHOLD]   # keeping the cards for a better raise later
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
            capital = region_type[region] == CAPITAL
            value += w_infl * base_influence[1 if capital else 0]
            value += prm[P_COUNTRY_WEIGHT + country]          # country priorities
            if capital:
                value += capital_bias
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
def hand_size(hand, p):
    held = 0
    for t in range(N_CHAR_TYPES):
        held += hand[p, t]
    return held


@kernel
def betrayal_threshold(st, prm):
    """Min victim value for Option 2 in this round: betray_min_value, lowered by
    betray_round_discount per round played (rounds 1589/1689/1789 = 0/1/2)."""
    return prm[P_BETRAY_MIN_VALUE] - prm[P_BETRAY_ROUND_DISCOUNT] * st.scal[S_ROUND]


@kernel
def take_value(hand, recipe, recipe_size, open_mask, prm, p, slot, card):
    """Greedy value of a take row (display slot or -1 = a blind deck draw)."""
    if slot < 0:
        return prm[P_DECK_THRESHOLD]
    return card_value(hand, recipe, recipe_size, open_mask, p, card, prm[P_COURTESAN_VALUE])


@kernel
def bplay_value(st, d, prm, payable, box, card_a):
    """Greedy value of a betrayal-play row (box -1 = stop): the victim's value, +0.5 for a sure kill
    by country cards, +assassin_preference for an assassination attempt, -3 if p could not refill."""
    if box < 0:
        return betrayal_threshold(st, prm) - 0.5
    v = victim_value(d.region_type, d.box_region, st.box_rank, box)
    if card_a != ASSASSIN:
        v += 0.5   # a sure kill
    else:
        v += prm[P_ASSASSIN_PREFERENCE]
    if (payable >> st.box_rank[box]) & 1 == 0:
        v -= 3.0   # could not refill
    return v


@kernel
def greedy_option(st, d, cx, p, prm, mv, n):
    """Row of the greedy's turn option (§4.2/§4.4): Option 2 when it can kill a valuable enough
    opponent noble (not before betray_from_round; at any value once the hand holds hand_target
    character cards), else 1b when the display is poor (refresh_threshold), else 1a."""
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
    if has2 >= 0 and st.scal[S_ROUND] >= prm[P_BETRAY_FROM_ROUND]:
        attack = best_attack_value(st, d, p, cx.work, mix)
        if attack >= betrayal_threshold(st, prm):
            return has2
        if prm[P_HAND_TARGET] > 0 and attack > 0 and hand_size(st.hand, p) >= prm[P_HAND_TARGET]:
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


@kernel
def greedy_choose(st, d, cx, p, kind, n):
    mv = cx.moves
    prm = cx.bot_params[p]
    best = 0
    best_value = -1e300
    if kind == D_OPTION:
        return greedy_option(st, d, cx, p, prm, mv, n)
    elif kind == D_TAKE:
        open_mask = open_rank_mask(st, d, p)
        hand = st.hand
        recipe = d.recipe
        recipe_size = d.recipe_size
        for i in range(n):
            v = take_value(hand, recipe, recipe_size, open_mask, prm, p, mv[i, 0], mv[i, 1])
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
                v = 2.0 + prm[P_ASSASSIN_PREFERENCE]
            else:
                v = 1.0
            if v > best_value:
                best_value = v
                best = i
        return best
    elif kind == D_BPLAY:
        payable = payable_ranks(st, d, p)
        for i in range(n):
            v = bplay_value(st, d, prm, payable, mv[i, 0], mv[i, 1])
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
