"""The rule-comparison report (reports/pages/comparison_report.py) from a synthetic comparison.parquet
and comparison.yaml of exactly the shape `courtsim compare` writes: two variants, 2 and 3
players, 15 metrics, every verdict, a CRN gain that could not be computed."""
import html
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm
from statsmodels.stats.multitest import multipletests

from page_text import headlines, text_of
from reports.pages.comparison_report import write_comparison_report
from reports.pages.toolkit import CHROMIUM, view_in_chromium
from sim.core.engine import ConfigError

# (metric, label, group, unit, margin, baseline value)
METRICS = [
    ("first_player_win_rate", "the first player's win rate", "seats", "rate", 0.01, 0.541),
    ("second_player_win_rate", "the second player's win rate", "seats", "rate", 0.01, 0.459),
    ("third_player_win_rate", "the third player's win rate", "seats", "rate", 0.01, 0.33),
    ("balance", "balance (1 - largest gap between seats)", "seats", "rate", 0.01, 0.91),
    ("greedy_win_rate", "the greedy bot's win rate", "bots", "rate", 0.01, 0.62),
    ("coat_hoarder_win_rate", "the coat hoarder's win rate", "bots", "rate", 0.01, 0.38),
    ("winning_score", "the winning score", "scores", "points", 0.5, 48.2),
    ("score_margin", "the winner's margin", "scores", "points", 0.5, 6.1),
    ("mean_score", "the mean score", "scores", "points", 0.5, 41.3),
    ("shared_win_rate", "the share of shared wins", "outcome", "rate", 0.01, 0.03),
    ("tiebreak_rate", "the share of tie-break decided games", "outcome", "rate", 0.01, 0.07),
    ("drama", "drama (the leader after a round does not win)", "outcome", "rate", 0.01, 0.29),
    ("game_length", "the game's length", "outcome", "turns", 0.5, 61.0),
    ("missions_completed", "missions completed per player", "mechanics", "count", 0.1, 3.4),
    ("cards_played", "intrigue cards played per player", "mechanics", "count", 0.1, 5.2),
]
VARIANTS = [
    {"name": "imaginary_player_10_markers",
     "description": "Ten markers for the imaginary player make the 2-player game tighter because the "
                    "imaginary player contests more courtiers each round",
     "overrides": [{"path": "imaginary_player.markers", "printed": 8, "value": 10}],
     "rules": [{"name": "imaginary_player_blocks_ties", "printed": False, "value": True}]},
    {"name": "keep_12_point_token", "label": "Keeping the 12-point token",
     "description": "Keep the 12-point token with two players, so that the last round still has a prize "
                    "worth contesting",
     "file": "configs/variants/louis_xiv/keep_12_point_token.yaml", "extends": ["two_player_base"],
     "overrides": [{"path": "scoring.point_tokens", "printed": [6, 9, 12], "value": [6, 9, 12, 12]}],
     "rules": []},
]
HEADLINE = ("Keeping the 12-point token in 2-player games moves the first player's win rate from 54.1% to 51.3%: "
            "-2.8 points [-3.4, -2.2], real.")


def verdict(low, high, p_adjusted, margin, alpha=0.05):
    """compare-stats' rule: inside the margin first, then significance."""
    if -margin <= low and high <= margin:
        return "smaller than the margin"
    return "real" if p_adjusted < alpha else "not resolved"


def comparison_rows(seed: int = 7, real: bool = True) -> pd.DataFrame:
    """One row per (metric, n_players, variant): a third of the differences about two margins, a
    third about one, a third tiny; the third player only at 3 players; one exact row, the largest difference
    (2.8 margins), for the headline test."""
    rng = np.random.default_rng(seed)
    rows = []
    for variant in VARIANTS:
        for n_players in (2, 3):
            for index, (metric, label, group, unit, margin, baseline) in enumerate(METRICS):
                if metric == "third_player_win_rate" and n_players == 2:
                    continue
                size = (2.0, 1.0, 0.2)[index % 3] * margin * (1 if real else 0.1)
                difference = float(rng.normal(size, 0.2 * margin)) * rng.choice([-1, 1])
                half_width = (0.5 if index % 2 else 0.9) * margin
                rows.append({"metric": metric, "metric_label": label, "group": group, "unit": unit,
                             "n_players": n_players, "variant": variant["name"], "baseline_value": baseline,
                             "variant_value": baseline + difference, "difference": difference,
                             "low": difference - half_width, "high": difference + half_width,
                             "p_value": float(2 * norm.sf(abs(difference) / (half_width / 1.96))),
                             "crn_gain": float(rng.uniform(1.2, 6.0)), "games": 4000, "margin": margin})
    table = pd.DataFrame(rows)
    exact = ((table.variant == "keep_12_point_token") & (table.n_players == 2)
             & (table.metric == "first_player_win_rate"))
    table.loc[exact, ["variant_value", "difference", "low", "high", "p_value"]] = [0.513, -0.028, -0.034, -0.022, 1e-9]
    table.loc[(table.metric == "cards_played") & (table.n_players == 3), "crn_gain"] = np.nan
    table["p_adjusted"] = multipletests(table["p_value"], method="holm")[1]
    table["verdict"] = [verdict(row.low, row.high, row.p_adjusted, row.margin) for row in table.itertuples()]
    return table


