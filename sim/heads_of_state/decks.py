"""Decks and displays: setup of the character and betrayal decks (§3), draws and reshuffles (§4.6).

``draw_character_card`` returns ``REVOLUTION`` when the revolution card comes up; the caller
(turn.py) then runs the round change (round_end.py, §5) and repeats the interrupted take.
"""

from sim.core.kernels import game_kernel
from sim.core.random_streams import shuffle
from sim.heads_of_state.data import R_BETRAYAL_RESHUFFLE
from sim.heads_of_state.events import EV_BRESHUFFLE, W_COUNTS, trace
from sim.heads_of_state.state import (N_CHAR_TYPES, REVOLUTION, RNG_BETRAYAL_DECK,
                                      RNG_CHARACTER_DECK, S_BDECK_N, S_DECK_N, S_N_PLAYERS, S_REV_N,
                                      S_SET_ASIDE_N)


@game_kernel
def build_character_decks(state, data, context):
    """§3 steps 2-5 and §5.2 step 3b-c: every character card not in a hand (player-count-removed
    cards stay out) is shuffled into the regular deck; its top ``rev_cards`` cards plus the
    revolution card are shuffled into the revolution deck; 6 cards are revealed."""
    n_players = state.scal[S_N_PLAYERS]
    counts = context.work[W_COUNTS]
    counts[:] = 0
    deck_cards = data.deck_cards
    hand = state.hand
    deck = state.deck
    rev = state.rev
    for i in range(data.deck_len[n_players]):
        counts[deck_cards[n_players, i]] += 1
    for player in range(n_players):
        for t in range(N_CHAR_TYPES):
            counts[t] -= hand[player, t]
    k = 0
    for t in range(N_CHAR_TYPES):
        for _ in range(counts[t]):
            deck[k] = t
            k += 1
    shuffle(state.streams, RNG_CHARACTER_DECK, deck, k)
    # revolution deck: the top rev_cards cards + the revolution card, shuffled (§3 step 4)
    n_rev = data.rev_cards
    for i in range(n_rev):
        rev[i] = deck[k - 1 - i]
    k -= n_rev
    state.rev[n_rev] = REVOLUTION
    shuffle(state.streams, RNG_CHARACTER_DECK, state.rev, n_rev + 1)
    state.scal[S_REV_N] = n_rev + 1
    state.discard[:] = 0
    state.set_aside[:] = -1
    state.scal[S_SET_ASIDE_N] = 0
    display = state.display
    for slot in range(data.display_size):  # §3 step 5
        k -= 1
        display[slot] = deck[k]
    state.scal[S_DECK_N] = k


@game_kernel
def draw_character_card(state):
    """§4.6: the regular deck while it has cards, then the revolution deck. May return REVOLUTION."""
    if state.scal[S_DECK_N] > 0:
        state.scal[S_DECK_N] -= 1
        return state.deck[state.scal[S_DECK_N]]
    if state.scal[S_REV_N] > 0:
        state.scal[S_REV_N] -= 1
        return state.rev[state.scal[S_REV_N]]
    return -1


@game_kernel
def return_set_aside(state):
    """§4.5 step 1: shuffle the Option 1b set-aside cards back into the regular deck."""
    n = state.scal[S_SET_ASIDE_N]
    if n == 0:
        return
    k = state.scal[S_DECK_N]
    deck = state.deck
    set_aside = state.set_aside
    for i in range(n):
        deck[k] = set_aside[i]
        set_aside[i] = -1
        k += 1
    state.scal[S_DECK_N] = k
    state.scal[S_SET_ASIDE_N] = 0
    shuffle(state.streams, RNG_CHARACTER_DECK, state.deck, k)


@game_kernel
def reshuffle_betrayal_discards(state, context):
    """§4.6: the betrayal discard pile becomes the new betrayal deck."""
    k = state.scal[S_BDECK_N]
    bdiscard = state.bdiscard
    bdeck = state.bdeck
    for t in range(bdiscard.shape[0]):
        for _ in range(bdiscard[t]):
            bdeck[k] = t
            k += 1
        bdiscard[t] = 0
    shuffle(state.streams, RNG_BETRAYAL_DECK, state.bdeck, k)
    state.scal[S_BDECK_N] = k
    trace(context.counters, context.trace, EV_BRESHUFFLE, k, 0, 0)


@game_kernel
def total(counts):
    n = 0
    for i in range(counts.shape[0]):
        n += counts[i]
    return n


@game_kernel
def betrayal_drawable(state):
    return state.scal[S_BDECK_N] > 0 or total(state.bdiscard) > 0


@game_kernel
def draw_betrayal_card(state, context):
    """Top betrayal card, or -1 if deck and discards are both empty (Q26/Q29).
    Q26 default (when_deck_empties): the discards are reshuffled the moment the last card leaves
    the deck; if they are empty then, the reshuffle happens when a card is next needed."""
    if state.scal[S_BDECK_N] == 0:
        if total(state.bdiscard) == 0:
            return -1
        reshuffle_betrayal_discards(state, context)
    state.scal[S_BDECK_N] -= 1
    card = state.bdeck[state.scal[S_BDECK_N]]
    if state.scal[S_BDECK_N] == 0 and context.rules[R_BETRAYAL_RESHUFFLE] == 0.0 and total(state.bdiscard) > 0:
        reshuffle_betrayal_discards(state, context)
    return card


@game_kernel
def refill_betrayal_display(state, context):
    """§4.5 step 3 / §3 step 6: fill empty betrayal display slots from the betrayal deck."""
    for slot in range(state.bdisplay.shape[0]):
        if state.bdisplay[slot] < 0:
            state.bdisplay[slot] = draw_betrayal_card(state, context)


@game_kernel
def setup_betrayal_deck(state, data, context):
    """§3 step 6: shuffle the betrayal cards, reveal 2."""
    n = data.bdeck_init.shape[0]
    bdeck = state.bdeck
    bdeck_init = data.bdeck_init
    for i in range(n):
        bdeck[i] = bdeck_init[i]
    shuffle(state.streams, RNG_BETRAYAL_DECK, state.bdeck, n)
    state.scal[S_BDECK_N] = n
    refill_betrayal_display(state, context)
