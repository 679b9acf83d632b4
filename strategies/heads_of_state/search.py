"""The search bot (family SEARCH): determinized Monte Carlo rollouts at the main decisions.

At the turn option (§4.0: 1a / 1b / 2, and the Q3 first-turn choice), at every character-card
take (§4.1, §4.2, §4.4 step 1) and at every betrayal play (§4.4 step 2) the bot keeps the
``max_candidates`` rows its greedy values most, and for each candidate plays ``rollouts``
imagined continuations from a copy of the state. It picks the candidate with the best mean
**score margin** (own score minus the best opponent's score, §6): a margin rewards winning by
more and losing by less, which separates candidates with fewer rollouts than a 0/1 win count.
Ties go to the candidate the greedy prefers. Every other decision (raises, payments, refills,
discards, betrayal takes) is the greedy's, with the bot's own greedy parameters.

Which decisions are searched (issue 13: most of them need no rollouts):

* ``distinct_takes`` = 1: display cards of the same type are one take candidate (either take
  leaves the same cards in hand and on the display, only in other slots), so the candidates
  are distinct takes and no rollouts are spent on a duplicate.
* ``clear_lead`` > 0: a take or betrayal play whose greedy favourite is worth at least
  ``clear_lead`` more than the runner-up (greedy.take_value / bplay_value) is the greedy's, not
  searched. The turn option is always searched (the greedy gives its options no values).

How far a rollout plays (the main cost):

* ``horizon`` = 0: to the end of the game, scored by the final margin (the pre-issue-13 search).
* ``horizon`` = h > 0: the searched turn, then at most h turns of every player (h x players
  turns); with ``stop_at_round_end`` = 1 it also stops when a round ends (the revolution card,
  §5, right after the round-end scoring). A rollout that stops before the end of the game is
  scored by :func:`position_values`: each seat's score, plus the round-end influence points
  (§6.4) it would take if the round ended now, counted once for the coming round-end scoring and
  ``future_rounds_weight`` times for each later one (nobles stay on the board across rounds),
  plus the noble-card majority points (§6.5) of the cards held now (cards are never lost), plus
  ``held_card_value`` per character card in hand (cards not yet turned into nobles). The margin
  is the seat's value minus the best opponent's.

Rollouts do not cheat (H12). Before each rollout the copy is *determinized*: everything the
searching seat cannot see -- the opponents' character and betrayal hands (their sizes are public),
the order and content of the regular, revolution and betrayal decks -- is pooled and dealt again
at random, the revolution card staying in the revolution deck at a random place. The public
zones (displays, discard piles, set-aside pile, board) and the seat's own hands are kept. (Cards an
opponent was seen taking from a display are not tracked: the redeal treats his hand as unknown.)
Every random stream of the copy is re-keyed as well, so a rollout does not know the real future
deck shuffles or assassin-bag draws.

Within a rollout every seat plays the greedy with the searching bot's greedy parameters (its
model of the table). Rollout ``k`` uses the same redeal and streams for every candidate (common
random numbers: the candidates are compared on the same imagined futures).

Randomness and reproducibility: one draw per searched decision from the seat's own search stream
(``RNG_SEARCH_0 + seat``, state.py) keys all its rollouts, so the real game's other streams are
untouched and results are identical across chunkings. A decision the greedy settles (one
candidate, or a clear lead) draws nothing. Rollouts run in a plain ``Ctx`` with its own move
buffer and scratch, so the real decision's ``context.moves`` and output tables are untouched.

Compilation: decide.choose calls :func:`search_choose` through the address of its compiled entry
(``context.counters[K_SEARCH_FN]``, set by engine.make_ctx only for a chunk with a search bot;
sim/core/compiled_calls.py), so no other chunk compiles the search, the compiled call graph has
no cycle, and the rollouts play the same compiled rules engine as every chunk.
:func:`search_choose` and its helpers allocate (the rollout state, context and pools, once per
decision), so they are ``allocating_kernel`` functions, compiled with numba's reference counting
switched on explicitly (sim/core/kernels.py). The rollouts themselves (:func:`run_rollouts` down)
are ``game_kernel`` functions that allocate nothing.
"""
import numpy as np

