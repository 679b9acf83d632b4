"""The kingmaker index everywhere a metric goes (issue 40): a paired metric of compare, sweep and
tune cells whose experiment asks for kingmaking (``kingmaking: {games: N}``), a ratio of kingmade
games over the kingmaking's sampled games (a game outside the sample counts in neither sum),
absent at 2 players (no kingmaker by definition), and a target ("kingmaker index at most 5% at 3
players"). Synthetic per-game tables of known truth for the estimate, its interval and the paired
difference; a small sweep and compare of Louis XIV at 3 players end to end."""
import numpy as np
import polars as pl
import pytest
import yaml
from scipy import stats as scipy_stats

from reports.analysis import paired_metrics, targets
from sim.core.engine import ConfigError
from sim.core.experiments import prepare_experiment
from study_files import assert_resumed_sweep_plays_nothing_again
from sim.studies import cells, compare, kingmaking as km, sweep, tune_rules

from .test_kingmaking import KingmakerEngine, games_of, out_of_contention, played_by, turns_of

INDEX = paired_metrics.KINGMAKER_INDEX
START = {"cell": "cell-001", "pool": "pool"}


def per_game(kingmade, sampled) -> pl.DataFrame:
    """A cell's per-game components of the kingmaker index: ``kingmade`` 0/1 and ``sampled`` 0/1
    per game (a game outside the sample is 0 kingmade of 0 sampled, as paired_metrics fills it)."""
    kingmade, sampled = np.asarray(kingmade, dtype=float), np.asarray(sampled, dtype=float)
    return pl.DataFrame({"game_index": np.arange(len(kingmade), dtype=np.int64),
                         paired_metrics.KINGMADE: kingmade * sampled, paired_metrics.KINGMAKING_SAMPLED: sampled})


def estimate_row(frame, reference=None) -> dict:
    rows = cells.metric_rows(START, 3, frame, [INDEX], None if reference is None else ("printed", reference))
    assert len(rows) == 1
    return rows[0]


def sample_of(games, sampled, seed=0) -> np.ndarray:
    """``sampled`` games of ``games`` marked 1, as a kingmaking's deterministic sample would be."""
    marked = np.zeros(games)
    marked[np.random.default_rng(seed).choice(games, sampled, replace=False)] = 1
    return marked


# ----------------------------------------------------------------------------- the metric on known truth

def test_the_index_is_kingmade_games_over_sampled_games_with_the_t_interval_of_the_sample():
    """90 of 300 sampled games kingmade, 700 more games outside the sample: the index is 30%, its
    interval the t interval of the 300 sampled games' flags, and it rests on those 300 games."""
    sampled = sample_of(1000, 300)
    kingmade = np.zeros(1000)
    kingmade[np.flatnonzero(sampled)[:90]] = 1
    row = estimate_row(per_game(kingmade, sampled))
    flags = kingmade[sampled == 1]
    half = scipy_stats.t.ppf(0.975, 299) * flags.std(ddof=1) / np.sqrt(300)
    assert row["value"] == pytest.approx(0.3)
    assert (row["low"], row["high"]) == pytest.approx((0.3 - half, 0.3 + half))
    assert row["games"] == 300 and row["metric"] == "kingmaker_index" and row["unit"] == paired_metrics.RATE


def test_no_kingmade_game_is_the_wilson_interval_of_the_sampled_games_not_of_every_game():
    """0 of 30 sampled games (of 500): [0, 11.4%], what 30 games can tell, not [0, 0.8%] of 500."""
    row = estimate_row(per_game(np.zeros(500), sample_of(500, 30)))
    assert row["value"] == 0.0 and row["low"] == 0.0
    assert row["high"] == pytest.approx(1.96 ** 2 / (30 + 1.96 ** 2), abs=1e-3)


def test_the_index_interval_covers_a_known_rate_over_seeded_repetitions():
    """200 repetitions of 2,000 games of which 150 are sampled, each kingmade with probability 0.3:
    the 95% interval covers 0.3 in at least 92% of them."""
    rate, covered = 0.3, 0
    for repetition in range(200):
        rng = np.random.default_rng(repetition)
        row = estimate_row(per_game(rng.random(2000) < rate, sample_of(2000, 150, seed=repetition)))
        covered += row["low"] <= rate <= row["high"]
    assert covered >= 0.92 * 200


