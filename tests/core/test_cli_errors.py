"""Every bad input is one line ``error: ...`` on stderr with exit code 2, no traceback, and
nothing already computed is lost: files, options, experiment keys and run directories alike."""
from __future__ import annotations

import errno
import shutil
import time

import pydantic
import pytest
import typer
import yaml
from typer.testing import CliRunner

import cli
from sim.core.arguments import RuleSwitch, check_jobs, parse_bool
from sim.core.engine import GAME_INDEX_LIMIT, ConfigError
from sim.core.experiments import EXPERIMENTS_DIR
from strategies.bots import BOTS_DIR

runner = CliRunner()
GAMES_DIR = EXPERIMENTS_DIR.parent / "games"
LOUIS_GAME_FILE = GAMES_DIR / "louis_xiv.yaml"
CROWN_HUNTER = BOTS_DIR / "louis_xiv" / "crown_hunter.yaml"
DEMO_EXPERIMENT = EXPERIMENTS_DIR / "louis_xiv_demo.yaml"
JOBS_MESSAGE = "expected a positive number of worker processes or -1 for every core, found -2"


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args])


def assert_user_error(result, message="", progress_prefix=None):
    """Exit 2, no traceback, one stderr line ``error: ...`` holding ``message`` (besides the
    progress lines starting with ``progress_prefix``, if any)."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.strip().splitlines()
             if progress_prefix is None or not line.startswith(progress_prefix)]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0], lines[0]
    return lines[0]


def simulate_two_games(out, *options):
    """``courtsim simulate louis-xiv`` of two 2-player games into ``out`` with ``options``."""
    return invoke("simulate", "louis-xiv", "--players", 2, "--games", 2, *options, "--out", out)


def tiny_experiment(tmp_path, **fields) -> "Path":
    text = {"name": "tiny", "game": "louis-xiv", "players": [2], "bots": ["greedy", "random"],
            "games_per_matchup": 2, "chunk_size": 2, "out": str(tmp_path / "run")} | fields
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(text))
    return path


@pytest.fixture(scope="module")
def louis_run(tmp_path_factory):
    """A small finished Louis XIV run (the report needs a real game)."""
    out = tmp_path_factory.mktemp("louis") / "run"
    result = invoke("simulate", "louis-xiv", "--players", 3, "--games", 12, "--out", out)
    assert result.exit_code == 0, result.output
    return out


# ----------------------------------------------------------------------------- YAML files

def first_key_repeated(text: str) -> str:
    """The file with its first top-level key written again at the end."""
    first = next(line for line in text.splitlines() if line and not line.startswith((" ", "#")))
    return f"{text}\n{first}\n"


BILLION_LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]\n" for previous, name in zip("abcdefgh", "bcdefghi"))

BAD_FILES = {  # kind -> (spoil the text, what the error line says)
    "binary": (lambda text: b"\x00\x01\x02" + text.encode(), "binary data"),
    "UTF-16": (lambda text: text.encode("utf-16"), "UTF-16"),
    "UTF-16 without a byte-order mark": (lambda text: text.encode("utf-16-le"), "UTF-16"),
    "UTF-32": (lambda text: text.encode("utf-32"), "UTF-32"),
    "Latin-1": (lambda text: ("# caf\xe9\n" + text).encode("latin-1"), "expected UTF-8 text, found byte 0xe9"),
    "billion laughs": (lambda text: BILLION_LAUGHS.encode(), "once its aliases (*name) are expanded"),
    "recursive alias": (lambda text: b"a: &a [*a]\n", "holds itself through an alias"),
    "deeply nested": (lambda text: ("a: " + "[" * 5000 + "]" * 5000 + "\n").encode(), "nested too deeply"),
    "duplicate key": (lambda text: first_key_repeated(text).encode(), "appears twice"),
}
EXPECTED_LINE = {kind: line for kind, (_, line) in BAD_FILES.items()}


def bad_copy(tmp_path, source, kind):
    """``source`` spoilt in the way ``kind`` names, written into tmp_path."""
    path = tmp_path / source.name
    path.write_bytes(BAD_FILES[kind][0](source.read_text()))
    return path


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_spoilt_game_file_is_one_line_through_simulate(tmp_path, kind):
    game_file = bad_copy(tmp_path, LOUIS_GAME_FILE, kind)
    result = simulate_two_games(tmp_path / "run", "--game-file", game_file)
    assert EXPECTED_LINE[kind] in assert_user_error(result, str(game_file))
    assert not (tmp_path / "run").exists()


def test_a_directory_as_game_file_is_one_line(tmp_path):
    assert_user_error(simulate_two_games(tmp_path / "run", "--game-file", tmp_path),
                      "expected a game YAML file, found a directory")


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_spoilt_bot_file_is_one_line_through_simulate_and_bots_show(tmp_path, kind):
    bot_file = bad_copy(tmp_path, CROWN_HUNTER, kind)
    result = simulate_two_games(tmp_path / "run", "--bots", bot_file)
    assert EXPECTED_LINE[kind] in assert_user_error(result, str(bot_file))
    assert EXPECTED_LINE[kind] in assert_user_error(invoke("bots", "show", bot_file), str(bot_file))


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_spoilt_experiment_file_is_one_line_through_run(tmp_path, kind):
    experiment = bad_copy(tmp_path, DEMO_EXPERIMENT, kind)
    result = invoke("run", experiment, "--out", tmp_path / "run")
    assert EXPECTED_LINE[kind] in assert_user_error(result, str(experiment))
    assert not (tmp_path / "run").exists()


# ----------------------------------------------------------------------------- command-line parsing

@pytest.mark.parametrize("args, message", [
    (["simulate", "louis-xiv", "--players", "abc", "--games", 2], "--players: expected an integer, found 'abc'"),
    (["simulate", "louis-xiv", "--players", 4, "--games", 2, "--seed", "1.5"], "--seed: expected an integer, found '1.5'"),
    (["replay", "louis-xiv", "--seed", "1.5", "--game", 1], "--seed: expected an integer, found '1.5'"),
    (["bench", "louis-xiv", "--players", "four"], "--players: expected an integer, found 'four'"),
    (["summary", "runs/x", "--difference", "lots"], "--difference: expected a number, found 'lots'"),
    (["run", "louis_xiv_demo", "--jobs", "many"], "--jobs: expected an integer, found 'many'"),
    (["simulate", "louis-xiv", "--games", 2], "--players: required but missing"),
    (["simulate", "louis-xiv", "--players", 4, "--games", 2, "--plaeyrs", 3], "No such option: --plaeyrs"),
    (["simulat", "louis-xiv"], "No such command 'simulat'"),
    (["bots", "show"], "NAME_OR_PATH: required but missing"),
    (["bots", "sho", "greedy"], "No such command 'sho'"),
    (["--versio"], "No such option: --versio"),
])
def test_typer_usage_errors_are_one_line_not_a_usage_box(args, message):
    assert_user_error(invoke(*args), message)


def all_commands(group=None, path=()):
    """(name, ...) of every command and sub-command of the courtsim app."""
    group = group or typer.main.get_command(cli.app)
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from all_commands(command, (*path, name))
        else:
            yield (*path, name)


@pytest.mark.parametrize("command", list(all_commands()), ids=" ".join)
def test_every_command_refuses_an_unknown_option_in_one_line(command):
    assert_user_error(invoke(*command, "--no-such-option", "1"), "No such option: --no-such-option")


def test_an_empty_bots_option_is_refused_not_played_as_greedy(tmp_path):
    assert_user_error(simulate_two_games(tmp_path / "run", "--bots", ""), "bad --bots '': expected bot names")
    assert not (tmp_path / "run").exists()


def test_jobs_is_a_positive_number_or_minus_one_in_every_command(tmp_path):
    assert_user_error(simulate_two_games(tmp_path / "a", "--jobs", -2), f"--jobs: {JOBS_MESSAGE}")
    assert_user_error(invoke("run", tiny_experiment(tmp_path), "--jobs", -2), f"--jobs: {JOBS_MESSAGE}")
    assert_user_error(invoke("compile", "louis-xiv", "--jobs", -2), f"--jobs: {JOBS_MESSAGE}")
    in_file = invoke("run", tiny_experiment(tmp_path, jobs=-2))
    assert_user_error(in_file, "key 'jobs': expected a positive number of worker processes or -1 for every core")
    assert not (tmp_path / "a").exists() and not (tmp_path / "run").exists()


def test_check_jobs_accepts_a_positive_number_or_minus_one():
    assert check_jobs(1, "--jobs") == 1 and check_jobs(-1, "--jobs") == -1
    for bad in (0, -2, True, 1.0):
        with pytest.raises(ConfigError, match="--jobs: expected a positive number"):
            check_jobs(bad, "--jobs")


def test_replay_refuses_a_game_index_from_2_to_the_31(tmp_path):
    for game_index in (GAME_INDEX_LIMIT, 100000000000000000000):
        result = invoke("replay", "louis-xiv", "--seed", 0, "--game", game_index)
        assert_user_error(result, f"--game: expected a game index in 0 .. 2,147,483,647, found {game_index}")


def test_bench_refuses_a_game_count_from_2_to_the_31():
    assert_user_error(invoke("bench", "louis-xiv", "--games", GAME_INDEX_LIMIT), "--games: expected a number of games")


# ----------------------------------------------------------------------------- rule switches

def test_one_boolean_parser_for_rule_switches():
    for word in (True, 1, "1", "true", "Yes", "on"):
        assert parse_bool(word, "rule 'x'") is True
    for word in (False, 0, "0", "false", "NO", "off"):
        assert parse_bool(word, "rule 'x'") is False
    for bad in (2, 0.5, "maybe", "", None, []):
        with pytest.raises(ConfigError, match="rule 'x': expected true or false, found"):
            parse_bool(bad, "rule 'x'")


def test_a_rule_switch_in_a_game_file_model_is_read_by_the_same_parser():
    class Rules(pydantic.BaseModel):
        strict_supplies: RuleSwitch = False

    assert Rules(strict_supplies="yes").strict_supplies is True and Rules(strict_supplies=0).strict_supplies is False
    with pytest.raises(pydantic.ValidationError, match="expected true or false"):
        Rules(strict_supplies=2)


def test_strict_supplies_takes_yes_and_refuses_2(tmp_path):
    ok = simulate_two_games(tmp_path / "run", "--rule", "strict_supplies=yes")
    assert ok.exit_code == 0, ok.output
    assert_user_error(simulate_two_games(tmp_path / "other", "--rule", "strict_supplies=2"),
                      "rule 'strict_supplies': expected true or false, found 2")


def test_the_rule_syntax_error_gives_a_real_switch_as_its_example(tmp_path):
    line = assert_user_error(invoke("replay", "louis-xiv", "--seed", 0, "--game", 0, "--rule", "strict"),
                             "expected KEY=VALUE, e.g. --rule ")
    example = line.split("e.g. --rule ")[1].split()[0]
    assert "max_rounds" not in example
    result = invoke("replay", "louis-xiv", "--seed", 0, "--game", 0, "--players", 2, "--rule", example)
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------------------- experiment keys

def test_experiment_rules_errors_name_the_experiment_file(tmp_path):
    experiment = tiny_experiment(tmp_path, rules={"strict_supplies": 2})
    assert_user_error(invoke("run", experiment), f"{experiment}: key 'rules': rule 'strict_supplies'")
    experiment = tiny_experiment(tmp_path, rules={"max_rounds": 12})
    assert_user_error(invoke("run", experiment), f"{experiment}: key 'rules': rule 'max_rounds': unknown")


@pytest.mark.parametrize("value", [1e22, "1e22", 2**31, 0, -1, True, 2.5])
def test_games_per_matchup_is_an_integer_below_2_to_the_31(tmp_path, value):
    experiment = tiny_experiment(tmp_path, games_per_matchup=value)
    assert_user_error(invoke("run", experiment),
                      f"{experiment}: key 'games_per_matchup': expected a number of games in 1 .. 2,147,483,647")
    assert not (tmp_path / "run").exists()


def test_an_experiment_of_2_to_the_31_games_in_all_is_refused(tmp_path):
    experiment = tiny_experiment(tmp_path, games_per_matchup=2**31 - 1, players=[2, 3],
                                 bots=["greedy", "random", "crown_hunter"])
    assert_user_error(invoke("run", experiment), "expected fewer than 2,147,483,648 games in all")


# ----------------------------------------------------------------------------- run directories and reports

def test_summary_and_report_of_a_plain_file_expect_a_run_directory(tmp_path):
    plain = tmp_path / "notes.txt"
    plain.write_text("hello")
    assert_user_error(invoke("summary", plain), "expected a run directory, found a file")
    assert_user_error(invoke("report", plain, "-o", tmp_path / "r.html"), "expected a run directory, found a file")


@pytest.mark.parametrize("table", ["games", "seats", "courtiers"])
def test_a_truncated_table_is_one_line_for_summary_and_report(louis_run, tmp_path, table):
    copy = tmp_path / "run"
    shutil.copytree(louis_run, copy)
    path = copy / f"{table}.parquet" / "chunk-000000000000.parquet"      # the table's one part
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    message = f"{path}: not a complete Parquet file; run the same simulate/run command again to repair it"
    if table != "courtiers":  # the summary reads games and seats only
        assert_user_error(invoke("summary", copy), message)
    assert_user_error(invoke("report", copy, "-o", tmp_path / "r.html"), message)


def test_a_users_file_in_a_table_directory_is_one_line_for_summary_report_and_simulate(louis_run, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(louis_run, copy)
    (copy / "seats.parquet" / "notes.txt").write_text("mine")
    assert_user_error(invoke("summary", copy), "seats.parquet holds files that are not parts of the table (notes.txt)")
    assert_user_error(invoke("report", copy, "-o", tmp_path / "r.html"), "(notes.txt): move them away")
    assert_user_error(invoke("simulate", "louis-xiv", "--players", 3, "--games", 12, "--out", copy),
                      "seats.parquet holds files that are not parts of the run (notes.txt)")
    assert (copy / "seats.parquet" / "notes.txt").read_text() == "mine"


def test_summary_and_report_read_a_complete_run_of_an_earlier_build(louis_run, tmp_path):
    """An earlier build merged every table into one file and recorded its checksum in run.yaml."""
    import pyarrow.parquet as pq

    from sim.core import results
    from sim.core import run_manifest as manifests
    copy = tmp_path / "run"
    shutil.copytree(louis_run, copy)
    before = invoke("summary", copy)
    manifest = manifests.read_manifest(copy)
    for table in manifest["config"]["tables"]:
        merged = results.read_table(copy, table)
        shutil.rmtree(copy / f"{table}.parquet")
        pq.write_table(merged, copy / f"{table}.parquet", compression="zstd")
        manifest["files"][f"{table}.parquet"] = {"rows": merged.num_rows,
                                                 **results.file_digest(copy / f"{table}.parquet")}
    shutil.rmtree(copy / "parts")
    manifests.write_manifest(copy, manifest)
    after = invoke("summary", copy)
    assert after.exit_code == 0 and after.stdout.replace(str(copy), "") == before.stdout.replace(str(copy), "")
    again = invoke("simulate", "louis-xiv", "--players", 3, "--games", 12, "--out", copy)
    assert again.exit_code == 0 and "already holds this completed run" in again.stderr
    assert invoke("report", copy, "-o", tmp_path / "r.html").exit_code == 0


def test_report_to_a_path_that_cannot_be_written_is_one_line_before_any_work(louis_run, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    computed = []
    monkeypatch.setattr("reports.pages.run_report.seat_frame", lambda run: computed.append(run))
    assert_user_error(invoke("report", louis_run, "-o", blocker / "report.html"),
                      f"cannot write the report {blocker / 'report.html'}")
    assert_user_error(invoke("report", louis_run, "-o", "/proc/report.html"), "cannot write the report /proc/report.html")
    assert computed == []


def test_a_full_disk_while_writing_the_report_is_one_line(louis_run, tmp_path, monkeypatch):
    def full_disk(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr("reports.pages.toolkit.write", full_disk)
    output = tmp_path / "report.html"
    assert_user_error(invoke("report", louis_run, "-o", output),
                      f"cannot write the report {output}: No space left on device (writing {output})",
                      progress_prefix="report: ")


@pytest.mark.parametrize("content", [b"\xff\xfe\x00\x01", b"\x00\x00binary", b"config: [unclosed\n", b"just text\n"])
def test_summary_and_report_of_a_spoilt_run_yaml_are_one_line(louis_run, tmp_path, content):
    copy = tmp_path / "run"
    shutil.copytree(louis_run, copy)
    (copy / "run.yaml").write_bytes(content)
    assert_user_error(invoke("summary", copy), str(copy / "run.yaml"))
    assert_user_error(invoke("report", copy, "-o", tmp_path / "r.html"), str(copy / "run.yaml"))


def test_a_ctrl_c_that_a_c_callback_swallowed_is_raised_again_in_python():
    """Ctrl-C while numba compiles lands in an llvmlite callback that can only print it: the
    command's hook raises it again where keeping_finished_chunks sees it."""
    from types import SimpleNamespace

    from reports import command_errors

    with pytest.raises(KeyboardInterrupt):
        command_errors.keep_interrupts(SimpleNamespace(exc_value=KeyboardInterrupt()))
        time.sleep(5)               # a moment later, the interrupt stops the sleep
