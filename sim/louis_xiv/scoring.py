"""End of game (rules §7): conversions to coats of arms, coat majorities, score, winner."""
from sim.core.kernels import game_kernel, max_of

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.components import draw_coats, intrigue_card_under_deck, return_token
from sim.louis_xiv.data import GOLD_PER_COAT_AT_END
from sim.louis_xiv.rules import (COAT_MAJORITIES_ONE_KIND_AT_A_TIME, FINAL_TIE, FINAL_TIE_LATER_SEAT,
                                 FINAL_TIE_MOST_GOLD_LEFT)
from sim.louis_xiv.state import (COATS_FROM_CONVERSION, COATS_FROM_MAJORITY, FIRST_START_SEAT, N_PLAYERS, TRACE_ON,
                                 provisional_score, seat_order, trace_event)


@game_kernel
def record_standing(state, data, round_number):
    """The standing after each round (coats and missions so far), for lead-change analysis."""
    for player in range(state.game[N_PLAYERS]):
        state.score_after_round[player, round_number - 1] = provisional_score(state, data, player)


@game_kernel
def end_of_game(state, data, rules, scores):
    """§7 steps 1-4. Fills ``scores``; returns (winner mask, decided by the own-supply tiebreak)."""
    for position in range(state.game[N_PLAYERS]):
        convert_to_coats(state, data, rules, seat_order(state, position))
    coat_majorities(state, rules)
    for player in range(state.game[N_PLAYERS]):
        scores[player] = provisional_score(state, data, player)
        trace_event(state, E.FINAL_SCORE, player, scores[player], state.coats[player].sum(),
                    state.mission_played[player].sum(), state.own_supply[player], 0, 0)
    return find_winners(state, rules, scores)


@game_kernel
def convert_to_coats(state, data, rules, player):
    """§7.1: one coat for each influence card and intrigue card in hand, each mission token,
    each own marker still on a courtier, and each full 3 gold."""
    influence = state.influence_hand[player].sum()
    state.influence_hand[player, :] = 0
    intrigue = 0
    for courtier in range(C.N_COURTIERS):
        while state.intrigue_hand[player, courtier] > 0:
            state.intrigue_hand[player, courtier] -= 1
            intrigue_card_under_deck(state, courtier)
            intrigue += 1
    tokens = 0
    for kind in range(C.N_TOKENS):
        while state.tokens[player, kind] > 0:
            return_token(state, player, kind)
            tokens += 1
    markers = state.markers[:, player].sum()
    gold_coats = state.gold[player] // data.numbers[GOLD_PER_COAT_AT_END]
    state.gold[player] -= gold_coats * data.numbers[GOLD_PER_COAT_AT_END]
    # logged before the draw, so that the replay names the coats drawn (their kinds) after it
    trace_event(state, E.CONVERSION, player, influence, intrigue, tokens, markers, gold_coats, 0)
    draw_coats(state, rules, player, influence + intrigue + tokens + markers + gold_coats, COATS_FROM_CONVERSION)


@game_kernel
def coat_majorities(state, rules):
    """§7.2 (Q16): per kind, every player with the most coats of it (at least one) takes one
    more coat; all kinds are compared before any bonus coat is drawn (with the switch
    coat_majorities_one_kind_at_a_time, each kind's bonus coats are drawn as it is compared,
    so they count in the kinds compared after it)."""
    n_kinds = state.coats.shape[1]
    if state.game[TRACE_ON] != 0:
        trace_coats_held(state)
    awards = state.scratch_ints[:n_kinds]
    awards[:] = 0
    one_at_a_time = rules[COAT_MAJORITIES_ONE_KIND_AT_A_TIME] != 0.0
    for kind in range(n_kinds):
        awards[kind] = most_coats_of(state, kind)
        if one_at_a_time:
            award_majority_bonus(state, rules, kind, awards[kind])
    if not one_at_a_time:
        for kind in range(n_kinds):
            award_majority_bonus(state, rules, kind, awards[kind])


@game_kernel
def trace_coats_held(state):
    """Replay mode only: every player's coats of arms by kind, as the majorities compare them."""
    for player in range(state.game[N_PLAYERS]):
        for kind in range(state.coats.shape[1]):
            if state.coats[player, kind] > 0:
                trace_event(state, E.COATS_HELD, player, kind, state.coats[player, kind], 0, 0, 0, 0)


@game_kernel
def most_coats_of(state, kind):
    """The players (a bitmask) with the most coats of ``kind``, at least one (Q16)."""
    n_players = state.game[N_PLAYERS]
    most = 0
    for player in range(n_players):
        most = max(most, state.coats[player, kind])
    mask = 0
    if most == 0:
        return mask
    for player in range(n_players):
        if state.coats[player, kind] == most:
            mask |= 1 << player
    return mask


@game_kernel
def award_majority_bonus(state, rules, kind, mask):
    """§7.2: one more coat, drawn at random, for each player of ``mask``, in seat order."""
    if mask == 0:
        return
    trace_event(state, E.MAJORITY_BONUS, kind, mask, 0, 0, 0, 0, 0)
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        if mask & (1 << player):
            draw_coats(state, rules, player, 1, COATS_FROM_MAJORITY)


@game_kernel
def find_winners(state, rules, scores):
    """§7.4 (Q17): most points; tie -> most markers in the own supply; still tied -> shared
    (or by the switch final_tie: the latest in seat order from the first start player, or the
    most gold left after the conversions, still tied shared)."""
    n_players = state.game[N_PLAYERS]
    best = max_of(scores, n_players)
    n_best = 0
    best_supply = -1
    for player in range(n_players):
        if scores[player] == best:
            n_best += 1
            best_supply = max(best_supply, state.own_supply[player])
    mask = 0
    for player in range(n_players):
        if scores[player] == best and state.own_supply[player] == best_supply:
            mask |= 1 << player
    if bin_count(mask) > 1 and rules[FINAL_TIE] != 0.0:
        mask = break_final_tie(state, rules, mask)
    decided_by_tiebreak = n_best > 1 and bin_count(mask) == 1
    trace_event(state, E.WINNER, mask, 1 if decided_by_tiebreak else 0, best, 0, 0, 0, 0)
    return mask, decided_by_tiebreak


@game_kernel
def break_final_tie(state, rules, mask):
    """Q17's other readings for players still tied after the own-supply tiebreak (``mask``)."""
    n_players = state.game[N_PLAYERS]
    if rules[FINAL_TIE] == FINAL_TIE_LATER_SEAT:
        for position in range(n_players - 1, -1, -1):
            player = (state.game[FIRST_START_SEAT] + position) % n_players
            if mask & (1 << player):
                return 1 << player
    if rules[FINAL_TIE] == FINAL_TIE_MOST_GOLD_LEFT:
        most = -1
        for player in range(n_players):
            if mask & (1 << player):
                most = max(most, state.gold[player])
        kept = 0
        for player in range(n_players):
            if mask & (1 << player) and state.gold[player] == most:
                kept |= 1 << player
        return kept
    return mask


@game_kernel
def bin_count(mask):
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count
