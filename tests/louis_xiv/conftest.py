"""Fixtures for the Louis XIV rulebook tests (rules: /work/shared/rules/louis_xiv.md).

- ``setup``: the shipped game data and default rule switches (``ENGINE.load_setup()``).
- ``fresh_state(n_players, seed=0, ...)``: a game right after setup (§3), at the start of the
  given round, with Louis XIV off the board unless ``louis`` names a courtier (1..4). A test then
  sets markers, sides, gold and hands directly, and calls the phase functions.
- ``greedy`` / ``random_bots``: (families, params) arrays for four seats of one bot family.
  The greedy bot accepts every token / coat bribe it can pay, so a test gives a player plenty of
  gold where a bribe must be accepted and 0 gold where he must not bribe.
"""
import numpy as np
import pytest

from sim.louis_xiv.engine import ENGINE, bot_arrays
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import LOUIS_COURTIER, ROUND, START_SEAT, new_state


@pytest.fixture(scope="session")
def setup():
    return ENGINE.load_setup()


@pytest.fixture
def fresh_state(setup):
    def make(n_players, seed=0, round_number=1, start_seat=0, louis=None, rules=None):
        state = new_state(setup.data)
        setup_game(state, setup.data, setup.rules if rules is None else rules, n_players, seed, 0, 0)
        state.game[ROUND] = round_number
        state.game[START_SEAT] = start_seat
        state.game[LOUIS_COURTIER] = -1 if louis is None else louis - 1
        return state
    return make


def _bots(name):
    return bot_arrays([ENGINE.resolve_bot(name)] * 4)


@pytest.fixture
def greedy():
    return _bots("greedy")


@pytest.fixture
def random_bots():
    return _bots("random")


@pytest.fixture
def rules_with(setup):
    """``rules_with(louis_empty_tile_flips=False)``: the rule vector with some switches changed."""
    from sim.louis_xiv.data import load_game_file, rule_vector

    def make(**switches):
        return rule_vector(load_game_file(), switches)
    return make


@pytest.fixture
def rich():
    """Give seats plenty of gold (bribes must be accepted) or none (they cannot bribe)."""
    def make(state, gold_per_seat):
        state.gold[:len(gold_per_seat)] = np.array(gold_per_seat, dtype=np.int64)
    return make
