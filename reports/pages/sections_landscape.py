"""The strategy landscape's sections (issue 41), shared by its own page (``courtsim landscape``:
reports.pages.landscape_report) and the run report of a run with a landscape played on its rules
(a study cell's run, ``RUN/landscape/``: reports.pages.run_report): the meta-game's equilibrium and
ratings, every option's value with its verdict, the luck-skill index and the exploit check, from
the tables of sim.studies.landscape."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import polars as pl

from reports.pages import plots
from reports.pages.sections_common import Section
from sim.core.engine import ConfigError

SECTION_TITLE = "Strategy landscape"
SECTION_ANCHOR = "strategy-landscape"
TABLES = ("equilibrium", "verdicts", "options", "skill", "exploit")


def read_tables(directory: Path) -> dict[str, pd.DataFrame]:
    found = {}
    for name in TABLES:
        path = directory / f"{name}.parquet"
        if not path.is_file():
            raise ConfigError(f"{path}: missing; expected the tables of a finished courtsim landscape")
        found[name] = pl.read_parquet(path).to_pandas()
    return found


VERDICT_COLOURS = {"dead": "grey", "worth little": "cornflowerblue", "matters": "seagreen", "dominant": "darkorange",
                   "misused": "deeppink", "not resolved at this budget": "goldenrod"}
RATING_COLOURS = {True: "darkorange", False: "seagreen"}


MARKER_WORDS = {"o": "circle", "s": "square", "D": "diamond", "^": "triangle", "v": "down triangle"}


def marker_legend(frame: pd.DataFrame) -> str:
    """Which marker is which player count (plots.forest: one shape per series, in order)."""
    counts = list(dict.fromkeys(frame["players"]))
    return "; ".join(f"{MARKER_WORDS.get(marker, marker)}: {count}"
                     for marker, count in zip(plots.FOREST_MARKERS, counts))


def players_label(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(players=frame["n_players"].map(lambda count: f"{count} players"))


def ratings_figure(store: plots.FigureStore, tables: dict[str, pd.DataFrame]):
    """Each bot's rating against the equilibrium, by player count (points of win rate)."""
    frame = players_label(tables["equilibrium"]).assign(
        rating_points=lambda table: 100 * table["rating"], low_points=lambda table: 100 * table["low"],
        high_points=lambda table: 100 * table["high"], in_support=lambda table: table["mass"] > 0.05, margin=0.0)
    frame = frame.sort_values(["n_players", "rating", "strategy"], ascending=[True, False, True])
    figure = plots.forest(frame, "strategy", "players", "rating_points", "low_points", "high_points", "margin",
                          "in_support", RATING_COLOURS, xlabel="rating against the equilibrium (points of win rate)")
    return store.add("landscape_ratings", "Ratings against the equilibrium", figure,
                     frame[["n_players", "strategy", "mass", "mass_low", "mass_high", "rating", "low", "high"]],
                     "Each bot's win rate against the equilibrium mixture, less its share, with its bootstrap "
                     f"interval; orange: in the equilibrium's support ({marker_legend(frame)}).", 0, table_rows=40)


def options_figure(store: plots.FigureStore, tables: dict[str, pd.DataFrame]):
    """Each option's value by player count, coloured by its verdict; dashed: the dead margin."""
    frame = players_label(tables["options"]).assign(
        value_points=lambda table: 100 * table["value"], low_points=lambda table: 100 * table["low"],
        high_points=lambda table: 100 * table["high"], margin=2.0).sort_values("n_players", kind="stable")
    figure = plots.forest(frame, "name", "players", "value_points", "low_points", "high_points", "margin",
                          "verdict", VERDICT_COLOURS, xlabel="win rate lost without the option (points)")
    return store.add("landscape_options", "Option values", figure,
                     frame[["n_players", "name", "take_rate", "value", "low", "high", "verdict"]],
                     "The tuned bot's win rate lost when the option is switched off, paired on common random "
                     "numbers, with its 95% interval; dashed: 2 points either way. Colours: "
                     + ", ".join(f"{verdict} ({colour})" for verdict, colour in VERDICT_COLOURS.items())
                     + f"; {marker_legend(frame)}.", int(frame["games"].sum()),
                     table_rows=60)


def exploitable_warnings(tables: dict[str, pd.DataFrame]) -> dict[int, str]:
    """Per player count whose tuned bot the exploit check found exploitable: the warning shown
    next to the verdicts that rest on it (issue 41: the report says so beside them)."""
    exploit = tables["exploit"]
    if not len(exploit) or "exploitable" not in exploit.columns:
        return {}
    return {int(row.n_players): (f"Caution: at {int(row.n_players)} players these verdicts rest on {row.exploited}, which "
                                 f"a bot tuned against it beats by {100 * row.gain:+.1f} points (the exploit check below).")
            for row in exploit.itertuples() if bool(row.exploitable)}


