"""Rule variants as data (sim/core/variants.py, issue 12), at the library level: every
validation error is one line naming the variant file and the path that caused it; paths address
mapping keys, list items by name, unique word or number, number keys; ``extends`` layers one
variant on another; a variant without overrides is the printed game. No game is played here
(a setup loads without compiling a kernel), so these tests are fast."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import cli
from sim import registry
from sim.core import variants
from sim.core.engine import ConfigError
from variant_files import HEADS_OF_STATE, LOUIS_XIV, write_variant
SHIPPED_VARIANTS = sorted(variants.VARIANTS_DIR.glob("*/*.yaml"))


def resolved_setup(path: Path, game: str = LOUIS_XIV):
    """The setup of the game file under the variant at ``path`` (validated like the CLI does)."""
    engine = registry.get_engine(game)
    return variants.load_setup(engine, None, variants.load_variant(str(path), game))


def printed_setup(game: str = LOUIS_XIV):
    return registry.get_engine(game).load_setup(None, None)


def game_data(path: Path, game: str = LOUIS_XIV) -> dict:
    return resolved_setup(path, game).resolved["game_data"]


def courtier(data: dict, number: int) -> dict:
    return next(item for item in data["courtiers"] if item["number"] == number)


def refusal(path: Path, game: str = LOUIS_XIV) -> str:
    """The one-line error of loading the variant at ``path`` and validating its setup."""
    with pytest.raises(ConfigError) as caught:
        resolved_setup(path, game)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


# ----------------------------------------------------------------------------- validation errors

@pytest.mark.parametrize("case, fields, key, words", [
    ("unknown_key", {"set": {"imaginary_player.colour": "grey"}}, "set.imaginary_player.colour",
     "unknown key 'colour'"),
    ("unknown_top_level_key", {"set": {"no_such_key": 1}}, "set.no_such_key", "not a known key"),
    ("unknown_item_name", {"set": {"courtiers.Richelieu.side_b.value": 4}}, "set.courtiers.Richelieu.side_b.value",
     "no item of 'courtiers' is named or numbered 'Richelieu'"),
    ("ambiguous_word", {"set": {"courtiers.de.side_b.value": 4}}, "set.courtiers.de.side_b.value",
     "'de' names several items of 'courtiers'"),
    ("path_into_plain_values", {"set": {"adjacency.1.2": 4}}, "set.adjacency.1.2",
     "'adjacency.1' is a list of values without names: set it whole"),
    ("wrong_type", {"set": {"start_gold": "lots"}}, "set.start_gold", "expected an integer"),
    ("value_out_of_range", {"set": {"start_gold": -3}}, "set.start_gold", "found -3"),
    ("nested_value_out_of_range", {"set": {"courtiers.Colbert.side_b.value": -1}},
     "set.courtiers.Colbert.side_b.value", "found -1"),
    ("adjacency_no_longer_symmetric", {"set": {"adjacency.5": [4]}}, "set.adjacency.5", "symmetric"),
    ("unknown_rule_switch", {"rules": {"no_such_switch": True}}, "rules.no_such_switch", "unknown rule switch"),
    ("bad_switch_value", {"rules": {"strict_supplies": "maybe"}}, "rules.strict_supplies", "expected true or false"),
    ("unknown_extends", {"extends": "nobody_extends_this"}, "extends", "unknown variant 'nobody_extends_this'"),
    ("extra_key_of_the_variant_file", {"colour": "red"}, "colour", "not a known key"),
    ("missing_description", {"description": None}, "description", "missing"),
    ("empty_description", {"description": ""}, "description", ""),
    ("name_not_a_name", {"name": "two words"}, "name", ""),
])
def test_each_validation_error_is_one_line_naming_the_variant_file_and_path(tmp_path, case, fields, key, words):
    path = write_variant(tmp_path, case, **fields)
    message = refusal(path)
    assert message.startswith(f"{path}: key '{key}': "), message
    assert words in message, message


def test_an_inconsistency_among_several_overrides_names_the_override_that_caused_it(tmp_path):
    path = write_variant(tmp_path, "two_overrides", set={"start_gold": 7, "adjacency.5": [4]})
    assert refusal(path).startswith(f"{path}: key 'set.adjacency.5': ")


IMAGINARY_PLAYER = {"markers": 8, "on_louis": 2, "cards_revealed": 3, "per_card": 2, "louis_card": "place",
                    "placement": "start_of_phase"}


def test_a_bad_value_set_into_a_replaced_item_names_the_path_that_set_it(tmp_path):
    """Overrides apply in the file's order: the path into imaginary_player comes after the whole
    item, so its -1 is in the data and its path is blamed, not the whole item's."""
    path = write_variant(tmp_path, "whole_then_part",
                         set={"imaginary_player": IMAGINARY_PLAYER, "imaginary_player.markers": -1})
    assert refusal(path).startswith(f"{path}: key 'set.imaginary_player.markers': ")


