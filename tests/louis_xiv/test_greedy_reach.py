"""The greedy reaches every decision the rules offer (issue 13; rules §4.2, §4.3, §4.5, §6, §10.1):
for each decision, some parameter setting makes the greedy take each of its choices in a few
hundred games, and (for an optional ability) another setting makes it decline. Counted from the
replay log's events (sim/louis_xiv/events.py) or the seats table.

Where a decision needs a mission ability that the greedy rarely completes, every seat starts the
game holding that ability (``play_logged_games(..., abilities=...)``: the ability counts as one
played card; no card leaves a deck), so that the decision comes up in every game.
"""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.decisions import (INCOME_GOLD_AND_MARKER, INCOME_TWO_GOLD, INCOME_TWO_MARKERS,
                                     INTRIGUE_ONE_FROM_GENERAL, INTRIGUE_ONE_FROM_OWN, INTRIGUE_TWO_FROM_OWN,
                                     PLACE_FOUR, RETRIEVE, RETRIEVE_FOUR, new_move_buffer, new_option_buffer)
from sim.louis_xiv.engine import ENGINE, bot_arrays, result_matrix
from sim.louis_xiv import tables as R
from sim.louis_xiv.kernel import play_rounds
from sim.louis_xiv.scoring import end_of_game
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import ROUND, TRACE_LENGTH, new_state
from strategies.louis_xiv import PARAMETER_INDEX, resolve_bot
from strategies.louis_xiv.decide import prepare_influence_phase
from strategies.louis_xiv.greedy import fill_holding_gains, gift_value, phase_influence_gains, single_courtier_gains

ABILITY = {name: index for index, name in enumerate(C.ABILITY_NAMES)}
GAMES = 300
TRACE_CAPACITY = 20_000


def play_logged_games(setup, overrides=None, n_games=GAMES, n_players=4, seed=13, abilities=(), others="same"):
    """The event rows (code, a..g) of ``n_games`` games of greedy bots with these parameter
    overrides in every seat (or only in seat 0, the others with the overrides ``others``);
    each seat holds the mission abilities named in ``abilities`` from the start."""
    data, rules = setup.data, setup.rules
    others = overrides if others == "same" else others
    families, params = bot_arrays([resolve_bot("greedy", overrides)]
                                  + [resolve_bot("greedy", others)] * (n_players - 1))
    state = new_state(data, TRACE_CAPACITY)
    moves, options = new_move_buffer(), new_option_buffer()
    courtier_rows = result_matrix(int(data.numbers[0]) * C.N_COURTIERS, R.COURTIER_COLUMNS)
    scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
    logs = []
    for game in range(n_games):
        setup_game(state, data, rules, n_players, seed, game, 1)
        for name in abilities:
            state.ability_count[:n_players, ABILITY[name]] += 1
        play_rounds(state, data, rules, families, params, moves, options, courtier_rows, 0)
        end_of_game(state, data, rules, scores)
        logs.append(state.trace[:state.game[TRACE_LENGTH]].copy())
    return np.concatenate(logs)


def events(log, code, **arguments):
    """The rows of one event code whose arguments (a..g, by name) have the given values."""
    rows = log[log[:, 0] == code]
    for name, value in arguments.items():
        rows = rows[rows[:, 1 + "abcdefg".index(name)] == value]
    return rows


def uses(log, ability_name, **arguments):
    return len(events(log, E.ABILITY_USED, b=ABILITY[ability_name], **arguments))


def seats_table(setup, overrides, n_games=GAMES, n_players=4, seed=13, others=None):
    """The seats table of ``n_games`` games: seat 0 the greedy with ``overrides``, the other
    seats ``others`` (overrides) or the default greedy."""
    bots = [resolve_bot("greedy", overrides)] + [resolve_bot("greedy", others)] * (n_players - 1)
    return ENGINE.play_chunk(setup, n_players, bots, seed, 0, n_games)["seats"]


# ---- §4.5 missions: which deck, and dark-blue missions -------------------------------------------

