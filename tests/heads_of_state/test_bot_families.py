"""Bot families beyond the default greedy: the archetype parameters of ``greedy`` move play in their
intended direction, and the ``search`` bot (strategies/heads_of_state/search.py) is reproducible, does not
read hidden information, and beats greedy and random on a small seeded experiment."""
import numpy as np
import pytest

from sim.core.engine import ConfigError
from strategies.heads_of_state.decide import D_OPTION, D_RAISE, D_TAKE, choose
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.kernel import setup_game
from strategies.heads_of_state.search import redeal_hidden, rekey_streams, search_choose
from sim.heads_of_state.state import (CAPITAL, COUNTRY_NAMES, OPT_1A, OPT_1B, OPT_2, PROVINCE, REVOLUTION,
                                      S_ACTIVE, S_BDECK_N, S_DECK_N, S_GAME_OVER,
                                      S_N_PLAYERS, S_REV_N, copy_state, new_state)
from sim.heads_of_state.turn import play_turn
from strategies.heads_of_state import FAMILY_PARAMETERS, GREEDY_PARAMS, SEARCH_PARAMS, resolve_bot

FAST_SEARCH = {"rollouts": 2, "max_candidates": 3}


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
                   betray_deck_below=0, refill_max_cards=8, courtesan_spend_from=0, character_first_deck_below=0)
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


# --- the search bot ---------------------------------------------------------------------------
def test_search_is_deterministic_across_chunkings(setup):
    bots = [resolve_bot("search", FAST_SEARCH), resolve_bot("greedy"), resolve_bot("random")]
    whole = ENGINE.play_chunk(setup, 3, bots, 21, 0, 3)
    again = ENGINE.play_chunk(setup, 3, bots, 21, 0, 3)
    a = ENGINE.play_chunk(setup, 3, bots, 21, 0, 1)
    b = ENGINE.play_chunk(setup, 3, bots, 21, 1, 2)
    for table in ENGINE.tables:
        for column, values in whole[table].items():
            assert np.array_equal(values, again[table][column]), (table, column)
            assert np.array_equal(values, np.concatenate([a[table][column], b[table][column]])), (table, column)


def mid_game(setup, game, turns, bots):
    data = setup.data
    context = ENGINE.make_ctx(setup, 4, bots, betrayal_capacity=1000)
    state = new_state(data)
    setup_game(state, data, context, 4, np.uint64(3), game, 0)
    for _ in range(turns):
        play_turn(state, data, context)
        if state.scal[S_GAME_OVER]:
            break
    return state, context


def scramble_hidden(state, player, rng):
    """Move the hidden cards around (opponents' hands <-> decks), keeping every public count."""
    hidden = copy_state(state)
    n_players = int(hidden.scal[S_N_PLAYERS])
    cards = [t for q in range(n_players) if q != player for t in range(9) for _ in range(hidden.hand[q, t])]
    cards += list(hidden.deck[:hidden.scal[S_DECK_N]])
    rev = list(hidden.rev[:hidden.scal[S_REV_N]])
    cards += [c for c in rev if c != REVOLUTION]
    cards = list(rng.permutation(cards))
    for q in range(n_players):
        if q != player:
            size = int(hidden.hand[q].sum())
            hidden.hand[q] = np.bincount([cards.pop() for _ in range(size)], minlength=9)
    for i in range(int(hidden.scal[S_DECK_N])):
        hidden.deck[i] = cards.pop()
    plain = [cards.pop() for c in rev if c != REVOLUTION]
    hidden.rev[:len(rev)] = rng.permutation(plain + [REVOLUTION] * (len(rev) - len(plain)))
    bcards = [t for q in range(n_players) if q != player for t in range(hidden.bhand.shape[1])
              for _ in range(hidden.bhand[q, t])] + list(hidden.bdeck[:hidden.scal[S_BDECK_N]])
    bcards = list(rng.permutation(bcards))
    for q in range(n_players):
        if q != player:
            size = int(hidden.bhand[q].sum())
            hidden.bhand[q] = np.bincount([bcards.pop() for _ in range(size)], minlength=hidden.bhand.shape[1])
    for i in range(int(hidden.scal[S_BDECK_N])):
        hidden.bdeck[i] = bcards.pop()
    return hidden


