"""A study directory knows its kind and identity, as a run directory does: a study of another
kind, a run, a user's files or another study of the same kind there are refused in one line, and
a refused command writes nothing (sim.studies.directory)."""
import subprocess
from pathlib import Path

import pytest
import yaml

from courtsim_runs import COURTSIM
from sim.core.engine import ConfigError
from sim.core.locking import LOCK_NAME
from sim.studies import directory
from study_files import study_command, tiny_study_files

TIMEOUT = 600


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes (the lock file aside: courtsim's own, no record)."""
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file() and path.name != LOCK_NAME}


def courtsim(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([*COURTSIM, *arguments], capture_output=True, text=True, timeout=TIMEOUT)


def refused_in_one_line(result: subprocess.CompletedProcess, *words: str) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr and all(word in lines[0] for word in words), lines[0]
    return lines[0]


# ----------------------------------------------------------------------------- without games

def test_a_new_or_empty_directory_becomes_a_study_of_its_kind(tmp_path):
    with directory.open_study(tmp_path / "new", "sweep", {"seed": 1}, "sweep"):
        pass
    record = yaml.safe_load((tmp_path / "new" / directory.STUDY_RECORD).read_text())
    assert record == {"courtsim_study": 1, "kind": "sweep", "identity": {"seed": 1}}


@pytest.mark.parametrize("kind", directory.KINDS)
@pytest.mark.parametrize("other", [*directory.KINDS, "run"])
def test_a_study_is_refused_in_a_directory_of_another_kind(tmp_path, kind, other):
    if other == kind:
        return
    if other == "run":
        (tmp_path / "run.yaml").write_text("courtsim_run: 1\n")
    else:
        with directory.open_study(tmp_path, other, {"seed": 1}, other):
            pass
    before = contents(tmp_path)
    words = "a courtsim run" if other == "run" else f"a courtsim {other} study"
    with pytest.raises(ConfigError, match=f"holds {words}; expected an empty directory or a courtsim {kind} study"):
        with directory.open_study(tmp_path, kind, {"seed": 1}, kind):
            pass
    assert contents(tmp_path) == before


@pytest.mark.parametrize("kind", directory.PLAN_FILES)
def test_a_study_written_before_study_yaml_is_known_by_its_plan_file(tmp_path, kind):
    (tmp_path / directory.PLAN_FILES[kind]).write_text("status: complete\nidentity: {seed: 1}\n")
    with directory.open_study(tmp_path, kind, {"seed": 1}, kind):
        pass
    other = "sweep" if kind != "sweep" else "compare"
    with pytest.raises(ConfigError, match=f"holds a courtsim {kind} study"):
        with directory.open_study(tmp_path / ".." / tmp_path.name, other, {"seed": 1}, other):
            pass


def test_another_study_of_the_same_kind_is_refused_naming_the_first_key_that_differs(tmp_path):
    with directory.open_study(tmp_path, "compare", {"games_per_matchup": 200, "seed": 1}, "comparison"):
        pass
    before = contents(tmp_path)
    with pytest.raises(ConfigError, match="holds another comparison \\(key 'games_per_matchup': 200 in the study, "
                                          "100 now\\); choose another --out"):
        with directory.open_study(tmp_path, "compare", {"games_per_matchup": 100, "seed": 1}, "comparison"):
            pass
    assert contents(tmp_path) == before
    with directory.open_study(tmp_path, "compare", {"games_per_matchup": 100, "seed": 1}, "comparison", replace=True):
        pass          # compare --overwrite: the new identity is recorded
    assert yaml.safe_load((tmp_path / directory.STUDY_RECORD).read_text())["identity"]["games_per_matchup"] == 100


def test_a_directory_of_a_users_files_is_refused_and_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="holds files that are not a courtsim tune study \\(notes.txt\\)"):
        with directory.open_study(tmp_path, "tune", {"seed": 1}, "tuning"):
            pass
    assert contents(tmp_path) == {"notes.txt": b"mine"}


def test_a_study_record_courtsim_did_not_write_is_refused(tmp_path):
    (tmp_path / directory.STUDY_RECORD).write_text("kind: sweep\n")
    with pytest.raises(ConfigError, match="expected a courtsim study record"):
        with directory.open_study(tmp_path, "sweep", {"seed": 1}, "sweep"):
            pass


# ----------------------------------------------------------------------------- played studies

@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[dict, dict[str, Path]]:
    """A tiny compare, sweep and tune, each played once into its own directory."""
    folder = tmp_path_factory.mktemp("studies")
    files = tiny_study_files(folder)
    directories = {}
    for kind in ("compare", "sweep", "tune"):
        directories[kind] = folder / kind
        result = courtsim(*study_command(kind, files, directories[kind], other=False))
        assert result.returncode == 0, result.stderr
    return files, directories


@pytest.mark.parametrize("kind, into", [("compare", "sweep"), ("sweep", "tune"), ("tune", "sweep"),
                                        ("compare", "simulate")])
def test_a_study_into_a_directory_of_another_kind_is_refused_and_its_report_kept(played, tmp_path, kind, into):
    files, directories = played
    target = directories.get(into)
    if into == "simulate":
        target = tmp_path / "run"
        assert courtsim("simulate", "louis-xiv", "--players", "2", "--games", "20", "--out", str(target)).returncode == 0
    before = contents(target)
    words = "a courtsim run" if into == "simulate" else f"a courtsim {into} study"
    refused_in_one_line(courtsim(*study_command(kind, files, target, other=False)), words)
    assert contents(target) == before


def test_a_refused_comparison_with_other_games_writes_nothing(played):
    files, directories = played
    before = contents(directories["compare"])
    refused_in_one_line(courtsim(*study_command("compare", files, directories["compare"], other=True)),
                        "holds another comparison", "key 'games_per_matchup': 40 in the study, 20 now")
    assert contents(directories["compare"]) == before
    assert yaml.safe_load((directories["compare"] / "comparison.yaml").read_text())["status"] == "complete"


def test_a_refused_sweep_whose_linked_values_changed_writes_nothing(played):
    files, directories = played
    sweep = yaml.safe_load(files["sweep"].read_text())
    changed = files["sweep"].parent / "linked.yaml"
    sweep["grid"] = [{"path": "start_gold", "values": [4, 5], "linked": {"points_per_mission": [5, 6]}}]
    changed.write_text(yaml.safe_dump(sweep))
    before = contents(directories["sweep"])
    result = courtsim("sweep", str(changed), "--jobs", "1", "--out", str(directories["sweep"]))
    line = refused_in_one_line(result, "holds another sweep")
    assert "--overwrite" not in line            # sweep has no --overwrite to suggest
    assert contents(directories["sweep"]) == before