def test_two_arms_with_known_kingmade_flags_resolve_their_paired_difference():
    """The same 300 sampled games in both arms (the sample is the game indices'): the variant
    keeps a quarter of the baseline's kingmade games (40% -> 10%). The paired difference is the
    difference of the two shares, its interval excludes 0, and 5,000 games outside the sample
    change nothing."""
    rng = np.random.default_rng(7)
    sampled = sample_of(400, 300)
    baseline_flags = rng.random(400) < 0.4
    variant_flags = baseline_flags & (rng.random(400) < 0.25)
    baseline, variant = per_game(baseline_flags, sampled), per_game(variant_flags, sampled)
    row = estimate_row(variant, baseline)
    expected = variant_flags[sampled == 1].mean() - baseline_flags[sampled == 1].mean()
    assert row["difference"] == pytest.approx(expected) and expected < -0.2
    assert row["difference_high"] < 0 and row["p_value"] < 1e-6

    def padded(frame):
        outside = per_game(np.zeros(5000), np.zeros(5000)).with_columns(pl.col("game_index") + 400)
        return pl.concat([frame, outside])
    again = estimate_row(padded(variant), padded(baseline))
    for key in ("value", "low", "high", "difference", "difference_low", "difference_high", "games"):
        assert again[key] == pytest.approx(row[key])


def test_the_paired_difference_interval_covers_the_true_difference_over_seeded_repetitions():
    """Baseline kingmade with probability 0.4, the variant keeps each kingmade game with
    probability 0.75: the true difference is -0.1; the 95% paired interval covers it in at least
    92% of 200 repetitions of 200 sampled games."""
    truth, covered = -0.4 * 0.25, 0
    for repetition in range(200):
        rng = np.random.default_rng(1000 + repetition)
        sampled = sample_of(600, 200, seed=repetition)
        baseline_flags = rng.random(600) < 0.4
        variant_flags = baseline_flags & (rng.random(600) < 0.75)
        row = estimate_row(per_game(variant_flags, sampled), per_game(baseline_flags, sampled))
        covered += row["difference_low"] <= truth <= row["difference_high"]
    assert covered >= 0.92 * 200


def test_a_game_one_arm_could_not_count_is_left_out_of_both():
    baseline = per_game([1, 0, 1, 0], [1, 1, 1, 1])
    variant = per_game([1, 0, 0, 0], [1, 1, 0, 1])      # game 2: no kingmaking counted in the variant
    row = estimate_row(variant, baseline)
    assert row["games"] == 3 and row["difference"] == pytest.approx(0.0)


def test_a_reference_cell_without_a_kingmaking_gives_an_estimate_and_no_paired_difference():
    reference = per_game([0, 0, 0], [0, 0, 0]).drop(paired_metrics.KINGMADE, paired_metrics.KINGMAKING_SAMPLED)
    row = estimate_row(per_game([1, 0, 1], [1, 1, 1]), reference)
    assert row["value"] == pytest.approx(2 / 3) and row["games"] == 3
    assert np.isnan(row["difference"])


def test_two_players_have_no_kingmaker_index_by_definition():
    """At 2 players the metric is absent (a seat that cannot win hands the game to the only other
    seat whatever it does), not a row of 0 that no game could move."""
    assert "kingmaker_index" not in {metric.name for metric in paired_metrics.declared_metrics("louis-xiv", [2], [])}
    assert "kingmaker_index" in {metric.name for metric in paired_metrics.declared_metrics("louis-xiv", [2, 3], [])}
    assert "at 2 players the metric is absent" in " ".join(paired_metrics.__doc__.split()).lower()


# ----------------------------------------------------------------------------- targets

@pytest.mark.parametrize("kingmade, status", [(3, targets.MEETS), (25, targets.MAY_MEET), (120, targets.MISSES)])
def test_a_kingmaker_index_target_at_three_players_is_judged_on_the_cells_estimate(kingmade, status):
    """"kingmaker index at most 5% at 3 players" over 600 sampled games: 3 kingmade (0.5%) meets
    it, 25 (4.2%, interval reaching past 5%) may meet it, 120 (20%) misses it by 15 points."""
    flags = np.zeros(600)
    flags[:kingmade] = 1
    row = estimate_row(per_game(flags, np.ones(600)))
    target = {"metric": "kingmaker_index", "players": [3], "at_most": 0.05}
    judged, miss, count = targets.evaluate([row], target)
    assert (judged, count) == (status, 1)
    assert miss == (pytest.approx(15.0) if status == targets.MISSES else 0.0)
    assert targets.evaluate([row], {**target, "players": [4]})[0] == targets.NOT_MEASURED


# ----------------------------------------------------------------------------- the kingmaking's per-game results

