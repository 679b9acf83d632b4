"""The statistics of a paired rule-variant comparison, on synthetic data with a known truth
(issue 37: games that could not vary, rare changes and running sums, on seeded repetitions).

The synthetic games are CRN-like: each paired game has a shared latent draw; with probability
``coupling`` the rule change does not touch the game and both arms read their win from the same
latent, otherwise the variant's win comes from a fresh draw. So the paired differences are
mostly zero, as under common random numbers, and the truth is known in closed form."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats
from statsmodels.stats.multitest import multipletests

from reports.analysis import comparison_stats as cs

ALPHA = BETA = 0.05
MARGIN = 0.02
BASELINE_WIN_RATE = 0.25    # one seat of four
BATCH = 500
REPETITIONS = 2000


# --- synthetic CRN-like paired win indicators ------------------------------------------------

def paired_wins(rng, shape, baseline_rate, variant_rate, coupling):
    """(baseline, variant) win indicators of ``shape`` with a shared latent per paired game."""
    latent = rng.random(shape)
    untouched = rng.random(shape) < coupling
    variant_draw = np.where(untouched, latent, rng.random(shape))
    return (latent < baseline_rate).astype(np.float64), (variant_draw < variant_rate).astype(np.float64)


def difference_cells(baseline_rate, variant_rate, coupling):
    """P(d = +1), P(d = -1) of the paired win difference of :func:`paired_wins`."""
    plus = coupling * max(variant_rate - baseline_rate, 0.0) + (1 - coupling) * variant_rate * (1 - baseline_rate)
    minus = coupling * max(baseline_rate - variant_rate, 0.0) + (1 - coupling) * baseline_rate * (1 - variant_rate)
    return plus, minus


def cumulative_statistics(rng, delta, coupling, batch, batches, repetitions):
    """Sufficient statistics (n, mean_d, var_d), shape (batches, repetitions), of streams of
    paired win indicators after every batch. The counts of d = +1 and d = -1 per batch are the
    sufficient statistic of the indicators, so they are drawn directly (multinomial): the same
    distribution as :func:`paired_wins`, vectorised over every repetition at once."""
    plus, minus = difference_cells(BASELINE_WIN_RATE, BASELINE_WIN_RATE + delta, coupling)
    counts = rng.multinomial(batch, [plus, minus, 1 - plus - minus], size=(batches, repetitions)).cumsum(axis=0)
    n = batch * np.arange(1, batches + 1, dtype=np.float64)[:, np.newaxis]
    mean_d = (counts[..., 0] - counts[..., 1]) / n
    var_d = (counts[..., 0] + counts[..., 1] - n * mean_d ** 2) / (n - 1)
    return n, mean_d, var_d


def first_decisions(decisions):
    """The decision each repetition stops at (the first that is not "continue"), and after how
    many batches (0 where it never stopped)."""
    stopped = decisions != cs.CONTINUE
    first = stopped.argmax(axis=0)
    ever = stopped.any(axis=0)
    final = np.where(ever, decisions[first, np.arange(decisions.shape[1])], cs.CONTINUE)
    return final, np.where(ever, first + 1, 0)


def repeated_t_test_decisions(n, mean_d, var_d):
    """THE FORBIDDEN PROCEDURE: a fixed-n paired t-test after every batch, "real" at p < 0.05."""
    p_value = 2 * stats.t.sf(np.abs(mean_d) / np.sqrt(var_d / n), n - 1)
    return np.where(p_value < ALPHA, cs.REAL, cs.CONTINUE)


def rate(final, decision):
    return float(np.mean(final == decision))


# --- metrics and the delta method ---------------------------------------------------------

def test_balance_is_one_minus_the_largest_gap_between_seats():
    assert cs.balance(np.array([0.3, 0.2, 0.25, 0.25])) == pytest.approx(0.9)
    assert cs.balance(np.array([0.25] * 4)) == 1.0


def test_ratio_is_nan_when_the_denominator_is_zero():
    assert cs.RATIO(np.array([3.0, 4.0])) == 0.75
    assert math.isnan(cs.RATIO(np.array([0.0, 0.0])))
    assert cs.MEAN(np.array([0.4, 7.0])) == 0.4


def test_linearised_values_average_to_the_metric():
    rng = np.random.default_rng(1)
    wins = rng.random((300, 4)) < 0.25
    value, influence = cs.linearised(wins, cs.balance)
    assert value == pytest.approx(cs.balance(wins.mean(axis=0)))
    assert influence.mean() == pytest.approx(value, abs=1e-12)


def test_ratio_delta_method_standard_error_equals_the_textbook_formula():
    """Assassinations: (successes, attempts) per game. Var(a/b) ~ (S_aa/b^2 - 2 a S_ab/b^3 +
    a^2 S_bb/b^4) / n, with S the sample (co)variances."""
    successes = np.array([1, 0, 2, 1, 0, 1, 3, 0, 1, 2], dtype=np.float64)
    attempts = np.array([2, 1, 2, 1, 1, 3, 3, 0, 2, 2], dtype=np.float64)
    values = np.column_stack([successes, attempts])
    value, influence = cs.linearised(values, cs.RATIO)
    a, b = successes.mean(), attempts.mean()
    covariance = np.cov(successes, attempts, ddof=1)
    textbook = (covariance[0, 0] / b ** 2 - 2 * a * covariance[0, 1] / b ** 3 + a ** 2 * covariance[1, 1] / b ** 4) / 10
    assert value == pytest.approx(a / b)
    assert influence.var(ddof=1) / 10 == pytest.approx(textbook)


def test_central_difference_gradient_agrees_with_the_analytic_ratio():
    rng = np.random.default_rng(2)
    values = np.column_stack([rng.integers(0, 3, 200), rng.integers(1, 4, 200)]).astype(np.float64)
    _, analytic = cs.linearised(values, cs.RATIO)
    _, numeric = cs.linearised(values, lambda means: means[0] / means[1])
    np.testing.assert_allclose(numeric, analytic, rtol=0, atol=1e-8)


def test_a_metric_that_is_nan_at_the_mean_linearises_to_nan():
    value, influence = cs.linearised(np.zeros((5, 2)), cs.RATIO)
    assert math.isnan(value) and np.isnan(influence).all()


# --- one metric's paired comparison ---------------------------------------------------------

BASELINE = np.array([0.2, 0.5, 0.1, 0.9, 0.4])
VARIANT = np.array([0.3, 0.7, 0.1, 1.0, 0.8])


def test_paired_mean_is_the_textbook_paired_t_interval():
    """d = (0.1, 0.2, 0, 0.1, 0.4): mean 0.16, sample variance 0.023, SE sqrt(0.023 / 5),
    t(0.975, 4) = 2.776445: the interval 0.16 -+ 0.1883077 (the t interval, asked for although
    only 4 games differ; by default so few are the rare case, tested further below)."""
    result = cs.paired(BASELINE, VARIANT, cs.MEAN, minimum_discordant=0)
    assert result.difference == pytest.approx(0.16)
    assert result.var_d == pytest.approx(0.023)
    assert result.standard_error == pytest.approx(math.sqrt(0.023 / 5))
    assert result.low == pytest.approx(0.16 - 0.1883077, abs=1e-6)
    assert result.high == pytest.approx(0.16 + 0.1883077, abs=1e-6)
    assert (result.games, result.n, result.mean_d) == (5, 5, pytest.approx(0.16))
    assert result.p_value == pytest.approx(stats.ttest_rel(VARIANT, BASELINE).pvalue)
    interval = stats.ttest_rel(VARIANT, BASELINE).confidence_interval(0.95)
    assert (result.low, result.high) == (pytest.approx(interval.low), pytest.approx(interval.high))


def test_paired_ratio_standard_error_is_the_difference_of_ratio_influences():
    rng = np.random.default_rng(3)
    attempts = rng.integers(0, 4, (400, 2)).astype(np.float64)
    baseline = np.column_stack([rng.binomial(attempts[:, 0].astype(int), 0.4), attempts[:, 0]])
    variant = np.column_stack([rng.binomial(attempts[:, 1].astype(int), 0.5), attempts[:, 1]])
    result = cs.paired(baseline, variant, cs.RATIO)

    def influence(arm):
        ratio = arm[:, 0].mean() / arm[:, 1].mean()
        return (arm[:, 0] - ratio * arm[:, 1]) / arm[:, 1].mean()

    d = influence(variant) - influence(baseline)
    assert result.difference == pytest.approx(variant[:, 0].sum() / variant[:, 1].sum()
                                              - baseline[:, 0].sum() / baseline[:, 1].sum())
    assert result.standard_error == pytest.approx(d.std(ddof=1) / math.sqrt(400))


def test_paired_balance_difference_is_the_change_of_the_largest_seat_gap():
    """Four seats' win indicators (one winner a game): balance rises from 1 - (0.4 - 0.1) to
    1 - (0.3 - 0.2) when the variant evens out the seats."""
    seats = np.eye(4)
    baseline = seats[[0, 0, 0, 0, 1, 1, 2, 2, 3, 1]]
    variant = seats[[0, 0, 0, 1, 1, 2, 2, 3, 3, 1]]
    result = cs.paired(baseline, variant, cs.balance)
    assert (result.baseline_value, result.variant_value) == (pytest.approx(0.7), pytest.approx(0.9))
    assert result.difference == pytest.approx(0.2)
    assert result.low < result.difference < result.high


def test_every_game_moved_alike_is_no_exact_difference_on_four_games():
    """Four games that each moved by exactly 1 (values 0..2 over both arms, so one game can move
    the difference by up to 2) do not show that every other game would: the interval is the
    Wilson bound of 4 of 4 games moving up by half the spread, MOVER-combined with 0 of 4 moving
    down (not [1, 1] and p = 0). The p-value agrees: the interval reaches below 0, p > 0.05."""
    wins = np.array([0.0, 1.0, 0.0, 0.0])
    moved = cs.paired(wins, wins + 1, cs.MEAN)
    assert moved.difference == 1.0 and moved.standard_error == 0.0 and math.isnan(moved.crn_gain)
    assert (moved.discordant, moved.spread) == (4, 2.0) and moved.low < 0 and moved.p_value > 0.05
    up_low, up_high = (float(end) for end in cs.wilson_interval(2.0, 4))       # 4 games x 1/2
    down_high = float(cs.wilson_interval(0.0, 4)[1])
    assert moved.low == pytest.approx(2 * (0.5 - math.hypot(0.5 - up_low, down_high)))
    assert moved.high == pytest.approx(2 * up_high)
    same = cs.paired(wins, wins, cs.MEAN)
    assert (same.difference, same.p_value) == (0.0, 1.0)
    assert same.high == -same.low == pytest.approx(float(cs.wilson_interval(0, 4)[1]))     # 0.49


def test_a_ratio_with_zero_denominator_in_either_arm_is_nan():
    played = np.array([[1.0, 2.0], [0.0, 1.0]])
    never = np.zeros((2, 2))
    for baseline, variant in ((played, never), (never, played)):
        result = cs.paired(baseline, variant, cs.RATIO)
        assert all(math.isnan(x) for x in (result.difference, result.low, result.high, result.p_value,
                                           result.mean_d, result.var_d))
        assert cs.sequential_decision(result.n, result.mean_d, result.var_d, MARGIN, minimum_games=0).decision \
            == cs.CONTINUE


def test_arms_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match="paired game by game"):
        cs.paired(np.zeros(4), np.zeros(5), cs.MEAN)


@pytest.mark.parametrize("coupling", [0.8, 0.5, 0.0])
def test_crn_gain_is_the_variance_ratio_of_the_shared_noise(coupling):
    """Equal win rates 0.3: Var A = Var B = p (1 - p), Var(A - B) = (1 - coupling) 2 p (1 - p),
    so the gain is 1 / (1 - coupling): 5 at 0.8, 2 at 0.5, 1 for independent arms."""
    baseline, variant = paired_wins(np.random.default_rng(4), 40_000, 0.3, 0.3, coupling)
    result = cs.paired(baseline, variant, cs.MEAN)
    assert result.crn_gain == pytest.approx(1 / (1 - coupling), rel=0.05)


def test_the_interval_covers_the_truth_95_percent_of_the_time():
    """2000 seeded repetitions of 400 correlated paired games, truth 0.35 - 0.30; the coverage is
    within three binomial standard deviations of 95%."""
    rng = np.random.default_rng(5)
    baseline, variant = paired_wins(rng, (REPETITIONS, 400), 0.30, 0.35, coupling=0.7)
    covered = [(r.low <= 0.05 <= r.high) for r in (cs.paired(b, v, cs.MEAN) for b, v in zip(baseline, variant))]
    assert abs(np.mean(covered) - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / REPETITIONS)


def test_a_share_seen_in_no_game_gets_the_wilson_interval_not_an_empty_one():
    """0 tie-breaks in 20 games do not prove the rate is 0: [0, 16.1%], the Wilson interval."""
    assert cs.share_estimate(np.zeros((20, 1)), cs.MEAN) == pytest.approx((0.0, 0.0, 0.16112515805281938))
    value, low, high = cs.share_estimate(np.ones((20, 1)), cs.MEAN)
    assert value == 1.0 and high == 1.0 and low == pytest.approx(1 - 0.16112515805281938)


def test_a_share_interval_never_leaves_zero_to_one_and_is_the_delta_interval_inside():
    few = np.array([[1.0]] + [[0.0]] * 19)      # 1 in 20: the t interval reaches below 0
    _, low, high = cs.estimate(few, cs.MEAN)
    assert low < 0
    assert cs.share_estimate(few, cs.MEAN) == pytest.approx((0.05, 0.0, high))
    balanced = np.random.default_rng(3).random((4000, 1)) < 0.4
    assert cs.share_estimate(balanced, cs.MEAN) == cs.estimate(balanced, cs.MEAN)


@pytest.mark.parametrize("truth, games", [(0.02, 20), (0.05, 20), (0.5, 20), (0.01, 200)])
def test_a_rare_shares_interval_covers_the_truth_at_least_95_percent_of_the_time(truth, games):
    """Over seeded repetitions; the plain t interval covers 2% in 20 games only ~34% of the time."""
    random = np.random.default_rng(int(truth * 1000) + games)
    covered = 0
    for _ in range(2000):
        values = (random.random((games, 1)) < truth).astype(float)
        _, low, high = cs.share_estimate(values, cs.MEAN)
        covered += low <= truth <= high
    assert covered / 2000 >= 0.94


def test_the_ratio_interval_covers_a_bots_true_win_rate_difference():
    """A bot in one or two seats per game (wins, seats); each seat wins with 0.25 under the
    baseline and 0.30 under the variant, so the truth is 0.05."""
    rng = np.random.default_rng(6)
    repetitions, games = 1000, 400
    seats = 1 + (rng.random((repetitions, games)) < 0.5)
    covered = []
    for seats_of_game in seats:
        wins = [paired_wins(rng, games, 0.25, 0.30, coupling=0.7) for _ in range(2)]
        baseline = np.column_stack([wins[0][0] + (seats_of_game == 2) * wins[1][0], seats_of_game])
        variant = np.column_stack([wins[0][1] + (seats_of_game == 2) * wins[1][1], seats_of_game])
        result = cs.paired(baseline, variant, cs.RATIO)
        covered.append(result.low <= 0.05 <= result.high)
    assert abs(np.mean(covered) - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / repetitions)


component_arrays = st.integers(2, 30).flatmap(lambda games: st.integers(1, 4).flatmap(
    lambda k: hnp.arrays(np.float64, (games, k), elements=st.integers(0, 3).map(float))))


@settings(max_examples=60, deadline=None)
@given(component_arrays)
def test_an_arm_against_itself_is_a_zero_difference_with_p_one(values):
    """... and its interval is the Wilson bound of 0 of n games differing, times the spread."""
    for f in (cs.MEAN, cs.balance, cs.RATIO):
        if f is cs.RATIO and (values.shape[1] < 2 or values[:, 1].sum() == 0):
            continue
        result = cs.paired(values, values, f)
        assert (result.difference, result.p_value, result.var_d, result.discordant) == (0.0, 1.0, 0.0, 0)
        bound = result.spread * float(cs.wilson_interval(0, len(values))[1])
        assert result.spread >= 1.0 and (result.low, result.high) == (pytest.approx(-bound), pytest.approx(bound))


@settings(max_examples=60, deadline=None)
@given(component_arrays, st.randoms(use_true_random=False))
def test_swapping_the_arms_negates_the_difference(values, random):
    other = np.array(random.choices(range(4), k=values.size), dtype=np.float64).reshape(values.shape)
    for f in (cs.MEAN, cs.balance):
        forward, backward = cs.paired(values, other, f), cs.paired(other, values, f)
        assert backward.difference == -forward.difference
        assert backward.p_value == pytest.approx(forward.p_value, nan_ok=True)
        assert (backward.low, backward.high) == (pytest.approx(-forward.high, nan_ok=True),
                                                 pytest.approx(-forward.low, nan_ok=True))


# --- games that could not vary (issue 37) -----------------------------------------------------

def rare_discordant_pairs(rng, games, expected_moved, up_share, repetitions):
    """(baseline, variant) win indicators, shape (repetitions, games), of a rule change that
    rarely bites: each game moves with chance expected_moved / games; a moved game is won by
    the variant and lost by the baseline (with chance up_share) or the reverse. The truth is
    (expected_moved / games) (2 up_share - 1)."""
    baseline = (rng.random((repetitions, games)) < 0.5).astype(np.float64)
    moved = rng.random((repetitions, games)) < expected_moved / games
    up = rng.random((repetitions, games)) < up_share
    baseline = np.where(moved, np.where(up, 0.0, 1.0), baseline)
    return baseline, np.where(moved, 1.0 - baseline, baseline)


def plain_t_interval(baseline, variant):
    """THE OLD INTERVAL: the paired t interval, [d, d] when the differences show no variance."""
    d = variant - baseline
    half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    return d.mean() - half, d.mean() + half


def test_wilson_interval_is_statsmodels_and_the_rule_of_three():
    from statsmodels.stats.proportion import proportion_confint
    for successes, trials in ((0, 2), (0, 20), (3, 20), (20, 20), (0.7, 20), (12.5, 4000), (0, 20_000)):
        assert tuple(float(end) for end in cs.wilson_interval(successes, trials)) == pytest.approx(
            proportion_confint(successes, trials, method="wilson"), abs=1e-12)
    low, high = cs.wilson_interval(np.array([0, 0]), np.array([1000, 20_000]))
    assert (low == 0).all() and high * [1000, 20_000] == pytest.approx([3.83, 3.84], abs=0.01)   # ~3.84 / n
    assert np.isnan(cs.wilson_interval(0, 0)).all()


COVERAGE_REPETITIONS = 2000
RARE = [pytest.param(0.5, 1.0, id="0.5-moved-all-up"), pytest.param(3, 1.0, id="3-moved-all-up"),
        pytest.param(3, 0.7, id="3-moved-70%-up"), pytest.param(10, 1.0, id="10-moved-all-up"),
        pytest.param(25, 0.7, id="25-moved-70%-up"), pytest.param(45, 1.0, id="45-moved-t-interval")]


@pytest.mark.parametrize("expected_moved, up_share", RARE)
def test_the_interval_covers_a_rare_change_at_least_95_percent_of_the_time(expected_moved, up_share):
    """2,000 paired games of which a few (0.5 to 45 expected) moved, 2,000 seeded repetitions:
    the interval covers the true difference at least 95% of the time (within two binomial
    standard deviations). Most repetitions at 0.5 moved games have every pair identical."""
    rng = np.random.default_rng(int(expected_moved * 10 + up_share * 100))
    truth = expected_moved / 2000 * (2 * up_share - 1)
    baseline, variant = rare_discordant_pairs(rng, 2000, expected_moved, up_share, COVERAGE_REPETITIONS)
    results = [cs.paired(b, v, cs.MEAN) for b, v in zip(baseline, variant)]
    covered = np.mean([result.low <= truth <= result.high for result in results])
    assert covered >= 0.95 - 2 * math.sqrt(0.95 * 0.05 / COVERAGE_REPETITIONS), covered
    if expected_moved >= 45:   # enough moved games: the interval is the t interval
        assert np.mean([result.discordant >= cs.MINIMUM_DISCORDANT_GAMES for result in results]) > 0.95


def test_the_plain_t_interval_misses_a_rare_change_far_more_often():
    """The same data through the old interval ([0, 0] without variance): at 3 expected moved
    games, all up, it covers the truth only ~80% of the time (it misses whenever 0, 1 or 9+
    games moved); the new interval ~99%."""
    rng = np.random.default_rng(31)
    baseline, variant = rare_discordant_pairs(rng, 2000, 3, 1.0, COVERAGE_REPETITIONS)
    old = np.mean([low <= 3 / 2000 <= high for low, high in map(plain_t_interval, baseline, variant)])
    new = np.mean([(r.low <= 3 / 2000 <= r.high) for r in map(cs.paired, baseline, variant, [cs.MEAN] * len(baseline))])
    assert old < 0.85 and new >= 0.98, (old, new)


def test_the_interval_covers_a_rare_change_of_a_score():
    """A metric with its own unit (points 0..150): a few games (5 expected of 2,000) moved by 1 to
    20 points, 70% up; the bound of what one game can move is the values' range, so the
    interval is wide but covers (at least 95%), and it stays well inside a 1%-of-the-mean
    margin when no game moved in 20,000."""
    rng = np.random.default_rng(32)
    covered = 0
    truth = 5 / 2000 * 10.5 * (0.7 - 0.3)
    for _ in range(1000):
        baseline = rng.integers(0, 151, 2000).astype(np.float64)
        moved = rng.random(2000) < 5 / 2000
        shift = rng.integers(1, 21, 2000) * np.where(rng.random(2000) < 0.7, 1.0, -1.0)
        result = cs.paired(baseline, np.where(moved, baseline + shift, baseline), cs.MEAN)
        covered += result.low <= truth <= result.high
    assert covered / 1000 >= 0.95 - 2 * math.sqrt(0.95 * 0.05 / 1000)
    scores = rng.integers(0, 151, 20_000).astype(np.float64)
    same = cs.paired(scores, scores, cs.MEAN)
    assert same.spread == 150.0 and cs.verdict(same.low, same.high, same.p_value, 0.01 * scores.mean()) == \
        cs.SMALLER_THAN_MARGIN


def test_the_p_value_of_a_rare_change_holds_its_level_and_agrees_with_the_interval():
    """No change on average (moved games go up or down alike, 10 expected of 2,000): p < 0.05 at
    most 5% of the time; and in every repetition, as with 3 moved games all up, p < 0.05
    exactly when the 95% interval leaves out 0 (so "real" never comes with an interval around 0)."""
    rng = np.random.default_rng(33)
    for expected_moved, up_share in ((10, 0.5), (3, 1.0), (20, 0.9)):
        baseline, variant = rare_discordant_pairs(rng, 2000, expected_moved, up_share, 500)
        results = [cs.paired(b, v, cs.MEAN) for b, v in zip(baseline, variant)]
        assert all((r.p_value < 0.05) == (r.low > 0 or r.high < 0) for r in results)
        if up_share == 0.5:
            assert np.mean([r.p_value < 0.05 for r in results]) <= 0.05
    shifted = np.arange(200.0) % 7      # every game moved by exactly +1.5: 20 games do not show it, 200 do
    assert cs.paired(shifted[:20], shifted[:20] + 1.5, cs.MEAN).p_value > 0.05
    assert cs.paired(shifted, shifted + 1.5, cs.MEAN).p_value < 1e-6


def test_two_identical_games_are_not_resolved_and_20000_are_smaller_than_the_margin():
    """`courtsim compare ... --games-per-matchup 1`: identical games (the variant cannot touch the
    metric) no longer give [0, 0], p = 1 and "smaller than the margin" on luck. Two identical
    games: +-0.66 on a win rate, not resolved against a 1-point margin; 20 identical game
    lengths of 40 to 80 turns: not resolved against 1% of 60 turns. 20,000 identical pairs (seat
    2's start points against Heads of State's game length): +-0.019 points of a win rate and
    +-0.015 turns (up to 80 turns a game), smaller than the margin on evidence. A score that is
    the same in every game of both arms is bounded by its own size, not by a range of 0."""
    rng = np.random.default_rng(34)
    for games in (2, 20):
        wins = (rng.random(games) < 0.5).astype(np.float64)
        tiny = cs.paired(wins, wins, cs.MEAN)
        assert tiny.high - tiny.low > 2 * 0.01 and cs.verdict(tiny.low, tiny.high, tiny.p_value, 0.01) == \
            cs.NOT_RESOLVED
        lengths = rng.integers(40, 81, games).astype(np.float64)
        tiny = cs.paired(lengths, lengths, cs.MEAN)
        assert cs.verdict(tiny.low, tiny.high, tiny.p_value, 0.01 * lengths.mean()) == cs.NOT_RESOLVED
    assert cs.paired(np.zeros(2), np.zeros(2), cs.MEAN).high == pytest.approx(0.6576, abs=1e-4)
    wins = (rng.random(20_000) < 0.5).astype(np.float64)
    many = cs.paired(wins, wins, cs.MEAN)
    assert many.high == -many.low == pytest.approx(0.000192, abs=1e-6)
    assert cs.verdict(many.low, many.high, many.p_value, 0.01) == cs.SMALLER_THAN_MARGIN
    lengths = np.concatenate([[40.0, 80.0], rng.integers(40, 81, 19_998)])
    many = cs.paired(lengths, lengths, cs.MEAN)
    assert many.spread == 80.0 and many.high == pytest.approx(0.01536, abs=1e-5)
    assert cs.verdict(many.low, many.high, many.p_value, 0.01 * lengths.mean()) == cs.SMALLER_THAN_MARGIN
    constant = np.full(20, 37.0)      # 37 hexagon points in each of 20 games of both arms
    tiny = cs.paired(constant, constant, cs.MEAN)
    assert tiny.spread == 37.0 and cs.verdict(tiny.low, tiny.high, tiny.p_value, 0.37) == cs.NOT_RESOLVED


def test_the_sequential_test_does_not_decide_on_games_that_could_not_vary():
    """A change of exactly the margin (0.2 points) that moves 0.2% of games, all up, in batches of
    500 up to 40,000 games, 2,000 seeded streams. The plain variance (0 while no game moved:
    LLR -inf at the first look, 1,000 games, when 13.5% of the streams have seen nothing) calls
    it "smaller than the margin" far more often than beta; the floored variance of
    sequential_variance keeps that at most beta. At delta = 0 (moved games up or down alike)
    "real" stays at most alpha."""
    margin, batch, batches = 0.002, 500, 80
    n = batch * np.arange(1, batches + 1, dtype=np.float64)[:, np.newaxis]
    for delta, cells in ((margin, [0.002, 0.0]), (0.0, [0.001, 0.001])):
        counts = np.random.default_rng(35).multinomial(
            batch, [*cells, 1 - sum(cells)], size=(batches, REPETITIONS)).cumsum(axis=0)
        mean_d = (counts[..., 0] - counts[..., 1]) / n
        var_d = (counts[..., 0] + counts[..., 1] - n * mean_d ** 2) / (n - 1)
        discordant = counts[..., 0] + counts[..., 1]
        final, _ = first_decisions(cs.sequential_decisions(n, mean_d, var_d, margin, discordant=discordant))
        if delta:
            assert rate(final, cs.SMALLER_THAN_MARGIN) <= BETA
            with np.errstate(divide="ignore", invalid="ignore"):
                llr_up, llr_down = cs.sequential_log_likelihood_ratios(n, mean_d, var_d, margin)
            lower, upper = cs.sequential_bounds()
            plain = np.where((n >= 1000) & (llr_up <= lower) & (llr_down <= lower) & (llr_up < upper),
                             cs.SMALLER_THAN_MARGIN, np.where((n >= 1000) & (llr_up >= upper), cs.REAL, cs.CONTINUE))
            assert rate(first_decisions(plain)[0], cs.SMALLER_THAN_MARGIN) > 2 * BETA
        else:
            assert rate(final, cs.REAL) <= ALPHA


def test_the_sequential_floor_leaves_a_well_sampled_difference_alone():
    """With 30 or more games that differ, and a variance, the variance is the sample's."""
    assert cs.sequential_variance(1000, 0.05, discordant=50, spread=1.0) == 0.05
    assert cs.sequential_variance(1000, 0.0001, discordant=5, spread=1.0) == pytest.approx(
        float(cs.wilson_interval(5, 1000)[1]))
    assert cs.sequential_variance(1000, 0.0, discordant=1000, spread=2.0) == 4.0   # moved alike: spread^2


