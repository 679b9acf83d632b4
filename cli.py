"""courtsim command line: parse, validate, delegate to sim.registry / sim.core.runner.

Every user mistake surfaces as a ConfigError (or a pydantic / YAML error from a config file)
and is printed by ``user_errors`` as ONE line ``error: ...`` on stderr with exit code 2; so is
every mistake typer finds while parsing the command line (``--players abc``, a missing option,
an unknown command: :class:`OneLineUsageErrors`). Anything else is a bug and keeps its traceback.
"""
from __future__ import annotations

import functools
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Annotated, Optional

import typer
import yaml
from rich.console import Console
from rich.table import Table
from typer._click.exceptions import BadParameter, MissingParameter, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from sim import registry
from sim.core.arguments import check_game_count, check_game_index, check_jobs, check_seed
from sim.core import run_manifest as manifests
from sim.core import table_schema
from sim.core.engine import BotSeat, ConfigError, GameEngine, GameSetup
from sim.core.run_manifest import courtsim_version
from sim.core import bench as benchmarks
from sim.core.runner import DEFAULT_CHUNK_SIZE, RunResult, run_cells, run_simulation
from sim.core.yaml_files import shown
from strategies.bots import bot_package, resolve_bots

USER_ERROR_EXIT = 2
ONE_LINE_LIMIT = 2000        # an error line is never longer, whatever value a file held
INTERRUPTED_EXIT = 130
INTERRUPT_AGAIN_SECONDS = 0.05   # a swallowed Ctrl-C is raised again this much later (keep_interrupts)
DEFAULT_BOT = "greedy"

stdout = Console(highlight=False, width=None if sys.stdout.isatty() else 160)  # piped: no 80-column wrap
stderr = Console(stderr=True, highlight=False)


# ----------------------------------------------------------------------------- error handling

# What a value typer could not convert was expected to be, by pydantic's error type
# (typer converts option values with pydantic TypeAdapters).
EXPECTED_BY_ERROR_TYPE = {
    "int_parsing": "an integer", "int_type": "an integer", "int_from_float": "an integer",
    "float_parsing": "a number", "float_type": "a number", "bool_parsing": "true or false",
}


def parameter_name(parameter) -> str:
    """``--players`` for an option (its long name), ``GAME`` for an argument."""
    options = [name for name in getattr(parameter, "opts", []) if name.startswith("--")]
    if getattr(parameter, "param_type_name", "") == "option" and options:
        return max(options, key=len)
    return (parameter.name or "value").upper()


def usage_error_line(error: UsageError) -> str:
    """One line for a command-line parsing error: ``--players: expected an integer, found 'abc'``,
    and where to find the command's help."""
    from pydantic import ValidationError

    cause = error.__cause__
    if isinstance(error, MissingParameter) and error.param is not None:
        text = f"{parameter_name(error.param)}: required but missing"
    elif isinstance(error, BadParameter) and error.param is not None:
        if isinstance(cause, ValidationError) and cause.errors():
            first = cause.errors()[0]
            expected = EXPECTED_BY_ERROR_TYPE.get(first["type"], first["msg"])
            text = f"{parameter_name(error.param)}: expected {expected}, found {first.get('input')!r}"
        else:
            text = f"{parameter_name(error.param)}: {error.message}"
    else:
        text = error.format_message()
    if error.ctx is not None:
        text = f"{text.rstrip('.')} (see: {error.ctx.command_path} --help)"
    return " ".join(text.split())


class OneLineUsageErrors(TyperGroup):
    """The courtsim group: typer's usage errors (``--players abc``, ``--seed 1.5``, a missing
    option, an unknown command or option, in every command and sub-command) as ONE line
    ``error: ...`` with exit code 2, like every other user error, instead of a usage box.
    Sub-commands are parsed inside this group's ``invoke``, so both places are covered."""

    def make_context(self, *args, **kwargs):
        with usage_errors_on_one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with usage_errors_on_one_line():
            return super().invoke(ctx)


class usage_errors_on_one_line:
    """Context manager: a UsageError -> its one line on stderr and exit code 2 (no arguments
    at all still shows the help, as ``no_args_is_help`` asks)."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if isinstance(error, UsageError) and not isinstance(error, NoArgsIsHelpError):
            print(f"error: {usage_error_line(error)}", file=sys.stderr)
            raise typer.Exit(USER_ERROR_EXIT) from None
        return False


app = typer.Typer(
    cls=OneLineUsageErrors,
    help="Monte Carlo balance analysis for board games (Louis XIV, Heads of State).",
    no_args_is_help=True, add_completion=False,
    pretty_exceptions_enable=False,  # real crashes: a plain traceback, no locals full of arrays
)

def one_line(error: BaseException) -> str:
    """A single-line message for a user-facing error (pydantic and YAML ones are multi-line)."""
    try:
        from pydantic import ValidationError
    except ImportError:  # pragma: no cover - pydantic is a dependency
        ValidationError = ()
    if ValidationError and isinstance(error, ValidationError):
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}"
                             for e in error.errors())
        text = f"invalid {error.title}: {problems}"
    elif isinstance(error, yaml.YAMLError):
        text = f"invalid YAML: {error}"
    else:
        text = str(error)
    return shown(text, ONE_LINE_LIMIT)


def user_error_types() -> tuple[type[BaseException], ...]:
    from pydantic import ValidationError
    return (ConfigError, ValidationError, yaml.YAMLError)


def user_errors(command):
    """Decorator for every command: user errors -> one ``error:`` line and exit code 2."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except user_error_types() as error:
            print(f"error: {one_line(error)}", file=sys.stderr)
            raise typer.Exit(USER_ERROR_EXIT) from None
    return wrapper


# ----------------------------------------------------------------------------- option parsing

