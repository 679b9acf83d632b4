"""The rule-tuning report (reports/pages/tuning_report.py) from synthetic tuning directories of exactly
the shape ``courtsim tune`` writes (sim/studies/tune_rules.py): a Heads of State 2-player tuning
of the assassin's own cubes (1 to 4, printed 3) and the double-kill rule (printed false) against
one target, every player within a point of the fair share. Twelve candidates, five pruned; the
Pareto front is trial 0 (the printed rules), trial 5 (own cubes 2) and trial 10 (own cubes 2 with
double kills). In one directory trial 10 meets the target on fresh games, in the other nothing does."""
import re
from pathlib import Path

import pandas as pd
import polars as pl
import pytest
import yaml

from page_text import headlines, section, text_of
from reports.analysis.players import win_rate_label, win_rate_metric
from reports.pages.toolkit import CHROMIUM, view_in_chromium
from reports.pages.tuning_report import main, write_tuning_report
from sim.core.engine import ConfigError

NAME = "heads_of_state_2p_balance"
OWN_CUBES = {"name": "own_cubes", "label": "the assassin's own cubes", "path": "assassin_bag.own_cubes",
             "kind": "integer", "low": 1.0, "high": 4.0, "step": 1.0, "values": None, "printed": 3}
DOUBLE_KILL = {"name": "double_kill", "label": "the double-kill rule", "path": "rules.double_kill",
               "kind": "categorical", "low": None, "high": None, "step": None, "values": [False, True],
               "printed": False}
TARGET = {"metric": "*_player_win_rate", "players": None, "pool": None, "at_least": None, "at_most": None,
          "between": None, "fair_share_within": 0.01, "label": None, "weight": None}
TARGET_TEXT = "*_player_win_rate within 0.01 of the fair share"
# trial -> (own cubes, double kill, state, miss at the last rung played)
CANDIDATES = {0: (3, "false", "complete", 8.1), 1: (1, "true", "pruned", 14.0), 2: (4, "false", "complete", 9.5),
              3: (2, "true", "pruned", 6.0), 4: (1, "false", "pruned", 12.2), 5: (2, "false", "complete", 0.4),
              6: (4, "true", "pruned", 11.0), 7: (3, "true", "complete", 5.2), 8: (1, "true", "pruned", 13.1),
              9: (4, "false", "complete", 9.9), 10: (2, "true", "complete", 0.0), 11: (3, "false", "complete", 8.3)}
PARETO = {0, 5, 10}
# candidate -> (the first and the second player's fresh win rates with their intervals)
FRESH_MEETS = {"printed": ((0.591, 0.583, 0.599), (0.409, 0.401, 0.417)),
               f"{NAME}_1": ((0.502, 0.494, 0.510), (0.498, 0.4905, 0.5055)),
               f"{NAME}_2": ((0.513, 0.505, 0.521), (0.487, 0.479, 0.495))}
FRESH_MISSES = {"printed": ((0.591, 0.583, 0.599), (0.409, 0.401, 0.417)),
                f"{NAME}_1": ((0.522, 0.514, 0.530), (0.478, 0.470, 0.486)),
                f"{NAME}_2": ((0.530, 0.522, 0.538), (0.470, 0.462, 0.478))}
# trial 10 inside the band on fresh games but the first player's interval reaching past 51%: it may meet
FRESH_MAY_MEET = {**FRESH_MISSES, f"{NAME}_1": ((0.506, 0.498, 0.514), (0.494, 0.486, 0.502))}
FRESH_GAMES = 8000


def change_of(own_cubes: int, double_kill: str) -> float:
    return abs(own_cubes - 3) / 3 + (double_kill != "false")


def fresh_verdict(estimates) -> tuple[str, float]:
    """(status, miss in points) of the players' win rates against 1/2 ± 0.01, as reports.analysis.targets computes it."""
    misses = [max(0.0, 0.49 - value, value - 0.51) * 100 for value, _, _ in estimates]
    if max(misses) > 1e-9:
        return "misses", round(max(misses), 6)
    inside = all(0.49 - 1e-12 <= low and high <= 0.51 + 1e-12 for _, low, high in estimates)
    return ("meets" if inside else "may meet"), 0.0


