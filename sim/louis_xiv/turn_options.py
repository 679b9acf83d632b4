"""The legal influence turns (rules §4.2 step 2 a-d, §4.2.1, DB-PLACE4), enumerated in one fixed
order for two uses:

- ``list_turn_options`` writes every option into a move buffer, one row each (``MOVE_*``
  columns): the random bot draws among them; tests and search bots read them.
- ``best_turn_option`` scores each option as it is enumerated and keeps only the best one (the
  first of equal scores, as when the listed rows are scored in order) in row 0: the greedy
  bot's choice without writing and re-reading a few hundred rows per turn (listing and scoring
  measured ~2/3 of the influence phase).

A score is linear in the option, with numbers the bot supplies (strategies/louis_xiv/greedy.py):
a placement scores the sum of ``gains[courtier, markers]`` along its path, a retrieval
``retrieve_worth`` per marker that can come back; DB-PLACE4 options add ``four_score``, LB-SKIP
scores ``skip_score``, B-CARDSWAP ``swap_score``, a card played for nothing (Q8/Q9) 0.
"""
from sim.core.kernels import game_kernel, inline_game_kernel, nonzero_indices

from sim.louis_xiv import constants as C
from sim.louis_xiv.data import (LB_SKIP_COST, PLACE_COURTIER_CARD_COUNT, PLACE_FOUR_COUNT, PLACE_JOKER_COUNT,
                                RETRIEVE_COURTIER_CARD_COUNT, RETRIEVE_FOUR_COUNT, RETRIEVE_JOKER_COUNT)
from sim.louis_xiv.decisions import (CARD_SWAP, MOVE_CARD, MOVE_KIND, MOVE_LENGTH, MOVE_PATH, PLACE, PLACE_FOUR,
                                     RETRIEVE, RETRIEVE_FOUR, SKIP)
from sim.louis_xiv.rules import PLACE_AT_LEAST_ONE_MARKER, PLACE_FOUR_PATH

NO_SCORE = -1e18  # below every score: the first option is always kept


@game_kernel
def list_turn_options(state, data, rules, player, moves):
    """Every legal turn into ``moves``, one row each; returns the count."""
    gains = state.scratch_gains  # not read when listing
    return enumerate_turn_options(state, data, rules, player, moves, False, gains, 0.0, 0.0, 0.0, 0.0)


@game_kernel
def best_turn_option(state, data, rules, player, moves, gains, retrieve_worth, four_score, skip_score,
                     swap_score):
    """The best-scoring legal turn into ``moves[0]`` (scores: module docstring)."""
    enumerate_turn_options(state, data, rules, player, moves, True, gains, retrieve_worth, four_score,
                           skip_score, swap_score)


