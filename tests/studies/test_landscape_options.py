"""The option inventory for restricted play (issue 41, "Option values"; Jaffe et al., AIIDE 2012):
configs/landscape/<game>.yaml read by sim/studies/landscape_options.py.

For every option of each game: the restricted bot (the player count's tuned bot with the option's
overlay) never takes it in a few hundred games, while the unrestricted tuned bots at the same
table take it at some player count -- or it is one of the options the tuned bots never take (a
designer's finding, pinned in TUNED_BOTS_NEVER_TAKE). Counted as the greedy reach tests count
(tests/*/test_greedy_reach.py): from the seats-table columns the inventory names (every option's
use is counted there now; the replay-log count stays for the file's proposed columns). Every
Louis XIV seat holds the option's mission ability from the start (the ability counts as one
played card), so that the decision comes up in every game. Heads of State's courtesan payment and
refill are also checked at the decision over random positions. Then: a bad inventory file is one
line naming the file and the key, and take rates are read from a run directory.
"""
import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
import yaml

from sim.core import results
from sim.core.engine import ConfigError
from sim.heads_of_state.decisions import D_PAY, D_REFILL
from sim.heads_of_state.engine import ENGINE as HEADS_ENGINE
from sim.heads_of_state.nobles import list_payments
from sim.heads_of_state.state import COURTESAN, N_CHAR_TYPES, N_RANKS, S_N_PLAYERS, clear_state
from sim.heads_of_state.state import new_state as new_heads_state
from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv import tables as R
from sim.louis_xiv.decisions import new_move_buffer, new_option_buffer
from sim.louis_xiv.engine import ENGINE as LOUIS_ENGINE
from sim.louis_xiv.engine import bot_arrays, result_matrix
from sim.louis_xiv.kernel import play_rounds
from sim.louis_xiv.scoring import end_of_game
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import STAT_FIELDS, TRACE_LENGTH
from sim.louis_xiv.state import new_state as new_louis_state
from sim.studies import landscape_options as L
from strategies.bots import resolve_bots
from strategies.heads_of_state.decide import choose

LOUIS, HEADS = "louis-xiv", "heads-of-state"
PLAYER_COUNTS = {LOUIS: (2, 3, 4), HEADS: (2, 3, 4, 5)}
GAMES = 300
# Options no tuned bot takes even where the decision comes up in every game: a designer's
# finding (issue 41's "dead" abilities), pinned so that a retuned bot that starts using one is
# noticed. LB-SKIP and B-CARDSWAP: every tuned bot's skip_score - 2 x value_gold and
# card_swap_score are below 0, and a retrieval (always listed) scores at least 0, so the greedy
# never takes either, whatever the position. A vacated box left empty: every tuned bot refills
# whenever it can (refill_max_cards 8, the default).
TUNED_BOTS_NEVER_TAKE = {LOUIS: {"lb_skip", "b_cardswap"}, HEADS: {"box_left_empty"}}


@pytest.fixture(scope="module")
def inventories():
    return {game: L.load_options(game) for game in (LOUIS, HEADS)}


def option_ids(game, counted=None):
    """The ids of the game's options (read without loading the game's engine: test collection);
    only those whose uses a table counts (counted True) or does not (False)."""
    options = yaml.safe_load(L.options_path(game).read_text(encoding="utf-8"))["options"]
    return [option["id"] for option in options if counted is None or ("seats" in option["taken"]) == counted]


def tuned_bot(game, n_players):
    return resolve_bots(game, [L.tuned_bot_name(n_players)])[0]


# ----------------------------------------------------------------------------- Louis XIV games

@pytest.fixture(scope="module")
def louis_setup():
    return LOUIS_ENGINE.load_setup()


