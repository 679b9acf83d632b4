"""Louis XIV bot decisions: the rules' one entry point to the bots, a compiled ``choose_*``
function per decision point (rules §10.1), each dispatching on the seat's family id.

A bot is a family id plus a float64 parameter vector (``parameters.py`` documents each entry's
meaning, default and range). The rules kernels ask; these functions answer, reading only what
a player at the table sees: public state and the bot's own hand (sim/louis_xiv/state.py, Q21).

- ``random`` (family 0): uniform over the legal choices at every decision point.
- ``greedy`` (family 1): one-step heuristic. It values each courtier's gift for itself (tokens
  its missions need, coats, gold, cards), estimates its chance to win the courtier from the
  marker lead it would have, and takes the move with the best gain in expected value.
- ``search`` (family 2): flat Monte Carlo at the influence turn (search.py): the
  greedy's best ``max_candidates`` turns, each played out ``rollouts`` times on determinized
  copies of the position; every other decision is the greedy's, with the bot's own greedy
  parameters (its vector is the greedy parameters followed by ``SEARCH_PARAMETERS``). Every
  dispatcher below treats SEARCH as GREEDY (``family == RANDOM`` or else), except
  ``choose_influence_turn``.
"""
import numpy as np
from numba.extending import overload

from sim.core.kernels import inline_game_kernel, game_kernel
from sim.core.random_streams import below, draw_uniforms, pick_by_counts, shuffle
from sim.louis_xiv import constants as C
from sim.louis_xiv.components import list_card_payments
from sim.louis_xiv.data import (LB_SKIP_COST, LB_TOKENSWAP_COST, RETRIEVE_COURTIER_CARD_COUNT, RETRIEVE_FOUR_COUNT,
                                RETRIEVE_JOKER_COUNT, ROUNDS)
from sim.louis_xiv.decisions import (CARD_SWAP, INCOME_GOLD_AND_MARKER, INCOME_TWO_GOLD, INCOME_TWO_MARKERS,
                                     INTRIGUE_NONE, INTRIGUE_ONE_FROM_GENERAL, INTRIGUE_ONE_FROM_OWN,
                                     INTRIGUE_TWO_FROM_OWN, MOVE_CARD, MOVE_KIND, MOVE_LENGTH, MOVE_PATH,
                                     OPTION_PAY_1, ORDER_BITS, PLACE, PLACE_FOUR, PURPOSE_CONDE,
                                     PURPOSE_END_PLACEMENT, RETRIEVE, RETRIEVE_FOUR, SKIP, pack_order)
from sim.louis_xiv.state import IMAGINARY_ACTIVE, LOUIS_COURTIER, N_PLAYERS, ROUND, TRACE_ON, hand_size
from sim.louis_xiv.turn_options import best_turn_option, list_turn_options
from strategies.louis_xiv.parameters import (ALWAYS_PLACE, BRIBE_WILLINGNESS, CARD_FOR_MARKER_SHIFT, CARD_SWAP_SCORE,
                                             CHANCE_LEAD, CHANCE_LEAD_STEP, CHANCE_TIE, DECK_LIGHT, DECK_REACH,
                                             END_PLACE_MIN_GAIN, GREEDY, INTRIGUE_DRAW_BELOW, INTRIGUE_KEEP_SHIFT,
                                             LATE_LEAD_SAFETY,
                                             LB_MARKER_BELOW, LOUIS_AGGRESSION, MAINTENON_MARKERS, MARKERS3_TARGET,
                                             MISSION_SWAP_MODE, NOISE, ONCE_FIRST_SHIFT, PLACE_FOUR_COST, RANDOM,
                                             RETRIEVE_BELOW, RETRIEVE_HIGH_FACTOR, RETRIEVE_LOW_FACTOR, SEARCH,
                                             SKIP_SCORE, START_PLACE_MIN_GAIN, TOKEN_SWAP_ANY, TOKEN_SWAP_RESERVE,
                                             VALUE_COAT, VALUE_CROWN, VALUE_GOLD, VALUE_INFLUENCE_CARD,
                                             VALUE_INTRIGUE_CARD, VALUE_MARKER, VALUE_NEEDED_TOKEN,
                                             VALUE_SECOND_NEEDED_TOKEN, VALUE_TOKEN)


@inline_game_kernel
def bot_rng_source(player):
    return C.SOURCE_BOT + player


# ---------------------------------------------------------------------------------------------
# Shared helpers: what a gift is worth to a player, and what holding m markers on a courtier is
# worth (greedy)
# ---------------------------------------------------------------------------------------------

FIRST_NEEDED = 1    # needed_tokens: a card in hand names the kind and the player holds none
SECOND_NEEDED = 2   # ... a dark-blue card in hand names it twice and the player holds one


@game_kernel
def needed_tokens(state, data, player, needed):
    """needed[kind] = FIRST_NEEDED if a mission card in hand names that token and the player has
    none, SECOND_NEEDED if a card in hand needs two of it (dark blue, §1.5) and he holds one."""
    hand = state.mission_hand[player]
    names_tokens = data.mission_names_tokens
    mission_cost = data.mission_cost
    # bit k of ``named``: a card in hand names token kind k; of ``twice``: names it twice; or-ed
    # without branches over all cards (the loop vectorises)
    named = 0
    twice = 0
    for card in range(names_tokens.shape[0]):
        named |= names_tokens[card] * hand[card]
        twice |= names_tokens[card] * hand[card] if mission_cost[card, 0] == mission_cost[card, 1] else 0
    tokens = state.tokens
    needed[0] = 0
    for kind in range(1, C.N_TOKENS):
        held = tokens[player, kind]
        first = (named >> kind) & 1 if held == 0 else 0
        second = SECOND_NEEDED * ((twice >> kind) & 1) if held == 1 else 0
        needed[kind] = first + second


