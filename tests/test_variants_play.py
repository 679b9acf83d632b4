"""Rule variants in play (issue 12): each kind of variant changes the engine as intended, a
variant without overrides plays the very same games, a variant of a late rule leaves each game
identical up to that rule, and `courtsim compare` pairs the arms on common random numbers,
resumes, and decides with ``--until-resolved``. The variant files are written in tmp_path; the
games are few (a few hundred, two players, greedy bots)."""
from __future__ import annotations

import math
import shutil

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli
from sim.studies.compare import PLAN_FILE, TABLE_FILE, plan_comparison, run_comparison
from variant_files import HEADS_OF_STATE, LOUIS_XIV, write_variant

runner = CliRunner()
GAMES = 200


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args], terminal_width=400)


def assert_user_error(result, message=""):
    """Exit 2, one stderr line ``error: ...`` holding ``message``, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0], lines[0]
    return lines[0]


def simulate(game, out, *options, games=GAMES):
    """``courtsim simulate GAME`` of ``games`` two-player greedy games (seed 11) into ``out``."""
    result = invoke("simulate", game, "--players", 2, "--bots", "greedy", "--games", games, "--seed", 11,
                    "--out", out, *options)
    assert result.exit_code == 0, result.output
    return out


def table(run, name) -> pl.DataFrame:
    return pl.read_parquet(run / f"{name}.parquet")


def run_yaml(run) -> dict:
    return yaml.safe_load((run / "run.yaml").read_text(encoding="utf-8"))


def by_game(frame: pl.DataFrame, *keys) -> pl.DataFrame:
    return frame.sort("game_index", *keys)


# ----------------------------------------------------------------------------- Louis XIV runs

@pytest.fixture(scope="module")
def louis_runs(tmp_path_factory):
    """The printed game and variants of it, the same 200 two-player greedy games each."""
    folder = tmp_path_factory.mktemp("louis_variants")
    variant_files = {
        "as_printed": write_variant(folder, "as_printed"),
        "imaginary_crowd": write_variant(folder, "imaginary_crowd",
                                         set={"imaginary_player.markers": 12, "imaginary_player.per_card": 3}),
        "gold_buys_coats": write_variant(folder, "gold_buys_coats", set={"gold_per_coat_at_end": 1}),
        "cheap_colbert": write_variant(folder, "cheap_colbert", set={"courtiers.Colbert.side_b.value": 1}),
    }
    runs = {"printed": simulate(LOUIS_XIV, folder / "printed")}
    for name, path in variant_files.items():
        runs[name] = simulate(LOUIS_XIV, folder / name, "--variant", path)
    return runs, variant_files


def test_simulate_with_a_variant_records_it_in_run_yaml(louis_runs):
    runs, variant_files = louis_runs
    manifest = run_yaml(runs["imaginary_crowd"])
    assert manifest["config"]["setup"]["variant"] == {
        "name": "imaginary_crowd", "extends": [], "rules": {},
        "set": {"imaginary_player.markers": 12, "imaginary_player.per_card": 3}}
    assert manifest["config"]["setup"]["game_data"]["imaginary_player"]["markers"] == 12
    assert manifest["provenance"]["variant_file"] == str(variant_files["imaginary_crowd"])
    assert manifest["provenance"]["variant_description"] == "the imaginary_crowd test variant"
    assert "variant" not in run_yaml(runs["printed"])["config"]["setup"]


def test_a_larger_imaginary_player_shows_in_the_courtiers_table(louis_runs):
    """§8: more imaginary markers, and more per revealed card, stand on the courtiers."""
    runs, _ = louis_runs
    printed = table(runs["printed"], "courtiers")["markers_imaginary"].mean()
    crowd = table(runs["imaginary_crowd"], "courtiers")["markers_imaginary"].mean()
    assert crowd > printed * 1.2, (printed, crowd)


def test_a_variant_without_overrides_plays_the_very_same_games(louis_runs):
    runs, _ = louis_runs
    for name in ("games", "seats", "courtiers"):
        assert table(runs["as_printed"], name).equals(table(runs["printed"], name)), name


def test_gold_to_coats_at_the_end_leaves_every_round_identical_and_changes_final_scores(louis_runs):
    """§7.1's 3 gold per coat is used by the final conversion only (no bot reads it), so every
    round of every game is played alike; only the final scores (and what follows) differ."""
    runs, _ = louis_runs
    printed_courtiers, late_courtiers = (by_game(table(runs[name], "courtiers"), "round", "courtier")
                                         for name in ("printed", "gold_buys_coats"))
    assert late_courtiers.equals(printed_courtiers)
    rounds = [column for column in table(runs["printed"], "seats").columns if column.startswith("score_after_round_")]
    assert len(rounds) == 4
    printed_seats, late_seats = (by_game(table(runs[name], "seats"), "seat")
                                 for name in ("printed", "gold_buys_coats"))
    assert late_seats.select("game_index", "seat", *rounds).equals(printed_seats.select("game_index", "seat", *rounds))
    assert late_seats["coats_from_conversion"].mean() > printed_seats["coats_from_conversion"].mean()
    changed_games = late_seats.filter(late_seats["score"] != printed_seats["score"])["game_index"].n_unique()
    assert changed_games > GAMES // 4, changed_games


def test_common_random_numbers_keep_each_game_identical_until_the_change_bites(louis_runs):
    """Colbert's side B bribe (§5) matters only once his tile has flipped, at the earliest in the
    first evaluation: round 1 of every game is the printed game's, later rounds diverge."""
    runs, _ = louis_runs
    printed, cheap = (by_game(table(runs[name], "courtiers"), "round", "courtier") for name in ("printed", "cheap_colbert"))
    first_round = pl.col("round") == 1
    assert cheap.filter(first_round).equals(printed.filter(first_round))
    later = printed.filter(~first_round).join(cheap.filter(~first_round), on=["game_index", "round", "courtier"],
                                             suffix="_variant")
    differs = pl.any_horizontal([pl.col(column).ne_missing(pl.col(f"{column}_variant"))
                                 for column in printed.columns if column not in ("game_index", "round", "courtier")])
    assert later.filter(differs)["game_index"].n_unique() > GAMES // 4