def test_determinization_redeals_only_what_is_hidden(setup):
    state, _ = mid_game(setup, 1, 30, [ENGINE.resolve_bot("greedy")] * 4)
    player = int(state.scal[S_ACTIVE])
    deals = []
    for k in range(4):
        sim = copy_state(state)
        rekey_streams(sim, np.uint64(12345), k)
        pool = np.empty(sim.deck.shape[0] + sim.rev.shape[0] + sim.hand.sum(), np.int64)
        bpool = np.empty(sim.bdeck.shape[0] + sim.bhand.sum(), np.int64)
        redeal_hidden(sim, player, pool, bpool, np.empty(16, np.int64))
        assert np.array_equal(sim.hand[player], state.hand[player]) and np.array_equal(sim.bhand[player], state.bhand[player])
        for name in ("display", "discard", "bdisplay", "bdiscard", "box_owner", "box_rank", "scal", "score"):
            assert np.array_equal(getattr(sim, name), getattr(state, name)), name
        assert np.array_equal(sim.hand.sum(axis=1), state.hand.sum(axis=1))
        assert np.array_equal(sim.bhand.sum(axis=1), state.bhand.sum(axis=1))
        n_rev = int(state.scal[S_REV_N])
        assert (sim.rev[:n_rev] == REVOLUTION).sum() == (state.rev[:n_rev] == REVOLUTION).sum()
        # the unseen character cards (decks + opponents' hands) are the same cards, dealt anew
        total_sim = np.bincount(np.concatenate([sim.deck[:state.scal[S_DECK_N]], sim.rev[:n_rev]]), minlength=10)[:9] \
            + sim.hand[:4].sum(axis=0) - sim.hand[player]
        total_st = np.bincount(np.concatenate([state.deck[:state.scal[S_DECK_N]], state.rev[:n_rev]]), minlength=10)[:9] \
            + state.hand[:4].sum(axis=0) - state.hand[player]
        assert np.array_equal(total_sim, total_st)
        deals.append((sim.hand.tobytes(), sim.deck.tobytes(), sim.bhand.tobytes()))
    assert len(set(deals)) == 4                      # every rollout sees another deal


def test_search_decisions_ignore_hidden_information(setup):
    """Scrambling the hidden cards before a search decision leaves the decision unchanged: the
    determinization pools the unseen cards in a canonical order, so it cannot depend on them."""
    bots = [resolve_bot("search", FAST_SEARCH)] * 4
    rng = np.random.default_rng(1)
    for game in range(3):
        state, context = mid_game(setup, game, 14 + 9 * game, [ENGINE.resolve_bot("greedy")] * 4)
        context = ENGINE.make_ctx(setup, 4, bots, betrayal_capacity=1000)
        player = int(state.scal[S_ACTIVE])

        def decisions(state):
            out = []
            options = [OPT_1A, OPT_2]
            if state.scal[S_DECK_N] >= setup.data.option1b_min:     # §4.2 1b legality (Q6)
                options.insert(1, OPT_1B)
            context.moves[:len(options), 0] = options
            out.append(search_choose(copy_state(state), setup.data, context, player, D_OPTION, len(options)))
            n = 0
            for slot, card in enumerate(state.display):
                if card >= 0:
                    context.moves[n, :2] = (slot, card)
                    n += 1
            context.moves[n, :2] = (-1, -1)
            out.append(search_choose(copy_state(state), setup.data, context, player, D_TAKE, n + 1))
            return out
        assert decisions(scramble_hidden(state, player, rng)) == decisions(state)


def win_rate(setup, search_bot, opponent, n_games, seed):
    """Search bot's win rate over 3-player games with the search seat rotated through every seat."""
    wins = 0.0
    for seat in range(3):
        bots = [ENGINE.resolve_bot(opponent)] * 3
        bots[seat] = search_bot
        run = ENGINE.play_chunk(setup, 3, bots, seed + seat, 0, n_games)
        mask = run["games"]["winner_mask"]
        n_winners = np.array([bin(int(m)).count("1") for m in mask])
        wins += (((mask >> seat) & 1) / n_winners).sum()     # a shared win counts as a fraction
    return wins / (3 * n_games)


def test_search_beats_greedy_and_random(setup):
    """A compiled run of ~40 3-player games (~15 s CPU). Measured: 0.62 vs greedy, 1.0 vs random.
    With fewer than ~8 rollouts the margin estimates are too noisy and the search loses to greedy."""
    bot = resolve_bot("search", {"rollouts": 16, "max_candidates": 3})
    vs_greedy = win_rate(setup, bot, "greedy", 8, 100)
    vs_random = win_rate(setup, bot, "random", 4, 100)
    assert vs_greedy > 0.5, vs_greedy          # 1/3 would be no better than its opponents
    assert vs_random > 0.8, vs_random
