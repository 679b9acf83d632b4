"""Heads of State bots: families, parameters and the search, in one package per game.

=================  ==============================================================================
parameters.py      family ids and every family's documented parameters (names, defaults, ranges)
decide.py          the rules' one entry point: ``choose(state, data, context, player, kind, n)`` for every
                   decision point, dispatching on the family (the random decisions here)
greedy.py          the greedy's decisions (one-step heuristic over the listed moves)
search.py          the search bot (determinized Monte Carlo rollouts at the main decisions)
=================  ==============================================================================

YAML bot files (configs/bots/heads_of_state/) and their resolution to kernel vectors: strategies/bots.py.
"""
import sim.heads_of_state  # noqa: F401  (points numba's cache before any kernel module is imported)
from strategies.parameters import builtin_bot
from strategies.heads_of_state.parameters import FAMILIES, FAMILY_PARAMETERS, GREEDY, N_PARAMETERS, RANDOM, SEARCH, GREEDY_PARAMS, SEARCH_PARAMS


def resolve_bot(name: str, overrides: dict | None = None):
    """A built-in bot by family name, optionally with parameter overrides (validated)."""
    return builtin_bot(FAMILIES, FAMILY_PARAMETERS, N_PARAMETERS, name, overrides)
