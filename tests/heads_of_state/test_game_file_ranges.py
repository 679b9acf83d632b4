"""Every number of the Heads of State game file has a range the rules make sensible; a value
outside it is refused with ONE line ``<file>: key '<a.b>': <expected> (found <value>)``."""
import copy
import functools
import re

import pytest
import yaml

from sim.core.engine import ConfigError
from sim.heads_of_state.data import DEFAULT_FILE
from sim.heads_of_state.engine import ENGINE


@functools.cache
def parsed_shipped_file():
    return yaml.safe_load(DEFAULT_FILE.read_text())


def shipped_file():
    return copy.deepcopy(parsed_shipped_file())


def numeric_keys(node, prefix=()):
    """(path, value) of every integer of the file (booleans are not numbers)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        path = (*prefix, key)
        if isinstance(value, int) and not isinstance(value, bool):
            yield path, value
        else:
            yield from numeric_keys(value, path)


def set_at(raw, path, value):
    node = raw
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


def write(tmp_path, mutate):
    raw = shipped_file()
    mutate(raw)
    path = tmp_path / "hos.yaml"
    path.write_text(yaml.dump(raw, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper)))
    return str(path)


def error_line(game_file=None, rule_overrides=None):
    with pytest.raises(ConfigError) as info:
        ENGINE.load_setup(game_file, rule_overrides)
    message = str(info.value)
    assert "\n" not in message
    return message


NUMERIC_KEYS = list(numeric_keys(shipped_file()))


def test_the_shipped_file_still_loads():
    setup = ENGINE.load_setup()
    assert setup.data.option1b_min == 6 and setup.data.display_size == 6
    assert len(NUMERIC_KEYS) > 60      # the parametrisation below covers the whole file


@pytest.mark.parametrize("bad", [-1, 10**19, 1e19, True], ids=["minus_one", "int_1e19", "float_1e19", "true"])
@pytest.mark.parametrize("path", [path for path, _ in NUMERIC_KEYS], ids=lambda path: ".".join(map(str, path)))
def test_every_number_is_refused_outside_its_range(tmp_path, path, bad):
    message = error_line(write(tmp_path, lambda raw: set_at(raw, path, bad)))
    key = ".".join(map(str, path))
    assert message.startswith(f"{tmp_path / 'hos.yaml'}: key '"), message
    named = message.split("'")[1]
    assert key.startswith(named), message   # the key itself, or the table holding it
    assert f"(found {bad!r})" in message or f"(found [" in message, message
    if bad == 1e19:
        assert re.search(r"expected an integer \d+\.\.\d+", message), message   # the range is named


def test_negative_square_tokens_are_refused(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw["square_tokens"].__setitem__("GB", [-55, 2])))
    assert "key 'square_tokens.GB.0': expected an integer 0..100 (found -55)" in message


def test_zero_tiles_per_colour_are_refused(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw["tiles_per_colour"].__setitem__("duke", 0)))
    assert "key 'tiles_per_colour.duke': expected an integer 1..32 (found 0)" in message


@pytest.mark.parametrize("limit", [0, -3])
def test_hand_limits_below_one_are_refused(tmp_path, limit):
    message = error_line(write(tmp_path, lambda raw: raw["hand_limit_round_start"].__setitem__("betrayal", limit)))
    assert f"key 'hand_limit_round_start.betrayal': expected an integer 1..100 (found {limit})" in message


def test_negative_marks_per_type_are_refused(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw["marks_per_type"].__setitem__("4", -1)))
    assert "key 'marks_per_type.4': expected an integer 0..10 (found -1)" in message


def test_a_huge_character_count_is_refused(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw["character_counts"].__setitem__("GOLD", 200000)))
    assert "key 'character_counts.GOLD': expected an integer 0..40 (found 200000)" in message


@pytest.mark.parametrize("minimum", [0, 5, 58])
def test_option1b_minimum_between_the_display_and_the_regular_deck(tmp_path, minimum):
    # 1b reveals a whole new display (6 cards) from the regular deck; the 2-player deck holds 57
    message = error_line(write(tmp_path, lambda raw: raw.__setitem__("option1b_min_regular_deck", minimum)))
    assert "key 'option1b_min_regular_deck'" in message and f"(found {minimum})" in message
    if minimum:
        assert "expected an integer 6..57 (from display_size to the smallest regular deck after setup)" in message


def test_a_deck_too_small_for_setup_names_the_player_count(tmp_path):
    def mutate(raw):
        raw["revolution_deck_cards"] = 40
        raw["character_counts"] = {name: 5 for name in raw["character_counts"]}
    message = error_line(write(tmp_path, mutate))
    assert "key 'removed_marks_by_players.2'" in message and "(found 18)" in message


def test_a_hexagon_value_that_is_a_boolean_is_refused(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw["regions"]["FR_P1"].__setitem__(2, True)))
    assert "key 'regions.FR_P1.2': expected an integer 0..20 (the hexagon value) (found True)" in message


def test_q36_the_gb_capitals_own_rank_must_be_one_gb_capital_box_ranks_accepts(tmp_path):
    """gb_capital_box_ranks decides the GB capital's box (Q36); a region rank outside it would
    otherwise be ignored without a word."""
    message = error_line(write(tmp_path, lambda raw: raw["regions"]["GB_CAP"].__setitem__(3, "baron")))
    assert "key 'regions.GB_CAP.3': expected ranks among gb_capital_box_ranks ['king']" in message, message
    accepted = write(tmp_path, lambda raw: raw.__setitem__("gb_capital_box_ranks", ["archduke", "king"]))
    assert ENGINE.load_setup(accepted).resolved["game_data"]["gb_capital_box_ranks"] == ["archduke", "king"]


def test_a_bad_mapping_key_is_named_as_the_key(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw["marks_per_type"].__setitem__("six", 1)))
    assert "key 'marks_per_type.six'" in message, message


def test_a_yaml_integer_is_still_a_count(tmp_path):
    path = write(tmp_path, lambda raw: raw.__setitem__("option1_take", 2))
    assert ENGINE.load_setup(path).data.option1_take == 2


def test_a_missing_key_says_required_and_prints_no_file_content(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw.pop("regions")))
    assert message == f"{tmp_path / 'hos.yaml'}: key 'regions': required but missing"


def test_a_long_found_value_is_cut(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw.__setitem__("rounds", list(range(1500, 1600)))))
    assert "key 'rounds'" in message and message.endswith("...)") and len(message) < 250


def test_a_bad_rule_value_names_the_command_line_not_the_file():
    message = error_line(rule_overrides={"option2_refill": True})
    assert message == "--rule option2_refill: expected interleaved or deferred (found True)"


def test_a_bad_boolean_rule_value_names_the_command_line():
    message = error_line(rule_overrides={"random_start_player": "sometimes"})
    assert message == "--rule random_start_player: expected true or false, found 'sometimes'"


def test_a_bad_number_from_the_command_line_names_the_command_line():
    message = error_line(rule_overrides={"hand_limit_turn_end.character": 0})
    assert message == "--rule hand_limit_turn_end.character: expected an integer 1..100 (found 0)"


def test_a_boolean_rule_in_the_file_must_be_true_or_false(tmp_path):
    message = error_line(write(tmp_path, lambda raw: raw["rules"].__setitem__("first_turn_refresh", 1)))
    assert "key 'rules.first_turn_refresh'" in message and "(found 1)" in message
