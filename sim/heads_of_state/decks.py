"""Decks and displays: setup of the character and betrayal decks (§3), draws and reshuffles (§4.6).

``draw_character_card`` returns ``REVOLUTION`` when the revolution card comes up; the caller
(turn.py) then runs the round change (round_end.py, §5) and repeats the interrupted take.
"""
import numpy as np
from numba import njit

from sim.core.random_streams import shuffle
from sim.heads_of_state.data import R_BETRAYAL_RESHUFFLE
from sim.heads_of_state.events import EV_BRESHUFFLE, trace
from sim.heads_of_state.state import (N_CHAR_TYPES, REVOLUTION, RNG_BETRAYAL_DECK,
                                      RNG_CHARACTER_DECK, S_BDECK_N, S_DECK_N, S_N_PLAYERS, S_REV_N,
                                      S_SET_ASIDE_N)


@njit(cache=True)
def build_character_decks(st, d):
    """§3 steps 2-5 and §5.2 step 3b-c: every character card not in a hand (player-count-removed
    cards stay out) is shuffled into the regular deck; its top ``rev_cards`` cards plus the
    revolution card are shuffled into the revolution deck; 6 cards are revealed."""
    n_players = st.scal[S_N_PLAYERS]
    counts = np.zeros(N_CHAR_TYPES, np.int64)
    for i in range(d.deck_len[n_players]):
        counts[d.deck_cards[n_players, i]] += 1
    for p in range(n_players):
        for t in range(N_CHAR_TYPES):
            counts[t] -= st.hand[p, t]
    k = 0
    for t in range(N_CHAR_TYPES):
        for _ in range(counts[t]):
            st.deck[k] = t
            k += 1
    shuffle(st.streams, RNG_CHARACTER_DECK, st.deck, k)
    # revolution deck: the top rev_cards cards + the revolution card, shuffled (§3 step 4)
    n_rev = d.rev_cards
    for i in range(n_rev):
        st.rev[i] = st.deck[k - 1 - i]
    k -= n_rev
    st.rev[n_rev] = REVOLUTION
    shuffle(st.streams, RNG_CHARACTER_DECK, st.rev, n_rev + 1)
    st.scal[S_REV_N] = n_rev + 1
    st.discard[:] = 0
    st.set_aside[:] = -1
    st.scal[S_SET_ASIDE_N] = 0
    for slot in range(d.display_size):  # §3 step 5
        k -= 1
        st.display[slot] = st.deck[k]
    st.scal[S_DECK_N] = k


@njit(cache=True)
def draw_character_card(st):
    """§4.6: the regular deck while it has cards, then the revolution deck. May return REVOLUTION."""
    if st.scal[S_DECK_N] > 0:
        st.scal[S_DECK_N] -= 1
        return st.deck[st.scal[S_DECK_N]]
    if st.scal[S_REV_N] > 0:
        st.scal[S_REV_N] -= 1
        return st.rev[st.scal[S_REV_N]]
    return -1


@njit(cache=True)
def return_set_aside(st):
    """§4.5 step 1: shuffle the Option 1b set-aside cards back into the regular deck."""
    n = st.scal[S_SET_ASIDE_N]
    if n == 0:
        return
    k = st.scal[S_DECK_N]
    for i in range(n):
        st.deck[k] = st.set_aside[i]
        st.set_aside[i] = -1
        k += 1
    st.scal[S_DECK_N] = k
    st.scal[S_SET_ASIDE_N] = 0
    shuffle(st.streams, RNG_CHARACTER_DECK, st.deck, k)


@njit(cache=True)
def reshuffle_betrayal_discards(st, cx):
    """§4.6: the betrayal discard pile becomes the new betrayal deck."""
    k = st.scal[S_BDECK_N]
    for t in range(st.bdiscard.shape[0]):
        for _ in range(st.bdiscard[t]):
            st.bdeck[k] = t
            k += 1
        st.bdiscard[t] = 0
    shuffle(st.streams, RNG_BETRAYAL_DECK, st.bdeck, k)
    st.scal[S_BDECK_N] = k
    trace(cx, EV_BRESHUFFLE, k, 0, 0)


@njit(cache=True)
def betrayal_drawable(st):
    return st.scal[S_BDECK_N] > 0 or st.bdiscard.sum() > 0


@njit(cache=True)
def draw_betrayal_card(st, cx):
    """Top betrayal card, or -1 if deck and discards are both empty (Q26/Q29).
    Q26 default (when_deck_empties): the discards are reshuffled the moment the last card leaves
    the deck; if they are empty then, the reshuffle happens when a card is next needed."""
    if st.scal[S_BDECK_N] == 0:
        if st.bdiscard.sum() == 0:
            return -1
        reshuffle_betrayal_discards(st, cx)
    st.scal[S_BDECK_N] -= 1
    card = st.bdeck[st.scal[S_BDECK_N]]
    if st.scal[S_BDECK_N] == 0 and cx.rules[R_BETRAYAL_RESHUFFLE] == 0.0 and st.bdiscard.sum() > 0:
        reshuffle_betrayal_discards(st, cx)
    return card


@njit(cache=True)
def refill_betrayal_display(st, cx):
    """§4.5 step 3 / §3 step 6: fill empty betrayal display slots from the betrayal deck."""
    for slot in range(st.bdisplay.shape[0]):
        if st.bdisplay[slot] < 0:
            st.bdisplay[slot] = draw_betrayal_card(st, cx)


@njit(cache=True)
def setup_betrayal_deck(st, d, cx):
    """§3 step 6: shuffle the betrayal cards, reveal 2."""
    n = d.bdeck_init.shape[0]
    for i in range(n):
        st.bdeck[i] = d.bdeck_init[i]
    shuffle(st.streams, RNG_BETRAYAL_DECK, st.bdeck, n)
    st.scal[S_BDECK_N] = n
    refill_betrayal_display(st, cx)
