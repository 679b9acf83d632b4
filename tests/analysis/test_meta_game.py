"""Is there a dominant strategy? Nash averaging of a strategy pool (Balduzzi, Tuyls, Perolat,
Graepel, "Re-evaluating evaluation", NeurIPS 2018): the payoff matrix of seat-rotated play, the
maximum-entropy Nash equilibrium, ratings, entropy, bootstrap intervals and the verdict, each on
a game or on synthetic games whose answer is known."""
import itertools

import numpy as np
import polars as pl
import pytest
import scipy.stats

from reports.analysis import meta_game, stats

ROCK_PAPER_SCISSORS = ["rock", "paper", "scissors"]
BEATS = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}


def exact_games(win_rates: dict[tuple[str, str], float], n_players: int = 2, games: int = 20) -> pl.DataFrame:
    """``games`` games of every ordered pair whose focal credits give exactly its win rate."""
    rows = []
    for (strategy, opponent), rate in win_rates.items():
        wins = round(rate * games)
        assert wins == pytest.approx(rate * games)
        rows += [(n_players, strategy, opponent, game, float(game < wins)) for game in range(games)]
    return frame_of(rows)


def sampled_games(win_rates: dict[tuple[str, str], float], n_players: int, games: int, seed: int) -> pl.DataFrame:
    """Games drawn from known win rates: the focal seat wins outright, shares a win with one
    other seat (credit 1/2, up to one game in ten) or loses, with mean credit the pair's win rate."""
    rng = np.random.default_rng(seed)
    parts = []
    for (strategy, opponent), rate in win_rates.items():
        shared = min(0.1, 2 * rate, 2 * (1 - rate))
        credits = rng.choice([1.0, 0.5, 0.0], size=games, p=[rate - shared / 2, shared, 1 - rate - shared / 2])
        parts.append(pl.DataFrame({"n_players": n_players, "strategy": strategy, "opponent": opponent,
                                   "game_index": np.arange(games), "credit": credits}))
    return pl.concat(parts)


def frame_of(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"n_players": pl.Int64, "strategy": pl.String, "opponent": pl.String,
                                      "game_index": pl.Int64, "credit": pl.Float64}, orient="row")


def rates_from_game(game: dict[tuple[str, str], float], n_players: int) -> dict[tuple[str, str], float]:
    """Win rates with A_ij = game[i, j]: rate(i, j) = 1/n + A_ij and rate(j, i) = 1/n - A_ij."""
    rates = {}
    for (strategy, opponent), advantage in game.items():
        rates[strategy, opponent] = 1 / n_players + advantage
        rates[opponent, strategy] = 1 / n_players - advantage
    return rates


def rock_paper_scissors_rates() -> dict[tuple[str, str], float]:
    return {(a, b): 0.75 if (a, b) in BEATS else 0.25 for a, b in itertools.permutations(ROCK_PAPER_SCISSORS, 2)}


# a cycle whose equilibrium is uneven (a beats b, b beats c, c beats a) and a fourth strategy,
# d, outside it: p* on the cycle is proportional to (A_bc, A_ca, A_ab) = (0.2, 0.15, 0.1)
UNEVEN_CYCLE = {("a", "b"): 0.1, ("b", "c"): 0.2, ("c", "a"): 0.15,
                ("d", "a"): -0.05, ("d", "b"): 0.05, ("d", "c"): -0.1}
UNEVEN_CYCLE_MASSES = {"a": 0.2 / 0.45, "b": 0.15 / 0.45, "c": 0.1 / 0.45, "d": 0.0}
UNEVEN_CYCLE_RATING_OF_D = (-0.05 * 0.2 + 0.05 * 0.15 - 0.1 * 0.1) / 0.45


# ----------------------------------------------------------------------------- the payoff matrix

def test_the_payoff_matrix_is_the_win_rate_minus_the_fair_share_made_antisymmetric():
    # 3 players, fair share 1/3: greedy wins 2 of its 4 games against random, random 1 of 4
    frame = exact_games({("greedy", "random"): 0.5, ("random", "greedy"): 0.25}, n_players=3, games=4)
    matrix = meta_game.payoff_matrix(frame, 3)
    assert matrix.strategies == ["greedy", "random"]
    assert matrix.advantage == pytest.approx(np.array([[0, 0.5 - 1 / 3], [0.25 - 1 / 3, 0]]))
    assert matrix.antisymmetric == pytest.approx(np.array([[0, 1 / 8], [-1 / 8, 0]]))
    greedy = matrix.pairs[matrix.pairs["strategy"] == "greedy"].iloc[0]
    assert (greedy.games, greedy.wins, greedy.win_rate) == (4, 2.0, 0.5)
    low, high = stats.wilson_interval(2.0, 4)
    assert (greedy.win_rate_low, greedy.win_rate_high) == pytest.approx((float(low), float(high)))