@inline_game_kernel
def needed_token_bonus(need, value_needed_token, value_second_needed_token):
    """The extra worth of a token its missions need (``needed_tokens``' code ``need``)."""
    second = value_second_needed_token if need == SECOND_NEEDED else 0.0
    return value_needed_token if need == FIRST_NEEDED else second


@inline_game_kernel
def token_value_given(kind, needed, params):
    if kind == C.CROWN:
        return params[VALUE_CROWN]
    return params[VALUE_TOKEN] + needed_token_bonus(needed[kind], params[VALUE_NEEDED_TOKEN],
                                                    params[VALUE_SECOND_NEEDED_TOKEN])


@inline_game_kernel
def gift_value_given(data, courtier, needed, params):
    value = 0.0
    if data.gift_token[courtier] >= 0:
        value += token_value_given(data.gift_token[courtier], needed, params)
    value += data.gift_coats[courtier] * params[VALUE_COAT]
    value += data.gift_gold[courtier] * params[VALUE_GOLD]
    value += data.gift_influence_cards[courtier] * params[VALUE_INFLUENCE_CARD]
    value += data.gift_intrigue_cards[courtier] * params[VALUE_INTRIGUE_CARD]
    value += data.gift_place_any[courtier] * 0.5
    value += data.gift_place_on_count[courtier] * 0.25
    value += data.gift_retrieve[courtier] * params[VALUE_MARKER]
    return value


@game_kernel
def fill_gift_values(data, needed, params, values):
    """values[k]: the worth of courtier k's gift, as ``gift_value_given`` (arrays and parameters
    bound once: a parameter read from ``params`` would be reloaded after every store into
    ``values``, which numba cannot prove is a different array)."""
    gift_token = data.gift_token
    gift_coats = data.gift_coats
    gift_gold = data.gift_gold
    gift_influence_cards = data.gift_influence_cards
    gift_intrigue_cards = data.gift_intrigue_cards
    gift_place_any = data.gift_place_any
    gift_place_on_count = data.gift_place_on_count
    gift_retrieve = data.gift_retrieve
    value_crown = params[VALUE_CROWN]
    value_token = params[VALUE_TOKEN]
    value_needed_token = params[VALUE_NEEDED_TOKEN]
    value_second_needed_token = params[VALUE_SECOND_NEEDED_TOKEN]
    value_coat = params[VALUE_COAT]
    value_gold = params[VALUE_GOLD]
    value_influence_card = params[VALUE_INFLUENCE_CARD]
    value_intrigue_card = params[VALUE_INTRIGUE_CARD]
    value_marker = params[VALUE_MARKER]
    for courtier in range(values.shape[0]):
        value = 0.0
        kind = gift_token[courtier]
        if kind == C.CROWN:
            value += value_crown
        elif kind >= 0:
            value += value_token + needed_token_bonus(needed[kind], value_needed_token, value_second_needed_token)
        value += gift_coats[courtier] * value_coat
        value += gift_gold[courtier] * value_gold
        value += gift_influence_cards[courtier] * value_influence_card
        value += gift_intrigue_cards[courtier] * value_intrigue_card
        value += gift_place_any[courtier] * 0.5
        value += gift_place_on_count[courtier] * 0.25
        value += gift_retrieve[courtier] * value_marker
        values[courtier] = value


@game_kernel
def gift_value(state, data, player, courtier, params):
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    return gift_value_given(data, courtier, needed, params)


@inline_game_kernel
def win_chance(lead, chance_lead, chance_lead_step, chance_tie, certainty):
    """The estimated chance to win a courtier with a marker lead of ``lead`` (0.02 when behind).
    ``certainty`` (``lead_certainty``) is the share of a lead's chance to lose, and of a trailing
    player's chance to catch up, that is gone because the others have fewer turns left.
    Every case is computed and one picked without a branch: the game asks with leads no branch
    predictor can guess, and a mispredicted branch costs more than the arithmetic."""
    estimate = min(0.97, chance_lead + (lead - 1) * chance_lead_step)
    ahead = estimate + certainty * (1.0 - estimate)
    level_or_behind = chance_tie if lead == 0 else 0.02 * (1.0 - certainty)
    return ahead if lead >= 1 else level_or_behind


@inline_game_kernel
def others_turns_left(state, player):
    """The influence turns the other players still have this phase: one per card in hand beyond
    the last, which is never played (§4.2 step 2)."""
    turns = 0
    for other in range(state.game[N_PLAYERS]):
        turns += max(hand_size(state, other) - 1, 0) if other != player else 0
    return turns


@inline_game_kernel
def lead_certainty(turns_left, n_players, late_lead_safety):
    """``late_lead_safety`` x the share of the others' influence turns (4 each: 5 cards drawn,
    §4.1 step 3) already played: 0 before they have played, ``late_lead_safety`` when they have
    no turn left, so a lead late in the phase counts as safer than the same lead early."""
    played = 1.0 - min(1.0, turns_left / (4.0 * max(1, n_players - 1)))
    return late_lead_safety * played


@inline_game_kernel
def player_lead_certainty(state, player, params):
    """``lead_certainty`` for ``player`` now (0 without a branch's cost when the bot does not
    use it: the turns are counted only for a ``late_lead_safety`` above 0)."""
    safety = params[LATE_LEAD_SAFETY]
    if safety <= 0.0:
        return 0.0
    return lead_certainty(others_turns_left(state, player), state.game[N_PLAYERS], safety)


