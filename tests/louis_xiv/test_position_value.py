"""The search bot's position value (strategies/louis_xiv/position.py), which the standings table
records after every turn, skips the greedy's valuation of what is held when ``held_weight`` is 0
(the default, and the table's). It must be the number of its definition, to the last bit: the
standing, plus the stop values of what is held, plus held_weight times the greedy's valuation.
Checked over a few thousand random holdings and parameters, at held_weight 0 and above."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.state import ROUND, missions_completed, provisional_score
from strategies.louis_xiv import resolve_bot
from strategies.louis_xiv.parameters import (FAMILY_PARAMETERS, HELD_WEIGHT, STOP_VALUE_COURTIER_MARKER,
                                             STOP_VALUE_MISSION_ABILITY, VALUE_CROWN, VALUE_TOKEN)
from strategies.louis_xiv.position import (greedy_valuation, held_cards_and_markers, position_value,
                                           position_value_given_score, stop_valuation)

REPETITIONS = 2000


def defined_position_value(state, data, seat, params):
    """The definition, written out: standing + stop valuation + held_weight x greedy valuation."""
    score = provisional_score(state, data, seat)
    held = held_cards_and_markers(state, seat)
    return (score + stop_valuation(state, data, seat, params, missions_completed(state, seat), *held)
            + params[HELD_WEIGHT] * greedy_valuation(state, data, seat, params, *held))


def random_holdings(generator, state, n_players):
    """Random markers, supplies, gold, tokens, coats and cards of every seat, and a round."""
    state.game[ROUND] = generator.integers(1, 5)
    state.markers[:, :n_players] = generator.integers(0, 4, (C.N_COURTIERS, n_players))
    for seat in range(n_players):
        state.own_supply[seat] = generator.integers(0, 17)
        state.gold[seat] = generator.integers(0, 15)
        state.tokens[seat] = generator.integers(0, 3, C.N_TOKENS)
        state.coats[seat] = generator.integers(0, 3, state.coats.shape[1])
        state.intrigue_hand[seat] = generator.integers(0, 2, C.N_COURTIERS) * (generator.random(C.N_COURTIERS) < 0.2)
        state.influence_hand[seat] = generator.integers(0, 2, C.N_INFLUENCE_KINDS) * (
            generator.random(C.N_INFLUENCE_KINDS) < 0.4)
        state.mission_hand[seat] = generator.random(state.mission_hand.shape[1]) < 0.06
        state.mission_played[seat] = generator.random(state.mission_played.shape[1]) < 0.05


@pytest.mark.parametrize("held_weight", ["zero", "drawn"])
def test_a_position_s_value_is_its_standing_plus_the_stop_values_plus_the_weighted_greedy_valuation(
        setup, fresh_state, held_weight):
    generator = np.random.default_rng({"zero": 11, "drawn": 12}[held_weight])
    data = setup.data
    state = fresh_state(4)
    defaults = resolve_bot("search").params
    ranges = FAMILY_PARAMETERS["search"]
    for _ in range(REPETITIONS):
        random_holdings(generator, state, 4)
        params = defaults.copy()
        for index in (VALUE_CROWN, VALUE_TOKEN, *range(STOP_VALUE_COURTIER_MARKER, STOP_VALUE_MISSION_ABILITY + 1)):
            if generator.random() < 0.5:
                params[index] = generator.uniform(ranges[index].low, ranges[index].high)
        params[HELD_WEIGHT] = 0.0 if held_weight == "zero" else generator.uniform(0.0, 5.0)
        for seat in range(4):
            expected = defined_position_value(state, data, seat, params)
            score = provisional_score(state, data, seat)
            missions = missions_completed(state, seat)
            assert position_value_given_score(state, data, seat, params, score, missions) == expected
            assert position_value(state, data, seat, params) == expected
            # the same bits: a float32 standings cell, or a rollout's total, cannot tell them apart
            assert np.float64(position_value(state, data, seat, params)).tobytes() == np.float64(expected).tobytes()
