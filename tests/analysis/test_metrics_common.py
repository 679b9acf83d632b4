"""Common metrics on small hand-made tables with known answers."""
import math

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import stats

from reports.analysis import metrics_common as mc


def seat_rows(games):
    """games: list of (n_players, [scores], [winner flags], [rounds x seats leader scores])."""
    rows = []
    for index, (scores, wins, after) in enumerate(games):
        n_winners = sum(wins)
        for seat, (score, win) in enumerate(zip(scores, wins)):
            row = {"game_index": index, "n_players": len(scores), "matchup": "a|a|a", "seat": seat,
                   "position": seat, "bot": "a", "score": score, "win": win, "n_winners": n_winners,
                   "credit": win / n_winners}
            for r, round_scores in enumerate(after):
                row[f"score_after_round_{r + 1}"] = round_scores[seat]
            rows.append(row)
    return pl.DataFrame(rows).lazy()


def test_wilson_interval_matches_the_closed_form():
    low, high = mc.wilson_interval(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-5)
    assert high == pytest.approx(0.59617, abs=1e-5)
    z = stats.norm.ppf(0.975)
    k, n = 3, 40
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = mc.wilson_interval([k, 0], [n, 0])
    assert low[0] == pytest.approx(centre - half) and high[0] == pytest.approx(centre + half)
    assert np.isnan(low[1]) and np.isnan(high[1])


def test_seat_advantage_chi_square_and_cohens_w():
    result = mc.seat_advantage_test([40, 20, 20, 20])
    # expected 25 each: (15² + 3 * 5²) / 25 = 12
    assert result["chi2"] == pytest.approx(12.0)
    assert result["dof"] == 3
    assert result["p_value"] == pytest.approx(stats.chi2.sf(12.0, 3))
    assert result["cohens_w"] == pytest.approx(math.sqrt(12.0 / 100))
    fair = mc.seat_advantage_test([25, 25, 25, 25])
    assert fair["chi2"] == 0 and fair["p_value"] == pytest.approx(1.0) and fair["cohens_w"] == 0
    assert mc.effect_size_words(0.05) == "negligible" and mc.effect_size_words(0.35) == "medium"


def test_balance_index_is_one_minus_the_largest_gap():
    assert mc.balance_index([0.4, 0.2, 0.25, 0.15]) == pytest.approx(0.75)
    assert mc.balance_index([1 / 3] * 3) == pytest.approx(1.0)


def test_win_rates_split_shared_wins():
    seats = seat_rows([([10, 10, 5], [1, 1, 0], []), ([3, 9, 4], [0, 1, 0], [])])
    rates = mc.win_rates(seats, ["position"]).set_index("position")
    assert list(rates["wins"]) == [0.5, 1.5, 0.0]
    assert list(rates["games"]) == [2, 2, 2]
    assert rates.loc[1, "win_rate"] == pytest.approx(0.75)
    table = mc.seat_advantage(seats)
    assert table.loc[0, "games"] == 2
    assert table.loc[0, "rotation_balanced"]
    assert table.loc[0, "balance"] == pytest.approx(1 - 0.75)


def test_rotation_balance_detects_bots_fixed_to_seats():
    rotated = pd.DataFrame({"seat": [0, 1, 0, 1], "bot": ["a", "b", "b", "a"], "games": [5, 5, 5, 5]})
    fixed = pd.DataFrame({"seat": [0, 1], "bot": ["a", "b"], "games": [10, 10]})
    assert mc.rotation_balanced(rotated)
    assert not mc.rotation_balanced(fixed)


def test_drama_counts_games_where_no_round_leader_wins():
    seats = seat_rows([
        ([30, 20, 10], [1, 0, 0], [[10, 5, 5], [20, 25, 5]]),   # r1 leader wins, r2 leader loses
        ([10, 20, 30], [0, 0, 1], [[5, 5, 5], [5, 10, 20]]),    # r1 three-way tie incl. winner
        ([10, 20, 30], [0, 0, 1], [[9, 5, 5], [5, 30, 20]]),    # both leaders lose
    ])
    frame = mc.drama(seats, ["score_after_round_1", "score_after_round_2"]).set_index("round")
    assert frame.loc[1, "games"] == 3
    assert frame.loc[1, "upsets"] == 1
    assert frame.loc[2, "upsets"] == 2
    assert frame.loc[2, "upset_rate"] == pytest.approx(2 / 3)