# --- running sums: one batch at a time ---------------------------------------------------------

def batches_of_components(rng, k, batches, games, touched):
    """Integer-valued components (games x k) of both arms per batch; a share ``touched`` of the
    variant's games differ from the baseline's."""
    for _ in range(batches):
        baseline = rng.integers(0, 4, (games, k)).astype(np.float64)
        changed = rng.random(games) < touched
        variant = np.where(changed[:, None], rng.integers(0, 4, (games, k)).astype(np.float64), baseline)
        yield baseline, variant


@pytest.mark.parametrize("f, k", [(cs.MEAN, 1), (cs.RATIO, 2), (cs.balance, 4)], ids=["mean", "ratio", "balance"])
@pytest.mark.parametrize("touched", [0.3, 0.002, 0.0], ids=["often", "rarely", "never"])
def test_running_sums_after_k_batches_equal_a_full_recomputation(f, k, touched):
    """After each of 6 batches of 700 games the running sums equal the sums over every game so
    far (exactly: integer values), and their statistics paired()'s over every game (to rounding;
    exactly 0 variance where no game differs), so the decisions are the same."""
    rng = np.random.default_rng(36)
    running = cs.PairedSums(k)
    seen_baseline, seen_variant = np.empty((0, k)), np.empty((0, k))
    for baseline, variant in batches_of_components(rng, k, 6, 700, touched):
        if f is cs.RATIO:   # a denominator that is never zero
            baseline[:, 1] += 1
            variant[:, 1] += 1
        running.add(baseline, variant)
        seen_baseline, seen_variant = np.vstack([seen_baseline, baseline]), np.vstack([seen_variant, variant])
        x = np.hstack([seen_variant - seen_baseline, seen_baseline])
        assert running.n == len(x) and running.discordant == int(np.any(seen_baseline != seen_variant, axis=1).sum())
        assert np.array_equal(running.sums, x.sum(axis=0)) and np.array_equal(running.products, x.T @ x)
        both = np.vstack([seen_baseline, seen_variant])
        assert np.array_equal(running.low, both.min(axis=0)) and np.array_equal(running.high, both.max(axis=0))
        summed, full = running.statistics(f), cs.paired(seen_baseline, seen_variant, f)
        assert (summed.n, summed.discordant, summed.spread) == (full.n, full.discordant, pytest.approx(full.spread))
        assert summed.mean_d == pytest.approx(full.mean_d, rel=1e-12, abs=1e-15)
        assert summed.var_d == pytest.approx(full.var_d, rel=1e-9, abs=1e-15)
        if touched == 0:
            assert summed.var_d == 0.0 == full.var_d
        for margin in (0.002, 0.02, 0.2):
            assert cs.sequential_decision(summed.n, summed.mean_d, summed.var_d, margin, discordant=summed.discordant,
                                          spread=summed.spread).decision == \
                cs.sequential_decision(full.n, full.mean_d, full.var_d, margin, discordant=full.discordant,
                                       spread=full.spread).decision


