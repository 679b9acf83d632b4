"""Kingmaking (sim.studies.kingmaking, balance-questions.md "Who decides it?"): the kingmaker
index on games whose answer is known (a fake engine whose counterfactual outcomes are hand-made),
its Wilson interval's coverage on synthetic games of known kingmaking rate, and the command on
real runs (a 2-player run: none by definition; a run without standings: one line)."""
import numpy as np
import polars as pl
import pytest

from sim.core.engine import BotSeat
from sim.studies import kingmaking as km

GREEDY = BotSeat("greedy", 1, np.zeros(2), "greedy")
THIRD_SEAT = 2


class KingmakerEngine:
    """A 3-player game whose winner is seat 0, unless the seat acting at a replayed turn takes
    alternative ``decisive``: then the winner is ``handed_to``. Seats act in turn: turn t is seat
    (t - 1) % 3. Every alternative is available."""
    def __init__(self, decisive=1, handed_to=1):
        self.decisive, self.handed_to = decisive, handed_to
        self.requests = 0

    def play_counterfactuals(self, setup, n_players, bots, seed, game_index, turn, alternative):
        self.requests += len(game_index)
        winner = np.where(np.asarray(alternative) == self.decisive, self.handed_to, 0)
        return {"winner_mask": 1 << winner, "acting_seat": (np.asarray(turn) - 1) % n_players,
                "available": np.ones(len(game_index), bool), "n_options": np.full(len(game_index), 5)}


def games_of(n_games, n_players=3, winner_mask=1):
    return pl.DataFrame({"game_index": np.arange(n_games, dtype=np.int64),
                         "n_players": np.full(n_games, n_players, np.int32),
                         "winner_mask": np.full(n_games, winner_mask, np.int64),
                         "seating": [",".join(["greedy"] * n_players)] * n_games})


def turns_of(n_games, n_players=3, turns=12):
    return pl.DataFrame({"game_index": np.repeat(np.arange(n_games, dtype=np.int64), turns),
                         "turn": np.tile(np.arange(1, turns + 1, dtype=np.int64), n_games),
                         "acting_seat": np.tile((np.arange(turns) % n_players).astype(np.int32), n_games)})


def out_of_contention(games, seat=THIRD_SEAT, turn=4):
    return pl.DataFrame({"game_index": np.asarray(games, dtype=np.int64),
                         "seat": np.full(len(games), seat, np.int32),
                         "out_of_contention_turn": np.full(len(games), turn, np.int64)})


def played_by(engine, n_players=3):
    seatings = {",".join(["greedy"] * n_players): km.Seating(n_players, (GREEDY,) * n_players)}
    return lambda requests: km.play_requests("fake", None, seatings, 0, requests, 1, engine=engine)


def row(summary, n_players, seat):
    return summary.filter((pl.col("n_players") == n_players) & (pl.col("seat") == seat)).row(0, named=True)


def test_a_third_seat_whose_choice_decides_between_the_other_two_has_index_one():
    """Seat 2 is out of contention from turn 4 in every game; its next-best option hands the win
    from seat 0 to seat 1 (the seat before it in turn order): every game is kingmade."""
    engine = KingmakerEngine(decisive=1, handed_to=1)
    replays, summary = km.kingmaking_of(games_of(20), out_of_contention(range(20)), turns_of(20), played_by(engine))
    everyone, third = row(summary, 3, km.ALL_SEATS), row(summary, 3, THIRD_SEAT)
    assert everyone["kingmaker_index"] == 1.0 and third["kingmaker_index"] == 1.0
    assert everyone["kingmaker_games"] == 20 and row(summary, 3, 0)["kingmaker_index"] == 0.0
    assert third["decisions"] == 20 * 3          # seat 2 acts at turns 3, 6, 9, 12: three after turn 4
    assert third["share_to_previous"] == 1.0 and third["share_to_next"] == 0.0
    assert 0.8 < third["index_low"] < 1.0 == third["index_high"]
    assert set(replays["turn"].unique().to_list()) == {6, 9, 12}
    assert replays.height == 20 * 3 * len(km.ALTERNATIVES)
    assert replays.filter(pl.col("alternative") != 1)["kingmaking"].sum() == 0