def write_comparison(directory: Path, table: pd.DataFrame | None = None, status: str = "complete", **method) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    table = comparison_rows() if table is None else table
    table.to_parquet(directory / "comparison.parquet", index=False)
    settings = {
        "courtsim_comparison": 1, "status": status, "game": "louis-xiv", "experiment": "louis_xiv_2p_tweaks", "players": [2, 3],
        "baseline": {"name": "printed", "label": "the printed rules",
                     "description": "the rules as printed (configs/games/louis_xiv.yaml)", "overrides": [], "rules": []},
        "variants": VARIANTS,
        "method": {"confidence": 0.95, "adjustment": "holm", "alpha": 0.05, "margin": 0.01, "until_resolved": False,
                   "metrics": [], "games_per_batch": 4000, "batches": 1, "max_games": None, "seed": 1202, **method},
        "created": "2026-12-02T01:00:00Z"}
    if settings["method"]["until_resolved"]:
        settings["sequential"] = [
            {"metric": "first_player_win_rate", "n_players": 2, "variant": "keep_12_point_token", "decision": "real",
             "games": 12000},
            {"metric": "first_player_win_rate", "n_players": 2, "variant": "imaginary_player_10_markers",
             "decision": "smaller than the margin", "games": 28000, "llr_up": -3.1, "llr_down": -3.0},
            {"metric": "first_player_win_rate", "n_players": 3, "variant": "imaginary_player_10_markers",
             "decision": "continue", "games": 40000, "llr_up": -1.0, "llr_down": 0.5}]
    (directory / "comparison.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    return directory


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, str]:
    directory = write_comparison(tmp_path_factory.mktemp("comparison") / "compare")
    page = write_comparison_report(directory)
    return page, page.read_text(encoding="utf-8")


def listed(page: str, list_id: str) -> str:
    return text_of(re.search(rf'<ul class="compact" id="{list_id}">(.*?)</ul>', page, re.S).group(1))


def test_the_report_is_written_next_to_the_comparison_with_its_tables_as_csv(report):
    page, _ = report
    assert page.name == "report.html" and page.parent.name == "compare"
    files = page.parent / "report_files"
    full = pd.read_csv(files / "comparison_table.csv")
    assert len(full) == len(comparison_rows())
    assert (files / "comparison_forest.png").stat().st_size > 10_000
    assert {"metric", "n_players", "variant", "difference", "verdict"} <= set(pd.read_csv(files / "comparison_forest.csv"))


def test_a_real_difference_is_a_headline_in_the_designers_words(report):
    assert HEADLINE in headlines(report[1])


def test_headlines_put_seats_first_the_largest_difference_first_and_stop_at_twelve(report):
    lines = headlines(report[1])
    table = comparison_rows()
    real = table[table.verdict == "real"]
    assert len(real) > 12
    assert len(lines) == 13 and lines[-1].startswith(f"… and {len(real) - 12} more real differences")
    assert lines[0] == HEADLINE
    seats = real[real.group == "seats"].sort_values("difference", key=abs, ascending=False)
    for line, row in zip(lines[1:len(seats)], seats.iloc[1:].itertuples()):
        assert f"in {row.n_players}-player games moves {row.metric_label} from " in line
    assert not any("the winning score" in line or "per player" in line for line in lines[:len(seats)])


def test_a_long_rationale_is_not_the_subject_the_variant_name_is(report):
    lines = headlines(report[1])
    assert any(line.startswith("The variant imaginary_player_10_markers in ") for line in lines)
    assert not any(line.startswith(("Ten markers", "Keep the 12-point token with")) for line in lines)


@pytest.mark.parametrize("label, description, expected", [
    ("Starting with 7 gold", "Seven gold, so that early bribes are affordable", "Starting with 7 gold"),
    ("start_gold_7", "Seven gold, so that early bribes are affordable", "The variant start_gold_7"),
    (None, "starting with 7 gold.", "Starting with 7 gold"),
    (None, "Seven starting gold instead of five, so that early bribes are affordable to every bot at the table",
     "The variant start_gold_7")])
def test_a_headlines_subject_is_the_label_else_a_short_description_else_the_name(label, description, expected):
    from reports.pages.comparison_report import Variant
    assert Variant(name="start_gold_7", label=label, description=description).subject == expected