@inline_game_kernel
def holding_value_and_slope(mine, others, mode, printed, louis, gift, chance_lead, chance_lead_step, chance_tie,
                            certainty, value_marker, value_gold, crown_bonus):
    """Expected worth of holding ``mine`` markers on a courtier where the best other colour
    holds ``others``: the chance to win it (from the lead) times the gift, less the markers
    that go to the general supply when winning; on a gold side the bribe is the fallback.
    Also its slope in ``certainty``: the worth is the chance times what winning adds over
    losing, and the chance is affine in the certainty (``win_chance``), so the worth at any
    certainty is the worth at 0 plus the certainty times this slope.
    (Parameters come as scalars: read from ``params`` they would be reloaded after every
    store into the float gains table, which numba cannot prove is a different array.)
    All three cases are computed and one picked (``win_chance``: why without branches)."""
    lead = mine - others
    chance = win_chance(lead, chance_lead, chance_lead_step, chance_tie, certainty)
    estimate = min(0.97, chance_lead + (lead - 1) * chance_lead_step)
    chance_slope = (1.0 - estimate) if lead >= 1 else (0.0 if lead == 0 else -0.02)
    louis_won = gift + crown_bonus - mine * value_marker
    louis_lost = 0.4 * gift
    with_louis = chance * louis_won + (1.0 - chance) * louis_lost
    threshold_met = 0.95 * gift
    threshold_short = 0.3 * gift * mine / max(1, printed)
    by_threshold = threshold_met if mine >= printed else threshold_short
    fallback = max(0.0, gift - printed * value_gold) if mode == C.GOLD_MODE else 0.0
    majority_won = gift - mine * value_marker
    by_majority = chance * majority_won + (1.0 - chance) * fallback
    by_mode = by_threshold if mode == C.THRESHOLD_MODE else by_majority
    value = with_louis if louis else by_mode
    stake_by_mode = 0.0 if mode == C.THRESHOLD_MODE else majority_won - fallback
    stake = louis_won - louis_lost if louis else stake_by_mode
    held = mine > 0
    return (value if held else 0.0), (chance_slope * stake if held else 0.0)


@inline_game_kernel
def holding_value_given(mine, others, mode, printed, louis, gift, chance_lead, chance_lead_step, chance_tie,
                        certainty, value_marker, value_gold, crown_bonus):
    """``holding_value_and_slope``'s worth alone."""
    value, _ = holding_value_and_slope(mine, others, mode, printed, louis, gift, chance_lead, chance_lead_step,
                                       chance_tie, certainty, value_marker, value_gold, crown_bonus)
    return value


@game_kernel
def fill_holding_gains(state, data, player, params, gains):
    """gains[k, c]: the value gained by adding c more markers to courtier k (c < gains.shape[1])."""
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    gifts = state.scratch_gifts
    fill_gift_values(data, needed, params, gifts)
    fill_holding_gains_given(state, data, player, params, gifts, gains)


@game_kernel
def single_courtier_gains(state, data, player, courtier, params, row):
    """``fill_holding_gains`` for one courtier only, into ``row`` (its first row.shape[0] columns)."""
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    gift = gift_value_given(data, courtier, needed, params)
    markers = state.markers
    courtier_holding_gains(state, data, player, courtier, markers[courtier, player],
                           most_other_markers(markers, courtier, player, colours_in_play(state)), gift, params,
                           player_lead_certainty(state, player, params), row, row.shape[0])


@game_kernel
def fill_holding_gains_given(state, data, player, params, gifts, gains):
    """``fill_holding_gains`` with the gift values ``gifts`` already known."""
    n_colours = colours_in_play(state)
    markers = state.markers
    certainty = player_lead_certainty(state, player, params)
    for courtier in range(C.N_COURTIERS):
        courtier_holding_gains(state, data, player, courtier, markers[courtier, player],
                               most_other_markers(markers, courtier, player, n_colours), gifts[courtier], params,
                               certainty, gains[courtier], gains.shape[1])


@inline_game_kernel
def colours_in_play(state):
    """The marker colours on the board: the players', and the imaginary player's (§7)."""
    return state.game[N_PLAYERS] if state.game[IMAGINARY_ACTIVE] == 0 else C.N_COLOURS


@inline_game_kernel
def most_other_markers(markers, courtier, player, n_colours):
    """The most markers another colour in play has on the courtier. Every colour is looked at
    and the ones not counted masked out: a loop of constant length unrolls into picks, where
    one of ``n_colours`` steps kept a loop branch no predictor could learn."""
    others = 0
    for colour in range(C.N_COLOURS):
        counted = colour != player and colour < n_colours
        others = max(others, markers[courtier, colour] if counted else 0)
    return others


@inline_game_kernel
def courtier_holding_gains(state, data, player, courtier, mine, others, gift, params, certainty, row, width,
                           slopes=None):
    """row[c] for c < width: the value gained by adding c markers to one courtier on which the
    player holds ``mine`` markers and the best other colour ``others`` (``certainty``:
    ``lead_certainty``); with ``slopes``, slopes[c] is that gain's slope in the certainty
    (``holding_value_and_slope``; numba compiles the call without slopes without them)."""
    side = state.side[courtier]
    mode = data.courtier_mode[courtier, side]
    printed = data.courtier_value[courtier, side]
    louis = courtier == state.game[LOUIS_COURTIER]
    chance_lead = params[CHANCE_LEAD]
    chance_lead_step = params[CHANCE_LEAD_STEP]
    chance_tie = params[CHANCE_TIE]
    value_marker = params[VALUE_MARKER]
    value_gold = params[VALUE_GOLD]
    crown_bonus = params[VALUE_CROWN] * params[LOUIS_AGGRESSION]
    base, base_slope = holding_value_and_slope(mine, others, mode, printed, louis, gift, chance_lead,
                                               chance_lead_step, chance_tie, certainty, value_marker, value_gold,
                                               crown_bonus)
    row[0] = 0.0
    if slopes is not None:
        slopes[0] = 0.0
    for extra in range(1, width):
        value, slope = holding_value_and_slope(mine + extra, others, mode, printed, louis, gift, chance_lead,
                                               chance_lead_step, chance_tie, certainty, value_marker, value_gold,
                                               crown_bonus)
        row[extra] = value - base
        if slopes is not None:
            slopes[extra] = slope - base_slope


