"""The search bot (family SEARCH): determinized flat Monte Carlo at the influence turn.

At every influence turn (§4.2 step 2: which card, and where to place or how many to retrieve;
LB-SKIP, B-CARDSWAP and DB-PLACE4 turns included) the bot lists the legal turns, keeps the
``max_candidates`` its greedy scores best (``score_listed_turns``: the greedy's own turn score,
without its noise) and for each candidate plays the game to its end ``rollouts`` times from a
copy of the state. It picks the candidate with the best mean **score margin** (own final score
minus the best opponent's final score, §7): a margin rewards winning by more and losing by less,
which separates candidates with fewer rollouts than a 0/1 win count. Ties go to the candidate
the greedy prefers. Every other decision (resources abilities, intrigue cards, bribes, Condé,
Maintenon, missions, token swaps, ...) is the greedy's, with the bot's own greedy parameters
(a search bot's vector is the greedy parameters followed by ``rollouts`` and
``max_candidates``, parameters.py).

Rollouts do not cheat (rules Q21). Before each rollout the copy is *determinized*: everything
the searching seat cannot see is pooled and dealt again at random, keeping every public count:

- the opponents' influence hands with the undrawn influence cards (hand sizes and the deck
  position stay; the cards already played or revealed this phase are public and not pooled);
- the opponents' intrigue hands with the intrigue deck (hand sizes and the deck size stay);
- per back colour, the opponents' mission hands with that mission deck (how many cards of each
  colour an opponent holds stays: the back colour shows, and each draw names its deck);
- the opponents' coats of arms with the face-down coat pile (each opponent's number of coats);
- the gold cards not yet revealed (the future gold cards, hence Louis XIV's future courtiers).

The pools are built in a canonical order (by kind or card id) before they are shuffled, so the
redeal depends only on what the seat can know, never on where the hidden cards really are
(tests/louis_xiv/test_search_bot.py scrambles them and checks the choice does not change).
Every random stream of the copy is re-keyed too: the streams are counter-based, so a copy would
otherwise replay the real future reshuffles, coat draws and bot noise.

Within a rollout every seat plays the greedy with the searching bot's greedy parameters (its
model of the table); the greedy's per-phase caches are rebuilt from the redealt copy. Rollout
``k`` uses the same redeal and streams for every candidate (common random numbers: the
candidates are compared on the same imagined futures).

Randomness and reproducibility: one draw per searched decision from the seat's own search
stream (``SOURCE_SEARCH + seat``, constants.py) keys all its rollouts, so the real game's other
streams are untouched and results are identical across chunkings.

Avoiding a compiled recursion: the rollout plays the game loop, whose decision dispatcher would
call the search again (choose_influence_turn -> search -> rollout -> game loop ->
choose_influence_turn); numba cannot load such a mutual recursion from its cache (it segfaults).
The rollout therefore plays *rollout copies* of the five game-loop functions on the path from the
chunk kernel to that dispatcher (``play_rounds_from``, ``influence_phase``, ``influence_turns``,
``take_influence_turn``, ``choose_influence_turn``; ``rollout_copy``: the same code with its own
dispatcher and cache entry, calling the other copies), and in the copy of
``choose_influence_turn`` the search bot's branch is the greedy. Everything below those five
(phases, rules, greedy decisions) is shared: compiled once, for the one state type.

Why copies and not only a second state type (as sim/heads_of_state does with its rollout
context): the search is compiled while the real game loop is still compiling, and numba compiles
a call to a function that is still compiling -- even for another type -- as a "recursive" call,
linked later by a symbol name. Measured here, those links failed ("aborted due to unresolved
symbol": the name carries the caller's compile flags, which numba changes in functions that
inline a helper), and they cannot be restored from the cache either. With the copies no compiled
function is ever called while it is compiling, and a second state type would only compile the
whole game loop twice (measured: cold compile 45 s -> 140 s CPU with ``LouisRolloutState``).

Compilation: :func:`search_influence_turn` and its helpers allocate (the rollout state and
buffers, once per decision), so they are compiled with numba's reference counting switched on
explicitly (``_nrt=True``; they are called from ``game_kernel`` code compiled without it). The
rollouts themselves (:func:`run_rollouts` down) allocate nothing and are ``game_kernel``s;
``rollout`` and ``finish_game`` are inlined into ``run_rollouts``, as every compiled function that
calls the game loop re-optimizes all of it when it is finalized (compile time).
"""
import types

import numpy as np
from numba import njit

