"""The strategy landscape page (``courtsim landscape``, issue 41): the meta-game's equilibrium and
ratings, every option's value with its verdict, and the luck-skill index, from the tables of
sim.studies.landscape (DIR/equilibrium.parquet, verdicts.parquet, options.parquet,
skill.parquet, study.yaml; the sections: reports.pages.sections_landscape). One self-contained HTML
file (reports.pages.toolkit)."""
from __future__ import annotations

import sys
from pathlib import Path

from reports.pages import sections_landscape, toolkit
from sim.studies import directory as study_directory


def write_landscape_report(directory: Path, out: Path | None = None) -> Path:
    """Write DIR/report.html (or ``out``) from the landscape's tables."""
    directory = Path(directory)
    record = study_directory.read_record(directory) or {}
    identity = record.get("identity", {}) if isinstance(record, dict) else {}
    tables = sections_landscape.read_tables(directory)
    out = Path(out) if out is not None else directory / "report.html"
    game = identity.get("game", "")
    meta = (f"Strategy landscape {directory} · game {game} · players "
            f"{', '.join(str(n) for n in identity.get('players', []))} · "
            f"{identity.get('games_per_matchup', '?')} games per match-up · seed {identity.get('seed', '?')}")
    store = toolkit.writable_output(out)
    with toolkit.report_write_errors(out):
        sections = sections_landscape.landscape_sections(store, tables)
    limitations = ["The meta-game is a verdict about the pool of bots played, not every way of playing; the "
                   "option values are the tuned bot's.",
                   "Options with no bot setting that rules them out are not valued (configs/landscape/<game>.yaml, "
                   "without_switch)."]
    html = toolkit.render(f"{toolkit.game_title(game)}: the strategy landscape", meta,
                          sections_landscape.landscape_headlines(tables), sections,
                          limitations)
    return toolkit.write(out, html)


if __name__ == "__main__":
    print(write_landscape_report(Path(sys.argv[1])))