@game_kernel
def prepare_influence_phase(state, data, bot_family, bot_params):
    """Start of the influence phase: what each courtier's gift is worth to each greedy player,
    into ``state.phase_gifts``. Tokens and mission cards do not change during the phase
    (§4.2), so neither do these values; each turn then needs only the holding values."""
    for player in range(state.game[N_PLAYERS]):
        if bot_family[player] != RANDOM:   # greedy, and the search bot's own greedy
            needed = state.scratch_needed
            needed_tokens(state, data, player, needed)
            fill_gift_values(data, needed, bot_params[player], state.phase_gifts[player])
            state.phase_markers[player, :, :] = -1  # no holding gains kept yet


@game_kernel
def phase_influence_gains(state, data, player, params):
    """``influence_gains`` during the influence phase, into the whole ``state.scratch_gains``:
    a courtier's holding gains are recomputed only when the player's markers on it or the most
    markers of another colour changed since they were computed (the sides, Louis XIV and the
    gift values stay as they are during the phase), the others are the ones kept in
    ``state.phase_gains``. A bot with a ``late_lead_safety`` keeps the gains at certainty 0 and
    their slopes (``state.phase_gain_slopes``), and adds the certainty of this turn: the others'
    turns left change at every turn, the markers on most courtiers do not."""
    longest = 4 if state.uses_left[player, C.DB_PLACE4] > 0 else 3
    n_colours = colours_in_play(state)
    markers = state.markers
    gifts = state.phase_gifts[player]
    kept = state.phase_gains[player]
    kept_for = state.phase_markers[player]
    slopes = state.phase_gain_slopes[player]
    safety = params[LATE_LEAD_SAFETY]
    # the courtiers whose gains are stale are listed first, without a branch (about half of
    # them are, in no order a branch predictor could learn), then recomputed in a loop of
    # their own
    stale = state.scratch_ints
    n_stale = 0
    for courtier in range(C.N_COURTIERS):
        # the holding values depend on the markers only through these two numbers
        mine = markers[courtier, player]
        others = most_other_markers(markers, courtier, player, n_colours)
        changed = (kept_for[courtier, 0] != mine) | (kept_for[courtier, 1] != others)
        stale[n_stale] = courtier
        n_stale += 1 if changed else 0
        kept_for[courtier, 0] = mine
        kept_for[courtier, 1] = others
    for index in range(n_stale):
        courtier = stale[index]
        # columns up to this turn's longest placement only: the DB-PLACE4 use that makes it
        # 4 can only be spent during the phase, so later turns never read further
        if safety > 0.0:
            courtier_holding_gains(state, data, player, courtier, kept_for[courtier, 0], kept_for[courtier, 1],
                                   gifts[courtier], params, 0.0, kept[courtier], longest + 1, slopes[courtier])
        else:
            courtier_holding_gains(state, data, player, courtier, kept_for[courtier, 0], kept_for[courtier, 1],
                                   gifts[courtier], params, 0.0, kept[courtier], longest + 1)
    if safety > 0.0:
        certainty = lead_certainty(others_turns_left(state, player), state.game[N_PLAYERS], safety)
        gains = state.scratch_gains
        for courtier in range(C.N_COURTIERS):
            for extra in range(longest + 1):
                gains[courtier, extra] = kept[courtier, extra] + certainty * slopes[courtier, extra]
        add_influence_noise(state, player, params, gains, gains, longest)
    else:
        add_influence_noise(state, player, params, kept, state.scratch_gains, longest)


# ---------------------------------------------------------------------------------------------
# Decision points
# ---------------------------------------------------------------------------------------------

@game_kernel
def choose_influence_turn(state, data, rules, player, moves, family, params):
    """§4.2 step 2: which influence turn; returns its row in ``moves``. The random bot lists the
    legal turns and draws one; the greedy bot scores them as they are enumerated
    (sim/louis_xiv/turn_options.py) and gets the same choice as ``choose_influence_move`` on
    the listed rows, without writing them. Only during the influence phase (the greedy bot
    keeps values from ``prepare_influence_phase`` on)."""
    if family == RANDOM:
        n_moves = list_turn_options(state, data, rules, player, moves)
        return below(state.streams, bot_rng_source(player), n_moves)
    if family == SEARCH:
        return search_or_greedy(state, data, rules, player, moves, params)
    return greedy_influence_turn(state, data, rules, player, moves, params)


@game_kernel
def greedy_influence_turn(state, data, rules, player, moves, params):
    """The greedy's influence turn (``choose_influence_turn``)."""
    if state.game[TRACE_ON] != 0:
        # A replay log shows all path columns of the chosen row, and for a card played for
        # nothing (Q8/Q9) those are left over from earlier listings: list as before, so that
        # replay logs stay what they were.
        n_moves = list_turn_options(state, data, rules, player, moves)
        return choose_influence_move(state, data, player, moves, n_moves, GREEDY, params)
    phase_influence_gains(state, data, player, params)
    retrieve_worth = influence_retrieve_worth(state, player, params)
    # the whole gains table (contiguous): no placement is longer than the columns filled
    best_turn_option(state, data, rules, player, moves, state.scratch_gains, retrieve_worth,
                     -params[PLACE_FOUR_COST], influence_skip_score(data, params), params[CARD_SWAP_SCORE])
    return 0


def search_or_greedy(state, data, rules, player, moves, params):
    """A search bot's influence turn (search.py). Compiled through the overload
    below, which imports the search only when a kernel is compiled (search.py imports the rules
    kernels, which import this module). A rollout plays its own copy of ``choose_influence_turn``
    in which this name is the greedy (search.py, ``rollout_copy``): no compiled recursion."""
    from strategies.louis_xiv.search import search_influence_turn
    return search_influence_turn(state, data, rules, player, moves, params)


@overload(search_or_greedy)
def _search_or_greedy(state, data, rules, player, moves, params):
    from strategies.louis_xiv.search import search_influence_turn

    def search_impl(state, data, rules, player, moves, params):
        return search_influence_turn(state, data, rules, player + 0, moves, params)
    return search_impl