def test_a_missing_pair_is_a_value_error_naming_it():
    rates = rock_paper_scissors_rates()
    del rates["paper", "rock"]
    with pytest.raises(ValueError, match="found none of paper \\(one seat\\) against rock \\(the other seats\\)"):
        meta_game.payoff_matrix(exact_games(rates), 2)


def test_a_frame_without_the_player_count_or_a_column_is_a_value_error_naming_it():
    frame = exact_games(rock_paper_scissors_rates())
    with pytest.raises(ValueError, match="expected games at 3 players, found player counts 2"):
        meta_game.payoff_matrix(frame, 3)
    with pytest.raises(ValueError, match="missing credit"):
        meta_game.payoff_matrix(frame.drop("credit"), 2)
    with pytest.raises(ValueError, match="expected every credit in \\[0, 1\\] at 2 players"):
        meta_game.payoff_matrix(frame.with_columns(pl.col("credit") * 2), 2)


# ----------------------------------------------------------------------------- the maximum-entropy Nash equilibrium

def test_rock_paper_scissors_gives_the_uniform_mixture():
    game = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]) / 4     # rock, paper, scissors
    assert meta_game.maxent_nash(game) == pytest.approx(np.full(3, 1 / 3), abs=1e-9)
    result = meta_game.nash_averaging(exact_games(rock_paper_scissors_rates()), 2, bootstrap=0)
    assert result.table["mass"].to_numpy() == pytest.approx(np.full(3, 1 / 3), abs=1e-9)
    assert (result.table["rating"] == 0).all()
    assert result.verdicts.iloc[0].normalised_entropy == pytest.approx(1.0)


def test_a_dominated_strategy_gets_zero_mass():
    # timid rock: rock made worse by 0.1 against everyone (rock beats it 60% of their games)
    rates = rock_paper_scissors_rates()
    for opponent in ROCK_PAPER_SCISSORS[1:]:
        rates["timid rock", opponent] = rates["rock", opponent] - 0.1
        rates[opponent, "timid rock"] = rates[opponent, "rock"] + 0.1
    rates["timid rock", "rock"], rates["rock", "timid rock"] = 0.4, 0.6
    result = meta_game.nash_averaging(exact_games(rates, games=400), 2, bootstrap=200, seed=1)
    timid = result.table.set_index("strategy").loc["timid rock"]
    assert timid.mass == 0 and timid.mass_high == 0
    # against the uniform mixture of rock, paper and scissors: A = (-0.1, -0.35, 0.15) / 3
    assert timid.rating == pytest.approx((-0.1 - 0.35 + 0.15) / 3)
    assert timid.high < 0


def test_duplicating_a_strategy_changes_no_rating():
    # Balduzzi et al., Theorem 1 (P1): a redundant copy changes no Nash average. The copy plays
    # everyone as its original does and draws even with it (win rate 1/2 both ways).
    rates = rates_from_game(UNEVEN_CYCLE, 2)
    original = meta_game.nash_averaging(exact_games(rates), 2, bootstrap=0).table.set_index("strategy")
    for copied in ("a", "d"):   # one the equilibrium plays, one it does not
        with_copy = dict(rates)
        for (strategy, opponent), rate in rates.items():
            if strategy == copied:
                with_copy["copy", opponent] = rate
            if opponent == copied:
                with_copy[strategy, "copy"] = rate
        with_copy["copy", copied] = with_copy[copied, "copy"] = 0.5
        ratings = meta_game.nash_averaging(exact_games(with_copy), 2, bootstrap=0).table.set_index("strategy")
        for strategy in original.index:
            assert ratings.loc[strategy, "rating"] == pytest.approx(original.loc[strategy, "rating"], abs=1e-7)
        assert ratings.loc["copy", "rating"] == pytest.approx(original.loc[copied, "rating"], abs=1e-7)
        assert ratings.loc["copy", "mass"] + ratings.loc[copied, "mass"] == pytest.approx(
            original.loc[copied, "mass"], abs=1e-7)   # the mass is shared between the two


