"""The greedy reaches every choice the rules offer (issue 13): for each decision kind, a parameter
setting (strategies/heads_of_state/parameters.py) under which the greedy takes a choice the default
greedy never or hardly takes -- counted in a few hundred seeded 4-player games from the tables or
the trace events -- and, where the count alone cannot tell a choice from a forced move, a hand-made
position in which the greedy makes that choice. The default greedy's play is pinned by the golden
traces (test_determinism_and_replay.py); here the new parameters' defaults are checked to be its
play, and the settings to read no hidden information (H12)."""
import numpy as np
import pytest

from sim.heads_of_state import events as ev
from sim.heads_of_state.betrayal import list_betrayal_plays
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.kernel import setup_game
from sim.heads_of_state.nobles import list_payments
from sim.heads_of_state.refill_plan import list_deferred_refills
from sim.heads_of_state.state import (ASSASSIN, COUNT, COURTESAN, DUKE, OPT_1A, OPT_1B, OPT_2, S_ACTIVE, S_DECK_N,
                                      S_GAME_OVER, S_N_PLAYERS, S_REV_N, S_ROUND, copy_state, new_state)
from sim.heads_of_state.turn import play_turn
from strategies.heads_of_state import GREEDY_PARAMS, resolve_bot
from strategies.heads_of_state.parameters import (LOWEST_DISPLAYED_BETRAYAL_CARD, NEVER_ASSASSINATION,
                                                  NEVER_BLIND_BETRAYAL_DRAW, NEVER_CAPITAL_ATTACK)
from sim.heads_of_state.decisions import (D_BDISCARD, D_BPLAY, D_BTAKE, D_END_REFILL, D_OPTION, D_PAY, D_REFILL,
                                          D_TAKE_ORDER)
from strategies.heads_of_state.decide import choose

RED, BLUE, YELLOW = 0, 1, 2
GAMES = 300
ISSUE_13_PARAMETERS = ("capital_attack_weight", "betrayal_take_weight", "betrayal_deck_value",
                       "betrayal_collect_value", "betray_deck_below", "refill_max_cards", "courtesan_spend_from",
                       "character_first_deck_below")
# every issue-13 parameter away from its default (the hidden-information check plays them all)
EVERYTHING_ON = dict(capital_attack_weight=3.0, betrayal_take_weight=1.0, betrayal_deck_value=1.5,
                     betrayal_collect_value=4.0, betray_deck_below=30, refill_max_cards=5, courtesan_spend_from=1,
                     character_first_deck_below=40, refresh_threshold=0.6, betray_min_value=3.0)
# issue 41: appended after them, neutral at its default (restricted play's switches)
ISSUE_41_PARAMETERS = ("assassination_weight",)
# the lowest stop a betrayal play must beat: betray_min_value 0, lowered by 6 a round in the third
LOWEST_STOP = dict(betray_min_value=0.0, betray_round_discount=6.0)


def run(setup, overrides=None, n_games=GAMES, seed=13):
    """``n_games`` 4-player games of four greedies with ``overrides``: the tables."""
    return ENGINE.play_chunk(setup, 4, [resolve_bot("greedy", overrides)] * 4, seed, 0, n_games)


def traces(setup, overrides=None, n_games=GAMES, seed=13):
    """The trace events (code, a, b, c) of each of those games."""
    bots = [resolve_bot("greedy", overrides)] * 4
    return [ENGINE.trace_events(setup, 4, bots, seed, game) for game in range(n_games)]


def count(events_per_game, code, column=None, value=None):
    """Events of ``code`` (with ``column`` == ``value``) over all games."""
    total = 0
    for events in events_per_game:
        rows = events[:, 0] == code
        if column is not None:
            rows &= events[:, column] == value
        total += int(rows.sum())
    return total


def greedy_position(position, overrides=None, n_players=3, rule_overrides=None):
    pos = position(n_players, bots=("greedy",), rule_overrides=rule_overrides)
    params = resolve_bot("greedy", overrides).params
    pos.context.bot_params[:, :len(params)] = params
    return pos


def test_new_parameters_are_appended_with_the_old_greedy_as_default(setup):
    """Appended after hand_target; each default is the old play: no capital bonus, no victim value
    at takes, the old fixed 0.5 of a blind betrayal draw, no collecting, no waiting, every refill
    (the longest recipe, a king's, has 8 cards), a courtesan only for a missing attribute, the
    betrayal card first. (The golden traces pin that play.)"""
    names = [parameter.name for parameter in GREEDY_PARAMS]
    assert tuple(names[-len(ISSUE_13_PARAMETERS) - len(ISSUE_41_PARAMETERS):]) \
        == ISSUE_13_PARAMETERS + ISSUE_41_PARAMETERS
    defaults = {parameter.name: parameter.default for parameter in GREEDY_PARAMS}
    assert [defaults[name] for name in ISSUE_13_PARAMETERS] == [0.0, 0.0, 0.5, 0.0, 0, 8, 0, 0]
    assert [defaults[name] for name in ISSUE_41_PARAMETERS] == [0.0]
    assert int(setup.data.recipe_size.max()) == defaults["refill_max_cards"]


