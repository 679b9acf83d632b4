"""How courtsim compiles game kernels, and small helpers they share.

``kernel`` is ``njit(cache=True)``; ``inline_kernel`` also inlines the function into its callers
(for tiny helpers called everywhere). Both games use these decorators and helpers; neither keeps
copies of its own. Game state and data are array records passed as one
pointer (sim/core/records.py). Kernels avoid allocating in the game loop: they use the scratch
arrays of the state instead of ``np.zeros`` (an allocation costs tens of nanoseconds).

Measured alternatives (Louis XIV, 4 greedy bots): a namedtuple state with reference counting
cost ~300 ns per call (an atomic update per array); a namedtuple with ``_nrt=False`` (no
reference counting) was still 30% slower than records, as every call copies every array's
shape, strides and pointers.

``game_kernel`` / ``inline_game_kernel`` are for game-loop kernels that only *borrow* arrays
(from records, arguments or slices of them) and never allocate or return an array: they are
compiled without numba's reference counting (``_nrt=False``). Each record field read otherwise
costs an atomic increment/decrement pair (~6-8 ns), thousands of times per game: Louis XIV with
4 greedy bots went from 7,400 to 11,000 games/s with this alone. ``error_model="numpy"`` drops
the division-by-zero checks (the rules never divide by zero). A kernel that allocates (``np.zeros``,
``.copy()``, building a record) must stay a ``kernel``; calling either kind from the other is fine.

``allocating_kernel`` is a ``kernel`` with reference counting switched on explicitly, for a
function that allocates and is called from ``game_kernel`` code (the search bots' entry points):
an option a decorator leaves unset is inherited from the caller numba is compiling, so a plain
``kernel`` called from a ``game_kernel`` would be compiled without reference counting too.

Under ``NUMBA_DISABLE_JIT=1`` all are plain Python functions.
"""
import os

from numba import njit

kernel = njit(cache=True)
inline_kernel = njit(cache=True, inline="always")
game_kernel = njit(cache=True, _nrt=False, error_model="numpy")
inline_game_kernel = njit(cache=True, _nrt=False, error_model="numpy", inline="always")
allocating_kernel = njit(cache=True, _nrt=True)


@inline_kernel
def copy_into(destination, source):
    """destination[i] = source[i] for a 1-D source, without the temporary ``a[:] = b`` makes."""
    for index in range(source.shape[0]):
        destination[index] = source[index]


@inline_kernel
def copy_into_2d(destination, source):
    for row in range(source.shape[0]):
        for column in range(source.shape[1]):
            destination[row, column] = source[row, column]


@inline_kernel
def copy_into_3d(destination, source):
    for layer in range(source.shape[0]):
        for row in range(source.shape[1]):
            for column in range(source.shape[2]):
                destination[layer, row, column] = source[layer, row, column]


@inline_kernel
def nonzero_indices(values, out):
    """out[:count] = the indices of the nonzero entries of 1-D ``values``, in order; returns
    count. Listed without a branch (every index is written, the count moves only past the
    nonzero ones): where the nonzero entries of a hand lie is no pattern a branch predictor
    could learn, and a loop that skips the zeros mispredicts about once per entry kept."""
    count = 0
    for index in range(values.shape[0]):
        out[count] = index
        count += 1 if values[index] != 0 else 0
    return count


@inline_kernel
def max_of(values, count):
    """The largest of values[:count]."""
    best = values[0]
    for index in range(1, count):
        if values[index] > best:
            best = values[index]
    return best


def cached_on_disk(*dispatchers) -> bool:
    """Whether numba's on-disk cache holds a compiled version of every one of ``dispatchers``
    for their current source (a run then loads them at once instead of compiling; the runner
    says so before it compiles). Always true for plain functions (NUMBA_DISABLE_JIT=1)."""
    for dispatcher in dispatchers:
        cache = getattr(dispatcher, "_cache", None)
        if cache is None:
            continue
        try:
            index_path = cache._cache_file._index_path
            if not os.path.exists(index_path) or not cache._cache_file._load_index():
                return False
        except (AttributeError, OSError, EOFError, ValueError):
            return False    # numba's cache layout changed or is unreadable: compile, as numba will
    return True
