"""A study's directory knows its kind and its identity, as a run directory does (run.yaml).

Every study (compare, sweep, tune, sensitivity, tune-bot) opens its ``--out`` through
:func:`open_study` before it writes anything there:

- the directory's lock is held for the whole study (sim.core.locking): a second command into
  the same directory is refused with one line naming the first one's pid;
- ``DIR/study.yaml`` records the study's kind and identity (what its games depend on). A
  directory holding a study of another kind, a run, or files that are no courtsim study is
  refused; so is a study of the same kind with another identity, naming the first key that
  differs. Every check comes before the first write: a refused command writes nothing (the
  lock file aside, which is courtsim's own and empty of results).

Directories written before ``study.yaml`` existed are recognised by their kind's plan file and
checked against it (:func:`legacy_kind`, :func:`check_plan_identity`; tune's and tune-bot's
against the plan their Optuna study stores), then get their ``study.yaml``.

The other things every study does alike are here too, once: finding its file
(:func:`find_study_file`) and writing its plan file (:func:`write_plan`), the record of what it
planned and played, which no study reads back to play.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import yaml

from sim.core import results, run_directory
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError
from sim.core.locking import exclusive

FORMAT = 1
STUDY_RECORD = "study.yaml"
# each kind's plan file, by which directories written before study.yaml are known
PLAN_FILES = {"compare": "comparison.yaml", "sweep": "sweep.yaml", "tune": "tuning.yaml",
              "sensitivity": "sensitivity.yaml"}
KINDS = ("compare", "sweep", "tune", "sensitivity", "tune-bot", "landscape")
IDENTITY_IN_PLAN = ("sweep", "sensitivity")   # kinds whose plan file recorded their identity before study.yaml
OPTUNA_FILE = "study.db"          # tune's and tune-bot's Optuna storage
OPTUNA_PLAN = "plan"              # the Optuna study's user attr holding its plan (its identity)
CONFIGS = Path(__file__).resolve().parent.parent.parent / "configs"
# where a study file named without a path is found: configs/<folder>/<name>.yaml
STUDY_FOLDERS = {"sweep": CONFIGS / "sweeps", "tune": CONFIGS / "tuning", "sensitivity": CONFIGS / "sensitivity"}


def find_study_file(kind: str, name_or_path: str | None, game: str | None = None) -> Path:
    """A study file of ``kind``: a path as given, or ``configs/<kind's folder>/<name>.yaml``
    (without a name: the game's file, ``configs/sensitivity/<game folder>.yaml``)."""
    if name_or_path is None:
        from sim.core.variants import game_folder

        return STUDY_FOLDERS[kind] / f"{game_folder(game)}.yaml"
    path = Path(name_or_path)
    if path.exists() or path.suffix in (".yaml", ".yml") or "/" in name_or_path:
        return path
    return STUDY_FOLDERS[kind] / f"{name_or_path}.yaml"


def write_plan(out_dir: Path, kind: str, record: dict, name: str | None = None) -> Path:
    """Write a study's plan file (``DIR/<its kind's plan file>``, or ``name``): the record of what
    it planned and played, in plain YAML, atomically. No study reads it back to play."""
    path = Path(out_dir) / (name or PLAN_FILES[kind])
    results.write_bytes_atomically(yaml.safe_dump(manifests.to_plain(record), sort_keys=False, allow_unicode=True)
                                   .encode("utf-8"), path)
    return path


@contextmanager
def open_study(out_dir: Path, kind: str, identity: dict, what: str, added: tuple[str, ...] = (),
               replace: bool = False) -> Iterator[Path]:
    """Hold ``out_dir`` for a study of ``kind`` with ``identity`` (refusing anything else there,
    before any write), record it in ``study.yaml`` and yield the directory. ``what`` names the
    study in a refusal ("sweep (other cells, seed, games or bots)"); keys in ``added`` joined
    the identity later and are compared only where the record has them. ``replace`` (compare's
    --overwrite) accepts another identity of the same kind: the study's runs are replaced run by
    run, and the record now says the new identity."""
    assert kind in KINDS, kind
    out_dir = Path(out_dir)
    run_directory.refuse_unsafe_out(out_dir)
    with exclusive(out_dir, f"courtsim {kind}"):
        recorded = check_directory(out_dir, kind, identity, what, added, replace)
        if recorded != manifests.to_plain(identity):
            write_record(out_dir, kind, identity)
        yield out_dir


def check_directory(out_dir: Path, kind: str, identity: dict, what: str, added: tuple[str, ...],
                    replace: bool) -> dict | None:
    """Refuse ``out_dir`` unless it is new, empty or a study of ``kind`` with ``identity``;
    return the identity recorded there (None: none yet)."""
    record = read_record(out_dir)
    if record is None:
        found = legacy_kind(out_dir)
        if found is None:
            refuse_foreign_files(out_dir, kind)
            return None
        if found != kind:
            raise ConfigError(f"{out_dir} holds {described(found)}; expected an empty directory or a "
                              f"courtsim {kind} study: choose another --out")
        if kind in IDENTITY_IN_PLAN:     # a study of this kind from before study.yaml
            check_plan_identity(out_dir / PLAN_FILES[kind], identity, what, added)
        elif (out_dir / OPTUNA_FILE).exists():    # tune or tune-bot: the plan its Optuna study stores
            check_optuna_identity(out_dir / OPTUNA_FILE, identity, what)
        return None
    if record["kind"] != kind:
        raise ConfigError(f"{out_dir} holds {described(record['kind'])}; expected an empty directory or a "
                          f"courtsim {kind} study: choose another --out")
    stored = record.get("identity")
    wanted = comparable(identity, stored, added)
    if stored != wanted and not replace:
        difference = manifests.describe_difference(stored if isinstance(stored, dict) else {}, wanted, "the study")
        raise ConfigError(f"{out_dir} holds another {what} ({difference}); choose another --out")
    return stored


def comparable(identity: dict, stored, added: tuple[str, ...]) -> dict:
    """``identity`` as plain data, less the keys in ``added`` (they joined the identity later)
    that the ``stored`` identity does not record."""
    wanted = manifests.to_plain(identity)
    if isinstance(stored, dict):
        wanted = {key: value for key, value in wanted.items() if key in stored or key not in added}
    return wanted


def check_plan_identity(path: Path, identity: dict, what: str, added: tuple[str, ...]) -> None:
    """A study from before study.yaml: refuse it when its plan file (``path``) records another
    identity."""
    try:
        stored = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("identity")
    except (OSError, AttributeError, yaml.YAMLError) as error:
        raise ConfigError(f"{path}: cannot read the study's plan ({type(error).__name__}); choose another --out") from None
    if stored != comparable(identity, stored, added):
        raise ConfigError(f"{path}: the directory holds another {what}; choose another --out")


def check_optuna_identity(path: Path, identity: dict, what: str) -> None:
    """A tune or tune-bot study from before study.yaml: refuse it when the plan its Optuna study
    stores (``path``, read only) is another identity."""
    import json
    import sqlite3

    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            stored = [json.loads(row[0]) for row in connection.execute(
                "SELECT value_json FROM study_user_attributes WHERE key = ?", (OPTUNA_PLAN,))]
    except (sqlite3.Error, ValueError):
        stored = []
    wanted = comparable(identity, stored[0] if stored else None, ())
    if not stored or stored[0] != wanted:
        difference = manifests.describe_difference(stored[0] if stored and isinstance(stored[0], dict) else {},
                                                   wanted, "the study")
        raise ConfigError(f"{path.parent} holds another {what} ({difference}); choose another --out")


def described(kind: str) -> str:
    return "a courtsim run" if kind == "run" else f"a courtsim {kind} study"


def read_record(out_dir: Path) -> dict | None:
    """The directory's ``study.yaml`` (None if it has none); one line if it is not a study record."""
    path = Path(out_dir) / STUDY_RECORD
    if not path.is_file():
        return None
    try:
        record = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise ConfigError(f"{path}: cannot read the study record ({type(error).__name__}); courtsim neither "
                          "resumes nor deletes it: choose another --out") from None
    if (not isinstance(record, dict) or record.get("courtsim_study") != FORMAT or record.get("kind") not in KINDS):
        raise ConfigError(f"{path}: expected a courtsim study record (courtsim_study: {FORMAT}, kind: one of "
                          f"{', '.join(KINDS)}), found another file; choose another --out")
    return record


def write_record(out_dir: Path, kind: str, identity: dict) -> None:
    record = {"courtsim_study": FORMAT, "kind": kind, "identity": manifests.to_plain(identity)}
    results.write_bytes_atomically(yaml.safe_dump(record, sort_keys=False, allow_unicode=True).encode("utf-8"),
                                   Path(out_dir) / STUDY_RECORD)


def legacy_kind(out_dir: Path) -> str | None:
    """The kind of a directory without study.yaml, from the files its kind writes: "run" for a
    run directory, tune or tune-bot for its Optuna file (by its study's name), another study kind
    for its plan file."""
    directory = Path(out_dir)
    if not directory.is_dir():
        return None
    if (directory / manifests.MANIFEST_NAME).exists():
        return "run"
    if (directory / OPTUNA_FILE).exists():     # tune or tune-bot (both write tuning.yaml when done)
        return optuna_kind(directory / OPTUNA_FILE)
    for kind, name in PLAN_FILES.items():
        if (directory / name).exists():
            return kind
    return None


def optuna_kind(path: Path) -> str:
    """tune or tune-bot, from the name of the Optuna study stored in ``path`` (tune's
    tuning.yaml comes at its end, so an interrupted tune is known by its study's name)."""
    import sqlite3
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            names = {row[0] for row in connection.execute("SELECT study_name FROM studies")}
    except sqlite3.Error:
        return "unknown"
    return "tune" if "tune" in names else "tune-bot" if "tune-bot" in names else "unknown"


def refuse_foreign_files(out_dir: Path, kind: str) -> None:
    """A directory that is no study must be empty (its lock file aside)."""
    run_directory.refuse_foreign_files(out_dir, f"a courtsim {kind} study")
