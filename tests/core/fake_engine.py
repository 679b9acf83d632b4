"""A tiny, cheap, deterministic stand-in for a game engine, for testing the runner and CLI.

Pure numpy: every game depends only on (seed, game_index). Three tables exercise what real
engines do: one row per game ("games"), rows emitted seat-major rather than in game order
("seats", so the runner's re-ordering is tested), and a variable, sometimes empty, number of
rows per game ("events").
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict

from sim.core.descriptor import GameDescriptor
from sim.core.engine import BotSeat, ConfigError, GameSetup

BOT_FAMILIES = {"random": 0, "greedy": 1}
DEFAULT_RULES = {"bonus": 1.0, "rounds": 3.0}


class FakeGameFile(BaseModel):
    """Schema of a fake game file, so the CLI's pydantic error path can be exercised."""
    model_config = ConfigDict(extra="forbid")
    rules: dict[str, float] = {}


class FakeEngine:
    name = "fake"
    player_counts = (2, 3, 4)
    tables = ("games", "seats", "events")

    def __init__(self, crash_at_game: int | None = None):
        self.crash_at_game = crash_at_game  # play_chunk raises for the chunk holding this game

    def load_setup(self, game_file=None, rule_overrides=None) -> GameSetup:
        rules = dict(DEFAULT_RULES)
        if game_file is not None:
            rules.update(FakeGameFile.model_validate(yaml.safe_load(Path(game_file).read_text()) or {}).rules)
        for key, value in (rule_overrides or {}).items():
            if key not in DEFAULT_RULES:
                raise ConfigError(f"--rule {key}: unknown rule; known: {', '.join(DEFAULT_RULES)}")
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ConfigError(f"--rule {key}: expected a number, got {value!r}")
            rules[key] = float(value)
        vector = np.array([rules[key] for key in DEFAULT_RULES], dtype=np.float64)
        description = {"source": str(game_file) if game_file else "builtin",
                       "rules": {key: np.float64(value) for key, value in rules.items()}}
        return GameSetup(game=self.name, data=None, rules=vector, description=description)

    def resolve_bot(self, name: str) -> BotSeat:
        if name not in BOT_FAMILIES:
            raise ConfigError(f"unknown bot {name!r}; known bots: {', '.join(BOT_FAMILIES)}")
        return BotSeat(name=name, family=BOT_FAMILIES[name], params=np.array([0.5, float(len(name))]),
                       family_name=name, parameter_names=("aggression", "name_length"))

    def play_chunk(self, setup, n_players, bots, seed, first_game, n_games):
        games = range(first_game, first_game + n_games)
        if self.crash_at_game in games:
            raise RuntimeError(f"simulated crash in game {self.crash_at_game}")
        scores = np.array([self.scores(setup, n_players, bots, seed, g) for g in games]).reshape(n_games, n_players)
        game_index = np.arange(first_game, first_game + n_games, dtype=np.int64)
        events = [self.events(seed, g) for g in games]
        return {
            "games": {"game_index": game_index, "winner": scores.argmax(axis=1).astype(np.int8),
                      "top_score": scores.max(axis=1)},
            "seats": {  # seat-major on purpose
                "game_index": np.tile(game_index, n_players),
                "seat": np.repeat(np.arange(n_players, dtype=np.int8), n_games),
                "score": scores.T.ravel(),
            },
            "events": {
                "game_index": np.repeat(game_index, [len(e) for e in events]),
                "value": np.concatenate([np.asarray(e, dtype=np.float64) for e in events] or [np.zeros(0)]),
            },
        }

    @staticmethod
    def scores(setup, n_players, bots, seed, game_index):
        rng = np.random.default_rng([seed, game_index])
        families = np.array([bot.family for bot in bots], dtype=np.float64)
        return rng.integers(0, 100, n_players) + families * setup.rules[0]

    @staticmethod
    def events(seed, game_index):
        rng = np.random.default_rng([seed, game_index, 1])
        return rng.random(rng.integers(0, 3))

    def replay(self, setup, n_players, bots, seed, game_index) -> str:
        scores = self.scores(setup, n_players, bots, seed, game_index)
        return f"fake game {game_index} (seed {seed}): scores {scores.tolist()}"


ENGINE = FakeEngine()


def descriptor(name: str, engine_path: str) -> GameDescriptor:
    """A test game's descriptor: the fake engine (or a missing one), no bot package, metrics or pages."""
    return GameDescriptor(name=name, title=name.title(), folder=name.replace("-", "_"), engine_path=engine_path,
                          bots_path=None, tables_path=__name__, metrics_path=__name__, sections_path=__name__,
                          sections_step="", length_unit="rounds", tie_break="no tie-break", assumptions=(),
                          limitations=())


DESCRIPTOR = descriptor("fake", f"{__name__}:ENGINE")
GHOST = descriptor("ghost", "sim.ghost_game.engine:ENGINE")        # registered, its engine not installed
EMPTY = descriptor("empty", "sim.core.engine:ENGINE")              # its engine module defines no ENGINE
