"""The greedy's cheaper ways to its numbers (issue 39: tuned bots' speed) give the numbers of
the definitions they stand for, exactly, so that no choice changes (strategies/louis_xiv/greedy.py).
Each is checked over a few thousand random hands, tokens and boards against the definition
written out plainly here."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.components import list_card_payments
from sim.louis_xiv.data import ROUNDS
from sim.louis_xiv.state import LOUIS_COURTIER, ROUND
from strategies.louis_xiv import PARAMETER_INDEX, resolve_bot
from strategies.louis_xiv.greedy import (FIRST_NEEDED, SECOND_NEEDED, bot_needed_tokens, courtier_holding_gains,
                                         deck_payability, holding_value_at_chance, needed_tokens,
                                         phase_influence_gains, prepare_gift_values, tokens_short, win_chance)

REPETITIONS = 2000


def fewest_crowns_to_pay(setup, tokens, card):
    """§4.5: a crown pays for any token, so a card is short of the fewest crowns that, added to
    the tokens held, let the player pay for it."""
    payments = np.zeros((C.N_TOKENS * C.N_TOKENS, 2), dtype=np.int64)
    for crowns in range(3):
        topped_up = tokens.copy()
        topped_up[C.CROWN] += crowns
        if list_card_payments(topped_up, setup.data, card, payments) > 0:
            return crowns
    raise AssertionError("a card costs two tokens: two crowns always pay for it")


def test_a_card_is_short_of_the_fewest_crowns_that_would_pay_for_it(setup):
    generator = np.random.default_rng(5)
    n_cards = setup.data.mission_colour.shape[0]
    for _ in range(REPETITIONS // 10):
        tokens = generator.integers(0, 3, C.N_TOKENS)
        for card in range(n_cards):
            assert tokens_short(tokens, setup.data.mission_cost[card]) == fewest_crowns_to_pay(setup, tokens, card)


def test_a_decks_payability_is_the_mean_credit_of_the_cards_the_player_has_not_seen(setup, fresh_state):
    """deck_reach: 1 for a card payable now, 1/2 per token short, in the last round 0 unless
    payable; over the cards of the colour neither in the player's hand nor played by anyone."""
    generator = np.random.default_rng(7)
    data = setup.data
    n_cards = data.mission_colour.shape[0]
    for _ in range(REPETITIONS):
        n_players = int(generator.integers(2, 5))
        state = fresh_state(n_players)
        state.game[ROUND] = generator.integers(1, data.numbers[ROUNDS] + 1)
        state.mission_hand[:, :n_cards] = generator.random((C.MAX_PLAYERS, n_cards)) < 0.1
        state.mission_played[:, :n_cards] = generator.random((C.MAX_PLAYERS, n_cards)) < 0.15
        state.tokens[0] = generator.integers(0, 3, C.N_TOKENS)
        last_round = state.game[ROUND] >= data.numbers[ROUNDS]
        for colour in range(C.N_MISSION_COLOURS):
            credits = [(0.0 if last_round else 0.5) ** fewest_crowns_to_pay(setup, state.tokens[0], card)
                       for card in np.nonzero(data.mission_colour[:n_cards] == colour)[0]
                       if state.mission_hand[0, card] == 0 and not state.mission_played[:n_players, card].any()]
            expected = sum(credits) / len(credits) if credits else 0.0
            assert deck_payability(state, data, 0, colour) == expected


def test_a_second_token_is_needed_only_for_a_card_naming_it_twice_and_one_held(setup, fresh_state):
    """value_second_needed_token: a kind is needed (FIRST_NEEDED) when a card in hand names it and
    the player holds none, needed a second time (SECOND_NEEDED) when a card in hand costs two of
    it (dark blue, §1.5) and he holds one; the bot that weighs second tokens finds the same."""
    generator = np.random.default_rng(11)
    data = setup.data
    n_cards = data.mission_colour.shape[0]
    chasing = resolve_bot("greedy", {"value_second_needed_token": 2.0}).params
    state = fresh_state(4)
    found = np.zeros(C.N_TOKENS, dtype=np.int64)
    for _ in range(REPETITIONS):
        state.mission_hand[0, :n_cards] = generator.random(n_cards) < 0.08
        state.tokens[0] = generator.integers(0, 3, C.N_TOKENS)
        hand = np.nonzero(state.mission_hand[0, :n_cards])[0]
        expected = np.zeros(C.N_TOKENS, dtype=np.int64)
        for kind in range(1, C.N_TOKENS):
            named = any(kind in data.mission_cost[card] for card in hand)
            twice = any(data.mission_cost[card, 0] == data.mission_cost[card, 1] == kind for card in hand)
            held = state.tokens[0, kind]
            expected[kind] = FIRST_NEEDED if named and held == 0 else SECOND_NEEDED if twice and held == 1 else 0
        needed_tokens(state, data, 0, found)
        np.testing.assert_array_equal(found, expected)
        bot_needed_tokens(state, data, 0, chasing, found)
        np.testing.assert_array_equal(found, expected)


