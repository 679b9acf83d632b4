"""What every game's bot module declares, and how a parameter dict becomes a kernel vector.

A bot, for the kernels, is a family id and a float64 parameter vector (engine notes, "bots as
numbers"). Each game's bot package ``strategies/<game>/`` declares, in its ``__init__``:

- ``FAMILIES``: family name -> compiled family id (the if/elif in the game's decision code);
- ``FAMILY_PARAMETERS``: family name -> tuple of :class:`Parameter` (meaning, default, range),
  in the order of the vector the kernels read;
- ``N_PARAMETERS``: the width of the kernels' parameter matrix (the longest family).

``strategies.bots`` (the one place bots are resolved) turns names and YAML bot files into :class:`sim.core.engine.BotSeat` through
:func:`parameter_vector`, so every game validates parameters the same way.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.engine import BotSeat, ConfigError
from sim.core.yaml_files import found_text


@dataclass(frozen=True)
class Parameter:
    """One documented bot parameter: ``low <= value <= high``; ``integer`` values are counts."""
    name: str
    default: float
    low: float
    high: float
    meaning: str
    integer: bool = False


def parameter_vector(parameters: tuple[Parameter, ...], overrides: dict | None, width: int,
                     where: str) -> np.ndarray:
    """The family's defaults with ``overrides`` applied, padded with zeros to ``width``.

    ``where`` names the bot (file and key) for the one-line error on an unknown parameter, a
    non-number or a value out of range."""
    vector = np.zeros(width, dtype=np.float64)
    index = {parameter.name: position for position, parameter in enumerate(parameters)}
    for position, parameter in enumerate(parameters):
        vector[position] = parameter.default
    for key, value in (overrides or {}).items():
        if key not in index:
            expected = ", ".join(index) if index else "no parameters for this family"
            raise ConfigError(f"{where}: unknown parameter '{key}': expected one of {expected}")
        parameter = parameters[index[key]]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}.{key}: expected a number in {parameter.low:g}..{parameter.high:g}, "
                              f"found {found_text(value)}")
        if parameter.integer and float(value) != int(value):
            raise ConfigError(f"{where}.{key}: expected a whole number in {parameter.low:g}..{parameter.high:g}, "
                              f"found {found_text(value)}")
        if not parameter.low <= float(value) <= parameter.high:
            raise ConfigError(f"{where}.{key}: expected a value in {parameter.low:g}..{parameter.high:g}, "
                              f"found {found_text(value)}")
        vector[index[key]] = float(value)
    return vector


def bot_seat(name: str, family: str, families: dict[str, int], parameters: tuple[Parameter, ...],
             vector: np.ndarray) -> BotSeat:
    """A resolved bot that knows its family's name and its parameters' names (for run.yaml)."""
    return BotSeat(name=name, family=int(families[family]), params=vector, family_name=family,
                   parameter_names=tuple(parameter.name for parameter in parameters))


def builtin_bot(families: dict[str, int], family_parameters: dict[str, tuple[Parameter, ...]], width: int,
                name: str, overrides: dict | None = None) -> BotSeat:
    """The built-in bot of family ``name`` (its defaults, optionally with validated overrides)."""
    if name not in families:
        raise ConfigError(f"bots: unknown bot {name!r}: expected one of {', '.join(families)}")
    vector = parameter_vector(family_parameters[name], overrides, width, f"bot '{name}'")
    return bot_seat(name, name, families, family_parameters[name], vector)
