"""One study layer (issue 38): every study plans its cells in memory and plays them through the
runner (sim.studies.cells). The files under a study directory are records of what was played,
never the way a plan reaches the runner; tune-bot plays its candidates through the runner too,
so it has --jobs and --cluster and resumes an interrupted trial's finished chunks."""
import pathlib
from pathlib import Path

import polars as pl
import pytest
import yaml

from courtsim_runs import courtsim
from sim.core import runner as runner_module
from sim.core.engine import ConfigError
from sim.studies import compare, directory, sensitivity, sweep, tune_bot, tune_rules
from study_files import tiny_study_files

QUIET = {"log": lambda message: None, "progress": False}
# the files a study writes as records of its plan and cells: none is read back to play
RECORDS = ("experiment.yaml", "variant.yaml", "sweep.yaml", "tuning.yaml", "sensitivity.yaml", "comparison.yaml")


def reads_of_records(monkeypatch, out_dirs: list[Path]) -> list[Path]:
    """Every record file under ``out_dirs`` read as YAML from now on: through courtsim's YAML
    reader (every experiment, variant and study file courtsim reads) or as text to parse. (A
    record is compared byte for byte before it is written again, so that an unchanged one is left
    alone: that is no reading of the plan.)"""
    from sim.core import yaml_files

    reads: list[Path] = []
    roots = [str(Path(out_dir).resolve()) for out_dir in out_dirs]

    def note(path) -> None:
        path = Path(path)
        if path.name in RECORDS and any(str(path.resolve()).startswith(root + "/") for root in roots):
            reads.append(path)

    def load_yaml_file(path, what, original=yaml_files.load_yaml_file):
        note(path)
        return original(path, what)

    def read_text(self, *arguments, original=pathlib.Path.read_text, **keywords):
        note(self)
        return original(self, *arguments, **keywords)

    monkeypatch.setattr(yaml_files, "load_yaml_file", load_yaml_file)
    monkeypatch.setattr(pathlib.Path, "read_text", read_text)
    return reads


def test_no_study_reads_back_a_file_it_wrote_and_its_cells_records_replay_them(tmp_path, monkeypatch):
    files = tiny_study_files(tmp_path / "files")
    out = {kind: tmp_path / kind for kind in ("compare", "sweep", "tune", "sensitivity", "tune-bot")}
    monkeypatch.setattr("reports.pages.comparison_report.write_comparison_report", lambda directory: None)
    reads = reads_of_records(monkeypatch, list(out.values()))
    for _ in range(2):               # played, then resumed from what is there
        sweep.run_sweep(sweep.plan_sweep(files["sweep"], out_dir=out["sweep"], jobs=1), report=False, **QUIET)
        tune_rules.tune(tune_rules.plan_tuning(files["tuning"], out_dir=out["tune"], jobs=1), report=False, **QUIET)
        sensitivity.run_sensitivity(sensitivity.plan_sensitivity("louis-xiv", files["sensitivity"],
                                                                 out_dir=out["sensitivity"], jobs=1), report=False, **QUIET)
        compare.run_comparison(compare.plan_comparison(files["experiment"], ["second_seat_one_gold_2p"], out["compare"],
                                                       games_per_matchup=20, jobs=1), **QUIET)
        tune_bot.tune(tune_bot.plan_tuning("louis-xiv", 2, ["random"], 3 * 20, out["tune-bot"], games_per_trial=20,
                                           batch=2, seed=1), **QUIET)
    assert reads == []
    monkeypatch.undo()
    # the records say what was played: `courtsim run` on a cell's experiment plays the cell again
    cell = out["sweep"] / "cells" / "cell-000"
    assert yaml.safe_load((cell / "variant.yaml").read_text())["set"] == {"start_gold": 4}
    courtsim("run", str(cell / "experiment.yaml"), "--out", str(tmp_path / "again"))
    assert pl.read_parquet(tmp_path / "again" / "seats.parquet").equals(pl.read_parquet(cell / "run" / "seats.parquet"))
    assert (out["tune-bot"] / "cells" / "trial-0000" / "run" / "seats.parquet").is_dir()     # its parts


