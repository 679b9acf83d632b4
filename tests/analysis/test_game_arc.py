"""The game arc (reports.analysis.game_arc): the win-probability model on synthetic games whose
true probability is known; decided-at, comebacks, lead changes, drama and out of contention on
hand-made probability curves whose values are known; and the per-game values of a run with a
standings table (a copy of a small real run given a synthetic one, tests/standings_tables.py),
read in slices."""
import math

import numpy as np
import polars as pl
import pytest

from reports.analysis import game_arc as ga
from reports.analysis.rundir import load_run
from reports.pages.run_report import build_report
from sim.core.engine import ConfigError
from standings_tables import synthetic_standings, with_standings

from .test_flat_memory import checked_collect  # noqa: F401  (the fixture)


# ----------------------------------------------------------------------------- synthetic games

SCORE_GAPS = np.arange(-10, 11)


def logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


def known_logistic_games(rng, games: int, turns: int, steepness: float = 0.6, held_weight: float = 0.8):
    """2-player games whose true P(seat 0 wins | position) = logistic(steepness * share * gap +
    held_weight * held): the winner is drawn first (even odds); then, independently at each
    position, seat 0's score gap to seat 1 is drawn with P(gap | winner) proportional to
    exp(+-steepness * share * gap / 2) over -10..10 and what seat 0 holds that will score with
    N(+-held_weight / 2, 1). By Bayes the odds of seat 0 given the position are
    exp(steepness * share * gap + held_weight * held): exactly the model's form (the score gap
    times the share played, and the value gap minus the score gap). Each game ends with a
    final standing. Returns the positions and the true probabilities (P, 2)."""
    per_game = turns + 1
    share = np.tile(np.append(np.arange(1, turns + 1) / turns, 1.0), games)
    final = np.tile(np.append(np.zeros(turns, bool), True), games)
    seat_zero_wins = np.repeat(rng.random(games) < 0.5, per_game)
    direction = np.where(seat_zero_wins, 1.0, -1.0)
    weights = np.exp(direction[:, None] * steepness * share[:, None] * SCORE_GAPS[None, :] / 2)
    cumulative = np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1)
    gap = SCORE_GAPS[np.minimum((cumulative < rng.random(len(share))[:, None]).sum(axis=1), len(SCORE_GAPS) - 1)]
    held = rng.normal(direction * held_weight / 2, 1.0)
    gap, held = np.where(final, 3 * direction, gap), np.where(final, 0.0, held)
    score = np.column_stack([50.0 + gap, np.full(len(gap), 50.0)])
    value = score + np.column_stack([held, np.zeros(len(held))])
    truth = logistic(steepness * share * gap + held_weight * held)
    positions = ga.Positions(2, np.repeat(np.arange(games), per_game), np.rint(share * turns).astype(np.int32),
                             share, final, score, value, np.column_stack([seat_zero_wins, ~seat_zero_wins]))
    return positions, np.column_stack([truth, 1.0 - truth])


def test_the_model_fitted_on_games_of_known_win_probability_is_calibrated():
    """Over 12 seeded repetitions: on held-out games the fitted model's Brier score is within
    0.005 of the true probabilities' (and far below the base rate's), its coefficients are
    near the truth, and the observed win rate lies within the bootstrap interval in at least
    85% of the reliability deciles (95% intervals: about 95% expected)."""
    within, deciles, coefficients = 0, 0, []
    for seed in range(12):
        positions, truth = known_logistic_games(np.random.default_rng(seed), games=400, turns=15)
        held_out = ga.sample_point(positions.game_index) < ga.HELD_OUT_SHARE
        model = ga.fit_model(positions.select(~held_out))
        calibration = ga.calibrate(model, positions.select(held_out))
        playing = held_out & ~positions.final
        true_brier = ((truth[playing] - positions.credit[playing]) ** 2).mean()
        assert calibration.brier == pytest.approx(true_brier, abs=0.005)
        assert calibration.brier_low <= calibration.brier <= calibration.brier_high
        assert calibration.base_rate_brier == pytest.approx(0.25)
        assert calibration.skill > 0.3
        within += calibration.bins_within
        deciles += len(calibration.reliability)
        coefficients.append(model.coefficients)
    assert within / deciles >= 0.85
    mean = dict(zip(ga.FEATURES, np.mean(coefficients, axis=0)))
    assert mean["score_gap_x_share"] == pytest.approx(0.6, abs=0.05)
    assert mean["value_gap"] == pytest.approx(0.8, abs=0.05)
    assert mean["score_gap"] == pytest.approx(-0.8, abs=0.05)