# --- §4.0 / §4.2: the turn option -------------------------------------------------------------
def test_option_1b_when_no_display_card_helps_an_open_recipe(setup):
    assert run(setup)["seats"]["turns_option1b"].sum() == 0
    assert run(setup, {"refresh_threshold": 0.6})["seats"]["turns_option1b"].sum() > GAMES


def test_option_2_to_collect_the_second_card_a_capital_needs(setup):
    """betrayal_collect_value: Option 2 for a card that adds a victim, even when no kill is possible yet."""
    default = run(setup)["seats"]["turns_option2"].sum()
    assert run(setup, {"betrayal_collect_value": 4.0})["seats"]["turns_option2"].sum() > 2 * default


def test_collecting_turn_chosen_for_a_displayed_assassin_a_capital_king_needs(position):
    pos = greedy_position(position, {"betrayal_collect_value": 8.0})
    pos.place(BLUE, "FR_CAP.upper", "king")
    pos.give_betrayal(RED, "assassin")
    pos.state.bdisplay[:] = (pos.btype("assassin"), pos.btype("GB"))
    pos.state.scal[S_DECK_N] = 40
    pos.context.moves[:3, 0] = (OPT_1A, OPT_1B, OPT_2)
    assert choose(pos.state, pos.data, pos.context, RED, D_OPTION, 3) == 2
    pos.context.bot_params[RED, :len(GREEDY_PARAMS)] = resolve_bot("greedy").params[:len(GREEDY_PARAMS)]
    assert choose(pos.state, pos.data, pos.context, RED, D_OPTION, 3) == 0   # default: no payable refill


# --- §4.4 step 1: the betrayal take -----------------------------------------------------------
def test_country_card_taken_over_an_assassin_for_a_capital_victim(position):
    """betrayal_take_weight: a second France card makes the French king a sure kill; the default
    greedy takes the displayed assassin whatever the victims."""
    def take(overrides):
        pos = greedy_position(position, overrides)
        pos.place(BLUE, "FR_CAP.upper", "king")
        pos.give_betrayal(RED, "FR")
        pos.state.bdisplay[:] = (pos.btype("assassin"), pos.btype("FR/DE"))
        pos.context.moves[:3, :2] = ((0, pos.btype("assassin")), (1, pos.btype("FR/DE")), (-1, -1))
        return choose(pos.state, pos.data, pos.context, RED, D_BTAKE, 3)
    assert take(None) == 0
    assert take({"betrayal_take_weight": 1.0}) == 1


def test_no_blind_betrayal_draw_at_the_low_end_of_betrayal_deck_value(position):
    """Restricted play (issue 41): a displayed assassin the bot likes least (assassin_preference
    -3) is worth -1; a blind draw valued above that is taken, at the range's low end it never is."""
    def take(overrides):
        pos = greedy_position(position, {"assassin_preference": -3.0, **overrides})
        pos.state.bdisplay[:] = (pos.btype("assassin"), -1)
        pos.context.moves[:2, :2] = ((0, pos.btype("assassin")), (-1, -1))
        return choose(pos.state, pos.data, pos.context, RED, D_BTAKE, 2)
    assert LOWEST_DISPLAYED_BETRAYAL_CARD == -1.0
    assert take({"betrayal_deck_value": -0.9}) == 1
    assert take({"betrayal_deck_value": NEVER_BLIND_BETRAYAL_DRAW}) == 0


def test_country_cards_taken_from_the_display_where_victims_sit(setup):
    def country_takes(overrides):
        return sum(int(((events[:, 0] == ev.EV_BTAKE_DISPLAY) & (events[:, 3] != ASSASSIN)).sum())
                   for events in traces(setup, overrides))
    default = country_takes({"betray_min_value": 3.0})
    assert country_takes({"betray_min_value": 3.0, "betrayal_take_weight": 1.0}) > 2 * default + 20


def test_blind_betrayal_draw_when_valued_above_the_display(setup):
    default = count(traces(setup), ev.EV_BTAKE_DECK)
    assert count(traces(setup, {"betrayal_deck_value": 3.0}), ev.EV_BTAKE_DECK) > 5 * default + 50