def test_a_score_difference_is_a_plain_number_with_its_unit():
    from reports.pages.comparison_report import headline
    row = pd.Series({"variant": "keep_12_point_token", "n_players": 3, "metric_label": "the winning score",
                     "unit": "points", "baseline_value": 48.2, "variant_value": 49.6, "difference": 1.4,
                     "low": 0.9, "high": 1.9, "verdict": "real", "margin": 0.5})
    assert headline(row, {"keep_12_point_token": "Keeping the 12-point token"}) == (
        "Keeping the 12-point token in 3-player games moves the winning score from 48.2 points to 49.6 points: "
        "+1.4 points [0.9, 1.9], real")


def test_every_variants_overrides_rule_switches_and_rationale_appear(report):
    text = text_of(report[1])
    assert "keep_12_point_token: Keeping the 12-point token" in text
    assert "configs/variants/louis_xiv/keep_12_point_token.yaml · extends two_player_base" in text
    for variant in VARIANTS:
        assert html.unescape(variant["description"]) in text
        for change in variant["overrides"]:
            assert f"{change['path']} {change['printed']} {change['value']}" in text
        for change in variant["rules"]:
            assert f"{change['name']} {str(change['printed']).lower()} {str(change['value']).lower()}" in text


def test_the_metrics_that_did_not_move_are_listed_per_variant_and_player_count(report):
    table = comparison_rows()
    did_not_move = listed(report[1], "did-not-move")
    for (variant, n_players), part in table[table.verdict == "smaller than the margin"].groupby(["variant", "n_players"]):
        assert f"{variant}, {n_players} players: {', '.join(part.metric_label)}" in did_not_move
    not_resolved = listed(report[1], "not-resolved")
    for row in table[table.verdict == "not resolved"].itertuples():
        assert row.metric_label in not_resolved


def test_the_full_table_has_every_row_and_a_missing_crn_gain_is_n_a(report):
    page = report[1]
    full = re.search(r'<table class="data full">(.*?)</table>', page, re.S).group(1)
    assert full.count("<tr><td") == len(comparison_rows())
    row = re.search(r"<tr class=\"group\"><th colspan=\"12\"><code>keep_12_point_token</code>, 3 players</th></tr>"
                    r".*?(<tr><td class=\"label\" title=\"cards_played\">.*?</tr>)", full, re.S).group(1)
    assert "<td>n/a</td>" in row


@pytest.mark.parametrize("adjustment, named, promise", [("holm", "Holm", "family-wise"),
                                                       ("fdr_bh", "Benjamini-Hochberg", "false discovery rate")])
def test_the_method_names_the_adjustment_used(adjustment, named, promise, tmp_path):
    page = write_comparison_report(write_comparison(tmp_path / "compare", adjustment=adjustment)).read_text()
    method = text_of(re.search(r'<section id="method">(.*?)</section>', page, re.S).group(1))
    assert f"{named}" in method and f"({adjustment}: {promise})" in method
    assert "Common random numbers" in method and "CRN gain" in method and "GSPRT" not in method


def test_until_resolved_explains_the_gsprt_and_the_games_each_decision_took(tmp_path):
    directory = write_comparison(tmp_path / "compare", until_resolved=True, metrics=["first_player_win_rate"],
                                 batches=None, max_games=40000)
    method = text_of(re.search(r'<section id="method">(.*?)</section>',
                               write_comparison_report(directory).read_text(), re.S).group(1))
    assert "GSPRT" in method and "alpha = beta = 0.05" in method and "at most 40,000 games" in method
    assert "the first player's win rate 2 keep_12_point_token real 12,000" in method
    assert "the first player's win rate 2 imaginary_player_10_markers smaller than the margin 28,000" in method
    assert "the first player's win rate 3 imaginary_player_10_markers undecided when play stopped 40,000" in method


def test_an_unfinished_comparison_says_so_first(tmp_path):
    page = write_comparison_report(write_comparison(tmp_path / "compare", status="incomplete")).read_text()
    assert headlines(page)[0].startswith("This comparison is incomplete (comparison.yaml): courtsim compare has not "
                                         "finished its batches")
    assert HEADLINE in headlines(page)


def test_when_nothing_is_real_the_report_says_so_plainly(tmp_path):
    table = comparison_rows(real=False)
    table = table[table.metric != "first_player_win_rate"]
    table = table.assign(verdict=table.verdict.replace("real", "not resolved"))
    page = write_comparison_report(write_comparison(tmp_path / "compare", table)).read_text()
    assert headlines(page) == [
        f"No rule change made a real difference to any metric: of the {len(table)} comparisons, "
        f"{(table.verdict == 'smaller than the margin').sum()} are smaller than the margin and "
        f"{(table.verdict == 'not resolved').sum()} are not resolved (more games could still show a difference there)."]