def test_the_kingmaking_writes_one_row_per_sampled_game_with_its_verdict():
    """Games 0-9 with the third seat out of contention (its next-best option hands the win over),
    games 10-19 with nobody out: 10 kingmade of 20 counted; a 2-player game sampled beside them is
    not counted."""
    engine = KingmakerEngine(decisive=1, handed_to=1)
    replays, summary = km.kingmaking_of(games_of(20), out_of_contention(range(10)), turns_of(20), played_by(engine))
    sampled = pl.concat([games_of(20).select("game_index", "n_players"),
                         pl.DataFrame({"game_index": [20], "n_players": [2]},
                                      schema={"game_index": pl.Int64, "n_players": pl.Int32})])
    games = km.per_game_results(sampled, replays, [3])
    assert games.height == 21 and games.schema == pl.Schema(km.GAMES_SCHEMA)
    counted = games.filter(pl.col("counted"))
    assert counted.height == 20 and counted["kingmade"].sum() == 10
    assert counted["kingmade"].sum() == summary.filter(pl.col("seat") == km.ALL_SEATS)["kingmaker_games"].item()
    assert games.filter(pl.col("n_players") == 2).row(0, named=True)["kingmade"] == 0


# ----------------------------------------------------------------------------- the keys and their refusals

def write_experiment(folder, players=(3,), games=60, kingmaking=30, **keys):
    record = {"name": "three_greedy", "game": "louis-xiv", "players": list(players), "bots": ["greedy"],
              "matchups": "with_repeats", "games_per_matchup": games, "seed": 5, "jobs": 1, "chunk_size": games, **keys}
    if kingmaking is not None:
        record["kingmaking"] = {"games": kingmaking}
    path = folder / f"experiment_{len(list(folder.glob('experiment_*.yaml')))}.yaml"
    path.write_text(yaml.safe_dump(record))
    return path


def test_kingmaking_implies_the_standings_and_leaves_the_runs_identity_alone(tmp_path):
    """An experiment asking for kingmaking plays the run an experiment with tables: [standings]
    plays, with the same identity (the kingmaking is played on the run, not part of it)."""
    asking = prepare_experiment(write_experiment(tmp_path))
    standings = prepare_experiment(write_experiment(tmp_path, kingmaking=None, tables=["standings"]))
    assert "standings" in asking[2].optional_tables
    assert asking[4] == standings[4]


def test_a_kingmaking_of_no_games_is_one_line_naming_the_key(tmp_path):
    with pytest.raises(ConfigError) as error:
        prepare_experiment(write_experiment(tmp_path, kingmaking=0))
    assert "kingmaking.games" in str(error.value) and "\n" not in str(error.value)


def test_compare_refuses_to_decide_the_kingmaker_index_without_a_kingmaking_or_at_two_players(tmp_path):
    without = write_experiment(tmp_path, kingmaking=None)
    with pytest.raises(ConfigError, match="add kingmaking: {games: 1000}"):
        compare.plan_comparison(without, ["tied_seconds_each_get_gift"], tmp_path / "a", until_resolved=True,
                                metrics=["kingmaker_index"])
    two = write_experiment(tmp_path, players=(2,))
    with pytest.raises(ConfigError, match="no kingmaker by definition"):
        compare.plan_comparison(two, ["tied_seconds_each_get_gift"], tmp_path / "b", until_resolved=True,
                                metrics=["kingmaker_index"])


def write_sweep(folder, experiment, target, players=None):
    path = folder / "sweep.yaml"
    path.write_text(yaml.safe_dump({"name": "gold", "experiment": str(experiment),
                                    **({"players": players} if players else {}),
                                    "grid": [{"path": "start_gold", "values": [5, 6]}], "targets": [target]}))
    return path


@pytest.mark.parametrize("experiment_keys, target, message", [
    ({"kingmaking": None}, {"metric": "kingmaker_index", "at_most": 0.05}, "asks for none; add kingmaking"),
    ({"players": (2, 3)}, {"metric": "kingmaker_index", "players": [2], "at_most": 0.05}, "no kingmaker by definition"),
    ({}, {"metric": "kingmaker_idx", "at_most": 0.05}, "no metric matches 'kingmaker_idx'; expected one of"),
])
def test_a_kingmaker_target_that_could_never_be_judged_is_one_line_naming_the_key(tmp_path, experiment_keys, target,
                                                                                 message):
    experiment = write_experiment(tmp_path, **experiment_keys)
    with pytest.raises(ConfigError) as error:
        sweep.plan_sweep(write_sweep(tmp_path, experiment, target), out_dir=tmp_path / "out")
    text = str(error.value)
    assert "key 'targets.0.metric'" in text and message in text and "\n" not in text
    if target["metric"] == "kingmaker_idx":
        assert "kingmaker_index" in text     # the list of known metrics names the real one


