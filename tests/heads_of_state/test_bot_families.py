"""Bot families beyond the default greedy: the archetype parameters of ``greedy`` move play in their
intended direction; the ``search`` family's vector is the greedy's then its own (the search bot
itself: test_search_bot.py)."""
import numpy as np
import pytest

from sim.core.engine import ConfigError
from sim.heads_of_state.decisions import D_RAISE
from strategies.heads_of_state.decide import choose
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.state import CAPITAL, COUNTRY_NAMES, PROVINCE
from strategies.heads_of_state import FAMILY_PARAMETERS, GREEDY_PARAMS, SEARCH_PARAMS, resolve_bot


def seats_of(run, seat):
    rows = run["seats"]["seat"] == seat
    return {column: values[rows] for column, values in run["seats"].items()}


# --- families and parameters ------------------------------------------------------------------
def test_search_family_is_greedy_parameters_then_search_parameters():
    assert FAMILY_PARAMETERS["search"] == GREEDY_PARAMS + SEARCH_PARAMS
    bot = ENGINE.resolve_bot("search")
    assert bot.family == 2 and len(bot.params) == len(GREEDY_PARAMS) + len(SEARCH_PARAMS)
    with pytest.raises(ConfigError):
        resolve_bot("search", {"rollouts": 2.5})


def test_new_greedy_parameters_default_to_the_old_greedy(setup):
    """The golden traces pin the default greedy; here: explicit neutral values are the default."""
    neutral = {f"country_weight_{c.lower()}": 0.0 for c in COUNTRY_NAMES}
    neutral.update(capital_bias=0.0, assassin_preference=0.0, betray_from_round=0,
                   betray_round_discount=0.0, raise_threshold=0.0, hand_target=0, capital_attack_weight=0.0,
                   betrayal_take_weight=0.0, betrayal_deck_value=0.5, betrayal_collect_value=0.0,
                   betray_deck_below=0, refill_max_cards=8, courtesan_spend_from=0, character_first_deck_below=0,
                   assassination_weight=0.0)
    a = ENGINE.play_chunk(setup, 4, [resolve_bot("greedy", neutral)] * 4, 3, 0, 20)
    b = ENGINE.play_chunk(setup, 4, [resolve_bot("greedy")] * 4, 3, 0, 20)
    assert np.array_equal(a["seats"]["score"], b["seats"]["score"])
    # a search bot without rollouts is that greedy too
    c = ENGINE.play_chunk(setup, 4, [resolve_bot("search", {"rollouts": 0})] + [resolve_bot("greedy")] * 3,
                          3, 0, 20)
    assert np.array_equal(c["seats"]["score"], b["seats"]["score"])


def mean_of(setup, overrides, column, n_games=150, seed=11):
    """Mean of a seats column for seat 0 playing ``overrides`` against three default greedies."""
    bots = [resolve_bot("greedy", overrides)] + [resolve_bot("greedy")] * 3
    return seats_of(ENGINE.play_chunk(setup, 4, bots, seed, 0, n_games), 0)[column].mean()


def test_betrayal_timing_parameters(setup):
    base = mean_of(setup, {}, "turns_option2")
    assert mean_of(setup, {"betray_min_value": 2.0}, "turns_option2") > base
    assert mean_of(setup, {"hand_target": 4}, "turns_option2") > base
    assert mean_of(setup, {"betray_round_discount": 2.0}, "turns_option2") > base
    run = ENGINE.play_chunk(setup, 4, [resolve_bot("greedy", {"betray_from_round": 2, "betray_min_value": 2.0})]
                            + [resolve_bot("greedy")] * 3, 11, 0, 150)
    own = run["betrayals"]["seat"] == 0
    assert own.sum() > 0 and (run["betrayals"]["round"][own] == 3).all()   # round 3: tables count from 1


def test_assassin_preference(setup):
    def assassin_share(preference):
        bots = [resolve_bot("greedy", {"assassin_preference": preference, "betray_min_value": 3.0})]
        run = ENGINE.play_chunk(setup, 4, bots + [resolve_bot("greedy")] * 3, 5, 0, 150)
        own = run["betrayals"]["seat"] == 0
        return (run["betrayals"]["card_type"][own] == 0).mean()
    # the default greedy already plays assassins almost only (it values them most when taking)
    assert assassin_share(3.0) >= assassin_share(0.0) > assassin_share(-3.0) + 0.3


def test_country_weight_moves_influence_to_that_country(setup):
    def influence(country, weight):
        bots = [resolve_bot("greedy", {f"country_weight_{COUNTRY_NAMES[country].lower()}": weight})]
        run = ENGINE.play_chunk(setup, 4, bots + [resolve_bot("greedy")] * 3, 7, 0, 100)
        rows = run["country_scoring"]["country"] == country
        return run["country_scoring"]["influence_seat_0"][rows].mean()
    for country in (0, 3):
        assert influence(country, 4.0) > influence(country, 0.0) > influence(country, -4.0)


def raise_choice(position, overrides):
    """greedy's pick among a province box and a capital box showing the same rank, or stop."""
    pos = position(3, bots=("greedy",))
    pos.context.bot_params[0, :] = resolve_bot("greedy", overrides).params[:pos.context.bot_params.shape[1]]
    data = pos.data
    ranks = {}                           # capitals and provinces show different ranks: take the
    for box in range(data.box_region.shape[0]):   # province's highest and the capital's lowest
        kind = int(data.region_type[data.box_region[box]])
        shown = [r for r in range(7) if (data.box_ranks[box] >> r) & 1]
        rank = max(shown) if kind == PROVINCE else min(shown)
        if kind not in ranks or (rank > ranks[kind][1] if kind == PROVINCE else rank < ranks[kind][1]):
            ranks[kind] = (box, rank)
    pos.context.moves[0, :2] = ranks[PROVINCE]
    pos.context.moves[1, :2] = ranks[CAPITAL]
    pos.context.moves[2, :2] = (-1, -1)
    row = choose(pos.state, data, pos.context, 0, D_RAISE, 3)
    return ("province", "capital", "stop")[row]


def test_capital_bias_and_raise_threshold(position):
    assert raise_choice(position, {"capital_bias": 5.0}) == "capital"
    assert raise_choice(position, {"capital_bias": -5.0}) == "province"
    modest = {"new_rank_weight": 0.0, "hex_weight": 0.0, "square_weight": 0.0}   # raises worth < 10
    assert raise_choice(position, modest) != "stop"
    assert raise_choice(position, {**modest, "raise_threshold": 10.0}) == "stop"
