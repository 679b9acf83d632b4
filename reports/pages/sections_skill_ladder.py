"""The run report's "Skill ladder" section of a skill-ladder run (issue 13): do the findings hold
whoever plays, weak or strong bots? What it shows is computed on the analysis floor
(reports.analysis.skill_ladder.analyse): the findings level by level, the skill gap of each step,
the win-rate matrix between levels and the seat advantage at each level."""
from __future__ import annotations

import pandas as pd

from reports.analysis.skill_ladder import Ladder, analyse, join_words
from reports.pages import plots
from reports.pages.sections_common import Context, Section

SECTION_TITLE = "Skill ladder"
SECTION_ANCHOR = "skill-ladder"


def ladder_section(ctx: Context, ladder: Ladder) -> Section:
    """The HTML report's "Skill ladder" section; its sentences also go to the headlines."""
    result = analyse(ctx.seats, ladder)
    section = Section(SECTION_TITLE, SECTION_ANCHOR)
    levels = ladder.level_names
    section.paragraphs.append(
        f"Levels, weakest first: {', '.join(f'{level} ({join_words(ladder.bots_of(level))})' for level in levels)}. "
        "Each finding below is recomputed on each level's mirror games (every seat that level); the matrix and "
        "the steps use every game in which both levels sit.")
    section.paragraphs.extend(result.finding_sentences)
    section.paragraphs.extend(result.gap_sentences)
    ctx.headlines.extend(f"Skill ladder: {sentence}" for sentence in result.finding_sentences[:len(result.overall_tests)])
    ctx.headlines.extend(f"Skill ladder: {sentence}" for sentence in result.gap_sentences
                         if "not significant" in sentence or "WEAKER" in sentence)
    if not result.matrix.empty:
        counts = sorted(result.matrix["n_players"].unique())
        figure, axes = plots.new_figure(1.1 * len(levels) * len(counts) + 2.5 * len(counts), 0.6 * len(levels) + 2.2,
                                        ncols=len(counts))
        for ax, n_players in zip(axes[0], counts):
            part = result.matrix[result.matrix["n_players"] == n_players]
            pivot = (part.pivot(index="level", columns="opponent", values="ahead_rate")
                     .reindex(index=levels, columns=levels))
            plots.heatmap(pivot, title=f"{n_players} players", xlabel="opponent level", ylabel="level",
                          colorbar_label="finishes ahead", vmin=0, vmax=1, ax=ax)
        section.figures.append(ctx.store.add(
            "skill_ladder_matrix", "Win-rate matrix between skill levels", figure, result.matrix,
            "Cell (row, column): in games where both levels sit, how often a seat of the row level finishes ahead of "
            "a seat of the column level (each game's share of such pairs; a higher score is ahead, at equal scores a "
            "winner). 95% Wilson intervals over games and game counts in the table.",
            ctx.n_games, table_rows=40))
    gaps = result.gaps[result.gaps["games"] > 0].copy()
    if not gaps.empty:
        gaps["step"] = gaps["weaker"] + " → " + gaps["stronger"]
        hue = gaps["n_players"].map(lambda n: n if n == "all" else f"{n} players")
        figure = plots.bars_with_intervals(gaps.assign(players=hue), "step", "rate", "rate_low", "rate_high",
                                           hue="players", reference=0.5, reference_label="no gap (50%)",
                                           xlabel="step of the ladder", ylabel="stronger finishes ahead (%)")
        section.figures.append(ctx.store.add(
            "skill_ladder_gaps", "Skill gap of each step", figure, result.gaps,
            "How often the stronger level of each step finishes ahead of the weaker one where both sit, per player "
            "count and over all of them, with 95% Wilson intervals; a bar whose interval crosses 50% is not "
            "significant.", ctx.n_games, table_rows=20))
    if not result.mirror_tests.empty:
        best = result.overall_tests.set_index("n_players")["best_position"]
        seats = result.mirror_seats.copy()
        seats = seats[seats["position"] == seats["n_players"].map(best)]
        seats["players"] = seats["n_players"].map(lambda n: f"{n} players")
        seats["level"] = pd.Categorical(seats["level"], categories=levels, ordered=True)
        seats = seats.sort_values(["level", "n_players"])
        figure = plots.bars_with_intervals(
            seats, "level", "win_rate", "win_rate_low", "win_rate_high", hue="players",
            reference={f"{n} players": 1 / n for n in seats["n_players"].unique()},
            xlabel="skill level (mirror games)", ylabel="win rate of the run's best player (%)")
        table = result.mirror_tests.merge(result.overall_tests[["n_players", "best_position", "p_value"]]
                                          .rename(columns={"best_position": "run_best_position", "p_value": "run_p_value"}),
                                          on="n_players")
        section.figures.append(ctx.store.add(
            "skill_ladder_seat_advantage", "Seat advantage at each skill level", figure, table,
            "Win rate, in each level's mirror games, of the player (by place in the turn order) who wins most over "
            "all the run's games, per player count (dashed: fair share), 95% Wilson intervals; the table gives each "
            "level's chi-square test and best turn-order position (0 = the start player).", ctx.n_games,
            table_rows=30))
    return section
