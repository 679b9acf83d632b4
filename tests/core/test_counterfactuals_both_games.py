"""Counterfactual replays (issue 40, kingmaking) in both games alike: they are opt-in (a run's
tables do not depend on one played before) and the interpreted kernels (NUMBA_DISABLE_JIT=1)
replay the same games. Each game's own rules for its replays are in
tests/<game>/test_counterfactual.py."""
import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

SEED = 7
# (game, a turn of the game that has alternatives with these bots)
GAMES = (("louis_xiv", 9), ("heads_of_state", 7))


@pytest.fixture(params=GAMES, ids=[game for game, _ in GAMES])
def game(request):
    name, turn = request.param
    engine = importlib.import_module(f"sim.{name}.engine").ENGINE
    return f"sim.{name}.engine", engine, engine.load_setup(), turn


def bots_of(engine, *names):
    return [engine.resolve_bot(name) for name in names]


def test_the_runs_tables_are_unchanged_by_a_counterfactual_played_before(game):
    _, engine, setup, turn = game
    bots = bots_of(engine, "greedy", "random", "greedy")
    before = engine.play_chunk(setup, 3, bots, SEED, 0, 4)
    engine.play_counterfactuals(setup, 3, bots, SEED, np.arange(4), np.full(4, turn), np.full(4, -1))
    after = engine.play_chunk(setup, 3, bots, SEED, 0, 4)
    for table in before:
        for column in before[table]:
            np.testing.assert_array_equal(before[table][column], after[table][column])


def test_interpreted_counterfactuals_play_the_same_games(game):
    """NUMBA_DISABLE_JIT=1: the counterfactual kernel runs as plain Python with the same results."""
    module, engine, setup, turn = game
    script = (
        "import numpy as np\n"
        f"from {module} import ENGINE\n"
        "setup = ENGINE.load_setup()\n"
        "bots = [ENGINE.resolve_bot(name) for name in ('greedy', 'random')]\n"
        f"result = ENGINE.play_counterfactuals(setup, 2, bots, 7, np.array([0, 1]), np.array([{turn}, {turn}]),\n"
        "                                     np.array([1, -1]))\n"
        "print(*(int(value) for name in sorted(result) for value in result[name]))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    interpreted = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                                 cwd=Path(__file__).resolve().parents[2], check=True).stdout
    compiled = engine.play_counterfactuals(setup, 2, bots_of(engine, "greedy", "random"), 7,
                                           np.array([0, 1]), np.array([turn, turn]), np.array([1, -1]))
    assert interpreted.split() == [str(int(value)) for name in sorted(compiled) for value in compiled[name]]
