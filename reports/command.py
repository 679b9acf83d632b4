"""``courtsim report RUN_DIR -o report.html``: build the balance report of a finished run.

The lead registers :func:`report_command` in cli.py; :func:`build_report` is the API."""
from __future__ import annotations

import contextlib
import errno
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

from reports import html, sections_common, sections_heads_of_state, sections_louis_xiv, skill_ladder
from reports.plots import FigureStore
from reports.rundir import HEADS_OF_STATE, LOUIS_XIV, collect, game_frame, load_run, seat_frame
from sim.core.engine import ConfigError

TITLES = {LOUIS_XIV: "Louis XIV", HEADS_OF_STATE: "Heads of State"}
LIMITATIONS = {
    LOUIS_XIV: [
        "Drama uses score_after_round_<r> (coats of arms + 5 per mission at the end of each round); "
        "there is no per-turn score, so lead changes inside a round are not visible.",
        "Gifts are identified by courtier only: which coat-of-arms kind a gift drew and which mission "
        "card (rather than colour and ability) a player completed are not in the tables.",
        "The first start player is seat 0 unless the random_start_player rule is on; positions are "
        "start_position (turn order), so a seat effect is a turn-order effect.",
    ],
    HEADS_OF_STATE: [
        "Country scoring records the tie-break level of first and second place only: the 2nd/3rd boundary, "
        "returned second-place tokens and points swung per kill are not in the tables.",
        "End-game noble-card majorities are derived from the cards_<rank> held at the end (sole leader / "
        "two-way split / void); the per-rank majority points awarded are not recorded separately.",
        "Double-country betrayal cards are reported by card type and target; the country each double card "
        "was used for is in the betrayals CSV columns card_a/card_b/country but not plotted.",
    ],
}


def _say(progress: bool, message: str) -> None:
    if progress:
        print(f"report: {message}", file=sys.stderr, flush=True)


# A write that fails for these reasons is the user's to fix (space, permissions, a path that
# cannot be a file); any other OSError is a bug and keeps its traceback.
WRITE_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM,
                errno.ENOTDIR, errno.EISDIR, errno.ENOENT, errno.ENAMETOOLONG)


def writable_output(output: Path) -> FigureStore:
    """The report's figure store, once ``output``'s folder and ``<stem>_files/`` are proven
    writable: a read-only or impossible ``-o`` is one line before anything is computed."""
    if output.is_dir():
        raise ConfigError(f"output {output} is a directory; give a file name such as report.html")
    with report_write_errors(output):
        store = FigureStore(output.parent / f"{output.stem}_files")
        for directory in (output.parent, store.directory):
            with tempfile.NamedTemporaryFile(dir=directory, prefix=".courtsim-write-test-"):
                pass
    return store


@contextlib.contextmanager
def report_write_errors(output: Path):
    """A full disk, a read-only folder or a path through a file while writing the report:
    one line naming the report and the file being written, not a traceback."""
    try:
        yield
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise
        where = f" (writing {error.filename})" if error.filename else ""
        raise ConfigError(f"cannot write the report {output}: {error.strerror or error}{where}") from None


def build_report(run_dir: Path, output: Path, progress: bool = True, sensitivity: Path | None = None,
                 look_for_sensitivity: bool = False) -> Path:
    """Write ``output`` (HTML) and ``<output stem>_files/`` (one PNG and one CSV per figure).
    Raises ConfigError (one line) for a missing, incomplete or unknown run directory, or an
    output that cannot be written (checked before anything is computed). ``sensitivity``: a
    sensitivity directory (``courtsim sensitivity``) whose verdicts the report shows (ConfigError
    if it is not a complete study of the run's game); ``look_for_sensitivity``: without one, use
    ``runs/sensitivity/<game folder>`` when it holds a study (one that cannot be used is a note)."""
    from reports.sensitivity_report import find_sensitivity_run   # (it imports this module)

    started = time.perf_counter()
    run = load_run(Path(run_dir))
    found = find_sensitivity_run(run.game, sensitivity, look_for_sensitivity)
    output = Path(output)
    store = writable_output(output)
    with report_write_errors(output):
        return write_report(run, output, store, progress, started, found)


def write_report(run, output: Path, store: FigureStore, progress: bool, started: float, sensitivity=None) -> Path:
    """The sections, figures and page of ``build_report`` (figures are written as they are made);
    ``sensitivity``: the reports.sensitivity_report.SensitivityRun whose verdicts it shows, if any."""
    seats, rounds = seat_frame(run)
    games = game_frame(run)
    n_games = int(collect(run.scan("games").select(pl.len())).item())
    ctx = sections_common.Context(seats, games, rounds, store, n_games)
    steps = [("seat advantage", lambda: [sections_common.seat_section(ctx)]),
             ("bots and match-ups", lambda: [sections_common.bot_section(ctx)]),
             ("scores", lambda: [sections_common.score_section(ctx)]),
             ("balance indicators", lambda: [sections_common.indicators_section(
                 ctx, "the own-supply tie-break" if run.game == LOUIS_XIV else "the noble-card tie-break")])]
    ladder = skill_ladder.ladder_of(run.manifest)
    if ladder is not None:  # a skill-ladder experiment: do the findings hold at every level?
        steps.insert(2, ("skill ladder", lambda: [skill_ladder.ladder_section(ctx, ladder)]))
    if run.game == LOUIS_XIV:
        steps.append(("courtiers", lambda: sections_louis_xiv.courtier_sections(run, ctx)))
    else:
        steps.append(("assassinations, tie-breaks, score sources",
                      lambda: sections_heads_of_state.sections(run, ctx)))
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
    limitations = list(LIMITATIONS[run.game])
    if "bot" not in run.columns("seats"):
        limitations.insert(0, "The seats table has no bot name; names come from the seating column or run.yaml.")
    text = html.render(f"{TITLES[run.game]} balance report", meta, ctx.headlines, sections, limitations)
    html.write(output, text)
    _say(progress, f"done in {time.perf_counter() - started:.1f} s: {output} and {store.directory}/ "
                   f"({len(store.figures)} figures)")
    return output


def report_command(run_dir: Path, output: Path = Path("report.html"), progress: bool = True,
                   sensitivity: Path | None = None) -> Path:
    """The CLI entry point (``courtsim report RUN_DIR -o report.html [--sensitivity DIR]``):
    without ``--sensitivity`` the default sensitivity directory of the run's game is looked for."""
    return build_report(run_dir, output, progress, sensitivity, look_for_sensitivity=sensitivity is None)
