"""Balance targets: a band per target, a status per set of estimates, a miss in points."""
import math

import pytest

from reports.analysis import targets


def row(metric, value, half_width=0.005, n_players=2, unit="rate"):
    return {"metric": metric, "n_players": n_players, "unit": unit, "value": value,
            "low": value - half_width, "high": value + half_width}


def test_fair_share_within_is_a_band_around_one_over_n():
    assert targets.band({"fair_share_within": 0.02}, 4) == pytest.approx((0.23, 0.27))


def test_several_conditions_of_one_target_are_intersected():
    assert targets.band({"at_least": 0.4, "between": [0.3, 0.6], "at_most": 0.55}, 2) == (0.4, 0.55)


def test_every_seat_of_a_glob_target_must_lie_in_the_band():
    target = {"metric": "*_player_win_rate", "fair_share_within": 0.01}
    assert targets.evaluate([row("first_player_win_rate", 0.505), row("second_player_win_rate", 0.495)],
                            target)[0] == "meets"
    status, miss, count = targets.evaluate([row("first_player_win_rate", 0.54), row("second_player_win_rate", 0.46)],
                                           target)
    assert (status, count) == ("misses", 2) and miss == pytest.approx(3.0)    # 4 points off, 1 allowed: 3 points


def test_an_estimate_inside_with_an_interval_reaching_out_may_meet():
    assert targets.evaluate([row("balance", 0.96, half_width=0.03)], {"metric": "balance", "at_least": 0.95})[0] == \
        "may meet"


def test_a_miss_is_in_points_for_a_rate_and_in_the_unit_otherwise_and_sums_over_targets():
    rows = [row("first_player_win_rate", 0.55), row("game_length", 40.0, unit="turns")]
    chosen = [{"metric": "first_player_win_rate", "between": [0.49, 0.51]}, {"metric": "game_length", "at_most": 38}]
    assert targets.total_miss(rows, chosen) == pytest.approx(4.0 + 2.0)


def test_a_target_of_other_player_counts_or_no_estimate_is_not_measured():
    status, miss, count = targets.evaluate([row("balance", 0.9)], {"metric": "balance", "players": [3], "at_least": 0.5})
    assert (status, count) == ("not measured", 0) and math.isinf(miss)


def paired_row(metric, difference, half_width, cell="variant", reference_cell="printed", unit="turns"):
    return {**row(metric, 60.0 + difference, unit=unit), "cell": cell, "reference_cell": reference_cell,
            "difference": difference, "difference_low": difference - half_width,
            "difference_high": difference + half_width}


def test_a_change_target_judges_the_paired_change_from_the_printed_rules_not_the_level():
    target = {"metric": "game_length_median", "change_within": 2}
    assert targets.band(target, 3) == (-2.0, 2.0)
    assert targets.evaluate([paired_row("game_length_median", 1.0, 0.5)], target)[:2] == ("meets", 0.0)
    assert targets.evaluate([paired_row("game_length_median", 1.5, 1.0)], target)[0] == "may meet"
    status, miss, _ = targets.evaluate([paired_row("game_length_median", -3.5, 0.5)], target)
    assert status == "misses" and miss == pytest.approx(1.5)          # in the metric's unit (turns)


def test_a_one_sided_change_target_in_points_for_a_rate():
    target = {"metric": "tiebreak_rate", "change_at_most": -0.01}     # at least one point fewer tie-breaks
    assert targets.band(target, 2) == (-math.inf, -0.01)
    status, miss, _ = targets.evaluate([paired_row("tiebreak_rate", 0.02, 0.005, unit="rate")], target)
    assert status == "misses" and miss == pytest.approx(3.0)
    assert targets.target_text(target) == "tiebreak_rate a change from the printed rules of at most -0.01"


def test_the_printed_cell_has_no_change_and_an_unpaired_cell_is_not_measured():
    target = {"metric": "game_length_median", "change_within": 2}
    itself = paired_row("game_length_median", math.nan, math.nan, cell="printed", reference_cell="printed")
    assert targets.evaluate([itself], target)[:2] == ("meets", 0.0)
    unpaired = paired_row("game_length_median", math.nan, math.nan, reference_cell=None)
    assert targets.evaluate([unpaired], target)[0] == "not measured"


@pytest.mark.parametrize("target, problem", [
    ({"at_least": 0.6, "at_most": 0.4}, ("at_most", "expected at_least <= at_most, found at_least 0.6 and at_most 0.4 "
                                                    "(no value lies in that band)")),
    ({"change_at_least": 2, "change_at_most": 1}, ("change_at_most", "expected change_at_least <= change_at_most, found "
                                                                     "change_at_least 2 and change_at_most 1 "
                                                                     "(no value lies in that band)")),
    ({"at_most": math.nan}, ("at_most", "expected a number, found nan")),
    ({"between": [math.nan, 0.5]}, ("between.0", "expected a number, found nan")),
    ({"at_least": 0.5, "at_most": 0.5}, None),             # a band of one value
    ({"between": [0.6, 0.4]}, None),                       # read either way round (band sorts it)
    ({"change_at_least": -1, "change_at_most": 1}, None),
    ({"fair_share_within": 0.02}, None),
])
def test_a_band_that_holds_no_value_is_a_bound_problem(target, problem):
    assert targets.bound_problem({"metric": "balance", **target}) == problem