def test_the_page_is_self_contained(report):
    page = report[1]
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "<script" not in page.lower() and "@import" not in page and "url(" not in page
    assert page.count('src="data:image/png;base64,') == 1


def test_missing_comparison_files_are_one_line_errors_naming_the_path(tmp_path):
    directory = write_comparison(tmp_path / "compare")
    (directory / "comparison.parquet").unlink()
    with pytest.raises(ConfigError, match=re.escape(str(directory / "comparison.parquet"))) as error:
        write_comparison_report(directory)
    (directory / "comparison.yaml").unlink()
    with pytest.raises(ConfigError, match=re.escape(str(directory / "comparison.yaml"))) as other:
        write_comparison_report(directory)
    assert "\n" not in str(error.value) and "\n" not in str(other.value)


def test_a_table_without_a_contract_column_names_the_column(tmp_path):
    directory = write_comparison(tmp_path / "compare", comparison_rows().drop(columns="crn_gain"))
    with pytest.raises(ConfigError, match=r"comparison\.parquet: column 'crn_gain' required but missing$"):
        write_comparison_report(directory)


def test_an_unknown_comparison_format_is_refused_naming_the_key(tmp_path):
    directory = write_comparison(tmp_path / "compare")
    settings = yaml.safe_load((directory / "comparison.yaml").read_text())
    (directory / "comparison.yaml").write_text(yaml.safe_dump({**settings, "courtsim_comparison": 2}))
    with pytest.raises(ConfigError, match=r"comparison\.yaml: key 'courtsim_comparison': expected 1"):
        write_comparison_report(directory)


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_the_comparison_report_renders_in_chromium(report, tmp_path):
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    seen = view_in_chromium(report[0], tmp_path / "comparison.png")
    assert seen["errors"] == [] and seen["failed"] == []
    assert seen["title"] == "Louis XIV rule comparison"
    assert len(seen["image_widths"]) == 1 and seen["image_widths"][0] > 0
    assert HEADLINE in seen["headlines"]
    assert (tmp_path / "comparison.png").stat().st_size > 10_000


def test_one_variant_one_player_count_an_unknown_group_and_a_nan_metric_still_render(tmp_path):
    table = comparison_rows()
    table = table[(table.variant == "keep_12_point_token") & (table.n_players == 3)].copy()
    table.loc[table.metric == "cards_played", "group"] = "intrigue"
    table.loc[table.metric == "missions_completed", ["variant_value", "difference", "low", "high", "p_value",
                                                     "p_adjusted", "crn_gain", "margin"]] = np.nan
    table.loc[table.metric == "missions_completed", "verdict"] = "not resolved"
    page = write_comparison_report(write_comparison(tmp_path / "compare", table), tmp_path / "elsewhere" / "c.html")
    assert page == tmp_path / "elsewhere" / "c.html" and (tmp_path / "elsewhere" / "c_files" / "comparison_forest.png").exists()
    assert "missions completed per player (n/a [n/a, n/a])" in listed(page.read_text(), "not-resolved")
    assert "The variant imaginary_player_10_markers" not in page.read_text()


@given(baseline=st.floats(0.05, 0.95), difference=st.floats(-0.2, 0.2), half_width=st.floats(1e-4, 0.1))
def test_a_headlines_numbers_are_the_rows_rounded_and_keep_their_order(baseline, difference, half_width):
    from reports.pages.comparison_report import headline
    assume(0 <= baseline + difference <= 1)
    row = pd.Series({"variant": "v", "n_players": 2, "metric_label": "the first player's win rate", "unit": "rate",
                     "baseline_value": baseline, "variant_value": baseline + difference, "difference": difference,
                     "low": difference - half_width, "high": difference + half_width, "verdict": "real",
                     "margin": 0.01})
    sentence = headline(row, {"v": "Changing v"})
    match = re.fullmatch(r"Changing v in 2-player games moves the first player's win rate from (\S+)% to (\S+)%: "
                         r"(\S+) points \[(\S+), (\S+)\], real", sentence)
    assert match, sentence
    shown_baseline, shown_variant, shown_difference, low, high = (float(value) for value in match.groups())
    digits = len(match.group(3).partition(".")[2])
    assert abs(shown_difference - 100 * difference) <= 0.5 * 10 ** -digits + 1e-9
    assert abs(shown_baseline - 100 * baseline) <= 0.5 * 10 ** -digits + 1e-9
    assert low <= shown_difference <= high and 0 <= shown_variant <= 100


def test_the_module_command_writes_the_report_or_prints_one_error_line(tmp_path, capsys):
    from reports.pages.comparison_report import main
    assert main([str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'nowhere' / 'comparison.yaml'}: comparison file not found\n"
    directory = write_comparison(tmp_path / "compare")
    assert main([str(directory), "--out", str(tmp_path / "c.html")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'c.html'}\n" and (tmp_path / "c_files" / "comparison_table.csv").exists()