@inline_game_kernel
def listed_turn_score(data, moves, index, gains, general, retrieve_worth, params):
    """The greedy's score of listed influence turn ``index``: the holding gains along a placement
    path, the markers a retrieval brings back, or the fixed score of a skip or card swap."""
    kind = moves[index, MOVE_KIND]
    score = 0.0
    if kind == PLACE or kind == PLACE_FOUR:
        for step in range(moves[index, MOVE_LENGTH]):
            score += gains[moves[index, MOVE_PATH + 2 * step], moves[index, MOVE_PATH + 2 * step + 1]]
        if kind == PLACE_FOUR:
            score -= params[PLACE_FOUR_COST]
    elif kind == RETRIEVE or kind == RETRIEVE_FOUR:
        if kind == RETRIEVE_FOUR:
            wanted = data.numbers[RETRIEVE_FOUR_COUNT]
        elif moves[index, MOVE_CARD] == C.JOKER:
            wanted = data.numbers[RETRIEVE_JOKER_COUNT]
        else:
            wanted = data.numbers[RETRIEVE_COURTIER_CARD_COUNT]
        score = min(wanted, general) * retrieve_worth
        if kind == RETRIEVE_FOUR:
            score -= params[PLACE_FOUR_COST]
    elif kind == SKIP:
        score = influence_skip_score(data, params)
    elif kind == CARD_SWAP:
        score = params[CARD_SWAP_SCORE]
    return score


@game_kernel
def score_listed_turns(state, data, player, moves, n_moves, params, scores):
    """scores[i]: the greedy's score of listed influence turn i, as ``choose_influence_move``
    but without its noise (the search bot ranks its candidates with it)."""
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    fill_gift_values(data, needed, params, state.scratch_gifts)
    longest = 4 if state.uses_left[player, C.DB_PLACE4] > 0 else 3
    gains = state.scratch_gains[:, :longest + 1]
    fill_holding_gains_given(state, data, player, params, state.scratch_gifts, gains)
    general = state.general_supply[player]
    retrieve_worth = influence_retrieve_worth(state, player, params)
    for index in range(n_moves):
        score = listed_turn_score(data, moves, index, gains, general, retrieve_worth, params)
        scores[index] = score


@game_kernel
def choose_influence_move(state, data, player, moves, n_moves, family, params):
    """§4.2 step 2: which of the ``n_moves`` listed influence turns (index into ``moves``)."""
    source = bot_rng_source(player)
    if family == RANDOM:
        return below(state.streams, source, n_moves)
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    fill_gift_values(data, needed, params, state.scratch_gifts)
    longest = influence_gains(state, data, player, params, state.scratch_gifts)
    gains = state.scratch_gains[:, :longest + 1]
    general = state.general_supply[player]
    retrieve_worth = influence_retrieve_worth(state, player, params)
    best = 0
    best_score = -1e18
    for index in range(n_moves):
        score = listed_turn_score(data, moves, index, gains, general, retrieve_worth, params)
        if score > best_score:
            best_score = score
            best = index
    return best


@game_kernel
def influence_gains(state, data, player, params, gifts):
    """Greedy: the value of adding c markers to each courtier (whose gifts are worth ``gifts``),
    in ``state.scratch_gains[:, c]`` for c <= the returned longest placement, with a little
    noise per courtier so that equally good moves are chosen between at random."""
    longest = 4 if state.uses_left[player, C.DB_PLACE4] > 0 else 3
    gains = state.scratch_gains[:, :longest + 1]
    fill_holding_gains_given(state, data, player, params, gifts, gains)
    add_influence_noise(state, player, params, gains, gains, longest)
    return longest


@game_kernel
def add_influence_noise(state, player, params, exact, gains, longest):
    """gains = ``exact`` plus the same random jitter on every gain of a courtier (one draw per
    courtier, all drawn first: the draws are independent hashes of the stream counter,
    computed side by side); ``exact`` may be ``gains`` itself."""
    noise = params[NOISE]
    if noise > 0.0:
        jitter = state.scratch_jitter
        draw_uniforms(state.streams, bot_rng_source(player), jitter)
        for courtier in range(C.N_COURTIERS):
            shift = noise * jitter[courtier]
            gains[courtier, 0] = exact[courtier, 0]
            for extra in range(1, longest + 1):
                gains[courtier, extra] = exact[courtier, extra] + shift
    else:
        for courtier in range(C.N_COURTIERS):
            for extra in range(longest + 1):
                gains[courtier, extra] = exact[courtier, extra]


@inline_game_kernel
def influence_retrieve_worth(state, player, params):
    """Greedy: the worth of each marker a retrieval brings back, more when the own supply is low."""
    low = state.own_supply[player] <= params[RETRIEVE_BELOW]
    return params[VALUE_MARKER] * (params[RETRIEVE_LOW_FACTOR] if low else params[RETRIEVE_HIGH_FACTOR])


@inline_game_kernel
def influence_skip_score(data, params):
    return params[SKIP_SCORE] - data.numbers[LB_SKIP_COST] * params[VALUE_GOLD]


@game_kernel
def choose_card_to_spend(state, data, player, family, params):
    """DB-PLACE4: which influence card is played as the joker of 4."""
    if family == RANDOM:
        return pick_by_counts(state.streams, bot_rng_source(player), state.influence_hand[player])
    gains = state.scratch_gains[:, :4]
    fill_holding_gains(state, data, player, params, gains)
    best = -1
    best_gain = 1e18
    for card in range(C.N_COURTIERS):
        if state.influence_hand[player, card] > 0 and gains[card, 3] < best_gain:
            best_gain = gains[card, 3]
            best = card
    return best if best >= 0 else C.JOKER