from sim.core.determinization import best_rows, count_opponents_hands, deal_opponents_hands, pool_from_counts
from sim.core.kernels import copy_into, copy_into_2d, game_kernel, inline_game_kernel
from sim.core.random_streams import next_u64, pick_by_counts, shuffle, splitmix64
from sim.louis_xiv import constants as C
from sim.louis_xiv import results as R
from sim.louis_xiv.data import GOLD_CARDS_USED, ROUNDS
from sim.louis_xiv.decisions import MOVE_CAPACITY, MOVE_WIDTH, OPTION_CAPACITY, OPTION_WIDTH
from sim.louis_xiv import influence, kernel as game_loop
from sim.louis_xiv.influence import apply_move, end_of_phase_placement, return_cards_and_reshuffle
from sim.louis_xiv.kernel import finish_round
from sim.louis_xiv.scoring import end_of_game
from sim.louis_xiv.state import (INFLUENCE_POSITION, INTRIGUE_COUNT, INTRIGUE_HEAD, MAX_MISSIONS, N_PLAYERS,
                                 ROUND, START_SEAT, TRACE_ON, copy_state, hand_size, seat_order)
from sim.louis_xiv.turn_options import list_turn_options
import strategies.louis_xiv.decide as decide
from strategies.louis_xiv.decide import prepare_influence_phase, score_listed_turns
from strategies.louis_xiv.parameters import GREEDY, MAX_CANDIDATES, ROLLOUTS

search_kernel = njit(cache=True, _nrt=True)


def rollout_copy(dispatcher, **replaced):
    """A second compiled function (own dispatcher, own cache entry) with the same code as a
    game-loop ``game_kernel``, whose calls to the functions named in ``replaced`` go to their
    rollout copies instead (module docstring, "Avoiding a compiled recursion")."""
    function = getattr(dispatcher, "py_func", dispatcher)   # a plain function under NUMBA_DISABLE_JIT
    namespace = dict(function.__globals__)
    namespace.update(replaced)
    copy = types.FunctionType(function.__code__, namespace, function.__name__, function.__defaults__,
                              function.__closure__)
    copy.__qualname__ = function.__qualname__ + "_rollout"
    copy.__doc__ = function.__doc__
    copy.__module__ = function.__module__
    return game_kernel(copy)


# the game-loop functions that can be compiling when the search is compiled (the path from the
# chunk kernel down to the influence-turn dispatcher), as rollout copies calling one another
rollout_choose_influence_turn = rollout_copy(decide.choose_influence_turn,
                                             search_or_greedy=decide.greedy_influence_turn)
rollout_take_influence_turn = rollout_copy(influence.take_influence_turn,
                                           choose_influence_turn=rollout_choose_influence_turn)
rollout_influence_turns = rollout_copy(influence.influence_turns, take_influence_turn=rollout_take_influence_turn)
rollout_influence_phase = rollout_copy(influence.influence_phase, influence_turns=rollout_influence_turns)
rollout_play_rounds_from = rollout_copy(game_loop.play_rounds_from, influence_phase=rollout_influence_phase)
N_COURTIER_COLUMNS = len(R.COURTIER_COLUMNS)


@search_kernel
def search_influence_turn(state, data, rules, player, moves, params):
    """Row of ``moves`` (listed here) that seat ``player``'s search plays as its influence turn."""
    n_moves = list_turn_options(state, data, rules, player, moves)
    if n_moves <= 1:
        return 0
    scores = np.empty(n_moves)
    score_listed_turns(state, data, player, moves, n_moves, params, scores)
    rows = best_rows(scores, n_moves, int(params[MAX_CANDIDATES]))
    rollouts = int(params[ROLLOUTS])
    if rows.shape[0] == 1 or rollouts < 1:
        return rows[0]
    base = next_u64(state.streams, C.SOURCE_SEARCH + player)
    sim = new_rollout_state(state)
    family = np.full(C.MAX_PLAYERS, GREEDY, np.int64)
    table = np.empty((C.MAX_PLAYERS, params.shape[0]))
    for seat in range(C.MAX_PLAYERS):
        table[seat, :] = params
    rollout_moves = np.zeros((MOVE_CAPACITY, MOVE_WIDTH), np.int64)
    rollout_options = np.zeros((OPTION_CAPACITY, OPTION_WIDTH), np.int64)
    courtier_rows = np.zeros((data.numbers[ROUNDS] * C.N_COURTIERS, N_COURTIER_COLUMNS), np.int32)
    final = np.zeros(C.MAX_PLAYERS, np.int64)
    size = max(MAX_MISSIONS, state.influence_deck.shape[0], state.intrigue_deck.shape[0],
               state.gold_sequence.shape[0], state.coat_pile.shape[0], C.N_INFLUENCE_KINDS)
    pool = np.empty(size, np.int64)
    counts = np.empty(size, np.int64)
    totals = np.zeros(rows.shape[0])
    position = (player - state.game[START_SEAT]) % state.game[N_PLAYERS]
    run_rollouts(state, data, rules, sim, player, position, moves, rows, base, rollouts, family, table,
                 rollout_moves, rollout_options, courtier_rows, final, pool, counts, totals)
    return rows[np.argmax(totals)]   # the first of equal totals, as the greedy's order has it


