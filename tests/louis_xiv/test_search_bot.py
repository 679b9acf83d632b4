"""The search bot (family ``search``, strategies/louis_xiv/search.py): seeded and chunking-independent,
blind to what its seat cannot see (rules Q21), clearly stronger than greedy and random; its budget
parameters (which decisions are searched, how far rollouts play and how they are scored, successive
halving), and the pre-issue-13 search kept as the bot file search_classic."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.decisions import new_move_buffer
from sim.louis_xiv.engine import ENGINE, bot_arrays
from sim.louis_xiv.resources import resources_phase
from strategies.bots import resolve_bots
from strategies.louis_xiv import resolve_bot
from strategies.louis_xiv.search import (close_candidates, copy_into_rollout, drop_worst, new_rollout_state,
                                         position_margin, position_value, redeal_hidden, rollout_last_round,
                                         search_influence_turn)
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import (INFLUENCE_POSITION, INTRIGUE_COUNT, INTRIGUE_HEAD, ROUND, copy_state,
                                 new_state)
from sim.louis_xiv.turn_options import list_turn_options
from strategies.louis_xiv.decide import prepare_influence_phase
from strategies.louis_xiv.greedy import needed_tokens, score_listed_turns
from strategies.louis_xiv.parameters import FAMILY_PARAMETERS, SEARCH


def test_search_bot_is_a_family_with_documented_parameters():
    bot = ENGINE.resolve_bot("search")
    assert bot.family == SEARCH
    names = [parameter.name for parameter in FAMILY_PARAMETERS["search"]]
    assert names[:len(FAMILY_PARAMETERS["greedy"])] == [p.name for p in FAMILY_PARAMETERS["greedy"]]
    assert "rollouts" in names and "max_candidates" in names


def test_seeded_and_identical_across_chunk_sizes():
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot(name) for name in ("greedy", "search", "random")]
    whole = ENGINE.play_chunk(setup, 3, bots, 5, 0, 6)
    again = ENGINE.play_chunk(setup, 3, bots, 5, 0, 6)
    first = ENGINE.play_chunk(setup, 3, bots, 5, 0, 2)
    second = ENGINE.play_chunk(setup, 3, bots, 5, 2, 4)
    for table in ENGINE.tables:
        for column, values in whole[table].items():
            np.testing.assert_array_equal(values, again[table][column], err_msg=f"{table}.{column}")
            np.testing.assert_array_equal(values, np.concatenate([first[table][column], second[table][column]]),
                                          err_msg=f"{table}.{column}")


# --- hidden information --------------------------------------------------------------------------

def mid_influence_state(n_players, seed):
    """A game at the first influence turn of round 1 (seat 0 starts), the greedy caches ready."""
    setup = ENGINE.load_setup()
    data, rules = setup.data, setup.rules
    bots = [ENGINE.resolve_bot("search")] + [ENGINE.resolve_bot("greedy")] * (n_players - 1)
    families, params = bot_arrays(bots)
    state = new_state(data)
    setup_game(state, data, rules, n_players, seed, 0, 0)
    state.game[ROUND] = 1
    resources_phase(state, data, rules, families, params)
    rng = np.random.default_rng(seed)
    state.markers[:, :n_players] = rng.integers(0, 3, size=(12, n_players))
    state.coats[:n_players] = rng.integers(0, 3, size=(n_players, state.coats.shape[1]))
    for other in range(1, n_players):
        state.intrigue_hand[other, rng.integers(0, 12)] += 1
        state.game[INTRIGUE_COUNT] -= 1       # as if drawn from the deck (the counts stay consistent)
        state.game[INTRIGUE_HEAD] += 1
    prepare_influence_phase(state, data, families, params)
    return setup, state, families, params


def scramble_hidden(state, data, player, rng):
    """Deal again, at random, everything ``player`` cannot see, keeping every public count (the
    unseen cards are the same multiset, only where they are changes); re-key every random stream
    but the player's own search stream (the future shuffles and draws are unknown too)."""
    n_players = int(state.game[0])
    others = [seat for seat in range(n_players) if seat != player]
    # influence cards: opponents' hands + undrawn deck
    position = int(state.game[INFLUENCE_POSITION])
    pool = list(state.influence_deck[position:])
    sizes = {}
    for seat in others:
        for kind in range(C.N_INFLUENCE_KINDS):
            pool += [kind] * int(state.influence_hand[seat, kind])
        sizes[seat] = int(state.influence_hand[seat].sum())
        state.influence_hand[seat] = 0
    pool = list(rng.permutation(pool))
    for seat in others:
        for _ in range(sizes[seat]):
            state.influence_hand[seat, pool.pop()] += 1
    state.influence_deck[position:] = pool
    # intrigue: opponents' hands + the ring buffer
    head, count = int(state.game[INTRIGUE_HEAD]), int(state.game[INTRIGUE_COUNT])
    ring = [(head + offset) % state.intrigue_deck.shape[0] for offset in range(count)]
    pool = [int(state.intrigue_deck[index]) for index in ring]
    for seat in others:
        for courtier in range(12):
            pool += [courtier] * int(state.intrigue_hand[seat, courtier])
        sizes[seat] = int(state.intrigue_hand[seat].sum())
        state.intrigue_hand[seat] = 0
    pool = list(rng.permutation(pool))
    for seat in others:
        for _ in range(sizes[seat]):
            state.intrigue_hand[seat, pool.pop()] += 1
    for index in ring:
        state.intrigue_deck[index] = pool.pop()
    # missions, per back colour
    capacity = state.mission_deck.shape[1]
    for colour in range(C.N_MISSION_COLOURS):
        head, count = int(state.mission_deck_head[colour]), int(state.mission_deck_count[colour])
        ring = [(head + offset) % capacity for offset in range(count)]
        pool = [int(state.mission_deck[colour, index]) for index in ring]
        for seat in others:
            held = [card for card in np.flatnonzero(state.mission_hand[seat]) if data.mission_colour[card] == colour]
            pool += held
            sizes[seat] = len(held)
            state.mission_hand[seat, held] = 0
        pool = list(rng.permutation(pool))
        for seat in others:
            for _ in range(sizes[seat]):
                state.mission_hand[seat, pool.pop()] = 1
        for index in ring:
            state.mission_deck[colour, index] = pool.pop()
    # coats: opponents' coats + the face-down pile
    kinds = state.coats.shape[1]
    pool = [kind for kind in range(kinds) for _ in range(int(state.coat_pile[kind]))]
    for seat in others:
        pool += [kind for kind in range(kinds) for _ in range(int(state.coats[seat, kind]))]
        sizes[seat] = int(state.coats[seat].sum())
        state.coats[seat] = 0
    pool = list(rng.permutation(pool))
    for seat in others:
        for _ in range(sizes[seat]):
            state.coats[seat, pool.pop()] += 1
    state.coat_pile[:] = np.bincount(np.array(pool, dtype=np.int64), minlength=kinds)
    # gold cards not revealed yet
    revealed = int(state.game[ROUND])
    used = int(np.sum(state.gold_sequence >= 0))
    unseen = [card for card in range(len(data.gold_card_gold)) if card not in state.gold_sequence[:revealed]]
    state.gold_sequence[revealed:used] = rng.permutation(unseen)[:used - revealed]
    # every stream but the player's search stream
    for source in range(state.streams.shape[0]):
        if source != C.SOURCE_SEARCH + player:
            state.streams[source, 0] = np.uint64(rng.integers(0, 2**63))


