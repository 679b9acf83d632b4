"""Skill ladder (issue 13): the win-rate matrix between levels, the skill gap of each step and
whether the report's findings hold at every level, on synthetic seat tables whose truth is known;
the experiment keys that declare a ladder; and the section in the HTML report and the summary of
a tiny real ladder run."""
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml

from reports.analysis import skill_ladder
from reports.pages.run_report import build_report
from reports.pages.sections_skill_ladder import SECTION_ANCHOR
from reports.analysis.summary import summarise
from sim.core.engine import ConfigError
from sim.core.experiments import load_experiment, matchups_for, prepare_experiment

from courtsim_runs import courtsim

LEVELS = ["random", "greedy", "tuned", "search"]
STRONGER_WINS = 0.7


def ladder(levels=LEVELS, players=(2,)) -> skill_ladder.Ladder:
    return skill_ladder.Ladder({n: [(level, (level,)) for level in levels] for n in players})


def synthetic_seats(seed: int, n_players: int = 2, mixed_games: int = 300, mirror_games: int = 300,
                    first_seat_wins: dict | None = None, levels=LEVELS) -> pl.LazyFrame:
    """Seat rows of games between levels (the bots are named after their levels).

    Mixed games (2 players only): every two levels meet ``mixed_games`` times, each in both
    seats equally often, and the higher level's seat wins with probability STRONGER_WINS. Mirror games: seat 0 wins with probability
    ``first_seat_wins[level]`` (default: the fair share), else a uniformly drawn other seat."""
    rng = np.random.default_rng(seed)
    first_seat_wins = first_seat_wins or {}
    rows, game = [], 0
    if n_players == 2:
        for low in range(len(levels)):
            for high in range(low + 1, len(levels)):
                for number in range(mixed_games):
                    order = (low, high) if number % 2 == 0 else (high, low)
                    winner_rank = high if rng.random() < STRONGER_WINS else low
                    for position, rank in enumerate(order):
                        rows.append((game, n_players, position, levels[rank], int(rank == winner_rank)))
                    game += 1
    for level in levels:
        edge = first_seat_wins.get(level, 1 / n_players)
        for _ in range(mirror_games):
            winner = 0 if rng.random() < edge else int(rng.integers(1, n_players))
            for position in range(n_players):
                rows.append((game, n_players, position, level, int(position == winner)))
            game += 1
    frame = pl.DataFrame(rows, schema={"game_index": pl.Int64, "n_players": pl.Int32, "position": pl.Int64,
                                       "bot": pl.String, "win": pl.Int8}, orient="row")
    return frame.with_columns(pl.col("position").alias("seat"), pl.col("win").cast(pl.Int64).alias("score"),
                              pl.col("win").cast(pl.Float64).alias("credit")).lazy()


def test_the_matrix_shows_how_often_each_level_finishes_ahead_of_each_other():
    result = skill_ladder.analyse(synthetic_seats(1, mixed_games=2000), ladder())
    matrix = result.matrix.set_index(["level", "opponent"])
    assert len(matrix) == 12                                    # every ordered pair of distinct levels
    for (level, opponent), row in matrix.iterrows():
        truth = STRONGER_WINS if LEVELS.index(level) > LEVELS.index(opponent) else 1 - STRONGER_WINS
        assert row.games == 2000
        assert row.ahead_rate_low < truth < row.ahead_rate_high
        assert matrix.loc[(opponent, level), "ahead_rate"] == pytest.approx(1 - row.ahead_rate)


def test_the_matrix_intervals_cover_the_truth_about_95_percent_of_the_time():
    repetitions = 200     # each seeded repetition under its own player-count label, so one call does all
    frames = [synthetic_seats(seed, mixed_games=150, mirror_games=0, levels=LEVELS[:2]).collect()
              .with_columns(pl.lit(seed, pl.Int32).alias("n_players"), pl.col("game_index") + seed * 1_000)
              for seed in range(repetitions)]
    labelled = skill_ladder.with_levels(pl.concat(frames).lazy(), ladder(LEVELS[:2], range(repetitions)))
    matrix = skill_ladder.level_matrix(labelled)
    cells = matrix[matrix["level"] == "greedy"]
    assert len(cells) == repetitions and (cells["games"] == 150).all()
    covered = (cells["ahead_rate_low"] <= STRONGER_WINS) & (STRONGER_WINS <= cells["ahead_rate_high"])
    assert 0.9 <= covered.mean() <= 0.99


