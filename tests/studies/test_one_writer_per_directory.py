"""One writer per directory (sim.core.locking): while one command writes a run or study
directory, a second one into it gets one line naming the first one's pid and writes nothing; the
first finishes with the tables a lone command writes; a killed holder's lock is taken over."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
import yaml

from courtsim_runs import COURTSIM
from sim.core.engine import ConfigError
from sim.core.locking import LOCK_NAME, exclusive
from study_files import STUDY_KINDS, study_command as commands, tiny_study_files as study_files

TIMEOUT = 600


def start(*arguments: str) -> subprocess.Popen:
    return subprocess.Popen([*COURTSIM, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_until_held(directory: Path, process: subprocess.Popen, timeout: float = TIMEOUT) -> None:
    """Until ``process`` holds ``directory``'s lock (its pid in the lock file)."""
    lock, deadline = directory / LOCK_NAME, time.monotonic() + timeout
    while time.monotonic() < deadline:
        if lock.is_file() and lock.read_text().startswith(f"pid {process.pid} "):
            return
        if process.poll() is not None:
            out, err = process.communicate()
            raise AssertionError(f"the first command ended before holding {directory}:\n{out}\n{err}")
        time.sleep(0.02)
    raise AssertionError(f"{directory} was never held by pid {process.pid}")


def parquet_tables(directory: Path) -> dict[str, pl.DataFrame]:
    """Every table a command left under ``directory`` (by relative path), parts excluded."""
    return {str(path.relative_to(directory)): pl.read_parquet(path)
            for path in sorted(directory.rglob("*.parquet")) if "parts" not in path.relative_to(directory).parts
            and not path.parent.name.endswith(".parquet")}      # a run's table: the directory of its parts


def files_of(directory: Path) -> dict[str, float]:
    return {str(path.relative_to(directory)): path.stat().st_mtime_ns
            for path in sorted(directory.rglob("*")) if path.is_file()}


def second_writer_is_refused(first: list[str], second: list[str], out: Path) -> subprocess.CompletedProcess:
    """Start ``first``; once it holds ``out``, pause it and run ``second`` into the same directory,
    which must be refused in one line without touching a file; then let ``first`` finish."""
    process = start(*first)
    try:
        wait_until_held(out, process)
        process.send_signal(signal.SIGSTOP)        # the holder stays in the middle of its work
        before = files_of(out)
        refused = subprocess.run([*COURTSIM, *second], capture_output=True, text=True, timeout=TIMEOUT)
        assert files_of(out) == before, "the refused command touched the directory"
    finally:
        process.send_signal(signal.SIGCONT)
    out_text, err_text = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, f"the first command failed:\n{out_text}\n{err_text}"
    assert refused.returncode == 2, refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), refused.stderr
    assert f"in use by pid {process.pid} " in lines[0] and "Traceback" not in refused.stderr
    return refused


def lone(arguments: list[str]) -> None:
    result = subprocess.run([*COURTSIM, *arguments], capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"


KINDS = ["simulate", "run", *STUDY_KINDS]


@pytest.mark.parametrize("kind", KINDS)
def test_a_second_writer_into_a_directory_in_use_gets_one_line_and_the_first_writes_a_lone_commands_tables(
        kind, tmp_path):
    files = study_files(tmp_path)
    out, alone = tmp_path / "out", tmp_path / "alone"
    second_writer_is_refused(commands(kind, files, out, other=False), commands(kind, files, out, other=True), out)
    lone(commands(kind, files, alone, other=False))
    tables, lone_tables = parquet_tables(out), parquet_tables(alone)
    assert tables.keys() == lone_tables.keys()
    assert all(tables[name].equals(lone_tables[name]) for name in tables)
    if kind == "tune-bot":      # its result is the bot file, not a table
        bot = yaml.safe_load((out / "tuned_2p.yaml").read_text())
        assert bot["parameters"] == yaml.safe_load((alone / "tuned_2p.yaml").read_text())["parameters"]


def test_the_same_command_twice_at_once_runs_once(tmp_path):
    files = study_files(tmp_path)
    out = tmp_path / "out"
    command = commands("simulate", files, out, other=False)
    second_writer_is_refused(command, command, out)
    lone(commands("simulate", files, tmp_path / "alone", other=False))
    assert parquet_tables(out).keys() == parquet_tables(tmp_path / "alone").keys()


HOLD = ("import sys, time; from sim.core.locking import exclusive\n"
        "with exclusive(sys.argv[1], 'a test'):\n    print('held', flush=True); time.sleep(600)\n")


def test_the_lock_of_a_killed_holder_is_taken_over(tmp_path):
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ConfigError, match=f"in use by pid {holder.pid} \\(a test\\)"):
            with exclusive(tmp_path):
                pass
    finally:
        holder.kill()
        holder.wait()
    with exclusive(tmp_path, "the next one"):           # the dead holder's lock is free: taken over
        assert (tmp_path / LOCK_NAME).read_text() == f"pid {os.getpid()} (the next one)\n"


def test_a_process_holding_a_directory_may_enter_it_again(tmp_path):
    with exclusive(tmp_path):
        with exclusive(tmp_path):
            pass
        with exclusive(tmp_path / "inner"):
            pass
