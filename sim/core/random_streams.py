"""Counter-based random streams for compiled kernels.

Every source of chance in a game (deck shuffles, coat-of-arms draws, each bot's own
randomness, ...) gets its own stream. A stream is a 64-bit key derived from
(experiment seed, game index, source id) plus a counter; each draw is
``splitmix64(key + counter * GOLDEN)``. Creating a stream costs three multiplications, so
a kernel can make fresh streams for every game (engine-notes.md: a numpy Generator per game
is too slow), and the draws of one game never depend on how games are chunked or spread
over workers.

A set of streams lives in a ``uint64`` array of shape ``(n_sources, 2)``: column 0 the key,
column 1 the counter. Copying that array copies the random state (search bots rely on it).
"""
import numpy as np
from numba import config

from sim.core.kernels import kernel

if config.DISABLE_JIT:
    # Interpreted debugging runs (NUMBA_DISABLE_JIT=1) use numpy scalars, which warn on the
    # intended 64-bit wrap-around of the mixing arithmetic; compiled code wraps silently.
    np.seterr(over="ignore")

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_2 = np.uint64(0x94D049BB133111EB)
SHIFT_30 = np.uint64(30)
SHIFT_27 = np.uint64(27)
SHIFT_31 = np.uint64(31)
SHIFT_11 = np.uint64(11)
ONE = np.uint64(1)
UNIT_53 = 1.0 / 9007199254740992.0  # 2**-53
KEY = 0
COUNTER = 1


@kernel
def splitmix64(value):
    """The splitmix64 finaliser: a bijective 64-bit mix with good avalanche."""
    z = value + GOLDEN_GAMMA
    z = (z ^ (z >> SHIFT_30)) * MIX_1
    z = (z ^ (z >> SHIFT_27)) * MIX_2
    return z ^ (z >> SHIFT_31)


@kernel
def stream_key(seed, game_index, source):
    """Key of one stream: a mix of (experiment seed, game index, source id)."""
    key = splitmix64(np.uint64(seed))
    key = splitmix64(key ^ np.uint64(game_index))
    return splitmix64(key ^ (np.uint64(source) * GOLDEN_GAMMA))


@kernel
def seed_streams(streams, seed, game_index):
    """(Re)initialise every stream of ``streams`` for one game."""
    for source in range(streams.shape[0]):
        streams[source, KEY] = stream_key(seed, game_index, source)
        streams[source, COUNTER] = np.uint64(0)


@kernel
def next_u64(streams, source):
    """Next raw 64-bit value of one stream."""
    streams[source, COUNTER] += ONE
    return draw_at(streams[source, KEY], streams[source, COUNTER])


@kernel
def uniform(streams, source):
    """A float in [0, 1) with 53 random bits."""
    return unit_float(next_u64(streams, source))


@kernel
def unit_float(bits):
    """The float in [0, 1) of a raw draw's top 53 bits."""
    return float(bits >> SHIFT_11) * UNIT_53


@kernel
def index_below(unit, n):
    """The integer in [0, n) of a uniform float in [0, 1) (n >= 1)."""
    value = int(unit * n)
    return value if value < n else n - 1


@kernel
def draw_at(key, counter):
    """The raw draw number ``counter`` (1, 2, ...) of the stream with ``key``."""
    return splitmix64(key + counter * GOLDEN_GAMMA)


@kernel
def draw_uniforms(streams, source, out):
    """out[i] = the next out.shape[0] ``uniform`` draws of one stream, in order: the same values
    as drawing them one by one, but computed side by side (each draw is a hash of the counter,
    so none waits for the one before) and the counter stored once."""
    counter = streams[source, COUNTER]
    key = streams[source, KEY]
    for index in range(out.shape[0]):
        out[index] = unit_float(draw_at(key, counter + np.uint64(index + 1)))
    streams[source, COUNTER] = counter + np.uint64(out.shape[0])


@kernel
def below(streams, source, n):
    """An integer uniform in [0, n) (n >= 1)."""
    return index_below(uniform(streams, source), n)


@kernel
def shuffle(streams, source, items, count):
    """Fisher-Yates shuffle of items[:count] in place, with the draws of ``below`` one by one;
    the stream's counter stays in a register (stored once at the end), so no draw waits for
    the one before to be written back."""
    counter = streams[source, COUNTER]
    key = streams[source, KEY]
    for i in range(count - 1, 0, -1):
        counter += ONE
        j = index_below(unit_float(draw_at(key, counter)), i + 1)
        swap = items[i]
        items[i] = items[j]
        items[j] = swap
    streams[source, COUNTER] = counter


def new_streams(n_sources):
    return np.zeros((n_sources, 2), dtype=np.uint64)


@kernel
def pick_by_counts(streams, source, counts):
    """An index drawn with probability counts[i] / counts.sum() (one unit among many piles:
    a coat from the face-down pile, a card from a hand held as counts per kind); -1 if empty."""
    total = counts.sum()
    if total <= 0:
        return -1
    pick = below(streams, source, total)
    # the pile the pick falls in: the number of piles that end at or before it (counted
    # without a branch, where a scan stopping at the pile mispredicts its exit)
    index = 0
    end = 0
    for pile in range(counts.shape[0]):
        end += counts[pile]
        index += 1 if end <= pick else 0
    return index
