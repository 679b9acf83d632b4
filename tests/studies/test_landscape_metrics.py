"""The strategy landscape everywhere a metric goes (issue 41): an experiment's ``landscape:`` has
the landscape of each study cell's rules played on the cell's own first games, and its figures
are the cell's metrics: each option's value (paired game by game, so a comparison of a variant
that revives a dead option shows it), the number of dead options ("no option dead") and the
meta-game's top mass and entropy ("no dominant strategy"), as compare metrics and sweep and tune
targets. Synthetic per-game losses of known truth for the estimate and the paired difference; a
small sweep and compare of Louis XIV at 3 players end to end."""
import numpy as np
import polars as pl
import pytest
import yaml

from reports.analysis import landscape_metrics as lm
from reports.analysis import targets
from sim.core.engine import ConfigError
from sim.core.experiments import prepare_experiment
from study_files import assert_resumed_sweep_plays_nothing_again
from sim.studies import cells, compare, sweep, tune_rules

START = {"cell": "cell-001", "pool": "pool"}
VALUE = lm.option_value_metric("lb_skip", "LB-SKIP")


def losses_frame(losses, sampled=None) -> pl.DataFrame:
    """A cell's per-game components of an option's value: its paired loss per game and 1 for a
    game of the option's sample (0 lost of 0 sampled outside it, as paired_metrics fills it)."""
    losses = np.asarray(losses, dtype=float)
    sampled = np.ones(len(losses)) if sampled is None else np.asarray(sampled, dtype=float)
    return pl.DataFrame({"game_index": np.arange(len(losses), dtype=np.int64),
                         f"{lm.OPTION_LOSS}lb_skip": losses * sampled, f"{lm.OPTION_SAMPLED}lb_skip": sampled})


def value_row(frame, reference=None) -> dict:
    rows = cells.metric_rows(START, 3, frame, [VALUE], None if reference is None else ("printed", reference))
    assert len(rows) == 1
    return rows[0]


def paired_losses(rng, games, value) -> np.ndarray:
    """Per game the restricted seat's loss: -1, 0 or 1 (its credit against the mirror seat's),
    of mean ``value``: most games change nothing, as in restricted play."""
    changed = rng.random(games) < 0.3
    sign = np.where(rng.random(games) < 0.5 + value / 0.6, 1.0, -1.0)
    return changed * sign


# ----------------------------------------------------------------------------- the metric on known truth

def test_an_options_value_is_the_mean_paired_loss_of_its_sampled_games_and_may_be_negative():
    """300 sampled games of 1,000 whose losses average -0.04 (the bot wins more without the
    option): the value is -0.04 over those 300 games, and its interval goes below 0 (a difference
    of shares is not kept in [0, 1] as a share is)."""
    sampled = np.zeros(1000)
    sampled[:300] = 1
    losses = np.zeros(1000)
    losses[:12] = -1.0                       # 12 of the 300 sampled games won only without the option
    row = value_row(losses_frame(losses, sampled))
    assert row["value"] == pytest.approx(-12 / 300) and row["games"] == 300
    assert row["low"] < -12 / 300 < row["high"] and row["low"] < 0
    assert row["metric"] == "option_value:lb_skip" and row["group"] == lm.GROUP


def test_a_variant_that_revives_a_dead_option_resolves_its_rise_paired_game_by_game():
    """The printed rules' option changes no game (dead); under the variant switching it off costs
    8 points: the paired difference is the 8 points with an interval above 0."""
    rng = np.random.default_rng(3)
    revived = paired_losses(rng, 2000, 0.08)
    row = value_row(losses_frame(revived), reference=losses_frame(np.zeros(2000)))
    assert row["difference"] == pytest.approx(revived.mean())
    assert 0 < row["difference_low"] < 0.08 < row["difference_high"]


def test_the_paired_difference_interval_covers_the_true_change_over_seeded_repetitions():
    """200 repetitions of 600 games, the option worth 3 points under the printed rules and 8 under
    the variant, the same games changed in both: the 95% interval covers 5 points in at least 92%."""
    covered = 0
    for repetition in range(200):
        rng = np.random.default_rng(repetition)
        changed = rng.random(600) < 0.3
        uniform = rng.random(600)
        printed = changed * np.where(uniform < 0.5 + 0.03 / 0.6, 1.0, -1.0)
        variant = changed * np.where(uniform < 0.5 + 0.08 / 0.6, 1.0, -1.0)
        row = value_row(losses_frame(variant), reference=losses_frame(printed))
        covered += row["difference_low"] <= 0.05 <= row["difference_high"]
    assert covered >= 0.92 * 200