def recommended_entries(directory: Path, fresh: dict) -> list[dict]:
    """tuning.yaml's recommended: the printed rules, then the Pareto trials 10 and 5 (by miss)."""
    entries = []
    for name, trial in (("printed", None), (f"{NAME}_1", 10), (f"{NAME}_2", 5)):
        cubes, switch = (3, "false") if trial is None else CANDIDATES[trial][:2]
        status, miss = fresh_verdict(fresh[name])
        entry = {"name": name, "trial": trial, "values": {"own_cubes": float(cubes), "double_kill": switch},
                 "training_miss": None if trial is None else CANDIDATES[trial][3],
                 "fresh_miss": miss, "change": change_of(cubes, switch),
                 "changed_values": int(cubes != 3) + int(switch != "false"),
                 "targets": [{"target": TARGET_TEXT, "status": status, "miss": miss}]}
        if trial is not None:
            entry["variant_file"] = str(directory / "recommended" / f"{name}.yaml")
        entries.append(entry)
    return entries


def write_tuning(directory: Path, fresh: dict) -> Path:
    """tuning.yaml, tuning.parquet and recommended.parquet as the tuner writes them."""
    directory.mkdir(parents=True, exist_ok=True)
    rows = [{"trial": trial, "own_cubes": float(cubes), "double_kill": switch, "state": state,
             "rung": 1 if state == "complete" else 0, "games_per_matchup": 4000 if state == "complete" else 1000,
             "miss": miss, "change": change_of(cubes, switch), "changed_values": int(cubes != 3) + int(switch != "false"),
             "pareto": trial in PARETO}
            for trial, (cubes, switch, state, miss) in CANDIDATES.items()]
    pl.DataFrame(rows).write_parquet(directory / "tuning.parquet")
    estimates = [{"candidate": name, "metric": win_rate_metric(position), "metric_label": win_rate_label(position),
                  "unit": "rate", "n_players": 2, "value": value, "low": low, "high": high, "games": 2 * FRESH_GAMES}
                 for name, rates in fresh.items() for position, (value, low, high) in enumerate(rates)]
    pl.DataFrame(estimates).write_parquet(directory / "recommended.parquet")
    settings = {
        "courtsim_tuning": 1, "status": "complete", "name": NAME, "description": "Even out the two players",
        "tuning_file": f"configs/tuning/{NAME}.yaml", "game": "heads-of-state",
        "experiment_file": "configs/experiments/heads_of_state_mirror.yaml", "players": [2], "bots": ["greedy"],
        "seed": 7, "space": [OWN_CUBES, DOUBLE_KILL], "targets": [{**TARGET, "text": TARGET_TEXT}],
        "schedule": {"rungs": [1000, 4000], "keep": 0.34, "trials": 12, "sampler": "nsga2",
                     "fresh_games_per_matchup": FRESH_GAMES},
        "trials": {"complete": 7, "pruned": 5}, "recommended": recommended_entries(directory, fresh),
        "created": "2026-12-05T04:00:00+00:00"}
    (directory / "tuning.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    return directory


@pytest.fixture(scope="module")
def met(tmp_path_factory) -> tuple[Path, str]:
    page = write_tuning_report(write_tuning(tmp_path_factory.mktemp("tunings") / NAME, FRESH_MEETS))
    return page, page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def missed(tmp_path_factory) -> tuple[Path, str]:
    page = write_tuning_report(write_tuning(tmp_path_factory.mktemp("tunings") / NAME, FRESH_MISSES))
    return page, page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def uncertain(tmp_path_factory) -> tuple[Path, str]:
    page = write_tuning_report(write_tuning(tmp_path_factory.mktemp("tunings") / NAME, FRESH_MAY_MEET))
    return page, page.read_text(encoding="utf-8")


def table_rows(part: str) -> list[str]:
    """The text of each body row of the (first) table in ``part``."""
    return [text_of(row) for row in re.findall(r"<tr>(<td.*?)</tr>", part, re.S)]


def test_the_report_is_written_next_to_the_tuning_with_every_figure_and_table_as_csv(met):
    page, _ = met
    assert page == page.parent / "report.html"
    files = page.parent / "report_files"
    for figure in ("tuning_miss_against_change", "tuning_miss_by_own_cubes", "tuning_miss_by_double_kill"):
        assert (files / f"{figure}.png").stat().st_size > 5_000
        assert len(pd.read_csv(files / f"{figure}.csv")) == len(CANDIDATES)
    assert len(pd.read_csv(files / "tuning_candidates.csv")) == len(CANDIDATES)
    assert len(pd.read_csv(files / "tuning_recommended_estimates.csv")) == 3 * 2
    assert list(pd.read_csv(files / "tuning_recommended_targets.csv")["status"]) == ["misses", "meets", "misses"]


def test_the_page_is_self_contained(met, missed):
    for _, page in (met, missed):
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
        assert "<script" not in page.lower() and "@import" not in page and "url(" not in page
        assert page.count("<img ") == page.count('<img src="data:image/png;base64,') == 3


def test_every_parameter_is_named_with_its_words_path_range_and_printed_value(met):
    space = text_of(section(met[1], "space"))
    assert "own_cubes the assassin's own cubes assassin_bag.own_cubes integer 1 to 4 in steps of 1 3" in space
    assert "double_kill the double-kill rule rules.double_kill categorical false, true false" in space
    assert TARGET_TEXT in space
    figures = text_of(section(met[1], "figures"))
    assert "The miss against the assassin's own cubes." in figures and "The miss against the double-kill rule." in figures


def test_the_headline_names_the_best_change_its_fresh_estimate_and_the_printed_rules_miss(met):
    assert headlines(met[1])[0] == (
        "Setting the assassin's own cubes 3 → 2 and the double-kill rule false → true meets the target on 8,000 fresh "
        "games per match-up: the first player's win rate 50.2% [49.4, 51.0] (target 49-51%); the printed rules miss by "
        "8.1 points.")


def test_the_headlines_count_the_candidates_and_check_the_winners_curse(met):
    lines = headlines(met[1])
    assert f"{NAME}_1 missed by 0 in training and by as much on fresh games." in lines
    assert lines[-1] == ("12 candidates tried: 7 played every rung (1,000 and 4,000 games per match-up), 5 were pruned "
                         "after fewer games; 3 are Pareto-optimal (no other has both a smaller miss and a smaller "
                         "change).")
    assert not any(line.startswith("No candidate") for line in lines)


def test_the_pareto_table_lists_the_front_by_miss_with_values_and_recommended_names(met):
    rows = table_rows(section(met[1], "pareto"))
    assert rows == [f"10 2 true 0 1.33 2 4,000 {NAME}_1",
                    f"5 2 false 0.40 points 0.33 1 4,000 {NAME}_2",
                    "0 3 false 8.1 points 0.00 0 4,000"]
    # a changed value is shown in bold, an unchanged one plainly
    assert '<td class="changed">true</td>' in section(met[1], "pareto")


def test_the_recommended_table_gives_each_candidates_fresh_status_estimates_and_variant_file(met):
    page, text = met
    recommended = section(text, "recommended")
    candidates_table, estimates_table = recommended.split('id="fresh-estimates"')
    rows = table_rows(candidates_table)
    assert len(rows) == 3
    assert rows[0].startswith("printed no change — 3 false — 8.1 points 0.00 misses (miss 8.1 points) the first "
                              "player's win rate 59.1% [58.3, 59.9] (target 49-51%) misses")
    assert rows[1].startswith(f"{NAME}_1 the assassin's own cubes 3 → 2 and the double-kill rule false → true 10 2 true "
                              "0 0 1.33 meets (miss 0) the first player's win rate 50.2% [49.4, 51.0] (target 49-51%) "
                              "meets")
    estimates = table_rows(estimates_table)
    assert len(estimates) == 3 * 2
    assert f"{NAME}_1 the second player's win rate 2 49.8% [49.0, 50.5] 49-51% 16,000" in estimates
    assert rows[2].startswith(f"{NAME}_2 the assassin's own cubes 3 → 2 5 2 false 0.40 points 0.30 points 0.33 misses")
    variant = page.parent / "recommended" / f"{NAME}_1.yaml"
    assert rows[1].endswith(str(variant)) and "(the printed rules)" in rows[0]
    assert (f"courtsim compare configs/experiments/heads_of_state_mirror.yaml --variants {variant}"
            in text_of(recommended))


def test_when_no_candidate_meets_the_targets_the_report_says_so_and_gives_the_smallest_miss(missed):
    lines = headlines(missed[1])
    assert lines[0] == (f"No candidate meets every target: the smallest miss on fresh games is 1.2 points, by {NAME}_1 "
                        "(the assassin's own cubes 3 → 2 and the double-kill rule false → true); the smallest in "
                        "training was 0 (trial 10). Widen the space, loosen a target or run more trials.")
    assert lines[1].startswith("Setting the assassin's own cubes 3 → 2 and the double-kill rule false → true misses by "
                               "1.2 points on 8,000 fresh games per match-up: the first player's win rate 52.2% "
                               "[51.4, 53.0]")
    assert f"{NAME}_1 missed by 0 in training and by 1.2 points on fresh games (more than in training" in lines[2]
    assert "meets" not in text_of(section(missed[1], "recommended")).split("misses: some estimate outside.")[1]


def test_the_method_explains_the_objectives_the_schedule_the_pairing_and_the_re_evaluation(met):
    method = text_of(section(met[1], "method"))
    assert "Two objectives, both minimised." in method
    assert "1,000, then 4,000 games per match-up" in method and "within the best 34%" in method
    assert "the first 3 always go on" in method
    assert "Common random numbers. At a rung every candidate plays the same seed and the same game indices" in method
    assert "winner's curse" in method and "8,000 fresh games per match-up" in method


def test_without_a_re_evaluation_table_the_report_is_still_written(tmp_path):
    directory = write_tuning(tmp_path / NAME, FRESH_MEETS)
    (directory / "recommended.parquet").unlink()
    text = write_tuning_report(directory).read_text()
    assert "the first player's win rate" not in " ".join(headlines(text))
    assert headlines(text)[0].startswith("Setting the assassin's own cubes 3 → 2 and the double-kill rule false → true "
                                         "meets the target on 8,000 fresh games per match-up; the printed rules miss")


def test_a_missing_tuning_file_or_table_is_a_one_line_error_naming_the_file(tmp_path):
    directory = write_tuning(tmp_path / NAME, FRESH_MEETS)
    (directory / "tuning.parquet").unlink()
    with pytest.raises(ConfigError, match=re.escape(str(directory / "tuning.parquet"))) as table_error:
        write_tuning_report(directory)
    (directory / "tuning.yaml").unlink()
    with pytest.raises(ConfigError, match=re.escape(str(directory / "tuning.yaml"))) as settings_error:
        write_tuning_report(directory)
    assert "\n" not in str(table_error.value) and "\n" not in str(settings_error.value)


def test_a_malformed_tuning_is_a_one_line_error_naming_the_file_and_what_is_wrong(tmp_path):
    directory = write_tuning(tmp_path / NAME, FRESH_MEETS)
    pl.read_parquet(directory / "tuning.parquet").drop("own_cubes").write_parquet(directory / "tuning.parquet")
    with pytest.raises(ConfigError, match=r"tuning\.parquet: column 'own_cubes' required but missing$"):
        write_tuning_report(directory)
    (directory / "recommended.parquet").write_text("not parquet")
    write_tuning(directory, FRESH_MEETS)
    (directory / "recommended.parquet").write_text("not parquet")
    with pytest.raises(ConfigError, match=r"recommended\.parquet: not a readable Parquet table"):
        write_tuning_report(directory)
    settings = yaml.safe_load((directory / "tuning.yaml").read_text())
    (directory / "tuning.yaml").write_text(yaml.safe_dump({**settings, "courtsim_tuning": 2}))
    with pytest.raises(ConfigError, match=r"tuning\.yaml: key 'courtsim_tuning': expected 1"):
        write_tuning_report(directory)


def test_the_module_command_writes_the_report_or_prints_one_error_line(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'nowhere' / 'tuning.yaml'}: tuning file not found\n"
    directory = write_tuning(tmp_path / NAME, FRESH_MEETS)
    assert main([str(directory), "--out", str(tmp_path / "t.html")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 't.html'}\n"
    assert (tmp_path / "t_files" / "tuning_candidates.csv").exists()


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_the_tuning_report_renders_in_chromium(met, tmp_path):
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    seen = view_in_chromium(met[0], tmp_path / "tuning.png")
    assert seen["errors"] == [] and seen["failed"] == []
    assert seen["title"] == "Heads of State rule tuning"
    assert len(seen["image_widths"]) == 3 and all(width > 0 for width in seen["image_widths"])
    assert seen["headlines"][0].startswith("Setting the assassin's own cubes 3 → 2")
    assert (tmp_path / "tuning.png").stat().st_size > 10_000


def test_when_the_best_candidate_may_meet_the_targets_the_report_asks_for_more_games_not_other_rules(uncertain):
    lines = headlines(uncertain[1])
    assert lines[0] == (f"No candidate surely meets every target: {NAME}_1 (the assassin's own cubes 3 → 2 and the "
                        "double-kill rule false → true) may meet every target on fresh games (every estimate inside "
                        "its band, some interval reaching past it). Play more fresh games (--fresh-games-per-matchup) "
                        "to decide, or tighten the search with more trials.")
    assert not any("Widen the space" in line for line in lines)
    assert lines[1].startswith("Setting the assassin's own cubes 3 → 2 and the double-kill rule false → true may meet")
