"""Throughput of the Heads of State kernel: ``python -m sim.heads_of_state.bench [n_games] [bots]``.

Plays one warm-up chunk (compiles or loads the cache), then times a single chunk on one core."""
import sys
import time

from sim.heads_of_state.engine import ENGINE


def main(n_games=20000, family="greedy", n_players=4):
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot(family)] * n_players
    t0 = time.perf_counter()
    ENGINE.play_chunk(setup, n_players, bots, 1, 0, 50)
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    ENGINE.play_chunk(setup, n_players, bots, 2, 0, n_games)
    elapsed = time.perf_counter() - t0
    print(f"{n_players} x {family}: {n_games} games in {elapsed:.2f} s = {n_games / elapsed:,.0f} games/s "
          f"per core (warm-up/compile {warm:.1f} s)")
    return n_games / elapsed


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000, sys.argv[2] if len(sys.argv) > 2 else "greedy")