def write_landscape(folder, verdicts, masses, mass_intervals, entropy=(0.0, 0.0, 0.0), identity="run"):
    """A played cell's RUN/landscape with its options' verdicts and the meta-game's equilibrium."""
    directory = folder / lm.DIRECTORY
    directory.mkdir(parents=True)
    pl.DataFrame({"n_players": [3] * len(verdicts), "decision": [f"option_{i}" for i in range(len(verdicts))],
                  "name": [f"option {i}" for i in range(len(verdicts))], "verdict": verdicts,
                  "games": [300] * len(verdicts)}).write_parquet(directory / lm.OPTIONS_FILE)
    pl.DataFrame({"n_players": [3] * len(masses), "strategy": [f"bot_{i}" for i in range(len(masses))],
                  "mass": masses, "mass_low": [low for low, _ in mass_intervals],
                  "mass_high": [high for _, high in mass_intervals]}).write_parquet(directory / lm.EQUILIBRIUM_FILE)
    pl.DataFrame({"n_players": [3], "normalised_entropy": [entropy[0]], "normalised_entropy_low": [entropy[1]],
                  "normalised_entropy_high": [entropy[2]]}).write_parquet(directory / lm.VERDICTS_FILE)
    (directory / lm.RECORD_FILE).write_text(yaml.safe_dump({"run": identity}))
    return directory


def test_dead_options_and_the_equilibriums_top_mass_come_from_the_cells_landscape(tmp_path):
    directory = write_landscape(tmp_path, ["dead", "matters", "dead", "worth little"], [0.7, 0.3],
                                [(0.5, 0.9), (0.1, 0.5)], entropy=(0.88, 0.7, 0.97))
    assert lm.played_landscape(tmp_path, "run") == directory
    assert lm.played_landscape(tmp_path, "another run") is None     # an earlier run's landscape is not read
    rows = {row["metric"]: row for row in lm.meta_rows(directory, 3)}
    assert (rows[lm.DEAD_OPTIONS]["value"], rows[lm.DEAD_OPTIONS]["low"], rows[lm.DEAD_OPTIONS]["high"]) == (2, 2, 2)
    assert (rows[lm.TOP_MASS]["value"], rows[lm.TOP_MASS]["low"], rows[lm.TOP_MASS]["high"]) == (0.7, 0.5, 0.9)
    assert rows[lm.ENTROPY]["value"] == 0.88
    assert lm.meta_rows(directory, 4) == []


@pytest.mark.parametrize("verdicts, masses, intervals, dead_status, dominant_status", [
    (["dead", "matters"], [1.0, 0.0], [(1.0, 1.0), (0.0, 0.0)], targets.MISSES, targets.MISSES),
    (["matters", "matters"], [0.6, 0.4], [(0.45, 0.75), (0.25, 0.55)], targets.MEETS, targets.MEETS),
    (["matters", "worth little"], [0.85, 0.15], [(0.6, 1.0), (0.0, 0.4)], targets.MEETS, targets.MAY_MEET),
])
def test_no_option_dead_and_no_dominant_strategy_are_judged_on_the_cells_rows(tmp_path, verdicts, masses, intervals,
                                                                            dead_status, dominant_status):
    rows = [{**START, **row} for row in lm.meta_rows(write_landscape(tmp_path, verdicts, masses, intervals), 3)]
    no_option_dead = {"metric": "dead_options", "players": [3], "at_most": 0}
    no_dominant_strategy = {"metric": "equilibrium_top_mass", "players": [3], "at_most": 0.9}
    assert targets.evaluate(rows, no_option_dead)[0] == dead_status
    assert targets.evaluate(rows, no_dominant_strategy)[0] == dominant_status


# ----------------------------------------------------------------------------- files and refusals

def write_experiment(folder, games=60, landscape=None, **keys):
    record = {"name": "tuned_three", "game": "louis-xiv", "players": [3], "bots": ["tuned_3p"],
              "matchups": "with_repeats", "games_per_matchup": games, "seed": 6, "jobs": 1, **keys}
    if landscape is not None:
        record["landscape"] = landscape
    path = folder / f"experiment_{len(list(folder.glob('experiment_*.yaml')))}.yaml"
    path.write_text(yaml.safe_dump(record))
    return path


SMALL = {"games": 30, "pool": ["random", "greedy", "tuned"], "options": ["lb_skip", "start_placements"]}


def test_the_landscape_leaves_the_runs_identity_alone(tmp_path):
    asking = prepare_experiment(write_experiment(tmp_path, landscape=SMALL))
    without = prepare_experiment(write_experiment(tmp_path))
    assert asking[4] == without[4]


@pytest.mark.parametrize("landscape, key", [({"games": 30, "options": ["no_such_option"]}, "landscape.options"),
                                            ({"games": 30, "pool": ["random", "no_such_bot"]}, "landscape.pool"),
                                            ({"games": 0}, "landscape.games")])
def test_a_landscape_request_the_game_cannot_play_is_one_line_naming_the_key(tmp_path, landscape, key):
    experiment = write_experiment(tmp_path, landscape=landscape)
    with pytest.raises(ConfigError) as error:
        compare.plan_comparison(experiment, ["tied_seconds_each_get_gift"], tmp_path / "out")
    assert key in str(error.value) and "\n" not in str(error.value)


def write_sweep(folder, experiment, target):
    path = folder / "sweep.yaml"
    path.write_text(yaml.safe_dump({"name": "gold", "experiment": str(experiment),
                                    "grid": [{"path": "start_gold", "values": [5, 6]}], "targets": [target]}))
    return path