def play_louis_games(setup, bots, abilities, trace, n_games=GAMES, seed=41):
    """Every seat's mission-ability uses and statistics (the seats table's ``uses_*`` and stats
    columns, from the same arrays) of ``n_games`` games of ``bots``, each seat holding the mission
    abilities ``abilities`` from the start; with ``trace``, also the games' replay-log rows."""
    data, rules = setup.data, setup.rules
    n_players = len(bots)
    families, params = bot_arrays(bots)
    state = new_louis_state(data, 20_000 if trace else 1)
    moves, options = new_move_buffer(), new_option_buffer()
    courtier_rows = result_matrix(int(data.numbers[0]) * C.N_COURTIERS, R.COURTIER_COLUMNS)
    scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
    uses_columns = R.SEAT_COLUMNS[R.S_ABILITY_USES:R.S_ABILITY_USES + C.N_ABILITIES]
    held = [C.ABILITY_NAMES.index(name) for name in abilities]
    rows, logs = [], []
    for game in range(n_games):
        setup_game(state, data, rules, n_players, seed, game, 1 if trace else 0)
        state.ability_count[:n_players, held] += 1
        play_rounds(state, data, rules, families, params, moves, options, courtier_rows, 0)
        end_of_game(state, data, rules, scores)
        for seat in range(n_players):
            rows.append({"game_index": game, "seat": seat, **dict(zip(uses_columns, state.ability_uses[seat].tolist())),
                         **dict(zip(STAT_FIELDS, state.stats[seat].tolist()))})
        if trace:
            logs.append(state.trace[:state.game[TRACE_LENGTH]].copy())
    return pl.DataFrame(rows), (np.concatenate(logs) if trace else None)


INCOME_CHOICES = {"income_two_gold": 0, "income_gold_and_marker": 1, "income_two_markers": 2}   # decisions.INCOME_*


def louis_replay_takes(option_id, log, seat):
    """Takes of an option whose use no table holds, from the replay log (sim/louis_xiv/events.py:
    rows code, a = seat, b, c, ...)."""
    mine = log[log[:, 1] == seat]
    if option_id == "db_markers3":      # ABILITY_USED (seat, ability, markers moved)
        return int(((mine[:, 0] == E.ABILITY_USED) & (mine[:, 2] == C.DB_MARKERS3) & (mine[:, 3] > 0)).sum())
    if option_id == "maintenon_markers":   # MAINTENON (seat, courtier, markers placed, from own)
        return int(((mine[:, 0] == E.MAINTENON) & (mine[:, 3] > 0)).sum())
    if option_id in INCOME_CHOICES:        # ABILITY_USED (seat, B-INCOME, the choice)
        return int(((mine[:, 0] == E.ABILITY_USED) & (mine[:, 2] == C.B_INCOME)
                    & (mine[:, 3] == INCOME_CHOICES[option_id])).sum())
    raise AssertionError(f"no replay count for {option_id}: count it from the tables")


def louis_takes(option, frame, log, seat):
    if option.counted:
        return int(frame.filter(pl.col("seat") == seat).select(pl.sum_horizontal(*option.take_columns)).sum().item())
    return louis_replay_takes(option.id, log, seat)


@pytest.mark.parametrize("option_id", option_ids(LOUIS))
def test_the_restricted_louis_xiv_bot_never_takes_the_option_the_tuned_bots_at_its_table_do(
        louis_setup, inventories, option_id):
    """Seat 0 the restricted tuned bot, the other seats the unrestricted one, at every player
    count; every seat holds the option's mission ability (the option's name when it is one)."""
    inventory = inventories[LOUIS]
    option = inventory.option(option_id)
    abilities = ((option.name,) if option.name in C.ABILITY_NAMES else ("B-INCOME",) if option_id in INCOME_CHOICES
                 else ())
    restricted, unrestricted = 0, 0
    for n_players in PLAYER_COUNTS[LOUIS]:
        bots = [L.restricted_bot(inventory, option, n_players)] + [tuned_bot(LOUIS, n_players)] * (n_players - 1)
        frame, log = play_louis_games(louis_setup, bots, abilities, trace=not option.counted)
        restricted += louis_takes(option, frame, log, 0)
        unrestricted += sum(louis_takes(option, frame, log, seat) for seat in range(1, n_players))
    assert restricted == 0
    if option_id in TUNED_BOTS_NEVER_TAKE[LOUIS]:
        assert unrestricted == 0, f"a tuned bot now takes {option.name}: update TUNED_BOTS_NEVER_TAKE and the finding"
    else:
        assert unrestricted > 0


# ----------------------------------------------------------------------------- Heads of State games

@pytest.fixture(scope="module")
def heads_setup():
    return HEADS_ENGINE.load_setup()