from sim.core.determinization import (best_rows, count_unseen_cards, deal_unseen_cards, pool_from_counts,
                                      rekey_streams)
from sim.core.kernels import allocating_kernel, game_kernel
from sim.core.random_streams import next_u64, shuffle
from sim.heads_of_state.betrayal import continue_betrayal_plays
from sim.heads_of_state.decisions import D_BPLAY, D_OPTION, D_TAKE
from strategies.heads_of_state.greedy import bplay_value, greedy_choose, open_rank_mask, payable_ranks, take_value
from strategies.heads_of_state.parameters import (
    GREEDY, P_CLEAR_LEAD, P_DISTINCT_TAKES,
    P_HORIZON, P_MAX_CANDIDATES, P_ROLLOUTS, P_STOP_AT_ROUND_END)
from sim.heads_of_state.events import (COUNTERFACTUAL_WIDTH, K_FORCED, MAX_MOVES, N_COUNTERS, N_WORK_ROWS, W_HEX_KEY,
                                       W_INFLUENCE, W_TOP_RANK, WORK_WIDTH, Ctx)
from sim.heads_of_state.kernel import play_game
from sim.heads_of_state.state import (N_CHAR_TYPES, N_COUNTRIES, N_ROUNDS, REVOLUTION,
                                      RNG_SEARCH_0, S_BDECK_N, S_DECK_N, S_GAME_OVER, S_GAME_ROW,
                                      S_N_PLAYERS, S_OPTION, S_REV_N, S_ROUND, copy_state, copy_state_into)
from sim.heads_of_state.tables import N_B, N_C, N_ST
from strategies.heads_of_state.position import position_values  # the search's position value (module docstring)
from sim.heads_of_state.turn import (finish_turn, finish_turn_after_take, play_option, play_turn, step_of_option,
                                     take_character_card)

@allocating_kernel
def search_choose(state, data, context, player, kind, n):
    """Row (0..n-1) of ``context.moves`` chosen by seat p's search at a decision point of ``kind``."""
    params = context.bot_params[player]
    rollouts = int(params[P_ROLLOUTS])
    if (kind != D_OPTION and kind != D_TAKE and kind != D_BPLAY) or rollouts < 1:
        return greedy_choose(state, data, context, player, kind, n)
    rows = candidate_rows(state, data, context, player, kind, n, params)
    if rows.shape[0] == 1:
        return rows[0]
    options = np.empty(rows.shape[0], np.int64)
    for c in range(rows.shape[0]):
        options[c] = context.moves[rows[c], 0]       # D_OPTION rows hold the option code
    base = next_u64(state.streams, RNG_SEARCH_0 + player)
    imagined_context = rollout_context(context, state.scal[S_N_PLAYERS], params)
    imagined = copy_state(state)
    char_pool = np.empty(state.deck.shape[0] + state.rev.shape[0] + state.hand.sum(), np.int64)
    betrayal_pool = np.empty(state.bdeck.shape[0] + state.bhand.sum(), np.int64)
    counts = np.empty(max(N_CHAR_TYPES, state.bhand.shape[1]), np.int64)
    totals = np.zeros(rows.shape[0])
    run_rollouts(state, data, imagined_context, imagined, player, kind, rows, options, base, rollouts, char_pool, betrayal_pool,
                 counts, totals)
    return rows[np.argmax(totals)]   # the first of equal totals, as the greedy's order has it


@allocating_kernel
def candidate_rows(state, data, context, player, kind, n, params):
    """Up to ``max_candidates`` rows, best greedy value first (the greedy's own choice leads);
    only the greedy's row when its lead is clear (``clear_lead``); one row per card type of the
    display with ``distinct_takes``."""
    moves = context.moves
    values = np.zeros(n)
    if kind == D_OPTION:
        values[greedy_choose(state, data, context, player, kind, n)] = 1.0
        return best_rows(values, n, int(params[P_MAX_CANDIDATES]))
    if kind == D_TAKE:
        open_mask = open_rank_mask(state, data, player)
        for i in range(n):
            values[i] = take_value(state.hand, data.recipe, data.recipe_size, open_mask, params, player, moves[i, 0], moves[i, 1])
    else:
        payable = payable_ranks(state, data, player)
        for i in range(n):
            values[i] = bplay_value(state, data, params, payable, moves[i, 0], moves[i, 1])
    count = n
    if kind == D_TAKE and params[P_DISTINCT_TAKES] != 0.0:
        count = drop_duplicate_takes(moves, n, state.display.shape[0], values)
    rows = best_rows(values, n, min(count, int(params[P_MAX_CANDIDATES])))
    clear_lead = params[P_CLEAR_LEAD]
    if rows.shape[0] > 1 and clear_lead > 0.0 and values[rows[0]] - values[rows[1]] >= clear_lead:
        return rows[:1]
    return rows