def test_a_game_counts_once_however_many_seats_of_each_level_sit_in_it():
    # 4 players: two greedy seats against two random; greedy seats take places 1 and 3
    rows = [(0, 4, position, bot, score, int(score == 4)) for position, (bot, score) in
            enumerate([("greedy", 4), ("random", 3), ("greedy", 2), ("random", 1)])]
    frame = pl.DataFrame(rows, schema={"game_index": pl.Int64, "n_players": pl.Int32, "position": pl.Int64,
                                       "bot": pl.String, "score": pl.Int64, "win": pl.Int8}, orient="row")
    seats = frame.with_columns(pl.col("position").alias("seat"), pl.col("win").cast(pl.Float64).alias("credit")).lazy()
    matrix = skill_ladder.level_matrix(skill_ladder.with_levels(seats, ladder(["random", "greedy"], (4,))))
    cell = matrix[matrix["level"] == "greedy"].iloc[0]
    assert cell.games == 1 and cell.wins == pytest.approx(3 / 4)      # 3 of the 4 greedy-random pairs


def test_each_step_of_the_ladder_is_significant_when_the_stronger_level_wins_70_percent():
    result = skill_ladder.analyse(synthetic_seats(2, mixed_games=400), ladder())
    steps = result.gaps[result.gaps["n_players"] == "all"]
    assert list(zip(steps["weaker"], steps["stronger"])) == [("random", "greedy"), ("greedy", "tuned"),
                                                              ("tuned", "search")]
    assert (steps["verdict"] == "stronger").all()
    assert all("significantly stronger" in sentence for sentence in result.gap_sentences)


def test_a_step_without_a_real_gap_is_called_not_significant():
    seats = synthetic_seats(3, mixed_games=400).collect()
    # greedy and tuned become equal: in their games the winner is a fair coin
    rng = np.random.default_rng(0)
    pair = seats.filter(pl.col("game_index").is_in(
        seats.group_by("game_index").agg(pl.col("bot").sort().str.join(",").alias("bots"))
        .filter(pl.col("bots") == "greedy,tuned")["game_index"].implode()))
    coin = {game: int(rng.integers(0, 2)) for game in pair["game_index"].unique()}
    flip = pl.DataFrame({"game_index": list(coin), "winner": list(coin.values())})
    seats = (seats.join(flip, on="game_index", how="left")
             .with_columns(pl.when(pl.col("winner").is_not_null())
                           .then((pl.col("position") == pl.col("winner")).cast(pl.Int8)).otherwise(pl.col("win"))
                           .alias("win")).drop("winner")
             .with_columns(pl.col("win").cast(pl.Int64).alias("score"), pl.col("win").cast(pl.Float64).alias("credit")))
    result = skill_ladder.analyse(seats.lazy(), ladder())
    step = result.gaps[(result.gaps["stronger"] == "tuned") & (result.gaps["n_players"] == "all")].iloc[0]
    assert step.verdict == "not significant"
    assert any(sentence.startswith("Step greedy → tuned") and "not significant" in sentence
               for sentence in result.gap_sentences)


def test_the_seat_advantage_holds_at_every_level_when_every_mirror_shows_it():
    edge = {level: 0.5 for level in LEVELS}      # 3 players: the first player wins half the games (fair 33%)
    result = skill_ladder.analyse(synthetic_seats(4, 3, mirror_games=600, first_seat_wins=edge), ladder(players=(3,)))
    sentence = result.finding_sentences[0]
    assert sentence.startswith("The first player's advantage at 3 players")
    assert "holds at every skill level (random, greedy, tuned and search play)" in sentence