@pytest.mark.parametrize("option_id", option_ids(HEADS, counted=True))
def test_the_restricted_heads_of_state_bot_never_takes_the_option_the_tuned_bots_at_its_table_do(
        heads_setup, inventories, option_id):
    inventory = inventories[HEADS]
    option = inventory.option(option_id)
    restricted, unrestricted = 0, 0
    for n_players in PLAYER_COUNTS[HEADS]:
        bots = [L.restricted_bot(inventory, option, n_players)] + [tuned_bot(HEADS, n_players)] * (n_players - 1)
        seats = HEADS_ENGINE.play_chunk(heads_setup, n_players, bots, 43, 0, GAMES)["seats"]
        takes = sum(np.asarray(seats[column]) for column in option.take_columns)
        restricted += int(takes[np.asarray(seats["seat"]) == 0].sum())
        unrestricted += int(takes[np.asarray(seats["seat"]) != 0].sum())
    assert restricted == 0
    if option_id in TUNED_BOTS_NEVER_TAKE[HEADS]:
        assert unrestricted == 0, f"a tuned bot now takes {option.name}: update TUNED_BOTS_NEVER_TAKE and the finding"
    else:
        assert unrestricted > 0


def heads_position(setup, bot, n_players=3):
    """A blank board (nothing raised, empty hands) whose seats all play ``bot``."""
    context = HEADS_ENGINE.make_ctx(setup, n_players, [bot] * n_players, n_games=1, betrayal_capacity=64)
    state = new_heads_state(setup.data)
    clear_state(state)
    state.scal[S_N_PLAYERS] = n_players
    state.cards_left[:] = setup.data.noble_cards_per_rank
    for player in range(n_players):
        state.tiles[player, :] = setup.data.tiles_per_rank
    return state, context


def courtesans_for_held_attributes(setup, bot, positions=2000, seed=5):
    """§4.3 step 1: over random hands holding a courtesan and random ranks, how often the bot pays
    with a courtesan in place of an attribute card it holds (the rules list the payments:
    nobles.list_payments)."""
    state, context = heads_position(setup, bot)
    generator = np.random.default_rng(seed)
    held_paid = 0
    for _ in range(positions):
        state.hand[0] = generator.integers(0, 3, N_CHAR_TYPES)
        state.hand[0, COURTESAN] = generator.integers(1, 5)
        n = list_payments(state, setup.data, context, 0, int(generator.integers(0, N_RANKS)))
        if n == 0:
            continue
        replaced = int(context.moves[choose(state, setup.data, context, 0, D_PAY, n), 0])
        held_paid += 1 if replaced >= 0 and state.hand[0, replaced] > 0 else 0
    return held_paid


def test_the_restricted_bot_pays_a_courtesan_only_for_a_missing_attribute(heads_setup, inventories):
    """Checked at the payment decision too, over random hands (seats.courtesans_for_held_attributes
    counts it in play). The tuned bots of 2 and 4 players (courtesan_spend_from 1 and 3) do pay
    for attributes held."""
    inventory = inventories[HEADS]
    unrestricted = 0
    for n_players in PLAYER_COUNTS[HEADS]:
        restricted = L.restricted_bot(inventory, "courtesan_for_held_attribute", n_players)
        assert courtesans_for_held_attributes(heads_setup, restricted) == 0
        unrestricted += courtesans_for_held_attributes(heads_setup, tuned_bot(HEADS, n_players))
    assert unrestricted > 0


def test_the_restricted_bot_refills_every_vacated_box_it_can(heads_setup, inventories):
    """§4.4 step 3 (Q8, refills right after each kill): the refills the rules list (the ranks the
    player can pay, and leaving the box empty) over random lists; leaving it empty is chosen only
    when no refill is listed (seats.boxes_left_empty_by_choice counts it in play). Every tuned
    bot already refills whenever it can: the overlay changes none of them."""
    inventory = inventories[HEADS]
    generator = np.random.default_rng(7)
    for n_players in PLAYER_COUNTS[HEADS]:
        restricted = L.restricted_bot(inventory, "box_left_empty", n_players)
        np.testing.assert_array_equal(restricted.params, tuned_bot(HEADS, n_players).params)
        state, context = heads_position(heads_setup, restricted)
        for _ in range(500):
            ranks = generator.permutation(N_RANKS)[:generator.integers(0, 3)]
            n = len(ranks)
            context.moves[:n, 0] = ranks
            context.moves[n, 0] = -1
            chosen = int(context.moves[choose(state, heads_setup.data, context, 0, D_REFILL, n + 1), 0])
            assert (chosen == -1) == (n == 0)
    assert "box_left_empty" in TUNED_BOTS_NEVER_TAKE[HEADS]