@inline_game_kernel
def enumerate_turn_options(state, data, rules, player, moves, keep_best, gains, retrieve_worth, four_score,
                           skip_score, swap_score):
    """Every legal turn, in the listing order; with ``keep_best`` only the best is written (row
    0), and placements that cannot beat it are not looked at (``extension_bounds``). Returns the
    number of options (listing only). Inlined into its two callers, which pass ``keep_best`` as
    a constant: each gets a copy specialised to its use (a called kernel is a weak symbol, whose
    arguments the compiler does not fold even where every caller passes the same constant)."""
    n_moves = 0
    best = NO_SCORE
    own = state.own_supply[player]
    general = state.general_supply[player]
    numbers = data.numbers
    adjacency = data.adjacency
    degree = data.adjacency_count
    influence_hand = state.influence_hand
    uses_left = state.uses_left
    must_place = rules[PLACE_AT_LEAST_ONE_MARKER] != 0.0 and own > 0
    reach = state.scratch_reach
    extension_bounds(gains, keep_best, reach)
    held = state.scratch_ints   # the kinds of card in hand, in kind order
    n_held = nonzero_indices(influence_hand[player], held)
    for index in range(n_held):
        card = held[index]
        if card == C.JOKER:
            budget = min(numbers[PLACE_JOKER_COUNT], own)
            n_moves, best = add_placements(moves, n_moves, best, keep_best, gains, reach, 0.0, adjacency, degree,
                                           PLACE, card, 0, C.N_COURTIERS, budget, 4)
            retrieved = min(numbers[RETRIEVE_JOKER_COUNT], general)
        else:
            budget = min(numbers[PLACE_COURTIER_CARD_COUNT], own)
            n_moves, best = add_placements(moves, n_moves, best, keep_best, gains, reach, 0.0, adjacency, degree,
                                           PLACE, card, card, card + 1, budget, 4)
            retrieved = min(numbers[RETRIEVE_COURTIER_CARD_COUNT], general)
        n_moves, best = add_simple(moves, n_moves, best, keep_best, retrieved * retrieve_worth, RETRIEVE, card)
        if not must_place:  # Q8/Q9: the card played for nothing
            n_moves, best = add_simple(moves, n_moves, best, keep_best, 0.0, PLACE, card)
        if uses_left[player, C.B_CARDSWAP] > 0:
            n_moves, best = add_simple(moves, n_moves, best, keep_best, swap_score, CARD_SWAP, card)
    if uses_left[player, C.DB_PLACE4] > 0:
        budget = min(numbers[PLACE_FOUR_COUNT], own)
        # Q6: a path of up to 4 courtiers, or (rule switch place_four_path) at most 3 or 2
        longest = 4 - int(rules[PLACE_FOUR_PATH])
        n_moves, best = add_placements(moves, n_moves, best, keep_best, gains, reach, four_score, adjacency,
                                       degree, PLACE_FOUR, -1, 0, C.N_COURTIERS, budget, longest)
        retrieved = min(numbers[RETRIEVE_FOUR_COUNT], general)
        n_moves, best = add_simple(moves, n_moves, best, keep_best, retrieved * retrieve_worth + four_score,
                                   RETRIEVE_FOUR, -1)
    if uses_left[player, C.LB_SKIP] > 0 and state.gold[player] >= numbers[LB_SKIP_COST]:
        n_moves, best = add_simple(moves, n_moves, best, keep_best, skip_score, SKIP, -1)
    return n_moves


@inline_game_kernel
def add_simple(moves, n_moves, best, keep_best, score, kind, card):
    """An option without a path (only kind and card are written, as the path is not read)."""
    if keep_best:
        if not score > best:
            return n_moves + 1, best
        best = score
        row = 0
    else:
        row = n_moves
    moves[row, MOVE_KIND] = kind
    moves[row, MOVE_CARD] = card
    moves[row, MOVE_LENGTH] = 0
    return n_moves + 1, best


@inline_game_kernel
def add_path(moves, n_moves, best, keep_best, score, kind, card, length, t1, c1, t2, c2, t3, c3, t4, c4):
    if keep_best:
        if not score > best:
            return n_moves + 1, best
        best = score
        row = 0
    else:
        row = n_moves
    moves[row, MOVE_KIND] = kind
    moves[row, MOVE_CARD] = card
    moves[row, MOVE_LENGTH] = length
    moves[row, MOVE_PATH] = t1
    moves[row, MOVE_PATH + 1] = c1
    moves[row, MOVE_PATH + 2] = t2
    moves[row, MOVE_PATH + 3] = c2
    moves[row, MOVE_PATH + 4] = t3
    moves[row, MOVE_PATH + 5] = c3
    moves[row, MOVE_PATH + 6] = t4
    moves[row, MOVE_PATH + 7] = c4
    return n_moves + 1, best


# a placement's score may come out this much above the exact sum of its gains (float rounding of
# at most 4 additions of numbers far below 1e3); a subtree is skipped only below best - this margin
BOUND_MARGIN = 1e-9