# ----------------------------------------------------------------------------- Heads of State runs

def assassination_successes(run) -> tuple[int, int]:
    """(attempts, successes) of the plays resolved by the bag (card types assassin and mixed)."""
    attempts = table(run, "betrayals").filter(pl.col("card_type").cast(pl.String).is_in(["assassin", "mixed"]))
    return attempts.height, int(attempts["success"].sum())


@pytest.mark.parametrize("own_cubes, target_cubes", [(4, 1), (1, 1)])
def test_the_assassin_bag_realises_its_odds(tmp_path, own_cubes, target_cubes):
    """§4.4: an assassination succeeds when an own cube is drawn from the bag."""
    variant = write_variant(tmp_path, f"bag_{own_cubes}_{target_cubes}", HEADS_OF_STATE,
                            set={"assassin_bag.own_cubes": own_cubes, "assassin_bag.target_cubes": target_cubes})
    attempts, successes = assassination_successes(simulate(HEADS_OF_STATE, tmp_path / "run", "--variant", variant))
    odds = own_cubes / (own_cubes + target_cubes)
    assert attempts >= 300, attempts
    standard_error = math.sqrt(odds * (1 - odds) / attempts)
    assert abs(successes / attempts - odds) < 4 * standard_error, (successes, attempts, odds)


@pytest.fixture(scope="module")
def heads_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("heads_variants")
    doubled = {"baron": 8, "count": 12, "earl": 16, "margrave": 20, "duke": 24, "archduke": 28, "king": 32}
    majorities = write_variant(folder, "double_majorities", HEADS_OF_STATE, set={"majority_points": doubled})
    return {"printed": simulate(HEADS_OF_STATE, folder / "printed"),
            "double_majorities": simulate(HEADS_OF_STATE, folder / "double_majorities", "--variant", majorities)}