@pytest.mark.parametrize("n_players,seed", [(3, 1), (4, 2), (2, 3)])
def test_choice_ignores_what_the_seat_cannot_see(n_players, seed):
    setup, state, _, params = mid_influence_state(n_players, seed)
    data, rules = setup.data, setup.rules
    other = copy_state(state)
    scramble_hidden(other, data, 0, np.random.default_rng(seed + 100))
    assert not (np.array_equal(other.influence_hand, state.influence_hand)
                and np.array_equal(other.mission_hand, state.mission_hand)
                and np.array_equal(other.influence_deck, state.influence_deck))
    moves, other_moves = new_move_buffer(), new_move_buffer()
    chosen = search_influence_turn(state, data, rules, 0, moves, params[0])
    assert chosen == search_influence_turn(other, data, rules, 0, other_moves, params[0])
    np.testing.assert_array_equal(moves[chosen], other_moves[chosen])


def test_redeal_keeps_every_public_count_and_the_unseen_cards():
    setup, state, _, _ = mid_influence_state(4, 7)
    data = setup.data
    sim = new_rollout_state(state)
    copy_into_rollout(sim, state)
    pool = np.empty(64, dtype=np.int64)
    counts = np.empty(64, dtype=np.int64)
    redeal_hidden(sim, data, 0, pool, counts)
    hands, coats, missions = sim.influence_hand, sim.coats, sim.mission_hand
    np.testing.assert_array_equal(hands[0], state.influence_hand[0])
    np.testing.assert_array_equal(hands.sum(axis=1), state.influence_hand.sum(axis=1))
    np.testing.assert_array_equal(coats.sum(axis=1), state.coats.sum(axis=1))
    np.testing.assert_array_equal(coats[0], state.coats[0])
    np.testing.assert_array_equal(coats.sum(axis=0) + sim.coat_pile, state.coats.sum(axis=0) + state.coat_pile)
    np.testing.assert_array_equal(missions[0], state.mission_hand[0])
    np.testing.assert_array_equal(missions.sum(axis=1), state.mission_hand.sum(axis=1))
    position = int(state.game[INFLUENCE_POSITION])
    unseen = lambda hand, deck: np.sort(np.concatenate([np.repeat(np.arange(13), hand[1:4].sum(axis=0)),  # noqa: E731
                                                        deck[position:]]))
    np.testing.assert_array_equal(unseen(hands, sim.influence_deck), unseen(state.influence_hand, state.influence_deck))
    used = int(np.sum(state.gold_sequence >= 0))
    assert sim.gold_sequence[0] == state.gold_sequence[0]            # round 1's card is revealed
    future = sim.gold_sequence[1:used]
    assert len(set(future)) == used - 1 and state.gold_sequence[0] not in future and np.all(future >= 0)