@game_kernel
def use_optional_ability(state, data, player, ability, family, params):
    """Whether to use an optional ability now (LB-MARKER, DB-INTRIGUE, DB-CARDFORMARKER,
    start-of-phase placements)."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 2) == 1
    if ability == C.DB_CARDFORMARKER:
        return state.own_supply[player] > params[RETRIEVE_BELOW] + params[CARD_FOR_MARKER_SHIFT]
    if ability == C.LB_MARKER:
        return state.general_supply[player] > 0 and state.own_supply[player] < params[LB_MARKER_BELOW]
    if ability == C.DB_INTRIGUE:
        return state.intrigue_hand[player].sum() < params[INTRIGUE_DRAW_BELOW]
    if params[START_PLACE_MIN_GAIN] > ALWAYS_PLACE:
        # a start-of-phase placement: only where one more marker is worth enough
        courtier = start_placement_courtier(state, ability)
        if courtier >= 0:
            row = state.scratch_gains[courtier, :2]
            single_courtier_gains(state, data, player, courtier, params, row)
            return row[1] >= params[START_PLACE_MIN_GAIN]
    return True


@game_kernel
def start_placement_courtier(state, ability):
    """The courtier a start-of-phase ability puts its marker on (§4.2 step 1), -1 for others."""
    for slot in range(len(C.START_PLACEMENT_ABILITIES)):
        if C.START_PLACEMENT_ABILITIES[slot] == ability:
            courtier = C.START_PLACEMENT_COURTIER[slot]
            return state.game[LOUIS_COURTIER] if courtier < 0 else courtier
    return -1


# Resources-step orders (decisions.py packing): the rules file's, and DB-CARDFORMARKER first
RULES_FILE_RESOURCES_ORDER = pack_order(C.RESOURCES_ABILITIES)
CARD_FOR_MARKER_FIRST_ORDER = pack_order((C.DB_CARDFORMARKER,)
                                         + tuple(a for a in C.RESOURCES_ABILITIES if a != C.DB_CARDFORMARKER))


@game_kernel
def choose_resources_order(state, data, player, family, params):
    """§4.1 step 2: the order in which the player uses his resources abilities (packed, as in
    decisions.py). Random: a uniform order of the abilities he holds, from a stream of its own
    (``SOURCE_RESOURCES_ORDER + seat``), so that no other draw shifts. Greedy: DB-CARDFORMARKER
    first when it spends a marker now and a marker-retrieving ability (LB-MARKER, B-INCOME,
    DB-MARKERS3) can then bring that marker back; otherwise the rules file's order, where
    DB-CARDFORMARKER comes last and markers retrieved before can pay for it (the order matters
    for nothing else, so other games stay as they were)."""
    if family == RANDOM:
        return random_resources_order(state, player)
    counts = state.ability_count[player]
    retrieving = counts[C.LB_MARKER] + counts[C.B_INCOME] + counts[C.DB_MARKERS3]
    if (counts[C.DB_CARDFORMARKER] > 0 and retrieving > 0 and state.own_supply[player] > 0
            and use_optional_ability(state, data, player, C.DB_CARDFORMARKER, family, params)):
        return CARD_FOR_MARKER_FIRST_ORDER
    return RULES_FILE_RESOURCES_ORDER


@game_kernel
def random_resources_order(state, player):
    """The abilities the player holds in a shuffled order, then the others (which do nothing)."""
    abilities = state.scratch_ints
    n_held = 0
    for ability in C.RESOURCES_ABILITIES:
        if state.ability_count[player, ability] > 0:
            abilities[n_held] = ability
            n_held += 1
    n_listed = n_held
    for ability in C.RESOURCES_ABILITIES:
        if state.ability_count[player, ability] == 0:
            abilities[n_listed] = ability
            n_listed += 1
    if n_held > 1:
        shuffle(state.streams, C.SOURCE_RESOURCES_ORDER + player, abilities, n_held)
    order = 0
    for slot in range(n_listed):
        order |= abilities[slot] << (ORDER_BITS * slot)
    return order


@game_kernel
def choose_income(state, data, player, family, params):
    """B-INCOME: 2 gold, 1 gold + 1 marker, or 2 markers (general -> own)."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 3)
    if state.general_supply[player] >= 2 and state.own_supply[player] <= params[RETRIEVE_BELOW]:
        return INCOME_TWO_MARKERS
    if state.general_supply[player] >= 1 and params[VALUE_MARKER] > params[VALUE_GOLD]:
        return INCOME_GOLD_AND_MARKER
    return INCOME_TWO_GOLD


@game_kernel
def choose_markers_to_retrieve(state, data, player, maximum, family, params):
    """DB-MARKERS3: how many markers (0..maximum) to move general -> own."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), maximum + 1)
    # up to the target own supply (the default target, 16, is never short of ``maximum``)
    wanted = int(params[MARKERS3_TARGET]) - state.own_supply[player]
    return max(0, min(maximum, wanted))


@game_kernel
def choose_intrigue(state, data, player, courtier, family, params):
    """§4.3 step 1: play this courtier's intrigue card, and how."""
    general = state.general_supply[player]
    own = state.own_supply[player]
    if family == RANDOM:
        legal = state.scratch_ints[:4]
        n_legal = 1
        legal[0] = INTRIGUE_NONE
        if general > 0:
            legal[n_legal] = INTRIGUE_ONE_FROM_GENERAL
            n_legal += 1
        if own > 0:
            legal[n_legal] = INTRIGUE_ONE_FROM_OWN
            n_legal += 1
        if own > 1:
            legal[n_legal] = INTRIGUE_TWO_FROM_OWN
            n_legal += 1
        return legal[below(state.streams, bot_rng_source(player), n_legal)]
    gains = state.scratch_gains[courtier, :3]
    single_courtier_gains(state, data, player, courtier, params, gains)
    gain_one = gains[1]
    gain_two = gains[2]
    keep = params[VALUE_COAT] + params[INTRIGUE_KEEP_SHIFT]  # an unplayed intrigue card is a coat at the end
    if general > 0 and gain_one + params[VALUE_MARKER] >= gain_two and gain_one > keep:
        return INTRIGUE_ONE_FROM_GENERAL
    if own > 1 and gain_two > keep and gain_two > gain_one:
        return INTRIGUE_TWO_FROM_OWN
    if own > 0 and gain_one > keep:
        return INTRIGUE_ONE_FROM_OWN
    return INTRIGUE_NONE


