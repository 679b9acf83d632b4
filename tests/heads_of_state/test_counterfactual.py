"""Counterfactual turns (sim/heads_of_state/counterfactual.py, issue 40 kingmaking): the same game
with one seat's turn option (§4.2) at the game's t-th turn replaced, every other draw identical;
the rest of that turn is the bot's own."""

import numpy as np
import pytest

from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.events import EV_TURN

SEED = 7
GAMES = 10


def bots_of(*names):
    return [ENGINE.resolve_bot(name) for name in names]


def turn_events(events):
    return np.flatnonzero(events[:, 0] == EV_TURN)


@pytest.mark.parametrize("names", [("greedy",) * 4, ("random", "greedy", "random"), ("greedy", "random")])
def test_own_choice_reproduces_every_game(setup, names):
    """a = 0: the seat's own option at any turn is the original game, winner for winner."""
    bots = bots_of(*names)
    winners = ENGINE.play_chunk(setup, len(bots), bots, SEED, 0, GAMES)["games"]["winner_mask"]
    for turn in (1, 8, 40):
        replayed = ENGINE.play_counterfactuals(setup, len(bots), bots, SEED, np.arange(GAMES),
                                               np.full(GAMES, turn), np.zeros(GAMES))
        np.testing.assert_array_equal(replayed["winner_mask"], winners)
        assert not replayed["available"].any() and (replayed["acting_seat"] >= 0).all()


def test_own_choice_reproduces_the_game_event_for_event(setup):
    bots = bots_of("greedy", "random", "greedy")
    original = ENGINE.trace_events(setup, 3, bots, SEED, 2)
    np.testing.assert_array_equal(ENGINE.trace_events(setup, 3, bots, SEED, 2, counterfactual=(11, 0)), original)


@pytest.mark.parametrize("alternative", [1, 2, -1, -2])
def test_a_counterfactual_leaves_the_turns_before_it_as_they_were(setup, alternative):
    """Every event before the t-th turn is the original game's; the t-th turn is the same seat's,
    with another option."""
    bots = bots_of("greedy", "greedy", "greedy", "greedy")
    turn = 14
    original = ENGINE.trace_events(setup, 4, bots, SEED, 3)
    changed = ENGINE.trace_events(setup, 4, bots, SEED, 3, counterfactual=(turn, alternative))
    at = turn_events(original)[turn - 1]
    assert turn_events(changed)[turn - 1] == at
    np.testing.assert_array_equal(changed[:at], original[:at])
    assert changed[at, 1] == original[at, 1] and changed[at, 3] == original[at, 3] == turn   # seat, turn
    assert changed[at, 2] != original[at, 2]                                                  # the option


def test_the_next_best_options_are_the_other_two(setup):
    """Three options (1a, 1b, 2): a = 1 and a = 2 are the two the seat did not choose."""
    bots = bots_of("greedy", "greedy", "greedy")
    turn = 9
    options = {}
    for alternative in (0, 1, 2):
        events = ENGINE.trace_events(setup, 3, bots, SEED, 1, counterfactual=(turn, alternative))
        options[alternative] = events[turn_events(events)[turn - 1], 2]
    assert len(set(options.values())) == 3


def test_random_alternatives_are_reproducible(setup):
    bots = bots_of("random", "greedy", "greedy", "random")
    requests = (np.repeat(np.arange(5), 2), np.full(10, 20), np.tile([-1, -2], 5))
    first = ENGINE.play_counterfactuals(setup, 4, bots, SEED, *requests)
    second = ENGINE.play_counterfactuals(setup, 4, bots, SEED, *requests)
    for name in first:
        np.testing.assert_array_equal(first[name], second[name])


def test_a_first_turn_without_a_choice_has_no_alternative(setup):
    """§4.1: the first turn takes its cards without an option (the Q3 switch off): nothing to replace."""
    bots = bots_of("greedy", "greedy", "greedy")
    replayed = ENGINE.play_counterfactuals(setup, 3, bots, SEED, np.arange(4), np.full(4, 1), np.full(4, 1))
    assert not replayed["available"].any() and (replayed["n_options"] == 1).all()
