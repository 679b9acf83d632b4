"""§3 step 11 "choose the start player at random": the rule switch random_start_player.
Off (the default): seat 0 starts every game. On: a seeded random seat from its own random source,
spread over all seats, reproducible, and the first-turn takes (§4.1) count from that seat."""
import numpy as np
import pytest
from scipy.stats import chisquare

from sim.heads_of_state import events as ev
from sim.heads_of_state.engine import ENGINE

N_GAMES = 2000


@pytest.fixture(scope="module")
def random_start_setup():
    return ENGINE.load_setup(rule_overrides={"random_start_player": True})


def start_seats(setup, n_players, seed=5, first_game=0, n_games=N_GAMES):
    bots = [ENGINE.resolve_bot("random")] * n_players
    tables = ENGINE.play_chunk(setup, n_players, bots, seed, first_game, n_games)
    return tables["games"]["first_start_seat"]


def test_s3_11_by_default_seat_0_starts_every_game(setup):
    assert setup.description["rules"]["random_start_player"] is False
    assert (start_seats(setup, 4, n_games=200) == 0).all()


@pytest.mark.parametrize("n_players", [2, 5])
def test_s3_11_random_start_seats_are_spread_over_all_seats(random_start_setup, n_players):
    seats = start_seats(random_start_setup, n_players)
    counts = np.bincount(seats, minlength=n_players)
    assert counts.shape == (n_players,) and counts.min() > 0
    assert chisquare(counts).pvalue > 1e-4, counts


def test_s3_11_random_start_seats_are_reproducible_in_any_chunking(random_start_setup):
    whole = start_seats(random_start_setup, 3, seed=11, n_games=300)
    parts = np.concatenate([start_seats(random_start_setup, 3, seed=11, first_game=a, n_games=100)
                            for a in (0, 100, 200)])
    assert (whole == parts).all()
    assert not (whole == start_seats(random_start_setup, 3, seed=12, n_games=300)).all()


def first_turns(setup, n_players, seed, game):
    """(seat, cards taken) of the first n_players turns of a traced game."""
    events = ENGINE.trace_events(setup, n_players, [ENGINE.resolve_bot("random")] * n_players, seed, game)
    turns, takes, turn_of = [], {}, None
    for code, a, b, c in events.tolist():
        if code == ev.EV_TURN:
            if c > n_players:
                break
            turn_of = a
            turns.append(a)
        elif code in (ev.EV_TAKE_DISPLAY, ev.EV_TAKE_DECK) and turn_of is not None:
            takes[a] = takes.get(a, 0) + 1
    return turns, takes


def test_s4_1_first_turn_takes_count_from_the_random_start_player(random_start_setup):
    n_players = 4
    table = random_start_setup.data.first_turn_takes[n_players, :n_players].tolist()   # 1, 1, 2, 3
    starts = start_seats(random_start_setup, n_players, seed=3, n_games=12)
    assert len(set(starts.tolist())) > 1
    for game, start in enumerate(starts.tolist()):
        turns, takes = first_turns(random_start_setup, n_players, 3, game)
        assert turns == [(start + k) % n_players for k in range(n_players)]     # clockwise from it
        assert [takes[(start + k) % n_players] for k in range(n_players)] == table


def test_s3_11_the_switch_shifts_no_other_random_source(setup, random_start_setup):
    """Games whose drawn start seat is 0 are the default games, draw for draw."""
    bots = [ENGINE.resolve_bot("random")] * 3
    default = ENGINE.play_chunk(setup, 3, bots, 9, 0, 60)
    switched = ENGINE.play_chunk(random_start_setup, 3, bots, 9, 0, 60)
    seat_0 = switched["games"]["first_start_seat"] == 0
    assert 0 < seat_0.sum() < 60
    for column in ("winner_mask", "turns_round_1", "turns_round_3", "revolution_position_round_3"):
        assert (default["games"][column][seat_0] == switched["games"][column][seat_0]).all(), column
