"""Luck against skill (issue 41, reports/analysis/luck_skill.py): Duersch, Lambrecht & Oechssler's
luck-skill index and Lantz et al.'s skill chain, on synthetic skill ladders whose truth is known.

The index's synthetic games are its own benchmark: with probability p the strongest level seated
wins (its seats share the win), else a seat drawn uniformly wins; every seating of the levels
(mirror ones too) occurs equally often, the seats shuffled. Over many seeded repetitions at 2, 3
and 4 players with 3 and 4 levels the index must find p inside its interval about 95% of the time."""
import itertools

import numpy as np
import pandas as pd
import polars as pl
import pytest

from reports.analysis import luck_skill, stats
from sim.core.engine import ConfigError

LEVELS = ["random", "greedy", "tuned", "search"]


def ladder_games(p: float, n_players: int, levels: list[str], games: int, seed: int) -> pl.DataFrame:
    """Seat rows of games in which skill decides with probability ``p`` and a fair coin otherwise."""
    rng = np.random.default_rng(seed)
    seatings = np.array(list(itertools.combinations_with_replacement(range(len(levels)), n_players)))
    seated = rng.permuted(seatings[np.arange(games) % len(seatings)], axis=1)
    strongest = seated == seated.max(axis=1, keepdims=True)
    skill_decides = rng.random(games) < p
    coin_winner = np.arange(n_players)[None, :] == rng.integers(0, n_players, games)[:, None]
    credit = np.where(skill_decides[:, None], strongest / strongest.sum(axis=1, keepdims=True), coin_winner)
    return seat_frame(n_players, seated, credit, levels)


def seat_frame(n_players: int, seated: np.ndarray, credit: np.ndarray, levels: list[str]) -> pl.DataFrame:
    games = len(seated)
    return pl.DataFrame({"n_players": np.full(games * n_players, n_players),
                         "game_index": np.repeat(np.arange(games), n_players),
                         "seat": np.tile(np.arange(n_players), games),
                         "level": np.array(levels)[seated.ravel()],
                         "credit": credit.ravel().astype(np.float64)})


def one_game(levels_by_seat: list[int], credit: list[float]) -> pl.DataFrame:
    return seat_frame(len(levels_by_seat), np.array([levels_by_seat]), np.array([credit]), LEVELS)


# ----------------------------------------------------------------------------- the benchmark's parts

@pytest.mark.parametrize("levels_by_seat", [[0, 0, 1, 2], [2, 0, 2], [1, 3], [1, 1, 1]])
def test_a_benchmark_game_has_the_ahead_shares_its_seats_would_give(levels_by_seat):
    # the shares the benchmark adds up by formula are those the real games' reading gives its games
    n_players = len(levels_by_seat)
    strongest = np.array(levels_by_seat) == max(levels_by_seat)
    skill_game = luck_skill.game_kinds(one_game(levels_by_seat, list(strongest / strongest.sum())), LEVELS, n_players)
    assert skill_game.stronger_ahead == pytest.approx(luck_skill.skill_decides_shares(skill_game))
    for seat, level in enumerate(levels_by_seat):
        coin_game = luck_skill.game_kinds(one_game(levels_by_seat, [float(s == seat) for s in range(n_players)]),
                                          LEVELS, n_players)
        assert coin_game.stronger_ahead == pytest.approx(luck_skill.coin_decides_shares(coin_game)[:, level])


def test_a_game_counts_once_for_each_pair_of_levels_in_it():
    # greedy in two seats, one of them winning, against one random seat: greedy is ahead in 1 of
    # the 2 (random, greedy) seat pairs and the other pair ties: share 3/4, one comparison
    kinds = luck_skill.game_kinds(one_game([0, 1, 1], [0.0, 1.0, 0.0]), LEVELS, 3)
    pairs = luck_skill.level_pairs(LEVELS)
    assert kinds.stronger_ahead[0, pairs.index((0, 1))] == pytest.approx(0.75)
    assert kinds.meets[0].tolist() == [1.0 if pair == (0, 1) else 0.0 for pair in pairs]


def test_level_ratings_are_the_bradley_terry_ratings_with_a_drawn_game_between_every_two_levels():
    wins = np.array([70.0, 140.0, 61.5])               # pairs (0,1), (0,2), (1,2): the stronger's shares
    comparisons = np.array([100.0, 160.0, 90.0])
    fitted = luck_skill.level_ratings(wins, comparisons)
    pairs = pd.DataFrame({"bot_a": [LEVELS[s] for _, s in luck_skill.level_pairs(LEVELS[:3])],
                          "bot_b": [LEVELS[w] for w, _ in luck_skill.level_pairs(LEVELS[:3])],
                          "wins_a": wins + 0.5, "wins_b": comparisons - wins + 0.5})
    expected = stats.bradley_terry(pairs).set_index("bot")["rating"] - stats.ELO_CENTRE
    assert fitted == pytest.approx([expected[level] for level in LEVELS[:3]], abs=1e-6)


