"""Bots as YAML (strategies/bots.py): loading, inheritance, and every validation error.

Errors must name the file and key, what was expected and what was found, before any game runs.
"""
from pathlib import Path

import numpy as np
import pytest

from sim.core.engine import ConfigError
from strategies import heads_of_state, louis_xiv
from strategies.bots import BOTS_DIR, BotCatalogue, resolve_bots
from strategies.louis_xiv import PARAMETER_INDEX
from strategies.louis_xiv.parameters import default_parameters


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / f"{name}.yaml"
    path.write_text(text)
    return path


@pytest.fixture
def bots_dir(tmp_path):
    write(tmp_path, "crowns", "name: crowns\ngame: louis-xiv\nfamily: greedy\n"
                              "description: likes crowns\nparameters: {value_crown: 7, louis_aggression: 2}\n")
    write(tmp_path, "crowns_plus", "name: crowns_plus\ngame: louis-xiv\nextends: crowns\n"
                                   "parameters: {value_crown: 9, value_gold: 0.1}\n")
    return tmp_path


def test_a_family_name_is_a_bot_with_the_family_defaults(bots_dir):
    greedy = BotCatalogue(bots_dir).definition("louis-xiv", "greedy").bot_seat()
    assert greedy.family == louis_xiv.GREEDY
    np.testing.assert_array_equal(greedy.params, default_parameters())


def test_a_bot_file_overrides_the_family_defaults(bots_dir):
    definition = BotCatalogue(bots_dir).definition("louis-xiv", "crowns")
    seat = definition.bot_seat()
    assert seat.name == "crowns" and seat.family == louis_xiv.GREEDY
    assert seat.params[PARAMETER_INDEX["value_crown"]] == 7
    assert seat.params[PARAMETER_INDEX["louis_aggression"]] == 2
    assert seat.params[PARAMETER_INDEX["value_gold"]] == louis_xiv.PARAMETERS[PARAMETER_INDEX["value_gold"]].default
    assert definition.overrides == {"value_crown": 7.0, "louis_aggression": 2.0}


def test_extends_starts_from_the_parent_and_overrides_some_parameters(bots_dir):
    definition = BotCatalogue(bots_dir).definition("louis-xiv", "crowns_plus")
    assert definition.family == "greedy" and definition.chain == ("crowns",)
    assert definition.parameters["value_crown"] == 9          # own override wins
    assert definition.parameters["louis_aggression"] == 2     # inherited from crowns
    assert definition.parameters["value_gold"] == 0.1


def test_extends_a_built_in_family(tmp_path):
    write(tmp_path, "careful", "name: careful\ngame: louis-xiv\nextends: greedy\nparameters: {retrieve_below: 6}\n")
    assert BotCatalogue(tmp_path).definition("louis-xiv", "careful").parameters["retrieve_below"] == 6


def test_a_path_is_accepted_wherever_a_name_is(bots_dir):
    seats = resolve_bots("louis-xiv", [str(bots_dir / "crowns.yaml"), "random"], bots_dir=bots_dir)
    assert [seat.name for seat in seats] == ["crowns", "random"]


@pytest.mark.parametrize("body, expected", [
    ("name: x\ngame: louis-xiv\nfamily: clever\n", "key 'family': expected one of random, greedy"),
    ("name: x\ngame: louis-xiv\nfamily: greedy\nparameters: {value_crwn: 3}\n",
     "key 'parameters': unknown parameter 'value_crwn'"),
    ("name: x\ngame: louis-xiv\nfamily: greedy\nparameters: {value_crown: lots}\n", "key 'parameters'.value_crown: expected a number in 0..20, found 'lots'"),
    ("name: x\ngame: louis-xiv\nfamily: greedy\nparameters: {value_crown: 99}\n",
     "value_crown: expected a value in 0..20, found 99"),
    ("name: x\ngame: louis-xiv\nfamily: greedy\nparameters: {retrieve_below: 2.5}\n",
     "retrieve_below: expected a whole number"),
    ("name: x\ngame: heads-of-state\nfamily: greedy\n", "key 'game': expected louis-xiv"),
    ("name: x\ngame: louis-xiv\n", "expected exactly one of 'family' or 'extends', found neither"),
    ("name: x\ngame: louis-xiv\nfamily: greedy\nextends: greedy\n", "found both"),
    ("name: x\ngame: louis-xiv\nextends: nobody\n", "key 'extends': expected a louis-xiv bot"),
    ("name: x\ngame: louis-xiv\nfamily: greedy\ncolour: red\n", "key 'colour': not a known key"),
    ("game: louis-xiv\nfamily: greedy\n", "key 'name': required but missing"),
    ("name: [x\n", "not valid YAML"),
    ("- just a list\n", "expected a mapping of bot settings, found list"),
])
def test_invalid_bot_files_are_rejected_with_file_key_expected_and_found(tmp_path, body, expected):
    path = write(tmp_path, "bad", body)
    with pytest.raises(ConfigError) as error:
        BotCatalogue(tmp_path / "empty").definition("louis-xiv", str(path))
    message = str(error.value)
    assert str(path) in message and expected in message
    assert "\n" not in message


def test_a_cycle_of_extends_is_rejected(tmp_path):
    write(tmp_path, "a", "name: a\ngame: louis-xiv\nextends: b\n")
    write(tmp_path, "b", "name: b\ngame: louis-xiv\nextends: a\n")
    with pytest.raises(ConfigError, match="a cycle of bots"):
        BotCatalogue(tmp_path).definition("louis-xiv", "a")


def test_two_files_defining_the_same_bot_are_rejected(tmp_path):
    write(tmp_path, "one", "name: twin\ngame: louis-xiv\nfamily: greedy\n")
    write(tmp_path, "two", "name: twin\ngame: louis-xiv\nfamily: random\n")
    with pytest.raises(ConfigError, match="also defined in"):
        BotCatalogue(tmp_path)


def test_an_unknown_bot_name_lists_the_known_ones(bots_dir):
    with pytest.raises(ConfigError, match="unknown louis-xiv bot 'crown'.*crowns"):
        resolve_bots("louis-xiv", ["crown"], bots_dir=bots_dir)


@pytest.mark.parametrize("game, module", [("louis-xiv", louis_xiv), ("heads-of-state", heads_of_state)])
def test_every_shipped_bot_is_valid_and_every_archetype_differs_from_greedy(game, module):
    catalogue = BotCatalogue(BOTS_DIR)
    archetypes = [name for name in catalogue.names(game) if name not in module.FAMILIES]
    assert len(archetypes) >= 4, f"{game} ships at least four archetypes"
    for name in archetypes:
        definition = catalogue.definition(game, name)
        assert definition.description, f"{name} documents itself"
        assert definition.overrides, f"{name} differs from its family's defaults"
        definition.bot_seat()


@pytest.mark.parametrize("module", [louis_xiv, heads_of_state])
def test_every_parameter_documents_meaning_range_and_a_default_inside_it(module):
    for family, parameters in module.FAMILY_PARAMETERS.items():
        assert len(parameters) <= module.N_PARAMETERS
        for parameter in parameters:
            assert parameter.meaning, f"{family}.{parameter.name}"
            assert parameter.low <= parameter.default <= parameter.high, f"{family}.{parameter.name}"


def test_every_shipped_bot_file_starts_with_a_one_line_comment():
    for path in BOTS_DIR.rglob("*.yaml"):
        assert path.read_text().startswith("# "), path
