"""Results unchanged across a restructuring: play a fixed set of runs and studies with one build,
then compare their tables column by column with another build's.

    python benchmarks/same_tables.py play  DIR     # with the build to check (cwd = its checkout)
    python benchmarks/same_tables.py check OLD NEW # every table of OLD against NEW's

``play`` runs ``simulate`` for both games at every player count with several bots (fixed start
player and drawn), a small ``run`` of a skill ladder, and a small compare, sweep, tune,
sensitivity and tune-bot. ``check`` reads every Parquet file (runs' tables, studies' tables) with
polars and compares column names, types and values (not the files' bytes, which hold write
times); study records (the tuned bot's parameters, recommended variants) are compared as YAML.
Exits 1 on the first build that differs, listing every difference.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import yaml

LOUIS_XIV_BOTS = {2: "greedy,random", 3: "greedy,crown_hunter,random", 4: "greedy,gold_briber,mission_racer,random"}
HEADS_OF_STATE_BOTS = {2: "greedy,random", 3: "greedy,assassin,random", 4: "greedy,king_builder,country_dominator,random",
                       5: "greedy,early_expander,assassin,random,greedy"}


def commands(out: Path, experiments: Path) -> list[list[str]]:
    """Every command ``play`` runs, each writing under ``out``."""
    listed = []
    for game, prefix, pools, games, seed, chunk_size in (("louis-xiv", "lx", LOUIS_XIV_BOTS, "400", "11", "150"),
                                                         ("heads-of-state", "hos", HEADS_OF_STATE_BOTS, "300", "13", "120")):
        for players, bots in pools.items():
            for rule in ("random_start_player=false", "random_start_player=true"):
                name = f"{prefix}_{players}p_{rule.split('=')[1]}"
                listed.append(["simulate", game, "--players", str(players), "--games", games, "--bots", bots,
                               "--seed", seed, "--chunk-size", chunk_size, "--rule", rule, "--out", str(out / name)])
    listed.append(["simulate", "louis-xiv", "--players", "2", "--games", "12", "--bots", "search,greedy",
                   "--seed", "5", "--out", str(out / "lx_search")])
    listed.append(["simulate", "heads-of-state", "--players", "3", "--games", "8", "--bots", "search,greedy,random",
                   "--seed", "5", "--out", str(out / "hos_search")])
    listed.append(["simulate", "heads-of-state", "--players", "2", "--games", "300", "--variant",
                   "second_player_points_2p", "--seed", "2", "--out", str(out / "hos_variant")])
    experiment = experiments / "two_greedy.yaml"
    listed.append(["run", str(experiment), "--out", str(out / "run_two_greedy")])
    listed.append(["compare", str(experiment), "--variants", "second_seat_one_gold_2p,imaginary_six_markers_2p",
                   "--games-per-matchup", "60", "--jobs", "1", "--out", str(out / "compare")])
    listed.append(["compare", "heads_of_state_2p_tweaks", "--variants", "second_player_points_2p",
                   "--games-per-matchup", "30", "--jobs", "1", "--out", str(out / "compare_hos")])
    listed.append(["sweep", str(experiments / "sweep.yaml"), "--jobs", "1", "--out", str(out / "sweep")])
    listed.append(["tune", str(experiments / "tuning.yaml"), "--jobs", "1", "--out", str(out / "tune")])
    listed.append(["sensitivity", "louis-xiv", str(experiments / "sensitivity.yaml"), "--jobs", "1",
                   "--out", str(out / "sensitivity")])
    listed.append(["tune-bot", "louis-xiv", "--players", "2", "--against", "greedy,coat_hoarder", "--budget", "80",
                   "--games-per-trial", "20", "--batch", "2", "--seed", "1", "--out", str(out / "tune_bot")])
    return listed


def write_study_files(folder: Path) -> None:
    """The small experiment and studies ``play`` uses (the study tests' tiny files)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.study_files import tiny_study_files
    tiny_study_files(folder)


def play(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    experiments = out / "files"
    write_study_files(experiments)
    for command in commands(out, experiments):
        print("courtsim", " ".join(command), flush=True)
        finished = subprocess.run([sys.executable, "-c", "import sys; from cli import app; sys.argv[0] = 'courtsim'; app()",
                                   *command], capture_output=True, text=True)
        if finished.returncode != 0:
            sys.exit(f"failed ({finished.returncode}): {finished.stderr.strip()[-2000:]}")


def tables_under(root: Path) -> set[Path]:
    """Every table under ``root`` (relative): a run's table is a directory ``<table>.parquet`` of
    parts (one file in builds before datasets), a study's a file; parts are not tables."""
    return {path.relative_to(root) for path in root.rglob("*.parquet")
            if "parts" not in path.relative_to(root).parts and not path.parent.name.endswith(".parquet")}


def differences(old: Path, new: Path) -> list[str]:
    found = []
    old_files, new_files = tables_under(old), tables_under(new)
    found += [f"only in {old}: {path}" for path in sorted(old_files - new_files)]
    for path in sorted(old_files & new_files):
        found += table_differences(path, pl.read_parquet(old / path), pl.read_parquet(new / path))
    for path in sorted(old.rglob("*.yaml")):
        relative = path.relative_to(old)
        if relative.parts[0] == "tune_bot" and (new / relative).is_file():
            if yaml.safe_load(path.read_text()) != yaml.safe_load((new / relative).read_text()):
                found.append(f"{relative}: differs")
    for path in sorted(old.rglob("study.db")):
        relative = path.relative_to(old)
        if (new / relative).is_file() and trial_values(path) != trial_values(new / relative):
            found.append(f"{relative}: trial values {trial_values(path)} -> {trial_values(new / relative)}")
    return found


def trial_values(path: Path) -> list:
    """An Optuna study's finished trials: (number, objective index, value), in order."""
    import sqlite3

    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT trials.number, trial_values.objective, trial_values.value FROM trials "
                                  "JOIN trial_values ON trials.trial_id = trial_values.trial_id "
                                  "ORDER BY trials.number, trial_values.objective").fetchall()


def table_differences(path: Path, old: pl.DataFrame, new: pl.DataFrame) -> list[str]:
    if old.columns != new.columns:
        return [f"{path}: columns {old.columns} -> {new.columns}"]
    if old.height != new.height:
        return [f"{path}: {old.height} rows -> {new.height}"]
    found = []
    for column in old.columns:
        if old[column].dtype != new[column].dtype:
            found.append(f"{path}: {column} {old[column].dtype} -> {new[column].dtype}")
        elif not old[column].equals(new[column], check_names=True):
            found.append(f"{path}: {column} values differ")
    return found


def check(old: Path, new: Path) -> None:
    """Every table of OLD is in NEW with the same columns, types and values (a table only NEW
    writes, such as a study's new run directories, is listed, not a difference)."""
    found = differences(old, new)
    tables = sorted(tables_under(old))
    added = sorted(tables_under(new) - set(tables))
    if found:
        print("\n".join(found))
        sys.exit(1)
    print(f"{len(tables)} tables, every column identical"
          + (f"; {len(added)} tables only the new build writes (under {', '.join(sorted({str(path.parts[0]) for path in added}))})"
             if added else ""))


if __name__ == "__main__":
    if sys.argv[1:2] == ["play"]:
        play(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["check"]:
        check(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
