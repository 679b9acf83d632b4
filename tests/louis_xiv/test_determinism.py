"""One game is a pure function of (data, rules, bots, seed, game index): results do not depend
on chunking (the --jobs check for every game is tests/test_jobs_determinism.py)."""
import numpy as np

from sim.louis_xiv.engine import ENGINE


def test_chunking_does_not_change_any_row():
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot(name) for name in ("greedy", "random", "greedy", "random")]
    whole = ENGINE.play_chunk(setup, 4, bots, 99, 0, 12)
    first = ENGINE.play_chunk(setup, 4, bots, 99, 0, 5)
    second = ENGINE.play_chunk(setup, 4, bots, 99, 5, 7)
    for table in ENGINE.tables:
        for column, values in whole[table].items():
            np.testing.assert_array_equal(values, np.concatenate([first[table][column], second[table][column]]),
                                          err_msg=f"{table}.{column}")


def test_other_seed_gives_other_games():
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot("greedy")] * 3
    one = ENGINE.play_chunk(setup, 3, bots, 1, 0, 20)["seats"]["score"]
    two = ENGINE.play_chunk(setup, 3, bots, 2, 0, 20)["seats"]["score"]
    assert not np.array_equal(one, two)


def test_every_64_bit_seed_plays_and_is_recorded():
    """Seeds are 0 .. 2**64-1 (the CLI's range); the kernels take the seed's bits as an int64."""
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot("greedy")] * 4
    for seed in (2**63 - 1, 2**63, 2**64 - 1):
        tables = ENGINE.play_chunk(setup, 4, bots, seed, 0, 3)
        assert tables["games"]["seed"].tolist() == [seed] * 3
        replayed_state, replayed_scores = ENGINE.replay_state(setup, 4, bots, seed, 2)
        assert replayed_scores[:4].tolist() == tables["seats"]["score"][8:12].tolist()
    high = ENGINE.play_chunk(setup, 4, bots, 2**63, 0, 3)["seats"]["score"]
    low = ENGINE.play_chunk(setup, 4, bots, 0, 0, 3)["seats"]["score"]
    assert not np.array_equal(high, low)