def test_on_a_face_of_equilibria_a_copy_moves_the_rating_of_a_strategy_off_the_support():
    # the limit of Theorem 1 (P1): strategies 1 and 2 draw and both beat 3, so every mixture of 1
    # and 2 is an equilibrium. The maximum of entropy is (1/2, 1/2); with a copy of 1 it is
    # (1/3, 1/3, 1/3), which gives 1 (with its copy) 2/3 of the mass, and 3's rating moves.
    game = np.array([[0, 0, 1], [0, 0, 2], [-1, -2, 0]]) / 4
    mixture = meta_game.maxent_nash(game)
    assert mixture == pytest.approx([1 / 2, 1 / 2, 0], abs=1e-7)
    assert meta_game.ratings_of(game, mixture)[2] == pytest.approx(-(1 / 4 + 2 / 4) / 2, abs=1e-7)
    with_copy = game[np.ix_([0, 0, 1, 2], [0, 0, 1, 2])]
    mixture = meta_game.maxent_nash(with_copy)
    assert mixture == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0], abs=1e-7)
    assert meta_game.ratings_of(with_copy, mixture)[3] == pytest.approx(-(1 / 4 * 2 / 3 + 2 / 4 * 1 / 3), abs=1e-7)


def test_an_uneven_cycle_gives_the_masses_of_its_closed_form():
    game = np.zeros((4, 4))
    names = "abcd"
    for (strategy, opponent), advantage in UNEVEN_CYCLE.items():
        game[names.index(strategy), names.index(opponent)] = advantage
        game[names.index(opponent), names.index(strategy)] = -advantage
    mixture = meta_game.maxent_nash(game)
    assert mixture == pytest.approx([UNEVEN_CYCLE_MASSES[name] for name in names], abs=1e-12)
    assert meta_game.ratings_of(game, mixture) == pytest.approx([0, 0, 0, UNEVEN_CYCLE_RATING_OF_D], abs=1e-12)


@pytest.mark.parametrize("strategy_two_against_three", [-0.1, -0.4])
def test_on_a_face_of_equilibria_the_maximum_entropy_point_is_chosen(strategy_two_against_three):
    # strategies 1 and 2 draw; 1 beats 3. Every mixture of 1 and 2 that holds 3 to at most 0 is an
    # equilibrium: a segment. At -0.1 its maximum-entropy point is its middle (1/2, 1/2, 0); at -0.4
    # strategy 3 beats 2 so well that 1 needs a mass of 2/3 at least, and the maximum is that end.
    game = np.array([[0, 0, 0.2], [0, 0, strategy_two_against_three], [-0.2, -strategy_two_against_three, 0]])
    mixture = meta_game.maxent_nash(game)
    step = 1 / 600
    first, second = np.meshgrid(np.arange(0, 1 + step / 2, step), np.arange(0, 1 + step / 2, step), indexing="ij")
    grid = np.stack([first.ravel(), second.ravel(), 1 - first.ravel() - second.ravel()], axis=1)
    grid = grid[grid[:, 2] >= -1e-12].clip(0, 1)
    equilibria = grid[np.all(grid @ game.T <= 1e-12, axis=1)]
    assert len(equilibria) > 100                                   # a whole face, not a point
    entropies = scipy.stats.entropy(equilibria, axis=1)
    best = equilibria[np.argmax(entropies)]
    assert np.all(game @ mixture <= 1e-9) and mixture.sum() == pytest.approx(1)
    assert mixture == pytest.approx(best, abs=step)
    assert scipy.stats.entropy(mixture) >= entropies.max() - 1e-9


# ----------------------------------------------------------------------------- verdicts

def test_a_strictly_dominant_strategy_gives_the_verdict_dominant_strategy():
    # 3 players: greedy wins 60% of its games against either other bot (fair share 33%), they 20%
    strategies = ["greedy", "random", "cautious"]
    rates = {(a, b): 0.6 if a == "greedy" else 0.2 if b == "greedy" else 1 / 3
             for a, b in itertools.permutations(strategies, 2)}
    for seed in range(20):
        result = meta_game.nash_averaging(sampled_games(rates, 3, 400, seed), 3, bootstrap=200, seed=seed)
        verdict = result.verdicts.iloc[0]
        assert verdict.verdict == "dominant strategy" and verdict.support == 1
        assert verdict.sentence == ("At 3 players greedy holds the equilibrium (mass 1.00 [1.00, 1.00]): "
                                    "a dominant strategy.")
        greedy = result.table.set_index("strategy").loc["greedy"]
        assert greedy.mass == 1 and greedy.rating == 0