def test_a_level_that_always_finishes_ahead_keeps_a_finite_rating():
    ratings = luck_skill.level_ratings(np.array([1e6]), np.array([1e6]))
    assert np.isfinite(ratings).all() and ratings[1] - ratings[0] == pytest.approx(
        stats.ELO_PER_LOGIT * np.log((1e6 + 0.5) / 0.5))


def test_the_matching_share_reads_the_benchmark_curve_between_its_grid_points():
    grid = np.array([0.0, 0.5, 1.0])
    assert luck_skill.matching_share(30.0, np.array([10.0, 20.0, 60.0]), grid) == pytest.approx(0.625)
    assert luck_skill.matching_share(5.0, np.array([10.0, 20.0, 60.0]), grid) == 0.0
    assert luck_skill.matching_share(60.0, np.array([10.0, 20.0, 60.0]), grid) == 1.0
    # a dip of the simulated curve is levelled by its running maximum
    assert luck_skill.matching_share(22.0, np.array([10.0, 8.0, 30.0]), grid) == pytest.approx(0.8)


# ----------------------------------------------------------------------------- the index

def index_of(p, n_players, level_count, seed, games=600):
    levels = LEVELS[:level_count]
    return luck_skill.luck_skill_index(ladder_games(p, n_players, levels, games, 1000 + seed), levels, n_players,
                                       replicates=200, seed=seed)


def test_the_index_finds_p_within_its_interval_about_95_percent_of_the_time():
    found = [(p, index_of(p, n_players, 3 + seed % 2, seed))
             for p in (0.25, 0.5, 0.8) for n_players in (2, 3, 4) for seed in range(20)]
    covered = [result.low <= p <= result.high for p, result in found]
    assert 0.89 <= np.mean(covered) <= 0.99         # 180 intervals: 95% of them is 171, give or take 3
    for p in (0.25, 0.5, 0.8):                      # and its point estimate is about right on average
        assert np.mean([result.index for truth, result in found if truth == p]) == pytest.approx(p, abs=0.03)


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_pure_luck_gives_an_interval_touching_0(n_players):
    results = [index_of(0.0, n_players, 3 + seed % 2, seed) for seed in range(6)]
    assert all(result.low == 0.0 for result in results)
    assert np.mean([result.index for result in results]) < 0.08


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_pure_skill_gives_an_interval_touching_1(n_players):
    results = [index_of(1.0, n_players, 3 + seed % 2, seed) for seed in range(3)]
    assert all(result.index == 1.0 and result.high == 1.0 for result in results)


def test_more_skill_gives_a_higher_index_at_every_player_count():
    for n_players in (2, 3, 4):
        indices = [index_of(p, n_players, 4, 7, games=1200).index for p in (0.1, 0.4, 0.7, 0.95)]
        assert indices == sorted(indices)


def test_the_same_games_and_seed_give_the_same_index_whatever_the_row_order():
    frame = ladder_games(0.5, 3, LEVELS, 400, 3)
    first = luck_skill.luck_skill_index(frame, LEVELS, 3, replicates=50, seed=9)
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=1).with_columns(pl.col("game_index") * 7 + 100)
    assert luck_skill.luck_skill_index(shuffled, LEVELS, 3, replicates=50, seed=9) == first
    assert luck_skill.luck_skill_index(frame, LEVELS, 3, replicates=50, seed=10) != first


def test_mirror_games_alone_say_nothing_about_luck_and_skill():
    mirror = seat_frame(2, np.repeat([[0, 0], [1, 1]], 50, axis=0), np.tile([[1.0, 0.0]], (100, 1)), LEVELS)
    result = luck_skill.luck_and_skill(mirror, LEVELS[:2], replicates=20).table.iloc[0]
    assert np.isnan(result.luck_skill_index) and result.skill_chain == 0
    assert result.sentence == ("At 2 players no game seats two levels, so luck and skill cannot be told apart; "
                               "0 of 1 ladder steps are clear at 60%; not resolved at this number of games: "
                               "random → greedy (no games).")


# ----------------------------------------------------------------------------- the skill chain

def two_player_ladder(step_rates: list[float], games_per_step: int, seed: int) -> pl.DataFrame:
    """Two-player games between neighbouring levels; the stronger wins with the step's rate."""
    rng = np.random.default_rng(seed)
    weaker = np.repeat(np.arange(len(step_rates)), games_per_step)
    stronger_wins = rng.random(len(weaker)) < np.repeat(step_rates, games_per_step)
    seated = np.stack([weaker, weaker + 1], axis=1)
    credit = np.stack([~stronger_wins, stronger_wins], axis=1)
    return seat_frame(2, seated, credit, LEVELS)


