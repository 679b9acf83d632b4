"""A metric's numbers in the designer's units: rates in percent and their differences in points
(of percent), scores, turns and counts as they are, with as many decimals as an interval needs.

The words of a verdict (a target's band, reports.analysis.targets) and every page
(reports.pages) write numbers with these, so a number reads the same wherever it is shown."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

RATE = "rate"          # a share (win rate, balance): shown in percent, its differences in points


def decimals(width: float, at_least: int) -> int:
    """Decimals that show an interval of ``width`` (in display units) with about two figures."""
    if not np.isfinite(width) or width <= 0:
        return max(at_least, 1)
    # (the tolerance: 1.9 - 0.9 is 0.9999999999999999, a width of 1)
    return int(min(3, max(at_least, 1 - math.floor(math.log10(width) + 1e-9))))


def digits_for(rows: pd.DataFrame) -> int:
    """Decimals that show the narrowest interval of ``rows`` (all one unit) with about two figures."""
    unit = rows["unit"].iloc[0]
    widths = ((rows["high"] - rows["low"]) * scale(unit)).to_numpy(float)
    widths = widths[np.isfinite(widths) & (widths > 0)]
    return decimals(float(widths.min()) if widths.size else float("nan"), 1 if unit == RATE else 0)


def scale(unit: str) -> float:
    """Rates are shown in percent and their differences in points (of percent)."""
    return 100.0 if unit == RATE else 1.0


def unit_word(unit: str) -> str:
    """The word after a difference: points of percent for rates, none for plain counts."""
    return "points" if unit == RATE else ("" if unit == "count" else unit)


def with_unit(text: str, unit: str) -> str:
    """``text`` followed by the word of ``unit`` (none for a count)."""
    return f"{text} {unit_word(unit)}".rstrip()


def number(value: float, digits: int, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals (``sign``: always signed); n/a for a missing value."""
    if value is None or not np.isfinite(value):
        return "n/a"
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    # a value that rounds to zero is shown as 0.0, not -0.0 or +0.0
    return text.lstrip("+-") if float(text) == 0 else text


def value_text(value: float, unit: str, digits: int) -> str:
    """58.1% for a rate, 48.2 points for a score."""
    text = number(value * scale(unit), digits)
    if unit == RATE:
        return text + "%" if text != "n/a" else text
    return with_unit(text, unit)


def interval_text(low: float, high: float, unit: str, digits: int) -> str:
    """``[56.0, 60.2]`` in the unit's display scale (percent for rates)."""
    return f"[{number(low * scale(unit), digits)}, {number(high * scale(unit), digits)}]"
