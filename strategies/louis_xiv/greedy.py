"""The Louis XIV greedy (family GREEDY): a one-step heuristic at every decision point.

It values each courtier's gift for itself (tokens its missions need, coats, gold, cards),
estimates its chance to win the courtier from the marker lead it would have, and takes the move
with the best gain in expected value; its other decisions are rules of thumb read from the bot's
parameter vector (``parameters.py`` documents each entry's meaning, default and range). It reads
only what a player at the table sees: public state and its own hand (sim/louis_xiv/state.py,
Q21). ``decide.py`` asks it (the rules' one entry point); the search bot uses it for its own
other decisions, to rank its candidates, and for every seat in its rollouts.
"""
import numpy as np

from sim.core.kernels import inline_game_kernel, game_kernel
from sim.core.random_streams import draw_uniforms
from sim.louis_xiv import constants as C
from sim.louis_xiv.components import list_card_payments
from sim.louis_xiv.data import (LB_SKIP_COST, LB_TOKENSWAP_COST, RETRIEVE_COURTIER_CARD_COUNT, RETRIEVE_FOUR_COUNT,
                                RETRIEVE_JOKER_COUNT, ROUNDS)
from sim.louis_xiv.decisions import (CARD_SWAP, INCOME_GOLD_AND_MARKER, INCOME_TWO_GOLD, INCOME_TWO_MARKERS,
                                     INTRIGUE_NONE, INTRIGUE_ONE_FROM_GENERAL, INTRIGUE_ONE_FROM_OWN,
                                     INTRIGUE_TWO_FROM_OWN, MOVE_CARD, MOVE_KIND, MOVE_LENGTH, MOVE_PATH,
                                     OPTION_PAY_1, PLACE, PLACE_FOUR, PURPOSE_END_PLACEMENT, RETRIEVE,
                                     RETRIEVE_FOUR, SKIP, pack_order)
from sim.louis_xiv.state import IMAGINARY_ACTIVE, LOUIS_COURTIER, N_PLAYERS, ROUND, TRACE_ON, hand_size
from sim.louis_xiv.turn_options import best_turn_option, list_turn_options
from strategies.louis_xiv.parameters import (ALWAYS_PLACE, BRIBE_WILLINGNESS, CARD_FOR_MARKER_SHIFT, CARD_SWAP_SCORE,
                                             CHANCE_LEAD, CHANCE_LEAD_STEP, CHANCE_TIE, DECK_LIGHT, DECK_REACH,
                                             END_PLACE_MIN_GAIN, INCOME_NEVER, INTRIGUE_DRAW_BELOW, INTRIGUE_KEEP_SHIFT,
                                             LATE_LEAD_SAFETY,
                                             LB_MARKER_BELOW, LOUIS_AGGRESSION, MAINTENON_MARKERS, MARKERS3_TARGET,
                                             MISSION_SWAP_MODE, NEVER_BRIBE, NEVER_PLACE, NEVER_PLACE_FOUR_COST, NEVER_SHIFT,
                                             NEVER_TOKEN_SWAP_RESERVE, NOISE, ONCE_FIRST_SHIFT, PLACE_FOUR_COST,
                                             RETRIEVE_BELOW, RETRIEVE_HIGH_FACTOR, RETRIEVE_LOW_FACTOR,
                                             SKIP_SCORE, START_PLACE_MIN_GAIN, TOKEN_SWAP_ANY, TOKEN_SWAP_RESERVE,
                                             VALUE_COAT, VALUE_CROWN, VALUE_GOLD, VALUE_INFLUENCE_CARD,
                                             VALUE_INTRIGUE_CARD, VALUE_MARKER, VALUE_NEEDED_TOKEN,
                                             VALUE_SECOND_NEEDED_TOKEN, VALUE_TOKEN)


@inline_game_kernel
def bot_rng_source(player):
    """The seat's own random stream: the greedy's noise, the random bot's draws (decide.py)."""
    return C.SOURCE_BOT + player


# ---------------------------------------------------------------------------------------------
# Shared helpers: what a gift is worth to a player, and what holding m markers on a courtier is
# worth
# ---------------------------------------------------------------------------------------------

FIRST_NEEDED = 1    # needed_tokens: a card in hand names the kind and the player holds none
SECOND_NEEDED = 2   # ... a dark-blue card in hand names it twice and the player holds one


@game_kernel
def needed_tokens(state, data, player, needed):
    """needed[kind] = FIRST_NEEDED if a mission card in hand names that token and the player has
    none, SECOND_NEEDED if a card in hand needs two of it (dark blue, §1.5) and he holds one."""
    list_needed_tokens(state, data, player, needed, True)


@game_kernel
def bot_needed_tokens(state, data, player, params, needed):
    """``needed_tokens`` as the bot weighs them: without a ``value_second_needed_token`` a
    second token is worth no more than any other, so SECOND_NEEDED is not looked for (the
    same values: ``needed_token_bonus`` gives it 0 then)."""
    list_needed_tokens(state, data, player, needed, params[VALUE_SECOND_NEEDED_TOKEN] != 0.0)


