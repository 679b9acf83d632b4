"""Names that make the rulebook tests read like the rulebook: the players of the worked
examples (colour = seat), courtier numbers as printed (1..12, the kernel is 0-based), and small
helpers to evaluate one courtier and read the courtiers-table row it writes."""
import numpy as np

from sim.louis_xiv import constants as C
from sim.louis_xiv import tables as R
from sim.louis_xiv.evaluation import evaluate_courtier

# The worked examples' colours, seated clockwise from the start player (seat 0)
YELLOW, RED, GREEN, BLUE = 0, 1, 2, 3
SIDE_A, SIDE_B = 0, 1

# Courtier numbers as printed on the tiles (rules §1.1)
ANNE, PHILIPPE, MARIE_THERESE, DAUPHIN, MONTESPAN, CONDE, COLBERT, MAINTENON, LA_VALLIERE, \
    TURENNE, MAZARIN, LOUVOIS = range(1, 13)


def tile(number):
    """Kernel index of courtier ``number`` (the rules count from 1)."""
    return number - 1


def put(state, courtier_number, **per_seat):
    """Put markers on a courtier, taking them from each player's own supply (as placed by
    influence cards): ``put(state, DAUPHIN, yellow=3, red=2)``."""
    seats = {"yellow": YELLOW, "red": RED, "green": GREEN, "blue": BLUE}
    for name, count in per_seat.items():
        if name == "imaginary":
            state.own_supply[C.IMAGINARY] -= count
            state.markers[tile(courtier_number), C.IMAGINARY] += count
            continue
        seat = seats[name]
        assert state.own_supply[seat] >= count
        state.own_supply[seat] -= count
        state.markers[tile(courtier_number), seat] += count


def evaluate(state, setup, courtier_number, bots, rules=None):
    """Evaluate one courtier (§4.3 steps 1-6); returns its courtiers-table row as a dict."""
    families, params = bots
    row = np.zeros(len(R.COURTIER_COLUMNS), dtype=np.int32)
    evaluate_courtier(state, setup.data, setup.rules if rules is None else rules, tile(courtier_number),
                      families, params, row)
    return dict(zip(R.COURTIER_COLUMNS, (int(value) for value in row)))


def seats_in(mask):
    return {seat for seat in range(C.MAX_PLAYERS) if mask & (1 << seat)}


def supplies(state, seat):
    """(own supply, general supply) of a seat."""
    return int(state.own_supply[seat]), int(state.general_supply[seat])