def test_running_sums_rebuilt_batch_by_batch_are_the_same_bits():
    """A resumed comparison rebuilds its sums from the finished batches, one by one: the very same
    numbers as the sums kept along the way (float values, so the order of addition matters)."""
    rng = np.random.default_rng(37)
    batches = [(rng.random((500, 2)) * 3, rng.random((500, 2)) * 3) for _ in range(5)]
    along, rebuilt = cs.PairedSums(2), cs.PairedSums(2)
    for baseline, variant in batches:
        along.add(baseline, variant)
        along.statistics(cs.RATIO)     # a decision after each batch changes nothing
    for baseline, variant in batches:
        rebuilt.add(baseline, variant)
    assert along.statistics(cs.RATIO) == rebuilt.statistics(cs.RATIO)
    assert np.array_equal(along.products, rebuilt.products) and np.array_equal(along.sums, rebuilt.sums)


def test_running_sums_of_a_ratio_never_attempted_are_nan_and_never_decide():
    running = cs.PairedSums(2)
    running.add(np.zeros((1000, 2)), np.zeros((1000, 2)))
    result = running.statistics(cs.RATIO)
    assert math.isnan(result.mean_d) and result.n == 1000
    assert cs.sequential_decision(result.n, result.mean_d, result.var_d, 0.01, discordant=result.discordant,
                                  spread=result.spread).decision == cs.CONTINUE
    with pytest.raises(ValueError, match="components"):
        running.add(np.zeros((3, 1)), np.zeros((3, 1)))