@inline_game_kernel
def list_needed_tokens(state, data, player, needed, second):
    """``needed_tokens``, SECOND_NEEDED only with ``second``."""
    hand = state.mission_hand[player]
    names_tokens = data.mission_names_tokens
    # bit k of ``named``: a card in hand names token kind k; of ``twice``: names it twice; or-ed
    # without branches over all cards (a pick, not a multiply by the 0/1 hand entry: the loop
    # vectorises, and 64-bit multiplies have no vector instruction here)
    named = 0
    for card in range(names_tokens.shape[0]):
        named |= names_tokens[card] if hand[card] != 0 else 0
    tokens = state.tokens
    twice = 0
    if second and (named & held_once_kinds(tokens, player)) != 0:
        # a second token counts only for a kind a card names and the player holds exactly
        # one of: without such a kind the cards are not looked at again
        mission_cost = data.mission_cost
        for card in range(names_tokens.shape[0]):
            doubled = (hand[card] != 0) & (mission_cost[card, 0] == mission_cost[card, 1])
            twice |= names_tokens[card] if doubled else 0
    needed[0] = 0
    for kind in range(1, C.N_TOKENS):
        held = tokens[player, kind]
        first = (named >> kind) & 1 if held == 0 else 0
        second_needed = SECOND_NEEDED * ((twice >> kind) & 1) if held == 1 else 0
        needed[kind] = first + second_needed


@inline_game_kernel
def held_once_kinds(tokens, player):
    """Bit k set: the player holds exactly one token of kind k (not a crown)."""
    held_once = 0
    for kind in range(1, C.N_TOKENS):
        held_once |= (1 << kind) if tokens[player, kind] == 1 else 0
    return held_once


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
    bot_needed_tokens(state, data, player, params, needed)
    return gift_value_given(data, courtier, needed, params)


@inline_game_kernel
def lead_estimate(lead, chance_lead, chance_lead_step):
    """The chance_lead estimate of winning with a lead of ``lead`` >= 1 markers."""
    return min(0.97, chance_lead + (lead - 1) * chance_lead_step)


@inline_game_kernel
def win_chance(lead, chance_lead, chance_lead_step, chance_tie, certainty):
    """The estimated chance to win a courtier with a marker lead of ``lead`` (0.02 when behind).
    ``certainty`` (``lead_certainty``) is the share of a lead's chance to lose, and of a trailing
    player's chance to catch up, that is gone because the others have fewer turns left.
    Every case is computed and one picked without a branch: the game asks with leads no branch
    predictor can guess, and a mispredicted branch costs more than the arithmetic."""
    estimate = lead_estimate(lead, chance_lead, chance_lead_step)
    ahead = estimate + certainty * (1.0 - estimate)
    level_or_behind = chance_tie if lead == 0 else 0.02 * (1.0 - certainty)
    return ahead if lead >= 1 else level_or_behind


@inline_game_kernel
def win_chance_uncertain(lead, chance_lead, chance_lead_step, chance_tie):
    """``win_chance`` at certainty 0, without its two terms: the same numbers (the estimate
    plus 0 x a finite number is the estimate, 0.02 x 1 is 0.02), fewer instructions for
    every bot that does not use late_lead_safety, and for the others early in a phase."""
    estimate = lead_estimate(lead, chance_lead, chance_lead_step)
    level_or_behind = chance_tie if lead == 0 else 0.02
    return estimate if lead >= 1 else level_or_behind


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
def louis_holding_value(chance, mine, gift, value_marker, crown_bonus):
    """``holding_value_at_chance`` on Louis XIV's courtier (his crown to the winner; a loser
    counts on 0.4 of the gift as second)."""
    louis_won = gift + crown_bonus - mine * value_marker
    louis_lost = 0.4 * gift
    return chance * louis_won + (1.0 - chance) * louis_lost


@inline_game_kernel
def threshold_holding_value(mine, printed, gift):
    """``holding_value_at_chance`` on a threshold side (no race: the printed count or a share)."""
    threshold_met = 0.95 * gift
    threshold_short = 0.3 * gift * mine / max(1, printed)
    return threshold_met if mine >= printed else threshold_short


@inline_game_kernel
def majority_fallback(mode, printed, gift, value_gold):
    """What losing the race for most still brings: the bribe's worth on a gold side."""
    return max(0.0, gift - printed * value_gold) if mode == C.GOLD_MODE else 0.0


@inline_game_kernel
def majority_holding_value(chance, mine, gift, value_marker, fallback):
    """``holding_value_at_chance`` on a gold or first-place side."""
    majority_won = gift - mine * value_marker
    return chance * majority_won + (1.0 - chance) * fallback


@inline_game_kernel
def holding_value_at_chance(chance, mine, mode, printed, louis, gift, value_marker, value_gold, crown_bonus):
    """Expected worth of holding ``mine`` markers on a courtier won with chance ``chance``: the
    chance times the gift, less the markers that go to the general supply when winning; on a
    gold side the bribe is the fallback. (Parameters come as scalars: read from ``params`` they
    would be reloaded after every store into the float gains table, which numba cannot prove is
    a different array.) The definition: ``courtier_holding_gains`` and its variants pick the
    courtier's case once and compute only that one."""
    with_louis = louis_holding_value(chance, mine, gift, value_marker, crown_bonus)
    by_threshold = threshold_holding_value(mine, printed, gift)
    by_majority = majority_holding_value(chance, mine, gift, value_marker,
                                         majority_fallback(mode, printed, gift, value_gold))
    by_mode = by_threshold if mode == C.THRESHOLD_MODE else by_majority
    value = with_louis if louis else by_mode
    return value if mine > 0 else 0.0