def test_end_game_majorities_leave_every_round_identical_and_change_final_scores(heads_runs):
    """§6.5: the noble-card majorities are scored after the last round only (no bot reads their
    points), so every betrayal and every country scoring of every round is the same."""
    printed, doubled = heads_runs["printed"], heads_runs["double_majorities"]
    for name, keys in (("betrayals", ()), ("country_scoring", ("round", "country"))):
        assert by_game(table(doubled, name), *keys).equals(by_game(table(printed, name), *keys)), name
    printed_seats, doubled_seats = (by_game(table(run, "seats"), "seat") for run in (printed, doubled))
    rounds = [column for column in printed_seats.columns if column.startswith("score_after_round_")]
    assert rounds and doubled_seats.select(rounds).equals(printed_seats.select(rounds))
    assert (doubled_seats["score_noble_card_majority"] == 2 * printed_seats["score_noble_card_majority"]).all()
    assert (doubled_seats["score"] != printed_seats["score"]).any()


# ----------------------------------------------------------------------------- the command line

def test_replay_under_a_late_rule_variant_differs_only_at_the_end(louis_runs):
    """The replay of game 0 under ``gold_per_coat_at_end: 1`` is the printed game's log line for
    line until the final conversion, which turns more gold into coats."""
    _, variant_files = louis_runs
    logs = []
    for options in ([], ["--variant", variant_files["gold_buys_coats"]]):
        result = invoke("replay", LOUIS_XIV, "--seed", 11, "--game", 0, "--players", 2, "--bots", "greedy", *options)
        assert result.exit_code == 0, result.output
        logs.append(result.stdout.splitlines())
    printed, late = logs
    end = next(number for number, line in enumerate(printed) if line.startswith("End:"))
    assert late[:end] == printed[:end]
    assert late[end:] != printed[end:]      # (more coats drawn: the trace names each coat's kind, so it may be longer)


@pytest.mark.parametrize("command", ["simulate", "replay", "bench", "run"])
def test_an_unknown_variant_is_one_line_for_every_command(tmp_path, command):
    arguments = {"simulate": ["simulate", LOUIS_XIV, "--players", 2, "--games", 2, "--out", tmp_path / "run"],
                 "replay": ["replay", LOUIS_XIV, "--seed", 0, "--game", 0, "--players", 2],
                 "bench": ["bench", LOUIS_XIV, "--players", 2, "--games", 10],
                 "run": ["run", experiment_file(tmp_path)]}[command]
    assert_user_error(invoke(*arguments, "--variant", "no_such_variant"), "unknown variant 'no_such_variant'")


def test_an_unknown_variant_is_one_line(tmp_path):
    result = invoke("simulate", LOUIS_XIV, "--players", 2, "--games", 2, "--variant", "no_such_variant",
                    "--out", tmp_path / "run")
    assert_user_error(result, "--variant: unknown variant 'no_such_variant' of louis-xiv")
    assert not (tmp_path / "run").exists()


def test_a_variant_of_the_other_game_is_one_line(tmp_path):
    variant = write_variant(tmp_path, "bag", HEADS_OF_STATE, set={"assassin_bag.own_cubes": 2})
    result = invoke("simulate", LOUIS_XIV, "--players", 2, "--games", 2, "--variant", variant, "--out", tmp_path / "run")
    assert_user_error(result, f"{variant}: key 'game': expected a variant of louis-xiv")


def test_an_invalid_variant_is_one_line_naming_its_file_and_path(tmp_path):
    variant = write_variant(tmp_path, "broken", set={"adjacency.5": [4]})
    result = invoke("simulate", LOUIS_XIV, "--players", 2, "--games", 2, "--variant", variant, "--out", tmp_path / "run")
    assert_user_error(result, f"{variant}: key 'set.adjacency.5': ")


def test_variants_list_runs_for_each_game():
    for game in (LOUIS_XIV, HEADS_OF_STATE):
        result = invoke("variants", "list", game)
        assert result.exit_code == 0, result.output
        assert "variant" in result.stdout and "description" in result.stdout


def test_variants_list_of_an_unknown_game_is_one_line():
    assert_user_error(invoke("variants", "list", "chess"), "chess")