# --- the table: multiplicity and verdicts ----------------------------------------------------

@pytest.mark.parametrize("method", ["holm", "fdr_bh"])
def test_adjust_is_multipletests_over_the_known_p_values(method):
    p_values = np.array([0.01, 0.04, 0.03, 0.5, 0.002])
    np.testing.assert_allclose(cs.adjust(p_values, method), multipletests(p_values, method=method)[1])
    with_nan = np.array([0.01, np.nan, 0.04, 0.03, np.nan])
    adjusted = cs.adjust(with_nan, method)
    assert np.isnan(adjusted[[1, 4]]).all()
    np.testing.assert_allclose(adjusted[[0, 2, 3]], multipletests([0.01, 0.04, 0.03], method=method)[1])


def test_adjust_refuses_an_unknown_method_and_keeps_an_all_nan_table():
    with pytest.raises(ValueError, match="holm, fdr_bh"):
        cs.adjust(np.array([0.1]), "bonferroni")
    assert np.isnan(cs.adjust(np.array([np.nan, np.nan]))).all()


def test_verdict_names_each_kind_of_difference():
    assert cs.verdict(-0.004, 0.006, 0.6, margin=0.01) == "smaller than the margin"
    assert cs.verdict(0.002, 0.008, 0.001, margin=0.01) == "smaller than the margin"  # real but too small to matter
    assert cs.verdict(0.02, 0.05, 0.001, margin=0.01) == "real"
    assert cs.verdict(0.005, 0.05, 0.01, margin=0.01) == "real"
    assert cs.verdict(-0.02, 0.05, 0.3, margin=0.01) == "not resolved"
    assert cs.verdict(0.02, 0.05, 0.06, margin=0.01) == "not resolved"  # significant alone, not over the table
    assert cs.verdict(math.nan, math.nan, math.nan, margin=0.01) == "not resolved"