def test_a_whole_item_set_after_a_path_into_it_replaces_that_value(tmp_path):
    path = write_variant(tmp_path, "part_then_whole",
                         set={"imaginary_player.markers": 12, "imaginary_player": IMAGINARY_PLAYER | {"per_card": -1}})
    assert refusal(path).startswith(f"{path}: key 'set.imaginary_player': ")
    path = write_variant(tmp_path, "part_then_whole", set={"imaginary_player.markers": 12,
                                                           "imaginary_player": IMAGINARY_PLAYER})
    assert game_data(path)["imaginary_player"] == IMAGINARY_PLAYER


def test_an_extends_cycle_is_refused_in_one_line(tmp_path):
    write_variant(tmp_path, "first", extends="second", set={"start_gold": 6})
    write_variant(tmp_path, "second", extends="first", set={"start_gold": 7})
    message = refusal(tmp_path / "first.yaml")
    assert "key 'extends'" in message and "cycle" in message and "first -> second -> first" in message


def test_a_variant_of_the_other_game_is_refused(tmp_path):
    path = write_variant(tmp_path, "assassin_bag", HEADS_OF_STATE, set={"assassin_bag.own_cubes": 2})
    message = refusal(path, LOUIS_XIV)
    assert message.startswith(f"{path}: key 'game': ") and "expected a variant of louis-xiv" in message


def test_a_variant_of_an_unknown_game_is_refused(tmp_path):
    path = write_variant(tmp_path, "chess", "chess")
    with pytest.raises(ConfigError, match=f"^{path}: key 'game': expected one of"):
        variants.load_variant(str(path))


def test_an_unknown_variant_name_is_one_line_naming_the_option():
    with pytest.raises(ConfigError, match="^--variant: unknown variant 'no_such_variant' of louis-xiv"):
        variants.load_variant("no_such_variant", LOUIS_XIV)


def test_a_missing_variant_file_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        variants.load_variant(str(tmp_path / "absent.yaml"), LOUIS_XIV)


def test_a_variant_file_that_is_not_yaml_is_one_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("set: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        variants.load_variant(str(path), LOUIS_XIV)
    assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)


# ----------------------------------------------------------------------------- addressing

def test_a_courtier_is_addressed_by_a_unique_word_of_its_name(tmp_path):
    data = game_data(write_variant(tmp_path, "colbert_word", set={"courtiers.Colbert.side_b.value": 4}))
    assert courtier(data, 7)["side_b"]["value"] == 4
    assert courtier(printed_setup().resolved["game_data"], 7)["side_b"]["value"] == 3


def test_a_word_is_matched_without_regard_to_case(tmp_path):
    data = game_data(write_variant(tmp_path, "colbert_lower", set={"courtiers.colbert.side_b.value": 4}))
    assert courtier(data, 7)["side_b"]["value"] == 4


def test_a_courtier_is_addressed_by_its_number(tmp_path):
    data = game_data(write_variant(tmp_path, "colbert_number", set={"courtiers.7.side_b.value": 5}))
    assert courtier(data, 7)["side_b"]["value"] == 5


def test_a_courtier_is_addressed_by_its_full_name(tmp_path):
    data = game_data(write_variant(tmp_path, "colbert_name",
                                   set={"courtiers.Jean-Baptiste Colbert.side_b.value": 2}))
    assert courtier(data, 7)["side_b"]["value"] == 2


def test_a_full_name_wins_over_words_of_other_names(tmp_path):
    """"Le Grand Condé" is exact for courtier 6 though "Grand" is also a word of 4's name."""
    data = game_data(write_variant(tmp_path, "conde", set={"courtiers.Le Grand Condé.side_b.value": 5}))
    assert courtier(data, 6)["side_b"]["value"] == 5
    assert courtier(data, 4)["side_b"] == courtier(printed_setup().resolved["game_data"], 4)["side_b"]