def rule_example(engine: GameEngine) -> str:
    """A real ``--rule`` of ``engine`` for error messages: its first rule switch, set to the
    opposite of (or, if not a switch, the same as) its default."""
    try:
        switches = engine.load_setup().description.get("rules") or {}
    except ConfigError:
        switches = {}
    for name, default in switches.items():
        if isinstance(default, bool):
            return f"{name}={str(not default).lower()}"
        return f"{name}={default}"
    return "NAME=VALUE"


def parse_rules(rules: list[str] | None, engine: GameEngine) -> dict:
    """``--rule KEY=VALUE`` pairs -> {key: value}; values are read as YAML scalars, so
    ``3`` is an int, ``0.5`` a float, ``true`` a bool, anything else a string."""
    overrides = {}
    for text in rules or []:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise ConfigError(f"bad --rule {text!r}: expected KEY=VALUE, e.g. --rule {rule_example(engine)}")
        if key in overrides:
            raise ConfigError(f"--rule {key} given twice")
        try:
            overrides[key] = yaml.safe_load(value)
        except yaml.YAMLError:
            overrides[key] = value.strip()
    return overrides


def check_players(engine: GameEngine, players: int) -> None:
    if players not in engine.player_counts:
        counts = ", ".join(map(str, engine.player_counts))
        raise ConfigError(f"{engine.name} is played by {counts} players, not {players}")


def bot_names(bots: str | None, players: int) -> list[str]:
    """``--bots``: absent -> greedy everywhere; one name -> that bot everywhere; else one per seat."""
    names = [name.strip() for name in (DEFAULT_BOT if bots is None else bots).split(",")]
    if not any(names):
        raise ConfigError(f"bad --bots {bots!r}: expected bot names (one, or one per seat), found none")
    if any(not name for name in names):
        raise ConfigError(f"bad --bots {bots!r}: empty bot name")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ConfigError(f"--bots names {len(names)} bots ({bots}) but there are {players} players; "
                          "give one name for every seat or exactly one per player")
    return names


def load_setup(engine: GameEngine, game_file: Path | None, rules: list[str] | None,
               variant: str | None = None) -> GameSetup:
    """The game file (or --game-file), then --variant's overlay and switches, then --rule."""
    from sim.core import variants

    if game_file is not None and game_file.is_dir():
        raise ConfigError(f"--game-file {game_file}: expected a game YAML file, found a directory")
    if game_file is not None and not game_file.is_file():
        raise ConfigError(f"game file {game_file} does not exist")
    resolved_variant = variants.load_variant(variant, engine.name) if variant else None
    return variants.load_setup(engine, str(game_file) if game_file else None, resolved_variant,
                               parse_rules(rules, engine) or None)


def prepare_game(game: str, players: int, bots: str | None, game_file: Path | None,
                 rules: list[str] | None, variant: str | None = None
                 ) -> tuple[GameEngine, GameSetup, list[BotSeat]]:
    """Everything every command needs, validated in the order a user would fix it."""
    engine = registry.get_engine(game)
    check_players(engine, players)
    names = bot_names(bots, players)
    seats = resolve_bots(game, names, where="--bots")
    setup = load_setup(engine, game_file, rules, variant)
    return engine, setup, seats


# ----------------------------------------------------------------------------- shared options

GameArg = Annotated[str, typer.Argument(help="Game name (see `courtsim games`).", show_default=False)]
PlayersOpt = Annotated[int, typer.Option("--players", "-p", help="Number of players.")]
BotsOpt = Annotated[Optional[str], typer.Option(
    "--bots", help="Comma-separated bot names, one per seat, or one name for every seat "
                   f"(default: {DEFAULT_BOT}).", show_default=False)]
GameFileOpt = Annotated[Optional[Path], typer.Option(
    "--game-file", help="Game component/rules YAML instead of configs/games/<game>.yaml.")]
RuleOpt = Annotated[Optional[list[str]], typer.Option(
    "--rule", help="Override a rule switch, KEY=VALUE (repeatable).", show_default=False)]
SeedOpt = Annotated[int, typer.Option("--seed", help="Experiment seed (0 .. 2**64-1).")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    "--cluster", help="Play the chunks on a Dask cluster: its scheduler's address, tcp://HOST:PORT "
                      "(default: the file's cluster:, else this machine's --jobs).", show_default=False)]
VariantOpt = Annotated[Optional[str], typer.Option(
    "--variant", help="A rule variant: a name in configs/variants/<game>/ or a variant YAML file "
                      "(see `courtsim variants list`).", show_default=False)]


def version_callback(value: bool) -> None:
    if value:
        print(f"courtsim {courtsim_version()}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option(
        "--version", callback=version_callback, is_eager=True, help="Show the version and exit.")] = False):
    """Monte Carlo balance analysis for board games (Louis XIV, Heads of State)."""
    sys.unraisablehook = keep_interrupts


