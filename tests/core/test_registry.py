"""Game name -> engine lookup."""
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
    monkeypatch.setitem(registry.GAMES, "ghost", "sim.ghost_game.engine:ENGINE")
    with pytest.raises(ConfigError, match="'ghost' is registered but its engine .* is not installed"):
        registry.get_engine("ghost")


def test_engine_module_without_engine_object(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "empty", "sim.core.engine:ENGINE")
    with pytest.raises(ConfigError, match="defines no ENGINE"):
        registry.get_engine("empty")


def test_engine_is_imported_on_demand(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "fake", f"{fake_engine.__name__}:ENGINE")
    assert registry.get_engine("fake") is fake_engine.ENGINE