def test_a_number_key_is_addressed_as_written(tmp_path):
    data = game_data(write_variant(tmp_path, "supply_2p", set={"general_supply_at_start.2": [5, 7]}))
    supply = data["general_supply_at_start"]
    assert supply.get(2, supply.get("2")) == [5, 7]


def test_a_list_of_plain_values_is_replaced_whole(tmp_path):
    path = write_variant(tmp_path, "all_ranks_token_2p", HEADS_OF_STATE, set={"large_tokens.two_players": [16, 12, 8]})
    assert game_data(path, HEADS_OF_STATE)["large_tokens"]["two_players"] == [16, 12, 8]


def test_louis_xiv_off_the_gold_cards_courtiers_is_refused_naming_both_keys(tmp_path):
    """A gold card of courtier 4 needs Louis XIV to be able to stand on courtier 4."""
    path = write_variant(tmp_path, "louis_tiles", set={"louis_courtiers": [1, 2, 3]})
    message = refusal(path)
    assert message.startswith(f"{path}: key 'set.louis_courtiers': ") and "gold_cards" in message


def test_heads_of_state_assassin_bag_is_addressed_by_key(tmp_path):
    path = write_variant(tmp_path, "sure_assassins", HEADS_OF_STATE,
                         set={"assassin_bag.own_cubes": 4, "assassin_bag.target_cubes": 1})
    assert game_data(path, HEADS_OF_STATE)["assassin_bag"] == {"own_cubes": 4, "target_cubes": 1}
    assert printed_setup(HEADS_OF_STATE).resolved["game_data"]["assassin_bag"] == {"own_cubes": 3, "target_cubes": 1}


def test_a_rule_switch_of_the_variant_reaches_the_setup(tmp_path):
    setup = resolved_setup(write_variant(tmp_path, "strict", rules={"strict_supplies": True}))
    assert setup.resolved["rules"]["strict_supplies"] is True
    assert printed_setup().resolved["rules"]["strict_supplies"] is False


def test_a_command_line_rule_goes_on_top_of_the_variant(tmp_path):
    variant = variants.load_variant(str(write_variant(tmp_path, "strict", rules={"strict_supplies": True})), LOUIS_XIV)
    setup = variants.load_setup(registry.get_engine(LOUIS_XIV), None, variant, {"strict_supplies": False})
    assert setup.resolved["rules"]["strict_supplies"] is False


# ----------------------------------------------------------------------------- extends

def test_extends_keeps_both_files_overrides_and_the_child_value_wins(tmp_path):
    write_variant(tmp_path, "parent", set={"start_gold": 6, "imaginary_player.markers": 10},
                  rules={"strict_supplies": True})
    child = write_variant(tmp_path, "child", extends="parent", set={"start_gold": 8, "points_per_mission": 6})
    variant = variants.load_variant(str(child), LOUIS_XIV)
    assert variant.chain == ("parent",)
    assert {override.path: override.value for override in variant.overrides} == {
        "start_gold": 8, "imaginary_player.markers": 10, "points_per_mission": 6}
    assert {override.path: override.source.name for override in variant.overrides}["start_gold"] == "child.yaml"
    data = game_data(child)
    assert (data["start_gold"], data["imaginary_player"]["markers"], data["points_per_mission"]) == (8, 10, 6)
    assert resolved_setup(child).resolved["rules"]["strict_supplies"] is True


def test_an_error_in_the_extended_file_names_that_file(tmp_path):
    parent = write_variant(tmp_path, "bad_parent", set={"start_gold": -1})
    child = write_variant(tmp_path, "good_child", extends="bad_parent", set={"points_per_mission": 6})
    assert refusal(child).startswith(f"{parent.resolve()}: key 'set.start_gold': ")


def test_record_is_what_run_yaml_records(tmp_path):
    write_variant(tmp_path, "parent", set={"start_gold": 6}, rules={"strict_supplies": True})
    child = write_variant(tmp_path, "child", extends="parent", set={"courtiers.Colbert.side_b.value": 4})
    variant = variants.load_variant(str(child), LOUIS_XIV)
    expected = {"name": "child", "extends": ["parent"],
                "set": {"start_gold": 6, "courtiers.Colbert.side_b.value": 4},
                "rules": {"strict_supplies": True}}
    assert variant.record() == expected
    setup = resolved_setup(child)
    assert setup.resolved["variant"] == expected
    assert setup.description["variant_file"] == str(child)
    assert setup.description["variant_description"] == "the child test variant"


# ----------------------------------------------------------------------------- no overrides