def keep_interrupts(unraisable) -> None:
    """A Ctrl-C that lands while numba compiles a kernel is raised inside a C callback of
    llvmlite, which can only print it as "Exception ignored ... KeyboardInterrupt" and go on: the
    command would not stop and the user would see a traceback. Raise it again in the main thread,
    where Python code sees it (keeping_finished_chunks then prints the interrupted line): from a
    moment later, since raised in this hook it would be swallowed again."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        threading.Timer(INTERRUPT_AGAIN_SECONDS, os.kill, (os.getpid(), signal.SIGINT)).start()
        return
    sys.__unraisablehook__(unraisable)


# ----------------------------------------------------------------------------- commands

@app.command()
@user_errors
def simulate(
    game: GameArg,
    players: PlayersOpt,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games to play.")],
    bots: BotsOpt = None,
    seed: SeedOpt = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (-1: every core).")] = 1,
    chunk_size: Annotated[int, typer.Option("--chunk-size", help="Games per worker task.")] = DEFAULT_CHUNK_SIZE,
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Run directory (default: runs/<game>).", show_default=False)] = None,
    game_file: GameFileOpt = None,
    rule: RuleOpt = None,
    variant: VariantOpt = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace a different run in --out.")] = False,
    cluster: ClusterOpt = None,
):
    """Play GAMES games and write every table to Parquet files in --out.

    Example: courtsim simulate louis-xiv --players 4 --games 20000 --jobs 2 --out runs/demo
    """
    check_seed(seed, "--seed")
    check_jobs(jobs, "--jobs")
    engine, setup, seats = prepare_game(game, players, bots, game_file, rule, variant)
    out_dir = out if out is not None else Path("runs") / game
    with on_cluster(cluster):
        result = keeping_finished_chunks(out_dir, lambda: run_simulation(
            engine, setup, players, seats, seed, games, out_dir, jobs=jobs, chunk_size=chunk_size,
            progress=True, overwrite=overwrite, log=lambda message: print(message, file=sys.stderr),
            provenance=manifests.setup_provenance(setup)))
    print_run_summary(result)


def on_cluster(option: str | None, file_address: str | None = None, file_path: Path | None = None):
    """Where the command's runs play: the --cluster option, else the file's ``cluster:``, else
    this machine (sim.core.cluster.using_cluster)."""
    from sim.core.cluster import using_cluster

    if option is not None:
        return using_cluster(option, "--cluster")
    return using_cluster(file_address, f"{file_path}: key 'cluster'")


def keeping_finished_chunks(out_dir: Path, play):
    """Run ``play()``; on Ctrl-C or a crash say that finished chunks are kept for a resume."""
    try:
        return play()
    except user_error_types():
        raise
    except KeyboardInterrupt:
        print(f"interrupted: finished chunks are kept in {out_dir}; "
              "run the same command again to resume", file=sys.stderr)
        raise typer.Exit(INTERRUPTED_EXIT) from None
    except Exception:
        print(f"the run crashed (traceback below); finished chunks are kept in {out_dir}; "
              "run the same command again to resume", file=sys.stderr)
        raise


@app.command()
@user_errors
def run(
    experiment_file: Annotated[str, typer.Argument(
        help="Experiment YAML (a path, or a name in configs/experiments/).", show_default=False)],
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Run directory (default: the experiment's out, else runs/<name>).",
        show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", help="Worker processes (default: the experiment's jobs).", show_default=False)] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace a different run in --out.")] = False,
    variant: Annotated[Optional[str], typer.Option(
        "--variant", help="Play the experiment under this rule variant (instead of its variant:, if any).",
        show_default=False)] = None,
    cluster: ClusterOpt = None,
):
    """Run an experiment: every match-up of its bot pool in every seating, into one run directory.

    Example: courtsim run configs/experiments/louis_xiv_demo.yaml && courtsim summary runs/louis_xiv_demo
    """
    from sim.core.experiments import find_experiment, prepare_experiment

    if jobs is not None:
        check_jobs(jobs, "--jobs")
    path = find_experiment(experiment_file)
    experiment, engine, setup, cells, config = prepare_experiment(path, variant=variant)
    out_dir = out if out is not None else Path(experiment.out or Path("runs") / experiment.name)
    jobs = jobs if jobs is not None else experiment.jobs
    stdout.print(f"{experiment.name}: {experiment.game}, players {', '.join(map(str, experiment.players))}, "
                 f"{len(experiment.bots)} bots, {len(cells)} seatings, "
                 f"{sum(cell.n_games for cell in cells):,} games -> {out_dir}")
    with on_cluster(cluster, experiment.cluster, path):
        result = keeping_finished_chunks(out_dir, lambda: run_cells(
            engine, setup, cells, experiment.seed, out_dir, config, jobs=jobs, chunk_size=experiment.chunk_size,
            progress=True, overwrite=overwrite, log=lambda message: print(message, file=sys.stderr),
            provenance={"experiment_file": str(path), **manifests.setup_provenance(setup)}))
    print_run_summary(result)
    stdout.print(f"next: courtsim summary {out_dir}")


@app.command()
@user_errors
def summary(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (simulate or run output).", show_default=False)],
    difference: Annotated[float, typer.Option(
        "--difference", help="Win-rate difference (e.g. 0.01 = 1 point) for the games-needed column.")] = 0.01,
):
    """Win rates, score differences, seat advantage and ratings of a run, with 95% intervals.

    Example: courtsim summary runs/louis_xiv_demo
    """
    from reports.analysis.summary import summarise
    from reports.terminal import print_summary

    if not 0 < difference < 1:
        raise ConfigError(f"--difference must be between 0 and 1, got {difference}")
    print_summary(summarise(run_dir, difference), stdout)


def print_run_summary(result: RunResult) -> None:
    summary = Table(title=f"courtsim run: {result.out_dir}", show_header=False, box=None)
    summary.add_column(style="bold")
    summary.add_column()
    summary.add_row("games", f"{result.n_games:,}")
    if result.already_complete:
        summary.add_row("status", "already complete (nothing played)")
    else:
        summary.add_row("played", f"{result.games_played:,}"
                        + (f" ({result.chunks_reused} chunks reused)" if result.chunks_reused else ""))
        summary.add_row("seconds", f"{result.wall_seconds:,.1f}")
        summary.add_row("games/s", f"{result.games_per_second:,.0f}")
    summary.add_row("output", str(result.out_dir))
    summary.add_row("run.yaml", "configuration, status, timings")
    for table, path in result.files.items():
        size = path.stat().st_size / 1e6 if path.exists() else 0.0
        summary.add_row(path.name, f"{result.rows.get(table, 0):,} rows, {size:,.1f} MB")
    stdout.print(summary)


@app.command()
@user_errors
def replay(
    game: GameArg,
    seed: Annotated[int, typer.Option("--seed", help="Experiment seed of the run.")],
    game_index: Annotated[int, typer.Option("--game", help="Index of the game in the run (0-based).")],
    players: PlayersOpt = 4,
    bots: BotsOpt = None,
    game_file: GameFileOpt = None,
    rule: RuleOpt = None,
    variant: VariantOpt = None,
):
    """Print the step-by-step log of one game (identical to that game in any run).

    Example: courtsim replay louis-xiv --seed 0 --game 17 --players 4
    """
    check_game_index(game_index, "--game")
    check_seed(seed, "--seed")
    engine, setup, seats = prepare_game(game, players, bots, game_file, rule, variant)
    typer.echo(engine.replay(setup, players, seats, seed, game_index))


@app.command()
@user_errors
def bench(
    game: GameArg,
    players: PlayersOpt = 4,
    games: Annotated[Optional[int], typer.Option(
        "--games", "-n", help="Games in the timed call (default: about 3 seconds' worth).",
        show_default=False)] = None,
    bots: BotsOpt = None,
    each_bot: Annotated[bool, typer.Option(
        "--each-bot", help="Time every scripted bot of the game (all seats alike) next to greedy.")] = False,
    scaling: Annotated[bool, typer.Option(
        "--scaling", help="Time a whole run with 1 core and with every core (interleaved); print their ratio.")] = False,
    seed: SeedOpt = 0,
    game_file: GameFileOpt = None,
    rule: RuleOpt = None,
    variant: VariantOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Last stdout line: one JSON object.")] = False,
):
    """Measure games per second per core (single-threaded play_chunk calls of a run's chunk size,
    after a warm-up).

    The warm-up call excludes numba compilation / cache loading from the timing; one untimed
    chunk of the run's size then brings the process to the state a long run is in. With
    --each-bot, every bot of `courtsim bots list` (search bots too) is timed in every seat alike.
    With --scaling, a whole run (chunks, Parquet, merge) is timed with --jobs 1 and --jobs -1 in
    interleaved pairs; --json gives the ratio as `scaling_ratio`.

    Example: courtsim bench louis-xiv --players 4 --json
    """
    if games is not None:
        check_game_count(games, "--games")
    check_seed(seed, "--seed")
    engine, setup, seats = prepare_game(game, players, bots, game_file, rule, variant)
    benchmarks.limit_numba_to_one_thread()
    if each_bot:
        from strategies.bots import BotCatalogue
        names = BotCatalogue().names(game)   # every bot, search ones too, all seats alike
        reports = [benchmarks.bench_bots(engine, setup, game, players, resolve_bots(game, [name] * players), seed,
                                         games) for name in names]
        listing = Table("bot", "games/s per core", "games", "seconds", title=f"{game}, {players} players")
        for name, report in zip(names, reports):
            listing.add_row(name, f"{report['games_per_second_per_core']:,.0f}", f"{report['games']:,}",
                            f"{report['seconds']:.2f}")
        stdout.print(listing)
        if as_json:
            print(json.dumps({"game": game, "players": players, "bots": dict(zip(names, reports))}))
        return
    if scaling:
        report = benchmarks.scaling_report(engine, setup, game, players, seats, seed, games)
        print_scaling(report)
        if as_json:
            print(json.dumps(report))
        return
    report = benchmarks.bench_bots(engine, setup, game, players, seats, seed, games)
    if as_json:
        print(json.dumps(report))
    else:
        stdout.print(f"{game}, {players} players, {report['games']:,} games in {report['seconds']:.2f} s "
                     f"(warm-up {report['warmup_seconds']:.2f} s): "
                     f"[bold]{report['games_per_second_per_core']:,.0f} games/s per core[/bold]", soft_wrap=True)


def print_scaling(report: dict) -> None:
    stdout.print(f"{report['game']}, {report['players']} players, {report['games']:,} games per run, playing: "
                 f"1 core {report['games_per_second_one_core']:,.0f} games/s, "
                 f"{report['cores']} cores {report['games_per_second_every_core']:,.0f} games/s: "
                 f"[bold]scaling ratio {report['scaling_ratio']:.2f}[/bold]; the whole run with its merge: "
                 f"{report['whole_run_games_per_second_one_core']:,.0f} and "
                 f"{report['whole_run_games_per_second_every_core']:,.0f} games/s, "
                 f"ratio {report['whole_run_scaling_ratio']:.2f}; "
                 f"{report['scheduling_share']:.1%} of the play's core time outside chunks", soft_wrap=True)


@app.command("compile")
@user_errors
def compile_kernels(
    games: Annotated[Optional[list[str]], typer.Argument(
        help="Games to compile (default: every game).", show_default=False)] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (-1: one per core).")] = -1,
):
    """Compile every game's kernels now (numba caches them on disk), games in parallel.

    Optional: the first run of a game compiles what it needs anyway.

    Example: courtsim compile
    """
    from sim.core.warm_up import warm_up

    check_jobs(jobs, "--jobs")
    names = games or registry.known_games()
    for name in names:
        registry.get_engine(name)  # an unknown game: one clear line before any work
    for name, seconds in warm_up(names, jobs):
        stdout.print(f"{name}: kernels ready in {seconds:.1f} s")


@app.command("games")
@user_errors
def list_games():
    """List the registered games and their player counts."""
    listing = Table("game", "players", "tables")
    for name in registry.known_games():
        try:
            engine = registry.get_engine(name)
            listing.add_row(name, ", ".join(map(str, engine.player_counts)), ", ".join(engine.tables))
        except ConfigError as error:
            listing.add_row(name, "-", f"({one_line(error)})")
    stdout.print(listing)


@app.command("tables")
@user_errors
def list_tables(
    game: GameArg,
    table: Annotated[Optional[str], typer.Option("--table", "-t", help="Only this table.")] = None,
    game_file: Annotated[Optional[Path], typer.Option(help="Component/rules file (labels such as betrayal card types come from it).")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print Markdown tables (the README's list).")] = False,
):
    """Every column of every table GAME writes: name, type, meaning (labels of coded columns, what a null means)."""
    engine = registry.get_engine(game)
    if not hasattr(engine, "table_schemas"):
        raise ConfigError(f"{game}: the engine declares no table columns (expected a table_schemas method)")
    schemas = engine.table_schemas(engine.load_setup(str(game_file) if game_file else None))
    if table is not None and table not in schemas:
        raise ConfigError(f"--table: expected one of {', '.join(schemas)}, found {table!r}")
    for schema in ([schemas[table]] if table else schemas.values()):
        if markdown:
            typer.echo(table_markdown(schema))
            continue
        listing = Table("column", "type", "meaning", title=f"{schema.name}.parquet: {schema.meaning}",
                        title_justify="left")
        for column in schema.columns:
            listing.add_row(column.name, column.type, table_schema.describe(column))
        stdout.print(listing)


def table_markdown(schema: table_schema.TableSchema) -> str:
    """One table's columns as a Markdown table (the README's list is this output)."""
    rows = [f"| `{column.name}` | {column.type} | {table_schema.describe(column)} |" for column in schema.columns]
    return "\n".join([f"#### `{schema.name}.parquet`: {schema.meaning}", "", "| column | type | meaning |",
                      "|---|---|---|", *rows, ""])


@app.command()
@user_errors
def report(
    run_dir: Annotated[Path, typer.Argument(help="A finished run directory (simulate or run).", show_default=False)],
    output: Annotated[str, typer.Option("--output", "-o", help="The HTML file to write (a folder, DIR/ or an existing "
                                        "directory, gets DIR/report.html).")] = "report.html",
    sensitivity: Annotated[Optional[Path], typer.Option(
        "--sensitivity", help="A sensitivity directory (courtsim sensitivity) whose robust / fragile verdicts the "
                              "report shows (default: runs/sensitivity/<game> when it holds a complete study).",
        show_default=False)] = None,
):
    """Build the self-contained HTML balance report of a run (figures also as PNG, tables as CSV).

    Example: courtsim report runs/louis_xiv_demo -o runs/louis_xiv_demo/report.html
    """
    from reports.pages.run_report import report_command

    written = report_command(run_dir, output, progress=True, sensitivity=sensitivity)
    stdout.print(f"report: {written} (figures and CSV tables in {written.parent / (written.stem + '_files')})")


bots_app = typer.Typer(help="List the available bots, or show one bot's resolved parameters.",
                       no_args_is_help=True)
app.add_typer(bots_app, name="bots")
GameOpt = Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game.", show_default=False)]


@bots_app.command("list")
@user_errors
def bots_list(game: GameOpt = None):
    """Every bot of every game (built-in families and configs/bots/), with its description."""
    from strategies.bots import BotCatalogue

    catalogue = BotCatalogue()
    listing = Table("game", "bot", "family", "description")
    for name in [game] if game else registry.known_games():
        for bot in catalogue.names(name):
            definition = catalogue.definition(name, bot)
            listing.add_row(name, bot, definition.family, definition.description)
    stdout.print(listing)


@bots_app.command("show")
@user_errors
def bots_show(
    name_or_path: Annotated[str, typer.Argument(help="A bot name or a bot YAML file.", show_default=False)],
    game: GameOpt = None,
):
    """A bot's family and every parameter's resolved value, meaning and range.

    Example: courtsim bots show crown_hunter   |   courtsim bots show my_bot.yaml
    """
    from sim.core.yaml_files import looks_like_path
    from strategies.bots import BotCatalogue, family_parameters, read_bot_file

    catalogue = BotCatalogue()
    if looks_like_path(name_or_path):
        game = game or read_bot_file(Path(name_or_path)).game
        bot_package(game)  # an unknown game in the file: one clear line
    games = [game] if game else [g for g in registry.known_games() if name_or_path in catalogue.names(g)]
    if not games:
        raise ConfigError(f"unknown bot '{name_or_path}': see `courtsim bots list`")
    for game_name in games:
        definition = catalogue.definition(game_name, name_or_path)
        stdout.print(f"[bold]{definition.name}[/bold] ({game_name}, family {definition.family}; "
                     f"{definition.source}" + (f"; extends {' -> '.join(definition.chain)}" if definition.chain else "")
                     + f")\n{definition.description}")
        listing = Table("parameter", "value", "default", "range", "meaning")
        for parameter in family_parameters(game_name, definition.family):
            value = definition.parameters[parameter.name]
            marker = "*" if parameter.name in definition.overrides else ""
            listing.add_row(parameter.name, f"{value:g}{marker}", f"{parameter.default:g}",
                            f"{parameter.low:g}..{parameter.high:g}", parameter.meaning)
        stdout.print(listing)


@app.command()
@user_errors
def compare(
    experiment_file: Annotated[str, typer.Argument(
        help="Experiment YAML (a path, or a name in configs/experiments/).", show_default=False)],
    variants: Annotated[str, typer.Option(
        "--variants", help="Comma-separated rule variants to compare with the baseline.", show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Comparison directory.", show_default=False)],
    baseline: Annotated[Optional[str], typer.Option(
        "--baseline", help="A variant as the baseline (default: the printed rules, or the experiment's variant:).",
        show_default=False)] = None,
    games_per_matchup: Annotated[Optional[int], typer.Option(
        "--games-per-matchup", help="Games per match-up and batch (default: the experiment's).",
        show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", help="Worker processes (default: the experiment's jobs).", show_default=False)] = None,
    until_resolved: Annotated[bool, typer.Option(
        "--until-resolved", help="Play batches until every requested difference is decided against "
                                 "--margin (GSPRT) or --max-games is spent.")] = False,
    margin: Annotated[float, typer.Option(
        "--margin", help="Smallest difference that matters: for rates 0.01 = one point; other metrics: "
                         "a share of the baseline value.")] = 0.01,
    metrics: Annotated[Optional[str], typer.Option(
        "--metrics", help="Comma-separated metrics --until-resolved decides (default: every player's win rate: "
                          "first_player_win_rate, second_player_win_rate, ...).",
        show_default=False)] = None,
    max_games: Annotated[Optional[int], typer.Option(
        "--max-games", help="With --until-resolved: at most this many games per arm.", show_default=False)] = None,
    adjust: Annotated[str, typer.Option("--adjust", help="p-value adjustment over the table: holm or fdr_bh.")] = "holm",
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace different runs in --out.")] = False,
    cluster: ClusterOpt = None,
):
    """Compare rule variants with the baseline on common random numbers: paired differences per
    metric and player count, DIR/comparison.parquet and DIR/report.html.

    Example: courtsim compare louis_xiv_2p_tweaks --variants imaginary_player_6_markers --out runs/lx-2p
    """
    if jobs is not None:
        check_jobs(jobs, "--jobs")

    def compare_and_print() -> None:
        # all of it under keeping_finished_chunks, as every command's play is: compare spends its first
        # seconds importing its statistics and validating every arm's rules, and a Ctrl-C there must
        # print the interrupted line and exit 130 too (typer alone would exit 130 without a word)
        from sim.core.experiments import find_experiment
        from sim.studies.compare import plan_comparison, run_comparison

        names = [name.strip() for name in variants.split(",") if name.strip()]
        chosen = [name.strip() for name in metrics.split(",") if name.strip()] if metrics else None
        plan = plan_comparison(find_experiment(experiment_file), names, out, baseline=baseline,
                               games_per_matchup=games_per_matchup, jobs=jobs, until_resolved=until_resolved,
                               margin=margin, metrics=chosen, max_games=max_games, adjustment=adjust,
                               overwrite=overwrite)
        with on_cluster(cluster, plan.experiment.cluster, plan.experiment_path):
            directory = run_comparison(plan, log=lambda message: print(message, file=sys.stderr), progress=True)
        print_comparison(directory)

    keeping_finished_chunks(out, compare_and_print)


TERMINAL_DIFFERENCES = 20   # real differences the terminal lists (the report has them all)


def print_comparison(directory: Path) -> None:
    """The real differences (and how many did not move), as the report's headlines."""
    import polars as pl

    table = pl.read_parquet(directory / "comparison.parquet")
    listing = Table("players", "variant", "metric", "baseline", "variant", "difference [95%]", "verdict", "CRN gain")
    # the largest first, measured in margins, so that a rate and a count rank together
    real = table.filter(pl.col("verdict") == "real").sort(
        (pl.col("difference").abs() / pl.col("margin")).fill_nan(0.0), descending=True)
    for row in real.head(TERMINAL_DIFFERENCES).iter_rows(named=True):
        scale, suffix = (100.0, "%") if row["unit"] == "rate" else (1.0, "")
        listing.add_row(str(row["n_players"]), row["variant"], row["metric_label"],
                        f"{row['baseline_value'] * scale:.1f}{suffix}", f"{row['variant_value'] * scale:.1f}{suffix}",
                        f"{row['difference'] * scale:+.2f} [{row['low'] * scale:+.2f}, {row['high'] * scale:+.2f}]",
                        row["verdict"], f"{row['crn_gain']:.1f}")
    stdout.print(listing)
    if real.height > TERMINAL_DIFFERENCES:
        stdout.print(f"... and {real.height - TERMINAL_DIFFERENCES} more real differences in the report")
    counts = table["verdict"].value_counts().sort("verdict")
    stdout.print(", ".join(f"{count} {verdict}" for verdict, count in counts.iter_rows()) +
                 f" (of {table.height}); report: {directory / 'report.html'}")


