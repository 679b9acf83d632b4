"""Every study resumes to the uninterrupted study: interrupted at a random moment (Ctrl-C, or a
kill that leaves no chance to tidy up), the same command again finishes with the tables an
uninterrupted study writes (sweep, compare, tune, sensitivity at tiny budgets; tune-bot's bot file)."""
import signal
import subprocess
import time
from pathlib import Path

import polars as pl
import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from courtsim_runs import COURTSIM
from sim.core.locking import LOCK_NAME
from study_files import STUDY_KINDS, study_command, tiny_study_files

TIMEOUT = 600
_REFERENCES: dict[str, tuple[dict, float]] = {}


def run(arguments: list[str]) -> float:
    started = time.monotonic()
    result = subprocess.run([*COURTSIM, *arguments], capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, f"courtsim {' '.join(arguments)}:\n{result.stdout}\n{result.stderr}"
    return time.monotonic() - started


def outcome(directory: Path) -> dict:
    """What a study leaves: every table (parts excluded) and, for tune-bot, the tuned bot's values."""
    found = {str(path.relative_to(directory)): pl.read_parquet(path)
             for path in sorted(directory.rglob("*.parquet")) if "parts" not in path.relative_to(directory).parts
             and not path.parent.name.endswith(".parquet")}      # a run's table: the directory of its parts
    bot = directory / "tuned_2p.yaml"
    if bot.is_file():
        found["tuned_2p.yaml"] = yaml.safe_load(bot.read_text())["parameters"]
    return found


def same(first: dict, second: dict) -> bool:
    return first.keys() == second.keys() and all(
        first[key].equals(second[key]) if isinstance(first[key], pl.DataFrame) else first[key] == second[key]
        for key in first)


def reference(kind: str, folder: Path) -> tuple[dict, float]:
    """The uninterrupted study's outcome and its wall time (played once per kind)."""
    if kind not in _REFERENCES:
        files = tiny_study_files(folder / f"reference-{kind}-files")
        seconds = run(study_command(kind, files, folder / f"reference-{kind}", other=False))
        _REFERENCES[kind] = outcome(folder / f"reference-{kind}"), seconds
    return _REFERENCES[kind]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("interrupts")


@pytest.mark.parametrize("kind", STUDY_KINDS)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(moment=st.floats(0.1, 0.95), interrupt=st.sampled_from([signal.SIGINT, signal.SIGKILL]),
       case=st.integers(0, 10**9))
def test_an_interrupted_study_resumes_to_the_uninterrupted_studys_tables(kind, folder, moment, interrupt, case):
    expected, seconds = reference(kind, folder)
    work = folder / f"{kind}-{case}-{int(moment * 1000)}-{interrupt.name}"
    files = tiny_study_files(work)
    command = study_command(kind, files, work / "out", other=False)
    process = subprocess.Popen([*COURTSIM, *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()      # the moment counts from when the study holds its directory (imports done)
    while not (work / "out" / LOCK_NAME).exists() and process.poll() is None and time.monotonic() - started < 120:
        time.sleep(0.01)
    try:
        process.wait(timeout=moment * seconds)
    except subprocess.TimeoutExpired:
        process.send_signal(interrupt)
    _, errors = process.communicate(timeout=TIMEOUT)
    assert "Traceback" not in errors, errors
    run(command)                      # the same command again: resumes, or finds the study complete
    assert same(outcome(work / "out"), expected)
