"""The search bot (family SEARCH): determinized flat Monte Carlo at the influence turn.

At every influence turn (§4.2 step 2: which card, and where to place or how many to retrieve;
LB-SKIP, B-CARDSWAP and DB-PLACE4 turns included) the bot lists the legal turns and ranks them by
its greedy's own turn score (``score_listed_turns``, without its noise). The candidates are the
greedy's best ``max_candidates`` whose score is within ``search_margin`` of the greedy's best:
a decision with a clear greedy favourite (no other turn within the margin) is not searched, the
favourite is played without a rollout (and without a draw from the search stream). Each candidate
is then played out from copies of the state, and the bot picks the candidate with the best mean
**margin** (own value minus the best opponent's value): a margin rewards winning by more and
losing by less, which separates candidates with fewer rollouts than a 0/1 win count. Ties go to
the candidate the greedy prefers. Every other decision (resources abilities, intrigue cards,
bribes, Condé, Maintenon, missions, token swaps, ...) is the greedy's, with the bot's own greedy
parameters (a search bot's vector is the greedy parameters followed by ``SEARCH_PARAMETERS``,
parameters.py).

How far a rollout plays (``rollout_rounds``): the rest of the current round (the influence phase,
the evaluation, the missions), and ``rollout_rounds - 1`` further rounds. A rollout that reaches the
end of the game scores the final scores (§7); one that stops earlier scores the position
(``position_value``): each player's standing (coats and completed missions, as recorded after
every round) plus the worth of what he holds, in points. That worth is the ``stop_value_*``
parameters times his markers in his own supply (the general supply counts 0), his own markers
lying on courtiers, his gold, intrigue and influence cards, crowns and other tokens, plus
``stop_value_mission_ability`` per played mission card and round still to play (its ability;
its 5 points are in the standing). Their defaults are fitted to greedy play (parameters.py): what
a holding after rounds 1-3 added to the final score, on average. ``held_weight`` adds the
greedy's own valuation (``value_crown``, ``value_token`` plus ``value_needed_token`` for a token a
mission card in hand needs, ``value_gold``, ``value_intrigue_card``, ``value_influence_card``,
``value_coat`` per marker on a courtier, ``value_marker`` per marker in the own supply), which
undervalues markers, gold and tokens by about half as a score estimate. ``rollout_rounds = 0``
plays every rollout to the end of the game.

How many rollouts (``rollouts``, ``halving``): without halving every candidate is played out
``rollouts`` times. With successive halving the candidates still in are played out ``rollouts``
times each, then the worse half (by their mean margin so far, which the common random numbers
make a paired comparison; on equal margins the one the greedy likes less goes) is dropped, and
so on until one is left: the budget goes to the close contenders.

The defaults (measured for issue 13, the final message of branch lx_search): every influence
turn with two or more legal turns is searched (a greedy score margin was tried and lost
strength: the search often overturns a clear greedy favourite), the greedy's best 6 turns, one
rollout each to the end of the round, then halving (6 -> 3 -> 2 -> 1: 11 rollouts in all; more
candidates with fewer rollouts each measured stronger than fewer candidates). The search of issue 13's start (``configs/bots/louis_xiv/search_classic.yaml``) is the
parameter setting ``search_margin = 1000``, ``rollout_rounds = 0`` (to the end of the game),
``halving = 0``, 8 rollouts x 6 candidates.

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

Compilation: the rules' dispatcher (decide.choose_influence_turn) calls
:func:`search_influence_turn` through the address of its compiled entry, which the engine looks
up only for a chunk with a search bot (sim/core/compiled_calls.py): the game loop of every other
chunk neither compiles nor links the search, and the compiled call graph has no cycle
dispatcher -> search -> rollout -> dispatcher, which numba's cache could not reload. A rollout
plays the same rules functions as the game loop (the influence turns, the end of the phase,
``finish_round``), with greedy bots in every seat, so it never asks for a search itself.

Compilation: :func:`search_influence_turn` and its helpers allocate (the rollout state and
buffers, once per decision), so they are ``allocating_kernel``s, compiled with numba's reference
counting switched on explicitly (they are called from ``game_kernel`` code compiled without it). The
rollouts themselves (:func:`run_rollouts` down) allocate nothing and are ``game_kernel``s;
``rollout`` and ``finish_game`` are inlined into ``run_rollouts``, as every compiled function that
calls the game loop re-optimizes all of it when it is finalized (compile time).
"""
import numpy as np

from sim.core.compiled_calls import compiled_entry
from sim.core.determinization import (best_rows, count_opponents_hands, count_unseen_cards, deal_opponents_hands,
                                      deal_unseen_cards, pool_from_counts, rekey_streams)
