"""Result buffers a run's chunks reuse (sim/core/buffers.py): inside the context a role gets its
last buffer back, zeroed, when the shape and type match; outside it, and in another thread, a
new array."""
import threading

import numpy as np

from sim.core import buffers


def test_outside_the_context_every_call_is_a_new_zeroed_array():
    first = buffers.zeros("test.games", (4, 3), np.int32)
    first[:] = 7
    second = buffers.zeros("test.games", (4, 3), np.int32)
    assert second is not first and not second.any()


def test_inside_the_context_a_role_gets_its_last_buffer_back_zeroed():
    with buffers.reused_between_chunks():
        first = buffers.zeros("test.seats", (5, 2), np.int64, order="F")
        first[:] = 3
        second = buffers.zeros("test.seats", (5, 2), np.int64, order="F")
        assert second is first and not second.any() and second.flags.f_contiguous


def test_another_shape_type_or_role_gets_a_new_buffer():
    with buffers.reused_between_chunks():
        first = buffers.zeros("test.rows", (5, 2), np.int32)
        assert buffers.zeros("test.rows", (6, 2), np.int32) is not first
        assert buffers.zeros("test.rows", (6, 2), np.float32).dtype == np.float32
        assert buffers.zeros("test.other", (6, 2), np.float32) is not buffers.zeros("test.rows", (6, 2), np.float32)


def test_threads_never_share_a_buffer():
    found = {}

    def chunk(name):
        with buffers.reused_between_chunks():
            found[name] = buffers.zeros("test.threads", (8,), np.int32)

    workers = [threading.Thread(target=chunk, args=(name,)) for name in ("a", "b")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert found["a"] is not found["b"]


def test_an_overwritten_buffer_is_handed_back_as_its_last_chunk_left_it():
    """No zeroing: its kernel writes every cell that is read (a standings table's recorded rows)."""
    with buffers.reused_between_chunks():
        first = buffers.overwritten("test.standings", (3, 10), np.int32)
        assert not first.any()              # new: zeroed
        first[:, :4] = 9
        second = buffers.overwritten("test.standings", (3, 10), np.int32)
        assert second is first and (second[:, :4] == 9).all()
    assert not buffers.overwritten("test.standings", (3, 10), np.int32).any()    # outside: new