def test_the_probabilities_of_a_position_sum_to_one():
    positions, _ = known_logistic_games(np.random.default_rng(7), games=50, turns=10)
    model = ga.fit_model(positions)
    three = ga.Positions(3, np.zeros(4, np.int64), np.arange(1, 5, dtype=np.int32), np.arange(1, 5) / 4,
                         np.array([False, False, False, True]), np.array([[3, 1, 0], [5, 5, 2], [9, 4, 4], [12, 5, 4.]]),
                         np.array([[4, 1, 0], [6, 5, 2], [9, 6, 4], [12, 5, 4.]]), np.array([[True, False, False]] * 4))
    three_model = ga.WinProbabilityModel(3, model.coefficients, 0, 0)
    assert three_model.probabilities(three).sum(axis=1) == pytest.approx(np.ones(4))
    assert model.probabilities(positions).sum(axis=1) == pytest.approx(np.ones(len(positions.turn)))


def test_features_are_gaps_to_the_best_other_seat():
    positions = ga.Positions(3, np.zeros(1, np.int64), np.array([5], np.int32), np.array([0.5]), np.array([False]),
                             np.array([[10.0, 7.0, 10.0]]), np.array([[12.0, 7.0, 9.0]]), np.array([[True, False, False]]))
    design = ga.features(positions)
    assert design[:, ga.FEATURES.index("score_gap")].tolist() == [0.0, -3.0, 0.0]
    assert design[:, ga.FEATURES.index("value_gap")].tolist() == [3.0, -5.0, -3.0]
    assert design[:, ga.FEATURES.index("score_gap_x_share")].tolist() == [0.0, -1.5, 0.0]


def test_the_sample_is_spread_over_any_period_of_the_game_order():
    """Player counts taking turns (period 3) each keep about the sample's share, and the held-out
    fifth of the sample is about a fifth of each."""
    points = ga.sample_point(np.arange(30000))
    for offset in range(3):
        mine = points[offset::3]
        assert (mine < 0.1).mean() == pytest.approx(0.1, abs=0.005)
        assert (mine < 0.02).mean() == pytest.approx(0.02, abs=0.002)


# ----------------------------------------------------------------------------- hand-made curves

def curve_game(winner_curve, winners=(0,), n_players=2, game_index=0, others=None):
    """A game of len(winner_curve) positions before its final standing (turns 1 .. T, final
    standing at turn T): seat 0's probability is ``winner_curve`` (when it won) and the other
    seats share the rest, or ``others`` (P, n - 1) gives them."""
    curve = np.asarray(winner_curve, dtype=float)
    turns = len(curve)
    if others is None:
        others = np.repeat(((1 - curve) / (n_players - 1))[:, None], n_players - 1, axis=1)
    probabilities = np.column_stack([curve, others])
    probabilities = np.vstack([probabilities, probabilities[-1]])          # the final standing (not used)
    turn = np.append(np.arange(1, turns + 1), turns).astype(np.int32)
    winner = np.zeros((turns + 1, n_players), bool)
    winner[:, list(winners)] = True
    zeros = np.zeros((turns + 1, n_players))
    positions = ga.Positions(n_players, np.full(turns + 1, game_index, np.int64), turn, turn / turns,
                             np.append(np.zeros(turns, bool), True), zeros, zeros, winner)
    return ga.arc_of(positions, probabilities)


def only_game(arc):
    return arc.games.row(0, named=True)


def test_a_comeback_is_measured_against_the_fair_share_of_the_player_count():
    """At 5 players the fair share is 20%: a winner who starts level and dips to 15% has not come
    back from anything; one who fell to 7% (below 40% of the fair share, as 20% is at 2 players) has."""
    assert ga.comeback_threshold(2) == pytest.approx(ga.COMEBACK)
    assert not only_game(curve_game([0.2, 0.15, 0.3, 0.6, 0.95], n_players=5))["comeback"]
    assert only_game(curve_game([0.2, 0.07, 0.3, 0.6, 0.95], n_players=5))["comeback"]