def test_variants_show_prints_each_override_with_the_printed_and_the_variant_value(tmp_path):
    variant = write_variant(tmp_path, "colbert_cheaper", set={"courtiers.Colbert.side_b.value": 1},
                            rules={"strict_supplies": True})
    result = invoke("variants", "show", variant)
    assert result.exit_code == 0, result.output
    assert "colbert_cheaper" in result.stdout and "the colbert_cheaper test variant" in result.stdout
    line = next(line for line in result.stdout.splitlines() if "courtiers.Colbert.side_b.value" in line)
    assert line.split("courtiers.Colbert.side_b.value")[1].split()[:3] == ["│", "3", "│"], line
    assert line.rstrip(" │").endswith("1"), line
    rule_line = next(line for line in result.stdout.splitlines() if "rules.strict_supplies" in line)
    assert "false" in rule_line and "true" in rule_line


def test_variants_show_refuses_an_invalid_variant_in_one_line(tmp_path):
    variant = write_variant(tmp_path, "too_poor", set={"start_gold": -1})
    assert_user_error(invoke("variants", "show", variant), f"{variant}: key 'set.start_gold': ")


def experiment_file(tmp_path, **fields):
    """A tiny two-player Louis XIV experiment (greedy against random) in tmp_path."""
    text = {"name": "tiny", "game": LOUIS_XIV, "players": [2], "bots": ["greedy", "random"],
            "games_per_matchup": 100, "chunk_size": 50, "seed": 5, "jobs": 1,
            "out": str(tmp_path / "experiment_run")} | fields
    path = tmp_path / f"{text['name']}.yaml"
    path.write_text(yaml.safe_dump(text), encoding="utf-8")
    return path


def test_an_experiment_plays_its_variant_and_run_variant_replaces_it(tmp_path):
    own = write_variant(tmp_path, "rich_start", set={"start_gold": 8})
    other = write_variant(tmp_path, "poor_start", set={"start_gold": 2})
    experiment = experiment_file(tmp_path, variant=str(own), games_per_matchup=4, chunk_size=2)
    assert invoke("run", experiment).exit_code == 0
    manifest = run_yaml(tmp_path / "experiment_run")
    setup = manifest["config"]["setup"]
    assert setup["variant"]["name"] == "rich_start" and setup["game_data"]["start_gold"] == 8
    assert manifest["provenance"]["variant_file"] == str(own)
    other_rules = invoke("run", experiment, "--variant", other)   # the same directory, other rules
    assert_user_error(other_rules, "already holds a different run")
    assert "setup.game_data.start_gold': 8 in the run, 2 now" in other_rules.stderr
    assert run_yaml(tmp_path / "experiment_run")["config"]["setup"]["variant"]["name"] == "rich_start"
    result = invoke("run", experiment, "--variant", other, "--out", tmp_path / "replaced")
    assert result.exit_code == 0, result.output
    setup = run_yaml(tmp_path / "replaced")["config"]["setup"]
    assert setup["variant"]["name"] == "poor_start" and setup["game_data"]["start_gold"] == 2


def test_an_experiment_with_an_unknown_variant_is_one_line_naming_its_key(tmp_path):
    experiment = experiment_file(tmp_path, variant="no_such_variant")
    assert_user_error(invoke("run", experiment), f"{experiment}: key 'variant': unknown variant 'no_such_variant'")


