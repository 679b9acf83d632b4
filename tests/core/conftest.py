"""Shared fixtures for the game-independent tests: a fake engine and a quick run helper."""
from __future__ import annotations

import pytest

from sim.core.runner import run_simulation

from .fake_engine import FakeEngine


@pytest.fixture
def engine():
    return FakeEngine()


@pytest.fixture
def run(engine):
    """``run(out_dir, **overrides)``: a small fake simulation with sensible defaults."""
    def run_fake(out_dir, engine=engine, n_players=3, bots=("greedy", "random", "greedy"),
                 seed=7, n_games=45, chunk_size=10, jobs=1, log=lambda message: None, **options):
        setup = engine.load_setup()
        seats = [engine.resolve_bot(name) for name in bots]
        return run_simulation(engine, setup, n_players, seats, seed, n_games, out_dir, jobs=jobs,
                              chunk_size=chunk_size, progress=False, log=log, **options)
    return run_fake
