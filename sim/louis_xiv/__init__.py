"""Louis XIV (Rüdiger Dorn, 2-4 players): compiled engine. Rules: shared/rules/louis_xiv.md.
The README's "Where things are" table maps each rulebook phase to its module."""
from sim import use_source_keyed_numba_cache

use_source_keyed_numba_cache("louis_xiv", extra_sources=("strategies/louis_xiv",))  # before any kernel module of this game is imported