# --- strength -----------------------------------------------------------------------------------

def win_rate(opponent, games_per_seat, seed):
    """The search bot's win rate (shared wins split) in 3-player games against two ``opponent``
    bots, the search seated at each seat equally often."""
    setup = ENGINE.load_setup()
    search, other = ENGINE.resolve_bot("search"), ENGINE.resolve_bot(opponent)
    wins = 0.0
    for seat in range(3):
        bots = [other] * 3
        bots[seat] = search
        games = ENGINE.play_chunk(setup, 3, bots, seed, 0, games_per_seat)["games"]
        mask = games["winner_mask"]
        won = (mask >> seat) & 1
        wins += float(np.sum(won / np.maximum(games["n_winners"], 1)))
    return wins / (3 * games_per_seat)


def test_search_beats_greedy_clearly():
    rate = win_rate("greedy", 30, 2024)   # 90 games; fair share 1/3
    print(f"search vs greedy vs greedy: search win rate {rate:.3f} over 90 games")
    assert rate > 0.45


def test_search_beats_random_clearly():
    rate = win_rate("random", 15, 2025)   # 45 games; fair share 1/3
    print(f"search vs random vs random: search win rate {rate:.3f} over 45 games")
    assert rate > 0.8


# --- the search budget: which decisions are searched, how far and how often rollouts play ----------

def search_vector(params, **overrides):
    """The search bot's vector with ``overrides``, padded like the kernels' parameter rows."""
    vector = params.copy()
    bot = resolve_bot("search", overrides)
    vector[:len(bot.params)] = bot.params
    return vector


def greedy_ranking(state, data, rules, player, params):
    moves = new_move_buffer()
    n_moves = list_turn_options(state, data, rules, player, moves)
    scores = np.empty(n_moves)
    score_listed_turns(state, data, player, moves, n_moves, params, scores)
    return moves, scores


def search_draws(state, player):
    """How many numbers the seat's search stream has given (one per searched decision)."""
    return int(state.streams[C.SOURCE_SEARCH + player, 1])


def test_a_decision_with_a_clear_greedy_favourite_is_not_searched():
    setup, state, _, params = mid_influence_state(3, 1)
    data, rules = setup.data, setup.rules
    moves, scores = greedy_ranking(state, data, rules, 0, params[0])
    best, second = np.sort(scores)[::-1][:2]
    assert best > second                     # a favourite, by some margin
    clear = search_vector(params[0], search_margin=(best - second) / 2)
    before = search_draws(state, 0)
    chosen = search_influence_turn(state, data, rules, 0, new_move_buffer(), clear)
    assert chosen == int(np.argmax(scores))  # the greedy's favourite, played at once
    assert search_draws(state, 0) == before  # no rollout, no draw from the search stream


def test_a_decision_with_close_candidates_is_searched():
    setup, state, _, params = mid_influence_state(3, 1)
    data, rules = setup.data, setup.rules
    _, scores = greedy_ranking(state, data, rules, 0, params[0])
    best, second = np.sort(scores)[::-1][:2]
    close = search_vector(params[0], search_margin=(best - second) + 0.01, rollouts=1, rollout_rounds=1)
    before = search_draws(state, 0)
    search_influence_turn(state, data, rules, 0, new_move_buffer(), close)
    assert search_draws(state, 0) == before + 1   # one draw keys all the decision's rollouts