# --- sequential: --until-resolved -----------------------------------------------------------

def test_sequential_bounds_split_alpha_over_the_two_sides():
    lower, upper = cs.sequential_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05)) and upper == pytest.approx(math.log(40))
    with pytest.raises(ValueError):
        cs.sequential_bounds(0.0, 0.05)


def test_sequential_llr_is_the_normal_approximation():
    """n (m1 - m0)(2 x_bar - m0 - m1) / (2 s^2): 2000 games, x_bar 0.015, s^2 0.1, margin 0.02."""
    decision = cs.sequential_decision(2000, 0.015, 0.1, 0.02)
    assert decision.llr_up == pytest.approx(2000 * 0.02 * (0.03 - 0.02) / 0.2)
    assert decision.llr_down == pytest.approx(2000 * -0.02 * (0.03 + 0.02) / 0.2)
    assert decision.decision == "continue"  # llr_up = 2 < 3.689, llr_down = -10
    assert cs.sequential_decision(6000, 0.015, 0.1, 0.02).decision == "real"
    assert cs.sequential_decision(6000, 0.0, 0.1, 0.02).decision == "smaller than the margin"


def test_sequential_decides_nothing_before_the_minimum_games():
    assert cs.sequential_decision(999, 0.5, 0.1, 0.02).decision == "continue"
    assert cs.sequential_decision(1000, 0.5, 0.1, 0.02).decision == "real"