def test_the_skill_chain_counts_the_steps_that_beat_the_level_below_60_percent_of_the_time():
    truth = [0.75, 0.52, 0.68]
    chain = luck_skill.skill_chain(two_player_ladder(truth, 2000, 1), LEVELS, 2)
    steps = chain.steps
    assert chain.length == 2
    assert list(zip(steps["weaker"], steps["stronger"])) == list(zip(LEVELS[:-1], LEVELS[1:]))
    assert ((steps["low"] < truth) & (np.array(truth) < steps["high"])).all()
    assert steps["verdict"].tolist() == ["above the threshold", "below the threshold", "above the threshold"]


def test_a_step_at_the_threshold_is_not_significant():
    chain = luck_skill.skill_chain(two_player_ladder([0.6, 0.8, 0.8], 400, 2), LEVELS, 2)
    assert chain.steps["verdict"].tolist() == ["not significant", "above the threshold", "above the threshold"]


def test_a_higher_threshold_shortens_the_chain():
    frame = two_player_ladder([0.65, 0.8, 0.95], 2000, 5)
    assert [luck_skill.skill_chain(frame, LEVELS, 2, threshold).length for threshold in (0.6, 0.7, 0.9)] == [3, 2, 1]


def test_at_3_players_a_third_seats_win_is_a_tie_between_the_other_two():
    # every game seats random, greedy and tuned; they win 10%, 25% and 65% of the games: greedy is
    # ahead of random 25% + 65%/2 = 57.5% of the time (short of 60%), tuned of greedy 65% + 10%/2 = 70%
    rng = np.random.default_rng(4)
    games = 4000
    seated = rng.permuted(np.tile(np.arange(3), (games, 1)), axis=1)
    winner_level = rng.choice(3, size=games, p=[0.10, 0.25, 0.65])
    frame = seat_frame(3, seated, seated == winner_level[:, None], LEVELS)
    chain = luck_skill.skill_chain(frame, LEVELS[:3], 3)
    assert chain.length == 1
    for step, truth in zip(chain.steps.itertuples(), [0.575, 0.70]):
        assert step.low < truth < step.high


def test_a_step_no_game_plays_is_said_so():
    frame = two_player_ladder([0.8, 0.8], 200, 3)        # no game seats tuned and search
    chain = luck_skill.skill_chain(frame, LEVELS, 2)
    assert chain.steps["verdict"].tolist() == ["above the threshold", "above the threshold", "no games"]
    assert chain.length == 2


# ----------------------------------------------------------------------------- the table

def test_the_table_has_a_row_and_a_sentence_per_player_count():
    frame = pl.concat([ladder_games(0.4, n_players, LEVELS[:3], 600, n_players) for n_players in (3, 4)])
    result = luck_skill.luck_and_skill(frame, LEVELS[:3], replicates=100)
    table = result.table.set_index("n_players")
    assert list(table.columns) == ["games", "luck_skill_index", "low", "high", "skill_chain", "steps", "sentence"]
    assert table.index.tolist() == [3, 4] and (table["steps"] == 2).all() and (table["games"] == 600).all()
    row = table.loc[4]
    assert row.low <= row.luck_skill_index <= row.high
    assert row.sentence.startswith(f"At 4 players skill decides about {100 * row.luck_skill_index:.0f}% of games "
                                   f"[{100 * row.low:.0f}%, {100 * row.high:.0f}%]; {row.skill_chain} of 2 ladder "
                                   f"steps are clear at 60%")
    assert set(result.steps["n_players"]) == {3, 4}


# ----------------------------------------------------------------------------- what a user gets wrong

def test_a_level_outside_the_ladder_is_one_line_naming_it():
    frame = ladder_games(0.5, 2, ["random", "expert"], 20, 0)
    with pytest.raises(ConfigError, match=r"level 'expert' is not one of the ladder's levels \(random, greedy\)"):
        luck_skill.luck_skill_index(frame, ["random", "greedy"], 2)


def test_a_game_with_a_missing_seat_is_one_line_saying_how_many():
    frame = ladder_games(0.5, 3, LEVELS[:2], 20, 0).filter(~((pl.col("game_index") == 4) & (pl.col("seat") == 2)))
    with pytest.raises(ConfigError, match="expected 3 seats in every game, found 1 games with 2 seats"):
        luck_skill.skill_chain(frame, LEVELS[:2], 3)


def test_a_frame_without_credits_or_games_is_one_line():
    frame = ladder_games(0.5, 2, LEVELS[:2], 20, 0)
    columns = "n_players, game_index, seat, level, credit"
    with pytest.raises(ConfigError, match=f"expected columns {columns}; missing credit"):
        luck_skill.luck_skill_index(frame.drop("credit"), LEVELS[:2], 2)
    with pytest.raises(ConfigError, match="no games at 3 players"):
        luck_skill.luck_skill_index(frame, LEVELS[:2], 3)
    with pytest.raises(ConfigError, match=r"expected every credit in \[0, 1\]"):
        luck_skill.luck_skill_index(frame.with_columns(pl.col("credit") * 2), LEVELS[:2], 2)