@pytest.mark.parametrize("options, message", [
    (["--variants", "no_such_variant"], "--variants: unknown variant 'no_such_variant'"),
    (["--variants", ""], "--variants: expected one or more variant names"),
    (["--variants", "{noop},{noop}"], "--variants: expected each variant once"),
    (["--variants", "{noop}", "--metrics", "first_player_win_rate,no_such_metric"],
     "--metrics: unknown metric no_such_metric"),
    (["--variants", "{noop}", "--metrics", "seat_1_win_rate"],
     "--metrics: seat_1_win_rate is now first_player_win_rate (players are named by turn order)"),
    (["--variants", "{noop}", "--metrics", "start_player_win_rate"],
     "--metrics: start_player_win_rate is now first_player_win_rate (players are named by turn order)"),
    (["--variants", "{noop}", "--margin", "0"], "--margin: expected a number between 0 and 1"),
    (["--variants", "{noop}", "--adjust", "x"], "--adjust: expected holm or fdr_bh, found 'x'"),
    (["--variants", "{noop}", "--max-games", "0"], "--max-games"),
])
def test_compare_refuses_bad_options_in_one_line_before_playing(tmp_path, options, message):
    noop = write_variant(tmp_path, "noop")
    options = [option.replace("{noop}", str(noop)) for option in options]
    result = invoke("compare", experiment_file(tmp_path), *options, "--out", tmp_path / "comparison")
    assert_user_error(result, message)
    assert not (tmp_path / "comparison" / "runs").exists()


# ----------------------------------------------------------------------------- courtsim compare

@pytest.fixture(scope="module")
def noop_comparison(tmp_path_factory):
    """A comparison of a variant without overrides with the printed game: 100 games."""
    folder = tmp_path_factory.mktemp("noop_comparison")
    plan = plan_comparison(experiment_file(folder), [str(write_variant(folder, "noop"))], folder / "comparison", jobs=1)
    run_comparison(plan, log=lambda message: None, progress=False)
    return folder


def test_a_variant_without_overrides_differs_by_zero_on_every_metric(noop_comparison):
    comparison = pl.read_parquet(noop_comparison / "comparison" / TABLE_FILE)
    assert comparison.height > 25 and set(comparison["variant"]) == {"noop"}
    assert (comparison["games"] == 100).all()
    assert comparison.filter(pl.col("difference") != 0).is_empty(), comparison.filter(pl.col("difference") != 0)
    assert comparison.filter(pl.col("baseline_value") != pl.col("variant_value")).is_empty()
    assert (comparison["verdict"] != "real").all()


def test_a_comparison_run_again_resumes_and_writes_the_same_table(noop_comparison):
    folder = noop_comparison
    before = pl.read_parquet(folder / "comparison" / TABLE_FILE)
    messages = []
    plan = plan_comparison(folder / "tiny.yaml", [str(folder / "noop.yaml")], folder / "comparison", jobs=1)
    run_comparison(plan, log=messages.append, progress=False)
    assert sum("already holds this completed run" in message for message in messages) == 2, messages
    assert pl.read_parquet(folder / "comparison" / TABLE_FILE).equals(before)
    assert yaml.safe_load((folder / "comparison" / PLAN_FILE).read_text())["status"] == "complete"


def test_compare_on_the_command_line_prints_the_verdicts(noop_comparison):
    folder = noop_comparison
    result = invoke("compare", folder / "tiny.yaml", "--variants", folder / "noop.yaml", "--out", folder / "comparison")
    assert result.exit_code == 0, result.output
    assert result.stderr.count("already holds this completed run") == 2
    rows = pl.read_parquet(folder / "comparison" / TABLE_FILE).height
    # 100 identical games cannot show that a change is smaller than a 0.01 margin (issue 37)
    assert f"{rows} not resolved (of {rows}); report: " in " ".join(result.stdout.split())


def seat_experiment(folder, games_per_matchup):
    """Greedy against greedy: the seats alone make the difference."""
    return experiment_file(folder, name="greedy_pair", bots=["greedy"], matchups="with_repeats",
                           games_per_matchup=games_per_matchup, chunk_size=250)


