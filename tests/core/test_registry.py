"""Game name -> descriptor -> engine lookup."""
from __future__ import annotations

import pytest

from sim import registry
from sim.core.engine import ConfigError

from . import fake_engine


def test_known_games_include_both_games():
    assert {"louis-xiv", "heads-of-state"} <= set(registry.known_games())


def test_unknown_game_lists_known_ones():
    with pytest.raises(ConfigError, match="unknown game 'chess'; known games: .*louis-xiv"):
        registry.get_engine("chess")


def test_registered_game_without_engine_module(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "ghost", f"{fake_engine.__name__}:GHOST")
    with pytest.raises(ConfigError, match="'ghost' is registered but its engine .* is not installed"):
        registry.get_engine("ghost")


def test_engine_module_without_engine_object(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "empty", f"{fake_engine.__name__}:EMPTY")
    with pytest.raises(AttributeError, match="ENGINE"):    # a bug in the game's package: it shows
        registry.get_engine("empty")


def test_registered_game_without_package(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "ghost", "sim.ghost_game.descriptor:DESCRIPTOR")
    with pytest.raises(ConfigError, match="'ghost' is registered but its package .* is not installed"):
        registry.descriptor("ghost")


def test_package_without_descriptor(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "bare", f"{fake_engine.__name__}:NOTHING")
    with pytest.raises(ConfigError, match="defines no NOTHING"):
        registry.descriptor("bare")


@pytest.mark.parametrize("name", ["louis-xiv", "heads-of-state"])
def test_each_game_declares_its_descriptor_in_its_own_package(name):
    descriptor = registry.descriptor(name)
    assert descriptor.name == name
    assert descriptor.engine_path.startswith(f"sim.{descriptor.folder}.")
    assert descriptor.bots_path == f"strategies.{descriptor.folder}"
    assert registry.get_engine(name).name == name
    assert descriptor.assumptions and descriptor.limitations and descriptor.title


def test_unknown_game_is_one_line_wherever_it_enters():
    from reports.analysis import paired_metrics
    from strategies.bots import bot_package

    for ask in (registry.descriptor, registry.get_engine, bot_package, paired_metrics.run_length_unit):
        with pytest.raises(ConfigError, match="^unknown game 'chess'; known games: heads-of-state, louis-xiv$"):
            ask("chess")


def test_engine_is_imported_on_demand(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "fake", f"{fake_engine.__name__}:DESCRIPTOR")
    assert registry.get_engine("fake") is fake_engine.ENGINE
