"""Where ``courtsim report`` writes (issue 37): never over a file a run's manifest lists
(run.yaml, the tables, the parts), never over an existing file that is not an earlier courtsim
report, never over a user's file in ``<report>_files/``; ``-o DIR/`` (or an existing directory)
is ``DIR/report.html``; and a run.yaml simulate refuses (``courtsim_run: 99``) is refused by
summary and report alike, in one line. Refusals come before anything is computed, so they are
quick; the few reports written are of one tiny run (30 games)."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import cli
from courtsim_runs import simulate
from reports.pages.run_report import FILES_RECORD, GENERATOR_TAG

runner = CliRunner()


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args])


def one_error_line(result, *words) -> str:
    """Exit 2, no traceback, one stderr line ``error: ...`` (progress lines aside) holding ``words``."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("report: ")]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def digests(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` with its SHA-256 (to show nothing changed)."""
    return {str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(directory.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "tiny", "louis-xiv", 3, 30)


@pytest.fixture
def run_copy(tiny_run, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(tiny_run, copy)
    return copy


# ----------------------------------------------------------------------------- the run's own files

@pytest.mark.parametrize("name", ["run.yaml", "games.parquet", "seats.parquet", "courtiers.parquet",
                                  "games.parquet/chunk-000000000000.parquet", "seats.parquet/report.html",
                                  "parts/report.html", "parts/chunks/chunk-000000000000.json",
                                  "parts/games/chunk-000000000000.parquet"])
def test_report_never_replaces_a_file_the_runs_manifest_lists(run_copy, name):
    before = digests(run_copy)
    line = one_error_line(invoke("report", run_copy, "-o", run_copy / name),
                          f"-o {run_copy / name}", "a report never replaces a run's own files",
                          f"e.g. {run_copy / 'report.html'}")
    assert "run in" in line
    assert digests(run_copy) == before            # run.yaml, tables: byte for byte; no <stem>_files/
    assert sorted(path.name for path in run_copy.iterdir()) == sorted({Path(name).parts[0] for name in before})


def test_report_never_replaces_another_runs_files(tiny_run, run_copy, tmp_path):
    before = digests(run_copy)
    for name, what in (("run.yaml", "a file"), ("seats.parquet", "a table")):
        one_error_line(invoke("report", tiny_run, "-o", run_copy / name), f"found {name}, {what} of the run in")
    assert digests(run_copy) == before


def test_report_never_replaces_a_file_that_is_not_a_courtsim_report(tiny_run, tmp_path):
    notes = tmp_path / "notes.html"
    notes.write_text("<html>my own notes</html>")
    one_error_line(invoke("report", tiny_run, "-o", notes),
                   f"-o {notes}: expected a new file or an earlier courtsim report", "not a courtsim report")
    assert notes.read_text() == "<html>my own notes</html>"
    assert not (tmp_path / "notes_files").exists()


def test_report_replaces_an_earlier_report_and_its_figures(tiny_run, tmp_path):
    output = tmp_path / "out" / "report.html"
    assert invoke("report", tiny_run, "-o", output).exit_code == 0
    assert GENERATOR_TAG in output.read_text()[:2000]   # what says the page is an earlier report
    files = output.parent / "report_files"
    recorded = set((files / FILES_RECORD).read_text().splitlines()[1:])
    assert recorded and recorded == {path.name for path in files.iterdir() if path.suffix in (".png", ".csv")}
    (files / "my notes.txt").write_text("mine")         # not a name a report writes: kept as it is
    output.write_text("<old>")                          # not a report any more
    one_error_line(invoke("report", tiny_run, "-o", output), "not a courtsim report")
    output.write_text(f"<!DOCTYPE html>\n<html>\n<head>\n{GENERATOR_TAG}\n</head></html>")
    result = invoke("report", tiny_run, "-o", output)
    assert result.exit_code == 0, result.output
    assert GENERATOR_TAG in output.read_text()[:2000] and (files / "my notes.txt").read_text() == "mine"


def test_report_replaces_a_report_written_before_the_generator_tag(tiny_run, tmp_path):
    """A report of an earlier courtsim (no generator tag, no record of its files) is known by
    its title and run line, and its figures by the files the page lists."""
    output = tmp_path / "report.html"
    assert invoke("report", tiny_run, "-o", output).exit_code == 0
    output.write_text(output.read_text().replace(GENERATOR_TAG + "\n", ""))
    (tmp_path / "report_files" / FILES_RECORD).unlink()
    result = invoke("report", tiny_run, "-o", output)
    assert result.exit_code == 0, result.output


def test_report_files_folder_never_replaces_a_users_files(tiny_run, tmp_path):
    files = tmp_path / "report_files"
    files.mkdir()
    (files / "win_rate_by_seat.png").write_bytes(b"my own picture")
    (files / "data.csv").write_text("my,own\n")
    line = one_error_line(invoke("report", tiny_run, "-o", tmp_path / "report.html"),
                          f"expected {files}/ to be new or to hold an earlier report's figures",
                          "data.csv, win_rate_by_seat.png")
    assert "found files courtsim did not write there" in line
    assert (files / "win_rate_by_seat.png").read_bytes() == b"my own picture"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report_files"]
    (tmp_path / "taken_files").write_text("a file, not a folder")
    one_error_line(invoke("report", tiny_run, "-o", tmp_path / "taken.html"),
                   f"expected {tmp_path / 'taken_files'} to be a folder for the report's figures, found a file")
    assert (tmp_path / "taken_files").read_text() == "a file, not a folder"


def test_an_interrupted_report_may_be_started_again(tiny_run, tmp_path, monkeypatch):
    """Figures written before a report stopped are the report's: the same command replaces them."""
    def stop(*args, **kwargs):
        raise KeyboardInterrupt
    output = tmp_path / "report.html"
    monkeypatch.setattr("reports.pages.toolkit.write", stop)
    assert invoke("report", tiny_run, "-o", output).exit_code != 0             # Ctrl-C while writing
    assert not output.exists() and any((tmp_path / "report_files").glob("*.png"))
    monkeypatch.undo()
    result = invoke("report", tiny_run, "-o", output)
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------------------- -o DIR/

def test_output_ending_in_a_slash_writes_report_html_inside(tiny_run, tmp_path):
    result = invoke("report", tiny_run, "-o", f"{tmp_path / 'newdir'}/")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "newdir").is_dir() and (tmp_path / "newdir" / "report.html").is_file()
    assert (tmp_path / "newdir" / "report_files").is_dir()
    assert f"report: {tmp_path / 'newdir' / 'report.html'}" in " ".join(result.stdout.split())


def test_output_naming_an_existing_directory_writes_report_html_inside(tiny_run, run_copy):
    before = digests(run_copy)
    result = invoke("report", run_copy, "-o", run_copy)
    assert result.exit_code == 0, result.output
    assert GENERATOR_TAG in (run_copy / "report.html").read_text()[:2000]
    after = digests(run_copy)
    assert {name: after[name] for name in before} == before      # the run itself is untouched


# ----------------------------------------------------------------------------- run.yaml simulate refuses

@pytest.mark.parametrize("spoil, found", [
    (lambda manifest: manifest.update(courtsim_run=99), "found courtsim_run: 99"),
    (lambda manifest: manifest.pop("run_hash"), "and no run_hash"),
    (lambda manifest: manifest["config"].update(seed=12345), "edited after courtsim wrote it"),
])
def test_summary_and_report_refuse_a_run_yaml_simulate_refuses(run_copy, tmp_path, spoil, found):
    manifest = yaml.safe_load((run_copy / "run.yaml").read_text())
    spoil(manifest)
    (run_copy / "run.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    simulated = one_error_line(invoke("simulate", "louis-xiv", "--players", 3, "--games", 30, "--out", run_copy),
                               str(run_copy / "run.yaml"), found)
    summary = one_error_line(invoke("summary", run_copy), str(run_copy / "run.yaml"), found)
    report = one_error_line(invoke("report", run_copy, "-o", tmp_path / "r.html"), str(run_copy / "run.yaml"), found)
    # the same reader, the same words: only what each command then says of it differs
    assert simulated.split(";")[0] == summary.split(";")[0] == report.split(";")[0]
    assert not (tmp_path / "r.html").exists()
