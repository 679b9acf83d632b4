"""The search bot (family ``search``, strategies/louis_xiv/search.py): seeded and chunking-independent,
blind to what its seat cannot see (rules Q21), and clearly stronger than greedy and random."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.decisions import new_move_buffer
from sim.louis_xiv.engine import ENGINE, bot_arrays
from sim.louis_xiv.resources import resources_phase
from strategies.louis_xiv.search import copy_into_rollout, new_rollout_state, redeal_hidden, search_influence_turn
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import (INFLUENCE_POSITION, INTRIGUE_COUNT, INTRIGUE_HEAD, ROUND, copy_state,
                                 new_state)
from strategies.louis_xiv.decide import prepare_influence_phase
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