def test_the_holds_sentence_flips_when_one_levels_seat_advantage_is_removed():
    edge = {"greedy": 0.5, "tuned": 0.5, "search": 0.5}       # random's mirror games: no seat advantage
    result = skill_ladder.analyse(synthetic_seats(4, 3, mirror_games=600, first_seat_wins=edge), ladder(players=(3,)))
    sentence = result.finding_sentences[0]
    assert sentence.startswith("The first player's advantage at 3 players")
    assert "holds for greedy, tuned and search play, not for random (not significant" in sentence


def test_no_seat_advantage_is_a_finding_too():
    # random's first seat loses what search's wins: over all games the seats are even
    edge = {"random": 0.2, "search": 0.5}
    result = skill_ladder.analyse(synthetic_seats(5, 3, mirror_games=600, first_seat_wins=edge), ladder(players=(3,)))
    sentence = result.finding_sentences[0]
    assert sentence.startswith("No significant seat advantage at 3 players")
    assert "holds for greedy and tuned play, not for random (the " in sentence
    assert "search (the first player wins" in sentence
    assert "seat 0" not in sentence.lower() and "seat 1" not in sentence.lower()


def test_the_ratings_are_checked_against_the_declared_order_of_the_levels():
    right = skill_ladder.analyse(synthetic_seats(6, mixed_games=400), ladder())
    assert any("order the levels as declared" in sentence for sentence in right.finding_sentences)
    wrong = skill_ladder.analyse(synthetic_seats(6, mixed_games=400), ladder(["random", "tuned", "greedy", "search"]))
    assert any("do NOT order the levels as declared" in sentence and "tuned is rated above greedy" in sentence
               for sentence in wrong.finding_sentences)


# ----------------------------------------------------------------------------- the experiment keys

def write_experiment(tmp_path: Path, **fields) -> Path:
    text = {"name": "ladder", "game": "louis-xiv", "players": [2, 3],
            "bots": ["random", "greedy", "crown_hunter"], "matchups": "pairs", "games_per_matchup": 12,
            "skill_levels": ["random", "greedy", {"archetype": "crown_hunter"}]} | fields
    path = tmp_path / "ladder.yaml"
    path.write_text(yaml.safe_dump(text, sort_keys=False))
    return path


def stand_in_bots(directory: Path, players=(2, 3)) -> str:
    """Stand-in tuned bots ``tuned_<n>p`` (greedy with one changed parameter) in a temporary
    folder; returns the pool entry naming them with the {players} placeholder."""
    for n_players in players:
        (directory / f"tuned_{n_players}p.yaml").write_text(yaml.safe_dump({
            "name": f"tuned_{n_players}p", "game": "louis-xiv", "family": "greedy",
            "description": "stand-in", "parameters": {"value_needed_token": 3.0 + n_players / 10}}))
    return str(directory / "tuned_{players}p.yaml")


def test_pairs_are_every_mirror_and_every_two_bot_split(tmp_path):
    path = write_experiment(tmp_path)
    experiment = load_experiment(path)
    assert matchups_for(experiment, 2, path) == [("random", "random"), ("random", "greedy"), ("random", "crown_hunter"),
                                                 ("greedy", "greedy"), ("greedy", "crown_hunter"),
                                                 ("crown_hunter", "crown_hunter")]
    assert len(matchups_for(experiment, 4, path)) == 3 + 3 * 3         # 3 mirrors, 3 pairs in 3 splits


def test_the_players_placeholder_plays_a_bot_per_player_count(tmp_path):
    tuned = stand_in_bots(tmp_path)
    path = write_experiment(tmp_path, bots=["random", "greedy", tuned],
                            skill_levels=["random", "greedy", {"tuned": tuned}])
    experiment, engine, setup, cells, config = prepare_experiment(path)
    for cell in cells:
        names = {bot.name for bot in cell.bots}
        assert names <= {"random", "greedy", f"tuned_{cell.n_players}p"}
    assert config["skill_ladder"] == [
        {"players": n, "levels": [{"level": "random", "bots": ["random"]}, {"level": "greedy", "bots": ["greedy"]},
                                  {"level": "tuned", "bots": [f"tuned_{n}p"]}]} for n in (2, 3)]