def test_a_game_decided_at_the_start():
    """The winner is above 90% from the first turn on: decided at the first turn's share (1 of
    10 turns), no comeback, no lead change, no drama; the loser is out of contention from turn 1."""
    arc = curve_game([0.96] * 10)
    game = only_game(arc)
    assert game["decided_at"] == pytest.approx(0.1)
    assert game["decided_turn"] == 1
    assert not game["comeback"]
    assert game["lead_changes"] == 0 and game["lead_change_rate"] == 0.0
    assert game["drama"] == 0.0
    loser = arc.seats.filter(arc.seats["seat"] == 1).row(0, named=True)
    assert loser["out_of_contention_turn"] == 1 and loser["out_of_contention_share"] == pytest.approx(0.1)


def test_a_comeback():
    """The winner falls to 15%, then climbs above 90% at turn 6 and stays there: a comeback
    decided at 6 of 8 turns. The lead: shared at turn 1 (50-50), the other seat's at turns
    2-4, the winner's from turn 5: two lead changes over 7 transitions. Drama (Ludii): the
    leader's probability minus the winner's, averaged over the 8 positions: (0 + 0.4 + 0.7 +
    0.2) / 8."""
    game = only_game(curve_game([0.5, 0.3, 0.15, 0.4, 0.7, 0.95, 0.92, 0.97]))
    assert game["comeback"]
    assert game["lowest_winner_probability"] == pytest.approx(0.15)
    assert game["decided_at"] == pytest.approx(6 / 8) and game["decided_turn"] == 6
    assert game["lead_changes"] == 2
    assert game["lead_change_rate"] == pytest.approx(2 / 7)
    assert game["drama"] == pytest.approx(1.3 / 8)


def test_a_two_player_game_swapping_leaders_three_times():
    """The lead goes winner, other (turn 3), winner (turn 5), other (turn 7): three lead changes;
    the winner is never below 20% (no comeback) and never above 90% before the end, so the game
    is decided only by its end (decided_at 1.0, no decided turn); nobody falls out of contention."""
    arc = curve_game([0.6, 0.7, 0.4, 0.3, 0.55, 0.8, 0.35, 0.2 + 1e-9])
    game = only_game(arc)
    assert game["lead_changes"] == 3
    assert game["lead_change_rate"] == pytest.approx(3 / 7)
    assert not game["comeback"]
    assert game["decided_at"] == 1.0 and game["decided_turn"] is None
    assert arc.seats["out_of_contention_turn"].null_count() == 2


def test_a_winner_who_looked_decided_and_fell_back_is_decided_later():
    """Above 90% at turns 2-3, back to 85% at turn 4, above from turn 5: decided at turn 5."""
    game = only_game(curve_game([0.5, 0.95, 0.93, 0.85, 0.91, 0.99]))
    assert game["decided_turn"] == 5 and game["decided_at"] == pytest.approx(5 / 6)


def test_out_of_contention_is_the_first_turn_from_which_a_seat_stays_below_five_percent():
    """3 players: seat 2 dips below 5% at turn 2, recovers at turn 3, and stays below from turn 4:
    out at turn 4; seat 1 stays in contention; seat 0 wins."""
    seat_two = np.array([0.3, 0.04, 0.1, 0.03, 0.02, 0.01])
    seat_one = np.array([0.3, 0.36, 0.3, 0.27, 0.18, 0.09])
    arc = curve_game(1 - seat_one - seat_two, n_players=3, others=np.column_stack([seat_one, seat_two]))
    out = dict(zip(arc.seats["seat"].to_list(), arc.seats["out_of_contention_turn"].to_list()))
    assert out == {0: None, 1: None, 2: 4}
    assert arc.seats.filter(arc.seats["seat"] == 2)["out_of_contention_share"].item() == pytest.approx(4 / 6)


