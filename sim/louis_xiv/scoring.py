"""End of game (rules §7): conversions to coats of arms, coat majorities, score, winner."""
from sim.core.kernels import game_kernel, max_of

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.components import draw_coats, intrigue_card_under_deck, return_token
from sim.louis_xiv.data import GOLD_PER_COAT_AT_END
from sim.louis_xiv.state import (COATS_FROM_CONVERSION, COATS_FROM_MAJORITY, N_PLAYERS, provisional_score,
                                 seat_order, trace_event)


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
    return find_winners(state, scores)


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
    draw_coats(state, rules, player, influence + intrigue + tokens + markers + gold_coats, COATS_FROM_CONVERSION)
    trace_event(state, E.CONVERSION, player, influence, intrigue, tokens, markers, gold_coats, 0)


@game_kernel
def coat_majorities(state, rules):
    """§7.2 (Q16): per kind, every player with the most coats of it (at least one) takes one
    more coat; all kinds are compared before any bonus coat is drawn."""
    n_kinds = state.coats.shape[1]
    n_players = state.game[N_PLAYERS]
    awards = state.scratch_ints[:n_kinds]
    awards[:] = 0
    for kind in range(n_kinds):
        most = 0
        for player in range(n_players):
            most = max(most, state.coats[player, kind])
        if most == 0:
            continue
        for player in range(n_players):
            if state.coats[player, kind] == most:
                awards[kind] |= 1 << player
    for kind in range(n_kinds):
        if awards[kind] == 0:
            continue
        trace_event(state, E.MAJORITY_BONUS, kind, awards[kind], 0, 0, 0, 0, 0)
        for position in range(n_players):
            player = seat_order(state, position)
            if awards[kind] & (1 << player):
                draw_coats(state, rules, player, 1, COATS_FROM_MAJORITY)


@game_kernel
def find_winners(state, scores):
    """§7.4 (Q17): most points; tie -> most markers in the own supply; still tied -> shared."""
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
    decided_by_tiebreak = n_best > 1 and bin_count(mask) == 1
    trace_event(state, E.WINNER, mask, 1 if decided_by_tiebreak else 0, best, 0, 0, 0, 0)
    return mask, decided_by_tiebreak


@game_kernel
def bin_count(mask):
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count
