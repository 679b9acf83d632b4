"""Every mutation of a shipped YAML file is either a valid run or ONE line ``error: ...`` with
exit code 2 -- never a traceback, a hang or a silently wrong run.

Hypothesis mutates configs/games/*.yaml, configs/bots/*/*.yaml, configs/variants/*/*.yaml and
configs/experiments/*.yaml
(a value changed in type, sign or size; a key deleted, added or repeated; the file re-encoded as
UTF-16 or cut short) and runs, in-process, the command that reads the file: ``simulate
--games 2`` with the game, bot or variant file, or ``run`` with the experiment (its games_per_matchup
overridden to 1 before mutating, so a mutation of it is still checked), into a fresh temporary
directory.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cli
from sim import registry

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
GAME_FILES = sorted((CONFIGS / "games").glob("*.yaml"))
BOT_FILES = sorted((CONFIGS / "bots").glob("*/*.yaml"))
EXPERIMENT_FILES = sorted((CONFIGS / "experiments").glob("*.yaml"))
VARIANT_FILES = sorted((CONFIGS / "variants").glob("*/*.yaml"))
GAME_OF_FILE = {"louis_xiv.yaml": "louis-xiv", "heads_of_state.yaml": "heads-of-state"}
# A scalar's type, sign or size changed: a negative, zero, a number past every limit, a
# boolean, a word, an empty list, an empty mapping.
NEW_VALUES = (-1, 0, 1e19, True, "x", [], {})
UNKNOWN_KEY = "not_a_key_of_this_file"
KEY_LINE = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*:")
runner = CliRunner()


def node_paths(node, path=()):
    """The path (keys and list positions) of every value below the top of ``node``."""
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield (*path, key)
        yield from node_paths(child, (*path, key))


def mapping_paths(node, path=()):
    """The path of every mapping in ``node``, the top included."""
    if isinstance(node, dict):
        yield path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield from mapping_paths(child, (*path, key))


def parent_and_key(data, path):
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    return parent, path[-1]


def shipped_data(source: Path):
    """The file's data; an experiment made tiny before any mutation: one game per match-up at its
    smallest player count (a skill ladder's search match-ups would otherwise cost minutes)."""
    data = yaml.safe_load(source.read_text())
    if source in EXPERIMENT_FILES:
        data["games_per_matchup"] = 1
        data.pop("games_per_matchup_with", None)
        if isinstance(data.get("players"), list):
            data["players"] = data["players"][:1]
    return data


def dumped(data) -> bytes:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode()


@st.composite
def mutated_files(draw):
    """(shipped file, its mutated bytes, what was done)."""
    kinds = [GAME_FILES, BOT_FILES, EXPERIMENT_FILES] + ([VARIANT_FILES] if VARIANT_FILES else [])
    kind_of_file = draw(st.sampled_from(kinds))  # each kind as often
    source = draw(st.sampled_from(kind_of_file))
    data = shipped_data(source)
    kind = draw(st.sampled_from(["value", "value", "value", "delete", "add key", "repeat key",
                                 "UTF-16", "truncate"]))
    if kind == "value":
        path = draw(st.sampled_from(list(node_paths(data))))
        value = draw(st.sampled_from(NEW_VALUES))
        parent, key = parent_and_key(data, path)
        parent[key] = value
        return source, dumped(data), f"{'.'.join(map(str, path))} = {value!r}"
    if kind == "delete":
        path = draw(st.sampled_from(list(node_paths(data))))
        parent, key = parent_and_key(data, path)
        del parent[key]
        return source, dumped(data), f"deleted {'.'.join(map(str, path))}"
    if kind == "add key":
        path = draw(st.sampled_from(list(mapping_paths(data))))
        mapping = data
        for key in path:
            mapping = mapping[key]
        mapping[UNKNOWN_KEY] = 1
        return source, dumped(data), f"added {'.'.join(map(str, (*path, UNKNOWN_KEY)))}"
    lines = dumped(data).decode().splitlines(keepends=True)
    if kind == "repeat key":
        number = draw(st.sampled_from([n for n, line in enumerate(lines) if KEY_LINE.match(line)]))
        lines.insert(number + 1, lines[number].split(":")[0] + ": 1\n")
        return source, "".join(lines).encode(), f"repeated the key of line {number + 1}"
    text = "".join(lines)
    if kind == "UTF-16":
        return source, text.encode("utf-16"), "re-encoded as UTF-16"
    cut = draw(st.integers(0, len(text) - 1))
    return source, text[:cut].encode(), f"cut after {cut} characters"


def command_for(source: Path, mutated: Path, out: Path, players: int) -> list[str]:
    """The command that reads ``source``'s kind of file, given the mutated copy."""
    if source in GAME_FILES:
        game = GAME_OF_FILE[source.name]
        return ["simulate", game, "--players", str(players), "--games", "2", "--game-file", str(mutated),
                "--out", str(out)]
    if source in BOT_FILES or source in VARIANT_FILES:
        game = yaml.safe_load(source.read_text())["game"]
        option = "--bots" if source in BOT_FILES else "--variant"
        return ["simulate", game, "--players", str(players), "--games", "2", option, str(mutated),
                "--out", str(out)]
    return ["run", str(mutated), "--out", str(out), "--jobs", "1"]


def player_count(source: Path) -> int:
    game = GAME_OF_FILE.get(source.name) or yaml.safe_load(source.read_text()).get("game", "louis-xiv")
    return min(registry.get_engine(game).player_counts)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_files())
def test_every_mutation_of_a_shipped_yaml_file_runs_or_is_one_error_line(mutation):
    source, content, what = mutation
    with tempfile.TemporaryDirectory() as directory:
        mutated = Path(directory) / source.name
        mutated.write_bytes(content)
        args = command_for(source, mutated, Path(directory) / "run", player_count(source))
        result = runner.invoke(cli.app, args)
    context = f"{source.name}: {what}: exit {result.exit_code}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{context}\n{result.exception!r}"
    assert "Traceback" not in result.output, context
    assert result.exit_code in (0, 2), context
    if result.exit_code == 2:
        errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and result.stderr.strip().splitlines() == errors, context
