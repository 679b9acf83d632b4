"""How courtsim compiles game kernels, and small helpers they share.

``kernel`` is ``njit(cache=True)``; ``inline_kernel`` also inlines the function into its callers
(for tiny helpers called everywhere). Game state and data are array records passed as one
pointer (sim/core/records.py). Kernels avoid allocating in the game loop: they use the scratch
arrays of the state instead of ``np.zeros`` (an allocation costs tens of nanoseconds).

Measured alternatives (Louis XIV, 4 greedy bots): a namedtuple state with reference counting
cost ~300 ns per call (an atomic update per array); a namedtuple with ``_nrt=False`` (no
reference counting) was still 30% slower than records, as every call copies every array's
shape, strides and pointers.

Under ``NUMBA_DISABLE_JIT=1`` both are plain Python functions.
"""
from numba import njit

kernel = njit(cache=True)
inline_kernel = njit(cache=True, inline="always")


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
def max_of(values, count):
    """The largest of values[:count]."""
    best = values[0]
    for index in range(1, count):
        if values[index] > best:
            best = values[index]
    return best
