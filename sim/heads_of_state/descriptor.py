"""Heads of State as the rest of courtsim knows it (sim.core.descriptor; listed in sim/registry.py)."""
from sim.core.descriptor import GameDescriptor

DESCRIPTOR = GameDescriptor(
    name="heads-of-state",
    title="Heads of State",
    folder="heads_of_state",
    engine_path="sim.heads_of_state.engine:ENGINE",
    bots_path="strategies.heads_of_state",
    tables_path="sim.heads_of_state.tables",
    metrics_path="reports.analysis.metrics_heads_of_state",
    sections_path="reports.pages.sections_heads_of_state",
    sections_step="assassinations, tie-breaks, score sources",
    length_unit="turns",
    tie_break="the noble-card tie-break",
    assumptions=tuple(f"H{number}" for number in range(1, 13)),    # shared/rules/heads_of_state.md
    limitations=(
        "Country scoring records the tie-break level of first and second place only: the 2nd/3rd boundary, "
        "returned second-place tokens and points swung per kill are not in the tables.",
        "End-game noble-card majorities are derived from the cards_<rank> held at the end (sole leader / "
        "two-way split / void); the per-rank majority points awarded are not recorded separately.",
        "Double-country betrayal cards are reported by card type and target; the country each double card "
        "was used for is in the betrayals CSV columns card_a/card_b/country but not plotted.",
    ),
)