@pytest.mark.parametrize("game", [LOUIS_XIV, HEADS_OF_STATE])
def test_a_variant_without_overrides_resolves_to_the_printed_game(tmp_path, game):
    setup = resolved_setup(write_variant(tmp_path, "as_printed", game), game)
    printed = printed_setup(game)
    assert setup.resolved["game_data"] == printed.resolved["game_data"]
    assert setup.resolved["rules"] == printed.resolved["rules"]
    assert (setup.rules == printed.rules).all()
    assert setup.resolved["variant"] == {"name": "as_printed", "extends": [], "set": {}, "rules": {}}


# ----------------------------------------------------------------------------- the shipped library

@pytest.mark.skipif(not SHIPPED_VARIANTS, reason="no variant shipped yet in configs/variants/<game>/")
@pytest.mark.parametrize("path", SHIPPED_VARIANTS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_shipped_variant_loads_changes_the_rules_and_is_listed(path):
    game = variants.VariantFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8"))).game
    assert variants.game_folder(game) == path.parent.name, f"{path} is in the folder of another game"
    variant = variants.load_variant(path.stem, game)
    assert variant.name == path.stem and variant.path.resolve() == path.resolve()
    assert "\n" not in variant.description.strip()
    setup = variants.load_setup(registry.get_engine(game), None, variant)
    printed = printed_setup(game)
    changed = (setup.resolved["game_data"] != printed.resolved["game_data"]
               or setup.resolved["rules"] != printed.resolved["rules"])
    assert changed, f"{path}: the variant leaves the resolved game data and rules as printed"
    listing = CliRunner().invoke(cli.app, ["variants", "list", game], terminal_width=400)
    assert listing.exit_code == 0 and path.stem in listing.stdout, listing.output
    shown = CliRunner().invoke(cli.app, ["variants", "show", path.stem, "--game", game], terminal_width=400)
    assert shown.exit_code == 0 and path.stem in shown.stdout, shown.output


# ----------------------------------------------------------------------------- extends: a path (issue 37)

def test_extends_path_is_relative_to_the_variant_files_folder(tmp_path, monkeypatch):
    """``extends: sub/base.yaml`` in ``v/relext.yaml`` is ``v/sub/base.yaml``, wherever courtsim
    runs: a file of that relative path in the current directory is not it."""
    (tmp_path / "v" / "sub").mkdir(parents=True)
    (tmp_path / "sub").mkdir()
    write_variant(tmp_path / "v" / "sub", "base", set={"start_gold": 6})
    write_variant(tmp_path / "sub", "decoy", set={"start_gold": 9})
    (tmp_path / "sub" / "decoy.yaml").rename(tmp_path / "sub" / "base.yaml")
    relext = write_variant(tmp_path / "v", "relext", extends="sub/base.yaml", set={"points_per_mission": 6})
    monkeypatch.chdir(tmp_path)
    variant = variants.load_variant("v/relext.yaml", LOUIS_XIV)
    assert variant.chain == ("base",)
    assert {override.path: override.value for override in variant.overrides} == {"start_gold": 6, "points_per_mission": 6}
    monkeypatch.chdir(tmp_path / "v" / "sub")          # from anywhere else: the same file
    assert variants.load_variant(str(relext), LOUIS_XIV).chain == ("base",)


def test_extends_path_that_is_missing_names_where_it_was_looked_for(tmp_path, monkeypatch):
    (tmp_path / "v").mkdir()
    (tmp_path / "sub").mkdir()
    write_variant(tmp_path / "sub", "base", set={"start_gold": 9})   # beside the current directory only
    write_variant(tmp_path / "v", "relext", extends="sub/base.yaml")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        variants.load_variant("v/relext.yaml", LOUIS_XIV)
    assert str(caught.value) == ("v/relext.yaml: key 'extends': variant file v/sub/base.yaml does not exist "
                                 "(sub/base.yaml from the folder v of the file naming it)")


def test_extends_absolute_path_and_shipped_name_still_work(tmp_path):
    base = write_variant(tmp_path, "absolute_base", set={"start_gold": 7})
    child = write_variant(tmp_path / ".." / tmp_path.name, "child_of_absolute", extends=str(base.resolve()))
    assert variants.load_variant(str(child), LOUIS_XIV).chain == ("absolute_base",)
    shipped = variants.load_variant("imaginary_avoids_louis_2p", LOUIS_XIV)
    assert shipped.chain == ("imaginary_only_on_revealed_cards_2p",)
