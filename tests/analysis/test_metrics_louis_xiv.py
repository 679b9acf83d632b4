"""Louis XIV metrics on hand-made courtiers/seats tables with known answers."""
import polars as pl
import pytest

from reports.analysis import metrics_louis_xiv as lx

# as read from courtiers.parquet: labels for coded columns, nulls (None) where no seat applies
BASE = {"value": 0, "markers_seat_0": 0, "markers_seat_1": 0, "markers_seat_2": 0, "markers_seat_3": None,
        "markers_imaginary": 0, "intrigue_seat": None, "intrigue_markers": 0, "intrigue_from_general": 0,
        "once_first_seat": None, "majority_tie": 0, "majority_tie_decided": 0, "top_seat": None, "louis": 0, "louis_case": None, "free_mask": 0,
        "crown_seat": None, "second_seat": None, "bribe_mask": 0, "bribe_gold": 0, "to_general_mask": 0,
        "flipped": 0, "empty": 0}
# courtier 1: side A = gold, side B = first place; courtier 2: A threshold, B gold
MODE = {(1, "A"): "gold", (1, "B"): "first", (2, "A"): "threshold", (2, "B"): "gold"}
A, B = "A", "B"


def courtier_rows(history):
    """history: {(game, courtier): [(side, flipped, extra dict), ...] per round}."""
    rows = []
    for (game, courtier), rounds in history.items():
        for number, (side, flipped, extra) in enumerate(rounds, start=1):
            rows.append({**BASE, "game_index": game, "round": number, "courtier": courtier, "side": side,
                         "mode": MODE[(courtier, side)], "flipped": flipped, **extra})
    return pl.DataFrame(rows).lazy()


@pytest.fixture
def courtiers():
    return courtier_rows({
        (0, 1): [(A, 1, {}), (B, 1, {}), (A, 0, {})],          # A -> B -> A, last round no flip
        (1, 1): [(A, 0, {"majority_tie": 1}), (A, 1, {}), (B, 0, {})],
        (0, 2): [(A, 1, {"bribe_mask": 0b011, "bribe_gold": 6}), (B, 0, {}), (B, 0, {"empty": 1})],
        (1, 2): [(A, 0, {"majority_tie": 1, "once_first_seat": 2}), (A, 0, {}), (A, 0, {})],
    })


def test_flip_rates(courtiers):
    flips = lx.flip_rates(courtiers).set_index(["courtier", "round"])
    assert flips.loc[(1, 1), "flip_rate"] == pytest.approx(0.5)
    assert flips.loc[(1, 2), "flip_rate"] == pytest.approx(1.0)
    assert flips.loc[(2, 2), "flip_rate"] == 0
    assert flips.loc[(1, 3), "evaluations"] == 2


def test_side_and_mode_transition_matrices(courtiers):
    side, mode = lx.side_transitions(courtiers)
    # rounds 1-2 only: A->B x3 (c1g0r1, c1g1r2, c2g0r1), A->A x3 (c1g1r1, c2g1r1, c2g1r2),
    # B->A x1 (c1g0r2), B->B x1 (c2g0r2)
    assert side.loc["A", "B"] == pytest.approx(3 / 6)
    assert side.loc["A", "A"] == pytest.approx(3 / 6)
    assert side.loc["B", "A"] == pytest.approx(0.5) and side.loc["B", "B"] == pytest.approx(0.5)
    # modes: gold->first (c1 A->B x2), gold->gold (c1 A->A: g1r1 x1; c2 B->B: g0r2 x1), first->gold (c1 B->A),
    # threshold->gold (c2 A->B g0r1), threshold->threshold (c2 A->A: g1r1, g1r2)
    assert mode.loc["gold", "first place"] == pytest.approx(2 / 4)
    assert mode.loc["gold", "gold"] == pytest.approx(2 / 4)
    assert mode.loc["first place", "gold"] == pytest.approx(1.0)
    assert mode.loc["threshold", "gold"] == pytest.approx(1 / 3)
    assert mode.loc["threshold", "threshold"] == pytest.approx(2 / 3)
    assert side.sum(axis=1).tolist() == pytest.approx([1.0, 1.0])


def test_mode_shares(courtiers):
    shares = lx.mode_shares(courtiers)
    round_two = shares[(shares.courtier == 1) & (shares["round"] == 2)].set_index("mode_name")
    assert round_two.loc["first place", "share"] == pytest.approx(0.5)
    assert round_two.loc["gold", "share"] == pytest.approx(0.5)


