"""§3 step 11 "choose the start player at random": the rule switch random_start_player.
On (the default, as the rules file says): a seeded random seat from its own random source, spread
over all seats, reproducible, and the first-turn takes (§4.1) count from that seat; the tables
give each seat's place in the turn order (seats.start_position) and the report's seat advantage
is by that place. Off (the other reading): seat 0 starts every game."""
import numpy as np
import polars as pl
import pytest
from scipy.stats import chisquare

from courtsim_runs import simulate
from reports.analysis import metrics_common
from reports.analysis.rundir import collect, load_run, seat_frame
from sim.heads_of_state import events as ev
from sim.heads_of_state.engine import ENGINE

N_GAMES = 2000


@pytest.fixture(scope="module")
def random_start_setup():
    return ENGINE.load_setup(rule_overrides={"random_start_player": True})


@pytest.fixture(scope="module")
def seat_0_setup():
    return ENGINE.load_setup(rule_overrides={"random_start_player": False})


def start_seats(setup, n_players, seed=5, first_game=0, n_games=N_GAMES):
    bots = [ENGINE.resolve_bot("random")] * n_players
    tables = ENGINE.play_chunk(setup, n_players, bots, seed, first_game, n_games)
    return tables["games"]["first_start_seat"]


def test_s3_11_by_default_the_start_player_is_chosen_at_random(setup, random_start_setup):
    """configs/games/heads_of_state.yaml and the file model's default (a game file without the key)."""
    assert setup.description["rules"]["random_start_player"] is True
    seats = start_seats(setup, 4, n_games=200)
    assert len(set(seats.tolist())) == 4
    assert (seats == start_seats(random_start_setup, 4, n_games=200)).all()


def test_s3_11_the_other_reading_seat_0_starts_every_game(seat_0_setup):
    assert seat_0_setup.description["rules"]["random_start_player"] is False
    tables = ENGINE.play_chunk(seat_0_setup, 4, [ENGINE.resolve_bot("random")] * 4, 5, 0, 200)
    assert (tables["games"]["first_start_seat"] == 0).all()
    assert (tables["seats"]["start_position"] == tables["seats"]["seat"]).all()


def test_s3_11_seats_table_gives_each_seats_place_in_the_turn_order(setup):
    """seats.start_position: 0 for the drawn start player, then clockwise (as Louis XIV's)."""
    n_players = 5
    tables = ENGINE.play_chunk(setup, n_players, [ENGINE.resolve_bot("random")] * n_players, 5, 0, 300)
    first = np.repeat(tables["games"]["first_start_seat"], n_players)
    seats = tables["seats"]
    assert (seats["start_position"] == (seats["seat"] - first) % n_players).all()
    assert (seats["seat"][seats["start_position"] == 0] == tables["games"]["first_start_seat"]).all()


def test_s3_11_report_seat_advantage_is_by_turn_order(tmp_path):
    """The report's seat figures (reports.analysis.rundir's ``position``, metrics_common.seat_advantage)
    are by place in the turn order, not by seat number, when the start player is drawn."""
    run = simulate(tmp_path / "run", "heads-of-state", 3, 60, "greedy,random,greedy", seed=4)
    seats, _ = seat_frame(load_run(run))
    games = pl.read_parquet(run / "games.parquet").select("game_index", "first_start_seat")
    frame = collect(seats).join(games, on="game_index")
    assert frame["first_start_seat"].n_unique() == 3
    assert (frame["position"] == (frame["seat"] - frame["first_start_seat"]) % 3).all()
    starters = frame.filter(pl.col("position") == 0)
    advantage = metrics_common.seat_advantage(seats)
    assert advantage["first_player_rate"].iloc[0] == pytest.approx(starters["credit"].mean())
    assert not (starters["seat"] == 0).all()


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


def test_s3_11_the_switch_shifts_no_other_random_source(seat_0_setup, random_start_setup):
    """Games whose drawn start seat is 0 are the seat-0 reading's games, draw for draw."""
    bots = [ENGINE.resolve_bot("random")] * 3
    default = ENGINE.play_chunk(seat_0_setup, 3, bots, 9, 0, 60)
    switched = ENGINE.play_chunk(random_start_setup, 3, bots, 9, 0, 60)
    seat_0 = switched["games"]["first_start_seat"] == 0
    assert 0 < seat_0.sum() < 60
    for column in ("winner_mask", "turns_round_1", "turns_round_3", "revolution_position_round_3"):
        assert (default["games"][column][seat_0] == switched["games"][column][seat_0]).all(), column