# ----------------------------------------------------------------------------- the restricted bot

@pytest.mark.parametrize("game", [LOUIS, HEADS])
def test_a_restricted_bot_is_its_tuned_bot_with_only_the_overlay_changed(inventories, game, tmp_path):
    """And its bot file (restricted_bot_file) resolves to the same bot."""
    inventory = inventories[game]
    for n_players in PLAYER_COUNTS[game]:
        tuned = tuned_bot(game, n_players).parameters()
        for option in inventory.options:
            bot = L.restricted_bot(inventory, option, n_players)
            assert bot.name == f"tuned_{n_players}p_without_{option.id}"
            assert bot.parameters() == {**tuned, **option.switch_off}
            path = tmp_path / f"{bot.name}.yaml"
            path.write_text(yaml.safe_dump(L.restricted_bot_file(inventory, option, n_players)), encoding="utf-8")
            assert resolve_bots(game, [str(path)])[0].same_bot(bot)


def test_a_player_count_without_a_tuned_bot_and_an_unknown_option_are_one_line_each(inventories):
    inventory = inventories[LOUIS]
    with pytest.raises(ConfigError, match=r"no tuned louis-xiv bot for 5 players \(expected .*tuned_5p.yaml\)$"):
        L.restricted_bot(inventory, "lb_skip", 5)
    with pytest.raises(ConfigError, match=r": no option 'lb_skipp'; expected one of lb_skip, b_cardswap"):
        L.restricted_bot(inventory, "lb_skipp", 2)
    with pytest.raises(ConfigError, match=r": 'retrieving markers' has no switch \(it is under without_switch\)"):
        inventory.option("retrieving markers")


# ----------------------------------------------------------------------------- a bad file

def written_inventory(tmp_path, edit):
    """The shipped Louis XIV inventory with ``edit`` applied to its mapping, as a file."""
    raw = yaml.safe_load(L.options_path(LOUIS).read_text(encoding="utf-8"))
    edit(raw)
    path = tmp_path / "landscape.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return path


def first_option(key, value):
    def edit(raw):
        raw["options"][0][key] = value
    return edit


@pytest.mark.parametrize("edit, message", [
    (first_option("switch_off", {"skip_scor": -20}),
     "key 'options.0.switch_off': unknown parameter 'skip_scor': expected one of value_crown, "),
    (first_option("switch_off", {"skip_score": -25}),
     "key 'options.0.switch_off.skip_score': expected a value in -20..20, found -25"),
    (first_option("switch_off", {"skip_score": "never"}),
     "key 'options.0.switch_off.skip_score': expected a number in -20..20, found 'never'"),
    (first_option("switch_off", {"lb_marker_below": 0.5}),
     "key 'options.0.switch_off.lb_marker_below': expected a whole number in 0..16, found 0.5"),
    (first_option("taken", {"seats": ["uses_lb_skipp"]}),
     "key 'options.0.taken.seats.0': expected a column of the louis-xiv seats table (courtsim tables louis-xiv "
     "--table seats), found 'uses_lb_skipp'"),
    (first_option("taken", {"seats": ["uses_lb_skip"], "proposed": {"table": "seats", "column": "x", "meaning": "y"}}),
     "key 'options.0.taken': expected either seats: [columns] or proposed: {table, column, meaning}"),
    (first_option("taken", {"proposed": {"table": "seats", "column": "uses_lb_skip", "meaning": "y"}}),
     "key 'options.0.taken.proposed.column': expected a column no table has yet, found 'uses_lb_skip', a seats "
     "column (count it with seats: [...])"),
    (first_option("id", "b_cardswap"), "key 'options.1.id': expected each id once, found 'b_cardswap' twice"),
    (lambda raw: raw["without_switch"][0].update(name="LB-SKIP"),
     "key 'without_switch.0.name': expected each name once, found 'LB-SKIP' twice"),
    (first_option("id", "LB SKIP"), "key 'options.0.id': String should match pattern"),
    (first_option("switch_of", {"skip_score": -20}), "key 'options.0.switch_of': not a known key"),
    (lambda raw: raw["options"][0].pop("never_because"), "key 'options.0.never_because': required but missing"),
    (lambda raw: raw.update(family="searcher"),
     "key 'family': expected one of random, greedy, search, found 'searcher'"),
    (lambda raw: raw.update(game="louis-xv"), "key 'game': expected one of heads-of-state, louis-xiv, found 'louis-xv'"),
    (lambda raw: raw["without_switch"][0].update(nearest={"place_four_cost": 30}),
     "key 'without_switch.0.nearest.place_four_cost': expected a value in 0..20, found 30"),
])
def test_a_bad_inventory_file_is_refused_in_one_line_naming_the_file_and_the_key(tmp_path, edit, message):
    path = written_inventory(tmp_path, edit)
    with pytest.raises(ConfigError) as caught:
        L.load_options(path=path)
    assert str(caught.value).startswith(f"{path}: {message}")
    assert "\n" not in str(caught.value)


