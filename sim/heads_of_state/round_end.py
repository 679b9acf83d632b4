"""Round end (§5): triggered when the revolution card is revealed. Round-end influence scoring
(§6.4) writes one country_scoring row per country; after 1789 the final scoring (§6.5) ends the
game; otherwise hands are cut to 6/2 and the character decks and betrayal display are renewed."""

from sim.core.kernels import game_kernel
from strategies.heads_of_state.decide import choose
from sim.heads_of_state.data import R_DEAD_TILES_RETURN
from sim.heads_of_state.decisions import D_BDISCARD, D_DISCARD
from sim.heads_of_state.decks import build_character_decks, refill_betrayal_display
from sim.heads_of_state.events import (W_BEST_HEX, W_HEX_KEY, W_INFLUENCE, W_ORDER, W_TOP_RANK,
                                       DISPLAYS_DEALT, EV_BDISCARD, EV_COUNTRY, EV_DEAD_RETURN, EV_DISCARD,
                                       EV_REVOLUTION, EV_ROUND_START, K_TRACE_ON, trace, trace_displays)
from sim.heads_of_state.scoring import (TB_NO_CONTEST, add_score, country_influence_as_ruled,
                                        noble_card_majorities, rank_country, tiebreak_level)
from sim.heads_of_state.state import (STAT_DISCARD_ROUND_CHAR, S_REV_N, MAX_PLAYERS, N_CHAR_TYPES, N_COUNTRIES,
                                      N_RANKS, N_ROUNDS, S_GAME_OVER,
                                      S_GAME_ROW, S_GAME_INDEX, S_N_PLAYERS, S_ROUND,
                                      SRC_ROUND_INFLUENCE)
from sim.heads_of_state.tables import (C_BEST_HEX, C_COUNTRY, C_FIRST_POINTS, C_FIRST_SEAT,
                                       C_FIRST_TIEBREAK, C_GAME_INDEX, C_HEX_KEY, C_INFLUENCE,
                                       C_ROUND, C_SECOND_POINTS, C_SECOND_SEAT, C_SECOND_TIEBREAK,
                                       C_TOP_RANK)


@game_kernel
def discard_to_limit(state, data, context, player, char_limit, betrayal_limit, stat_char):
    """§4.5 step 4 and §5.2 step 3a: the owner discards cards of his choice down to the limits.
    ``stat_char`` is the STAT_* counter for character discards (the betrayal one follows it)."""
    discard_down_to(state, data, context, player, state.hand, N_CHAR_TYPES, state.discard, char_limit, D_DISCARD, stat_char,
                    EV_DISCARD)
    discard_down_to(state, data, context, player, state.bhand, state.bhand.shape[1], state.bdiscard, betrayal_limit, D_BDISCARD,
                    stat_char + 1, EV_BDISCARD)


@game_kernel
def discard_down_to(state, data, context, player, hand, n_types, discard_pile, limit, decision, stat, event):
    """One card at a time, the bot picks a held type (``decision``) until at most ``limit`` are held."""
    moves = context.moves
    held = 0
    for t in range(n_types):
        held += hand[player, t]
    while held > limit:
        n = 0
        for t in range(n_types):
            if hand[player, t] > 0:
                moves[n, 0] = t
                n += 1
        t = moves[choose(state, data, context, player, decision, n), 0]
        hand[player, t] -= 1
        discard_pile[t] += 1
        held -= 1
        state.stats[player, stat] += 1
        trace(context.counters, context.trace, event, player, t, 0)


