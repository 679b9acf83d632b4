"""§4.1 step 2: the rulebook fixes no order for a player's resources abilities, so the order is
the bot's choice (strategies/louis_xiv/decide.py, choose_resources_order)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.louis_xiv import constants as C
from sim.louis_xiv.decisions import pack_order, unpack_order
from sim.louis_xiv.resources import use_resources_abilities
from sim.louis_xiv.state import IMAGINARY_ACTIVE
from strategies.louis_xiv.decide import choose_resources_order
from strategies.louis_xiv.greedy import RULES_FILE_RESOURCES_ORDER

from .rulebook import YELLOW, supplies

N_RESOURCES = len(C.RESOURCES_ABILITIES)


def holding(state, seat, own, general, *abilities):
    state.own_supply[seat] = own
    state.general_supply[seat] = general
    for ability in abilities:
        state.ability_count[seat, ability] += 1


def use_abilities(state, setup, bots, seat):
    families, params = bots
    use_resources_abilities(state, setup.data, setup.rules, seat, families[seat], params[seat])


def test_card_for_marker_first_then_lb_marker_brings_the_marker_back(fresh_state, setup, greedy):
    """DB-CARDFORMARKER (own -> general, top influence card) and then LB-MARKER (general -> own):
    with an empty general supply only this order gets the card and keeps every marker."""
    state = fresh_state(3, round_number=2)
    holding(state, YELLOW, 6, 0, C.DB_CARDFORMARKER, C.LB_MARKER)
    use_abilities(state, setup, greedy, YELLOW)
    assert supplies(state, YELLOW) == (6, 0)
    assert state.influence_hand[YELLOW].sum() == 1
    assert state.ability_uses[YELLOW, C.DB_CARDFORMARKER] == 1 and state.ability_uses[YELLOW, C.LB_MARKER] == 1


def test_markers_back_first_pay_for_card_for_marker_with_an_empty_own_supply(fresh_state, setup, greedy):
    """The other order helps with an empty own supply: B-INCOME (2 markers) and DB-MARKERS3 (3)
    first refill it, and then DB-CARDFORMARKER has a marker to spend."""
    state = fresh_state(3, round_number=2)
    holding(state, YELLOW, 0, 8, C.DB_CARDFORMARKER, C.B_INCOME, C.DB_MARKERS3)
    use_abilities(state, setup, greedy, YELLOW)
    assert supplies(state, YELLOW) == (4, 4)
    assert state.influence_hand[YELLOW].sum() == 1


def test_greedy_keeps_the_rules_file_order_where_the_order_cannot_matter(fresh_state, setup, greedy):
    state = fresh_state(3, round_number=2)
    holding(state, YELLOW, 6, 2, C.DB_CARDFORMARKER, C.DB_GOLD3, C.DB_INTRIGUE)
    families, params = greedy
    order = choose_resources_order(state, setup.data, YELLOW, families[YELLOW], params[YELLOW])
    assert order == RULES_FILE_RESOURCES_ORDER == pack_order(C.RESOURCES_ABILITIES)


def test_random_order_is_an_order_of_every_resources_ability(fresh_state, setup, random_bots):
    """The random bot's order is a permutation whose held abilities come first in any order."""
    families, params = random_bots
    seen_first = set()
    for seed in range(30):
        state = fresh_state(3, seed=seed, round_number=2)
        holding(state, YELLOW, 6, 0, C.DB_CARDFORMARKER, C.LB_MARKER, C.B_COAT)
        order = unpack_order(choose_resources_order(state, setup.data, YELLOW, families[YELLOW], params[YELLOW]),
                             N_RESOURCES)
        assert sorted(order) == sorted(C.RESOURCES_ABILITIES)
        assert set(order[:3]) == {C.DB_CARDFORMARKER, C.LB_MARKER, C.B_COAT}
        seen_first.add(order[0])
    assert seen_first == {C.DB_CARDFORMARKER, C.LB_MARKER, C.B_COAT}


def test_random_order_draws_only_from_its_own_stream(fresh_state, setup, random_bots):
    """Choosing the order moves only the stream SOURCE_RESOURCES_ORDER + seat: every other
    source of chance gives the same draws as before."""
    families, params = random_bots
    state = fresh_state(4, seed=3, round_number=2)
    holding(state, YELLOW, 6, 0, C.DB_CARDFORMARKER, C.LB_GOLD)
    before = state.streams.copy()
    choose_resources_order(state, setup.data, YELLOW, families[YELLOW], params[YELLOW])
    changed = np.nonzero((state.streams != before).any(axis=1))[0].tolist()
    assert changed == [C.SOURCE_RESOURCES_ORDER + YELLOW]
    assert state.game[IMAGINARY_ACTIVE] == 0


def test_random_order_with_one_ability_draws_nothing(fresh_state, setup, random_bots):
    families, params = random_bots
    state = fresh_state(4, seed=3, round_number=2)
    holding(state, YELLOW, 6, 0, C.LB_GOLD, C.LB_GOLD)
    before = state.streams.copy()
    order = choose_resources_order(state, setup.data, YELLOW, families[YELLOW], params[YELLOW])
    assert unpack_order(order, N_RESOURCES)[0] == C.LB_GOLD
    np.testing.assert_array_equal(state.streams, before)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(held=st.lists(st.sampled_from(C.RESOURCES_ABILITIES), max_size=6), seed=st.integers(0, 2**32),
       bot=st.sampled_from(["greedy", "random"]))
def test_every_order_uses_each_resources_ability_once(fresh_state, setup, greedy, random_bots, held, seed, bot):
    """Whatever the bot and the cards held: every resources ability comes exactly once in the
    order, the ones held first (so each played card works once per round, §4.1 step 2)."""
    families, params = greedy if bot == "greedy" else random_bots
    state = fresh_state(3, seed=seed, round_number=2)
    holding(state, YELLOW, 6, 2, *held)
    order = unpack_order(choose_resources_order(state, setup.data, YELLOW, families[YELLOW], params[YELLOW]),
                         N_RESOURCES)
    assert sorted(order) == sorted(C.RESOURCES_ABILITIES)
    if bot == "random":
        assert set(order[:len(set(held))]) == set(held)