def test_a_slow_bots_match_ups_play_fewer_games(tmp_path):
    path = write_experiment(tmp_path, games_per_matchup=40, games_per_matchup_with={"crown_hunter": 4})
    _, _, _, cells, _ = prepare_experiment(path)
    for cell in cells:                      # rotation: a match-up's games split over its n seatings
        games = 4 if "crown_hunter" in {bot.name for bot in cell.bots} else 40
        assert cell.n_games == -(-games // cell.n_players)


def test_an_experiment_without_ladder_keys_keeps_its_identity(tmp_path):
    path = write_experiment(tmp_path, matchups="with_repeats")
    data = yaml.safe_load(path.read_text())
    del data["skill_levels"]
    path.write_text(yaml.safe_dump(data))
    *_, config = prepare_experiment(path)
    assert "skill_levels" not in config["experiment"] and "games_per_matchup_with" not in config["experiment"]
    assert "skill_ladder" not in config


@pytest.mark.parametrize("fields, expected", [
    ({"skill_levels": ["random", "greedy", "nobody"]},
     "key 'skill_levels.2': expected bots of the pool (random, greedy, crown_hunter) at 2 players, found 'nobody'"),
    ({"skill_levels": ["random", {"random": "greedy"}]}, "key 'skill_levels.1': expected each level once"),
    ({"skill_levels": ["random", {"weak": "random"}]}, "key 'skill_levels.1': bot 'random' is already in level"),
    ({"skill_levels": ["random", {"a": "greedy", "b": "crown_hunter"}]}, "key 'skill_levels.1': expected a bot name or one"),
    ({"skill_levels": ["random", "tuned_{players}p"]}, "key 'skill_levels.1': expected a level name"),
    ({"skill_levels": ["random"]}, "key 'skill_levels'"),
    ({"matchups": "combinations", "players": [2]}, "key 'skill_levels': level 'random' has no mirror match-up"),
    ({"bots": ["random", "greedy", "tuned_{n}p"]}, "key 'bots.2': expected a bot name whose only placeholder is {players}"),
    ({"bots": ["random", "greedy", "trained_{players}p"], "skill_levels": ["random", "greedy"]},
     "key 'bots' (trained_{players}p at 2 players): unknown louis-xiv bot 'trained_2p'"),
    ({"games_per_matchup_with": {"search": 5}}, "key 'games_per_matchup_with.search': expected a bot of the pool"),
    ({"games_per_matchup_with": {"greedy": 0}}, "key 'games_per_matchup_with.greedy'"),
])
def test_invalid_ladders_are_one_line_naming_the_file_and_key(tmp_path, fields, expected):
    path = write_experiment(tmp_path, **fields)
    with pytest.raises(ConfigError) as error:
        prepare_experiment(path)
    assert expected in str(error.value) and str(path) in str(error.value) and "\n" not in str(error.value)


# ----------------------------------------------------------------------------- a tiny real ladder run

@pytest.fixture(scope="module")
def ladder_run(tmp_path_factory) -> Path:
    """random, greedy and stand-in tuned bots at 2 and 3 players, every mirror and pair."""
    directory = tmp_path_factory.mktemp("ladder")
    tuned = stand_in_bots(directory)
    experiment = {"name": "ladder_test", "game": "louis-xiv", "players": [2, 3],
                  "bots": ["random", "greedy", tuned], "matchups": "pairs", "seating": "rotation",
                  "games_per_matchup": 90, "skill_levels": ["random", "greedy", {"tuned": tuned}],
                  "seed": 9, "jobs": 1, "chunk_size": 500, "out": str(directory / "run")}
    path = directory / "ladder.yaml"
    path.write_text(yaml.safe_dump(experiment))
    courtsim("run", str(path))
    return directory / "run"


def test_a_real_ladder_run_has_the_section_in_its_report(ladder_run, tmp_path):
    output = build_report(ladder_run, tmp_path / "ladder.html", progress=False)
    html = output.read_text()
    assert f'<section id="{SECTION_ANCHOR}">' in html and "<h2>Skill ladder</h2>" in html
    for name in ("skill_ladder_matrix", "skill_ladder_gaps", "skill_ladder_seat_advantage"):
        assert f'id="fig-{name}"' in html
        assert (tmp_path / "ladder_files" / f"{name}.png").stat().st_size > 1000
    assert "Step random → greedy" in html and "Step greedy → tuned" in html
    assert "advantage at 2 players" in html and "advantage at 3 players" in html
    matrix = pl.read_csv(tmp_path / "ladder_files" / "skill_ladder_matrix.csv")
    assert set(matrix["level"]) == {"random", "greedy", "tuned"} and set(matrix["n_players"]) == {2, 3}


def test_a_real_ladder_runs_summary_prints_the_ladder(ladder_run):
    summary = summarise(ladder_run)
    assert summary.ladder.level_names == ["random", "greedy", "tuned"]
    lines = skill_ladder.summary_lines(summary.ladder_result)
    assert any(line.startswith("Step random → greedy") for line in lines)


def test_a_run_that_is_no_ladder_has_no_ladder_section(experiment_run, tmp_path):
    html = build_report(experiment_run, tmp_path / "plain.html", progress=False).read_text()
    assert "Skill ladder" not in html
    assert summarise(experiment_run).ladder_result is None


def test_the_ladder_section_renders_in_chromium(ladder_run, tmp_path):
    """As tests/pages/test_browser.py: the page in headless Chromium, the section's figures load."""
    from reports.pages.toolkit import CHROMIUM, CHROMIUM_ARGS as ARGS

    sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    output = build_report(ladder_run, tmp_path / "ladder.html", progress=False)
    errors = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1250, "height": 900})
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(output.as_uri())
            page.wait_for_load_state("load")
            section = page.locator(f"#{SECTION_ANCHOR}")
            assert section.locator("h2").inner_text() == "Skill ladder"
            assert section.locator("p").count() >= 4
            widths = section.evaluate("s => Array.from(s.querySelectorAll('img')).map(image => image.naturalWidth)")
            assert len(widths) == 3 and all(width > 0 for width in widths), widths
            assert page.locator("nav a[href='#skill-ladder']").count() == 1
            section.screenshot(path=str(tmp_path / "ladder_section.png"))
        finally:
            browser.close()
    assert errors == []
    assert (tmp_path / "ladder_section.png").stat().st_size > 10_000