def test_an_inventory_of_another_game_is_refused(tmp_path):
    path = written_inventory(tmp_path, lambda raw: None)
    with pytest.raises(ConfigError, match=r"landscape.yaml: key 'game': expected heads-of-state, found 'louis-xiv'$"):
        L.load_options(HEADS, path=path)


# ----------------------------------------------------------------------------- take rates

def seats_by_bot(run_dir):
    """A run's seats table as pandas, with each game's player count (read without polars)."""
    seats = pq.read_table(results.table_path(run_dir, "seats")).to_pandas()
    games = pq.read_table(results.table_path(run_dir, "games"), columns=["game_index", "n_players"]).to_pandas()
    return seats.merge(games, on="game_index")


@pytest.mark.parametrize("game, run_fixture, option_id", [
    (LOUIS, "louis_run", "lb_marker"), (LOUIS, "louis_run", "db_intrigue"), (HEADS, "heads_run", "option_2"),
    (HEADS, "heads_run", "option_1b"),
])
def test_take_rates_count_the_options_columns_per_bot_and_player_count(request, inventories, game, run_fixture,
                                                                       option_id):
    """Against the seats table read with pyarrow and pandas: takes per seat and game, and the
    share of seats and games that took the option at least once (the random bot takes every
    optional ability now and then)."""
    run_dir = request.getfixturevalue(run_fixture)
    inventory = inventories[game]
    option = inventory.option(option_id)
    rates = L.take_rates(run_dir, inventory, option)
    seats = seats_by_bot(run_dir)
    seats["takes"] = seats[list(option.take_columns)].sum(axis=1)
    expected = seats.groupby(["n_players", "bot"]).agg(seat_games=("takes", "size"), takes=("takes", "sum"),
                                                       taken_share=("takes", lambda takes: (takes > 0).mean()))
    assert rates.height == len(expected)
    for row in rates.iter_rows(named=True):
        want = expected.loc[(row["n_players"], row["bot"])]
        assert row["seat_games"] == want["seat_games"] and row["takes"] == want["takes"]
        assert row["take_rate"] == pytest.approx(want["takes"] / want["seat_games"])
        assert row["taken_share"] == pytest.approx(want["taken_share"])
    only = L.take_rates(run_dir, inventory, option, bot=rates["bot"][0])
    assert only.to_dicts() == rates.filter(pl.col("bot") == rates["bot"][0]).to_dicts()


def test_no_take_rate_for_an_option_no_table_counts_and_a_run_of_another_game_is_refused(inventories, louis_run,
                                                                                          tmp_path):
    """Every shipped option is counted now; an inventory that proposes a column (none holds it yet)
    has no take rate for that option."""
    shipped = yaml.safe_load(inventories[LOUIS].path.read_text())
    shipped["options"][0]["taken"] = {"proposed": {"table": "seats", "column": "lb_skip_turns_passed",
                                                   "meaning": "turns passed with LB-SKIP"}}
    proposing = tmp_path / "louis_xiv.yaml"
    proposing.write_text(yaml.safe_dump(shipped))
    inventory = L.load_options(path=proposing)
    assert L.take_rates(louis_run, inventory, inventory.options[0].id) is None
    assert all(option.counted for game in (LOUIS, HEADS) for option in inventories[game].options)
    with pytest.raises(ConfigError, match=r": expected a heads-of-state run \(.*heads_of_state.yaml\), found a louis-xiv run$"):
        L.take_rates(louis_run, inventories[HEADS], "option_2")
