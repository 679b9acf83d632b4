"""Counter-based random streams (sim/core/random_streams.py)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from sim.core.random_streams import below, draw_uniforms, new_streams, seed_streams, shuffle, uniform


def streams_part_drawn(seed, game, source, already):
    """Seeded streams with ``already`` draws taken from ``source``, and a copy of them (the seed
    as kernels take it: its 64 bits as an int64, sim.core.engine.seed_as_int64)."""
    streams = new_streams(3)
    seed_streams(streams, seed, game)
    for _ in range(already):
        uniform(streams, source)
    return streams, streams.copy()


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(-2**63, 2**63 - 1), game=st.integers(0, 2**40), count=st.integers(1, 20),
       already=st.integers(0, 5))
def test_draw_uniforms_gives_the_draws_one_by_one_would(seed, game, count, already):
    one_by_one, batched = streams_part_drawn(seed, game, 1, already)
    expected = [uniform(one_by_one, 1) for _ in range(count)]
    out = np.zeros(count)
    draw_uniforms(batched, 1, out)
    assert out.tolist() == expected
    # the stream goes on where the single draws left it, and the other streams are untouched
    assert (batched == one_by_one).all()


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(-2**63, 2**63 - 1), game=st.integers(0, 2**40), count=st.integers(0, 45),
       already=st.integers(0, 5))
def test_shuffle_is_fisher_yates_with_the_draws_of_below(seed, game, count, already):
    one_by_one, shuffled_streams = streams_part_drawn(seed, game, 2, already)
    expected = list(range(count)) + [-1]            # an item past ``count`` stays where it is
    for i in range(count - 1, 0, -1):
        j = below(one_by_one, 2, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    items = np.array(list(range(count)) + [-1], dtype=np.int64)
    shuffle(shuffled_streams, 2, items, count)
    assert items.tolist() == expected
    assert (shuffled_streams == one_by_one).all()
