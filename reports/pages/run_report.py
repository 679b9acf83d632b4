"""``courtsim report RUN_DIR -o report.html``: build the balance report of a finished run.

The lead registers :func:`report_command` in cli.py; :func:`build_report` is the API."""
from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from pathlib import Path

import polars as pl

from reports.pages import toolkit, sections_common
from reports.analysis import landscape_metrics, skill_ladder
from reports.analysis.sensitivity_study import find_sensitivity_run
from reports.pages import sections_game_arc, sections_landscape, sections_skill_ladder
from reports.pages.plots import FigureStore
from reports.analysis.rundir import MANIFEST, Run, collect, game_frame, load_run, seat_frame
from sim import registry
from sim.core import results
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError


def _say(progress: bool, message: str) -> None:
    if progress:
        print(f"report: {message}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- where the report goes

REPORT_NAME = "report.html"           # the report's file name when -o names a directory
# The balance report's page says it is one (reports/pages/templates/report.html.j2); an earlier report
# is the only existing file ``courtsim report`` writes over. Reports written before the tag
# existed are known by their title and run line.
GENERATOR_TAG = '<meta name="generator" content="courtsim report">'
LEGACY_REPORT = re.compile(r'<title>(Louis XIV|Heads of State) balance report</title>.*<p class="meta">Run ', re.S)
REPORT_HEAD_BYTES = 65536             # the tag, title and run line are at the top of the page
# The files a report writes into <stem>_files/ (reports.pages.plots.FigureStore names them so; the
# sections write a few tables beside them), and the record there of those it wrote, so that a
# report started again (after an interruption too) replaces them, and never a file of the user's
FIGURE_FILE = re.compile(r"[a-z0-9_]+\.(png|csv)")
SECTION_TABLES = ("seat_advantage_test.csv", "win_rate_by_matchup_and_seat.csv", "balance_indicators.csv",
                  "winner_tiebreak.csv", "louis_outcomes_by_courtier.csv")   # tables written beside the figures
FILES_RECORD = ".courtsim-report-files"
FILES_RECORD_HEADER = "# files courtsim report wrote into this folder (it replaces only these)"
LISTED_FILES = re.compile(r'<span class="files">Files: ([^<]*)</span>')


def report_path(output: str | os.PathLike) -> Path:
    """``-o`` as a user means it: a path that ends in a slash or names an existing directory is
    the folder the report goes into, as ``report.html``; any other path is the report's file."""
    text = os.fspath(output)
    if text.endswith(("/", os.sep)) or Path(text).is_dir():
        return Path(text) / REPORT_NAME
    return Path(text)


def is_courtsim_report(path: Path) -> bool:
    """Whether the existing file ``path`` is a page ``courtsim report`` wrote (by what the page
    says at its top: the generator tag, or an older report's title and run line)."""
    try:
        with open(path, "rb") as file:
            head = file.read(REPORT_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False
    return GENERATOR_TAG in head or LEGACY_REPORT.search(head) is not None


def run_file_of(target: Path, run: Run) -> tuple[str, Path] | None:
    """What file of a run directory ``target`` (resolved) is, if any, and that directory: its
    manifest, a table its manifest lists, a part, or a file in a table's directory; for the reported run and any run directory
    around ``target`` (run.yaml beside it, or a parts/ folder it is in)."""
    own = run.path.resolve()
    directories = [own, *(folder for folder in list(target.parents)[:3] if (folder / MANIFEST).exists())]
    for directory in dict.fromkeys(directories):
        shown = run.path if directory == own else directory
        if target.parent == directory:
            names = {MANIFEST, *(f"{table}.parquet" for table in listed_tables(directory, run))}
            if target.name in names:
                return f"{target.name}, a file of the run in {shown}", shown
        if target.is_relative_to(directory / results.PARTS_DIR):
            return f"{target.relative_to(directory)}, a part of the run in {shown}", shown
        for table in listed_tables(directory, run):     # a table's directory holds its parts and nothing else
            if target.parent.is_relative_to(results.table_path(directory, table)):
                return (f"{table}.parquet, a table of the run in {shown} (its directory holds the table's "
                        "parts and nothing else)", shown)
    return None


def listed_tables(directory: Path, run: Run) -> tuple[str, ...]:
    """The tables the manifest of ``directory`` lists (none if it cannot be read as one)."""
    if directory == run.path.resolve():
        manifest = run.manifest
    else:
        try:
            manifest = manifests.read_manifest(directory)
        except ConfigError:
            return ()
    tables = (manifest or {}).get("config", {}).get("tables") or []
    return tuple(str(table) for table in tables)


def check_report_output(run: Run, output: Path) -> None:
    """ConfigError (one line) unless writing the report to ``output`` and its figures to
    ``<stem>_files/`` replaces nothing but an earlier report: never a file a run's manifest lists
    (run.yaml, the tables, the parts), never any other existing file, never a user's file in
    ``<stem>_files/``."""
    target = output.resolve()
    run_file = run_file_of(target, run)
    if run_file is not None:
        found, directory = run_file
        raise ConfigError(f"-o {output}: expected a file name for the report, found {found} (a report never "
                          f"replaces a run's own files); give another name, e.g. {directory / REPORT_NAME}")
    if os.path.lexists(output) and not output.is_dir() and not is_courtsim_report(output):
        raise ConfigError(f"-o {output}: expected a new file or an earlier courtsim report, found an existing file "
                          "that is not a courtsim report (a report never replaces it); give another name")
    files_dir = output.parent / f"{output.stem}_files"
    if os.path.lexists(files_dir) and not files_dir.is_dir():
        raise ConfigError(f"-o {output}: expected {files_dir} to be a folder for the report's figures, found a file; "
                          "give another name")
    if files_dir.is_dir():
        ours = report_files_written(output, files_dir)
        foreign = sorted(path.name for path in files_dir.iterdir()
                         if FIGURE_FILE.fullmatch(path.name) and path.name not in ours)
        if foreign:
            shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise ConfigError(f"-o {output}: expected {files_dir}/ to be new or to hold an earlier report's figures, "
                              f"found files courtsim did not write there ({shown}); a report never replaces "
                              "them: move them away or give another name")


def report_files_written(output: Path, files_dir: Path) -> set[str]:
    """The files of ``files_dir`` an earlier report wrote: those its record lists, or (a report
    from before the record existed) those the earlier report at ``output`` lists, and its tables."""
    written = set(read_files_record(files_dir) or [])
    if output.is_file() and is_courtsim_report(output):
        with contextlib.suppress(OSError):
            page = output.read_text(encoding="utf-8", errors="replace")
            for listed in LISTED_FILES.findall(page):
                written.update(name.strip() for name in listed.split(","))
            written.update(SECTION_TABLES)
    return written


def read_files_record(files_dir: Path) -> list[str] | None:
    """The names in ``files_dir``'s record of a report's files; None when it has no record of
    ours (none, or a file of that name courtsim did not write)."""
    try:
        lines = (files_dir / FILES_RECORD).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines[1:] if lines[:1] == [FILES_RECORD_HEADER] else None


def record_report_files(files_dir: Path) -> None:
    """List the figures and tables in ``files_dir`` in its record: check_report_output found every
    such file there the report's own before it began, so all of them are now (a report stopped
    half way and started again may replace them; a file of that name courtsim did not write is
    left as it is)."""
    record = files_dir / FILES_RECORD
    if not files_dir.is_dir() or (os.path.lexists(record) and read_files_record(files_dir) is None):
        return
    names = sorted(path.name for path in files_dir.iterdir() if FIGURE_FILE.fullmatch(path.name))
    with contextlib.suppress(OSError):
        record.write_text("".join(f"{line}\n" for line in [FILES_RECORD_HEADER, *names]), encoding="utf-8")


def build_report(run_dir: Path, output: Path, progress: bool = True, sensitivity: Path | None = None,
                 look_for_sensitivity: bool = False) -> Path:
    """Write ``output`` (HTML) and ``<output stem>_files/`` (one PNG and one CSV per figure).
    Raises ConfigError (one line) for a missing, incomplete or unknown run directory, or an
    output that cannot be written (checked before anything is computed). ``sensitivity``: a
    sensitivity directory (``courtsim sensitivity``) whose verdicts the report shows (ConfigError
    if it is not a complete study of the run's game); ``look_for_sensitivity``: without one, use
    ``runs/sensitivity/<game folder>`` when it holds a study (one that cannot be used is a note)."""
    started = time.perf_counter()
    run = load_run(Path(run_dir))
    found = find_sensitivity_run(run.game, sensitivity, look_for_sensitivity)
    output = report_path(output)
    check_report_output(run, output)
    store = toolkit.writable_output(output)
    try:
        with toolkit.report_write_errors(output):
            return write_report(run, output, store, progress, started, found)
    finally:
        record_report_files(store.directory)


def write_report(run, output: Path, store: FigureStore, progress: bool, started: float, sensitivity=None) -> Path:
    """The sections, figures and page of ``build_report`` (figures are written as they are made);
    ``sensitivity``: the reports.analysis.sensitivity_study.SensitivityRun whose verdicts it shows, if any."""
    game = registry.descriptor(run.game)      # its tie-break, its own sections, what its tables cannot show
    seats, rounds = seat_frame(run)
    games = game_frame(run)
    n_games = int(collect(run.scan("games").select(pl.len())).item())
    ctx = sections_common.Context(seats, games, rounds, store, n_games)
    steps = [("seat advantage", lambda: [sections_common.seat_section(ctx)]),
             ("bots and match-ups", lambda: [sections_common.bot_section(ctx)]),
             ("scores", lambda: [sections_common.score_section(ctx)]),
             ("balance indicators", lambda: [sections_common.indicators_section(
                 ctx, game.tie_break)])]
    ladder = skill_ladder.ladder_of(run.manifest)
    if ladder is not None:  # a skill-ladder experiment: do the findings hold at every level?
        steps.insert(2, ("skill ladder", lambda: [sections_skill_ladder.ladder_section(ctx, ladder)]))
    if run.has("standings"):   # the opt-in standings table: when are games decided? (issue 40)
        steps.append(("game arc", lambda: [sections_game_arc.game_arc_section(ctx, run)]))
    landscape = landscape_metrics.played_landscape_of(run)
    if landscape is not None:  # a study cell's run with the landscape of its rules (issue 41)
        steps.append(("strategy landscape", lambda: [sections_landscape.strategy_landscape_section(
            store, landscape, ctx.headlines)]))
    steps.append((game.sections_step, lambda: game.sections().sections(run, ctx)))   # the game's own sections
    if sensitivity is not None:  # do the conclusions survive the component data the rulebook does not print?
        steps.append(("sensitivity verdicts", lambda: [sections_common.sensitivity_section(ctx, sensitivity, output)]))
    sections = []
    for number, (name, builder) in enumerate(steps, start=1):
        _say(progress, f"[{number}/{len(steps) + 1}] {name} ({time.perf_counter() - started:.1f} s)")
        sections.extend(s for s in builder() if s is not None)
    _say(progress, f"[{len(steps) + 1}/{len(steps) + 1}] writing {output}")
    config = run.manifest["config"]
    experiment = config.get("experiment") if isinstance(config.get("experiment"), dict) else None
    players = config.get("players") if experiment is None else experiment.get("players")
    players = ", ".join(str(p) for p in players) if isinstance(players, list) else players
    bots = ", ".join(run.bot_names_by_seat()) or "see run.yaml"
    meta = (f"Run {run.path}" + (f" (experiment {experiment.get('name')})" if experiment else "")
            + f" · game {config['game']} · {n_games:,} games · players {players} · seed {config.get('seed')} · "
            + ("bot pool " if experiment else "bots ") + f"{bots} · courtsim {config.get('courtsim_version', '?')}")
    limitations = list(game.limitations)
    if "bot" not in run.columns("seats"):
        limitations.insert(0, "The seats table has no bot name; names come from the seating column or run.yaml.")
    text = toolkit.render(f"{toolkit.game_title(run.game)} balance report", meta, ctx.headlines, sections, limitations)
    if os.path.lexists(output) and not is_courtsim_report(output):   # since the report began
        raise ConfigError(f"-o {output}: a file that is not a courtsim report appeared there while the report was "
                          "made; it is left as it is: give another name")
    toolkit.write(output, text)
    _say(progress, f"done in {time.perf_counter() - started:.1f} s: {output} and {store.directory}/ "
                   f"({len(store.figures)} figures)")
    return output


def report_command(run_dir: Path, output: str | Path = REPORT_NAME, progress: bool = True,
                   sensitivity: Path | None = None) -> Path:
    """The CLI entry point (``courtsim report RUN_DIR -o report.html [--sensitivity DIR]``):
    without ``--sensitivity`` the default sensitivity directory of the run's game is looked for.
    ``output`` as typed: ``DIR/`` or an existing directory means ``DIR/report.html``."""
    return build_report(run_dir, output, progress, sensitivity, look_for_sensitivity=sensitivity is None)
