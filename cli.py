"""courtsim command line: each command parses its options, calls one function and prints through
reports/terminal.py. A user's mistake is one ``error:`` line and exit code 2, a Ctrl-C keeps what
was played (reports/command_errors.py); anything else is a bug and keeps its traceback.
"""
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from reports import terminal
from reports.command_errors import OneLineUsageErrors, keep_interrupts, keeping_finished_chunks, one_line, user_errors
from sim import registry
from sim.core.arguments import (check_game_count, check_game_index, check_jobs, check_seed, game_counts_in, names_in,
                                player_counts_in)
from sim.core.cluster import on_cluster
from sim.core.engine import ConfigError
from sim.core.one_seating import DEFAULT_BOT, prepare_one_seating
from sim.core.run_manifest import courtsim_version
from sim.core.runner import DEFAULT_CHUNK_SIZE

app = typer.Typer(
    cls=OneLineUsageErrors,
    help="Monte Carlo balance analysis for board games (Louis XIV, Heads of State).",
    no_args_is_help=True, add_completion=False,
    pretty_exceptions_enable=False,  # real crashes: a plain traceback, no locals full of arrays
)
stdout = terminal.stdout
log = terminal.log

# ----------------------------------------------------------------------------- shared options

GameArg = Annotated[str, typer.Argument(help="Game name (see `courtsim games`).", show_default=False)]
GameOpt = Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game.", show_default=False)]
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
ExperimentArg = Annotated[str, typer.Argument(
    help="Experiment YAML (a path, or a name in configs/experiments/).", show_default=False)]
OverwriteOpt = Annotated[bool, typer.Option("--overwrite", help="Replace a different run in --out.")]


def jobs_option(default_words: str):
    return typer.Option("--jobs", "-j", help=f"Worker processes (default: {default_words}).", show_default=False)


def out_option(help_text: str):
    return typer.Option("--out", "-o", help=help_text, show_default=False)


def games_per_matchup_option(default_words: str):
    return typer.Option("--games-per-matchup", help=f"Games per match-up {default_words}.", show_default=False)


def checked_jobs(jobs: int | None) -> int | None:
    if jobs is not None:
        check_jobs(jobs, "--jobs")
    return jobs


def version_callback(value: bool) -> None:
    if value:
        print(f"courtsim {courtsim_version()}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option(
        "--version", callback=version_callback, is_eager=True, help="Show the version and exit.")] = False):
    """Monte Carlo balance analysis for board games (Louis XIV, Heads of State)."""
    sys.unraisablehook = keep_interrupts


# ----------------------------------------------------------------------------- runs

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
    out: Annotated[Optional[Path], out_option("Run directory (default: runs/<game>).")] = None,
    game_file: GameFileOpt = None,
    rule: RuleOpt = None,
    variant: VariantOpt = None,
    overwrite: OverwriteOpt = False,
    cluster: ClusterOpt = None,
    tables: Annotated[Optional[str], typer.Option(
        "--tables", help="Comma-separated optional tables to write too, e.g. standings "
                         "(courtsim tables GAME lists them).", show_default=False)] = None,
):
    """Play GAMES games and write every table to Parquet files in --out.

    Example: courtsim simulate louis-xiv --players 4 --games 20000 --jobs 2 --out runs/demo
    """
    from sim.core.engine import with_optional_tables
    from sim.core.runner import run_simulation
    from sim.core.run_manifest import setup_provenance

    check_seed(seed, "--seed")
    check_jobs(jobs, "--jobs")
    engine, setup, seats = prepare_one_seating(game, players, bots, game_file, rule, variant)
    setup = with_optional_tables(engine, setup, names_in(tables or ""), "--tables")
    out_dir = out if out is not None else Path("runs") / game
    with on_cluster(cluster):
        result = keeping_finished_chunks(out_dir, lambda: run_simulation(
            engine, setup, players, seats, seed, games, out_dir, jobs=jobs, chunk_size=chunk_size,
            progress=True, overwrite=overwrite, log=log, provenance=setup_provenance(setup)))
    terminal.print_run_summary(result)


