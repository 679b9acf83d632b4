"""A run whose kernels are not in numba's cache compiles them before its workers start, says so in
one line with the expected wait, and states its games per second without the compiling."""
import time

from sim.core import warm_up
from sim.core.runner import run_simulation
from .fake_engine import FakeEngine


class UncompiledEngine(FakeEngine):
    """A fake engine whose first chunk "compiles" (sleeps) until one game has been played."""

    def __init__(self, compile_seconds: float = 0.3):
        super().__init__()
        self.compile_seconds = compile_seconds
        self.compiled = False
        self.first_chunks = []

    def kernels_cached(self, bots) -> bool:
        return self.compiled

    def play_chunk(self, setup, n_players, bots, seed, first_game, n_games):
        if not self.compiled:
            self.first_chunks.append(n_games)
            time.sleep(self.compile_seconds)
            self.compiled = True
        else:
            time.sleep(0.05)    # play that lasts long next to run.yaml's rounding of seconds (to 1 ms)
        return super().play_chunk(setup, n_players, bots, seed, first_game, n_games)


def test_a_run_compiles_first_and_says_so_once_with_the_expected_wait(tmp_path):
    engine = UncompiledEngine(compile_seconds=1.0)
    lines = []
    result = run_simulation(engine, engine.load_setup(), 2, [engine.resolve_bot("greedy")] * 2, seed=1,
                            n_games=400, out_dir=tmp_path / "run", jobs=1, chunk_size=100, log=lines.append)
    compiling = [line for line in lines if "compiling" in line]
    assert len(compiling) == 1 and warm_up.FIRST_USE_WAIT in compiling[0]
    assert any("kernels compiled in" in line for line in lines)
    assert engine.first_chunks == [1]                     # one game, thrown away, compiled the kernels
    assert result.compile_seconds >= 1.0
    timings = result.manifest["timings"]
    assert timings["compile_seconds"] >= 1.0
    play_seconds = timings["wall_seconds"] - timings["compile_seconds"]     # 4 chunks of 0.05 s, and more
    assert play_seconds >= 0.2
    assert abs(timings["games_per_second"] - 400 / play_seconds) < 0.02 * timings["games_per_second"]
    assert timings["games_per_second"] > 1.3 * 400 / timings["wall_seconds"]   # the compiling (1 s) left out


def test_a_run_with_cached_kernels_says_nothing_about_compiling(tmp_path):
    engine = UncompiledEngine()
    engine.compiled = True
    lines = []
    result = run_simulation(engine, engine.load_setup(), 2, [engine.resolve_bot("greedy")] * 2, seed=1,
                            n_games=200, out_dir=tmp_path / "run", jobs=1, chunk_size=100, log=lines.append)
    assert not [line for line in lines if "compiling" in line]
    assert result.compile_seconds == 0.0 and result.manifest["timings"]["compile_seconds"] == 0.0


def test_the_tables_of_a_run_that_compiled_first_equal_those_of_one_that_did_not(tmp_path):
    import polars as pl
    runs = []
    for compiled in (False, True):
        engine = UncompiledEngine(compile_seconds=0.0)
        engine.compiled = compiled
        runs.append(run_simulation(engine, engine.load_setup(), 3, [engine.resolve_bot("random")] * 3, seed=5,
                                   n_games=300, out_dir=tmp_path / f"run-{compiled}", jobs=1, chunk_size=70,
                                   log=lambda line: None))
    for table in ("games", "seats", "events"):
        assert pl.read_parquet(runs[0].files[table]).equals(pl.read_parquet(runs[1].files[table]))
