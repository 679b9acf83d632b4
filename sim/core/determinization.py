"""Shared pieces of the search bots (sim/<game>/search.py): candidate choice and the redeal.

A search bot must not see what its seat cannot see. Before each rollout it *determinizes* the
copied state: the cards hidden from the seat (opponents' hands, deck orders) are pooled in a
canonical order -- so the redeal depends only on *which* cards are unseen, never on where they
really are -- shuffled from the seat's own search stream, and dealt back keeping every public
count (each opponent's hand size, each deck's size). The games' own modules say which zones
are hidden; these kernels do the counting, pooling and dealing for a hand matrix
``hands[player, kind]`` (cards held, by kind) and a deck's cards ``deck[first:last]``, and re-key
the copy's random streams.
"""
import numpy as np

from sim.core.kernels import game_kernel, kernel
from sim.core.random_streams import splitmix64


@kernel  # allocates the result
def best_rows(scores, n_rows, count):
    """The ``count`` (at least 1, at most ``n_rows``) rows of highest score, best first; equal
    scores keep listing order, as a greedy argmax does."""
    count = min(n_rows, max(1, count))
    rows = np.empty(count, np.int64)
    taken = np.zeros(n_rows, np.bool_)
    for slot in range(count):
        best = -1
        for index in range(n_rows):
            if not taken[index] and (best < 0 or scores[index] > scores[best]):
                best = index
        rows[slot] = best
        taken[best] = True
    return rows


@game_kernel
def pool_from_counts(counts, n_kinds, pool):
    """``pool[:size]`` = the unseen cards in canonical (sorted) order; returns ``size``."""
    size = 0
    for kind in range(n_kinds):
        for _ in range(counts[kind]):
            pool[size] = kind
            size += 1
    return size


@game_kernel
def count_opponents_hands(hands, player, n_players, n_kinds, counts):
    """counts[kind] += the cards of that kind held by every seat but ``player``."""
    for other in range(n_players):
        if other != player:
            for kind in range(n_kinds):
                counts[kind] += hands[other, kind]


@game_kernel
def deal_opponents_hands(hands, player, n_players, n_kinds, pool, dealt):
    """Give every seat but ``player`` as many cards as it holds now, from ``pool[dealt:]``;
    returns the new ``dealt``."""
    for other in range(n_players):
        if other != player:
            held = 0
            for kind in range(n_kinds):
                held += hands[other, kind]
                hands[other, kind] = 0
            for _ in range(held):
                hands[other, pool[dealt]] += 1
                dealt += 1
    return dealt


@game_kernel
def count_unseen_cards(hands, player, n_players, n_kinds, deck, first, last, counts):
    """counts[kind] = the cards of that kind in every hand but ``player``'s and in
    ``deck[first:last]``: what the seat cannot see of one sort of card."""
    counts[:] = 0
    count_opponents_hands(hands, player, n_players, n_kinds, counts)
    for index in range(first, last):
        counts[deck[index]] += 1


@game_kernel
def deal_unseen_cards(hands, player, n_players, n_kinds, deck, first, last, pool):
    """Deal the shuffled ``pool`` back as ``count_unseen_cards`` counted it: every hand but
    ``player``'s (its size kept), then ``deck[first:last]``; returns the cards dealt."""
    dealt = deal_opponents_hands(hands, player, n_players, n_kinds, pool, 0)
    for index in range(first, last):
        deck[index] = pool[dealt]
        dealt += 1
    return dealt


@game_kernel
def rekey_streams(streams, base, k):
    """Fresh, unknown randomness for rollout k: every stream keyed from (base, k, source). The
    streams are counter-based, so a copied state would otherwise replay the real future draws."""
    n_sources = streams.shape[0]
    for source in range(n_sources):
        streams[source, 0] = splitmix64(base ^ splitmix64(np.uint64(k * n_sources + source)))
        streams[source, 1] = np.uint64(0)