def test_a_mission_racer_with_deck_dark_high_completes_dark_blue_missions(setup):
    """Against default greedy players (who draw light blue first), a greedy that prefers the
    dark-blue deck completes dark-blue missions in nearly every game; the default almost never."""
    default = seats_table(setup, None)
    racer = seats_table(setup, {"deck_dark": 3.0})
    assert default["missions_dark"][default["seat"] == 0].mean() < 0.1
    assert racer["missions_dark"][racer["seat"] == 0].mean() > 1.0


@pytest.mark.parametrize("colour", [C.LIGHT, C.BLUE, C.DARK], ids=["light", "blue", "dark"])
def test_the_greedy_draws_from_the_deck_it_prefers_most(setup, colour):
    preference = {"deck_light": 0.0, "deck_blue": 0.0, "deck_dark": 0.0}
    preference[("deck_light", "deck_blue", "deck_dark")[colour]] = 5.0
    log = play_logged_games(setup, preference, n_games=100, others=None)
    drawn = events(log, E.MISSION_DRAWN, a=0)
    # seat 0 draws from its deck until it runs out (the others, default greedy, prefer light blue)
    assert np.bincount(drawn[:, 2], minlength=3).argmax() == colour


def rounds_of(log):
    """The round number of every event row (from the last ROUND_START before it)."""
    starts = np.where(log[:, 0] == E.ROUND_START, np.arange(len(log)), 0)
    return log[np.maximum.accumulate(starts), 1]


def test_deck_reach_turns_to_the_deck_the_tokens_pay_for_in_the_last_round(setup):
    """A dark-blue racer with deck_reach weighs each deck by the chance to complete its card: in
    the last round, where no more tokens come, it draws light blue (a named token and any other
    pay for it) far more often than the same racer by its fixed preference."""
    racer = {"deck_dark": 3.0}
    fixed = play_logged_games(setup, racer, others=None)
    reaching = play_logged_games(setup, dict(racer, deck_reach=1.0), others=None)

    def light_draws_in_the_last_round(log):
        drawn = (log[:, 0] == E.MISSION_DRAWN) & (log[:, 1] == 0) & (rounds_of(log) == 4)
        return int(np.sum(drawn & (log[:, 2] == C.LIGHT)))
    assert light_draws_in_the_last_round(reaching) > 2 * light_draws_in_the_last_round(fixed) + 20


def test_a_second_helmet_is_worth_more_to_a_player_holding_a_two_helmet_card(setup, fresh_state):
    """value_second_needed_token: the Grand Dauphin's helmet (courtier 4) is worth that much more
    to a player who holds one helmet and a dark-blue card costing two; with no helmet, the first
    is worth value_needed_token more, as before."""
    state = fresh_state(4)
    two_helmets = int(np.nonzero((setup.data.mission_colour == C.DARK)
                                 & (setup.data.mission_cost[:, 0] == C.HELMET))[0][0])
    state.mission_hand[0] = 0
    state.mission_hand[0, two_helmets] = 1
    plain = resolve_bot("greedy").params
    chasing = resolve_bot("greedy", {"value_second_needed_token": 6.0}).params
    dauphin = 3
    state.tokens[0] = 0
    first = gift_value(state, setup.data, 0, dauphin, plain)
    assert gift_value(state, setup.data, 0, dauphin, chasing) == first
    state.tokens[0, C.HELMET] = 1
    second = gift_value(state, setup.data, 0, dauphin, plain)
    assert second == pytest.approx(first - plain[PARAMETER_INDEX["value_needed_token"]])
    assert gift_value(state, setup.data, 0, dauphin, chasing) == pytest.approx(second + 6.0)


# ---- §4.2 influence turns: how safe a lead is late in the phase -----------------------------------

def hold_influence_cards(state, cards):
    """Seat k holds cards[k] influence cards (all of one kind: only their number matters here)."""
    state.influence_hand[:] = 0
    for seat, count in enumerate(cards):
        state.influence_hand[seat, 0] = count


def majority_courtier(state, setup):
    """A courtier won by the most markers on its side up (not a threshold, Louis XIV elsewhere)."""
    modes = setup.data.courtier_mode[np.arange(C.N_COURTIERS), state.side]
    return int(np.nonzero(modes != C.THRESHOLD_MODE)[0][0])