def test_rock_paper_scissors_is_a_few_strategies_and_rock_paper_scissors_lizard_spock_is_diverse():
    result = meta_game.nash_averaging(exact_games(rock_paper_scissors_rates(), games=400), 2, bootstrap=200)
    verdict = result.verdicts.iloc[0]
    assert (verdict.verdict, verdict.support) == ("a few strategies", 3)
    assert verdict.sentence.startswith("At 2 players the equilibrium mixes ")
    assert verdict.sentence.endswith("of the most 3 strategies allow: a few strategies.")
    # each of five strategies beats two and loses to two: the uniform mixture of all five
    five = ["rock", "paper", "scissors", "lizard", "spock"]
    rates = {(a, b): 0.75 if (five.index(b) - five.index(a)) % 5 in (1, 3) else 0.25
             for a, b in itertools.permutations(five, 2)}
    result = meta_game.nash_averaging(exact_games(rates, games=400), 2, bootstrap=200)
    assert result.table["mass"].to_numpy() == pytest.approx(np.full(5, 0.2), abs=1e-9)
    assert (result.verdicts.iloc[0].verdict, result.verdicts.iloc[0].support) == ("diverse", 5)


def test_two_near_tied_strategies_are_not_called_dominant_but_which_one_dominates_is_unresolved():
    # a and b each win 60% against c; against each other a wins 51%: every resample's equilibrium
    # is pure (a or b alone), but the resamples disagree on which
    rates = {("a", "b"): 0.51, ("b", "a"): 0.49, ("a", "c"): 0.6, ("c", "a"): 0.4, ("b", "c"): 0.6, ("c", "b"): 0.4}
    result = meta_game.nash_averaging(exact_games(rates, games=200), 2, bootstrap=300, seed=2)
    verdict = result.verdicts.iloc[0]
    assert verdict.verdict == meta_game.WHICH_DOMINANT and verdict.dominant_share < meta_game.DOMINANT_RESAMPLE_SHARE
    assert verdict.sentence.startswith("At 2 players one strategy holds the equilibrium, but which is not resolved")
    assert " a in " in verdict.sentence and " b in " in verdict.sentence


# ----------------------------------------------------------------------------- bootstrap intervals

def test_the_bootstrap_is_seeded_and_each_player_count_independent_of_the_others():
    rates = rates_from_game(UNEVEN_CYCLE, 3)
    frame = pl.concat([sampled_games(rates, 3, 100, seed=7),
                       sampled_games(rates_from_game(UNEVEN_CYCLE, 4), 4, 100, seed=8)])
    both = meta_game.nash_averaging(frame, bootstrap=50, seed=3)
    alone = meta_game.nash_averaging(frame, 3, bootstrap=50, seed=3)
    assert sorted(both.table["n_players"].unique()) == [3, 4]
    assert both.table[both.table["n_players"] == 3].reset_index(drop=True).equals(alone.table)
    assert not meta_game.nash_averaging(frame, 3, bootstrap=50, seed=4).table.equals(alone.table)


def test_bootstrap_intervals_cover_the_true_ratings_and_masses_at_about_their_nominal_rate():
    # games drawn from a known win-rate matrix at 3 players (the uneven cycle and d outside it);
    # 95% intervals should cover the truth in about 95 of 100 seeded repetitions
    repetitions, truth_rates = 200, rates_from_game(UNEVEN_CYCLE, 3)
    covered_rating, covered_mass = [], []
    for seed in range(repetitions):
        table = meta_game.nash_averaging(sampled_games(truth_rates, 3, 600, seed), 3, bootstrap=200,
                                         seed=seed).table.set_index("strategy")
        covered_rating.append(table.low["d"] <= UNEVEN_CYCLE_RATING_OF_D <= table.high["d"])
        covered_mass.append([table.mass_low[name] <= mass <= table.mass_high[name]
                             for name, mass in UNEVEN_CYCLE_MASSES.items() if mass > 0])
    assert 0.9 <= np.mean(covered_rating) <= 0.99
    assert 0.9 <= np.mean(covered_mass) <= 0.99