@inline_game_kernel
def extension_bounds(gains, keep_best, reach):
    """reach[r] (r = 1..3): at least the score that extending a placement path by further steps
    with at most r more markers can add (each step c >= 1 markers on some courtier adds at most
    the largest gains[., c]; paths repeat no courtier, so this bounds every real extension).
    ``add_placements`` skips the rest of a path whose score plus this cannot beat the best so far:
    the best option, and the first of equal ones, are the same as without skipping. (An array,
    not a tuple: a tuple indexed at run time compiles to a jump table.)"""
    reach[0] = 0.0
    if not keep_best:
        return
    top1 = top2 = top3 = -1e300
    for courtier in range(gains.shape[0]):
        top1 = max(top1, gains[courtier, 1])
        top2 = max(top2, gains[courtier, 2])
        top3 = max(top3, gains[courtier, 3])
    # exactly r markers in one or more steps, then at most r
    exact2 = max(top2, top1 + top1)
    exact3 = max(top3, max(top1 + exact2, top2 + top1))
    within2 = max(top1, exact2)
    reach[1] = top1 + BOUND_MARGIN
    reach[2] = within2 + BOUND_MARGIN
    reach[3] = max(within2, exact3) + BOUND_MARGIN


@inline_game_kernel
def add_placements(moves, n_moves, best, keep_best, gains, reach, kind_score, adjacency, degree, kind, card,
                   first_start, end_start, budget, longest):
    """§4.2.1 formal definition: a simple path t1..tm of diagonally adjacent courtiers (all
    distinct, so one direction per courtier and no fork), counts c1..cm >= 1 with
    c1+..+cm <= budget, m <= longest; t1 is the card's courtier, or free for a joker and DB-PLACE4.
    (``longest`` is 4, a constant the compiler folds, except for DB-PLACE4 under Q6's switch.)
    A path's score is summed step by step from 0.0 (the same sums as scoring listed rows).
    Keeping the best, a path is not extended when ``reach`` says no extension can beat the best.
    (Measured: walking a precomputed table of all paths instead was slower.)"""
    for t1 in range(first_start, end_start):
        for c1 in range(1, budget + 1):
            s1 = 0.0 + gains[t1, c1] if keep_best else 0.0
            n_moves, best = add_path(moves, n_moves, best, keep_best, s1 + kind_score, kind, card, 1,
                                     t1, c1, -1, 0, -1, 0, -1, 0)
            # no marker left (the neighbours' loops below would list nothing), or no extension
            # can beat the best
            if budget == c1 or longest < 2:
                continue
            if keep_best and s1 + reach[min(3, budget - c1)] + kind_score <= best:
                continue
            for i2 in range(degree[t1]):
                t2 = adjacency[t1, i2]
                for c2 in range(1, budget - c1 + 1):
                    s2 = s1 + gains[t2, c2] if keep_best else 0.0
                    n_moves, best = add_path(moves, n_moves, best, keep_best, s2 + kind_score, kind, card, 2,
                                             t1, c1, t2, c2, -1, 0, -1, 0)
                    if budget == c1 + c2 or longest < 3:
                        continue
                    if keep_best and s2 + reach[min(3, budget - c1 - c2)] + kind_score <= best:
                        continue
                    for i3 in range(degree[t2]):
                        t3 = adjacency[t2, i3]
                        if t3 == t1:
                            continue
                        for c3 in range(1, budget - c1 - c2 + 1):
                            s3 = s2 + gains[t3, c3] if keep_best else 0.0
                            n_moves, best = add_path(moves, n_moves, best, keep_best, s3 + kind_score, kind, card,
                                                     3, t1, c1, t2, c2, t3, c3, -1, 0)
                            if budget == c1 + c2 + c3 or longest < 4:
                                continue
                            if keep_best and s3 + reach[min(3, budget - c1 - c2 - c3)] + kind_score <= best:
                                continue
                            for i4 in range(degree[t3]):
                                t4 = adjacency[t3, i4]
                                if t4 == t1 or t4 == t2:
                                    continue
                                for c4 in range(1, budget - c1 - c2 - c3 + 1):
                                    s4 = s3 + gains[t4, c4] if keep_best else 0.0
                                    n_moves, best = add_path(moves, n_moves, best, keep_best, s4 + kind_score, kind,
                                                             card, 4, t1, c1, t2, c2, t3, c3, t4, c4)
    return n_moves, best
