"""Files the study tests share: a tiny two-player Louis XIV experiment of greedy mirror games, and
tiny studies of every kind over it with the command that plays each."""
from pathlib import Path

import yaml


def write_two_greedy_experiment(folder: Path, games: int = 40, chunk_size: int = 20) -> Path:
    """``folder/two_greedy.yaml``: greedy against greedy at 2 players, ``games`` games, seed 3."""
    path = Path(folder) / "two_greedy.yaml"
    path.write_text(yaml.safe_dump({"name": "two_greedy", "game": "louis-xiv", "players": [2], "bots": ["greedy"],
                                    "matchups": "with_repeats", "games_per_matchup": games, "seed": 3, "jobs": 1,
                                    "chunk_size": chunk_size}))
    return path


STUDY_KINDS = ("compare", "sweep", "tune", "sensitivity", "tune-bot", "landscape")


def tiny_study_files(folder: Path) -> dict[str, Path]:
    """A tiny experiment, sweep, tuning and sensitivity file of two greedy players."""
    folder.mkdir(parents=True, exist_ok=True)
    experiment = write_two_greedy_experiment(folder, games=40, chunk_size=10)
    sweep = folder / "sweep.yaml"
    sweep.write_text(yaml.safe_dump({"name": "gold", "experiment": str(experiment),
                                     "grid": [{"path": "start_gold", "values": [4, 5]}]}))
    tuning = folder / "tuning.yaml"
    tuning.write_text(yaml.safe_dump({"name": "gold", "experiment": str(experiment),
                                      "space": [{"path": "start_gold", "range": {"from": 3, "to": 6, "step": 1}}],
                                      "targets": [{"metric": "first_player_win_rate", "between": [0.45, 0.55]}],
                                      "trials": 3, "rungs": [10], "fresh_games_per_matchup": 10, "seed": 1, "top": 1}))
    sensitivity = folder / "sensitivity.yaml"
    sensitivity.write_text(yaml.safe_dump({
        "name": "coats", "game": "louis-xiv", "experiment": str(experiment), "trajectories": 2, "levels": 4,
        "oat_levels": 2, "seed": 4, "games_per_matchup": 10,
        "inputs": [{"name": "coat_points", "assumption": "A4", "why": "a coat may be worth 1 to 6",
                    "set": ["points_per_coat"], "range": {"from": 1, "to": 6}, "integer": True}],
        "not_varied": [{"assumption": f"A{number}", "why": "not varied here"} for number in (1, 2, 3, 5, 6, 7)],
        "conclusions": [{"kind": "best_seat", "players": 2}]}))
    return {"experiment": experiment, "sweep": sweep, "tuning": tuning, "sensitivity": sensitivity}


def study_command(kind: str, files: dict[str, Path], out: Path, other: bool) -> list[str]:
    """The command of ``kind`` into ``out``; ``other`` makes it another run or study of the kind."""
    seed = "2" if other else "1"
    if kind == "simulate":
        return ["simulate", "louis-xiv", "--players", "2", "--games", "300", "--chunk-size", "30", "--seed", seed,
                "--jobs", "1", "--out", str(out)]
    if kind == "run":
        return ["run", str(files["experiment"]), "--jobs", "1", "--out", str(out)]
    if kind == "compare":
        return ["compare", str(files["experiment"]), "--variants", "second_seat_one_gold_2p", "--games-per-matchup",
                "20" if other else "40", "--jobs", "1", "--out", str(out)]
    if kind == "sweep":
        return ["sweep", str(files["sweep"]), "--jobs", "1", "--out", str(out)]
    if kind == "tune":
        return ["tune", str(files["tuning"]), "--jobs", "1", "--out", str(out)]
    if kind == "sensitivity":
        return ["sensitivity", "louis-xiv", str(files["sensitivity"]), "--jobs", "1", "--out", str(out)]
    if kind == "landscape":
        return ["landscape", "louis-xiv", "--players", "2", "--pool", "random,greedy", "--games-per-matchup", "40",
                "--seed", seed, "--jobs", "1", "--out", str(out)]
    assert kind == "tune-bot"
    return ["tune-bot", "louis-xiv", "--players", "2", "--against", "random", "--budget", "60",
            "--games-per-trial", "20", "--batch", "2", "--seed", seed, "--out", str(out)]


def assert_resumed_sweep_plays_nothing_again(plan, directory: str, record_file: str, logged_words: str) -> None:
    """Run a finished sweep again: the record of the analysis each cell's run got (``RUN/directory/
    record_file``) is not written again, and nothing logs ``logged_words`` (e.g. "kingmaking of")."""
    from sim.studies import sweep

    records = [cell.directory(plan.out_dir) / "run" / directory / record_file for cell in plan.cells]
    before = [record.stat().st_mtime_ns for record in records]
    logged = []
    sweep.run_sweep(plan, log=logged.append, progress=False, report=False)
    assert [record.stat().st_mtime_ns for record in records] == before
    assert not any(logged_words in message for message in logged)