def test_a_win_handed_to_the_seat_after_the_kingmaker_counts_as_to_next():
    engine = KingmakerEngine(decisive=-2, handed_to=0)
    games = games_of(10, winner_mask=1 << 1)     # seat 1 wins unless seat 2 hands it to seat 0
    _, summary = km.kingmaking_of(games, out_of_contention(range(10)), turns_of(10), played_by(engine))
    third = row(summary, 3, THIRD_SEAT)
    assert third["kingmaker_index"] == 1.0 and third["share_to_next"] == 1.0 and third["share_to_previous"] == 0.0


def test_a_two_player_game_has_no_kingmaker_by_definition_and_plays_nothing():
    engine = KingmakerEngine()
    _, summary = km.kingmaking_of(games_of(30, n_players=2), out_of_contention(range(30), seat=1),
                                  turns_of(30, n_players=2), played_by(engine, 2))
    everyone = row(summary, 2, km.ALL_SEATS)
    assert everyone["kingmaker_index"] == 0.0 and everyone["games"] == 30 and everyone["note"] == km.BY_DEFINITION
    assert engine.requests == 0


def test_a_game_where_nobody_is_out_of_contention_is_not_counted_as_kingmade():
    engine = KingmakerEngine()
    _, summary = km.kingmaking_of(games_of(8), out_of_contention([]), turns_of(8), played_by(engine))
    everyone = row(summary, 3, km.ALL_SEATS)
    assert everyone["games"] == 8 and everyone["games_out_of_contention"] == 0
    assert everyone["kingmaker_games"] == 0 and everyone["kingmaker_index"] == 0.0 and engine.requests == 0


def test_a_seat_that_wins_its_own_replay_was_misjudged_not_a_kingmaker():
    """The out-of-contention seat's alternative makes it win: the model was wrong about it."""
    engine = KingmakerEngine(decisive=-1, handed_to=THIRD_SEAT)
    replays, summary = km.kingmaking_of(games_of(5), out_of_contention(range(5)), turns_of(5), played_by(engine))
    third = row(summary, 3, THIRD_SEAT)
    assert third["misjudged_games"] == 5 and third["kingmaker_games"] == 0 and third["kingmaker_index"] == 0.0
    assert replays["changes_winner"].sum() == replays["misjudged"].sum() > 0


def test_an_alternative_that_does_not_exist_changes_nothing():
    class NoAlternatives(KingmakerEngine):
        def play_counterfactuals(self, *arguments):
            played = super().play_counterfactuals(*arguments)
            played["available"][:] = False
            return played
    _, summary = km.kingmaking_of(games_of(5), out_of_contention(range(5)), turns_of(5), played_by(NoAlternatives()))
    assert row(summary, 3, km.ALL_SEATS)["kingmaker_games"] == 0


def test_the_kingmaker_index_interval_covers_a_known_rate():
    """Over 200 seeded repetitions of 150 games, each kingmade with probability 0.3 (the third
    seat's next-best option hands the win over in those games only), the 95% Wilson interval
    covers 0.3 in at least 92% of them and the index averages 0.3."""
    rate, covered, indices = 0.3, 0, []
    for repetition in range(200):
        kingmade = np.random.default_rng(repetition).random(150) < rate

        class Known(KingmakerEngine):
            def play_counterfactuals(self, setup, n_players, bots, seed, game_index, turn, alternative):
                played = super().play_counterfactuals(setup, n_players, bots, seed, game_index, turn, alternative)
                played["winner_mask"] = np.where(kingmade[np.asarray(game_index)], played["winner_mask"], 1)
                return played
        _, summary = km.kingmaking_of(games_of(150), out_of_contention(range(150)), turns_of(150),
                                      played_by(Known()))
        everyone = row(summary, 3, km.ALL_SEATS)
        covered += everyone["index_low"] <= rate <= everyone["index_high"]
        indices.append(everyone["kingmaker_index"])
    assert covered >= 0.92 * 200
    assert abs(np.mean(indices) - rate) < 0.01


def test_the_sample_is_deterministic_spread_and_at_most_the_games_asked():
    games = np.arange(10_000)
    sample = km.sampled_games(games, 1000)
    assert len(sample) == 1000 and np.array_equal(sample, km.sampled_games(games[::-1], 1000))
    assert abs(np.mean(sample < 5000) - 0.5) < 0.05
    assert len(km.sampled_games(np.arange(7), 1000)) == 7


def test_workers_start_only_for_replays_worth_them():
    assert km.workers_for(30_000, 2) == 1
    assert km.workers_for(km.REPLAYS_PER_WORKER + 1, 2) == 2 and km.workers_for(10 ** 7, 2) == 2
    assert km.workers_for(0, 4) == 1
