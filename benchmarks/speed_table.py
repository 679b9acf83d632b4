"""The README's speed table, made from `courtsim bench GAME --json` runs on this machine.

    python benchmarks/speed_table.py            # print the table (a few minutes: 3 benches per row)
    python benchmarks/speed_table.py --write    # and put it into README.md between its markers

Each row is one seating, benched ``--repeats`` times one after the other (each bench a fresh
process, after its own warm-up); the row gives the median and the range of
``games_per_second_per_core``. The lines above the table state the date, the machine (cores, CPU
model, system) and the courtsim version the benches printed. tests/test_readme_speed_table.py
checks that the README's table has this format (not its values).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
START = "<!-- speed-table: made by `python benchmarks/speed_table.py --write`; do not edit by hand -->"
END = "<!-- speed-table end -->"
HEADER = "| game | players | bots | games per second per core (median) | range | benches |"
RULE = "|---|---|---|---|---|---|"
SEATINGS = (("louis-xiv", 4, "greedy"), ("louis-xiv", 4, "random"), ("louis-xiv", 4, "tuned_4p"),
            ("heads-of-state", 4, "greedy"), ("heads-of-state", 4, "random"))
MACHINE_LINE = re.compile(r"^Measured on (\d{4}-\d{2}-\d{2}) with courtsim (\S+): (\d+) cores, (.+)\.$")
ROW = re.compile(r"^\| (\S+) \| (\d) \| (\d) x (\S+) \| ([\d,]+) \| ([\d,]+)-([\d,]+) \| (\d+) \|$")


def bench(game: str, players: int, bot: str) -> dict:
    """One `courtsim bench ... --json` in a fresh process: its JSON line."""
    command = [sys.executable, "-c", "import sys; from cli import app; sys.argv[0] = 'courtsim'; app()",
               "bench", game, "--players", str(players), "--bots", bot, "--json"]
    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(finished.stdout.strip().splitlines()[-1])


def machine() -> str:
    """Cores, CPU model and system, as the machine line states them."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, {platform.system()} {platform.machine()}"


def machine_line(date: str, version: str, cores: int, description: str) -> str:
    return f"Measured on {date} with courtsim {version}: {cores} cores, {description}."


def table_row(game: str, players: int, bot: str, rates: list[float]) -> str:
    """One row: the median and range of the benches' games per second per core."""
    return (f"| {game} | {players} | {players} x {bot} | {statistics.median(rates):,.0f} | "
            f"{min(rates):,.0f}-{max(rates):,.0f} | {len(rates)} |")


def speed_table(repeats: int) -> str:
    rows, version = [], "?"
    for game, players, bot in SEATINGS:
        reports = [bench(game, players, bot) for _ in range(repeats)]
        version = reports[-1].get("courtsim_version", version)
        rows.append(table_row(game, players, bot, [report["games_per_second_per_core"] for report in reports]))
        print(rows[-1], file=sys.stderr, flush=True)
    cores_and_model = machine()
    cores, description = cores_and_model.split(" cores, ", 1)
    return "\n".join([START, machine_line(datetime.date.today().isoformat(), version, int(cores), description), "",
                      HEADER, RULE, *rows, END])


def readme_table(text: str) -> str:
    """The README's speed table, markers included."""
    start, end = text.index(START), text.index(END) + len(END)
    return text[start:end]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="benches per row (default 3)")
    parser.add_argument("--write", action="store_true", help="replace the table in README.md")
    arguments = parser.parse_args()
    table = speed_table(arguments.repeats)
    print(table)
    if arguments.write:
        text = README.read_text(encoding="utf-8")
        README.write_text(text.replace(readme_table(text), table), encoding="utf-8")


if __name__ == "__main__":
    main()