@inline_game_kernel
def lead_chance_slope(lead, chance_lead, chance_lead_step):
    """How ``win_chance`` grows with the certainty: by a lead's chance to lose (1 - the
    estimate), not at a tie, and down by a trailing player's 0.02."""
    estimate = lead_estimate(lead, chance_lead, chance_lead_step)
    return (1.0 - estimate) if lead >= 1 else (0.0 if lead == 0 else -0.02)


@inline_game_kernel
def louis_stake(mine, gift, value_marker, crown_bonus):
    """What winning Louis XIV's courtier adds over losing it (``louis_holding_value``)."""
    louis_won = gift + crown_bonus - mine * value_marker
    louis_lost = 0.4 * gift
    return louis_won - louis_lost


@inline_game_kernel
def majority_stake(mine, gift, value_marker, fallback):
    """What winning the race for most adds over losing it (``majority_holding_value``)."""
    majority_won = gift - mine * value_marker
    return majority_won - fallback


@game_kernel
def fill_holding_gains(state, data, player, params, gains):
    """gains[k, c]: the value gained by adding c more markers to courtier k (c < gains.shape[1])."""
    needed = state.scratch_needed
    bot_needed_tokens(state, data, player, params, needed)
    gifts = state.scratch_gifts
    fill_gift_values(data, needed, params, gifts)
    fill_holding_gains_given(state, data, player, params, gifts, gains)


@game_kernel
def single_courtier_gains(state, data, player, courtier, params, row):
    """``fill_holding_gains`` for one courtier only, into ``row`` (its first row.shape[0] columns)."""
    needed = state.scratch_needed
    bot_needed_tokens(state, data, player, params, needed)
    gift = gift_value_given(data, courtier, needed, params)
    markers = state.markers
    mine = markers[courtier, player]
    others = most_other_markers(markers, courtier, player, colours_in_play(state))
    certainty = player_lead_certainty(state, player, params)
    if certainty == 0.0:
        courtier_holding_gains_uncertain(state, data, player, courtier, mine, others, gift, params, row,
                                         row.shape[0])
    else:
        courtier_holding_gains(state, data, player, courtier, mine, others, gift, params, certainty, row,
                               row.shape[0])


@game_kernel
def fill_holding_gains_given(state, data, player, params, gifts, gains):
    """``fill_holding_gains`` with the gift values ``gifts`` already known."""
    n_colours = colours_in_play(state)
    markers = state.markers
    certainty = player_lead_certainty(state, player, params)
    if certainty == 0.0:
        for courtier in range(C.N_COURTIERS):
            courtier_holding_gains_uncertain(state, data, player, courtier, markers[courtier, player],
                                             most_other_markers(markers, courtier, player, n_colours),
                                             gifts[courtier], params, gains[courtier], gains.shape[1])
        return
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
def courtier_holding_gains(state, data, player, courtier, mine, others, gift, params, certainty, row, width):
    """row[c] for c < width: the value gained by adding c markers to one courtier on which the
    player holds ``mine`` markers and the best other colour ``others``: the differences of
    ``holding_value_at_chance`` at the ``win_chance`` of each lead (``certainty``:
    ``lead_certainty``), with the courtier's case (Louis XIV, threshold side, race for most)
    picked once instead of all three computed for every count (the same expressions, so the
    same numbers). At certainty 0 ``courtier_holding_gains_uncertain`` gives the same gains for
    less, and ``courtier_holding_gains_and_slopes`` their slopes too."""
    side = state.side[courtier]
    mode = data.courtier_mode[courtier, side]
    printed = data.courtier_value[courtier, side]
    row[0] = 0.0
    if mode == C.THRESHOLD_MODE and courtier != state.game[LOUIS_COURTIER]:
        threshold_holding_gains(mine, printed, gift, row, width)
        return
    chance_lead = params[CHANCE_LEAD]
    chance_lead_step = params[CHANCE_LEAD_STEP]
    chance_tie = params[CHANCE_TIE]
    value_marker = params[VALUE_MARKER]
    lead = mine - others
    chance = win_chance(lead, chance_lead, chance_lead_step, chance_tie, certainty)
    if courtier == state.game[LOUIS_COURTIER]:
        crown_bonus = params[VALUE_CROWN] * params[LOUIS_AGGRESSION]
        base = louis_holding_value(chance, mine, gift, value_marker, crown_bonus) if mine > 0 else 0.0
        for extra in range(1, width):
            chance = win_chance(lead + extra, chance_lead, chance_lead_step, chance_tie, certainty)
            row[extra] = louis_holding_value(chance, mine + extra, gift, value_marker, crown_bonus) - base
        return
    fallback = majority_fallback(mode, printed, gift, params[VALUE_GOLD])
    base = majority_holding_value(chance, mine, gift, value_marker, fallback) if mine > 0 else 0.0
    for extra in range(1, width):
        chance = win_chance(lead + extra, chance_lead, chance_lead_step, chance_tie, certainty)
        row[extra] = majority_holding_value(chance, mine + extra, gift, value_marker, fallback) - base


