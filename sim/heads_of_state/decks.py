"""Decks and displays: setup of the character and betrayal decks (§3), draws and reshuffles (§4.6).

``draw_character_card`` returns ``REVOLUTION`` when the revolution card comes up; the caller
(turn.py) then runs the round change (round_end.py, §5) and repeats the interrupted take.
"""

from sim.core.random_streams import shuffle
from sim.heads_of_state.data import R_BETRAYAL_RESHUFFLE
from sim.heads_of_state.events import EV_BRESHUFFLE, W_COUNTS, trace
from sim.heads_of_state.state import (kernel, N_CHAR_TYPES, REVOLUTION, RNG_BETRAYAL_DECK,
                                      RNG_CHARACTER_DECK, S_BDECK_N, S_DECK_N, S_N_PLAYERS, S_REV_N,
                                      S_SET_ASIDE_N)


@kernel
def build_character_decks(st, d, cx):
    """§3 steps 2-5 and §5.2 step 3b-c: every character card not in a hand (player-count-removed
    cards stay out) is shuffled into the regular deck; its top ``rev_cards`` cards plus the
    revolution card are shuffled into the revolution deck; 6 cards are revealed."""
    n_players = st.scal[S_N_PLAYERS]
    counts = cx.work[W_COUNTS]
    counts[:] = 0
    deck_cards = d.deck_cards
    hand = st.hand
    deck = st.deck
    rev = st.rev
    for i in range(d.deck_len[n_players]):
        counts[deck_cards[n_players, i]] += 1
    for p in range(n_players):
        for t in range(N_CHAR_TYPES):
            counts[t] -= hand[p, t]
    k = 0
    for t in range(N_CHAR_TYPES):
        for _ in range(counts[t]):
            deck[k] = t
            k += 1
    shuffle(st.streams, RNG_CHARACTER_DECK, deck, k)
    # revolution deck: the top rev_cards cards + the revolution card, shuffled (§3 step 4)
    n_rev = d.rev_cards
    for i in range(n_rev):
        rev[i] = deck[k - 1 - i]
    k -= n_rev
    st.rev[n_rev] = REVOLUTION
    shuffle(st.streams, RNG_CHARACTER_DECK, st.rev, n_rev + 1)
    st.scal[S_REV_N] = n_rev + 1
    st.discard[:] = 0
    st.set_aside[:] = -1
    st.scal[S_SET_ASIDE_N] = 0
    display = st.display
    for slot in range(d.display_size):  # §3 step 5
        k -= 1
        display[slot] = deck[k]
    st.scal[S_DECK_N] = k


@kernel
def draw_character_card(st):
    """§4.6: the regular deck while it has cards, then the revolution deck. May return REVOLUTION."""
    if st.scal[S_DECK_N] > 0:
        st.scal[S_DECK_N] -= 1
        return st.deck[st.scal[S_DECK_N]]
    if st.scal[S_REV_N] > 0:
        st.scal[S_REV_N] -= 1
        return st.rev[st.scal[S_REV_N]]
    return -1


@kernel
def return_set_aside(st):
    """§4.5 step 1: shuffle the Option 1b set-aside cards back into the regular deck."""
    n = st.scal[S_SET_ASIDE_N]
    if n == 0:
        return
    k = st.scal[S_DECK_N]
    deck = st.deck
    set_aside = st.set_aside
    for i in range(n):
        deck[k] = set_aside[i]
        set_aside[i] = -1
        k += 1
    st.scal[S_DECK_N] = k
    st.scal[S_SET_ASIDE_N] = 0
    shuffle(st.streams, RNG_CHARACTER_DECK, st.deck, k)


@kernel
def reshuffle_betrayal_discards(st, cx):
    """§4.6: the betrayal discard pile becomes the new betrayal deck."""
    k = st.scal[S_BDECK_N]
    bdiscard = st.bdiscard
    bdeck = st.bdeck
    for t in range(bdiscard.shape[0]):
        for _ in range(bdiscard[t]):
            bdeck[k] = t
            k += 1
        bdiscard[t] = 0
    shuffle(st.streams, RNG_BETRAYAL_DECK, st.bdeck, k)
    st.scal[S_BDECK_N] = k
    trace(cx.counters, cx.trace, EV_BRESHUFFLE, k, 0, 0)


@kernel
def total(counts):
    n = 0
    for i in range(counts.shape[0]):
        n += counts[i]
    return n


@kernel
def betrayal_drawable(st):
    return st.scal[S_BDECK_N] > 0 or total(st.bdiscard) > 0


@kernel
def draw_betrayal_card(st, cx):
    """Top betrayal card, or -1 if deck and discards are both empty (Q26/Q29).
    Q26 default (when_deck_empties): the discards are reshuffled the moment the last card leaves
    the deck; if they are empty then, the reshuffle happens when a card is next needed."""
    if st.scal[S_BDECK_N] == 0:
        if total(st.bdiscard) == 0:
            return -1
        reshuffle_betrayal_discards(st, cx)
    st.scal[S_BDECK_N] -= 1
    card = st.bdeck[st.scal[S_BDECK_N]]
    if st.scal[S_BDECK_N] == 0 and cx.rules[R_BETRAYAL_RESHUFFLE] == 0.0 and total(st.bdiscard) > 0:
        reshuffle_betrayal_discards(st, cx)
    return card


@kernel
def refill_betrayal_display(st, cx):
    """§4.5 step 3 / §3 step 6: fill empty betrayal display slots from the betrayal deck."""
    for slot in range(st.bdisplay.shape[0]):
        if st.bdisplay[slot] < 0:
            st.bdisplay[slot] = draw_betrayal_card(st, cx)


@kernel
def setup_betrayal_deck(st, d, cx):
    """§3 step 6: shuffle the betrayal cards, reveal 2."""
    n = d.bdeck_init.shape[0]
    bdeck = st.bdeck
    bdeck_init = d.bdeck_init
    for i in range(n):
        bdeck[i] = bdeck_init[i]
    shuffle(st.streams, RNG_BETRAYAL_DECK, st.bdeck, n)
    st.scal[S_BDECK_N] = n
    refill_betrayal_display(st, cx)