def test_a_shared_win_follows_the_winners_combined_probability():
    """Seats 0 and 1 share the win: the game is decided when their combined probability stays
    above 90% (turn 3); drama averages their distances below the leader (Ludii)."""
    seat_zero = np.array([0.3, 0.5, 0.45, 0.5])
    seat_one = np.array([0.3, 0.3, 0.5, 0.45])
    arc = curve_game(seat_zero, winners=(0, 1), n_players=3,
                     others=np.column_stack([seat_one, 1 - seat_zero - seat_one]))
    game = only_game(arc)
    assert game["decided_turn"] == 3
    behind = [((0.4 - 0.3) + (0.4 - 0.3)) / 2, (0 + 0.2) / 2, (0.05 + 0) / 2, (0 + 0.05) / 2]
    assert game["drama"] == pytest.approx(np.mean(behind))
    assert game["lead_changes"] == 3      # seat 2, seat 0, seat 1, seat 0


def test_many_games_give_one_row_each_in_game_order():
    arcs = [curve_game([0.5, 0.95], game_index=index) for index in (4, 2, 9)]
    positions = ga.concatenate([ga.Positions(2, np.array([index] * 3), np.array([1, 2, 2], np.int32),
                                             np.array([0.5, 1, 1]), np.array([False, False, True]),
                                             np.zeros((3, 2)), np.zeros((3, 2)), np.array([[True, False]] * 3))
                                for index in (4, 2, 9)])
    probabilities = np.tile([[0.5, 0.5], [0.95, 0.05], [0.95, 0.05]], (3, 1))
    arc = ga.arc_of(positions, probabilities)
    assert arc.games["game_index"].to_list() == [2, 4, 9]
    assert arc.games["decided_at"].to_list() == [only_game(a)["decided_at"] for a in arcs]


# ----------------------------------------------------------------------------- summaries

def test_histogram_quantiles_match_the_sample_and_its_median_interval():
    """On a sample of 0.001-steps the histogram's median and quartiles are the sample's
    (lower convention), and the median's interval holds the true median in about 95% of 200
    seeded samples."""
    covered = 0
    for seed in range(200):
        sample = np.round(np.random.default_rng(seed).uniform(0, 1, 301), 3)
        values, counts = np.unique(sample, return_counts=True)
        quantiles = ga.histogram_quantiles(values, counts)
        assert quantiles["median"] == np.sort(sample)[150]
        assert quantiles["q25"] == np.quantile(sample, 0.25, method="inverted_cdf")
        covered += quantiles["median_low"] <= 0.5 <= quantiles["median_high"]
    assert 0.9 <= covered / 200 <= 0.99


def test_the_plain_sentence():
    row = type("Row", (), dict(n_players=4, decided_at_median=0.62, decided_at_median_low=0.6,
                               decided_at_median_high=0.64, comeback_rate=0.08, comeback_rate_low=0.075,
                               comeback_rate_high=0.085))
    assert ga.plain_sentence(row) == ("Half of 4-player games are decided by 62% of the game (95% CI 60–64%); "
                                      "8.0% are comebacks (95% CI 7.5–8.5%).")


def test_the_plain_sentence_of_games_open_until_the_end():
    row = type("Row", (), dict(n_players=4, decided_at_median=1.0, decided_at_median_low=1.0,
                               decided_at_median_high=1.0, decided_at_q25=0.81, comeback_rate=0.51,
                               comeback_rate_low=0.5, comeback_rate_high=0.52))
    assert ga.plain_sentence(row) == ("Half of 4-player games are open until the end: the winner's win probability "
                                      "reaches 90% for good only at the final standing (a quarter are decided by "
                                      "81% of the game); 51% are comebacks (95% CI 50–52%).")


def test_mean_with_interval_from_sums():
    values = np.random.default_rng(3).normal(2.0, 1.0, 500)
    mean, low, high = ga.mean_with_interval(values.sum(), (values ** 2).sum(), len(values))
    assert mean == pytest.approx(values.mean())
    assert (high - low) / 2 == pytest.approx(1.96 * values.std(ddof=1) / math.sqrt(500), rel=1e-3)


# ----------------------------------------------------------------------------- a run's standings

@pytest.fixture(scope="module")
def standings_run(louis_run, tmp_path_factory):
    return with_standings(louis_run, tmp_path_factory.mktemp("arc") / "louis_with_standings")