@game_kernel
def drop_duplicate_takes(moves, n, display_size, values):
    """Moves every display row whose card type an earlier display row shows behind all others
    (value -inf, listing order kept) and returns the number of distinct rows. Taking either of two
    equal display cards gives the same hand and the same display but for the slots."""
    count = n
    for i in range(n):
        slot = moves[i, 0]
        if slot < 0 or slot >= display_size:
            continue
        for j in range(i):
            if 0 <= moves[j, 0] < display_size and moves[j, 1] == moves[i, 1]:
                values[i] = -np.inf
                count -= 1
                break
    return count


@allocating_kernel
def rollout_context(context, n_players, params):
    """Every seat greedy with the searching bot's parameters; own moves, scratch and small output
    blocks (a rollout writes betrayal rows past the end -- ignored -- and one game's country rows;
    it records no standings)."""
    family = np.full(n_players, GREEDY, np.int64)
    seat_params = np.empty((n_players, context.bot_params.shape[1]))
    for seat in range(n_players):
        seat_params[seat, :] = params
    return Ctx(
        context.rules, family, seat_params, np.zeros((MAX_MOVES, 4), np.int64),
        context.games, context.seats, np.zeros((1, N_B), np.int64),
        np.zeros((N_ROUNDS * N_COUNTRIES, N_C), np.int64), np.zeros(N_COUNTERS, np.int64),
        np.zeros(1, np.int64), np.zeros((N_WORK_ROWS, WORK_WIDTH), np.int64), np.zeros(WORK_WIDTH),
        np.zeros((N_ST, 1), np.int32), np.zeros((1, 1), np.float32), np.zeros(1),   # records no standings (counters 0)
        np.zeros(COUNTERFACTUAL_WIDTH, np.int64),   # a rollout never plays the game's counterfactual request
    )


@game_kernel
def run_rollouts(state, data, imagined_context, imagined, player, kind, rows, options, base, rollouts, char_pool, betrayal_pool,
                 counts, totals):
    """totals[c] = the sum of candidate c's score margins over ``rollouts`` rollouts."""
    params = imagined_context.bot_params[player]
    horizon = int(params[P_HORIZON])
    stop_at_round_end = params[P_STOP_AT_ROUND_END] != 0.0
    for k in range(rollouts):
        for c in range(rows.shape[0]):
            play_candidate(state, data, imagined_context, imagined, player, kind, rows[c], options[c], base, k, char_pool,
                           betrayal_pool, counts)
            totals[c] += play_on(imagined, data, imagined_context, player, params, horizon, stop_at_round_end)


@game_kernel
def play_candidate(state, data, imagined_context, imagined, player, kind, row, option, base, k, char_pool, betrayal_pool,
                   counts):
    """Rollout k's determinized copy ``imagined`` of ``state`` with candidate ``row`` played to the
    end of the searched turn."""
    copy_state_into(imagined, state)
    rekey_streams(imagined.streams, base, k)
    redeal_hidden(imagined, player, char_pool, betrayal_pool, counts)
    imagined.scal[S_GAME_ROW] = 0                     # the rollout context holds one game's rows
    imagined_context.counters[:] = 0
    if kind == D_OPTION:
        play_option(imagined, data, imagined_context, player, option)
    elif kind == D_TAKE:
        imagined_context.counters[K_FORCED] = row + 1         # the take list is rebuilt identically (public)
        if take_character_card(imagined, data, imagined_context, player, step_of_option(imagined.scal[S_OPTION])):
            if finish_turn_after_take(imagined, data, imagined_context, player):
                finish_turn(imagined, data, imagined_context, player)
    else:
        imagined_context.counters[K_FORCED] = row + 1
        continue_betrayal_plays(imagined, data, imagined_context, player, 0)
        finish_turn(imagined, data, imagined_context, player)