# --- §4.4 steps 2-3: betrayal plays and refills ----------------------------------------------
def test_capital_attack_weight_brings_attacks_on_capitals(setup):
    def capital_plays(overrides):
        return int(run(setup, overrides)["betrayals"]["capital"].sum())
    setting = {"capital_attack_weight": 3.0, "betrayal_take_weight": 1.0, "betrayal_collect_value": 4.0,
               "refill_max_cards": 5}
    default = capital_plays(None)
    assert capital_plays(setting) > 5 * default + 50


def betrayal_play(pos):
    """The box of the greedy's betrayal play for RED in ``pos`` (-1: it stops)."""
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    return int(pos.moves(n)[choose(pos.state, pos.data, pos.context, RED, D_BPLAY, n)][0])


def test_no_play_on_a_capital_at_the_low_end_of_capital_attack_weight(position):
    """Restricted play (issue 41): the French king in Paris, two France cards in hand, the lowest
    stop there is (third round): just above the low end the capital play is made; at it, never --
    the duke in a province is still killed."""
    def play(weight, province_victim):
        pos = greedy_position(position, {**LOWEST_STOP, "capital_attack_weight": weight})
        pos.state.scal[S_ROUND] = 2
        pos.place(BLUE, "FR_CAP.upper", "king")
        if province_victim:
            pos.place(BLUE, "FR_P1.upper", "duke")
        pos.give_betrayal(RED, "FR", "FR", "assassin", "assassin")
        return betrayal_play(pos), pos
    box, pos = play(NEVER_CAPITAL_ATTACK + 0.1, False)
    assert box == pos.box("FR_CAP.upper")
    assert play(NEVER_CAPITAL_ATTACK, False)[0] == -1
    box, pos = play(NEVER_CAPITAL_ATTACK, True)
    assert box == pos.box("FR_P1.upper")


def test_no_assassination_at_the_low_end_of_assassination_weight(position):
    """Restricted play (issue 41): an assassin against a duke, with the greatest liking for
    assassins and the lowest stop there is: made just above the low end, never at it."""
    def play(weight):
        pos = greedy_position(position, {**LOWEST_STOP, "assassin_preference": 3.0, "assassination_weight": weight})
        pos.state.scal[S_ROUND] = 2
        pos.place(BLUE, "FR_P1.upper", "duke")
        pos.give_betrayal(RED, "assassin")
        pos.give(RED, "TITLE", "CASTLE", "BISHOP", "PALACE", "ATTR8")
        return betrayal_play(pos), pos
    box, pos = play(NEVER_ASSASSINATION + 0.1)
    assert box == pos.box("FR_P1.upper")
    assert play(NEVER_ASSASSINATION)[0] == -1


def test_attacks_wait_for_the_end_of_the_round(setup):
    """betray_deck_below N: a play comes when the regular deck holds < N cards; every later turn of
    the round takes at least one card of the regular or the revolution deck (11 cards), so at most
    N + 11 turns remain in the round."""
    wait = 12

    def turns_left_at_plays(overrides):
        left = []
        for events in traces(setup, overrides, 150):
            turn, plays = 0, []
            for code, a, b, c in events.tolist():
                if code == ev.EV_TURN:
                    turn = c
                elif code == ev.EV_BPLAY:
                    plays.append(turn)
                elif code == ev.EV_REVOLUTION:
                    left += [turn - t for t in plays]
                    plays = []
        return np.array(left)
    default = turns_left_at_plays({"betray_min_value": 3.0})
    late = turns_left_at_plays({"betray_min_value": 3.0, "betray_deck_below": wait})
    assert len(late) > 100 and late.max() <= wait + 11
    assert default.max() > wait + 11


def test_betrayal_plays_stop_before_the_round_end_window(position):
    pos = greedy_position(position, {"betray_deck_below": 10})
    pos.place(BLUE, "FR_P1.upper", "duke")
    pos.give_betrayal(RED, "assassin")
    pos.give(RED, "TITLE", "CASTLE", "BISHOP", "PALACE", "ATTR8")
    pos.state.scal[S_DECK_N] = 30
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    assert pos.moves(n)[choose(pos.state, pos.data, pos.context, RED, D_BPLAY, n)][0] == -1    # keeps the card
    pos.state.scal[S_DECK_N] = 9
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    assert pos.moves(n)[choose(pos.state, pos.data, pos.context, RED, D_BPLAY, n)][0] == pos.box("FR_P1.upper")