@app.command()
@user_errors
def sweep(
    sweep_file: Annotated[str, typer.Argument(
        help="Sweep YAML (a path, or a name in configs/sweeps/).", show_default=False)],
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Sweep directory (default: the sweep's out, else runs/sweeps/<name>).",
        show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", help="Worker processes (default: the sweep's, else the experiment's jobs).",
        show_default=False)] = None,
    games_per_matchup: Annotated[Optional[int], typer.Option(
        "--games-per-matchup", help="Games per match-up in every cell (default: the sweep's, else the "
                                    "experiment's).", show_default=False)] = None,
    cluster: ClusterOpt = None,
):
    """Sweep rule values: every cell of a grid (or list) of variant paths, crossed with bot pools,
    played on common random numbers; DIR/sweep.parquet and DIR/report.html. Resumes cell by cell.

    Example: courtsim sweep heads_of_state_assassin_cubes
    """
    from sim.core.arguments import check_game_count
    from sim.studies.sweep import find_sweep, plan_sweep, run_sweep

    if jobs is not None:
        check_jobs(jobs, "--jobs")
    if games_per_matchup is not None:
        check_game_count(games_per_matchup, "--games-per-matchup")
    plan = plan_sweep(find_sweep(sweep_file), out, jobs=jobs, games_per_matchup=games_per_matchup)
    with on_cluster(cluster, plan.sweep.cluster, plan.path):
        directory = keeping_finished_chunks(plan.out_dir, lambda: run_sweep(
            plan, log=lambda message: print(message, file=sys.stderr), progress=True))
    print_sweep(directory)