@inline_game_kernel
def threshold_holding_gains(mine, printed, gift, row, width):
    """row[c] for 1 <= c < width on a threshold side (no lead to win: the chance plays no part):
    the value gained by adding c markers to the ``mine`` held."""
    base = threshold_holding_value(mine, printed, gift) if mine > 0 else 0.0
    for extra in range(1, width):
        row[extra] = threshold_holding_value(mine + extra, printed, gift) - base


@inline_game_kernel
def courtier_holding_gains_uncertain(state, data, player, courtier, mine, others, gift, params, row, width):
    """``courtier_holding_gains`` at certainty 0: the same gains, with the courtier's case
    (Louis XIV, threshold side, race for most) picked once instead of all three computed for
    every count (the same expressions as ``holding_value_at_chance``, so the same numbers)."""
    side = state.side[courtier]
    uncertain_gains_of_case(data.courtier_mode[courtier, side], data.courtier_value[courtier, side],
                            courtier == state.game[LOUIS_COURTIER], mine, others, gift, params[CHANCE_LEAD],
                            params[CHANCE_LEAD_STEP], params[CHANCE_TIE], params[VALUE_MARKER], params[VALUE_GOLD],
                            params[VALUE_CROWN] * params[LOUIS_AGGRESSION], row, width)


@inline_game_kernel
def uncertain_gains_of_case(mode, printed, louis, mine, others, gift, chance_lead, chance_lead_step, chance_tie,
                            value_marker, value_gold, crown_bonus, row, width):
    """``courtier_holding_gains_uncertain`` of a courtier whose side's ``mode`` and ``printed``
    number and whether it is Louis XIV's are known, with the parameters as scalars (a caller
    that refreshes several courtiers reads them once: read here, they were read again after
    every store into the gains, which numba cannot prove is another array)."""
    row[0] = 0.0
    if mode == C.THRESHOLD_MODE and not louis:
        threshold_holding_gains(mine, printed, gift, row, width)
        return
    lead = mine - others
    chance = win_chance_uncertain(lead, chance_lead, chance_lead_step, chance_tie)
    if louis:
        base = louis_holding_value(chance, mine, gift, value_marker, crown_bonus) if mine > 0 else 0.0
        for extra in range(1, width):
            chance = win_chance_uncertain(lead + extra, chance_lead, chance_lead_step, chance_tie)
            row[extra] = louis_holding_value(chance, mine + extra, gift, value_marker, crown_bonus) - base
        return
    fallback = majority_fallback(mode, printed, gift, value_gold)
    base = majority_holding_value(chance, mine, gift, value_marker, fallback) if mine > 0 else 0.0
    for extra in range(1, width):
        chance = win_chance_uncertain(lead + extra, chance_lead, chance_lead_step, chance_tie)
        row[extra] = majority_holding_value(chance, mine + extra, gift, value_marker, fallback) - base


@inline_game_kernel
def courtier_holding_gains_and_slopes(state, data, player, courtier, mine, others, gift, params, row, slopes,
                                      width):
    """``courtier_holding_gains`` at certainty 0 with ``slopes``: the same gains and slopes, the
    courtier's case picked once (as ``courtier_holding_gains_uncertain``; a threshold side's
    stake is 0, kept as a product so that the slopes are the very same numbers)."""
    side = state.side[courtier]
    mode = data.courtier_mode[courtier, side]
    printed = data.courtier_value[courtier, side]
    chance_lead = params[CHANCE_LEAD]
    chance_lead_step = params[CHANCE_LEAD_STEP]
    chance_tie = params[CHANCE_TIE]
    value_marker = params[VALUE_MARKER]
    lead = mine - others
    held = mine > 0
    row[0] = 0.0
    slopes[0] = 0.0
    if mode == C.THRESHOLD_MODE and courtier != state.game[LOUIS_COURTIER]:
        base = threshold_holding_value(mine, printed, gift) if held else 0.0
        base_slope = lead_chance_slope(lead, chance_lead, chance_lead_step) * 0.0 if held else 0.0
        for extra in range(1, width):
            row[extra] = threshold_holding_value(mine + extra, printed, gift) - base
            slopes[extra] = lead_chance_slope(lead + extra, chance_lead, chance_lead_step) * 0.0 - base_slope
        return
    chance = win_chance_uncertain(lead, chance_lead, chance_lead_step, chance_tie)
    chance_slope = lead_chance_slope(lead, chance_lead, chance_lead_step)
    if courtier == state.game[LOUIS_COURTIER]:
        crown_bonus = params[VALUE_CROWN] * params[LOUIS_AGGRESSION]
        base = louis_holding_value(chance, mine, gift, value_marker, crown_bonus) if held else 0.0
        base_slope = chance_slope * louis_stake(mine, gift, value_marker, crown_bonus) if held else 0.0
        for extra in range(1, width):
            chance = win_chance_uncertain(lead + extra, chance_lead, chance_lead_step, chance_tie)
            chance_slope = lead_chance_slope(lead + extra, chance_lead, chance_lead_step)
            row[extra] = louis_holding_value(chance, mine + extra, gift, value_marker, crown_bonus) - base
            slopes[extra] = chance_slope * louis_stake(mine + extra, gift, value_marker, crown_bonus) - base_slope
        return
    fallback = majority_fallback(mode, printed, gift, params[VALUE_GOLD])
    base = majority_holding_value(chance, mine, gift, value_marker, fallback) if held else 0.0
    base_slope = chance_slope * majority_stake(mine, gift, value_marker, fallback) if held else 0.0
    for extra in range(1, width):
        chance = win_chance_uncertain(lead + extra, chance_lead, chance_lead_step, chance_tie)
        chance_slope = lead_chance_slope(lead + extra, chance_lead, chance_lead_step)
        row[extra] = majority_holding_value(chance, mine + extra, gift, value_marker, fallback) - base
        slopes[extra] = chance_slope * majority_stake(mine + extra, gift, value_marker, fallback) - base_slope