@game_kernel
def play_on(imagined, data, imagined_context, player, params, horizon, stop_at_round_end):
    """p's score margin after the rest of the rollout: the final margin when the game ends, else
    the margin of position_values (horizon reached, or the round ended with stop_at_round_end)."""
    if imagined.scal[S_GAME_OVER] == 0:
        if horizon == 0 and not stop_at_round_end:
            play_game(imagined, data, imagined_context)        # the pre-issue-13 search
        else:
            play_truncated(imagined, data, imagined_context, horizon, stop_at_round_end)
    if imagined.scal[S_GAME_OVER] != 0:
        return score_margin(imagined, player)
    return evaluated_margin(imagined, data, imagined_context, player, params)


@game_kernel
def play_truncated(imagined, data, imagined_context, horizon, stop_at_round_end):
    """At most ``horizon`` turns of every player (0 = no limit), stopping at the end of the game
    or, with stop_at_round_end, at the end of the round."""
    round_now = imagined.scal[S_ROUND]
    turns = horizon * imagined.scal[S_N_PLAYERS] if horizon > 0 else 1 << 30
    for _ in range(turns):
        if imagined.scal[S_GAME_OVER] != 0 or (stop_at_round_end and imagined.scal[S_ROUND] != round_now):
            return
        play_turn(imagined, data, imagined_context)


@game_kernel
def score_margin(state, player):
    best_other = -1 << 40
    for q in range(state.scal[S_N_PLAYERS]):
        if q != player and state.score[q] > best_other:
            best_other = state.score[q]
    return float(state.score[player] - best_other)


@game_kernel
def evaluated_margin(state, data, context, player, params):
    """p's value minus the best opponent's value (position_values, with p's parameters)."""
    values = context.fwork
    position_values(state, data, context, params, values)
    best_other = -1e300
    for q in range(state.scal[S_N_PLAYERS]):
        if q != player and values[q] > best_other:
            best_other = values[q]
    return values[player] - best_other


@game_kernel
def redeal_hidden(imagined, player, char_pool, betrayal_pool, counts):
    """Determinization: deal everything p cannot see again, keeping every public count (hand
    sizes, deck sizes, the revolution card in the revolution deck, §3 step 4). The result depends
    only on p's information, so scrambling the hidden zones beforehand changes nothing."""
    source = RNG_SEARCH_0 + player
    n_players = imagined.scal[S_N_PLAYERS]
    # character cards: opponents' hands + regular deck + revolution deck (less the revolution card)
    count_unseen_cards(imagined.hand, player, n_players, N_CHAR_TYPES, imagined.deck, 0, imagined.scal[S_DECK_N], counts)
    n_rev = imagined.scal[S_REV_N]
    has_revolution = False
    for i in range(n_rev):
        if imagined.rev[i] == REVOLUTION:
            has_revolution = True
        else:
            counts[imagined.rev[i]] += 1
    k = pool_from_counts(counts, N_CHAR_TYPES, char_pool)
    shuffle(imagined.streams, source, char_pool, k)
    k = deal_unseen_cards(imagined.hand, player, n_players, N_CHAR_TYPES, imagined.deck, 0, imagined.scal[S_DECK_N],
                          char_pool)
    n_plain = n_rev - 1 if has_revolution else n_rev
    for i in range(n_plain):
        imagined.rev[i] = char_pool[k]
        k += 1
    if has_revolution:
        imagined.rev[n_plain] = REVOLUTION
        shuffle(imagined.streams, source, imagined.rev, n_rev)
    # betrayal cards: opponents' betrayal hands + betrayal deck
    n_types = imagined.bhand.shape[1]
    n_deck = imagined.scal[S_BDECK_N]
    count_unseen_cards(imagined.bhand, player, n_players, n_types, imagined.bdeck, 0, n_deck, counts)
    k = pool_from_counts(counts, n_types, betrayal_pool)
    shuffle(imagined.streams, source, betrayal_pool, k)
    deal_unseen_cards(imagined.bhand, player, n_players, n_types, imagined.bdeck, 0, n_deck, betrayal_pool)


