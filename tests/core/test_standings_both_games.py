"""The opt-in standings table (issue 40) in both games alike: asking for it changes no other
table, a chunk whose row buffer overflows is
played again with the same rows, the rows do not depend on the chunking, and the interpreted
kernels (NUMBA_DISABLE_JIT=1) record the same rows as the compiled ones. Each game's own rules
for its rows are in tests/<game>/test_standings.py."""
import dataclasses
import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GAMES = ("louis_xiv", "heads_of_state")


@pytest.fixture(params=GAMES)
def game(request):
    """(engine module, engine, its setup with standings on)."""
    module = importlib.import_module(f"sim.{request.param}.engine")
    setup = dataclasses.replace(module.ENGINE.load_setup(), optional_tables=("standings",))
    return module, module.ENGINE, setup


def standings(engine, setup, n_players, bot_names, seed, n_games, first_game=0):
    bots = [engine.resolve_bot(name) for name in bot_names[:n_players]]
    return engine.play_chunk(setup, n_players, bots, seed, first_game, n_games)["standings"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_asking_for_standings_changes_no_other_table(game, data, seed):
    _, engine, with_them_setup = game
    n_players = data.draw(st.sampled_from(engine.player_counts))
    bot_names = data.draw(st.lists(st.sampled_from(["random", "greedy"]), min_size=n_players, max_size=n_players))
    bots = [engine.resolve_bot(name) for name in bot_names]
    without = engine.play_chunk(engine.load_setup(), n_players, bots, seed, 0, 100)
    with_them = engine.play_chunk(with_them_setup, n_players, bots, seed, 0, 100)
    assert set(with_them) == set(without) | {"standings"}
    for table, columns in without.items():
        assert list(columns) == list(with_them[table])
        for name, values in columns.items():
            assert np.array_equal(values, with_them[table][name]), f"{table}.{name}"


def test_a_chunk_whose_buffer_overflows_is_played_again_with_the_same_rows_and_later_chunks_start_bigger(game, monkeypatch):
    module, engine, setup = game
    names = ["greedy", "random", "greedy"]
    roomy = standings(engine, setup, 3, names, 8, 20)
    monkeypatch.setattr(module, "STANDING_ROWS_PER_GAME", 2)
    monkeypatch.setattr(engine, "standing_rows_per_game", None)
    cramped = standings(engine, setup, 3, names, 8, 20)
    for name, values in roomy.items():
        assert np.array_equal(values, cramped[name], equal_nan=True), name
    rows_per_game = len(roomy["game_index"]) / 20
    assert rows_per_game < engine.standing_rows_per_game <= 1.1 * rows_per_game + 1


def test_standings_do_not_depend_on_the_chunking(game):
    _, engine, setup = game
    names = ["random", "greedy"]
    whole = standings(engine, setup, 2, names, 4, 10)
    first = standings(engine, setup, 2, names, 4, 4)
    rest = standings(engine, setup, 2, names, 4, 6, first_game=4)
    for name, values in whole.items():
        assert np.array_equal(values, np.concatenate([first[name], rest[name]]), equal_nan=True), name


def test_interpreted_kernels_record_the_same_standings(game, tmp_path):
    """NUMBA_DISABLE_JIT=1 (a debugger session on one game) records the same rows as compiled."""
    module, engine, setup = game
    script = (
        "import dataclasses, sys\n"
        "import numpy as np\n"
        f"from {module.__name__} import ENGINE\n"
        "setup = dataclasses.replace(ENGINE.load_setup(), optional_tables=('standings',))\n"
        "bots = [ENGINE.resolve_bot(name) for name in ('greedy', 'random', 'greedy')]\n"
        "standings = ENGINE.play_chunk(setup, 3, bots, 9, 2, 1)['standings']\n"
        "np.savez(sys.argv[1], **{name: np.asarray(values) for name, values in standings.items()})\n"
    )
    out = tmp_path / "standings.npz"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", script, str(out)], env=env, check=True,
                   cwd=Path(__file__).resolve().parents[2])
    interpreted = np.load(out)
    compiled = standings(engine, setup, 3, ["greedy", "random", "greedy"], 9, 1, first_game=2)
    for name, values in compiled.items():
        assert np.array_equal(values, interpreted[name], equal_nan=True), name