def one_marker_gain(state, setup, params):
    """What seat 0's greedy gains by a first marker on an empty majority courtier (a lead of one)."""
    state.markers[:] = 0
    row = np.zeros(5)
    single_courtier_gains(state, setup.data, 0, majority_courtier(state, setup), params, row)
    return row[1]


def test_a_lead_counts_as_safer_the_fewer_turns_the_others_have_left(setup, fresh_state):
    """late_lead_safety: with the others' five cards each in hand (§4.1 step 3, four turns each
    to come) a lead of one is as safe as the default greedy thinks; with their last cards only
    (no turn left, §4.2 step 2) it is a sure win at late_lead_safety 1, and half way at 0.5."""
    state = fresh_state(4)
    plain = resolve_bot("greedy").params
    safe = resolve_bot("greedy", {"late_lead_safety": 1.0}).params
    half_safe = resolve_bot("greedy", {"late_lead_safety": 0.5}).params
    hold_influence_cards(state, [5, 5, 5, 5])
    early = one_marker_gain(state, setup, plain)
    assert one_marker_gain(state, setup, safe) == pytest.approx(early)
    hold_influence_cards(state, [2, 1, 1, 1])
    assert one_marker_gain(state, setup, plain) == pytest.approx(early)
    gift = gift_value(state, setup.data, 0, majority_courtier(state, setup), plain)
    sure = gift - plain[PARAMETER_INDEX["value_marker"]]
    assert one_marker_gain(state, setup, safe) == pytest.approx(sure)
    assert one_marker_gain(state, setup, half_safe) == pytest.approx((early + sure) / 2)
    # the chance grows with the share of the others' turns played: 6 of 12 left is half way
    hold_influence_cards(state, [5, 3, 3, 3])
    assert one_marker_gain(state, setup, safe) == pytest.approx((early + sure) / 2)


def test_a_late_lead_counts_as_safer_from_the_kept_phase_gains_too(setup, fresh_state):
    """The gains kept through the influence phase (phase_influence_gains) are recomputed when the
    others' turns left change, not only when the markers do: they equal gains worked out afresh
    after each of the others' turns."""
    state = fresh_state(4)
    families, params = bot_arrays([resolve_bot("greedy", {"late_lead_safety": 0.8, "noise": 0.0})] * 4)
    state.markers[:] = 0
    state.markers[5, 0] = 1
    state.markers[7, 1] = 2
    prepare_influence_phase(state, setup.data, families, params)
    fresh = np.zeros((C.N_COURTIERS, 5))
    for cards in ([5, 5, 5, 5], [4, 4, 4, 4], [3, 2, 2, 2], [2, 1, 1, 1]):
        hold_influence_cards(state, cards)
        phase_influence_gains(state, setup.data, 0, params[0])
        fill_holding_gains(state, setup.data, 0, params[0], fresh)
        np.testing.assert_allclose(state.scratch_gains[:, :4], fresh[:, :4])


def test_late_lead_safety_changes_where_the_greedy_places(setup):
    """A greedy that counts late leads as safe plays other influence turns than the default
    (the same games, seeds and opponents), and the default plays as before (late_lead_safety 0)."""
    def placements(overrides):
        seats = seats_table(setup, overrides)
        return np.stack([np.asarray(seats[name]) for name in ("markers_placed", "gifts_received", "score")])
    default = placements(None)
    np.testing.assert_array_equal(placements({"late_lead_safety": 0.0}), default)
    assert not np.array_equal(placements({"late_lead_safety": 1.0}), default)


# ---- §4.2 influence turns: retrieving (every kind), LB-SKIP, B-CARDSWAP, DB-PLACE4 ---------------

def test_the_greedy_retrieves_with_a_courtier_card_and_with_a_joker(setup):
    log = play_logged_games(setup, {"retrieve_low_factor": 10.0, "retrieve_high_factor": 10.0})
    retrieved = events(log, E.RETRIEVE, d=RETRIEVE)
    assert (retrieved[:, 2] != C.JOKER).sum() > 100
    assert (retrieved[:, 2] == C.JOKER).sum() > 10


