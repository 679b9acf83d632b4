"""Heads of State metrics on hand-made tables with known answers."""
import polars as pl
import pytest

from reports.analysis import metrics_heads_of_state as hs


def betrayals():
    rows = [  # card_type, capital, target_rank, round, success, box_refilled (as read from betrayals.parquet)
        ("assassin", 0, "duke", 1, 1, 1), ("assassin", 0, "duke", 1, 1, 0), ("assassin", 0, "duke", 2, 0, 0),
        ("assassin", 0, "duke", 2, 1, 1), ("assassin", 1, "king", 3, 0, 0), ("single_country", 0, "duke", 1, 1, 1),
        ("double_country", 1, "archduke", 3, 1, 0)]
    return pl.DataFrame([dict(zip(["card_type", "capital", "target_rank", "round", "success", "box_refilled"], r))
                         for r in rows]).lazy()


def test_assassination_rates_only_count_bag_draws():
    overall = hs.assassinations(betrayals(), [])
    assert overall.loc[0, "attempts"] == 5 and overall.loc[0, "successes"] == 3
    assert overall.loc[0, "success_rate"] == pytest.approx(0.6)
    assert overall.loc[0, "success_rate_low"] < 0.6 < overall.loc[0, "success_rate_high"]
    by_target = hs.assassinations(betrayals(), ["capital"]).set_index("capital")
    assert by_target.loc[0, "success_rate"] == pytest.approx(0.75)
    assert by_target.loc[1, "success_rate"] == 0
    assert hs.bag_odds({}) == pytest.approx(0.75)


def test_betrayal_usage_and_refills():
    usage = hs.betrayal_usage(betrayals(), n_games=2).set_index(["card", "target"])
    province = usage.loc[("assassin", "province")]
    assert province["plays"] == 4 and province["plays_per_game"] == 2
    assert province["kills"] == 3 and province["refilled"] == 2
    assert province["refill_rate"] == pytest.approx(2 / 3)


def test_tiebreak_frequency_per_country():
    country = pl.DataFrame({
        "country": ["GB", "GB", "GB", "GB", "FR", "FR"], "round": [1, 1, 1, 1, 1, 1],
        "first_tiebreak": ["influence", "highest_rank", "highest_rank", "hexagon_value", "influence", "no_contest"],
        "second_tiebreak": ["influence", "influence", "hexagon_value", "hexagon_value", "influence", "no_contest"],
    }).lazy()
    frame = hs.tiebreaks(country, ["country"])
    first = frame[(frame.place == "first") & (frame.country == "GB")].set_index("level")
    assert first.loc["highest_rank", "share"] == pytest.approx(0.5)
    assert first.loc["hexagon_value", "share"] == pytest.approx(0.25)
    second = frame[(frame.place == "second") & (frame.country == "GB")].set_index("level")
    assert second.loc["hexagon_value", "share"] == pytest.approx(0.5)
    assert first.loc["highest_rank", "level_name"] == "highest rank"
    # groups come in the labels' declared order (GB before FR; no contest, influence, ...), not alphabetically
    assert frame[frame.place == "first"]["country"].drop_duplicates().tolist() == ["GB", "FR"]
    assert first.index.tolist() == ["influence", "highest_rank", "hexagon_value"]


def test_noble_card_majority_ties():
    seats = pl.DataFrame({
        "game_index": [0, 0, 0, 1, 1, 1],
        "cards_king": [2, 2, 0, 1, 0, 0],     # game 0: two-way split, game 1: sole leader
        "cards_baron": [1, 1, 1, 0, 0, 0],    # game 0: 3-way void, game 1: nobody
    }).lazy()
    frame = hs.majority_ties(seats, ["cards_king", "cards_baron"]).set_index(["rank", "outcome"])
    assert frame.loc[("king", "two-way split"), "share"] == pytest.approx(0.5)
    assert frame.loc[("king", "sole leader"), "share"] == pytest.approx(0.5)
    assert frame.loc[("baron", "3+-way void"), "count"] == 1
    assert frame.loc[("baron", "nobody"), "count"] == 1


def test_score_sources_and_winner_tiebreak():
    seats = pl.DataFrame({"is_winner": [1, 0], "score": [40, 20], "score_hexagon": [30, 10],
                          "score_country": [10, 10]}).lazy()
    sources = hs.score_sources(seats, ["score_hexagon", "score_country"]).set_index(["who", "source"])
    assert sources.loc[("winners", "hexagon tokens"), "share"] == pytest.approx(0.75)
    assert sources.loc[("others", "country tokens"), "share"] == pytest.approx(0.5)
    games = pl.DataFrame({"n_players": [4, 4, 4, 4], "win_decided_by": ["score", "score", "tiebreak", "shared"]}).lazy()
    frame = hs.winner_tiebreak(games).set_index("outcome")
    assert frame.loc["noble cards decided", "share"] == pytest.approx(0.25)
    assert frame.loc["shared win", "count"] == 1