def print_sweep(directory: Path) -> None:
    """Each target's cells that meet it, and where the report is."""
    import polars as pl
    import yaml as yaml_module

    from reports.pages.sweep_report import target_status

    record = yaml_module.safe_load((directory / "sweep.yaml").read_text(encoding="utf-8"))
    statuses = target_status(pl.read_parquet(directory / "sweep.parquet").to_pandas(), record.get("targets") or [])
    if len(statuses):
        listing = Table("target", "meets", "may meet", "misses")
        for target, rows in statuses.groupby("target", sort=False):
            counts = rows["status"].value_counts()
            listing.add_row(str(target), *(str(int(counts.get(status, 0))) for status in ("meets", "may meet", "misses")))
        stdout.print(listing)
    stdout.print(f"{len(record['cells'])} cells; table: {directory / 'sweep.parquet'}; report: {directory / 'report.html'}")


@app.command()
@user_errors
def tune(
    tuning_file: Annotated[str, typer.Argument(
        help="Tuning YAML (a path, or a name in configs/tuning/).", show_default=False)],
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Tuning directory (default: the file's out, else runs/tuning/<name>).",
        show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", help="Worker processes per candidate (default: the file's, else the experiment's jobs).",
        show_default=False)] = None,
    trials: Annotated[Optional[int], typer.Option(
        "--trials", help="Candidates to try (default: the file's trials; more than a stored study has adds trials).",
        show_default=False)] = None,
    rungs: Annotated[Optional[str], typer.Option(
        "--rungs", help="Games per match-up at each rung, rising, e.g. 200,800 (default: the file's rungs).",
        show_default=False)] = None,
    fresh_games_per_matchup: Annotated[Optional[int], typer.Option(
        "--fresh-games-per-matchup", help="Fresh games per match-up re-evaluating the best (default: the file's, "
        "else twice the last rung).", show_default=False)] = None,
    cluster: ClusterOpt = None,
):
    """Tune the rules toward balance targets: Optuna (NSGA-II or TPE) minimises the targets' miss
    and the change from the printed rules, with successive halving over rungs of games; the best
    Pareto candidates are re-evaluated on fresh games and written as variant files. Resumes.

    Example: courtsim tune heads_of_state_2p_balance
    """
    from sim.studies.tune_rules import find_tuning, plan_tuning, tune as tune_rules

    if jobs is not None:
        check_jobs(jobs, "--jobs")
    plan = plan_tuning(find_tuning(tuning_file), out, jobs=jobs, trials=trials,
                       rungs=None if rungs is None else parse_rungs(rungs),
                       fresh_games_per_matchup=fresh_games_per_matchup)
    with on_cluster(cluster, plan.tuning.cluster, plan.path):
        directory = keeping_finished_chunks(plan.out_dir, lambda: tune_rules(
            plan, log=lambda message: print(message, file=sys.stderr), progress=True))
    print_tuning(directory)