def test_until_resolved_decides_a_large_change_of_seat_win_rates_is_real(tmp_path):
    """The second player putting 14 of its 16 markers into the general supply (printed: 6) makes
    the first player win almost every game (~65% as printed): real against a 5-point margin."""
    variant = write_variant(tmp_path, "seat_2_starved", set={"general_supply_at_start.2": [1, 14]})
    plan = plan_comparison(seat_experiment(tmp_path, 500), [str(variant)], tmp_path / "comparison", jobs=1,
                           until_resolved=True, margin=0.05, max_games=4000)
    run_comparison(plan, log=lambda message: None, progress=False)
    comparison = pl.read_parquet(tmp_path / "comparison" / TABLE_FILE)
    first = comparison.filter(pl.col("metric") == "first_player_win_rate").row(0, named=True)
    assert first["verdict"] == "real" and first["difference"] > 0.2, first
    record = yaml.safe_load((tmp_path / "comparison" / PLAN_FILE).read_text())
    decisions = {entry["metric"]: entry for entry in record["sequential"]}
    assert set(decisions) == {"first_player_win_rate"}   # at 2 players the second would only repeat the first
    assert all(entry["decision"] == "real" for entry in decisions.values())
    assert decisions["first_player_win_rate"]["games"] == first["games"] < 4000
    assert record["method"]["until_resolved"] is True and record["method"]["batches"] == first["games"] // 500


def test_until_resolved_stops_at_the_budget_when_nothing_changes(tmp_path):
    variant = write_variant(tmp_path, "noop")
    plan = plan_comparison(seat_experiment(tmp_path, 100), [str(variant)], tmp_path / "comparison", jobs=1,
                           until_resolved=True, margin=0.05, max_games=200)
    run_comparison(plan, log=lambda message: None, progress=False)
    comparison = pl.read_parquet(tmp_path / "comparison" / TABLE_FILE)
    seats = comparison.filter(pl.col("metric").is_in(["first_player_win_rate", "second_player_win_rate"]))
    assert set(seats["verdict"]) <= {"not resolved", "smaller than the margin"}, seats
    assert (seats["games"] == 200).all()
    record = yaml.safe_load((tmp_path / "comparison" / PLAN_FILE).read_text())
    assert record["method"]["batches"] == 2
    assert {entry["decision"] for entry in record["sequential"]} <= {"continue", "smaller than the margin"}


def test_a_heads_of_state_comparison_pairs_its_games_and_sees_the_assassin_bag(tmp_path):
    """Two variants on common random numbers: one without overrides (zero difference on every
    metric, Heads of State's mechanics included) and the 4 + 1 bag (assassinations succeed about
    4/5 of the time instead of 3/4: a real difference)."""
    noop = write_variant(tmp_path, "noop", HEADS_OF_STATE)
    bag = write_variant(tmp_path, "bag_4_1", HEADS_OF_STATE,
                        set={"assassin_bag.own_cubes": 4, "assassin_bag.target_cubes": 1})
    experiment = experiment_file(tmp_path, name="heads_pair", game=HEADS_OF_STATE, bots=["greedy"],
                                 matchups="with_repeats", games_per_matchup=200, chunk_size=100)
    plan = plan_comparison(experiment, [str(noop), str(bag)], tmp_path / "comparison", jobs=1)
    run_comparison(plan, log=lambda message: None, progress=False)
    comparison = pl.read_parquet(tmp_path / "comparison" / TABLE_FILE)
    unchanged = comparison.filter(pl.col("variant") == "noop")
    assert unchanged.height > 25 and unchanged.filter(pl.col("difference") != 0).is_empty()
    assert "assassination_success" in unchanged["metric"].to_list()
    success = comparison.filter((pl.col("variant") == "bag_4_1") & (pl.col("metric") == "assassination_success"))
    row = success.row(0, named=True)
    attempts = row["games"] * 10    # greedy pairs attempt ~11 assassinations a game
    for value, odds in ((row["baseline_value"], 3 / 4), (row["variant_value"], 4 / 5)):
        assert abs(value - odds) < 4 * math.sqrt(odds * (1 - odds) / attempts), (value, odds)
    assert row["verdict"] == "real" and row["difference"] > 0, row