@game_kernel
def prepare_gift_values(state, data, player, params):
    """Start of the influence phase (decide.prepare_influence_phase): what each courtier's gift is
    worth to the player, into ``state.phase_gifts[player]``. Tokens and mission cards do not change
    during the phase (§4.2), so neither do these values; each turn then needs only the holding
    values."""
    needed = state.scratch_needed
    bot_needed_tokens(state, data, player, params, needed)
    fill_gift_values(data, needed, params, state.phase_gifts[player])
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
    # columns up to this turn's longest placement only: the DB-PLACE4 use that makes it 4 can
    # only be spent during the phase, so later turns never read further
    if safety > 0.0:
        for index in range(n_stale):
            courtier = stale[index]
            courtier_holding_gains_and_slopes(state, data, player, courtier, kept_for[courtier, 0],
                                              kept_for[courtier, 1], gifts[courtier], params, kept[courtier],
                                              slopes[courtier], longest + 1)
        certainty = lead_certainty(others_turns_left(state, player), state.game[N_PLAYERS], safety)
        add_influence_noise_at_certainty(state, player, params, kept, slopes, certainty, state.scratch_gains,
                                         longest)
    elif longest == 3:
        # without DB-PLACE4 (most turns) the counts of markers are a constant, 1..3: the loops
        # over them unroll (the same numbers)
        refresh_uncertain_gains(state, data, player, params, stale, n_stale, gifts, kept, kept_for, 3)
    else:
        refresh_uncertain_gains(state, data, player, params, stale, n_stale, gifts, kept, kept_for, longest)


@inline_game_kernel
def refresh_uncertain_gains(state, data, player, params, stale, n_stale, gifts, kept, kept_for, longest):
    """``phase_influence_gains`` at certainty 0: the ``stale`` courtiers' gains recomputed into
    ``kept`` (``courtier_holding_gains_uncertain``, with what stays the same through the turn
    read once), then all of them with the noise into ``state.scratch_gains``."""
    sides = state.side
    modes = data.courtier_mode
    printed_numbers = data.courtier_value
    louis_courtier = state.game[LOUIS_COURTIER]
    chance_lead = params[CHANCE_LEAD]
    chance_lead_step = params[CHANCE_LEAD_STEP]
    chance_tie = params[CHANCE_TIE]
    value_marker = params[VALUE_MARKER]
    value_gold = params[VALUE_GOLD]
    crown_bonus = params[VALUE_CROWN] * params[LOUIS_AGGRESSION]
    for index in range(n_stale):
        courtier = stale[index]
        side = sides[courtier]
        uncertain_gains_of_case(modes[courtier, side], printed_numbers[courtier, side], courtier == louis_courtier,
                                kept_for[courtier, 0], kept_for[courtier, 1], gifts[courtier], chance_lead,
                                chance_lead_step, chance_tie, value_marker, value_gold, crown_bonus, kept[courtier],
                                longest + 1)
    add_noise_to_gains(state, player, params, kept, state.scratch_gains, longest)


@game_kernel
def add_influence_noise_at_certainty(state, player, params, kept, slopes, certainty, gains, longest):
    """``add_influence_noise`` of the gains at ``certainty`` (kept + certainty x slopes), in one
    pass: the same sums in the same order as adding the certainty first."""
    noise = params[NOISE]
    if noise > 0.0:
        jitter = state.scratch_jitter
        draw_uniforms(state.streams, bot_rng_source(player), jitter)
        for courtier in range(C.N_COURTIERS):
            shift = noise * jitter[courtier]
            gains[courtier, 0] = kept[courtier, 0] + certainty * slopes[courtier, 0]
            for extra in range(1, longest + 1):
                gains[courtier, extra] = (kept[courtier, extra] + certainty * slopes[courtier, extra]) + shift
    else:
        for courtier in range(C.N_COURTIERS):
            for extra in range(longest + 1):
                gains[courtier, extra] = kept[courtier, extra] + certainty * slopes[courtier, extra]


# ---------------------------------------------------------------------------------------------
# The greedy's decisions (decide.py asks them, one per decision point)
# ---------------------------------------------------------------------------------------------