@game_kernel
def round_end_influence_scoring(state, data, context):
    """§6.4 for each country with this round's small round tokens; one country_scoring row each."""
    n_players = state.scal[S_N_PLAYERS]
    rnd = state.scal[S_ROUND]
    infl = context.work[W_INFLUENCE]
    top_rank = context.work[W_TOP_RANK]
    best_hex = context.work[W_BEST_HEX]
    hex_key = context.work[W_HEX_KEY]
    order = context.work[W_ORDER]
    for c in range(N_COUNTRIES):
        country_influence_as_ruled(state, data, context, c)
        n = rank_country(state, n_players, infl, top_rank, hex_key, order, context.fwork)
        row = context.country[state.scal[S_GAME_ROW] * N_ROUNDS * N_COUNTRIES + rnd * N_COUNTRIES + c]
        row[C_GAME_INDEX] = state.scal[S_GAME_INDEX]
        row[C_ROUND] = rnd
        row[C_COUNTRY] = c
        for player in range(MAX_PLAYERS):
            absent = player >= n_players
            row[C_INFLUENCE + player] = -1 if absent else infl[player]
            row[C_TOP_RANK + player] = -1 if absent else top_rank[player]
            row[C_BEST_HEX + player] = -1 if absent else best_hex[player]
            row[C_HEX_KEY + player] = -1 if absent else hex_key[player]
        row[C_FIRST_SEAT] = -1
        row[C_SECOND_SEAT] = -1
        row[C_FIRST_POINTS] = 0
        row[C_SECOND_POINTS] = 0
        row[C_FIRST_TIEBREAK] = TB_NO_CONTEST
        row[C_SECOND_TIEBREAK] = TB_NO_CONTEST
        if n >= 1:   # 1st place token; with one candidate the 2nd token returns to the box
            first = order[0]
            row[C_FIRST_SEAT] = first
            row[C_FIRST_POINTS] = data.round_tokens[c, 0]
            add_score(state, first, SRC_ROUND_INFLUENCE, data.round_tokens[c, 0])
        if n >= 2:
            second = order[1]
            row[C_SECOND_SEAT] = second
            row[C_SECOND_POINTS] = data.round_tokens[c, 1]
            add_score(state, second, SRC_ROUND_INFLUENCE, data.round_tokens[c, 1])
            row[C_FIRST_TIEBREAK] = tiebreak_level(infl, top_rank, hex_key, order[0], order[1])
        if n >= 3:
            row[C_SECOND_TIEBREAK] = tiebreak_level(infl, top_rank, hex_key, order[1], order[2])
        trace(context.counters, context.trace, EV_COUNTRY, c, row[C_FIRST_SEAT], row[C_SECOND_SEAT])


@game_kernel
def revolution(state, data, context, step):
    """§5.2: the revolution card was revealed at ``step`` (STEP_*). Sets S_GAME_OVER after 1789."""
    rnd = state.scal[S_ROUND]
    n_players = state.scal[S_N_PLAYERS]
    state.round_step[rnd] = step
    state.rev_position[rnd] = data.rev_cards + 1 - state.scal[S_REV_N]   # 1 = top of the revolution deck
    trace(context.counters, context.trace, EV_REVOLUTION, rnd, step, 0)
    round_end_influence_scoring(state, data, context)                     # §5.2 step 1
    for player in range(n_players):
        state.score_round[player, rnd] = state.score[player]
    if rnd == N_ROUNDS - 1:                                    # §5.2 step 2
        noble_card_majorities(state, data, context)
        state.scal[S_GAME_OVER] = 1
        return
    state.scal[S_ROUND] = rnd + 1                                 # §5.2 step 3
    trace(context.counters, context.trace, EV_ROUND_START, rnd + 1, 0, 0)
    if context.rules[R_DEAD_TILES_RETURN] != 0.0:                   # Q15 other reading (3e)
        return_dead_tiles(state, context)
    for player in range(n_players):                                 # 3a
        discard_to_limit(state, data, context, player, data.round_limit_char, data.round_limit_betrayal,
                         STAT_DISCARD_ROUND_CHAR)
    build_character_decks(state, data, context)                               # 3b, 3c
    for slot in range(state.bdisplay.shape[0]):                   # 3d
        if state.bdisplay[slot] >= 0:
            state.bdiscard[state.bdisplay[slot]] += 1
            state.bdisplay[slot] = -1
    refill_betrayal_display(state, context)
    if context.counters[K_TRACE_ON] != 0:
        trace_displays(state, context, DISPLAYS_DEALT)


@game_kernel
def return_dead_tiles(state, context):
    """Q15 switch dead_tiles_return_at_round_end: every dead tile leaves its hexagon and goes back
    to its owner's supply when a round ends (so it no longer counts for a square token, §6.2).
    Default: dead tiles stay on the hexagons for the rest of the game (§4.7)."""
    dead = state.dead
    for player in range(state.scal[S_N_PLAYERS]):
        returned = 0
        for region in range(dead.shape[1]):
            for r in range(N_RANKS):
                state.tiles[player, r] += dead[player, region, r]
                returned += dead[player, region, r]
                dead[player, region, r] = 0
        if returned > 0:
            trace(context.counters, context.trace, EV_DEAD_RETURN, player, returned, 0)