def test_the_greedy_retrieves_four_with_db_place4(setup):
    log = play_logged_games(setup, {"retrieve_low_factor": 10.0, "retrieve_high_factor": 10.0,
                                    "place_four_cost": 0.0}, abilities=("DB-PLACE4",))
    assert len(events(log, E.RETRIEVE, d=RETRIEVE_FOUR)) > 100


def test_db_place4_placements_follow_its_cost(setup):
    eager = play_logged_games(setup, {"place_four_cost": 0.0}, abilities=("DB-PLACE4",))
    never = play_logged_games(setup, {"place_four_cost": 20.0}, abilities=("DB-PLACE4",))
    assert len(events(eager, E.PLACE, g=PLACE_FOUR)) > 300
    assert uses(never, "DB-PLACE4") == 0


def test_lb_skip_is_taken_or_left_by_its_score(setup):
    eager = play_logged_games(setup, {"skip_score": 20.0}, abilities=("LB-SKIP",))
    never = play_logged_games(setup, {"skip_score": -20.0}, abilities=("LB-SKIP",))
    assert len(events(eager, E.SKIP)) > 300
    assert len(events(never, E.SKIP)) == 0


def test_b_cardswap_is_taken_or_left_by_its_score(setup):
    eager = play_logged_games(setup, {"card_swap_score": 20.0}, abilities=("B-CARDSWAP",))
    never = play_logged_games(setup, {"card_swap_score": -20.0}, abilities=("B-CARDSWAP",))
    assert len(events(eager, E.CARD_SWAP)) > 300
    assert len(events(never, E.CARD_SWAP)) == 0


@pytest.mark.parametrize("ability_name", ["LB-TILE1", "B-LOUIS", "B-TILE9"])
def test_start_of_phase_placements_are_used_unless_the_marker_gains_too_little(setup, ability_name):
    default = play_logged_games(setup, None, n_games=100, abilities=(ability_name,))
    never = play_logged_games(setup, {"start_place_min_gain": 50.0}, n_games=100, abilities=(ability_name,))
    picky = play_logged_games(setup, {"start_place_min_gain": 0.5}, n_games=100, abilities=(ability_name,))
    used = len(events(default, E.START_PLACEMENT, b=ABILITY[ability_name]))
    assert used > 300
    assert len(events(never, E.START_PLACEMENT)) == 0
    assert 0 < len(events(picky, E.START_PLACEMENT, b=ABILITY[ability_name])) < used


def test_db_endplace_is_used_unless_the_marker_gains_too_little(setup):
    default = play_logged_games(setup, None, abilities=("DB-ENDPLACE",))
    never = play_logged_games(setup, {"end_place_min_gain": 50.0}, abilities=("DB-ENDPLACE",))
    assert len(events(default, E.END_PLACEMENT)) > 1000
    assert len(events(never, E.END_PLACEMENT)) == 0


# ---- §4.1 resources abilities ---------------------------------------------------------------------

def test_lb_marker_is_used_unless_the_own_supply_is_large_enough(setup):
    default = play_logged_games(setup, None, abilities=("LB-MARKER",))
    never = play_logged_games(setup, {"lb_marker_below": 0}, abilities=("LB-MARKER",))
    assert uses(default, "LB-MARKER") > 300
    assert uses(never, "LB-MARKER") == 0


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_db_markers3_brings_back_each_count_up_to_three(setup, count):
    log = play_logged_games(setup, {"markers3_target": {0: 0, 1: 9, 2: 9, 3: 16}[count]}, abilities=("DB-MARKERS3",))
    assert uses(log, "DB-MARKERS3", c=count) > 20


@pytest.mark.parametrize("choice, overrides", [
    (INCOME_TWO_GOLD, None),
    (INCOME_GOLD_AND_MARKER, {"value_marker": 1.0}),
    (INCOME_TWO_MARKERS, {"retrieve_below": 8}),
], ids=["two gold", "gold and marker", "two markers"])
def test_b_income_takes_each_of_its_three_options(setup, choice, overrides):
    log = play_logged_games(setup, overrides, abilities=("B-INCOME",))
    assert uses(log, "B-INCOME", c=choice) > 100