@game_kernel
def greedy_influence_turn(state, data, rules, player, moves, params):
    """The greedy's influence turn (``choose_influence_turn``)."""
    if state.game[TRACE_ON] != 0:
        # A replay log shows all path columns of the chosen row, and for a card played for
        # nothing (Q8/Q9) those are left over from earlier listings: list as before, so that
        # replay logs stay what they were.
        n_moves = list_turn_options(state, data, rules, player, moves)
        return greedy_influence_move(state, data, player, moves, n_moves, params)
    phase_influence_gains(state, data, player, params)
    retrieve_worth = influence_retrieve_worth(state, player, params)
    # the whole gains table (contiguous): no placement is longer than the columns filled
    best_turn_option(state, data, rules, player, moves, state.scratch_gains, retrieve_worth,
                     place_four_score(params), influence_skip_score(data, params), params[CARD_SWAP_SCORE])
    return 0


@inline_game_kernel
def place_four_score(params):
    """What a DB-PLACE4 turn adds to its placement's (or its retrieval's) score: minus
    place_four_cost; minus infinity at the top of its range, which means never (parameters.py)."""
    if params[PLACE_FOUR_COST] >= NEVER_PLACE_FOUR_COST:
        return -np.inf
    return -params[PLACE_FOUR_COST]


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
            score += place_four_score(params)
    elif kind == RETRIEVE or kind == RETRIEVE_FOUR:
        if kind == RETRIEVE_FOUR:
            wanted = data.numbers[RETRIEVE_FOUR_COUNT]
        elif moves[index, MOVE_CARD] == C.JOKER:
            wanted = data.numbers[RETRIEVE_JOKER_COUNT]
        else:
            wanted = data.numbers[RETRIEVE_COURTIER_CARD_COUNT]
        score = min(wanted, general) * retrieve_worth
        if kind == RETRIEVE_FOUR:
            score += place_four_score(params)
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
    bot_needed_tokens(state, data, player, params, needed)
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
def greedy_influence_move(state, data, player, moves, n_moves, params):
    """The greedy's influence turn among the ``n_moves`` listed ones: the best score of
    ``listed_turn_score``, with the gains' noise."""
    needed = state.scratch_needed
    bot_needed_tokens(state, data, player, params, needed)
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
    add_noise_to_gains(state, player, params, exact, gains, longest)


@inline_game_kernel
def add_noise_to_gains(state, player, params, exact, gains, longest):
    """``add_influence_noise``, inlined where ``longest`` is a constant."""
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
def greedy_card_to_spend(state, data, player, params):
    """DB-PLACE4: the card whose courtier three more markers would gain least on (the joker if none)."""
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
def greedy_uses_optional_ability(state, data, player, ability, params):
    """Whether the greedy uses an optional ability now: by its supplies and hand for
    DB-CARDFORMARKER, LB-MARKER and DB-INTRIGUE; a start-of-phase placement where one more marker
    is worth start_place_min_gain."""
    if ability == C.DB_CARDFORMARKER:
        return state.own_supply[player] > params[RETRIEVE_BELOW] + params[CARD_FOR_MARKER_SHIFT]
    if ability == C.LB_MARKER:
        return state.general_supply[player] > 0 and state.own_supply[player] < params[LB_MARKER_BELOW]
    if ability == C.DB_INTRIGUE:
        return state.intrigue_hand[player].sum() < params[INTRIGUE_DRAW_BELOW]
    if params[START_PLACE_MIN_GAIN] >= NEVER_PLACE:
        return start_placement_courtier(state, ability) < 0     # a start-of-phase placement: never
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
def greedy_resources_order(state, data, player, params):
    """The greedy's resources-step order (``choose_resources_order``)."""
    counts = state.ability_count[player]
    retrieving = counts[C.LB_MARKER] + counts[C.B_INCOME] + counts[C.DB_MARKERS3]
    if (counts[C.DB_CARDFORMARKER] > 0 and retrieving > 0 and state.own_supply[player] > 0
            and greedy_uses_optional_ability(state, data, player, C.DB_CARDFORMARKER, params)):
        return CARD_FOR_MARKER_FIRST_ORDER
    return RULES_FILE_RESOURCES_ORDER


@game_kernel
def greedy_income(state, data, player, params):
    """B-INCOME: two markers when the own supply is low, gold and a marker when a marker is worth
    more than gold, else two gold; never the choice income_never bars (restricted play), the next
    one instead (every choice is legal: a marker short in the general supply is not moved)."""
    barred = int(params[INCOME_NEVER]) - 1      # -1: none; else INCOME_TWO_GOLD, _GOLD_AND_MARKER, _TWO_MARKERS
    if (barred != INCOME_TWO_MARKERS and state.general_supply[player] >= 2
            and state.own_supply[player] <= params[RETRIEVE_BELOW]):
        return INCOME_TWO_MARKERS
    if barred != INCOME_GOLD_AND_MARKER and state.general_supply[player] >= 1 and params[VALUE_MARKER] > params[VALUE_GOLD]:
        return INCOME_GOLD_AND_MARKER
    if barred != INCOME_TWO_GOLD:
        return INCOME_TWO_GOLD
    return INCOME_GOLD_AND_MARKER               # two gold barred: the gold and a marker are the nearest