def test_a_level_of_several_bots_names_its_strongest_in_its_own_mirror_games():
    rng = np.random.default_rng(7)
    rows = []
    for game in range(400):      # 2 players: crown_hunter against coat_hoarder, crown_hunter wins 70%
        order = ("crown_hunter", "coat_hoarder") if game % 2 else ("coat_hoarder", "crown_hunter")
        winner = order.index("crown_hunter") if rng.random() < 0.7 else order.index("coat_hoarder")
        rows += [(game, 2, position, bot, int(position == winner)) for position, bot in enumerate(order)]
    frame = pl.DataFrame(rows, schema={"game_index": pl.Int64, "n_players": pl.Int32, "position": pl.Int64,
                                       "bot": pl.String, "win": pl.Int8}, orient="row")
    seats = frame.with_columns(pl.col("position").alias("seat"), pl.col("win").cast(pl.Int64).alias("score"),
                               pl.col("win").cast(pl.Float64).alias("credit")).lazy()
    levels = skill_ladder.Ladder({2: [("random", ("random",)), ("archetypes", ("crown_hunter", "coat_hoarder"))]})
    sentences = skill_ladder.analyse(seats, levels).finding_sentences
    assert any(sentence.startswith("In the mirror games of level archetypes the strongest bot is crown_hunter")
               for sentence in sentences)