def test_vacated_box_left_empty_rather_than_pay_a_long_recipe(position):
    def refill(overrides):
        pos = greedy_position(position, overrides)
        pos.give(RED, "TITLE", "CASTLE", "BISHOP", "PALACE", "ATTR8")        # a duke's recipe
        pos.context.moves[:2, 0] = (DUKE, -1)                               # refill with a duke, or not
        return choose(pos.state, pos.data, pos.context, RED, D_REFILL, 2)
    assert refill(None) == 0
    assert refill({"refill_max_cards": 4}) == 1


def test_kills_left_empty_in_games(setup):
    def empty_after_kill(overrides):
        betrayals = run(setup, overrides)["betrayals"]
        kills = betrayals["success"] == 1
        return int((kills & (betrayals["box_refilled"] == 0)).sum()), int(kills.sum())
    empty, kills = empty_after_kill(None)
    empty_low, kills_low = empty_after_kill({"refill_max_cards": 0})
    assert kills_low > 100 and empty_low / kills_low > 0.9 > 2 * empty / kills


def test_deferred_refills_stop_with_one_box_empty_q8(position):
    def end_refill(overrides):
        pos = greedy_position(position, overrides, rule_overrides={"option2_refill": "deferred"})
        box = pos.box("FR_P1.upper")
        pos.state.vacated[box] = 1
        pos.give(RED, "TITLE", "CASTLE", "BISHOP", "PALACE", "ATTR8")
        n = list_deferred_refills(pos.state, pos.data, pos.context, RED)
        return pos.moves(n)[choose(pos.state, pos.data, pos.context, RED, D_END_REFILL, n)][0]
    assert end_refill(None) == position(3).box("FR_P1.upper")            # the duke refill
    assert end_refill({"refill_max_cards": 4}) == -1                    # stop: the box stays empty


def test_deferred_refills_left_empty_in_games_q8():
    deferred = ENGINE.load_setup(rule_overrides={"option2_refill": "deferred"})
    default = count(traces(deferred, {"betray_min_value": 3.0}), ev.EV_LEAVE_EMPTY)
    assert count(traces(deferred, {"betray_min_value": 3.0, "refill_max_cards": 0}), ev.EV_LEAVE_EMPTY) > 3 * default + 30


# --- §4.3 / §1.4: paying with a courtesan -------------------------------------------------------
def test_courtesan_paid_for_an_attribute_held(position):
    def payment(overrides):
        pos = greedy_position(position, overrides)
        pos.give(RED, "GOLD", "DUEL", "DUEL", "COURTESAN")
        n = list_payments(pos.state, pos.data, pos.context, RED, COUNT)
        return pos.moves(n)[choose(pos.state, pos.data, pos.context, RED, D_PAY, n)][0]
    assert payment(None) == -1                                           # the exact recipe
    assert payment({"courtesan_spend_from": 1}) == 0                     # GOLD, held once, is kept


def test_courtesans_spent_in_games(setup):
    default = run(setup)["seats"]["courtesans_used"].sum()
    assert run(setup, {"courtesan_spend_from": 1})["seats"]["courtesans_used"].sum() > 1.1 * default


# --- Q7 switch: the order of Option 2's takes --------------------------------------------------
def character_first_turns(events_per_game):
    """Option-2 turns whose first take is the character card."""
    total = 0
    for events in events_per_game:
        option = -1
        for code, a, b, c in events.tolist():
            if code == ev.EV_TURN:
                option = b
            elif option == OPT_2 and code in (ev.EV_TAKE_DISPLAY, ev.EV_TAKE_DECK):
                total += 1
                option = -1
            elif option == OPT_2 and code in (ev.EV_BTAKE_DISPLAY, ev.EV_BTAKE_DECK):
                option = -1
    return total


def test_character_card_first_near_the_round_end_q7():
    choice = ENGINE.load_setup(rule_overrides={"option2_take_order": "player_choice"})
    assert character_first_turns(traces(choice, {"betray_min_value": 3.0})) == 0
    assert character_first_turns(traces(choice, {"betray_min_value": 3.0, "character_first_deck_below": 30})) > 50


def test_take_order_row_follows_the_deck_size_q7(position):
    pos = greedy_position(position, {"character_first_deck_below": 20},
                          rule_overrides={"option2_take_order": "player_choice"})
    pos.context.moves[:2, 0] = (0, 1)
    pos.state.scal[S_DECK_N] = 25
    assert choose(pos.state, pos.data, pos.context, RED, D_TAKE_ORDER, 2) == 0
    pos.state.scal[S_DECK_N] = 19
    assert choose(pos.state, pos.data, pos.context, RED, D_TAKE_ORDER, 2) == 1