def test_candidates_are_the_turns_within_the_margin_of_the_greedy_best():
    scores = np.array([1.0, 5.0, 4.5, 2.0, 4.0, 5.0])
    ranked = np.array([1, 5, 2, 4, 3])        # best first (best_rows order)
    assert close_candidates(scores, ranked, 0.0) == 2      # the equal best only
    assert close_candidates(scores, ranked, 0.5) == 3
    assert close_candidates(scores, ranked, 1.0) == 4
    assert close_candidates(scores, ranked, 1000.0) == 5   # capped by max_candidates (the ranked rows)


@pytest.mark.parametrize("round_number,rollout_rounds,last", [(1, 0, 4), (3, 0, 4), (1, 1, 1), (2, 2, 3),
                                                              (3, 3, 4), (4, 1, 4)])
def test_a_rollout_plays_its_rounds_then_stops(round_number, rollout_rounds, last):
    assert rollout_last_round(round_number, 4, rollout_rounds) == last


def test_a_stopped_rollout_scores_the_standing_plus_the_worth_of_what_is_held():
    setup, state, _, params = mid_influence_state(3, 4)
    data = setup.data
    vector = search_vector(params[0], held_weight=0.5)
    p = {parameter.name: vector[index] for index, parameter in enumerate(FAMILY_PARAMETERS["search"])}
    state.tokens[1, :] = 0
    state.tokens[1, C.CROWN] = 1
    state.tokens[1, C.CROWN + 1] = 2
    state.gold[1] = 7
    state.game[ROUND] = 2
    state.mission_played[1, :3] = 1
    needed = np.zeros(C.N_TOKENS, np.int64)
    needed_tokens(state, data, 1, needed)
    greedy_tokens = p["value_crown"] + 2 * (p["value_token"] + needed[C.CROWN + 1] * p["value_needed_token"])
    intrigue, influence = state.intrigue_hand[1].sum(), state.influence_hand[1].sum()
    on_courtiers, own = state.markers[:, 1].sum(), state.own_supply[1]
    greedy = (greedy_tokens + 7 * p["value_gold"] + intrigue * p["value_intrigue_card"]
              + influence * p["value_influence_card"] + on_courtiers * p["value_coat"] + own * p["value_marker"])
    stop = (own * p["stop_value_own_marker"] + on_courtiers * p["stop_value_courtier_marker"] + 7 * p["stop_value_gold"]
            + intrigue * p["stop_value_intrigue_card"] + influence * p["stop_value_influence_card"]
            + p["stop_value_crown"] + 2 * p["stop_value_token"]
            + 3 * (4 - 2) * p["stop_value_mission_ability"])          # 3 played missions, rounds 3 and 4 to play
    standing = state.coats[1].sum() + 5 * 3
    assert position_value(state, data, 1, vector) == pytest.approx(standing + stop + 0.5 * greedy)
    values = [position_value(state, data, seat, vector) for seat in range(3)]
    assert position_margin(state, data, 0, vector) == pytest.approx(values[0] - max(values[1:]))


def test_halving_drops_the_worse_half_and_the_later_of_equals():
    totals = np.array([3.0, -1.0, 2.0, -1.0, 5.0, 0.0])
    alive = np.ones(6, np.bool_)
    drop_worst(totals, alive, 3)
    np.testing.assert_array_equal(alive, [True, False, True, False, True, False])
    alive[:] = True
    drop_worst(np.array([1.0, 1.0, 1.0]), alive[:3], 1)
    np.testing.assert_array_equal(alive[:3], [True, True, False])


@pytest.mark.parametrize("overrides", [dict(halving=1, rollouts=2, rollout_rounds=1),
                                       dict(rollouts=2, max_candidates=3, rollout_rounds=2)])
def test_budget_settings_ignore_what_the_seat_cannot_see(overrides):
    setup, state, _, params = mid_influence_state(3, 1)
    data, rules = setup.data, setup.rules
    vector = search_vector(params[0], **overrides)
    other = copy_state(state)
    scramble_hidden(other, data, 0, np.random.default_rng(101))
    moves, other_moves = new_move_buffer(), new_move_buffer()
    chosen = search_influence_turn(state, data, rules, 0, moves, vector)
    assert chosen == search_influence_turn(other, data, rules, 0, other_moves, vector)
    np.testing.assert_array_equal(moves[chosen], other_moves[chosen])


def test_search_classic_is_the_search_before_issue_13():
    """configs/bots/louis_xiv/search_classic.yaml: every decision searched, 6 candidates x 8
    rollouts each, to the end of the game, no halving."""
    classic = resolve_bots("louis-xiv", ["search_classic"])[0]
    values = dict(zip(classic.parameter_names, classic.params))
    assert classic.family == SEARCH
    assert (values["rollouts"], values["max_candidates"], values["search_margin"], values["rollout_rounds"],
            values["halving"]) == (8, 6, 1000, 0, 0)
