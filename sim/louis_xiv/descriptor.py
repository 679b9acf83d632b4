"""Louis XIV as the rest of courtsim knows it (sim.core.descriptor; listed in sim/registry.py)."""
from sim.core.descriptor import GameDescriptor

DESCRIPTOR = GameDescriptor(
    name="louis-xiv",
    title="Louis XIV",
    folder="louis_xiv",
    engine_path="sim.louis_xiv.engine:ENGINE",
    bots_path="strategies.louis_xiv",
    tables_path="sim.louis_xiv.tables",
    metrics_path="reports.analysis.metrics_louis_xiv",
    sections_path="reports.pages.sections_louis_xiv",
    sections_step="courtiers",
    length_unit="influence turns",
    tie_break="the own-supply tie-break",
    assumptions=tuple(f"A{number}" for number in range(1, 8)),     # shared/rules/louis_xiv.md
    limitations=(
        "Drama uses score_after_round_<r> (coats of arms + 5 per mission at the end of each round); "
        "there is no per-turn score, so lead changes inside a round are not visible.",
        "Gifts are identified by courtier only: which coat-of-arms kind a gift drew and which mission "
        "card (rather than colour and ability) a player completed are not in the tables.",
        "The first player (the start player) is the tables' seat 0 unless the random_start_player rule is on; "
        "the report names players by turn order (start_position), so a seat effect is a turn-order effect.",
    ),
)