def test_per_game_values_are_keyed_by_game_index_and_the_same_in_small_slices(standings_run, monkeypatch):
    run = load_run(standings_run)
    whole = ga.per_game(run)
    assert whole["game_index"].to_list() == list(range(500))
    assert set(whole.columns) >= {"decided_at", "comeback", "lead_changes", "lead_change_rate", "drama"}
    assert whole["decided_at"].is_between(0, 1).all() and whole["decided_at"].null_count() == 0
    monkeypatch.setattr(ga, "STANDINGS_ROWS_PER_SLICE", 750)          # about 26 games a slice
    assert len(ga.slices(run)) > 10
    sliced = ga.per_game(run)
    assert sliced.equals(whole)
    part = ga.per_game(run, first=100, last=149)
    assert part.equals(whole.filter(pl.col("game_index").is_between(100, 149)))
    seats = ga.seats_out_of_contention(run, first=0, last=9)
    assert seats.height == 40 and seats["is_winner"].sum() >= 10


def test_positions_follow_the_table_order_not_the_turn_alone(standings_run):
    """A round's end-phase rows carry the turn they follow: they are a position of their own,
    after it (4 round ends + 24 turns + the final standing = 29 positions, 28 before it)."""
    run = load_run(standings_run)
    (positions,) = ga.read_positions(run, 0, 0)
    assert len(positions.turn) == 29 and positions.final.sum() == 1
    assert positions.turn[:8].tolist() == [1, 2, 3, 4, 5, 6, 6, 7]


def test_a_standings_table_without_a_needed_column_is_one_line(louis_run, tmp_path):
    standings = synthetic_standings(louis_run).drop(pl.selectors.starts_with("position_value_seat_"))
    broken = with_standings(louis_run, tmp_path / "broken", standings)
    with pytest.raises(ConfigError, match="standings.parquet: expected columns .*missing position_value_seat_0") as error:
        build_report(broken, tmp_path / "r.html", progress=False)
    assert "\n" not in str(error.value)


def test_a_position_missing_a_seat_is_one_line(louis_run, tmp_path):
    standings = synthetic_standings(louis_run)
    gap = (pl.col("game_index") == 3) & (pl.col("turn") == 2)
    standings = standings.with_columns(pl.when(gap).then(None).otherwise(pl.col("score_seat_1")).alias("score_seat_1"))
    broken = with_standings(louis_run, tmp_path / "gap", standings)
    with pytest.raises(ConfigError, match="game 3: expected a score_seat_1 at every position"):
        ga.fit_models(load_run(broken))


def test_the_arc_reads_the_standings_in_slices_of_games(standings_run, monkeypatch, checked_collect):
    """Every group-by or join over a run table is restricted to a slice of game indices (flat
    memory), in the model's fit and in the per-game pass."""
    monkeypatch.setattr(ga, "STANDINGS_ROWS_PER_SLICE", 5000)
    ga.per_game(load_run(standings_run))
    assert any("standings" in plan or "PYTHON SCAN" in plan for plan in checked_collect)


def test_a_comparison_reads_the_game_arc_per_game_from_arms_that_record_standings(standings_run, louis_run):
    """decided-at, comeback rate, turn-level lead changes and drama are paired metrics: one
    component per game, the same values as the arc's own, present only where standings are."""
    from reports.analysis import paired_metrics

    bots = ["greedy", "random"]
    table, metrics = paired_metrics.per_game([standings_run], 4, bots)
    names = {metric.name for metric in metrics}
    assert {"decided_at", "comeback_rate", "turn_lead_changes", "turn_drama"} <= names
    arc = ga.per_game(load_run(standings_run))
    assert table["decided_at"].to_list() == arc["decided_at"].to_list()
    assert table["comeback"].to_list() == arc["comeback"].cast(pl.Float64).to_list()
    without, metrics_without = paired_metrics.per_game([louis_run], 4, bots)
    assert "decided_at" not in {metric.name for metric in metrics_without} and "decided_at" not in without.columns
    assert "decided_at" in {metric.name for metric in paired_metrics.declared_metrics("louis-xiv", [4], bots)}
