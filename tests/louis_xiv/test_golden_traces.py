"""Golden playthrough traces (as OpenSpiel does): the replay logs of a few seeded games per
player count are committed under tests/louis_xiv/golden/. Any change in game behaviour shows up
here as a diff to review; after an intended change, regenerate them with

    COURTSIM_UPDATE_GOLDEN=1 pytest tests/louis_xiv/test_golden_traces.py
"""
import os
from pathlib import Path

import numpy as np
import pytest

from sim.louis_xiv.engine import ENGINE

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    (2, ("greedy", "random"), 7, 12),
    (2, ("greedy", "greedy"), 11, 3),
    (3, ("greedy", "random", "greedy"), 7, 12),
    (3, ("random", "random", "random"), 5, 0),
    (4, ("greedy", "greedy", "random", "greedy"), 7, 12),
    (4, ("greedy", "greedy", "greedy", "greedy"), 21, 40),
]


def case_id(case):
    n_players, bots, seed, game = case
    return f"{n_players}p-{'-'.join(bots)}-seed{seed}-game{game}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_replay_log_matches_golden_trace(case):
    n_players, bot_names, seed, game = case
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot(name) for name in bot_names]
    log = ENGINE.replay(setup, n_players, bots, seed, game)
    path = GOLDEN / f"{case_id(case)}.txt"
    if os.environ.get("COURTSIM_UPDATE_GOLDEN"):
        path.write_text(log, encoding="utf-8")
    assert path.exists(), f"missing golden trace {path.name}; run with COURTSIM_UPDATE_GOLDEN=1"
    assert log == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES[::2], ids=case_id)
def test_replay_is_the_same_game_as_inside_a_run(case):
    """A replayed game equals that game inside a batch run (same scores, same courtier rows)."""
    n_players, bot_names, seed, game = case
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot(name) for name in bot_names]
    tables = ENGINE.play_chunk(setup, n_players, bots, seed, game - 2, 5)
    seats = tables["seats"]
    in_run = seats["score"][seats["game_index"] == game]
    _, scores = ENGINE.replay_state(setup, n_players, bots, seed, game)
    np.testing.assert_array_equal(in_run, scores[:n_players])


def test_interpreted_kernels_play_the_same_game():
    """The kernels run unchanged with NUMBA_DISABLE_JIT=1 (for debugging) and play the very
    same game as compiled."""
    import subprocess
    import sys

    n_players, bot_names, seed, game = CASES[0]
    script = (
        "from sim.louis_xiv.engine import ENGINE\n"
        "setup = ENGINE.load_setup()\n"
        f"bots = [ENGINE.resolve_bot(name) for name in {list(bot_names)!r}]\n"
        f"print(ENGINE.replay(setup, {n_players}, bots, {seed}, {game}), end='')\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                            cwd=Path(__file__).resolve().parents[2], check=True)
    assert result.stdout == (GOLDEN / f"{case_id(CASES[0])}.txt").read_text(encoding="utf-8")
