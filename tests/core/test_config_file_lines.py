"""Config files and names (issue 37): YAML merge keys may be overridden (only a key written twice
in one mapping is a duplicate); a value the user wrote is shown cut short in an error line, so a
300,000-item list is still a short one-line error; ``tune-bot --name`` is a bot name, never a
path out of ``--out``. No game is played here."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

import cli
from sim.core import variants
from sim.core.engine import ConfigError
from sim.core.experiments import EXPERIMENTS_DIR
from sim.core.yaml_files import load_yaml_file
from sim.studies.tune_bot import plan_tuning

runner = CliRunner()
LOUIS_GAME_FILE = EXPERIMENTS_DIR.parent / "games" / "louis_xiv.yaml"
HUGE_LIST = "[" + ", ".join(["1"] * 300_000) + "]"       # ~900 KB on one line


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args])


def one_error_line(result, *words) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr[:2000]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def refusal(path, what="settings") -> str:
    with pytest.raises(ConfigError) as caught:
        load_yaml_file(path, what)
    return str(caught.value)


# ----------------------------------------------------------------------------- merge keys

def test_a_merge_key_followed_by_an_explicit_key_is_an_override_not_a_duplicate(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text("base: &b {markers: 5, gold: 3}\nother: {<<: *b, markers: 6}\n"
                    "block:\n  <<: *b\n  gold: 4\nboth:\n  <<: [*b, {extra: 1}]\n  markers: 7\n")
    assert load_yaml_file(path, "test") == {"base": {"markers": 5, "gold": 3}, "other": {"markers": 6, "gold": 3},
                                            "block": {"markers": 5, "gold": 4},
                                            "both": {"markers": 7, "gold": 3, "extra": 1}}


def test_a_variant_may_override_what_it_merges(tmp_path):
    path = tmp_path / "merged.yaml"
    path.write_text("name: merged\ngame: louis-xiv\ndescription: merge keys overriding\n"
                    "set:\n  <<: &gold {start_gold: 5, points_per_mission: 5}\n  start_gold: 6\n")
    variant = variants.load_variant(str(path), "louis-xiv")
    assert {override.path: override.value for override in variant.overrides} == {"start_gold": 6, "points_per_mission": 5}


@pytest.mark.parametrize("text, key, where", [
    ("a: 1\nb: 2\na: 3\n", "'a'", "lines 1 and 3"),
    ("x: {a: 1, a: 2}\n", "'a'", "twice on line 1"),                       # one line, flow style
    ("base: &b {m: 5, m: 6}\nother: {<<: *b}\n", "'m'", "twice on line 1"),  # inside the merged mapping
    ("base: &b {m: 5}\nother:\n  <<: *b\n  m: 6\n  m: 7\n", "'m'", "lines 4 and 5"),  # written twice after a merge
])
def test_a_key_written_twice_in_one_mapping_is_still_a_duplicate(tmp_path, text, key, where):
    path = tmp_path / "twice.yaml"
    path.write_text(text)
    message = refusal(path)
    assert f"key {key} appears twice ({where}); expected each key once" in message and "\n" not in message


# ----------------------------------------------------------------------------- long values

def short_line(result, *words) -> str:
    line = one_error_line(result, *words)
    assert len(line) < 500, f"{len(line)} characters: {line[:300]}..."
    assert "..." in line
    return line


def test_a_huge_list_in_a_game_file_is_a_short_one_line_error(tmp_path):
    """A consistency check that quotes what it found (adjacency must be symmetric; distinct
    courtiers) shows the list's first characters, not 900 KB."""
    text = LOUIS_GAME_FILE.read_text(encoding="utf-8")
    for key, old, new in [("adjacency.5", "  5: [4, 6]\n", f"  5: {HUGE_LIST}\n"),
                          ("louis_courtiers", "louis_courtiers: [1, 2, 3, 4]", f"louis_courtiers: {HUGE_LIST}")]:
        assert old in text
        game_file = tmp_path / f"{key}.yaml"
        game_file.write_text(text.replace(old, new), encoding="utf-8")
        short_line(invoke("tables", "louis-xiv", "--table", "games", "--game-file", game_file),
                   f"{game_file}: key '{key}'", "(found [1, 1, 1")


def test_a_huge_list_in_a_variant_or_an_experiment_is_a_short_one_line_error(tmp_path):
    variant = tmp_path / "huge.yaml"
    variant.write_text(f"name: huge\ngame: louis-xiv\ndescription: x\nset:\n  louis_courtiers: {HUGE_LIST}\n")
    short_line(invoke("variants", "show", variant), f"{variant}: key 'set.louis_courtiers'", "found [1, 1")
    experiment = tmp_path / "experiment.yaml"
    experiment.write_text(f"name: huge\ngame: louis-xiv\nplayers: [2]\nbots: [greedy]\ngames_per_matchup: 2\n"
                          f"seed: {HUGE_LIST}\n")
    short_line(invoke("run", experiment, "--out", tmp_path / "run"), "key 'seed'", "found [1, 1")
    assert not (tmp_path / "run").exists()


def test_a_huge_key_written_twice_is_a_short_one_line_error(tmp_path):
    key = "k" * 300_000
    path = tmp_path / "twice.yaml"
    path.write_text(f"? {key}\n: 1\n? {key}\n: 2\n")            # explicit keys: no length limit
    message = refusal(path)
    assert "appears twice" in message and len(message) < 500


# ----------------------------------------------------------------------------- tune-bot --name

@pytest.mark.parametrize("name", ["../../escaped_bot", "/tmp/escaped_bot", "sub/bot", "tuned bot", "3p", ""])
def test_tune_bot_name_must_be_a_bot_name(tmp_path, name):
    with pytest.raises(ConfigError) as caught:
        plan_tuning("louis-xiv", 2, ["greedy"], 100, tmp_path / "out", games_per_trial=50, name=name)
    assert str(caught.value) == (f"--name: expected a bot name (a letter, then letters, digits, _ or -), "
                                 f"found {name!r}")


def test_tune_bot_with_an_escaping_name_writes_nothing(tmp_path):
    out = tmp_path / "a" / "b" / "out"
    one_error_line(invoke("tune-bot", "louis-xiv", "--players", 2, "--against", "greedy", "--budget", 100,
                          "--games-per-trial", 50, "--out", out, "--name", "../../escaped_bot"),
                   "--name: expected a bot name", "found '../../escaped_bot'")
    assert list(tmp_path.rglob("*")) == []


def test_tune_bot_accepts_a_bot_name():
    plan = plan_tuning("louis-xiv", 2, ["greedy"], 100, "out", games_per_trial=50, name="tuned-2p_v2")
    assert plan.name == "tuned-2p_v2"
