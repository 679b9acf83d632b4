"""Every number of configs/games/louis_xiv.yaml has a range the rules make sensible, named in
the one-line error (``<file>: key '<a.b>': expected ... (found ...)``); totals that must fit
together are checked for the largest game the file allows."""
import copy

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.engine import ConfigError
from sim.louis_xiv import constants as C
from sim.louis_xiv import data as data_module
from sim.louis_xiv import tables as R
from sim.louis_xiv import state as S
from sim.louis_xiv.data import (DEFAULT_GAME_FILE, MAX_ROUNDS_OF_THE_RULES, load_game_file, rule_vector,
                                to_kernel_data)
from sim.louis_xiv.decisions import MOVE_CAPACITY, MOVE_WIDTH
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.turn_options import list_turn_options

SHIPPED = yaml.safe_load(DEFAULT_GAME_FILE.read_text(encoding="utf-8"))
KEY = object()   # a path step meaning "the mapping key itself", not its value


def numeric_keys(node, path=()):
    """Every integer of the file as a path: (key, key, ..., index) to the value, or
    (..., mapping key, KEY) for an integer used as a mapping's key (adjacency, supplies)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, int) and not isinstance(key, bool):
                yield path + (key, KEY)
            yield from numeric_keys(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from numeric_keys(value, path + (index,))
    elif isinstance(node, int) and not isinstance(node, bool):
        yield path


def with_value(raw, path, value):
    """A copy of the file with the integer at ``path`` replaced by ``value``."""
    changed = copy.deepcopy(raw)
    if path[-1] is KEY:
        parent = changed
        for step in path[:-2]:
            parent = parent[step]
        old_key = path[-2]
        parent_items = [(value if key == old_key else key, item) for key, item in parent.items()]
        parent.clear()
        parent.update(parent_items)
        return changed
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return changed


def named_key(path):
    """The key an error line names for a path; for a mapping's key, the mapping (a ``true`` key
    may collide with a key 1 of the same mapping, a Python dict cannot hold both)."""
    if path[-1] is KEY:
        return ".".join(str(step) for step in path[:-2])
    return ".".join(str(step) for step in path)


def write(tmp_path, raw, name="louis_xiv.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def refusal(path, overrides=None):
    with pytest.raises(ConfigError) as error:
        load_game_file(path, overrides)
    message = str(error.value)
    assert "\n" not in message and message.startswith(f"{path}: key '")
    return message


NUMERIC_KEYS = list(numeric_keys(SHIPPED))


def test_shipped_game_file_still_loads_and_becomes_kernel_data():
    model = load_game_file()
    data = to_kernel_data(model)
    assert model.rounds == 4 and data.numbers.dtype == np.int64
    assert len(NUMERIC_KEYS) > 100   # the walk found the numbers of every section


# ---------------------------------------------------------------- the cases found accepted

@pytest.mark.parametrize("overrides, key, expected", [
    ({"louis_courtiers": [13]}, "louis_courtiers.0", "expected an integer 1..12 (found 13)"),
    ({"rounds": 6}, "rounds", "expected an integer 1..4 (found 6)"),
    ({"start_gold": True}, "start_gold", "expected an integer 0..1000 (found True)"),
    ({"start_gold": 1e19}, "start_gold", "expected an integer 0..1000 (found 1e+19)"),
])
def test_found_cases_refused_with_one_line_naming_key_and_range(overrides, key, expected):
    message = refusal(DEFAULT_GAME_FILE, overrides)
    assert message == f"{DEFAULT_GAME_FILE}: key '{key}': {expected}"


def test_a_number_written_1e19_in_the_yaml_is_refused(tmp_path):
    """As the issue found it: ``1e19`` typed into the file (PyYAML reads it as text, ``1.0e+19``
    as a float); either is refused naming the key and the range."""
    for text in ("1e19", "1.0e+19"):
        game_file = tmp_path / "louis_xiv.yaml"
        game_file.write_text(DEFAULT_GAME_FILE.read_text(encoding="utf-8").replace("start_gold: 5", f"start_gold: {text}"),
                             encoding="utf-8")
        assert "key 'start_gold': expected an integer 0..1000 (found " in refusal(game_file)


@pytest.mark.parametrize("path", NUMERIC_KEYS, ids=lambda path: ".".join(
    "<key>" if step is KEY else str(step) for step in path))
@pytest.mark.parametrize("value", [-1, 10**19, 1e19, True], ids=["minus_one", "huge", "huge_float", "true"])
def test_every_number_refuses_negative_huge_and_boolean_values(monkeypatch, path, value):
    """No number of the game (count, cost, threshold, courtier number, player count) can be
    negative, near 1e19 or a boolean: each is refused, naming its key, never a crash. (The file
    as YAML would read it is handed to the loader directly: writing and parsing 600 files
    would test PyYAML, not the ranges.)"""
    changed = with_value(SHIPPED, path, value)
    monkeypatch.setattr(data_module, "load_yaml_file", lambda path, what: copy.deepcopy(changed))
    message = refusal(DEFAULT_GAME_FILE)
    if path[-1] is KEY:
        assert f"key '{named_key(path)}" in message and "expected " in message
    else:
        assert f"key '{named_key(path)}': expected an integer " in message


def test_an_integer_written_as_a_float_or_text_is_refused_as_an_integer_is_accepted():
    """Counts are whole numbers: ``5`` is accepted, ``5.0`` and ``"5"`` are not (pydantic's lax
    mode would take both)."""
    assert load_game_file(overrides={"start_gold": 5}).start_gold == 5
    for value in (5.0, "5"):
        assert "key 'start_gold': expected an integer 0..1000" in refusal(DEFAULT_GAME_FILE, {"start_gold": value})


# ---------------------------------------------------------------- ranges from the rules

@pytest.mark.parametrize("overrides, key", [
    ({"rounds": 0}, "rounds"),
    ({"players": {"min": 1}}, "players.min"),
    ({"players": {"max": 5}}, "players.max"),
    ({"influence_hand": 0}, "influence_hand"),                # a hand must hold a card to play
    ({"place_courtier_card": 0}, "place_courtier_card"),
    ({"place_four": 5}, "place_four"),                        # placement paths hold 4 courtiers
    ({"gold_per_coat_at_end": 0}, "gold_per_coat_at_end"),    # a divisor
    ({"coat_kinds": 0}, "coat_kinds"),
    ({"markers_per_player": 0}, "markers_per_player"),
    ({"general_supply_at_start": {5: [5, 5, 5, 5, 5]}}, "general_supply_at_start.5"),
    ({"adjacency": {0: [1]}}, "adjacency.0"),
])
def test_out_of_range_numbers_refused_naming_the_key(overrides, key):
    message = refusal(DEFAULT_GAME_FILE, overrides)
    assert f"key '{key}': expected an integer " in message


@pytest.mark.parametrize("overrides, key", [
    ({"influence_hand": 8}, "influence_hand"),                # 30 cards cannot fill 4 hands of 8
    ({"jokers": 0, "influence_cards_per_courtier": 1}, "influence_hand"),
    ({"start_missions": {"light": 6}}, "start_missions.light"),   # 20 light missions, 4 players
    ({"start_missions": {"blue": 4}}, "start_missions.blue"),     # 12 blue missions, 4 players
    ({"general_supply_at_start": {4: [5, 5, 6]}}, "general_supply_at_start.4"),
    ({"general_supply_at_start": {2: [5, 17], 3: [5, 5, 6], 4: [5, 5, 6, 7]}}, "general_supply_at_start.2"),
    ({"imaginary_player": {"markers": 7}}, "imaginary_player.markers"),
    ({"gold_cards_used": 3}, "gold_cards_used"),              # one gold card a round
    ({"gold_cards_used": 9}, "gold_cards_used"),              # there are 8
    ({"louis_courtiers": [1, 2, 3]}, "gold_cards.6.courtier"),
    ({"louis_courtiers": [1, 1, 2, 3, 4]}, "louis_courtiers"),
    ({"louis_courtiers": [1, 2, 3, 4, 6]}, "louis_courtiers.4"),  # Condé has a threshold side
    ({"players": {"min": 4, "max": 3}}, "players.min"),
])
def test_totals_that_must_fit_refused_naming_the_key(overrides, key):
    message = refusal(DEFAULT_GAME_FILE, overrides)
    assert f"key '{key}': expected " in message and "(found " in message


def test_courtier_side_values_fit_their_mode(tmp_path):
    """§1.2: a first-place side has no value (0); a threshold needs at least one marker and at
    most the markers a player has."""
    raw = copy.deepcopy(SHIPPED)
    raw["courtiers"][4]["side_a"]["value"] = 2      # Montespan side A is first place
    assert "key 'courtiers.4.side_a.value': expected 0 on a first-place side" in refusal(write(tmp_path, raw))
    for threshold in (0, 17):
        raw = copy.deepcopy(SHIPPED)
        raw["courtiers"][9]["side_a"]["value"] = threshold   # Turenne side A is a threshold
        assert "key 'courtiers.9.side_a.value': expected a threshold 1..16" in refusal(write(tmp_path, raw))


def test_more_missions_than_the_state_holds_refused(tmp_path):
    raw = copy.deepcopy(SHIPPED)
    raw["missions"]["dark"] = raw["missions"]["dark"] * 4      # 20 + 12 + 32 = 64: fits
    load_game_file(write(tmp_path, raw, "fits.yaml"))
    raw["missions"]["dark"].append(raw["missions"]["dark"][0])
    assert f"key 'missions': expected at most {S.MAX_MISSIONS} mission cards" in refusal(write(tmp_path, raw))


# ---------------------------------------------------------------- bounds match the kernels' arrays

def test_rounds_bound_fits_the_per_round_result_columns():
    assert MAX_ROUNDS_OF_THE_RULES <= R.MAX_ROUNDS


def test_placement_bound_fits_the_gains_table_and_the_move_row():
    """Placements of at most 4: a bot's gains table has columns for 0..4 markers and a move
    row holds a path of 4 courtiers."""
    state = S.new_state(to_kernel_data(load_game_file()))
    assert state.scratch_gains.shape[1] - 1 == 4
    assert (MOVE_WIDTH - 3) // 2 == 4


def test_largest_hand_turn_options_fit_the_move_buffer():
    """With every placement size at its maximum (4), a hand of every card kind, DB-PLACE4,
    LB-SKIP, B-CARDSWAP and cards playable for nothing (Q9 off), the legal turns still fit the
    move buffer: 624 paths for a joker of 4, 624 for DB-PLACE4, 624 over the 12 courtier cards."""
    model = load_game_file(overrides={"place_courtier_card": 4, "place_joker": 4, "place_four": 4})
    data = to_kernel_data(model)
    rules = rule_vector(model, {"place_at_least_one_marker": False})
    state = S.new_state(data)
    setup_game(state, data, rules, 4, 0, 0, 0)
    state.influence_hand[0, :] = 1
    state.own_supply[0], state.general_supply[0] = 16, 0
    state.gold[0] = 10
    for ability in (C.DB_PLACE4, C.LB_SKIP, C.B_CARDSWAP):
        state.ability_count[0, ability] = state.uses_left[0, ability] = 1
    moves = np.zeros((MOVE_CAPACITY + 1000, MOVE_WIDTH), dtype=np.int64)   # room to count past it
    n_moves = list_turn_options(state, data, rules, 0, moves)
    assert n_moves == 1913 <= MOVE_CAPACITY


# ---------------------------------------------------------------- any value: refused in one line, or playable data

SCALAR_KEYS = [path for path in NUMERIC_KEYS if KEY not in path]


@settings(max_examples=200, deadline=None)
@given(path=st.sampled_from(SCALAR_KEYS), value=st.one_of(st.integers(-3, 80), st.integers(-2**70, 2**70)))
def test_any_integer_anywhere_is_refused_in_one_line_or_becomes_kernel_data(path, value):
    """Whatever integer a number of the file is set to, the loader either refuses it with one
    line naming a key, or the model becomes kernel arrays and a game state without error."""
    changed = with_value(SHIPPED, path, value)
    original = data_module.load_yaml_file
    data_module.load_yaml_file = lambda path, what: copy.deepcopy(changed)
    try:
        model = load_game_file()
    except ConfigError as error:
        assert "\n" not in str(error) and ": key '" in str(error)
        return
    finally:
        data_module.load_yaml_file = original
    data = to_kernel_data(model)
    assert data.numbers.dtype == np.int64
    S.new_state(data)