def equilibrium_section(tables: dict[str, pd.DataFrame]) -> Section:
    bullets = []
    warnings = exploitable_warnings(tables)
    for _, verdict in tables["verdicts"].iterrows():
        count = int(verdict["n_players"])
        bullets.append(str(verdict["sentence"]))
        if count in warnings:
            bullets.append(warnings[count])
        rows = tables["equilibrium"][tables["equilibrium"]["n_players"] == count].sort_values("rating", ascending=False)
        bullets += [f"{count} players · {row.strategy}: mass {row.mass:.2f} [{row.mass_low:.2f}, {row.mass_high:.2f}], "
                    f"rating {100 * row.rating:+.1f} points [{100 * row.low:+.1f}, {100 * row.high:+.1f}]"
                    for row in rows.itertuples()]
    return Section("Is there a dominant strategy?", "equilibrium", paragraphs=[
        "Every ordered pair of the pool played one seat against the other seats, each bot in each seat in turn. "
        "Nash averaging (Balduzzi et al. 2018): the maximum-entropy equilibrium of the antisymmetric game of "
        "the pair win rates; a bot's rating is its win rate against that mixture, less its share (0 on the "
        "equilibrium's support). Intervals: bootstrap over games."], bullets=bullets)


def options_section(tables: dict[str, pd.DataFrame]) -> Section:
    options = tables["options"]
    warnings = exploitable_warnings(tables)
    bullets = [warnings[count] for count in sorted(warnings) if count in set(options.get("n_players", []))]
    bullets += list(options.sort_values(["decision", "n_players"])["sentence"]) if len(options) else []
    return Section("Which rules matter?", "options", paragraphs=[
        "Restricted play (Jaffe et al. 2012): the tuned bot with one option switched off plays one seat against "
        "the unrestricted tuned bot, on the same games as the tuned bot's mirror games (common random numbers). "
        "The value is the win rate it loses, in points, with a 95% t interval over games. Dead: the loss lies within "
        "2 points (or no seat's result changes) and the option is taken in under 5% of the tuned bot's seat-games; "
        "worth little: within 2 points but taken more often, or its uses are not counted; dominant: surely more "
        "than 10 points; misused: the bot wins more without it."],
        bullets=bullets)


def skill_section(tables: dict[str, pd.DataFrame]) -> Section:
    skill = tables["skill"]
    return Section("How much is skill, how much luck?", "skill", paragraphs=[
        "The luck-skill index (Duersch, Lambrecht and Oechssler 2020) is the share of games skill would have to "
        "decide, a fair coin the rest, for the ladder's ratings to spread as far as they do; the skill chain "
        "(Lantz et al. 2017) counts the ladder steps where the stronger level is ahead at least 60% of the "
        "time."], bullets=[str(sentence) for sentence in skill["sentence"]] if len(skill) else [])


def exploit_section(tables: dict[str, pd.DataFrame]) -> Section:
    exploit = tables["exploit"]
    return Section("Are the verdicts' bots exploitable?", "exploit", paragraphs=[
        "A bot of the tuned bot's family tuned against the tuned bot alone (courtsim tune-bot, starting from it), "
        "re-evaluated on fresh games: how far it rises above the fair share. A large gain means the verdicts "
        "above rest on a player that is easy to beat."],
        bullets=[str(sentence) for sentence in exploit["sentence"]] if len(exploit) else
        ["Not checked in this landscape (courtsim landscape --exploit-budget N)."])


def landscape_headlines(tables: dict[str, pd.DataFrame]) -> list[str]:
    lines = [str(sentence) for sentence in tables["verdicts"]["sentence"]]
    options = tables["options"]
    if len(options):
        for verdict in ("dominant", "dead"):
            chosen = options[options["verdict"] == verdict]
            if len(chosen):
                counts = chosen.groupby("name")["n_players"].apply(lambda values: ", ".join(map(str, sorted(values))))
                lines.append(f"{verdict.capitalize()} options: "
                             + "; ".join(f"{name} ({players} players)" for name, players in counts.items()) + ".")
    lines += [str(sentence) for sentence in tables["skill"]["sentence"]]
    lines += [str(sentence) for sentence in tables["exploit"]["sentence"]]
    return lines



def landscape_sections(store: plots.FigureStore, tables: dict[str, pd.DataFrame]) -> list[Section]:
    """The landscape page's four sections, with their figures."""
    sections = [equilibrium_section(tables), options_section(tables), skill_section(tables), exploit_section(tables)]
    if len(tables["equilibrium"]):
        sections[0].figures.append(ratings_figure(store, tables))
    if len(tables["options"]):
        sections[1].figures.append(options_figure(store, tables))
    return sections


def strategy_landscape_section(store: plots.FigureStore, directory: Path, headlines: list[str]) -> Section:
    """The run report's one "Strategy landscape" section: the four parts in turn (each part's
    title leads its explanation), their figures, and the landscape's headlines added to the page's."""
    tables = read_tables(directory)
    section = Section(SECTION_TITLE, SECTION_ANCHOR, paragraphs=[
        f"The strategy landscape of this run's rules ({directory}): the meta-game of a pool of bots and the value of "
        "each optional decision of the rules to the tuned bot."])
    for part in landscape_sections(store, tables):
        section.paragraphs += [f"{part.title} " + " ".join(part.paragraphs)] + list(part.bullets)
        section.figures += part.figures
    headlines += [f"Strategy landscape: {line}" for line in landscape_headlines(tables)]
    return section