def test_a_tuning_target_on_the_kingmaker_index_needs_a_kingmaking(tmp_path):
    path = tmp_path / "tuning.yaml"
    path.write_text(yaml.safe_dump({"name": "gold", "experiment": str(write_experiment(tmp_path, kingmaking=None)),
                                    "space": [{"path": "start_gold", "range": {"from": 4, "to": 6, "step": 1}}],
                                    "targets": [{"metric": "kingmaker_index", "players": [3], "at_most": 0.05}],
                                    "trials": 2, "rungs": [10]}))
    with pytest.raises(ConfigError, match="targets.0.metric.*add kingmaking"):
        tune_rules.plan_tuning(path, out_dir=tmp_path / "out")


# ----------------------------------------------------------------------------- end to end

@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A sweep of the start gold (5, 6) on Louis XIV at 3 players, 90 greedy mirror games per
    cell, each cell's run with a kingmaking of 30 games, and the kingmaker target."""
    folder = tmp_path_factory.mktemp("kingmaker_sweep")
    experiment = write_experiment(folder, games=90, kingmaking=30)
    path = write_sweep(folder, experiment, {"metric": "kingmaker_index", "players": [3], "at_most": 0.05})
    plan = sweep.plan_sweep(path, out_dir=folder / "out")
    sweep.run_sweep(plan, log=lambda message: None, progress=False, report=False)
    return plan


def test_a_sweep_cell_asking_for_kingmaking_has_the_kingmaker_index_paired_with_the_printed_cell(swept):
    table = pl.read_parquet(swept.out_dir / sweep.TABLE_FILE).filter(pl.col("metric") == "kingmaker_index")
    assert table["cell"].to_list() == ["cell-000", "cell-001"] and (table["n_players"] == 3).all()
    assert (table["games"] == 30).all()
    assert ((table["low"] <= table["value"]) & (table["value"] <= table["high"])).all()
    assert table.filter(pl.col("cell") == "cell-001")["difference"].is_finite().all()
    samples = [pl.read_parquet(cell.directory(swept.out_dir) / "run" / km.DIRECTORY / km.GAMES_FILE)["game_index"]
               for cell in swept.cells]
    assert samples[0].to_list() == samples[1].to_list()       # the same games sampled in both cells
    statuses = targets.target_status(pl.read_parquet(swept.out_dir / sweep.TABLE_FILE).to_pandas(),
                                     [t.model_dump() for t in swept.sweep.targets])
    assert set(statuses["status"]) <= {targets.MEETS, targets.MAY_MEET, targets.MISSES} and len(statuses) == 2


def test_a_resumed_sweep_does_not_play_a_kingmaking_again(swept):
    assert_resumed_sweep_plays_nothing_again(swept, km.DIRECTORY, km.RECORD_FILE, "kingmaking of")


def test_a_kingmaking_of_an_earlier_run_in_the_directory_is_not_read(swept, tmp_path):
    """The record names the run the results are of: another run since (another identity) has no
    kingmaker index until its own kingmaking is played."""
    import shutil

    run_dir = tmp_path / "run"
    shutil.copytree(swept.cells[0].directory(swept.out_dir) / "run", run_dir)
    from reports.analysis.rundir import load_run
    assert paired_metrics.kingmaking_components(load_run(run_dir), 3) is not None
    record = run_dir / km.DIRECTORY / km.RECORD_FILE
    record.write_text(yaml.safe_dump({**yaml.safe_load(record.read_text()), "run": "another run"}))
    assert paired_metrics.kingmaking_components(load_run(run_dir), 3) is None
    assert not km.played_for(run_dir, 30)


def test_a_small_compare_has_the_kingmaker_index_row(tmp_path):
    experiment = write_experiment(tmp_path, games=60, kingmaking=20)
    plan = compare.plan_comparison(experiment, ["tied_seconds_each_get_gift"], tmp_path / "out")
    compare.run_comparison(plan, log=lambda message: None, progress=False)
    row = pl.read_parquet(tmp_path / "out" / compare.TABLE_FILE).filter(pl.col("metric") == "kingmaker_index")
    assert row.height == 1 and row["n_players"].item() == 3 and row["games"].item() == 20
    assert row["group"].item() == "arc" and row["verdict"].item() in ("real", "not resolved", "smaller than the margin")
