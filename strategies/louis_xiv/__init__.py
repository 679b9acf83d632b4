"""Louis XIV bots: families, parameters and the search, in one package per game.

=================  ==============================================================================
parameters.py      family ids and every family's documented parameters (names, defaults, ranges)
decide.py          the rules' one entry point: one compiled ``choose_*`` per decision point (rules §10.1),
                   dispatching on the family (the random decisions here)
greedy.py          the greedy's decisions (one-step heuristic: gift values, holding values, noise)
search.py          the search bot's influence turn (flat Monte Carlo over determinized rollouts)
=================  ==============================================================================

YAML bot files (configs/bots/louis_xiv/) and their resolution to kernel vectors: strategies/bots.py.
"""
import sim.louis_xiv  # noqa: F401  (points numba's cache before any kernel module is imported)
from strategies.parameters import builtin_bot
from strategies.louis_xiv.parameters import FAMILIES, FAMILY_PARAMETERS, GREEDY, N_PARAMETERS, RANDOM, SEARCH, PARAMETER_INDEX, PARAMETERS, SEARCH_PARAMETERS


def resolve_bot(name: str, overrides: dict | None = None):
    """A built-in bot by family name, optionally with parameter overrides (validated)."""
    return builtin_bot(FAMILIES, FAMILY_PARAMETERS, N_PARAMETERS, name, overrides)