@app.command()
@user_errors
def run(
    experiment_file: ExperimentArg,
    out: Annotated[Optional[Path], out_option(
        "Run directory (default: the experiment's out, else runs/<name>).")] = None,
    jobs: Annotated[Optional[int], jobs_option("the experiment's jobs")] = None,
    overwrite: OverwriteOpt = False,
    variant: Annotated[Optional[str], typer.Option(
        "--variant", help="Play the experiment under this rule variant (instead of its variant:, if any).",
        show_default=False)] = None,
    cluster: ClusterOpt = None,
):
    """Run an experiment: every match-up of its bot pool in every seating, into one run directory.

    Example: courtsim run configs/experiments/louis_xiv_demo.yaml && courtsim summary runs/louis_xiv_demo
    """
    from sim.core.experiments import find_experiment, prepare_experiment
    from sim.core.run_manifest import setup_provenance
    from sim.core.runner import run_cells

    checked_jobs(jobs)
    path = find_experiment(experiment_file)
    experiment, engine, setup, cells, config = prepare_experiment(path, variant=variant)
    out_dir = out if out is not None else Path(experiment.out or Path("runs") / experiment.name)
    terminal.print_experiment_plan(experiment, cells, out_dir)
    with on_cluster(cluster, experiment.cluster, path):
        result = keeping_finished_chunks(out_dir, lambda: run_cells(
            engine, setup, cells, experiment.seed, out_dir, config, jobs=jobs if jobs is not None else experiment.jobs,
            chunk_size=experiment.chunk_size, progress=True, overwrite=overwrite, log=log,
            provenance={"experiment_file": str(path), **setup_provenance(setup)}))
    terminal.print_run_summary(result)
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

    if not 0 < difference < 1:
        raise ConfigError(f"--difference must be between 0 and 1, got {difference}")
    terminal.print_summary(summarise(run_dir, difference), stdout)


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
    engine, setup, seats = prepare_one_seating(game, players, bots, game_file, rule, variant)
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
    With --scaling, a whole run (chunks, Parquet parts, run.yaml) is timed with --jobs 1 and --jobs -1 in
    interleaved pairs; --json gives the ratio as `scaling_ratio`.

    Example: courtsim bench louis-xiv --players 4 --json
    """
    from sim.core import bench as benchmarks

    if games is not None:
        check_game_count(games, "--games")
    check_seed(seed, "--seed")
    engine, setup, seats = prepare_one_seating(game, players, bots, game_file, rule, variant)
    benchmarks.limit_numba_to_one_thread()
    if each_bot:
        reports = benchmarks.bench_each_bot(engine, setup, game, players, seed, games)
        terminal.print_bench_of_each_bot(game, players, reports, as_json)
    elif scaling:
        terminal.print_scaling(benchmarks.scaling_report(engine, setup, game, players, seats, seed, games), as_json)
    else:
        terminal.print_bench(benchmarks.bench_bots(engine, setup, game, players, seats, seed, games), as_json)


@app.command("compile")
@user_errors
def compile_kernels(
    games: Annotated[Optional[list[str]], typer.Argument(
        help="Games to compile (default: every game).", show_default=False)] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (-1: one per core).")] = -1,
    as_json: Annotated[bool, typer.Option("--json", help="Last stdout line: one JSON object of seconds.")] = False,
):
    """Compile every game's kernels now (numba caches them on disk), games in parallel.

    Optional: the first run of a game compiles what it needs anyway.

    Example: courtsim compile --json
    """
    from sim.core.warm_up import warm_up

    check_jobs(jobs, "--jobs")
    names = games or registry.known_games()
    for name in names:
        registry.get_engine(name)  # an unknown game: one clear line before any work
    started = time.perf_counter()
    timings = warm_up(names, jobs)
    terminal.print_compile(timings, time.perf_counter() - started, as_json)


@app.command("games")
@user_errors
def list_games():
    """List the registered games and their player counts."""
    rows = []
    for name in registry.known_games():
        try:
            engine = registry.get_engine(name)
            rows.append((name, ", ".join(map(str, engine.player_counts)), ", ".join(engine.tables)))
        except ConfigError as error:
            rows.append((name, "-", f"({one_line(error)})"))
    terminal.print_games(rows)


@app.command("tables")
@user_errors
def list_tables(
    game: GameArg,
    table: Annotated[Optional[str], typer.Option("--table", "-t", help="Only this table.")] = None,
    game_file: Annotated[Optional[Path], typer.Option(
        help="Component/rules file (labels such as betrayal card types come from it).")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print Markdown tables (the README's list).")] = False,
):
    """Every column of every table GAME writes: name, type, meaning (labels of coded columns, what a null means)."""
    from sim.core.table_schema import game_schemas

    terminal.print_tables(game_schemas(registry.get_engine(game), game_file, table), markdown)


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

    terminal.print_report_written(report_command(run_dir, output, progress=True, sensitivity=sensitivity))


# ----------------------------------------------------------------------------- bots and variants

bots_app = typer.Typer(help="List the available bots, or show one bot's resolved parameters.",
                       no_args_is_help=True)
app.add_typer(bots_app, name="bots")


@bots_app.command("list")
@user_errors
def bots_list(game: GameOpt = None):
    """Every bot of every game (built-in families and configs/bots/), with its description."""
    from strategies.bots import listed_bots

    terminal.print_bots(listed_bots(game))


@bots_app.command("show")
@user_errors
def bots_show(
    name_or_path: Annotated[str, typer.Argument(help="A bot name or a bot YAML file.", show_default=False)],
    game: GameOpt = None,
):
    """A bot's family and every parameter's resolved value, meaning and range.

    Example: courtsim bots show crown_hunter   |   courtsim bots show my_bot.yaml
    """
    from strategies.bots import shown_bots

    for definition, parameters in shown_bots(name_or_path, game):
        terminal.print_bot(definition, parameters)


variants_app = typer.Typer(help="List the rule variants, or show one variant's overrides.", no_args_is_help=True)
app.add_typer(variants_app, name="variants")


@variants_app.command("list")
@user_errors
def variants_list(game: Annotated[Optional[str], typer.Argument(
        help="Only this game's variants.", show_default=False)] = None):
    """Every rule variant in configs/variants/, with its rationale."""
    from sim.core.variants import listed_variants

    terminal.print_variants(listed_variants(game))


@variants_app.command("show")
@user_errors
def variants_show(
    name_or_path: Annotated[str, typer.Argument(help="A variant name or a variant YAML file.", show_default=False)],
    game: GameOpt = None,
):
    """Each override of a variant: its path, the printed value, the variant's value, and the rationale.

    Example: courtsim variants show keep_all_ranks_token_2p
    """
    from sim.core.variants import shown_variant

    terminal.print_variant(*shown_variant(name_or_path, game))


# ----------------------------------------------------------------------------- studies

@app.command()
@user_errors
def compare(
    experiment_file: ExperimentArg,
    variants: Annotated[str, typer.Option(
        "--variants", help="Comma-separated rule variants to compare with the baseline.", show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="Comparison directory.", show_default=False)],
    baseline: Annotated[Optional[str], typer.Option(
        "--baseline", help="A variant as the baseline (default: the printed rules, or the experiment's variant:).",
        show_default=False)] = None,
    games_per_matchup: Annotated[Optional[int], games_per_matchup_option(
        "and batch (default: the experiment's)")] = None,
    jobs: Annotated[Optional[int], jobs_option("the experiment's jobs")] = None,
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
    checked_jobs(jobs)

    def compare_and_print() -> None:
        # all of it under keeping_finished_chunks, as every command's play is: compare spends its first
        # seconds importing its statistics and validating every arm's rules, and a Ctrl-C there must
        # print the interrupted line and exit 130 too (typer alone would exit 130 without a word)
        from sim.core.experiments import find_experiment
        from sim.studies.compare import plan_comparison, run_comparison

        plan = plan_comparison(find_experiment(experiment_file), names_in(variants), out, baseline=baseline,
                               games_per_matchup=games_per_matchup, jobs=jobs, until_resolved=until_resolved,
                               margin=margin, metrics=names_in(metrics) if metrics else None, max_games=max_games,
                               adjustment=adjust, overwrite=overwrite)
        with on_cluster(cluster, plan.experiment.cluster, plan.experiment_path):
            terminal.print_comparison(run_comparison(plan, log=log, progress=True))

    keeping_finished_chunks(out, compare_and_print)


@app.command()
@user_errors
def sweep(
    sweep_file: Annotated[str, typer.Argument(
        help="Sweep YAML (a path, or a name in configs/sweeps/).", show_default=False)],
    out: Annotated[Optional[Path], out_option(
        "Sweep directory (default: the sweep's out, else runs/sweeps/<name>).")] = None,
    jobs: Annotated[Optional[int], jobs_option("the sweep's, else the experiment's jobs")] = None,
    games_per_matchup: Annotated[Optional[int], games_per_matchup_option(
        "in every cell (default: the sweep's, else the experiment's)")] = None,
    cluster: ClusterOpt = None,
):
    """Sweep rule values: every cell of a grid (or list) of variant paths, crossed with bot pools,
    played on common random numbers; DIR/sweep.parquet and DIR/report.html. Resumes cell by cell.

    Example: courtsim sweep heads_of_state_assassin_cubes
    """
    from sim.studies.directory import find_study_file
    from sim.studies.sweep import plan_sweep, run_sweep

    if games_per_matchup is not None:
        check_game_count(games_per_matchup, "--games-per-matchup")
    plan = plan_sweep(find_study_file("sweep", sweep_file), out, jobs=checked_jobs(jobs),
                      games_per_matchup=games_per_matchup)
    with on_cluster(cluster, plan.sweep.cluster, plan.path):
        directory = keeping_finished_chunks(plan.out_dir, lambda: run_sweep(plan, log=log, progress=True))
    terminal.print_sweep(directory)


@app.command()
@user_errors
def tune(
    tuning_file: Annotated[str, typer.Argument(
        help="Tuning YAML (a path, or a name in configs/tuning/).", show_default=False)],
    out: Annotated[Optional[Path], out_option(
        "Tuning directory (default: the file's out, else runs/tuning/<name>).")] = None,
    jobs: Annotated[Optional[int], jobs_option("per candidate: the file's, else the experiment's jobs")] = None,
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
    from sim.studies.directory import find_study_file
    from sim.studies.tune_rules import plan_tuning, tune as tune_rules

    plan = plan_tuning(find_study_file("tune", tuning_file), out, jobs=checked_jobs(jobs), trials=trials,
                       rungs=None if rungs is None else game_counts_in(rungs, "--rungs"),
                       fresh_games_per_matchup=fresh_games_per_matchup)
    with on_cluster(cluster, plan.tuning.cluster, plan.path):
        directory = keeping_finished_chunks(plan.out_dir, lambda: tune_rules(plan, log=log, progress=True))
    terminal.print_tuning(directory)


@app.command()
@user_errors
def sensitivity(
    game: GameArg,
    sensitivity_file: Annotated[Optional[str], typer.Argument(
        help="Sensitivity YAML (default: configs/sensitivity/<game>.yaml).", show_default=False)] = None,
    out: Annotated[Optional[Path], out_option(
        "Sensitivity directory (default: the file's out, else runs/sensitivity/<game>).")] = None,
    jobs: Annotated[Optional[int], jobs_option("per design point: the file's, else the experiment's")] = None,
    games_per_matchup: Annotated[Optional[int], games_per_matchup_option(
        "at every design point (default: the file's, else the experiment's)")] = None,
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
    from sim.studies.directory import find_study_file
    from sim.studies.sensitivity import plan_sensitivity, run_sensitivity

    if games_per_matchup is not None:
        check_game_count(games_per_matchup, "--games-per-matchup")
    game = registry.check_game(game)
    plan = plan_sensitivity(game, find_study_file("sensitivity", sensitivity_file, game), out, jobs=checked_jobs(jobs),
                            games_per_matchup=games_per_matchup, trajectories=trajectories, oat_levels=oat_levels)
    with on_cluster(cluster, plan.sensitivity.cluster, plan.path):
        directory = keeping_finished_chunks(plan.out_dir, lambda: run_sensitivity(plan, log=log, progress=True))
    terminal.print_sensitivity(directory)


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
    jobs: Annotated[Optional[int], jobs_option("1; the results do not depend on it")] = None,
    cluster: ClusterOpt = None,
):
    """Tune a bot family's parameters against a pool with Optuna; write the best as a bot YAML.

    Example: courtsim tune-bot louis-xiv --players 2 --against greedy,coat_hoarder --budget 40000 --out runs/tune-lx-2p
    """
    from sim.studies.tune_bot import plan_tuning, tune

    check_seed(seed, "--seed")
    plan = plan_tuning(game, players, names_in(against), budget, out, family=family, games_per_trial=games_per_trial,
                       batch=batch, seed=seed, name=name, start=start, sampler=sampler,
                       objective=objective, speed_floor=speed_floor, jobs=checked_jobs(jobs) or 1)
    with on_cluster(cluster):
        written = keeping_finished_chunks(plan.out_dir, lambda: tune(plan, log=log, progress=True))
    terminal.print_tuned_bot(written)


@app.command()
@user_errors
def kingmaking(
    run_dir: Annotated[Path, typer.Argument(help="A run directory with a standings table (--tables standings).",
                                            show_default=False)],
    games: Annotated[int, typer.Option("--games", "-n", help="Games sampled (at most).")] = 1000,
    jobs: Annotated[Optional[int], jobs_option("1; the results do not depend on it")] = None,
):
    """Kingmaker index: how often a seat that cannot win decides which other seat wins.

    Example: courtsim kingmaking runs/louis_xiv_demo --games 1000 --jobs 2
    """
    from sim.studies.kingmaking import analyse_kingmaking

    check_game_count(games, "--games")
    terminal.print_kingmaking(analyse_kingmaking(run_dir, games=games, jobs=checked_jobs(jobs) or 1, log=log))


@app.command("landscape")
@user_errors
def landscape(
    game: GameArg,
    out: Annotated[Path, out_option("Landscape directory (cells, tables, report.html).")],
    players: Annotated[Optional[str], typer.Option("--players", "-p", help="Player counts, comma-separated "
                                                   "(default: every count the game has).", show_default=False)] = None,
    pool: Annotated[Optional[str], typer.Option("--pool", help="The meta-game's bots, comma-separated; tuned: each "
                                                "count's tuned bot (default: configs/landscape/<game>.yaml).",
                                                show_default=False)] = None,
    games_per_matchup: Annotated[int, games_per_matchup_option("(each ordered pair; each option switched off)")] = 400,
    exploit_budget: Annotated[int, typer.Option("--exploit-budget", help="Training games of a bot tuned against "
                                                "each count's tuned bot (0: no exploitability check).")] = 0,
    seed: SeedOpt = 0,
    variant: VariantOpt = None,
    jobs: Annotated[Optional[int], jobs_option("1; the results do not depend on it")] = None,
    cluster: ClusterOpt = None,
):
    """The strategy landscape: dominant strategies, dead options, luck against skill.

    Example: courtsim landscape louis-xiv --players 3 --games-per-matchup 200 --out runs/landscape-lx
    """
    from sim.studies.landscape import landscape as play_landscape, plan_landscape

    check_seed(seed, "--seed")
    plan = plan_landscape(game, out, players=player_counts_in(players, "--players") if players else None,
                          pool=names_in(pool) if pool else None, games_per_matchup=games_per_matchup, seed=seed,
                          jobs=checked_jobs(jobs) or 1, variant=variant, exploit_budget=exploit_budget)
    with on_cluster(cluster):
        written = keeping_finished_chunks(plan.out_dir, lambda: play_landscape(plan, log=log))
    terminal.print_landscape(written)


if __name__ == "__main__":
    app()