@pytest.mark.parametrize("metric", ["dead_options", "equilibrium_top_mass", "option_value:lb_skip", "option_value:*"])
def test_a_landscape_target_without_the_landscape_is_one_line_naming_the_key(tmp_path, metric):
    experiment = write_experiment(tmp_path)
    with pytest.raises(ConfigError) as error:
        sweep.plan_sweep(write_sweep(tmp_path, experiment, {"metric": metric, "at_most": 0}), out_dir=tmp_path / "out")
    text = str(error.value)
    assert "key 'targets.0.metric'" in text and "add landscape: {games: 400}" in text and "\n" not in text
    tuning = tmp_path / "tuning.yaml"
    tuning.write_text(yaml.safe_dump({"name": "gold", "experiment": str(experiment),
                                      "space": [{"path": "start_gold", "range": {"from": 4, "to": 6, "step": 1}}],
                                      "targets": [{"metric": metric, "players": [3], "at_most": 0}],
                                      "trials": 2, "rungs": [10]}))
    with pytest.raises(ConfigError, match="targets.0.metric.*add landscape"):
        tune_rules.plan_tuning(tuning, out_dir=tmp_path / "tuned")
    with pytest.raises(ConfigError, match="--metrics: .*add landscape"):
        compare.plan_comparison(experiment, ["tied_seconds_each_get_gift"], tmp_path / "compared",
                                metrics=["option_value:lb_skip"])


# ----------------------------------------------------------------------------- end to end

@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A sweep of the start gold (5, 6) on Louis XIV at 3 players, 60 tuned mirror games per cell,
    each cell's rules with a landscape of 30 games a match-up (three bots, two options), and the
    targets "no option dead" and "no dominant strategy"."""
    folder = tmp_path_factory.mktemp("landscape_sweep")
    experiment = write_experiment(folder, landscape=SMALL)
    path = folder / "sweep.yaml"
    path.write_text(yaml.safe_dump({"name": "gold", "experiment": str(experiment),
                                    "grid": [{"path": "start_gold", "values": [5, 6]}],
                                    "targets": [{"metric": "dead_options", "at_most": 0},
                                                {"metric": "equilibrium_top_mass", "at_most": 0.9}]}))
    plan = sweep.plan_sweep(path, out_dir=folder / "out")
    sweep.run_sweep(plan, log=lambda message: None, progress=False, report=False)
    return plan


def test_a_sweep_cell_asking_for_the_landscape_has_its_figures_as_metrics_and_targets(swept):
    table = pl.read_parquet(swept.out_dir / sweep.TABLE_FILE)
    found = table.filter(pl.col("group") == lm.GROUP)
    assert set(found["metric"]) == {"dead_options", "equilibrium_top_mass", "equilibrium_entropy",
                                    "option_value:lb_skip", "option_value:start_placements"}
    skip = found.filter(pl.col("metric") == "option_value:lb_skip")
    # no tuned bot takes LB-SKIP: switching it off changes no game in either cell
    assert skip["value"].to_list() == [0.0, 0.0] and (skip["games"] == 30).all()
    assert found.filter((pl.col("cell") == "cell-001") & (pl.col("metric") == "dead_options"))["value"].item() >= 1
    statuses = targets.target_status(table.to_pandas(), [target.model_dump() for target in swept.sweep.targets])
    assert len(statuses) == 4 and (statuses[statuses["target"].str.contains("dead")]["status"] == targets.MISSES).all()
    games = [pl.read_parquet(cell.directory(swept.out_dir) / "run" / lm.DIRECTORY / lm.OPTION_GAMES_FILE)
             .sort("decision", "game_index") for cell in swept.cells]
    assert games[0]["game_index"].to_list() == games[1]["game_index"].to_list()   # the same games in both cells


def test_a_resumed_sweep_does_not_play_a_landscape_again(swept):
    assert_resumed_sweep_plays_nothing_again(swept, lm.DIRECTORY, lm.RECORD_FILE, "landscape of")


def test_a_small_compare_pairs_each_options_value_game_by_game(tmp_path):
    experiment = write_experiment(tmp_path, landscape={**SMALL, "meta_game": False})
    plan = compare.plan_comparison(experiment, ["tied_seconds_each_get_gift"], tmp_path / "out")
    compare.run_comparison(plan, log=lambda message: None, progress=False)
    table = pl.read_parquet(tmp_path / "out" / compare.TABLE_FILE).filter(pl.col("group") == lm.GROUP)
    assert set(table["metric"]) == {"option_value:lb_skip", "option_value:start_placements"}
    skip = table.filter(pl.col("metric") == "option_value:lb_skip").row(0, named=True)
    assert skip["games"] == 30 and skip["difference"] == 0.0


def test_a_cell_runs_report_has_the_strategy_landscape_section(swept, tmp_path):
    from reports.pages.run_report import build_report

    page = build_report(swept.cells[0].directory(swept.out_dir) / "run", tmp_path / "report.html",
                        progress=False).read_text()
    assert 'id="strategy-landscape"' in page and "Strategy landscape: " in page
    assert "Is there a dominant strategy?" in page and "Which rules matter?" in page
