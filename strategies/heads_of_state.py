"""Heads of State bot families: a family id + a float64 parameter vector.

* ``random`` (family 0): uniform over the legal decisions at every decision point, drawn from the
  seat's own random stream. No parameters (the vector is ignored).
* ``greedy`` (family 1): one-step heuristic (sim/heads_of_state/bots.py ``greedy_choose``):
  takes the display card that best completes a recipe it can still place, raises the
  best-valued noble while it can (hexagon, rank, new rank for the large token, square-token
  progress, influence), and switches to Option 2 when it can kill a valuable opponent noble
  it could replace at once.

Greedy parameters (index, name, default, range, meaning) are ``GREEDY_PARAMS`` below.
"""
from __future__ import annotations

import numpy as np

from sim.core.engine import BotSeat, ConfigError
from sim.heads_of_state.bots import GREEDY, N_GREEDY_PARAMS, RANDOM
from strategies.parameters import Parameter, parameter_vector

FAMILIES = {"random": RANDOM, "greedy": GREEDY}

# in the order of bots.P_* indices
GREEDY_PARAMS = (
    Parameter("deck_threshold", 0.3, 0.0, 3.0, "value of a blind deck draw; a display card worth less is not taken"),
    Parameter("courtesan_value", 0.8, 0.0, 3.0, "value of taking a courtesan"),
    Parameter("hex_weight", 1.0, 0.0, 3.0, "points per hexagon point still on the region"),
    Parameter("rank_weight", 0.5, 0.0, 3.0, "value per rank index (+1) of the raised noble"),
    Parameter("new_rank_weight", 2.0, 0.0, 10.0, "bonus for a rank never raised before (large round token)"),
    Parameter("square_weight", 1.0, 0.0, 10.0, "bonus for a new region of a country, scaled by coverage"),
    Parameter("betray_min_value", 5.0, 0.0, 12.0, "min victim value (rank+1, +2 in a capital) to choose Option 2 / play"),
    Parameter("refresh_threshold", 0.0, 0.0, 3.0, "use Option 1b when no display card is worth this (0 = never)"),
    Parameter("influence_weight", 0.5, 0.0, 3.0, "value per influence point of the raised noble's box"),
)
assert len(GREEDY_PARAMS) == N_GREEDY_PARAMS
# family name -> its documented parameters, in vector order (strategies/parameters.py)
FAMILY_PARAMETERS = {"random": (), "greedy": GREEDY_PARAMS}
N_PARAMETERS = max(len(parameters) for parameters in FAMILY_PARAMETERS.values())
N_PARAMS = N_PARAMETERS  # width of the kernel's parameter matrix


def default_params(family: str) -> np.ndarray:
    return parameter_vector(FAMILY_PARAMETERS[family], None, N_PARAMETERS, family)


def resolve_bot(name: str, params: dict | None = None) -> BotSeat:
    """A built-in bot by family name, optionally with parameter overrides (validated)."""
    if name not in FAMILIES:
        raise ConfigError(f"bots: {name}: expected one of {sorted(FAMILIES)}, found {name!r}")
    vec = parameter_vector(FAMILY_PARAMETERS[name], params, N_PARAMETERS, f"bots: {name}")
    return BotSeat(name=name, family=FAMILIES[name], params=vec)