def test_matchup_matrix_counts_games_against_each_opponent():
    table = pd.DataFrame({
        "n_players": [2, 2, 2, 2], "matchup": ["a vs b", "a vs b", "a vs a", "a vs a"],
        "seating": ["a,b", "a,b", "a,a", "a,a"], "seat": [0, 1, 0, 1],
        "bot": ["a", "b", "a", "a"], "games": [10, 10, 4, 4], "wins": [7.0, 3.0, 2.0, 2.0]})
    matrix = mc.matchup_matrix(table).set_index(["bot", "opponent"])
    assert matrix.loc[("a", "b"), "win_rate"] == pytest.approx(0.7)
    assert matrix.loc[("b", "a"), "win_rate"] == pytest.approx(0.3)
    assert matrix.loc[("a", "a"), "games"] == 8 and matrix.loc[("a", "a"), "win_rate"] == pytest.approx(0.5)


def test_value_counts_and_game_indicators():
    games = pl.DataFrame({"game_index": [0, 1, 2, 3], "n_players": [4, 4, 4, 3],
                          "tiebreak_decided": [True, False, False, False],
                          "shared_win": [False, False, True, False], "winning_score": [50, 60, 50, 40],
                          "margin": [0, 5, 0, 2], "length": [40, 42, 44, 30]}).lazy()
    indicators = mc.game_indicators(games).set_index("n_players")
    assert indicators.loc[4, "tiebreak_rate"] == pytest.approx(1 / 3)
    assert indicators.loc[4, "shared_rate"] == pytest.approx(1 / 3)
    assert indicators.loc[3, "tiebreak_rate"] == 0
    counts = mc.value_counts(games, "winning_score", ["n_players"])
    four = counts[counts.n_players == 4].set_index("winning_score")
    assert four.loc[50, "count"] == 2 and four.loc[50, "share"] == pytest.approx(2 / 3)


def test_score_summary_from_the_histogram_matches_numpy():
    scores = [10, 12, 12, 15, 20, 20, 20, 31]
    seats = pl.DataFrame({"n_players": [4] * 8, "score": scores}).lazy()
    summary = mc.score_summary(seats, ["n_players"]).iloc[0]
    assert summary["seat_games"] == 8
    assert summary["mean"] == pytest.approx(np.mean(scores))
    assert summary["std"] == pytest.approx(np.std(scores, ddof=1))
    assert summary["median"] == np.quantile(scores, 0.5, method="inverted_cdf")
    assert summary["q25"] == np.quantile(scores, 0.25, method="inverted_cdf")
    assert summary["q75"] == np.quantile(scores, 0.75, method="inverted_cdf")


def test_batched_drama_equals_one_batch():
    games = [([30, 20, 10], [1, 0, 0], [[10, 5, 5]]), ([10, 20, 30], [0, 0, 1], [[5, 9, 5]]),
             ([10, 20, 30], [0, 1, 1], [[9, 5, 5]])]
    seats = seat_rows(games)
    whole = mc.drama(seats, ["score_after_round_1"])
    parts = mc.sum_batches(seats, lambda batch, _: batch.group_by("n_players").agg(pl.len().alias("rows")),
                           ["n_players"], batch_games=1)
    assert parts["rows"].tolist() == [9]
    assert whole.loc[0, "upsets"] == 2 and whole.loc[0, "games"] == 3
    pd.testing.assert_frame_equal(mc.drama(seats, ["score_after_round_1"], batch_games=1), whole,
                                  check_dtype=False)


def test_pairwise_results_count_who_finished_ahead():
    seats = pl.DataFrame({
        "game_index": [0, 0, 0, 1, 1, 1],
        "seat": [0, 1, 2, 0, 1, 2],
        "bot": ["a", "b", "b", "b", "a", "b"],
        "score": [10, 8, 10, 5, 5, 7],
        "win": [1, 0, 0, 0, 0, 1],   # game 0: a wins the tie on 10 against the second b
    }).lazy()
    pairs = mc.pairwise_results(seats, batch_games=1).set_index(["bot_a", "bot_b"])
    # game 0: a beats b(8), a ahead of b(10) on the tie-break; game 1: a ties b(5), loses to b(7)
    assert pairs.loc[("a", "b"), "wins_a"] == pytest.approx(2.5)
    assert pairs.loc[("a", "b"), "wins_b"] == pytest.approx(1.5)
