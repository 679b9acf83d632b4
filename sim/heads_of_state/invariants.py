"""Rule invariants checked after every turn (used by the property tests; cheap enough to run
on thousands of games). ``check_state`` returns 0 or the code of the first violated invariant."""

from sim.core.kernels import game_kernel, kernel
from sim.heads_of_state.kernel import record_game, setup_game
from sim.heads_of_state.state import (N_CHAR_TYPES, N_RANKS, N_ROUNDS, N_SCORE_SOURCES, REVOLUTION,
                                      S_BDECK_N, S_DECK_N, S_GAME_OVER, S_N_PLAYERS, S_REV_N,
                                      S_ROUND, S_SET_ASIDE_N, new_state)
from sim.heads_of_state.turn import play_turn

(OK, BAD_TILES, BAD_BOX_RANK, BAD_NOBLE_CARDS, BAD_SCORE_SUM, BAD_CHAR_CARDS, BAD_BETRAYAL_CARDS,
 BAD_HAND_LIMIT, BAD_EMPTY_VACATED, BAD_ROUNDS, BAD_NEGATIVE) = range(11)
INVARIANT_NAMES = ("ok", "tiles not conserved (32 per player: supply + board + hexagons)",
                   "a box holds a rank it does not allow", "noble cards per rank exceed the pile",
                   "score differs from the sum of its sources", "character cards not conserved",
                   "betrayal cards not conserved", "hand above the end-of-turn limit",
                   "more than one box vacated this turn left empty", "not exactly three rounds",
                   "negative count")


@game_kernel
def check_state(state, data, end_of_turn):
    n_players = state.scal[S_N_PLAYERS]
    # tiles: supply + living nobles + dead tiles == tiles per colour (§1.2)
    for player in range(n_players):
        for r in range(N_RANKS):
            n = state.tiles[player, r]
            if n < 0:
                return BAD_NEGATIVE
            for box in range(state.box_owner.shape[0]):
                if state.box_owner[box] == player and state.box_rank[box] == r:
                    n += 1
            for region in range(state.dead.shape[1]):
                n += state.dead[player, region, r]
            if n != data.tiles_per_rank[r]:
                return BAD_TILES
    # boxes hold allowed ranks only (§2.1)
    for box in range(state.box_owner.shape[0]):
        if state.box_owner[box] >= 0:
            if (data.box_ranks[box] >> state.box_rank[box]) & 1 == 0:
                return BAD_BOX_RANK
        elif state.box_rank[box] != -1:
            return BAD_BOX_RANK
    # noble cards: held + pile == 10 per rank (§1.2)
    for r in range(N_RANKS):
        n = state.cards_left[r]
        for player in range(n_players):
            n += state.cards[player, r]
        if n != data.noble_cards_per_rank or state.cards_left[r] < 0:
            return BAD_NOBLE_CARDS
    # score == sum of sources
    for player in range(n_players):
        s = 0
        for k in range(N_SCORE_SOURCES):
            s += state.score_src[player, k]
        if s != state.score[player]:
            return BAD_SCORE_SUM
    # character cards (revolution card excluded) are conserved
    n = 0
    for i in range(state.scal[S_DECK_N]):
        n += 1
    for i in range(state.scal[S_REV_N]):
        if state.rev[i] != REVOLUTION:
            n += 1
    for slot in range(state.display.shape[0]):
        if state.display[slot] >= 0:
            n += 1
    n += state.scal[S_SET_ASIDE_N]
    for t in range(N_CHAR_TYPES):
        if state.discard[t] < 0:
            return BAD_NEGATIVE
        n += state.discard[t]
        for player in range(n_players):
            if state.hand[player, t] < 0:
                return BAD_NEGATIVE
            n += state.hand[player, t]
    if n != data.deck_len[n_players]:
        return BAD_CHAR_CARDS
    # betrayal cards are conserved
    n = state.scal[S_BDECK_N]
    for slot in range(state.bdisplay.shape[0]):
        if state.bdisplay[slot] >= 0:
            n += 1
    for t in range(state.bdiscard.shape[0]):
        n += state.bdiscard[t]
        for player in range(n_players):
            if state.bhand[player, t] < 0:
                return BAD_NEGATIVE
            n += state.bhand[player, t]
    if n != data.bdeck_init.shape[0]:
        return BAD_BETRAYAL_CARDS
    if end_of_turn:
        for player in range(n_players):
            c = 0
            b = 0
            for t in range(N_CHAR_TYPES):
                c += state.hand[player, t]
            for t in range(state.bhand.shape[1]):
                b += state.bhand[player, t]
            if c > data.hand_limit_char or b > data.hand_limit_betrayal:
                return BAD_HAND_LIMIT
        empty = 0
        for box in range(state.vacated.shape[0]):
            if state.vacated[box] != 0 and state.box_owner[box] < 0:
                empty += 1
        if empty > 1:
            return BAD_EMPTY_VACATED
    return OK


def play_checked(data, context, n_players, seed, first_game, n_games, errors):
    """Like kernel.play_chunk_kernel, checking the invariants after setup and after every turn.
    errors[row] = first violated invariant (0 = none)."""
    play_checked_kernel(new_state(data), data, context, n_players, seed, first_game, n_games, errors)


@kernel
def play_checked_kernel(state, data, context, n_players, seed, first_game, n_games, errors):
    """play_checked's compiled loop, in a state from state.new_state."""
    for row in range(n_games):
        setup_game(state, data, context, n_players, seed, first_game + row, row)
        errors[row] = check_state(state, data, False)
        turns = 0
        while state.scal[S_GAME_OVER] == 0 and errors[row] == 0 and turns < 5000:
            play_turn(state, data, context)
            turns += 1
            if errors[row] == 0:
                errors[row] = check_state(state, data, state.scal[S_GAME_OVER] == 0)
            state.vacated[:] = 0
        if errors[row] == 0:
            if state.scal[S_ROUND] != N_ROUNDS - 1 or state.scal[S_GAME_OVER] == 0:
                errors[row] = BAD_ROUNDS
            for r in range(N_ROUNDS):
                if state.round_step[r] == 0:
                    errors[row] = BAD_ROUNDS
        record_game(state, data, context, seed, row)
