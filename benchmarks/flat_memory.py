"""Flat memory: a big Louis XIV run and its report, with the peak memory of the whole process tree.

Not a test (it takes minutes and its figures depend on the machine): run it by hand, e.g.

    python benchmarks/flat_memory.py --games 10000000 --out runs/flat-memory

It plays ``courtsim simulate louis-xiv --players 4 --games N --jobs -1`` and then
``courtsim report`` on the run, sampling every process of the tree (courtsim and its joblib
workers) from /proc a few times a second, and prints each step's time and the peak of the tree's
summed proportional memory (PSS: shared pages counted once), and the run's play and wall seconds
from its run.yaml. The README gives the figures of this machine.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

SAMPLE_SECONDS = 0.2


def children_of() -> dict[int, list[int]]:
    """Every process's children, from /proc/<pid>/stat (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def proportional_set_size(pid: int) -> int:
    """A process's PSS in bytes: its private memory plus its share of pages it shares with
    others (numba's and LLVM's libraries are mapped by every worker: RSS would count them in
    each), so the tree's sum is what the machine actually holds."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0


def tree_memory(root: int) -> int:
    """The summed PSS of ``root`` and all its descendants, in bytes."""
    children, total, stack = children_of(), 0, [root]
    while stack:
        pid = stack.pop()
        try:
            total += proportional_set_size(pid)
        except OSError:
            pass
        stack.extend(children.get(pid, []))
    return total


def measured(command: list[str]) -> dict:
    """Run ``command``; its wall time and the peak RSS of its process tree."""
    started = time.perf_counter()
    process = subprocess.Popen(command)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_memory(process.pid))
        time.sleep(SAMPLE_SECONDS)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {process.returncode}")
    return {"command": " ".join(command), "seconds": round(time.perf_counter() - started, 1),
            "peak_memory_mb": round(peak / 2**20, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--out", type=Path, default=Path("runs/flat-memory"))
    arguments = parser.parse_args()
    courtsim = [sys.executable, "-c", "import sys; from cli import app; sys.argv[0] = 'courtsim'; app()"]
    steps = [
        measured([*courtsim, "simulate", "louis-xiv", "--players", str(arguments.players),
                  "--games", str(arguments.games), "--jobs", str(arguments.jobs), "--out", str(arguments.out),
                  "--overwrite"]),
        measured([*courtsim, "report", str(arguments.out), "--output", str(arguments.out / "report.html")]),
    ]
    for step in steps:
        print(f"{step['seconds']:>8.1f} s  peak {step['peak_memory_mb']:>8.1f} MB  {step['command'][-120:]}")
    timings = run_timings(arguments.out)
    print(f"simulate: {timings.get('play_seconds')} s of play, {timings.get('wall_seconds')} s in all "
          f"(run.yaml timings)")
    print(json.dumps({"games": arguments.games, "players": arguments.players, "steps": steps,
                      "peak_memory_mb": max(step["peak_memory_mb"] for step in steps), "run_timings": timings}))


def run_timings(out: Path) -> dict:
    """The run's own timings (play and wall seconds) from its run.yaml."""
    import yaml
    return (yaml.safe_load((out / "run.yaml").read_text(encoding="utf-8")) or {}).get("timings") or {}


if __name__ == "__main__":
    main()