from sim.core.kernels import allocating_kernel, copy_into, copy_into_2d, game_kernel, inline_game_kernel
from sim.core.random_streams import next_u64, pick_by_counts, shuffle
from sim.louis_xiv import constants as C
from sim.louis_xiv import tables as R
from sim.louis_xiv.data import GOLD_CARDS_USED, ROUNDS
from sim.louis_xiv.decisions import MOVE_CAPACITY, MOVE_WIDTH, OPTION_CAPACITY, OPTION_WIDTH, new_move_buffer
from sim.louis_xiv.data import IMAGINARY_PLACEMENT
from sim.louis_xiv.influence import (apply_move, end_of_phase_placement, imaginary_player_placement,
                                     influence_phase, influence_turns, return_cards_and_reshuffle,
                                     take_influence_turn)
from sim.louis_xiv.kernel import finish_round
from sim.louis_xiv.resources import resources_phase
from sim.louis_xiv.scoring import end_of_game
from sim.louis_xiv.state import (IMAGINARY_ACTIVE, INFLUENCE_POSITION, INTRIGUE_COUNT, INTRIGUE_HEAD, MAX_MISSIONS,
                                 N_PLAYERS, ROUND, START_SEAT, TRACE_ON, COUNTERFACTUAL_TURN, copy_state,
                                 hand_size, seat_order)
from sim.louis_xiv.turn_options import list_turn_options
from strategies.louis_xiv.decide import prepare_influence_phase
from strategies.louis_xiv.greedy import score_listed_turns
from strategies.louis_xiv.position import position_value  # noqa: F401 - the search's position value (module docstring)
from strategies.louis_xiv.parameters import (GREEDY, HALVING, MAX_CANDIDATES, ROLLOUT_ROUNDS, ROLLOUTS,
                                             SEARCH_MARGIN)

N_COURTIER_COLUMNS = len(R.COURTIER_COLUMNS)


def search_entry(state, data, rules, params):
    """(address, type tag) of :func:`search_influence_turn` compiled for these types (or loaded
    from numba's cache): what the engine stores in ``state.search_entry`` for a chunk with a
    search bot (module docstring, "Compilation")."""
    return compiled_entry(search_influence_turn, (state, data, rules, 0, new_move_buffer(), params[0]))


@allocating_kernel
def search_influence_turn(state, data, rules, player, moves, params):
    """Row of ``moves`` (listed here) that seat ``player``'s search plays as its influence turn."""
    n_moves = list_turn_options(state, data, rules, player, moves)
    if n_moves <= 1:
        return 0
    scores = np.empty(n_moves)
    score_listed_turns(state, data, player, moves, n_moves, params, scores)
    ranked = best_rows(scores, n_moves, int(params[MAX_CANDIDATES]))
    rows = ranked[:close_candidates(scores, ranked, params[SEARCH_MARGIN])]
    rollouts = int(params[ROLLOUTS])
    if rows.shape[0] == 1 or rollouts < 1:
        return rows[0]   # a clear greedy favourite: no rollout, no draw
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
    alive = np.ones(rows.shape[0], np.bool_)
    position = (player - state.game[START_SEAT]) % state.game[N_PLAYERS]
    last_round = rollout_last_round(state.game[ROUND], data.numbers[ROUNDS], int(params[ROLLOUT_ROUNDS]))
    run_rollouts(state, data, rules, sim, player, position, moves, rows, base, rollouts, int(params[HALVING]),
                 last_round, family, table, rollout_moves, rollout_options, courtier_rows, final, pool, counts,
                 totals, alive)
    return rows[np.argmax(totals)]   # the first of equal totals, as the greedy's order has it


@game_kernel
def close_candidates(scores, ranked, margin):
    """How many of the ``ranked`` turns (best first) score within ``margin`` of the best: the
    candidates worth a search (1: a clear favourite)."""
    count = 1
    while count < ranked.shape[0] and scores[ranked[count]] >= scores[ranked[0]] - margin:
        count += 1
    return count


@game_kernel
def rollout_last_round(round_number, n_rounds, rollout_rounds):
    """The last round a rollout plays: ``rollout_rounds`` rounds counting the current one, or the
    last round of the game (``rollout_rounds`` 0, or the game ends sooner)."""
    if rollout_rounds <= 0:
        return n_rounds
    return min(n_rounds, round_number + rollout_rounds - 1)


@allocating_kernel
def new_rollout_state(state):
    """A state of the same shapes, filled again by ``copy_into_rollout`` before every rollout
    (scratch arrays and per-phase caches are rebuilt before they are read); without the game's
    counterfactual request, which concerns the game's own turns, never a rollout's."""
    sim = copy_state(state)
    sim.counterfactual[COUNTERFACTUAL_TURN] = 0
    return sim


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
def run_rollouts(state, data, rules, sim, player, position, moves, rows, base, rollouts, halving, last_round,
                 family, table, rollout_moves, rollout_options, courtier_rows, final, pool, counts, totals, alive):
    """totals[c] = the sum of candidate c's margins over its rollouts. Without ``halving`` every
    candidate has ``rollouts``; with it, batches of ``rollouts`` per candidate still in, the worse
    half dropped after each, until one is left (the dropped ones' totals become -inf). Rollout k
    is the same imagined future for every candidate (common random numbers)."""
    n_alive = rows.shape[0]
    k = 0
    while True:
        for _ in range(rollouts):
            for candidate in range(rows.shape[0]):
                if alive[candidate]:
                    totals[candidate] += rollout(state, data, rules, sim, player, position, moves[rows[candidate]],
                                                 base, k, last_round, family, table, rollout_moves, rollout_options,
                                                 courtier_rows, final, pool, counts)
            k += 1
        if halving == 0 or n_alive <= 1:
            break
        kept = (n_alive + 1) // 2
        drop_worst(totals, alive, n_alive - kept)
        n_alive = kept
        if n_alive == 1:
            break
    for candidate in range(rows.shape[0]):
        if not alive[candidate]:
            totals[candidate] = -np.inf


