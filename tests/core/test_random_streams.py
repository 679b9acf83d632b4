"""Counter-based random streams (sim/core/random_streams.py)."""
import numpy as np
from hypothesis import given, settings, strategies as st

from sim.core.random_streams import draw_uniforms, new_streams, seed_streams, uniform


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**63), game=st.integers(0, 2**40), count=st.integers(1, 20),
       already=st.integers(0, 5))
def test_draw_uniforms_gives_the_draws_one_by_one_would(seed, game, count, already):
    one_by_one = new_streams(3)
    seed_streams(one_by_one, seed, game)
    for _ in range(already):
        uniform(one_by_one, 1)
    batched = one_by_one.copy()
    expected = [uniform(one_by_one, 1) for _ in range(count)]
    out = np.zeros(count)
    draw_uniforms(batched, 1, out)
    assert out.tolist() == expected
    # the stream goes on where the single draws left it, and the other streams are untouched
    assert (batched == one_by_one).all()