def test_a_variant_that_never_changes_the_metric_is_smaller_than_the_margin():
    """1,000 identical games: the share of games that would differ is at most 0.38% (Wilson), so
    the variance is floored there: smaller than a 2-point margin, not decided at 0.1 point."""
    floor = float(cs.wilson_interval(0, 1000)[1])
    decision = cs.sequential_decision(1000, 0.0, 0.0, 0.02)
    assert decision.decision == "smaller than the margin"
    assert decision.llr_up == pytest.approx(-1000 * 0.02 ** 2 / (2 * floor))
    assert cs.sequential_decision(1000, 0.0, 0.0, 0.001).decision == "continue"
    assert cs.sequential_decision(1000, 0.0, 0.0, 0.001, discordant=0, spread=1.0).decision == "continue"


def test_sequential_refuses_a_margin_that_is_not_positive():
    for margin in (0.0, -0.01):
        with pytest.raises(ValueError, match="positive"):
            cs.sequential_decision(1000, 0.0, 0.1, margin)


def test_a_nan_margin_never_decides():
    """A margin relative to a baseline value that is nan (a ratio never attempted) is nan."""
    assert cs.sequential_decision(5000, 0.0, 0.1, math.nan).decision == "continue"


def test_sequential_decision_from_paired_equals_the_count_statistics():
    """The streams of the error-rate tests are drawn as counts; the same games as explicit
    indicators through paired() give the same sufficient statistics and decisions."""
    rng = np.random.default_rng(7)
    baseline, variant = paired_wins(rng, 3 * BATCH, BASELINE_WIN_RATE, BASELINE_WIN_RATE + MARGIN, 0.8)
    for games in (BATCH, 2 * BATCH, 3 * BATCH):
        result = cs.paired(baseline[:games], variant[:games], cs.MEAN)
        d = variant[:games] - baseline[:games]
        plus, minus = np.sum(d > 0), np.sum(d < 0)
        assert result.mean_d == pytest.approx((plus - minus) / games)
        assert result.var_d == pytest.approx((plus + minus - games * result.mean_d ** 2) / (games - 1))
        assert cs.sequential_decision(result.n, result.mean_d, result.var_d, MARGIN).decision == \
            cs.sequential_decisions(games, result.mean_d, result.var_d, MARGIN)