@game_kernel
def choose_once_first(state, data, player, courtier, family, params):
    """DB-ONCEFIRST: win this tie for most (once per evaluation phase)?"""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 2) == 1
    return gift_value(state, data, player, courtier, params) > params[VALUE_COAT] + params[ONCE_FIRST_SHIFT]


@game_kernel
def choose_bribe(state, data, player, courtier, cost, family, params):
    """§4.3.1: pay the bribe for this courtier's gift?"""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 2) == 1
    return gift_value(state, data, player, courtier, params) * params[BRIBE_WILLINGNESS] >= cost * params[VALUE_GOLD]


@game_kernel
def choose_courtier_for_marker(state, data, player, purpose, family, params):
    """Condé's marker or DB-ENDPLACE: which courtier (0..11), or -1 for none where optional."""
    if family == RANDOM:
        if purpose == PURPOSE_CONDE:
            return below(state.streams, bot_rng_source(player), C.N_COURTIERS)
        return below(state.streams, bot_rng_source(player), C.N_COURTIERS + 1) - 1
    gains = state.scratch_gains[:, :2]
    fill_holding_gains(state, data, player, params, gains)
    best = np.argmax(gains[:, 1])
    if purpose == PURPOSE_END_PLACEMENT and gains[best, 1] < params[END_PLACE_MIN_GAIN]:
        return -1   # DB-ENDPLACE is optional (§6)
    return best


@game_kernel
def choose_courtier_for_marker_among(state, data, player, first, excluded, family, params):
    """Condé's marker where the rule switch conde_targets narrows the targets (Q26): a courtier
    of first..11 other than ``excluded`` (-1: none left out). Random: uniform over them; greedy:
    the best holding gain, the first of equal ones (as ``choose_courtier_for_marker``)."""
    if family == RANDOM:
        left_out = 1 if excluded >= first else 0
        pick = first + below(state.streams, bot_rng_source(player), C.N_COURTIERS - first - left_out)
        return pick + 1 if left_out == 1 and pick >= excluded else pick
    gains = state.scratch_gains[:, :2]
    fill_holding_gains(state, data, player, params, gains)
    best = -1
    for courtier in range(first, C.N_COURTIERS):
        if courtier != excluded and (best < 0 or gains[courtier, 1] > gains[best, 1]):
            best = courtier
    return best


@game_kernel
def choose_maintenon_count(state, data, player, maximum, family, params):
    """Maintenon: how many markers (0..maximum) to put on her named courtier."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), maximum + 1)
    return min(maximum, int(params[MAINTENON_MARKERS]))


@inline_game_kernel
def payment_cost(option, needed, params):
    cost = 0.0
    for slot in range(2):
        cost += token_value_given(option[OPTION_PAY_1 + slot], needed, params)
    return cost


@game_kernel
def choose_mission_play(state, data, player, options, n_options, family, params):
    """§4.5 step 1: which (card, payment) to play, or -1 to end the mission turn."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), n_options + 1) - 1
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    best = -1
    best_cost = 1e18
    for index in range(n_options):
        cost = payment_cost(options[index], needed, params)
        if cost < best_cost:
            best_cost = cost
            best = index
    return best  # a mission is 5 points: always worth the tokens


@game_kernel
def choose_mission_deck(state, data, player, family, params):
    """§4.5 step 2: which non-empty mission deck to draw from."""
    if family == RANDOM:
        non_empty = 0
        for colour in range(C.N_MISSION_COLOURS):
            if state.mission_deck_count[colour] > 0:
                non_empty += 1
        pick = below(state.streams, bot_rng_source(player), non_empty)
        for colour in range(C.N_MISSION_COLOURS):
            if state.mission_deck_count[colour] > 0:
                if pick == 0:
                    return colour
                pick -= 1
    # a colour's preference is what a card of it is worth; with deck_reach, times the chance to
    # complete the card drawn (deck_payability), blended in by deck_reach (0: fixed, 1: full)
    reach = params[DECK_REACH]
    surest = sure_deck_weight(state, params, reach) if reach > 0.0 else 0.0
    best = -1
    best_weight = -1.0
    for colour in range(C.N_MISSION_COLOURS):
        if state.mission_deck_count[colour] == 0:
            continue
        weight = params[DECK_LIGHT + colour]
        if reach > 0.0:
            # a weight is at most the preference: a deck whose preference is below another's sure
            # weight cannot be chosen, so its payability (the costly part) is not worked out
            if weight * (1.0 + 1e-9) < surest:
                continue
            weight *= 1.0 - reach + reach * deck_payability(state, data, player, colour)
        if weight > best_weight:
            best_weight = weight
            best = colour
    return best


@inline_game_kernel
def sure_deck_weight(state, params, reach):
    """The largest weight a non-empty mission deck has whatever its payability (0 to 1): its
    preference x (1 - deck_reach)."""
    surest = -1.0
    for colour in range(C.N_MISSION_COLOURS):
        if state.mission_deck_count[colour] > 0:
            surest = max(surest, params[DECK_LIGHT + colour] * (1.0 - reach))
    return surest


