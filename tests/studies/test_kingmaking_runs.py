"""``courtsim kingmaking`` on real runs: a Louis XIV run given a standings table (synthetic
standings, tests/standings_tables.py, whose acting seats are the real game's), a 2-player run
(no kingmaker by definition, nothing played) and a run without standings (one line, exit 2)."""
import subprocess

import numpy as np
import polars as pl
import pytest

from courtsim_runs import COURTSIM, simulate
from reports.analysis import game_arc
from reports.analysis.rundir import load_run
from sim import registry
from sim.core.one_seating import DEFAULT_BOT
from sim.studies import kingmaking as km
from standings_tables import TURNS, synthetic_standings, with_standings


def with_real_acting_seats(engine, standings: pl.DataFrame, bots) -> pl.DataFrame:
    """The standings with each turn's acting seat as the engine plays it (own choice replays)."""
    games = standings["game_index"].unique().sort().to_numpy()
    turns = np.arange(1, TURNS + 1)
    played = engine.play_counterfactuals(engine.load_setup(), len(bots), bots, 3, np.repeat(games, TURNS),
                                         np.tile(turns, len(games)), np.zeros(len(games) * TURNS))
    seats = pl.DataFrame({"game_index": np.repeat(games, TURNS), "turn": np.tile(turns, len(games)).astype(np.int32),
                          "real_seat": played["acting_seat"].astype(np.int32)}
                         ).with_columns(pl.col("game_index").cast(standings["game_index"].dtype))
    return (standings.join(seats, on=["game_index", "turn"], how="left", maintain_order="left")
            .with_columns(pl.when(pl.col("acting_seat").is_null()).then(None).otherwise(pl.col("real_seat"))
                          .alias("acting_seat")).drop("real_seat"))


@pytest.fixture(scope="module")
def louis_with_standings(louis_run, tmp_path_factory):
    engine = registry.get_engine("louis-xiv")
    bots = [engine.resolve_bot(name) for name in ("greedy", "random", "greedy", "random")]
    standings = with_real_acting_seats(engine, synthetic_standings(louis_run), bots)
    return with_standings(louis_run, tmp_path_factory.mktemp("kingmaking") / "louis", standings)


def test_kingmaking_of_a_run_replays_the_decisions_of_seats_out_of_contention(louis_with_standings, monkeypatch):
    result = km.analyse_kingmaking(louis_with_standings, games=80, jobs=1)
    assert not result.notes
    requests = result.requests
    assert requests.height > 0 and requests["game_index"].n_unique() <= 80
    assert (requests["acting_seat_after"] == requests["seat"]).all()
    assert (requests["turn"] > requests["out_of_contention_turn"]).all()
    assert set(requests["alternative"].unique().to_list()) == set(km.ALTERNATIVES)
    everyone = result.summary.filter((pl.col("n_players") == 4) & (pl.col("seat") == km.ALL_SEATS)).row(0, named=True)
    assert everyone["games"] == 80 and 0 <= everyone["kingmaker_index"] <= 1
    assert everyone["index_low"] <= everyone["kingmaker_index"] <= everyone["index_high"]
    written = pl.read_parquet(louis_with_standings / km.DIRECTORY / km.SUMMARY_FILE)
    assert written.equals(result.summary)
    monkeypatch.setattr(km, "REPLAYS_PER_WORKER", 1)    # workers even for these few replays
    again = km.analyse_kingmaking(louis_with_standings, games=80, jobs=2)
    assert again.requests.equals(requests)           # the workers do not change a replay


def test_the_sampled_games_out_of_contention_are_the_game_arcs(louis_with_standings):
    """Reading only the sampled games' standings gives the game arc's out-of-contention turns."""
    run = load_run(louis_with_standings)
    sample = km.sampled_games(np.arange(500), 60)
    models = game_arc.fit_models(run)
    arc = (game_arc.seats_out_of_contention(run, models)
           .filter(pl.col("game_index").is_in(sample.tolist()) & pl.col("out_of_contention_turn").is_not_null()))
    mine = km.out_of_contention(run, models, sample)
    assert mine.height == arc.height > 0
    assert mine["out_of_contention_turn"].to_list() == arc["out_of_contention_turn"].cast(pl.Int64).to_list()


def test_kingmaking_of_a_heads_of_state_run(heads_run, tmp_path):
    """Heads of State: the turn's option replayed at every later turn of a seat out of contention."""
    engine = registry.get_engine("heads-of-state")
    bots = [engine.resolve_bot(DEFAULT_BOT)] * 4
    target = with_standings(heads_run, tmp_path / "heads",
                            with_real_acting_seats(engine, synthetic_standings(heads_run), bots))
    result = km.analyse_kingmaking(target, games=40, jobs=1)
    assert not result.notes and result.requests.height > 0
    assert (result.requests["acting_seat_after"] == result.requests["seat"]).all()
    assert result.summary.filter(pl.col("seat") == km.ALL_SEATS)["games"].to_list() == [40]


def test_a_two_player_run_has_no_kingmaker_by_definition(tmp_path):
    run = simulate(tmp_path / "two", "louis-xiv", 2, 40, "greedy,greedy")
    target = with_standings(run, tmp_path / "two_with_standings")
    result = subprocess.run([*COURTSIM, "kingmaking", str(target)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "by definition" in result.stdout and "0 replays" in result.stdout
    summary = pl.read_parquet(target / km.DIRECTORY / km.SUMMARY_FILE)
    assert (summary["kingmaker_index"] == 0).all() and (summary["note"] == km.BY_DEFINITION).all()


def test_a_run_without_standings_is_one_line(louis_run):
    result = subprocess.run([*COURTSIM, "kingmaking", str(louis_run)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no standings table" in lines[0] and "--tables standings" in lines[0]