def test_the_shared_latent_streams_have_the_count_model_cells():
    baseline, variant = paired_wins(np.random.default_rng(8), 200_000, 0.25, 0.27, 0.8)
    plus, minus = difference_cells(0.25, 0.27, 0.8)
    assert np.mean(variant - baseline > 0) == pytest.approx(plus, abs=0.002)
    assert np.mean(variant - baseline < 0) == pytest.approx(minus, abs=0.002)


STREAMS = [pytest.param(0.8, 500, 40, id="crn-batches-of-500"),
           pytest.param(0.8, 100, 200, id="crn-batches-of-100"),
           pytest.param(0.0, 500, 60, id="independent-batches-of-500")]


@pytest.mark.parametrize("coupling, batch, batches", STREAMS)
def test_sequential_false_positive_rate_is_at_most_alpha(coupling, batch, batches):
    """Truth delta = 0, the decision applied after every batch, 2000 seeded streams: stopping at
    "real" happens at most 5% of the time, and nearly every stream stops within the budget."""
    n, mean_d, var_d = cumulative_statistics(np.random.default_rng(9), 0.0, coupling, batch, batches, REPETITIONS)
    final, _ = first_decisions(cs.sequential_decisions(n, mean_d, var_d, MARGIN, ALPHA, BETA))
    assert rate(final, cs.REAL) <= ALPHA
    assert rate(final, cs.CONTINUE) <= 0.05