# --- §4.5 / §5.2: discards to the hand limits -------------------------------------------------
def test_every_character_type_is_discarded_under_some_setting(setup):
    seen = set()
    for overrides in (None, {"courtesan_value": 0.0}):
        for events in traces(setup, overrides, 150):
            seen |= set(events[events[:, 0] == ev.EV_DISCARD, 2].tolist())
    assert seen == set(range(COURTESAN + 1))


def test_betrayal_discards_keep_the_cards_that_reach_victims(position):
    def discard(overrides):
        pos = greedy_position(position, overrides)
        pos.place(BLUE, "FR_CAP.upper", "king")
        pos.give_betrayal(RED, "assassin", "FR", "FR/DE")
        pos.context.moves[:3, 0] = (ASSASSIN, pos.btype("FR"), pos.btype("FR/DE"))
        return choose(pos.state, pos.data, pos.context, RED, D_BDISCARD, 3)
    assert discard(None) == 1                                 # a country card goes first
    assert discard({"assassin_preference": -3.0}) == 0        # the assassin goes
    assert discard({"betrayal_take_weight": 1.0}) == 0        # the pair for Paris stays


def test_both_betrayal_card_kinds_are_discarded_in_games(setup):
    """The default greedy plays its betrayal cards before it holds more than 4 (or 2 at a round
    change); one that collects and attacks only at the very end of a round discards both kinds."""
    def discarded_kinds(overrides):
        kinds = np.concatenate([events[events[:, 0] == ev.EV_BDISCARD, 2] for events in traces(setup, overrides, 150)])
        return int((kinds == ASSASSIN).sum()), int((kinds != ASSASSIN).sum())
    assert discarded_kinds(None) == (0, 0)
    assassins, country = discarded_kinds({"betrayal_collect_value": 0.5, "betray_deck_below": 5})
    assert assassins > 50 and country > 50


# --- H12 ----------------------------------------------------------------------------------------
def issue_13_decisions(state, data, context, player):
    """The decisions the issue-13 parameters steer, in this position."""
    moves = context.moves
    out = []
    moves[:3, 0] = (OPT_1A, OPT_1B, OPT_2)
    out.append(choose(state, data, context, player, D_OPTION, 3))
    n = 0
    for slot, card in enumerate(state.bdisplay):
        if card >= 0:
            moves[n, :2] = (slot, card)
            n += 1
    moves[n, :2] = (-1, -1)
    out.append(choose(state, data, context, player, D_BTAKE, n + 1))
    moves[:2, 0] = (0, 1)
    out.append(choose(state, data, context, player, D_TAKE_ORDER, 2))
    n = list_betrayal_plays(state, data, context, player, 0)
    out.append(tuple(moves[choose(state, data, context, player, D_BPLAY, n), :3]))
    held = [t for t in range(state.bhand.shape[1]) if state.bhand[player, t] > 0]
    if held:
        moves[:len(held), 0] = held
        out.append(int(moves[choose(state, data, context, player, D_BDISCARD, len(held)), 0]))
    return out


@pytest.mark.parametrize("overrides", [None, EVERYTHING_ON], ids=["default", "issue_13_settings"])
def test_new_decisions_ignore_hidden_information(setup, overrides):
    data = setup.data
    rng = np.random.default_rng(1)
    for game in range(10):
        context = ENGINE.make_ctx(setup, 4, [resolve_bot("greedy", overrides)] * 4, betrayal_capacity=1000)
        state = new_state(data)
        setup_game(state, data, context, 4, np.uint64(9), game, 0)
        for _ in range(15 + 6 * game):
            play_turn(state, data, context)
            if state.scal[S_GAME_OVER]:
                break
        player = int(state.scal[S_ACTIVE])
        before = issue_13_decisions(copy_state(state), data, context, player)
        hidden = copy_state(state)
        for q in range(int(hidden.scal[S_N_PLAYERS])):
            if q != player:                      # opponents' hands: same sizes, other cards
                hidden.hand[q] = np.bincount(rng.integers(0, 9, hidden.hand[q].sum()), minlength=9)
                width = hidden.bhand.shape[1]
                hidden.bhand[q] = np.bincount(rng.integers(0, width, hidden.bhand[q].sum()), minlength=width)
        hidden.deck[:hidden.scal[S_DECK_N]] = rng.permutation(hidden.deck[:hidden.scal[S_DECK_N]])
        hidden.rev[:hidden.scal[S_REV_N]] = rng.permutation(hidden.rev[:hidden.scal[S_REV_N]])
        assert issue_13_decisions(hidden, data, context, player) == before
