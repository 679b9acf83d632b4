"""Fair-comparison statistics (reports/analysis/stats.py, reports/analysis/summary.py) against hand calculations."""
import math

import numpy as np
import pandas as pd
import polars as pl
import pytest
import yaml

from reports.analysis import stats
from reports.analysis.summary import summarise
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError

Z95 = 1.959963984540054


def test_wilson_interval_matches_the_textbook_formula_for_8_of_10():
    # centre (p + z²/2n) / (1 + z²/n), half-width z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)
    p, n, z = 0.8, 10, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = stats.wilson_interval(8, 10)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert (round(float(low), 4), round(float(high), 4)) == (0.4902, 0.9433)


def test_wilson_interval_of_no_trials_is_undefined():
    low, high = stats.wilson_interval(np.array([0.0]), np.array([0.0]))
    assert np.isnan(low[0]) and np.isnan(high[0])


def test_mean_interval_is_mean_plus_minus_z_standard_errors():
    low, high = stats.mean_interval(1.0, 2.0, 100)
    assert low == pytest.approx(1 - Z95 * 0.2) and high == pytest.approx(1 + Z95 * 0.2)


def test_games_needed_is_the_one_sample_normal_power_formula():
    # Cohen's h = 2 asin(sqrt(0.30)) - 2 asin(sqrt(0.25)); n = ((z_0.975 + z_0.8) / h)²
    h = 2 * math.asin(math.sqrt(0.30)) - 2 * math.asin(math.sqrt(0.25))
    expected = ((Z95 + 0.8416212335729143) / h) ** 2
    assert stats.games_needed(0.30, 0.25) == pytest.approx(expected, rel=1e-3)
    assert math.isinf(stats.games_needed(0.25, 0.25))


def test_bradley_terry_of_75_wins_in_100_is_ln3_logits_apart():
    pairs = pd.DataFrame({"bot_a": ["strong"], "bot_b": ["weak"], "wins_a": [75.0], "wins_b": [25.0]})
    ratings = stats.bradley_terry(pairs).set_index("bot")
    gap = stats.ELO_PER_LOGIT * math.log(3)                     # ≈ 190.8 Elo
    assert ratings.loc["strong", "rating"] == pytest.approx(1500 + gap / 2)
    assert ratings.loc["weak", "rating"] == pytest.approx(1500 - gap / 2)
    # standard error of the log-odds of 75/100 is 1/sqrt(n p (1-p)); each bot carries half of it
    half_width = Z95 * stats.ELO_PER_LOGIT / math.sqrt(100 * 0.75 * 0.25) / 2
    assert ratings.loc["strong", "high"] - ratings.loc["strong", "rating"] == pytest.approx(half_width, rel=1e-6)
    assert ratings.loc["strong", "comparisons"] == 100


def write_run(run_dir, seats_rows, games_rows, complete=True):
    run_dir.mkdir()
    pl.DataFrame(seats_rows).write_parquet(run_dir / "seats.parquet")
    pl.DataFrame(games_rows).write_parquet(run_dir / "games.parquet")
    # a run.yaml as courtsim writes one (format marker and content hash): summary reads no other
    manifest = manifests.new_manifest({"game": "louis-xiv", "n_games": len(games_rows["game_index"])})
    manifest["status"] = "complete" if complete else "incomplete"
    (run_dir / "run.yaml").write_text(yaml.safe_dump(manifest))


def test_summary_of_a_hand_made_run(tmp_path):
    # 4 two-player games: A beats B twice, B beats A once, one shared win (scores 5:5)
    seats = {"game_index": [0, 0, 1, 1, 2, 2, 3, 3], "seat": [0, 1] * 4,
             "bot": ["A", "B", "B", "A", "A", "B", "B", "A"],
             "score": [10, 4, 6, 8, 3, 9, 5, 5], "is_winner": [1, 0, 0, 1, 0, 1, 1, 1]}
    games = {"game_index": [0, 1, 2, 3], "n_players": [2] * 4}
    write_run(tmp_path / "run", seats, games)
    summary = summarise(tmp_path / "run")
    by_bot = summary.by_bot.set_index("bot")
    assert by_bot.loc["A", "games"] == 4 and by_bot.loc["A", "wins"] == pytest.approx(2.5)
    assert by_bot.loc["A", "win_rate"] == pytest.approx(0.625)
    assert by_bot.loc["A", "fair_share"] == 0.5
    # A's score minus B's: +6, +2, -6, 0 -> mean 0.5
    assert by_bot.loc["A", "score_difference"] == pytest.approx(0.5)
    low, high = stats.wilson_interval(2.5, 4)
    assert by_bot.loc["A", "win_low"] == pytest.approx(float(low))
    by_seat = summary.by_seat.set_index("position")      # no start_position column: seat 0 starts
    assert by_seat.loc[0, "wins"] == pytest.approx(1 + 0 + 0 + 0.5)
    ratings = summary.ratings.set_index("bot")
    assert ratings.loc["A", "comparisons"] == 4 and ratings.loc["A", "rating"] > ratings.loc["B", "rating"]


def test_summary_refuses_a_missing_or_incomplete_run(tmp_path):
    with pytest.raises(ConfigError, match="no such run directory"):
        summarise(tmp_path / "nothing")
    write_run(tmp_path / "half", {"game_index": [0], "seat": [0], "bot": ["A"], "score": [1], "is_winner": [1]},
              {"game_index": [0], "n_players": [2]}, complete=False)
    with pytest.raises(ConfigError, match="incomplete"):
        summarise(tmp_path / "half")