@game_kernel
def drop_worst(totals, alive, count):
    """Drop the ``count`` candidates still in with the lowest totals (all have had the same
    rollouts); of equal totals the later one, which the greedy ranks lower."""
    for _ in range(count):
        worst = -1
        for candidate in range(totals.shape[0]):
            if alive[candidate] and (worst < 0 or totals[candidate] <= totals[worst]):
                worst = candidate
        alive[worst] = False


@inline_game_kernel  # inlined: one compiled module less that links the whole game loop
def rollout(state, data, rules, sim, player, position, move, base, k, last_round, family, table, moves, options,
            courtier_rows, final, pool, counts):
    """Play ``move`` on a determinized copy ``sim`` of ``state``, then the game to the end of
    ``last_round`` with the greedy in every seat; returns the player's margin: of the final
    scores at the end of the game, of ``position_value`` before it."""
    copy_into_rollout(sim, state)
    rekey_streams(sim.streams, base, k)
    redeal_hidden(sim, data, player, pool, counts)
    prepare_influence_phase(sim, data, family, table)
    apply_move(sim, data, player, move, GREEDY, table[player])
    finish_game(sim, data, rules, family, table, moves, options, courtier_rows, position, last_round)
    if last_round >= data.numbers[ROUNDS]:
        end_of_game(sim, data, rules, final)
        return score_margin(final, sim.game[N_PLAYERS], player)
    return position_margin(sim, data, player, table[player])


@inline_game_kernel
def finish_game(sim, data, rules, family, table, moves, options, courtier_rows, position, last_round):
    """The game from just after the influence turn of the seat at ``position`` (this pass of
    §4.2 step 2) to the end of round ``last_round``: the rest of the pass, the further passes
    (influence_turns), the end of the phase, the rest of the round and the later rounds."""
    for later in range(position + 1, sim.game[N_PLAYERS]):
        seat = seat_order(sim, later)
        if hand_size(sim, seat) >= 2:
            take_influence_turn(sim, data, rules, seat, family[seat], table[seat], moves)
    influence_turns(sim, data, rules, family, table, moves)
    end_of_phase_placement(sim, data, family, table)
    if sim.game[IMAGINARY_ACTIVE] != 0 and data.numbers[IMAGINARY_PLACEMENT] != 0:
        imaginary_player_placement(sim, data)   # a variant's imaginary player places at the phase's end
    return_cards_and_reshuffle(sim, data)
    round_number = sim.game[ROUND]
    row = finish_round(sim, data, rules, family, table, options, courtier_rows, 0, round_number)
    # the later rounds, as the game loop (kernel.play_rounds_from) plays them
    for later_round in range(round_number + 1, last_round + 1):
        sim.game[ROUND] = later_round
        resources_phase(sim, data, rules, family, table)
        influence_phase(sim, data, rules, family, table, moves)
        row += finish_round(sim, data, rules, family, table, options, courtier_rows, row, later_round)


@game_kernel
def score_margin(final, n_players, player):
    best_other = -(1 << 40)
    for other in range(n_players):
        if other != player and final[other] > best_other:
            best_other = final[other]
    return float(final[player] - best_other)


@game_kernel
def position_margin(state, data, player, params):
    """The player's ``position_value`` minus the best opponent's (all valued with the searching
    bot's parameters: its model of the table)."""
    best_other = -np.inf
    for other in range(state.game[N_PLAYERS]):
        if other != player:
            best_other = max(best_other, position_value(state, data, other, params))
    return position_value(state, data, player, params) - best_other


@game_kernel
def redeal_hidden(sim, data, player, pool, counts):
    """Determinization (module docstring): deal everything ``player`` cannot see again, keeping
    every public count. The result depends only on the player's information."""
    source = C.SOURCE_SEARCH + player
    streams = sim.streams
    n_players = sim.game[N_PLAYERS]
    # influence cards: opponents' hands + the undrawn deck
    deck = sim.influence_deck
    first = sim.game[INFLUENCE_POSITION]
    count_unseen_cards(sim.influence_hand, player, n_players, C.N_INFLUENCE_KINDS, deck, first, deck.shape[0], counts)
    size = pool_from_counts(counts, C.N_INFLUENCE_KINDS, pool)
    shuffle(streams, source, pool, size)
    deal_unseen_cards(sim.influence_hand, player, n_players, C.N_INFLUENCE_KINDS, deck, first, deck.shape[0], pool)
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