def parse_rungs(text: str) -> list[int]:
    """``--rungs 200,800``: games per match-up at each rung."""
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise ConfigError(f"--rungs: expected whole numbers of games separated by commas (e.g. 200,800), "
                          f"found {text!r}") from None


def print_tuning(directory: Path) -> None:
    """The recommended candidates with their fresh misses, and where the report is."""
    import yaml as yaml_module

    record = yaml_module.safe_load((directory / "tuning.yaml").read_text(encoding="utf-8"))
    listing = Table("candidate", "values", "change", "fresh miss", "targets")
    for entry in record["recommended"]:
        listing.add_row(entry["name"], ", ".join(f"{name} {value:g}" if isinstance(value, float) else f"{name} {value}"
                                                 for name, value in entry["values"].items()),
                        f"{entry['change']:.2f}", f"{entry['fresh_miss']:.2f}",
                        "; ".join(target["status"] for target in entry["targets"]))
    stdout.print(listing)
    stdout.print(f"variants: {directory / 'recommended'}; report: {directory / 'report.html'}")


@app.command()
@user_errors
def sensitivity(
    game: GameArg,
    sensitivity_file: Annotated[Optional[str], typer.Argument(
        help="Sensitivity YAML (default: configs/sensitivity/<game>.yaml).", show_default=False)] = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Sensitivity directory (default: the file's out, else runs/sensitivity/<game>).",
        show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", help="Worker processes per design point (default: the file's, else the experiment's).",
        show_default=False)] = None,
    games_per_matchup: Annotated[Optional[int], typer.Option(
        "--games-per-matchup", help="Games per match-up at every design point (default: the file's, else the "
                                    "experiment's).", show_default=False)] = None,
    trajectories: Annotated[Optional[int], typer.Option(
        "--trajectories", help="Morris trajectories of inputs + 1 design points each (default: the file's).",
        show_default=False)] = None,
    oat_levels: Annotated[Optional[int], typer.Option(
        "--oat-levels", help="Points of each one-at-a-time curve (default: the file's).", show_default=False)] = None,
    cluster: ClusterOpt = None,
):
    """Which conclusions survive the unprinted component data? Morris screening (SALib) of every
    assumption over its plausible range on common random numbers, one-at-a-time curves of the
    inputs that matter, and a robust / fragile verdict per conclusion. Resumes point by point.

    Example: courtsim sensitivity louis-xiv
    """
    from sim.core.arguments import check_game_count
    from sim.studies.sensitivity import find_sensitivity, plan_sensitivity, run_sensitivity

    if jobs is not None:
        check_jobs(jobs, "--jobs")
    if games_per_matchup is not None:
        check_game_count(games_per_matchup, "--games-per-matchup")
    engine = registry.get_engine(game)
    plan = plan_sensitivity(engine.name, find_sensitivity(engine.name, sensitivity_file), out, jobs=jobs,
                            games_per_matchup=games_per_matchup, trajectories=trajectories, oat_levels=oat_levels)
    with on_cluster(cluster, plan.sensitivity.cluster, plan.path):
        directory = keeping_finished_chunks(plan.out_dir, lambda: run_sensitivity(
            plan, log=lambda message: print(message, file=sys.stderr), progress=True))
    print_sensitivity(directory)


