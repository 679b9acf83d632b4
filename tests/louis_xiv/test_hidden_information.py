"""Rules Q21: a bot sees only what a player at the table sees. Changing what is hidden from it
(opponents' influence, mission and intrigue hands, coat kinds, deck orders) must not change any
of its decisions."""
import numpy as np
import pytest

from sim.louis_xiv.decisions import new_move_buffer, new_option_buffer
from sim.louis_xiv.engine import ENGINE, bot_arrays
from sim.louis_xiv.influence import list_turn_options
from sim.louis_xiv.missions import list_mission_options
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import ROUND, copy_state, new_state
from sim.louis_xiv.resources import resources_phase
from strategies.louis_xiv.decide import (choose_bribe, choose_influence_move, choose_intrigue, choose_mission_play,
                                         choose_token_to_return)
from strategies.louis_xiv.parameters import GREEDY, RANDOM


def hide_differently(state, player, rng):
    """Scramble everything ``player`` cannot see."""
    for other in range(state.game[0]):
        if other == player:
            continue
        state.influence_hand[other] = rng.permutation(state.influence_hand[other])
        state.intrigue_hand[other] = rng.permutation(state.intrigue_hand[other])
        state.coats[other] = rng.permutation(state.coats[other])
        held = np.flatnonzero(state.mission_hand[other])
        state.mission_hand[other] = 0
        state.mission_hand[other, rng.choice(40, size=len(held), replace=False)] = 1
    state.influence_deck[:] = rng.permutation(state.influence_deck)
    for colour in range(3):
        count = state.mission_deck_count[colour]
        state.mission_deck[colour, :count] = rng.permutation(state.mission_deck[colour, :count])


@pytest.mark.parametrize("family", [GREEDY, RANDOM], ids=["greedy", "random"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_decisions_ignore_what_the_player_cannot_see(family, seed):
    setup = ENGINE.load_setup()
    data, rules = setup.data, setup.rules
    families, params = bot_arrays([ENGINE.resolve_bot("greedy")] * 4)
    state = new_state(data)
    setup_game(state, data, rules, 4, seed, 0, 0)
    state.game[ROUND] = 1
    resources_phase(state, data, rules, families, params)
    state.markers[:, :4] = np.random.default_rng(seed).integers(0, 3, size=(12, 4))
    state.tokens[0] = [1, 1, 0, 1, 0]
    state.intrigue_hand[0, 3] = 1
    other = copy_state(state)
    hide_differently(other, 0, np.random.default_rng(seed + 100))
    moves = new_move_buffer()
    options = new_option_buffer()
    n_moves = list_turn_options(state, data, rules, 0, moves)
    assert n_moves == list_turn_options(other, data, rules, 0, moves.copy())
    assert choose_influence_move(state, data, 0, moves, n_moves, family, params[0]) == \
        choose_influence_move(other, data, 0, moves, n_moves, family, params[0])
    assert choose_bribe(state, data, 0, 3, 3, family, params[0]) == choose_bribe(other, data, 0, 3, 3, family, params[0])
    assert choose_intrigue(state, data, 0, 3, family, params[0]) == choose_intrigue(other, data, 0, 3, family, params[0])
    n_options = list_mission_options(state, data, 0, options)
    assert choose_mission_play(state, data, 0, options, n_options, family, params[0]) == \
        choose_mission_play(other, data, 0, options, n_options, family, params[0])
    assert choose_token_to_return(state, data, 0, family, params[0]) == \
        choose_token_to_return(other, data, 0, family, params[0])
