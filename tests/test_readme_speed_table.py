"""The README's speed table keeps the format benchmarks/speed_table.py writes from `courtsim bench
--json` runs (its figures are measurements, not checked here): the marker lines, a line stating
date, courtsim version and machine, the header, and one row per benched seating in order."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def speed_table_module():
    spec = importlib.util.spec_from_file_location("speed_table", ROOT / "benchmarks" / "speed_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_speed_table_is_in_the_format_of_the_bench_script():
    speed_table = speed_table_module()
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count(speed_table.START) == 1 and text.count(speed_table.END) == 1
    lines = speed_table.readme_table(text).splitlines()
    assert lines[0] == speed_table.START and lines[-1] == speed_table.END
    assert speed_table.MACHINE_LINE.match(lines[1]), lines[1]
    assert lines[2] == ""
    assert lines[3] == speed_table.HEADER and lines[4] == speed_table.RULE
    rows = lines[5:-1]
    assert len(rows) == len(speed_table.SEATINGS)
    for row, (game, players, bot) in zip(rows, speed_table.SEATINGS):
        match = speed_table.ROW.match(row)
        assert match, row
        assert (match[1], int(match[2]), int(match[3]), match[4]) == (game, players, players, bot)
        median, low, high = (int(match[k].replace(",", "")) for k in (5, 6, 7))
        assert low <= median <= high and int(match[8]) >= 1


def test_a_row_made_from_bench_figures_is_a_row_the_readme_check_accepts():
    speed_table = speed_table_module()
    row = speed_table.table_row("louis-xiv", 4, "greedy", [20431.2, 19877.0, 21002.9])
    assert row == "| louis-xiv | 4 | 4 x greedy | 20,431 | 19,877-21,003 | 3 |"
    assert speed_table.ROW.match(row)
    line = speed_table.machine_line("2026-12-07", "0.1.0", 2, "Some CPU @ 2.20GHz, Linux x86_64")
    assert speed_table.MACHINE_LINE.match(line)