@pytest.mark.parametrize("coupling, batch, batches", STREAMS)
@pytest.mark.parametrize("delta", [MARGIN, -MARGIN], ids=["plus-margin", "minus-margin"])
def test_sequential_false_negative_rate_is_at_most_beta(delta, coupling, batch, batches):
    """Truth delta = +-margin: stopping at "smaller than the margin" happens at most 5% of the time."""
    n, mean_d, var_d = cumulative_statistics(np.random.default_rng(10), delta, coupling, batch, batches, REPETITIONS)
    decisions = cs.sequential_decisions(n, mean_d, var_d, MARGIN, ALPHA, BETA)
    final, stopped_after = first_decisions(decisions)
    assert rate(final, cs.SMALLER_THAN_MARGIN) <= BETA
    assert rate(final, cs.CONTINUE) <= 0.05
    # a "real" call points the right way
    last = stopped_after[final == cs.REAL] - 1
    assert np.mean(np.sign(mean_d[last, np.flatnonzero(final == cs.REAL)]) == np.sign(delta)) >= 0.999


def test_sequential_needs_fewer_games_than_a_fixed_n_test_with_the_same_error_rates():
    """At delta = +margin with CRN (coupling 0.8), a fixed-n two-sided test at alpha = 0.05 with
    95% power needs (z_0.975 + z_0.95)^2 Var(d) / margin^2 = about 3000 paired games; the
    sequential test stops earlier in most streams (its median is 4 batches of 500)."""
    plus, minus = difference_cells(BASELINE_WIN_RATE, BASELINE_WIN_RATE + MARGIN, 0.8)
    fixed_games = (stats.norm.ppf(1 - ALPHA / 2) + stats.norm.ppf(1 - BETA)) ** 2 \
        * (plus + minus - (plus - minus) ** 2) / MARGIN ** 2
    n, mean_d, var_d = cumulative_statistics(np.random.default_rng(11), MARGIN, 0.8, BATCH, 40, REPETITIONS)
    _, stopped_after = first_decisions(cs.sequential_decisions(n, mean_d, var_d, MARGIN))
    games = stopped_after * BATCH
    assert np.all(stopped_after > 0)
    assert np.median(games) < 0.75 * fixed_games
    assert np.mean(games < fixed_games) >= 0.6


def test_the_forbidden_repeated_t_test_inflates_the_false_positive_rate():
    """The same delta = 0 streams, with a fixed-n t-test repeated after every batch and stopping
    at the first p < 0.05: the false-positive rate is far above 5%, so the error-rate tests
    above would catch a procedure that peeks."""
    n, mean_d, var_d = cumulative_statistics(np.random.default_rng(9), 0.0, 0.8, BATCH, 40, REPETITIONS)
    final, _ = first_decisions(repeated_t_test_decisions(n, mean_d, var_d))
    assert rate(final, cs.REAL) > 3 * ALPHA


# --- the paired change of a median (sweeps' median game length) -----------------------------

@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.int64, st.tuples(st.integers(1, 6), st.integers(1, 5)), elements=st.integers(0, 9)))
def test_a_median_read_off_counts_is_numpys_median_of_the_repeated_values(counts):
    values = np.array([1.0, 2.5, 4.0, 7.0, 11.0])[:counts.shape[1]]
    counts[:, 0] += 1                                          # no empty row
    expected = [np.median(np.repeat(values, row)) for row in counts]
    assert cs.median_of_counts(counts.astype(np.float64), values).tolist() == expected


def crn_game_lengths(generator, games, change, centre=60.0):
    """Two arms' integer game lengths sharing each game's luck (``shared``): the variant's
    lengths lie ``change`` turns further, so its median is exactly ``change`` more."""
    shared = generator.normal(0.0, 8.0, games)
    return (np.round(centre + shared + generator.normal(0.0, 4.0, games)),
            np.round(centre + change + shared + generator.normal(0.0, 4.0, games)))


def test_the_paired_median_difference_covers_a_known_change_and_its_test_holds_its_level():
    """Over 200 seeded repetitions of 300 games: the interval covers the true change of 2 turns at
    least 93% of the time, the test finds it most of the time, and with no change it rejects
    at most ~5% (the sign-flip test is exact; discrete lengths make both a little conservative)."""
    generator = np.random.default_rng(2026)
    covered = found = false_alarms = 0
    for repetition in range(200):
        baseline, variant = crn_game_lengths(generator, 300, 2.0)
        change = cs.paired_median_difference(baseline, variant, resamples=400, seed=repetition)
        covered += change.low <= 2.0 <= change.high
        found += change.p_value < 0.05
        baseline, variant = crn_game_lengths(generator, 300, 0.0)
        false_alarms += cs.paired_median_difference(baseline, variant, resamples=400, seed=repetition).p_value < 0.05
    assert covered >= 0.93 * 200
    assert found >= 0.5 * 200
    assert false_alarms <= 0.09 * 200


def test_the_paired_median_difference_is_exact_seeded_and_nan_without_two_games():
    baseline = np.arange(50.0, 70.0)                   # every game 3 turns longer: the change has no doubt
    change = cs.paired_median_difference(baseline, baseline + 3, seed=1)
    assert (change.difference, change.low, change.high) == (3.0, 3.0, 3.0) and change.p_value < 0.05
    generator = np.random.default_rng(5)
    lengths = crn_game_lengths(generator, 500, 1.0)
    assert cs.paired_median_difference(*lengths, seed=9) == cs.paired_median_difference(*lengths, seed=9)
    alone = cs.paired_median_difference([60.0], [62.0])
    assert alone.difference == 2.0 and math.isnan(alone.low) and math.isnan(alone.p_value)
    with pytest.raises(ValueError, match="paired game by game"):
        cs.paired_median_difference([1.0, 2.0], [1.0])