@search_kernel
def new_rollout_state(state):
    """A state of the same shapes, filled again by ``copy_into_rollout`` before every rollout
    (scratch arrays and per-phase caches are rebuilt before they are read)."""
    return copy_state(state)


@game_kernel
def copy_into_rollout(sim, state):
    """The game's arrays into the rollout state (not the event log, scratch or greedy caches:
    scratch is written before it is read, the caches are rebuilt by ``prepare_influence_phase``;
    the streams are re-keyed)."""
    copy_into(sim.game, state.game)
    sim.game[TRACE_ON] = 0
    copy_into(sim.side, state.side)
    copy_into_2d(sim.markers, state.markers)
    copy_into(sim.own_supply, state.own_supply)
    copy_into(sim.general_supply, state.general_supply)
    copy_into(sim.gold, state.gold)
    copy_into_2d(sim.tokens, state.tokens)
    copy_into(sim.token_pile, state.token_pile)
    copy_into_2d(sim.coats, state.coats)
    copy_into(sim.coat_pile, state.coat_pile)
    copy_into(sim.gold_sequence, state.gold_sequence)
    copy_into(sim.influence_deck, state.influence_deck)
    copy_into_2d(sim.influence_hand, state.influence_hand)
    copy_into(sim.intrigue_deck, state.intrigue_deck)
    copy_into_2d(sim.intrigue_hand, state.intrigue_hand)
    copy_into_2d(sim.mission_deck, state.mission_deck)
    copy_into(sim.mission_deck_head, state.mission_deck_head)
    copy_into(sim.mission_deck_count, state.mission_deck_count)
    copy_into_2d(sim.mission_hand, state.mission_hand)
    copy_into_2d(sim.mission_played, state.mission_played)
    copy_into_2d(sim.ability_count, state.ability_count)
    copy_into_2d(sim.uses_left, state.uses_left)
    copy_into_2d(sim.ability_uses, state.ability_uses)
    copy_into_2d(sim.stats, state.stats)
    copy_into_2d(sim.score_after_round, state.score_after_round)


@game_kernel
def run_rollouts(state, data, rules, sim, player, position, moves, rows, base, rollouts, family, table,
                 rollout_moves, rollout_options, courtier_rows, final, pool, counts, totals):
    """totals[c] = the sum of candidate c's score margins over ``rollouts`` rollouts."""
    for k in range(rollouts):
        for candidate in range(rows.shape[0]):
            totals[candidate] += rollout(state, data, rules, sim, player, position, moves[rows[candidate]],
                                         base, k, family, table, rollout_moves, rollout_options, courtier_rows,
                                         final, pool, counts)


@inline_game_kernel  # inlined: one compiled module less that links the whole game loop
def rollout(state, data, rules, sim, player, position, move, base, k, family, table, moves, options,
            courtier_rows, final, pool, counts):
    """Play ``move`` on a determinized copy ``sim`` of ``state``, then the game to its end with the
    greedy in every seat; returns the player's score margin."""
    copy_into_rollout(sim, state)
    rekey_streams(sim, base, k)
    redeal_hidden(sim, data, player, pool, counts)
    prepare_influence_phase(sim, data, family, table)
    apply_move(sim, data, player, move, GREEDY, table[player])
    finish_game(sim, data, rules, family, table, moves, options, courtier_rows, position)
    end_of_game(sim, data, rules, final)
    return score_margin(final, sim.game[N_PLAYERS], player)


@inline_game_kernel
def finish_game(sim, data, rules, family, table, moves, options, courtier_rows, position):
    """The game from just after the influence turn of the seat at ``position`` (this pass of
    §4.2 step 2) to its end: the rest of the pass, the further passes (influence_turns), the
    end of the phase, the rest of the round and the later rounds."""
    for later in range(position + 1, sim.game[N_PLAYERS]):
        seat = seat_order(sim, later)
        if hand_size(sim, seat) >= 2:
            rollout_take_influence_turn(sim, data, rules, seat, family[seat], table[seat], moves)
    rollout_influence_turns(sim, data, rules, family, table, moves)
    end_of_phase_placement(sim, data, family, table)
    return_cards_and_reshuffle(sim, data)
    round_number = sim.game[ROUND]
    finish_round(sim, data, rules, family, table, options, courtier_rows, 0, round_number)
    rollout_play_rounds_from(sim, data, rules, family, table, moves, options, courtier_rows, 0, round_number + 1)


@game_kernel
def score_margin(final, n_players, player):
    best_other = -(1 << 40)
    for other in range(n_players):
        if other != player and final[other] > best_other:
            best_other = final[other]
    return float(final[player] - best_other)