def test_db_cardformarker_is_used_or_left_by_the_own_supply(setup):
    eager = play_logged_games(setup, {"card_for_marker_shift": -16}, abilities=("DB-CARDFORMARKER",))
    never = play_logged_games(setup, {"card_for_marker_shift": 16}, abilities=("DB-CARDFORMARKER",))
    assert uses(eager, "DB-CARDFORMARKER") > 600
    assert uses(never, "DB-CARDFORMARKER") == 0


def test_db_intrigue_is_used_until_the_hand_holds_enough_intrigue_cards(setup):
    default = play_logged_games(setup, None, abilities=("DB-INTRIGUE",))
    never = play_logged_games(setup, {"intrigue_draw_below": 0}, abilities=("DB-INTRIGUE",))
    assert uses(default, "DB-INTRIGUE") > 1000
    assert uses(never, "DB-INTRIGUE") == 0


# ---- §4.3 evaluation: intrigue options, DB-ONCEFIRST, Maintenon ------------------------------------

@pytest.mark.parametrize("option, overrides", [
    (INTRIGUE_ONE_FROM_GENERAL, None),
    (INTRIGUE_ONE_FROM_OWN, {"value_marker": 0.0}),
    (INTRIGUE_TWO_FROM_OWN, {"intrigue_keep_shift": -5.0}),
], ids=["one from general", "one from own", "two from own"])
def test_intrigue_cards_are_played_in_each_way(setup, option, overrides):
    log = play_logged_games(setup, overrides, abilities=("DB-INTRIGUE",))
    assert len(events(log, E.INTRIGUE_PLAYED, c=option)) > 20


def test_intrigue_cards_are_kept_when_playing_gains_too_little(setup):
    log = play_logged_games(setup, {"intrigue_keep_shift": 20.0}, abilities=("DB-INTRIGUE",))
    assert len(events(log, E.INTRIGUE_PLAYED)) == 0


def test_db_oncefirst_is_used_or_left_by_the_gift_worth(setup):
    eager = play_logged_games(setup, {"once_first_shift": -20.0}, abilities=("DB-ONCEFIRST",))
    never = play_logged_games(setup, {"once_first_shift": 20.0}, abilities=("DB-ONCEFIRST",))
    assert uses(eager, "DB-ONCEFIRST") > 100
    assert uses(never, "DB-ONCEFIRST") == 0


@pytest.mark.parametrize("count", [0, 1, 2])
def test_maintenon_gets_each_number_of_markers(setup, count):
    log = play_logged_games(setup, {"maintenon_markers": count})
    placed = events(log, E.MAINTENON)[:, 3]
    assert (placed == count).sum() > 20
    assert (placed <= count).all()


# ---- §4.5 mission abilities: LB-TOKENSWAP, LB-MISSIONSWAP ------------------------------------------

def test_lb_tokenswap_trades_a_token_no_card_names_for_a_crown(setup):
    default = play_logged_games(setup, None, abilities=("LB-TOKENSWAP",))
    eager = play_logged_games(setup, {"token_swap_any": 1}, abilities=("LB-TOKENSWAP",))
    never = play_logged_games(setup, {"token_swap_any": 1, "token_swap_reserve": 20}, abilities=("LB-TOKENSWAP",))
    assert len(events(eager, E.TOKEN_SWAP)) > 2 * len(events(default, E.TOKEN_SWAP))
    assert len(events(never, E.TOKEN_SWAP)) == 0


@pytest.mark.parametrize("count, mode", [(1, 0), (2, 0), (2, 2)], ids=["one dark", "two dark", "two unpayable"])
def test_lb_missionswap_puts_back_one_or_two_cards(setup, count, mode):
    log = play_logged_games(setup, {"mission_swap_mode": mode}, abilities=("LB-MISSIONSWAP",))
    assert len(events(log, E.MISSION_SWAP, d=count)) > 50