def print_sensitivity(directory: Path) -> None:
    """Every conclusion's verdict in a sentence, and where the report is."""
    import yaml as yaml_module

    record = yaml_module.safe_load((directory / "sensitivity.yaml").read_text(encoding="utf-8"))
    for verdict in record["conclusions"]:
        stdout.print(f"- {verdict['sentence']}")
    stdout.print(f"report: {directory / 'report.html'}")


@app.command("tune-bot")
@user_errors
def tune_bot(
    game: GameArg,
    players: PlayersOpt,
    against: Annotated[str, typer.Option("--against", help="The pool: comma-separated bot names or files.",
                                         show_default=False)],
    budget: Annotated[int, typer.Option("--budget", help="Training games in all, over every trial.", show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Tuning directory (SQLite study, tuned bot).",
                                      show_default=False)],
    family: Annotated[str, typer.Option("--family", help="The bot family whose parameters are tuned.")] = "greedy",
    games_per_trial: Annotated[int, typer.Option("--games-per-trial", help="Games one candidate plays.")] = 400,
    batch: Annotated[int, typer.Option("--batch", help="Candidates asked from Optuna at a time.")] = 8,
    seed: SeedOpt = 0,
    name: Annotated[Optional[str], typer.Option("--name", help="Name of the tuned bot (default tuned_<n>p).",
                                                show_default=False)] = None,
    start: Annotated[Optional[str], typer.Option("--start", help="A bot of the family as the first candidate "
                                                 "(default: the family's defaults).", show_default=False)] = None,
    sampler: Annotated[str, typer.Option("--sampler", help="tpe, or cmaes (a search around --start, "
                                           "one batch per generation).")] = "tpe",
    objective: Annotated[str, typer.Option("--objective", help="mean: the mean win rate against every mix of the "
                                           "pool; worst: the lowest win rate against n - 1 copies of any one pool "
                                           "bot; field: the lowest mean win rate of n - 1 candidate seats against "
                                           "one of any pool bot; both: the lowest of worst's and field's.")] = "mean",
    speed_floor: Annotated[Optional[float], typer.Option("--speed-floor", help="Least fraction of greedy's games "
                                                         "per second (estimated from turns per game in mirror "
                                                         "games); slower candidates lose the shortfall from their "
                                                         "score.", show_default=False)] = None,
):
    """Tune a bot family's parameters against a pool with Optuna; write the best as a bot YAML.

    Example: courtsim tune-bot louis-xiv --players 2 --against greedy,coat_hoarder --budget 40000 --out runs/tune-lx-2p
    """
    from sim.studies.tune_bot import plan_tuning, tune

    check_seed(seed, "--seed")
    pool = [bot.strip() for bot in against.split(",") if bot.strip()]
    plan = plan_tuning(game, players, pool, budget, out, family=family, games_per_trial=games_per_trial,
                       batch=batch, seed=seed, name=name, start=start, sampler=sampler,
                       objective=objective, speed_floor=speed_floor)
    written = keeping_finished_chunks(plan.out_dir, lambda: tune(
        plan, log=lambda message: print(message, file=sys.stderr), progress=True))
    stdout.print(f"tuned bot: {written}\n{yaml.safe_load(written.read_text())['description']}")