@game_kernel
def greedy_markers_to_retrieve(state, data, player, maximum, params):
    """DB-MARKERS3: markers up to the target own supply (markers3_target)."""
    # up to the target own supply (the default target, 16, is never short of ``maximum``)
    wanted = int(params[MARKERS3_TARGET]) - state.own_supply[player]
    return max(0, min(maximum, wanted))


@game_kernel
def greedy_intrigue(state, data, player, courtier, params):
    """§4.3 step 1: play the intrigue card where one or two markers gain more than keeping it (a
    coat at the end, plus intrigue_keep_shift)."""
    general = state.general_supply[player]
    own = state.own_supply[player]
    gains = state.scratch_gains[courtier, :3]
    single_courtier_gains(state, data, player, courtier, params, gains)
    gain_one = gains[1]
    gain_two = gains[2]
    if params[INTRIGUE_KEEP_SHIFT] >= NEVER_SHIFT:
        return INTRIGUE_NONE                                  # the top of the range: never played
    keep = params[VALUE_COAT] + params[INTRIGUE_KEEP_SHIFT]  # an unplayed intrigue card is a coat at the end
    if general > 0 and gain_one + params[VALUE_MARKER] >= gain_two and gain_one > keep:
        return INTRIGUE_ONE_FROM_GENERAL
    if own > 1 and gain_two > keep and gain_two > gain_one:
        return INTRIGUE_TWO_FROM_OWN
    if own > 0 and gain_one > keep:
        return INTRIGUE_ONE_FROM_OWN
    return INTRIGUE_NONE


@game_kernel
def greedy_once_first(state, data, player, courtier, params):
    """DB-ONCEFIRST: win the tie when the gift is worth more than a coat (plus once_first_shift;
    never at the top of its range)."""
    if params[ONCE_FIRST_SHIFT] >= NEVER_SHIFT:
        return False
    return gift_value(state, data, player, courtier, params) > params[VALUE_COAT] + params[ONCE_FIRST_SHIFT]


@game_kernel
def greedy_bribe(state, data, player, courtier, cost, params):
    """§4.3.1: bribe when the gift, times bribe_willingness, is worth the gold (never at
    bribe_willingness 0, its range's low end: restricted play)."""
    if params[BRIBE_WILLINGNESS] <= NEVER_BRIBE:
        return False
    return gift_value(state, data, player, courtier, params) * params[BRIBE_WILLINGNESS] >= cost * params[VALUE_GOLD]


@game_kernel
def greedy_courtier_for_marker(state, data, player, purpose, params):
    """Condé's marker or DB-ENDPLACE: the courtier one more marker gains most on (none for
    DB-ENDPLACE below end_place_min_gain)."""
    gains = state.scratch_gains[:, :2]
    fill_holding_gains(state, data, player, params, gains)
    best = np.argmax(gains[:, 1])
    if purpose == PURPOSE_END_PLACEMENT and (gains[best, 1] < params[END_PLACE_MIN_GAIN]
                                             or params[END_PLACE_MIN_GAIN] >= NEVER_PLACE):
        return -1   # DB-ENDPLACE is optional (§6)
    return best


@game_kernel
def greedy_courtier_for_marker_among(state, data, player, first, excluded, params):
    """Condé's marker among first..11 but ``excluded``: the best holding gain, the first of equal ones."""
    gains = state.scratch_gains[:, :2]
    fill_holding_gains(state, data, player, params, gains)
    best = -1
    for courtier in range(first, C.N_COURTIERS):
        if courtier != excluded and (best < 0 or gains[courtier, 1] > gains[best, 1]):
            best = courtier
    return best


@game_kernel
def greedy_maintenon_count(state, data, player, maximum, params):
    """Maintenon: maintenon_markers markers (at most ``maximum``)."""
    return min(maximum, int(params[MAINTENON_MARKERS]))


@inline_game_kernel
def payment_cost(option, needed, params):
    cost = 0.0
    for slot in range(2):
        cost += token_value_given(option[OPTION_PAY_1 + slot], needed, params)
    return cost


@game_kernel
def greedy_mission_play(state, data, player, options, n_options, params):
    """§4.5 step 1: the (card, payment) whose tokens are worth least to it."""
    needed = state.scratch_needed
    bot_needed_tokens(state, data, player, params, needed)
    best = -1
    best_cost = 1e18
    for index in range(n_options):
        cost = payment_cost(options[index], needed, params)
        if cost < best_cost:
            best_cost = cost
            best = index
    return best  # a mission is 5 points: always worth the tokens


@game_kernel
def greedy_mission_deck(state, data, player, params):
    """§4.5 step 2: the non-empty deck with the highest preference (deck_light, deck_blue, deck_dark),
    weighed by the chance to complete its card with deck_reach."""
    # a colour's preference is what a card of it is worth; with deck_reach, times the chance to
    # complete the card drawn (deck_payability), blended in by deck_reach (0: fixed, 1: full)
    reach = params[DECK_REACH]
    surest = 0.0
    if reach > 0.0:
        surest = sure_deck_weight(state, params, reach)
        only = only_contending_deck(state, params, surest)
        if only >= 0:
            return only
    best = -1
    best_weight = -1.0
    for colour in range(C.N_MISSION_COLOURS):
        if state.mission_deck_count[colour] == 0:
            continue
        weight = params[DECK_LIGHT + colour]
        if reach > 0.0:
            # a weight is at most the preference: a deck whose preference is below another's sure
            # weight, or not above the best weight found so far, cannot be chosen, so its
            # payability (the costly part) is not worked out
            most = weight * (1.0 + 1e-9)
            if most < surest or most <= best_weight:
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


