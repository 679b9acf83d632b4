"""Determinism across chunkings, replays identical to the game inside a run, golden replay
traces, interpreted (NUMBA_DISABLE_JIT=1) == compiled, copyable state, and kernel caching.

Regenerate the golden traces after an intended rules change with
``HOS_REGEN_GOLDEN=1 pytest tests/heads_of_state/test_determinism_and_replay.py``."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.kernel import setup_game
from sim.heads_of_state.state import S_GAME_OVER, STATE_FIELDS, copy_state, new_state
from sim.heads_of_state.turn import play_turn

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).resolve().parents[2]
GOLDEN_GAMES = [(n, seed, game) for n in (2, 3, 4, 5) for seed, game in ((17, 0), (99, 12345))]


def mixed_bots(n):
    return [ENGINE.resolve_bot("greedy" if i % 2 == 0 else "random") for i in range(n)]


def test_chunking_does_not_change_rows(setup):
    bots = mixed_bots(4)
    whole = ENGINE.play_chunk(setup, 4, bots, 42, 0, 10)
    a = ENGINE.play_chunk(setup, 4, bots, 42, 0, 5)
    b = ENGINE.play_chunk(setup, 4, bots, 42, 5, 5)
    for table in ENGINE.tables:
        for column, values in whole[table].items():
            assert np.array_equal(values, np.concatenate([a[table][column], b[table][column]])), (table, column)


def test_replay_is_the_game_inside_a_run(setup):
    bots = mixed_bots(3)
    run = ENGINE.play_chunk(setup, 3, bots, 7, 3, 6)
    for game in (4, 8):
        text = ENGINE.replay(setup, 3, bots, 7, game)
        finals = [int(line.split(": ")[-1]) for line in text.splitlines() if line.startswith("final score")]
        rows = run["seats"]["game_index"] == game
        assert finals == run["seats"]["score"][rows].tolist()
        plays = sum(" plays " in line and " on " in line for line in text.splitlines())
        assert plays == int((run["betrayals"]["game_index"] == game).sum())


@pytest.mark.parametrize("n_players,seed,game", GOLDEN_GAMES)
def test_golden_replay(setup, n_players, seed, game):
    text = ENGINE.replay(setup, n_players, mixed_bots(n_players), seed, game) + "\n"
    path = GOLDEN / f"hos_{n_players}p_seed{seed}_game{game}.txt"
    if os.environ.get("HOS_REGEN_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing golden trace {path.name} (run with HOS_REGEN_GOLDEN=1)"
    assert text == path.read_text()


SCRIPT = """
import json, numpy as np
from sim.heads_of_state.engine import ENGINE
s = ENGINE.load_setup()
bots = [ENGINE.resolve_bot(b) for b in ("greedy", "random", "greedy")]
t = ENGINE.play_chunk(s, 3, bots, 31, 100, 2)
print(json.dumps({k: {c: v.tolist() for c, v in t[k].items()} for k in t}))
"""


def test_interpreted_kernels_match_compiled(setup):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    interpreted = json.loads(out)
    bots = [ENGINE.resolve_bot(b) for b in ("greedy", "random", "greedy")]
    compiled = ENGINE.play_chunk(setup, 3, bots, 31, 100, 2)
    for table in ENGINE.tables:
        for column, values in compiled[table].items():
            assert interpreted[table][column] == values.tolist(), (table, column)


def test_copy_state_plays_out_identically_and_independently(setup):
    data = setup.data
    context = ENGINE.make_ctx(setup, 4, mixed_bots(4), betrayal_capacity=1000)
    state = new_state(data)
    setup_game(state, data, context, 4, np.uint64(5), 77, 0)
    for _ in range(30):
        play_turn(state, data, context)
    snapshot = copy_state(state)
    a, b = copy_state(state), copy_state(state)
    while a.scal[S_GAME_OVER] == 0:
        play_turn(a, data, context)
    while b.scal[S_GAME_OVER] == 0:
        play_turn(b, data, context)
    for name in STATE_FIELDS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name             # same streams -> same play-out
        assert np.array_equal(getattr(state, name), getattr(snapshot, name)), name  # the original is untouched


def test_kernels_are_cached(setup):
    ENGINE.play_chunk(setup, 2, mixed_bots(2), 1, 0, 2)          # make sure the cache exists
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    log = [line for line in out.splitlines() if line.startswith("[cache]")]
    assert any("data loaded" in line and "play_chunk_kernel" in line for line in log), log[-5:]
    assert not any("data saved" in line for line in log), [line for line in log if "saved" in line][:5]