def test_an_experiments_variant_is_the_baseline_and_baseline_option_replaces_it(tmp_path):
    """The arms of a comparison: the experiment's ``variant:`` (or ``--baseline``) is the baseline,
    each compared variant is played instead of it (not on top of it; ``extends`` layers)."""
    rich = write_variant(tmp_path, "rich_start", set={"start_gold": 9})
    poor = write_variant(tmp_path, "poor_start", set={"start_gold": 2})
    noop = write_variant(tmp_path, "noop")
    experiment = experiment_file(tmp_path, variant=str(rich), games_per_matchup=10, chunk_size=10)
    for baseline, expected in ((None, ("rich_start", 9)), (str(poor), ("poor_start", 2))):
        out = tmp_path / f"comparison_{expected[0]}"
        plan = plan_comparison(experiment, [str(noop)], out, baseline=baseline, jobs=1)
        assert plan.baseline.name == expected[0]
        run_comparison(plan, log=lambda message: None, progress=False)
        baseline_setup = run_yaml(out / "runs" / expected[0] / "batch-000")["config"]["setup"]
        assert (baseline_setup["variant"]["name"], baseline_setup["game_data"]["start_gold"]) == expected
        noop_setup = run_yaml(out / "runs" / "noop" / "batch-000")["config"]["setup"]
        assert (noop_setup["variant"]["name"], noop_setup["game_data"]["start_gold"]) == ("noop", 5)
        assert yaml.safe_load((out / PLAN_FILE).read_text())["baseline"]["name"] == expected[0]


def test_compare_refuses_the_baseline_among_the_variants(tmp_path):
    rich = write_variant(tmp_path, "rich_start", set={"start_gold": 9})
    result = invoke("compare", experiment_file(tmp_path), "--variants", rich, "--baseline", rich,
                    "--out", tmp_path / "comparison")
    assert_user_error(result, "--variants: rich_start is the baseline")


def test_until_resolved_finds_a_variant_without_overrides_smaller_than_the_margin(tmp_path):
    """Identical games differ by exactly zero: once the sequential test may decide (1,000
    paired games), the difference is smaller than any margin."""
    variant = write_variant(tmp_path, "noop")
    plan = plan_comparison(seat_experiment(tmp_path, 500), [str(variant)], tmp_path / "comparison", jobs=1,
                           until_resolved=True, margin=0.05, max_games=4000)
    run_comparison(plan, log=lambda message: None, progress=False)
    record = yaml.safe_load((tmp_path / "comparison" / PLAN_FILE).read_text())
    # the first player's win rate (the second player's repeats it at 2 players)
    assert [entry["decision"] for entry in record["sequential"]] == ["smaller than the margin"]
    assert record["method"]["batches"] == 2 and {entry["games"] for entry in record["sequential"]} == {1000}


def test_until_resolved_stops_playing_a_decided_variant_and_resumes_to_the_same_decisions(tmp_path):
    """The starved seat is decided after 1,000 games and plays no further batch while a small
    change (6 start gold instead of 5) plays on; a comparison interrupted before its last batch
    resumes to the very same decisions and table."""
    starved = write_variant(tmp_path, "seat_2_starved", set={"general_supply_at_start.2": [1, 14]})
    small = write_variant(tmp_path, "small_change", set={"start_gold": 6})

    def compare():
        plan = plan_comparison(seat_experiment(tmp_path, 500), [str(starved), str(small)], tmp_path / "comparison",
                               jobs=1, until_resolved=True, margin=0.05, max_games=2000)
        run_comparison(plan, log=lambda message: None, progress=False)
        return (yaml.safe_load((tmp_path / "comparison" / PLAN_FILE).read_text()),
                pl.read_parquet(tmp_path / "comparison" / TABLE_FILE))

    record, comparison = compare()
    runs = record["runs"]
    assert len(runs["seat_2_starved"]) == 2 and len(runs["baseline"]) == len(runs["small_change"]) > 2
    starved_rows = comparison.filter((pl.col("variant") == "seat_2_starved") & (pl.col("group") == "seats"))
    assert (starved_rows["games"] == 1000).all()
    last_batch = tmp_path / "comparison" / "runs" / "small_change" / f"batch-{len(runs['small_change']) - 1:03d}"
    shutil.rmtree(last_batch)      # its run: run.yaml, the tables' directories of parts, their entries
    resumed_record, resumed = compare()
    assert resumed_record["sequential"] == record["sequential"] and resumed_record["runs"] == runs
    assert resumed.equals(comparison)