@inline_game_kernel
def only_contending_deck(state, params, surest):
    """The non-empty mission deck whose preference reaches the sure weight, when only one does,
    else -1: that deck is chosen whatever the payabilities (every weight is at least 0, and
    the others' at most their preference), so none is worked out. A small deck_reach with one
    preference well above the others ends here: tuned_4p draws dark blue (blue when that deck
    is empty), tuned_3p blue, without a payability."""
    contender = -1
    n_contenders = 0
    for colour in range(C.N_MISSION_COLOURS):
        if state.mission_deck_count[colour] > 0 and params[DECK_LIGHT + colour] * (1.0 + 1e-9) >= surest:
            contender = colour
            n_contenders += 1
    return contender if n_contenders == 1 else -1


@game_kernel
def deck_payability(state, data, player, colour):
    """How payable the cards of one mission colour the player has not seen are, with his tokens:
    the mean over those cards of 1 (payable now), 1/2 (one token short) or 1/4 (two short:
    tokens still to collect), or in the last round only the cards payable now (no tokens come
    after it). Unseen: neither in his hand nor played by anyone (public, Q21); the deck holds
    some of them, the opponents' hands the others."""
    short_credit = 0.0 if state.game[ROUND] >= data.numbers[ROUNDS] else 0.5
    # a card's credit by tokens short (at most 2: a card costs two tokens); credit x credit is
    # the credit squared, exactly
    credit_by_short = (1.0, short_credit, short_credit * short_credit)
    tokens = state.tokens[player]
    hand = state.mission_hand[player]
    mission_played = state.mission_played
    mission_cost = data.mission_cost
    n_players = state.game[N_PLAYERS]
    # counted once for every card: the crowns and all tokens held (``tokens_short``)
    crowns = tokens[C.CROWN]
    held = 0
    for kind in range(C.N_TOKENS):
        held += tokens[kind]
    total = 0.0
    n_unseen = 0
    for card in range(data.mission_colour_start[colour], data.mission_colour_start[colour + 1]):
        # every seat's row looked at, the ones not in the game masked out: a loop of constant
        # length unrolls (as most_other_markers)
        seen = hand[card]
        for other in range(C.MAX_PLAYERS):
            seen |= mission_played[other, card] if other < n_players else 0
        if seen != 0:
            continue
        n_unseen += 1
        short = short_of_cost(tokens, crowns, held, mission_cost[card, 0], mission_cost[card, 1])
        total += credit_by_short[short]
    return total / n_unseen if n_unseen > 0 else 0.0


@game_kernel
def tokens_short(tokens, cost):
    """How many tokens the player lacks to pay a card costing ``cost`` (§4.5: a crown pays for
    any token, a "?" takes any token)."""
    held = 0
    for kind in range(C.N_TOKENS):
        held += tokens[kind]
    return short_of_cost(tokens, tokens[C.CROWN], held, cost[0], cost[1])


@inline_game_kernel
def short_of_cost(tokens, crowns, held, first, second):
    """``tokens_short`` of a card costing (``first``, ``second``), with the crowns and the
    tokens held counted by the caller (once for a whole deck of cards)."""
    short = 0
    used = 0
    if first != C.ANY_TOKEN:
        wanted = 2 if second == first else 1
        have = tokens[first] if first != C.CROWN else 0
        covered = min(have, wanted)
        short += wanted - covered
        used += covered
    if second != C.ANY_TOKEN and second != first:    # a pair was counted with the first
        have = tokens[second] if second != C.CROWN else 0
        covered = min(have, 1)
        short += 1 - covered
        used += covered
    from_crowns = min(crowns, short)
    short -= from_crowns
    used += from_crowns
    for kind in (first, second):
        if kind == C.ANY_TOKEN:
            if held - used > 0:
                used += 1
            else:
                short += 1
    return short


@game_kernel
def greedy_token_swap(state, data, player, params):
    """LB-TOKENSWAP: a token whose crown makes a mission card in hand payable (or, with
    token_swap_any, a token no card in hand names), keeping token_swap_reserve gold; -1 for none."""
    if (state.gold[player] - data.numbers[LB_TOKENSWAP_COST] < params[TOKEN_SWAP_RESERVE]
            or params[TOKEN_SWAP_RESERVE] >= NEVER_TOKEN_SWAP_RESERVE):
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
def greedy_mission_swap(state, data, player, params, chosen):
    """LB-MISSIONSWAP by mission_swap_mode: up to 2 hand cards (into ``chosen``; returns how many)."""
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
def greedy_token_to_return(state, data, player, params):
    """§4.5 step 5: the token worth least to it."""
    needed = state.scratch_needed
    bot_needed_tokens(state, data, player, params, needed)
    worst = -1
    worst_value = 1e18
    for kind in range(C.N_TOKENS):
        if state.tokens[player, kind] > 0:
            value = token_value_given(kind, needed, params)
            if value < worst_value:
                worst_value = value
                worst = kind
    return worst