def test_majority_ties(courtiers):
    ties = lx.majority_ties(courtiers).set_index("courtier")
    assert ties.loc[1, "tie_rate"] == pytest.approx(1 / 6)
    assert ties.loc[2, "tie_rate"] == pytest.approx(1 / 6)
    assert ties.loc[2, "empty_rate"] == pytest.approx(1 / 6)
    assert ties.loc[2, "ties_broken_by_once_first"] == 1


def test_decisive_majority_ties_leave_out_threshold_sides():
    """A tie on a threshold side decides nothing; ties on gold sides and on Louis XIV's courtier
    (a threshold side is never under Louis XIV in the shipped game, but the rule says so) do."""
    rows = courtier_rows({
        (0, 2): [(A, 0, {"majority_tie": 1, "majority_tie_decided": 0}),          # threshold side
                 (B, 0, {"majority_tie": 1, "majority_tie_decided": 1})],         # gold side
        (0, 1): [(A, 0, {"majority_tie": 1, "louis": 1, "majority_tie_decided": 1}), (A, 0, {})],
    })
    ties = lx.majority_ties(rows).set_index("courtier")
    assert ties.loc[2, "ties"] == 2 and ties.loc[2, "decisive_ties"] == 1
    assert ties.loc[2, "decisive_tie_rate"] == pytest.approx(0.5)
    assert ties.loc[1, "decisive_ties"] == 1


def test_bribes_and_gifts_by_winners(courtiers):
    bribes = lx.bribes_per_courtier(courtiers, n_games=2).set_index("courtier")
    assert bribes.loc[2, "bribes"] == 2 and bribes.loc[2, "gold_per_game"] == pytest.approx(3.0)
    assert bribes.loc[2, "gold_per_bribe"] == pytest.approx(3.0)
    games = pl.DataFrame({"game_index": [0, 1], "winner_mask": [0b001, 0b100], "n_players": [3, 3]}).lazy()
    gifts = lx.gifts_by_winners(courtiers, games).set_index("courtier")
    # game 0, courtier 2: bribes to seats 0 (winner) and 1 -> one winner gift, one other gift
    assert gifts.loc[2, "winner_gifts"] == 1 and gifts.loc[2, "other_gifts"] == 1
    assert gifts.loc[2, "per_winner_game"] == pytest.approx(1 / 2)
    assert gifts.loc[2, "per_other_game"] == pytest.approx(1 / 4)


def test_louis_outcomes():
    courtiers = courtier_rows({
        (0, 1): [(A, 0, {"louis": 1, "louis_case": "A", "crown_seat": 0, "second_seat": 1})],
        (1, 1): [(A, 0, {"louis": 1, "louis_case": "D"})],
        (2, 1): [(A, 0, {"louis": 1, "louis_case": "C", "crown_seat": 2})],
        (3, 1): [(A, 0, {"louis": 0})],
    })
    cases, per_courtier = lx.louis_outcomes(courtiers)
    assert cases["count"].sum() == 3
    assert cases.set_index("louis_case").loc["D", "case"] == "D: tie on top, no crown"
    assert per_courtier.loc[0, "crown_taken_rate"] == pytest.approx(2 / 3)
    assert per_courtier.loc[0, "tied_on_top_rate"] == pytest.approx(1 / 3)
    assert per_courtier.loc[0, "second_place_gift_rate"] == pytest.approx(1 / 3)


def test_score_sources_shares():
    seats = pl.DataFrame({
        "is_winner": [1, 0], "score": [30, 12], "coats_from_gifts": [10, 2], "coats_from_missions": [5, 0],
        "coats_from_token_cap": [0, 0], "coats_from_conversion": [0, 0], "coats_from_majority": [5, 0],
        "missions_light": [1, 2], "missions_blue": [1, 0], "missions_dark": [0, 0]}).lazy()
    sources = lx.score_sources(seats).set_index(["who", "source"])
    assert sources.loc[("winners", "missions_5vp"), "share"] == pytest.approx(10 / 30)
    assert sources.loc[("winners", "coats_from_gifts"), "share"] == pytest.approx(10 / 30)
    assert sources.loc[("others", "missions_5vp"), "share"] == pytest.approx(10 / 12)
    assert sources.loc[("winners", "other_sources"), "points"] == 0
