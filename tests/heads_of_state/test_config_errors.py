"""Config errors: one line naming file, key, expected and found (sim.core.engine.ConfigError)."""
import pytest
import yaml

from sim.core.engine import ConfigError
from sim.heads_of_state.data import DEFAULT_FILE
from sim.heads_of_state.engine import ENGINE


def write(tmp_path, mutate):
    raw = yaml.safe_load(DEFAULT_FILE.read_text())
    mutate(raw)
    path = tmp_path / "hos.yaml"
    path.write_text(yaml.safe_dump(raw))
    return str(path)


def expect_error(game_file, *fragments):
    with pytest.raises(ConfigError) as info:
        ENGINE.load_setup(game_file)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_default_file_loads_with_appendix_a_values(setup):
    data = setup.data
    assert data.deck_len[2:].tolist() == [73, 82, 91, 100]            # §1.3 deck sizes (H8/H9)
    assert data.bdeck_init.shape[0] == 29 and (data.bdeck_init == 0).sum() == 19   # §1.5 / H10
    assert data.box_region.shape[0] == 31 and data.region_hex.sum() == 74          # §2.3 / §6.7
    assert data.recipe_size.tolist() == [1, 2, 3, 4, 5, 6, 8]                   # §1.4
    assert data.large_n[2] == 2 and data.large_tokens[2, :2].tolist() == [16, 8]   # §3 step 8
    assert data.first_turn_takes[5].tolist() == [1, 1, 2, 2, 3]


def test_box_with_unknown_rank(tmp_path):
    path = write(tmp_path, lambda raw: raw["regions"]["FR_P1"].__setitem__(3, "emperor"))
    expect_error(path, "hos.yaml", "regions.FR_P1", "emperor")


def test_upper_box_must_hold_the_higher_rank(tmp_path):
    def mutate(raw):
        raw["regions"]["FR_P1"][3:5] = ["earl", "duke"]
    expect_error(write(tmp_path, mutate), "regions.FR_P1", "upper box")


def test_two_capitals_in_one_country(tmp_path):
    path = write(tmp_path, lambda raw: raw["regions"]["FR_P1"].__setitem__(1, "capital"))
    expect_error(path, "regions", "exactly one capital in FR")


def test_noble_table_with_unknown_attribute(tmp_path):
    path = write(tmp_path, lambda raw: raw["recipes"].__setitem__("count", ["GOLD", "WIT"]))
    expect_error(path, "recipes.count", "WIT")


def test_missing_key(tmp_path):
    path = write(tmp_path, lambda raw: raw.pop("square_tokens"))
    expect_error(path, "square_tokens")


def test_impossible_player_counts(setup):
    bots = [ENGINE.resolve_bot("random")] * 6
    with pytest.raises(ConfigError, match="n_players"):
        ENGINE.play_chunk(setup, 6, bots, 1, 0, 1)
    with pytest.raises(ConfigError, match="expected 3 bots"):
        ENGINE.play_chunk(setup, 3, bots[:2], 1, 0, 1)


def test_unknown_bot():
    with pytest.raises(ConfigError, match="unknown bot 'clever'"):
        ENGINE.resolve_bot("clever")


def test_unknown_rule_alternatives_are_rejected():
    with pytest.raises(ConfigError, match="--rule option2_refill: expected interleaved or deferred"):
        ENGINE.load_setup(rule_overrides={"option2_refill": "later"})
    with pytest.raises(ConfigError, match="betrayal_reshuffle"):
        ENGINE.load_setup(rule_overrides={"betrayal_reshuffle": "sometimes"})


def test_unknown_key_and_bad_value_via_overrides():
    with pytest.raises(ConfigError, match="--rule foo: not a known key"):
        ENGINE.load_setup(rule_overrides={"foo": 1})
    with pytest.raises(ConfigError, match=r"--rule display_size: expected an integer 1\.\.12 \(found 0\)"):
        ENGINE.load_setup(rule_overrides={"display_size": 0})
    assert ENGINE.load_setup(rule_overrides={"assassin_bag.own_cubes": 1}).data.own_cubes == 1