def test_a_sweep_plays_its_plan_whatever_its_cells_records_say(tmp_path):
    """The plan reaches the runner from memory: records altered (or gone) change nothing that is
    played, and are written again as the plan says."""
    files = tiny_study_files(tmp_path / "files")
    plan = sweep.plan_sweep(files["sweep"], out_dir=tmp_path / "sweep", jobs=1)
    sweep.run_sweep(plan, report=False, **QUIET)
    table = pl.read_parquet(tmp_path / "sweep" / sweep.TABLE_FILE)
    cell = tmp_path / "sweep" / "cells" / "cell-000"
    expected = {name: (cell / name).read_text() for name in ("experiment.yaml", "variant.yaml")}
    (cell / "experiment.yaml").write_text("name: altered\ngame: louis-xiv\nplayers: [2]\nbots: [random]\n"
                                          "games_per_matchup: 1\n")
    (cell / "variant.yaml").unlink()
    for run in (tmp_path / "sweep" / "cells").glob("*/run"):
        for path in sorted(run.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
    sweep.run_sweep(plan, report=False, **QUIET)
    assert pl.read_parquet(tmp_path / "sweep" / sweep.TABLE_FILE).equals(table)
    assert {name: (cell / name).read_text() for name in expected} == expected


# ----------------------------------------------------------------------------- tune-bot through the runner

def bot_plan(out: Path, jobs: int = 1) -> tune_bot.TuningPlan:
    return tune_bot.plan_tuning("louis-xiv", 3, ["random", "greedy"], 6 * 30, out, games_per_trial=30, batch=2,
                                seed=4, objective="both", jobs=jobs)


def outcome(plan: tune_bot.TuningPlan) -> dict:
    """What a bot tuning leaves: its trials' values and parameters, the bot file and the record."""
    study = tune_bot.open_study(plan)
    return {"trials": [(trial.number, trial.state.name, trial.params, trial.values, trial.user_attrs)
                       for trial in study.get_trials()],
            "bot": (plan.out_dir / f"{plan.name}.yaml").read_text().replace(str(plan.out_dir), "DIR"),
            "record": yaml.safe_load((plan.out_dir / tune_bot.RECORD_FILE).read_text())}


@pytest.fixture(scope="module")
def one_job(tmp_path_factory) -> dict:
    plan = bot_plan(tmp_path_factory.mktemp("one-job") / "out")
    tune_bot.tune(plan, **QUIET)
    return outcome(plan)


def test_tune_bot_with_two_jobs_tunes_the_bot_one_job_does(one_job, tmp_path):
    plan = bot_plan(tmp_path / "out", jobs=2)
    tune_bot.tune(plan, **QUIET)
    assert outcome(plan) == one_job
    manifest = yaml.safe_load((plan.out_dir / "cells" / "trial-0001" / "run" / "run.yaml").read_text())
    assert manifest["status"] == "complete" and manifest["timings"]["jobs"] == 2


def test_courtsim_tune_bot_takes_jobs_and_writes_the_bot_of_one_job(one_job, tmp_path):
    courtsim("tune-bot", "louis-xiv", "--players", "3", "--against", "random,greedy", "--budget", str(6 * 30),
             "--games-per-trial", "30", "--batch", "2", "--seed", "4", "--objective", "both", "--jobs", "2",
             "--out", str(tmp_path / "out"))
    bot = (tmp_path / "out" / "tuned_3p.yaml").read_text().replace(str(tmp_path / "out"), "DIR")
    assert bot.split("\n", 1)[1] == one_job["bot"].split("\n", 1)[1]       # the header names the command
    assert yaml.safe_load((tmp_path / "out" / tune_bot.RECORD_FILE).read_text()) == one_job["record"]


def test_an_interrupted_tune_bot_resumes_its_trials_finished_chunks_and_tunes_the_same_bot(one_job, tmp_path,
                                                                                            monkeypatch):
    """Interrupted (as by Ctrl-C) inside a trial, after some of its chunks: the same plan again
    reuses the finished chunks of that trial's run and the told trials of the study, and ends with
    the uninterrupted tuning's trials, bot and record."""
    plan = bot_plan(tmp_path / "out")
    original, played = runner_module.play_chunk_to_parts, []

    def interrupted(*arguments, **keywords):
        if len(played) == 14:          # trial 0's 12 seatings (a chunk each) and 2 of trial 1's
            raise KeyboardInterrupt
        played.append(arguments[4].first_game)
        return original(*arguments, **keywords)

    monkeypatch.setattr(runner_module, "play_chunk_to_parts", interrupted)
    with pytest.raises(KeyboardInterrupt):
        tune_bot.tune(plan, **QUIET)
    monkeypatch.undo()
    # trial 0 (the starting point) told; trials 1 and 2 (a batch, asked whole) asked and not told
    assert [trial.state.name for trial in tune_bot.open_study(plan).trials] == ["COMPLETE", "RUNNING", "RUNNING"]
    messages = []
    tune_bot.tune(bot_plan(tmp_path / "out"), log=messages.append, progress=False)
    assert any(message.startswith("resuming: reused 2 of ") for message in messages), messages
    assert outcome(plan) == one_job


def test_courtsim_tune_bot_on_a_cluster_writes_the_bot_of_one_job(one_job, tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=":0", silence_logs=40)
    try:
        courtsim("tune-bot", "louis-xiv", "--players", "3", "--against", "random,greedy", "--budget", str(6 * 30),
                 "--games-per-trial", "30", "--batch", "2", "--seed", "4", "--objective", "both",
                 "--cluster", cluster.scheduler_address, "--out", str(tmp_path / "out"))
    finally:
        cluster.close()
    assert yaml.safe_load((tmp_path / "out" / tune_bot.RECORD_FILE).read_text()) == one_job["record"]
    bot = yaml.safe_load((tmp_path / "out" / "tuned_3p.yaml").read_text())
    assert bot["parameters"] == yaml.safe_load(one_job["bot"])["parameters"]


def test_a_bot_tuning_from_before_study_yaml_is_checked_against_the_plan_its_optuna_study_stores(tmp_path):
    """One refusal of another study in a directory (sim.studies.directory.open_study): a tune or
    tune-bot directory without study.yaml is known by its Optuna study, and checked against the
    plan that study stores."""
    plan = tune_bot.plan_tuning("louis-xiv", 2, ["random"], 60, tmp_path / "out", games_per_trial=20, seed=1)
    tune_bot.open_study(plan)                           # its study.db, as tune-bot wrote before study.yaml,
    (plan.out_dir / tune_bot.RECORD_FILE).write_text("best_trial: 0\n")   # and the tuning.yaml tune writes too
    other = tune_bot.plan_tuning("louis-xiv", 2, ["random"], 60, tmp_path / "out", games_per_trial=20, seed=2)
    with pytest.raises(ConfigError, match="holds another bot tuning \\(key 'seed': 1 in the study, 2 now\\)"):
        with directory.open_study(other.out_dir, "tune-bot", tune_bot.plan_record(other), "bot tuning"):
            pass
    assert not (plan.out_dir / directory.STUDY_RECORD).exists()
    with directory.open_study(plan.out_dir, "tune-bot", tune_bot.plan_record(plan), "bot tuning"):
        pass                                            # the same plan: resumed, and recorded from now on
    assert yaml.safe_load((plan.out_dir / directory.STUDY_RECORD).read_text())["kind"] == "tune-bot"