def test_lb_missionswap_can_be_left_unused(setup):
    log = play_logged_games(setup, {"mission_swap_mode": 1}, abilities=("LB-MISSIONSWAP",))
    assert len(events(log, E.MISSION_SWAP)) == 0


def test_the_mission_deck_chosen_is_the_one_weighing_every_deck_would_choose(setup, fresh_state):
    """§4.5 step 2 with deck_reach: the greedy works out the payability only of decks that could
    still be chosen (a deck's weight is between preference x (1 - deck_reach) and preference); the
    deck it draws from is, over 3,000 random hands, tokens, decks and preferences, the first deck
    of greatest weight with every deck weighed (ties included: preferences repeat on purpose)."""
    from strategies.louis_xiv.decide import choose_mission_deck
    from strategies.louis_xiv.greedy import deck_payability
    from strategies.louis_xiv.parameters import DECK_LIGHT
    from strategies.louis_xiv import GREEDY
    generator = np.random.default_rng(31)
    state = fresh_state(4)
    base = resolve_bot("greedy").params.copy()
    n_cards = setup.data.mission_colour.shape[0]
    for _ in range(3000):
        state.game[ROUND] = generator.integers(1, 5)
        state.mission_deck_count[:] = generator.integers(0, 3, C.N_MISSION_COLOURS)
        if not state.mission_deck_count.any():
            continue
        state.mission_hand[0, :n_cards] = generator.random(n_cards) < 0.1
        state.mission_played[:4, :n_cards] = generator.random((4, n_cards)) < 0.1
        state.tokens[0] = generator.integers(0, 3, state.tokens.shape[1])
        params = base.copy()
        params[DECK_LIGHT:DECK_LIGHT + C.N_MISSION_COLOURS] = generator.choice([0.0, 0.5, 1.0, 2.0, 4.0],
                                                                               C.N_MISSION_COLOURS)
        reach = params[PARAMETER_INDEX["deck_reach"]] = generator.choice([0.0, 0.1, 0.5, 1.0])
        weights = [params[DECK_LIGHT + colour] * (1.0 - reach + reach * deck_payability(state, setup.data, 0, colour))
                   if state.mission_deck_count[colour] > 0 else -np.inf for colour in range(C.N_MISSION_COLOURS)]
        assert choose_mission_deck(state, setup.data, 0, GREEDY, params) == int(np.argmax(weights))



def test_bribe_willingness_zero_never_bribes_even_when_gold_is_worth_nothing(setup):
    """§4.3.1: at bribe_willingness 0 (its range's low end: restricted play) the greedy never
    bribes, also at value_gold 0, where the gift x 0 >= cost x 0 comparison alone always would."""
    free_gold = seats_table(setup, {"value_gold": 0.0})
    never = seats_table(setup, {"value_gold": 0.0, "bribe_willingness": 0.0})
    assert free_gold["bribes"][free_gold["seat"] == 0].sum() > 100
    assert never["bribes"][never["seat"] == 0].sum() == 0


@pytest.mark.parametrize("income_never, barred, overrides", [(1, INCOME_TWO_GOLD, None),
                                                             (2, INCOME_GOLD_AND_MARKER, {"value_marker": 1.0}),
                                                             (3, INCOME_TWO_MARKERS, {"retrieve_below": 8})])
def test_income_never_bars_one_b_income_choice_and_the_greedy_takes_another(setup, income_never, barred, overrides):
    """§6 B-INCOME: 2 gold, 1 gold + 1 marker, or 2 markers general -> own. Greedy players who
    take the choice in most of these games never take it with income_never barring it, and take
    another income in its place (every choice is legal)."""
    log = play_logged_games(setup, overrides, abilities=("B-INCOME",))
    barred_log = play_logged_games(setup, {**(overrides or {}), "income_never": income_never}, abilities=("B-INCOME",))
    assert uses(log, "B-INCOME", c=barred) > 100
    assert uses(barred_log, "B-INCOME", c=barred) == 0 and uses(barred_log, "B-INCOME") > 100
