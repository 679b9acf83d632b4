"""Experiments as YAML (sim/core/experiments.py): match-ups, balanced seating, validation, runs."""
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.core.engine import BotSeat, ConfigError
from sim.core.experiments import (EXPERIMENTS_DIR, load_experiment, matchups_for, plan_cells,
                                  prepare_experiment, seatings)
from sim.core.runner import run_cells

from .fake_engine import FakeEngine


def experiment_file(tmp_path: Path, **fields) -> Path:
    text = {"name": "trial", "game": "louis-xiv", "players": [4], "bots": ["a", "b", "c", "d", "e"],
            "games_per_matchup": 12, "seed": 3} | fields
    import yaml
    path = tmp_path / "experiment.yaml"
    path.write_text(yaml.safe_dump(text))
    return path


def fake_bots(names):
    return {name: BotSeat(name, 1, np.zeros(1)) for name in names}


def seat_counts(cells):
    """(bot, seat) -> games, over all cells."""
    counts = Counter()
    for cell in cells:
        for seat, bot in enumerate(cell.bots):
            counts[bot.name, seat] += cell.n_games
    return counts


@pytest.mark.parametrize("seating", ["rotation", "permutations"])
@pytest.mark.parametrize("matchups, players", [("combinations", 4), ("combinations", 3), ("with_repeats", 3)])
def test_seating_designs_put_each_bot_in_each_seat_equally_often(tmp_path, seating, matchups, players):
    path = experiment_file(tmp_path, seating=seating, matchups=matchups, players=[players])
    experiment = load_experiment(path)
    cells = plan_cells(experiment, fake_bots(experiment.bots), path)
    counts = seat_counts(cells)
    for bot in experiment.bots:
        per_seat = {counts[bot, seat] for seat in range(players)}
        assert len(per_seat) == 1, f"{bot} sits unevenly: {per_seat}"


def test_rotation_is_the_cyclic_shifts_and_permutations_every_distinct_order():
    assert seatings(("a", "b", "c"), "rotation") == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len(seatings(("a", "b", "c", "d"), "permutations")) == 24
    assert len(seatings(("a", "a", "b"), "permutations")) == 3


def test_matchups_are_combinations_multisets_or_an_explicit_list(tmp_path):
    path = experiment_file(tmp_path)
    assert len(matchups_for(load_experiment(path), 4, path)) == 5                     # C(5, 4)
    path = experiment_file(tmp_path, matchups="with_repeats", bots=["a", "b"])
    assert len(matchups_for(load_experiment(path), 4, path)) == 5                     # aaaa .. bbbb
    path = experiment_file(tmp_path, matchups=[["a", "a", "b", "b"], ["a", "b", "c", "d"]])
    assert matchups_for(load_experiment(path), 4, path) == [("a", "a", "b", "b"), ("a", "b", "c", "d")]


def test_every_seating_gets_the_same_games_and_its_own_block_of_game_indices(tmp_path):
    path = experiment_file(tmp_path, games_per_matchup=10)   # 4 rotations: 3 games each (rounded up)
    experiment = load_experiment(path)
    cells = plan_cells(experiment, fake_bots(experiment.bots), path)
    assert len(cells) == 5 * 4 and {cell.n_games for cell in cells} == {3}
    assert [cell.first_game for cell in cells] == list(range(0, 60, 3))
    labels = dict(cells[1].labels)
    assert labels == {"matchup": "a vs b vs c vs d", "seating": "b,c,d,a"}


@pytest.mark.parametrize("fields, expected", [
    ({"players": [5]}, "key 'players': louis-xiv is played by 2, 3, 4 players, found 5"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"bots": ["greedy", "nobody"], "players": [2]}, "key 'bots': unknown louis-xiv bot 'nobody'"),
    ({"bots": ["greedy", "random"]}, "combinations of 4 distinct bots need a pool of at least 4, found 2"),
    ({"bots": ["greedy", "greedy"]}, "key 'bots': expected each bot once in the pool"),
    ({"matchups": [["greedy", "x", "random", "greedy"]], "bots": ["greedy", "random"]},
     "key 'matchups.0': expected bots of the pool"),
    ({"seating": "random"}, "key 'seating'"),
    ({"games_per_matchup": 0}, "key 'games_per_matchup'"),
    ({"jobs": 0}, "key 'jobs'"),
    ({"colour": "blue"}, "key 'colour': not a known key"),
])
def test_invalid_experiments_are_rejected_before_any_game_runs(tmp_path, fields, expected):
    fields.setdefault("bots", ["greedy", "random", "crown_hunter", "mission_racer"])
    path = experiment_file(tmp_path, **fields)
    with pytest.raises(ConfigError) as error:
        prepare_experiment(path)
    assert expected in str(error.value) and "\n" not in str(error.value)


def test_cells_run_into_one_directory_with_the_matchup_in_every_row(tmp_path):
    engine = FakeEngine()
    path = experiment_file(tmp_path, bots=["random", "greedy"], matchups="with_repeats", players=[2, 3],
                           games_per_matchup=6)
    experiment = load_experiment(path)
    bots = {name: engine.resolve_bot(name) for name in experiment.bots}
    cells = plan_cells(experiment, bots, path)
    result = run_cells(engine, engine.load_setup(), cells, 5, tmp_path / "run", {"tables": list(engine.tables)}, chunk_size=4,
                       progress=False)
    games = pl.read_parquet(result.files["games"])
    seats = pl.read_parquet(result.files["seats"])
    assert games.height == sum(cell.n_games for cell in cells)
    assert games["game_index"].to_list() == list(range(games.height))
    assert set(games["matchup"]) == {"random vs random", "random vs greedy", "greedy vs greedy",
                                     "random vs random vs random", "random vs random vs greedy",
                                     "random vs greedy vs greedy", "greedy vs greedy vs greedy"}
    seated = seats.join(games.select("game_index", "seating"), on="game_index")
    for row in seated.iter_rows(named=True):
        assert row["seating"].split(",")[row["seat"]] == row["bot"]


@pytest.mark.parametrize("path", sorted(EXPERIMENTS_DIR.glob("*.yaml")), ids=lambda path: path.name)
def test_shipped_experiments_are_valid(path):
    experiment, engine, setup, cells, config = prepare_experiment(path)
    assert cells and config["n_games"] == sum(cell.n_games for cell in cells)


def test_full_experiments_run_a_million_games():
    for path in EXPERIMENTS_DIR.glob("*_full.yaml"):
        experiment, engine, setup, cells, config = prepare_experiment(path)
        assert config["n_games"] >= 1_000_000
