"""Shared pieces of the search bots (sim/<game>/search.py): candidate choice and the redeal.

A search bot must not see what its seat cannot see. Before each rollout it *determinizes* the
copied state: the cards hidden from the seat (opponents' hands, deck orders) are pooled in a
canonical order -- so the redeal depends only on *which* cards are unseen, never on where they
really are -- shuffled from the seat's own search stream, and dealt back keeping every public
count (each opponent's hand size, each deck's size). The games' own modules say which zones
are hidden; these kernels do the counting, pooling and dealing for a hand matrix
``hands[player, kind]`` (cards held, by kind).
"""
import numpy as np

from sim.core.kernels import game_kernel, kernel


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