@game_kernel
def deck_payability(state, data, player, colour):
    """How payable the cards of one mission colour the player has not seen are, with his tokens:
    the mean over those cards of 1 (payable now), 1/2 (one token short) or 1/4 (two short:
    tokens still to collect), or in the last round only the cards payable now (no tokens come
    after it). Unseen: neither in his hand nor played by anyone (public, Q21); the deck holds
    some of them, the opponents' hands the others."""
    mission_colour = data.mission_colour
    short_credit = 0.0 if state.game[ROUND] >= data.numbers[ROUNDS] else 0.5
    total = 0.0
    n_unseen = 0
    for card in range(mission_colour.shape[0]):
        if mission_colour[card] != colour or state.mission_hand[player, card] == 1:
            continue
        played = False
        for other in range(state.game[N_PLAYERS]):
            played = played or state.mission_played[other, card] == 1
        if played:
            continue
        n_unseen += 1
        short = tokens_short(state.tokens[player], data.mission_cost[card])
        total += 1.0 if short == 0 else short_credit ** short
    return total / n_unseen if n_unseen > 0 else 0.0


@game_kernel
def tokens_short(tokens, cost):
    """How many tokens the player lacks to pay a card costing ``cost`` (§4.5: a crown pays for
    any token, a "?" takes any token)."""
    crowns = tokens[C.CROWN]
    held = 0
    for kind in range(C.N_TOKENS):
        held += tokens[kind]
    short = 0
    used = 0
    for slot in range(2):
        kind = cost[slot]
        if kind == C.ANY_TOKEN:
            continue
        wanted = 2 if slot == 0 and cost[1] == kind else 1
        if slot == 1 and cost[0] == kind:
            continue     # the pair was counted at slot 0
        have = tokens[kind] if kind != C.CROWN else 0
        covered = min(have, wanted)
        short += wanted - covered
        used += covered
    from_crowns = min(crowns, short)
    short -= from_crowns
    used += from_crowns
    for slot in range(2):
        if cost[slot] == C.ANY_TOKEN:
            if held - used > 0:
                used += 1
            else:
                short += 1
    return short


@game_kernel
def choose_token_swap(state, data, player, family, params):
    """LB-TOKENSWAP: which non-crown token to trade for a crown, or -1."""
    if family == RANDOM:
        pick = below(state.streams, bot_rng_source(player), C.N_TOKENS)  # 0 = do not swap
        if pick == 0 or state.tokens[player, pick] == 0:
            return -1
        return pick
    if state.gold[player] - data.numbers[LB_TOKENSWAP_COST] < params[TOKEN_SWAP_RESERVE]:
        return -1
    # when it makes a mission card in hand payable that is not payable now
    for kind in range(1, C.N_TOKENS):
        if state.tokens[player, kind] == 0:
            continue
        state.tokens[player, kind] -= 1
        state.tokens[player, C.CROWN] += 1
        enabled = any_payable(state, data, player)
        state.tokens[player, kind] += 1
        state.tokens[player, C.CROWN] -= 1
        if enabled and not any_payable(state, data, player):
            return kind
    if params[TOKEN_SWAP_ANY] != 0.0:
        # or a token no card in hand names: the crown pays for any card drawn later
        for kind in range(1, C.N_TOKENS):
            if state.tokens[player, kind] > 0 and not names_token(state, data, player, kind):
                return kind
    return -1


@game_kernel
def names_token(state, data, player, kind):
    """Some mission card in the player's hand names token ``kind`` in its cost."""
    names_tokens = data.mission_names_tokens
    for card in range(names_tokens.shape[0]):
        if state.mission_hand[player, card] == 1 and (names_tokens[card] >> kind) & 1:
            return True
    return False


@game_kernel
def any_payable(state, data, player):
    """Some mission card in hand can be paid for now (§4.5)."""
    tokens = state.tokens[player]
    mission_cost = data.mission_cost
    for card in range(mission_cost.shape[0]):
        if state.mission_hand[player, card] == 1 and \
                list_card_payments(tokens, data, card, state.scratch_payments) > 0:
            return True
    return False


MISSION_SWAP_NONE = 1        # mission_swap_mode values (parameters.py); 0: dark-blue cards without a token
MISSION_SWAP_UNPAYABLE = 2


@game_kernel
def choose_mission_swap(state, data, player, family, params, chosen):
    """LB-MISSIONSWAP: up to 2 hand cards to put under their decks; returns how many, cards in
    ``chosen``."""
    n_hand = state.mission_hand[player].sum()
    if n_hand == 0:
        return 0
    source = bot_rng_source(player)
    if family == RANDOM:
        count = below(state.streams, source, min(2, n_hand) + 1)
        taken = 0
        while taken < count:
            pick = below(state.streams, source, n_hand)
            for card in range(data.mission_colour.shape[0]):
                if state.mission_hand[player, card] == 1:
                    if pick == 0:
                        if taken == 0 or chosen[0] != card:
                            chosen[taken] = card
                            taken += 1
                        break
                    pick -= 1
        return count
    mode = params[MISSION_SWAP_MODE]
    if mode == MISSION_SWAP_NONE:
        return 0
    taken = 0
    for card in range(data.mission_colour.shape[0]):
        if taken == 2:
            break
        if state.mission_hand[player, card] == 0:
            continue
        if mode == MISSION_SWAP_UNPAYABLE:
            # any card it cannot pay for now
            if list_card_payments(state.tokens[player], data, card, state.scratch_payments) == 0:
                chosen[taken] = card
                taken += 1
        elif data.mission_colour[card] == C.DARK:
            # dark-blue cards whose token it holds none of (hard to complete)
            kind = data.mission_cost[card, 0]
            if state.tokens[player, kind] == 0 and state.tokens[player, C.CROWN] == 0:
                chosen[taken] = card
                taken += 1
    return taken



@game_kernel
def choose_token_to_return(state, data, player, family, params):
    """§4.5 step 5: which token to give back (for a coat) when holding too many."""
    if family == RANDOM:
        return pick_by_counts(state.streams, bot_rng_source(player), state.tokens[player])
    needed = state.scratch_needed
    needed_tokens(state, data, player, needed)
    worst = -1
    worst_value = 1e18
    for kind in range(C.N_TOKENS):
        if state.tokens[player, kind] > 0:
            value = token_value_given(kind, needed, params)
            if value < worst_value:
                worst_value = value
                worst = kind
    return worst
