"""Counterfactual influence turns (sim/louis_xiv/counterfactual.py, issue 40 kingmaking): the
same game with one seat's choice at its t-th influence turn (§4.2 step 2) replaced, every other
draw identical."""

import numpy as np
import pytest

from sim.louis_xiv import events as E
from sim.louis_xiv.engine import ENGINE
from sim.louis_xiv.state import (COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_AVAILABLE, COUNTERFACTUAL_OPTIONS,
                                 TRACE_LENGTH)

SEED = 7
GAMES = 12
TURN_EVENTS = (E.PLACE, E.RETRIEVE, E.SKIP, E.CARD_SWAP)   # one per influence turn (§4.2 step 2)


def bots_of(*names):
    return [ENGINE.resolve_bot(name) for name in names]


def original_winners(setup, n_players, bots, games=GAMES):
    return ENGINE.play_chunk(setup, n_players, bots, SEED, 0, games)["games"]["winner_mask"]


def trace_of(state):
    return state.trace[:int(state.game[TRACE_LENGTH])]


def turn_event_rows(trace):
    return np.flatnonzero(np.isin(trace[:, 0], TURN_EVENTS))


@pytest.mark.parametrize("names", [("greedy",) * 4, ("random", "greedy", "random"), ("greedy", "random")])
def test_own_choice_reproduces_every_game(setup, names):
    """a = 0: the seat's own choice at any turn is the original game, winner for winner."""
    bots = bots_of(*names)
    winners = original_winners(setup, len(bots), bots)
    for turn in (1, 9, 30):
        replayed = ENGINE.play_counterfactuals(setup, len(bots), bots, SEED, np.arange(GAMES),
                                               np.full(GAMES, turn), np.zeros(GAMES))
        np.testing.assert_array_equal(replayed["winner_mask"], winners)
        assert not replayed["available"].any()
        assert (replayed["acting_seat"] >= 0).all() and (replayed["n_options"] >= 1).all()


def test_own_choice_reproduces_the_game_event_for_event(setup):
    """a = 0 leaves the whole replay log (every event of every phase) as it was."""
    bots = bots_of("greedy", "random", "greedy", "greedy")
    original, original_scores = ENGINE.replay_state(setup, 4, bots, SEED, 3)
    replayed, scores = ENGINE.replay_state(setup, 4, bots, SEED, 3, counterfactual=(17, 0))
    np.testing.assert_array_equal(trace_of(replayed), trace_of(original))
    np.testing.assert_array_equal(scores, original_scores)
    assert replayed.counterfactual[COUNTERFACTUAL_ACTING_SEAT] >= 0


@pytest.mark.parametrize("alternative", [1, 2, -1, -2])
def test_a_counterfactual_leaves_the_turns_before_it_as_they_were(setup, alternative):
    """Every event before the t-th influence turn is the original game's; the t-th turn is another
    legal turn of the same seat."""
    bots = bots_of("greedy", "greedy", "random", "greedy")
    turn = 21
    original, _ = ENGINE.replay_state(setup, 4, bots, SEED, 5)
    changed, _ = ENGINE.replay_state(setup, 4, bots, SEED, 5, counterfactual=(turn, alternative))
    before = turn_event_rows(trace_of(original))[turn - 1]
    assert turn_event_rows(trace_of(changed))[turn - 1] == before
    np.testing.assert_array_equal(trace_of(changed)[:before], trace_of(original)[:before])
    assert changed.counterfactual[COUNTERFACTUAL_AVAILABLE] == 1 and changed.counterfactual[COUNTERFACTUAL_OPTIONS] > 2
    seat = changed.counterfactual[COUNTERFACTUAL_ACTING_SEAT]
    assert trace_of(original)[before, 1] == seat == trace_of(changed)[before, 1]
    assert not np.array_equal(trace_of(changed)[before], trace_of(original)[before])


def test_next_best_turns_are_the_greedy_ranking_without_the_own_choice(setup):
    """a = 1, 2 are different turns, and both differ from the own choice."""
    bots = bots_of("greedy", "greedy", "greedy")
    turn = 12
    rows = {}
    for alternative in (0, 1, 2):
        state, _ = ENGINE.replay_state(setup, 3, bots, SEED, 2, counterfactual=(turn, alternative))
        rows[alternative] = trace_of(state)[turn_event_rows(trace_of(state))[turn - 1]]
    assert not np.array_equal(rows[1], rows[0]) and not np.array_equal(rows[2], rows[0])
    assert not np.array_equal(rows[1], rows[2])


def test_random_alternatives_are_reproducible(setup):
    """The same request plays the same game (a = -1, -2: draws of the counterfactual stream)."""
    bots = bots_of("random", "greedy", "greedy", "random")
    requests = (np.repeat(np.arange(6), 2), np.full(12, 25), np.tile([-1, -2], 6))
    first = ENGINE.play_counterfactuals(setup, 4, bots, SEED, *requests)
    second = ENGINE.play_counterfactuals(setup, 4, bots, SEED, *requests)
    for name in first:
        np.testing.assert_array_equal(first[name], second[name])
    assert first["available"].all()
    a, _ = ENGINE.replay_state(setup, 4, bots, SEED, 4, counterfactual=(25, -1))
    b, _ = ENGINE.replay_state(setup, 4, bots, SEED, 4, counterfactual=(25, -1))
    np.testing.assert_array_equal(trace_of(a), trace_of(b))


def test_a_turn_past_the_end_of_the_game_changes_nothing(setup):
    bots = bots_of("greedy", "greedy")
    winners = original_winners(setup, 2, bots, 3)
    replayed = ENGINE.play_counterfactuals(setup, 2, bots, SEED, np.arange(3), np.full(3, 10_000), np.full(3, 1))
    np.testing.assert_array_equal(replayed["winner_mask"], winners)
    assert (replayed["acting_seat"] == -1).all() and not replayed["available"].any()