@game_kernel
def rekey_streams(sim, base, k):
    """Fresh, unknown randomness for rollout k: every stream keyed from (base, k, source)."""
    for source in range(sim.streams.shape[0]):
        sim.streams[source, 0] = splitmix64(base ^ splitmix64(np.uint64(k * sim.streams.shape[0] + source)))
        sim.streams[source, 1] = np.uint64(0)


@game_kernel
def redeal_hidden(sim, data, player, pool, counts):
    """Determinization (module docstring): deal everything ``player`` cannot see again, keeping
    every public count. The result depends only on the player's information."""
    source = C.SOURCE_SEARCH + player
    streams = sim.streams
    n_players = sim.game[N_PLAYERS]
    # influence cards: opponents' hands + the undrawn deck
    counts[:] = 0
    count_opponents_hands(sim.influence_hand, player, n_players, C.N_INFLUENCE_KINDS, counts)
    deck = sim.influence_deck
    for index in range(sim.game[INFLUENCE_POSITION], deck.shape[0]):
        counts[deck[index]] += 1
    size = pool_from_counts(counts, C.N_INFLUENCE_KINDS, pool)
    shuffle(streams, source, pool, size)
    dealt = deal_opponents_hands(sim.influence_hand, player, n_players, C.N_INFLUENCE_KINDS, pool, 0)
    for index in range(sim.game[INFLUENCE_POSITION], deck.shape[0]):
        deck[index] = pool[dealt]
        dealt += 1
    # intrigue cards: opponents' hands + the deck (a ring buffer)
    counts[:] = 0
    count_opponents_hands(sim.intrigue_hand, player, n_players, C.N_COURTIERS, counts)
    ring = sim.intrigue_deck
    head = sim.game[INTRIGUE_HEAD]
    in_deck = sim.game[INTRIGUE_COUNT]
    for offset in range(in_deck):
        counts[ring[(head + offset) % ring.shape[0]]] += 1
    size = pool_from_counts(counts, C.N_COURTIERS, pool)
    shuffle(streams, source, pool, size)
    dealt = deal_opponents_hands(sim.intrigue_hand, player, n_players, C.N_COURTIERS, pool, 0)
    for offset in range(in_deck):
        ring[(head + offset) % ring.shape[0]] = pool[dealt]
        dealt += 1
    # mission cards, per back colour: opponents' hands + that deck (a ring buffer)
    colour_of = data.mission_colour
    n_cards = colour_of.shape[0]
    capacity = sim.mission_deck.shape[1]
    for colour in range(C.N_MISSION_COLOURS):
        counts[:] = 0
        for other in range(n_players):
            if other != player:
                for card in range(n_cards):
                    if sim.mission_hand[other, card] == 1 and colour_of[card] == colour:
                        counts[card] = 1
        head = sim.mission_deck_head[colour]
        in_deck = sim.mission_deck_count[colour]
        for offset in range(in_deck):
            counts[sim.mission_deck[colour, (head + offset) % capacity]] = 1
        size = pool_from_counts(counts, n_cards, pool)
        shuffle(streams, source, pool, size)
        dealt = 0
        for other in range(n_players):
            if other != player:
                held = 0
                for card in range(n_cards):
                    if sim.mission_hand[other, card] == 1 and colour_of[card] == colour:
                        held += 1
                        sim.mission_hand[other, card] = 0
                for _ in range(held):
                    sim.mission_hand[other, pool[dealt]] = 1
                    dealt += 1
        for offset in range(in_deck):
            sim.mission_deck[colour, (head + offset) % capacity] = pool[dealt]
            dealt += 1
    # coats of arms: opponents' coats + the face-down pile (drawn from counts, so no order)
    n_kinds = sim.coat_pile.shape[0]
    kinds = counts[:n_kinds]
    for kind in range(n_kinds):
        kinds[kind] = sim.coat_pile[kind]
    count_opponents_hands(sim.coats, player, n_players, n_kinds, kinds)
    for other in range(n_players):
        if other != player:
            held = 0
            for kind in range(n_kinds):
                held += sim.coats[other, kind]
                sim.coats[other, kind] = 0
            for _ in range(held):
                kind = pick_by_counts(streams, source, kinds)
                kinds[kind] -= 1
                sim.coats[other, kind] += 1
    for kind in range(n_kinds):
        sim.coat_pile[kind] = kinds[kind]
    # gold cards not yet revealed (rounds after this one), from every card not revealed
    n_gold = data.gold_card_gold.shape[0]
    revealed = sim.game[ROUND]
    used = data.numbers[GOLD_CARDS_USED]
    counts[:] = 0
    for card in range(n_gold):
        counts[card] = 1
    for index in range(min(revealed, used)):
        counts[sim.gold_sequence[index]] = 0
    size = pool_from_counts(counts, n_gold, pool)
    shuffle(streams, source, pool, size)
    for index in range(revealed, used):
        sim.gold_sequence[index] = pool[index - revealed]
