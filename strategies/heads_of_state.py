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

FAMILIES = {"random": RANDOM, "greedy": GREEDY}

# (name, default, low, high, meaning) in the order of bots.P_* indices
GREEDY_PARAMS = (
    ("deck_threshold", 0.3, 0.0, 3.0, "value of a blind deck draw; a display card worth less is not taken"),
    ("courtesan_value", 0.8, 0.0, 3.0, "value of taking a courtesan"),
    ("hex_weight", 1.0, 0.0, 3.0, "points per hexagon point still on the region"),
    ("rank_weight", 0.5, 0.0, 3.0, "value per rank index (+1) of the raised noble"),
    ("new_rank_weight", 2.0, 0.0, 10.0, "bonus for a rank never raised before (large round token)"),
    ("square_weight", 1.0, 0.0, 10.0, "bonus for a new region of a country, scaled by coverage"),
    ("betray_min_value", 5.0, 0.0, 12.0, "min victim value (rank+1, +2 in a capital) to choose Option 2 / play"),
    ("refresh_threshold", 0.0, 0.0, 3.0, "use Option 1b when no display card is worth this (0 = never)"),
    ("influence_weight", 0.5, 0.0, 3.0, "value per influence point of the raised noble's box"),
)
assert len(GREEDY_PARAMS) == N_GREEDY_PARAMS
PARAM_NAMES = {"random": (), "greedy": tuple(p[0] for p in GREEDY_PARAMS)}
N_PARAMS = N_GREEDY_PARAMS  # width of the kernel's parameter matrix


def default_params(family: str) -> np.ndarray:
    vec = np.zeros(N_PARAMS, np.float64)
    if family == "greedy":
        vec[:] = [p[1] for p in GREEDY_PARAMS]
    return vec


def resolve_bot(name: str, params: dict | None = None) -> BotSeat:
    """``random`` or ``greedy`` (optionally ``greedy`` with a dict of parameter overrides)."""
    if name not in FAMILIES:
        raise ConfigError(f"bots: {name}: expected one of {sorted(FAMILIES)}, found {name!r}")
    vec = default_params(name)
    for key, value in (params or {}).items():
        if key not in PARAM_NAMES[name]:
            raise ConfigError(f"bots: {name}.{key}: expected a parameter in {list(PARAM_NAMES[name])}, found {key!r}")
        vec[PARAM_NAMES[name].index(key)] = float(value)
    return BotSeat(name=name, family=FAMILIES[name], params=vec)