variants_app = typer.Typer(help="List the rule variants, or show one variant's overrides.", no_args_is_help=True)
app.add_typer(variants_app, name="variants")


@variants_app.command("list")
@user_errors
def variants_list(game: Annotated[Optional[str], typer.Argument(
        help="Only this game's variants.", show_default=False)] = None):
    """Every rule variant in configs/variants/, with its rationale."""
    from sim.core import variants

    listing = Table("game", "variant", "extends", "overrides", "description")
    for name in [game] if game else registry.known_games():
        bot_package(name)  # an unknown game: one clear line
        for variant_name in variants.library_names(name):
            variant = variants.load_variant(variant_name, name)
            listing.add_row(name, variant.name, " -> ".join(variant.chain),
                            str(len(variant.overrides) + len(variant.rules)), variant.description)
    stdout.print(listing)


@variants_app.command("show")
@user_errors
def variants_show(
    name_or_path: Annotated[str, typer.Argument(help="A variant name or a variant YAML file.", show_default=False)],
    game: GameOpt = None,
):
    """Each override of a variant: its path, the printed value, the variant's value, and the rationale.

    Example: courtsim variants show keep_all_ranks_token_2p
    """
    from sim.core import variants

    variant = variants.load_variant(name_or_path, game)
    engine = registry.get_engine(variant.game)
    variants.load_setup(engine, None, variant)       # refuse an invalid variant here too
    rows, rule_rows = variants.override_rows(variant, engine)
    chain = f"; extends {' -> '.join(variant.chain)}" if variant.chain else ""
    stdout.print(f"[bold]{variant.name}[/bold] ({variant.game}; {variant.path}{chain})\n{variant.description}")
    listing = Table("override", "printed", "variant")
    for row in rows:
        listing.add_row(row["path"], yaml_text(row["printed"]), yaml_text(row["value"]))
    for row in rule_rows:
        listing.add_row(f"rules.{row['name']}", yaml_text(row["printed"]), yaml_text(row["value"]))
    stdout.print(listing)


def yaml_text(value) -> str:
    """A value as the YAML files write it (true, [16, 12, 8])."""
    return yaml.safe_dump(value, default_flow_style=True, width=1000).strip().removesuffix("...").strip()


if __name__ == "__main__":
    app()