@pytest.mark.parametrize("certainty", ["none", "some", "full"])
def test_holding_gains_are_the_differences_of_the_holding_value_at_the_chance_of_each_lead(setup, fresh_state,
                                                                                          certainty):
    """The gains of 0..4 more markers on a courtier, worked out with its case (Louis XIV,
    threshold side, race for most) picked once, are the differences of holding_value_at_chance
    (which computes every case) at win_chance's chance of each lead, to the last bit."""
    generator = np.random.default_rng({"none": 1, "some": 2, "full": 3}[certainty])
    data = setup.data
    state = fresh_state(4)
    base = resolve_bot("greedy").params
    row = np.zeros(5)
    for _ in range(REPETITIONS):
        params = base.copy()
        for name in ("chance_lead", "chance_lead_step", "chance_tie"):
            params[PARAMETER_INDEX[name]] = generator.random()
        for name in ("value_marker", "value_gold", "value_crown", "louis_aggression"):
            params[PARAMETER_INDEX[name]] = generator.uniform(0, 5)
        courtier = int(generator.integers(C.N_COURTIERS))
        state.side[courtier] = generator.integers(2)
        state.game[LOUIS_COURTIER] = courtier if generator.random() < 0.3 else -1
        mine, others = (int(count) for count in generator.integers(0, 5, 2))
        gift = generator.uniform(0, 15)
        chosen = {"none": 0.0, "some": generator.random(), "full": 1.0}[certainty]
        courtier_holding_gains(state, data, 0, courtier, mine, others, gift, params, chosen, row, 5)
        side = state.side[courtier]
        mode, printed = data.courtier_mode[courtier, side], data.courtier_value[courtier, side]
        louis = courtier == state.game[LOUIS_COURTIER]

        def worth(count):
            chance = win_chance(count - others, params[PARAMETER_INDEX["chance_lead"]],
                                params[PARAMETER_INDEX["chance_lead_step"]], params[PARAMETER_INDEX["chance_tie"]],
                                chosen)
            return holding_value_at_chance(chance, count, mode, printed, louis, gift,
                                           params[PARAMETER_INDEX["value_marker"]],
                                           params[PARAMETER_INDEX["value_gold"]],
                                           params[PARAMETER_INDEX["value_crown"]]
                                           * params[PARAMETER_INDEX["louis_aggression"]])
        expected = [0.0] + [worth(mine + extra) - worth(mine) for extra in range(1, 5)]
        assert list(row) == expected, (mode, louis, mine, others)


@pytest.mark.parametrize("place_four", [False, True])
def test_the_gains_kept_through_a_phase_are_the_differences_of_the_holding_value_at_each_lead(setup, fresh_state,
                                                                                            place_four):
    """The influence phase's gains (phase_influence_gains: only the courtiers whose markers
    changed recomputed, the turn's constants read once, the counts a constant without DB-PLACE4)
    are the differences of holding_value_at_chance at win_chance's chance of each lead, to the
    last bit, turn after turn, up to the turn's longest placement (3, or 4 with DB-PLACE4)."""
    generator = np.random.default_rng(21 if place_four else 22)
    data = setup.data
    state = fresh_state(4)
    params = resolve_bot("greedy", {"noise": 0.0}).params
    index = {name: params[PARAMETER_INDEX[name]] for name in PARAMETER_INDEX}
    longest = 4 if place_four else 3
    for _ in range(REPETITIONS // 20):
        state.side[:] = generator.integers(0, 2, C.N_COURTIERS)
        state.game[LOUIS_COURTIER] = generator.integers(0, 4) if generator.random() < 0.7 else -1
        state.uses_left[0, C.DB_PLACE4] = 1 if place_four else 0
        state.markers[:, :4] = generator.integers(0, 4, (C.N_COURTIERS, 4))
        prepare_gift_values(state, data, 0, params)
        for _turn in range(6):
            # a turn places or takes back a few markers: some courtiers change, most do not
            for courtier in generator.choice(C.N_COURTIERS, 2, replace=False):
                state.markers[courtier, generator.integers(0, 4)] = generator.integers(0, 4)
            phase_influence_gains(state, data, 0, params)
            for courtier in range(C.N_COURTIERS):
                mine = state.markers[courtier, 0]
                others = state.markers[courtier, 1:4].max()
                side = state.side[courtier]
                mode, printed = data.courtier_mode[courtier, side], data.courtier_value[courtier, side]
                louis = courtier == state.game[LOUIS_COURTIER]
                gift = state.phase_gifts[0, courtier]

                def worth(count):
                    chance = win_chance(count - others, index["chance_lead"], index["chance_lead_step"],
                                        index["chance_tie"], 0.0)
                    return holding_value_at_chance(chance, count, mode, printed, louis, gift, index["value_marker"],
                                                   index["value_gold"],
                                                   index["value_crown"] * index["louis_aggression"])
                expected = [0.0] + [worth(mine + extra) - worth(mine) for extra in range(1, longest + 1)]
                assert list(state.scratch_gains[courtier, :longest + 1]) == expected, (mode, louis, mine, others)
