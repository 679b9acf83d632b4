"""The ``search`` bot (strategies/heads_of_state/search.py): reproducible, reads no hidden
information, searches only the decisions the greedy does not settle, scores truncated rollouts
the way its docstring says, plays as the pre-issue-13 search with the classic parameters, and
beats greedy and random on a small seeded experiment."""
from pathlib import Path

import numpy as np

from sim.core.determinization import rekey_streams
from sim.heads_of_state import events as ev
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.replay import decode_events
from sim.heads_of_state.kernel import setup_game
from sim.heads_of_state.state import (OPT_1A, OPT_1B, OPT_2, REVOLUTION, RNG_SEARCH_0, S_ACTIVE, S_BDECK_N, S_DECK_N,
                                      S_GAME_OVER, S_N_PLAYERS, S_REV_N, S_ROUND, S_TURN, copy_state, new_state)
from sim.heads_of_state.turn import play_turn
from strategies.bots import resolve_bots
from strategies.heads_of_state import resolve_bot
from sim.heads_of_state.decisions import D_OPTION, D_TAKE
from strategies.heads_of_state.search import candidate_rows, play_truncated, position_values, redeal_hidden, search_choose

GOLDEN = Path(__file__).parent / "golden"
BOTS = Path(__file__).resolve().parents[2] / "configs" / "bots" / "heads_of_state"
FAST_SEARCH = {"rollouts": 2, "max_candidates": 3}
CLASSIC = {"horizon": 0, "stop_at_round_end": 0, "clear_lead": 0.0, "distinct_takes": 0}


def mid_game(setup, game, turns, bots, n_players=4):
    data = setup.data
    context = ENGINE.make_ctx(setup, n_players, bots, betrayal_capacity=1000)
    state = new_state(data)
    setup_game(state, data, context, n_players, np.uint64(3), game, 0)
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


def win_rate(setup, search_bot, opponent, n_games, seed, n_players=3):
    """Search bot's win rate with the search seat rotated through every seat (a shared win counts
    as a fraction)."""
    wins = 0.0
    for seat in range(n_players):
        bots = [ENGINE.resolve_bot(opponent)] * n_players
        bots[seat] = search_bot
        run = ENGINE.play_chunk(setup, n_players, bots, seed + seat, 0, n_games)
        mask = run["games"]["winner_mask"]
        n_winners = np.array([bin(int(m)).count("1") for m in mask])
        wins += (((mask >> seat) & 1) / n_winners).sum()
    return wins / (n_players * n_games)


# --- reproducibility and hidden information ---------------------------------------------------------
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


def test_determinization_redeals_only_what_is_hidden(setup):
    state, _ = mid_game(setup, 1, 30, [ENGINE.resolve_bot("greedy")] * 4)
    player = int(state.scal[S_ACTIVE])
    deals = []
    for k in range(4):
        sim = copy_state(state)
        rekey_streams(sim.streams, np.uint64(12345), k)
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


def search_decisions(setup, state, context, player):
    """The search's option and take decisions in ``state`` (the display's takes and the deck)."""
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


def test_search_decisions_ignore_hidden_information(setup):
    """Scrambling the hidden cards before a search decision leaves the decision unchanged: the
    determinization pools the unseen cards in a canonical order, so it cannot depend on them.
    Checked for the default search (truncated rollouts) and the classic one (to the end)."""
    rng = np.random.default_rng(1)
    for overrides in (FAST_SEARCH, {**FAST_SEARCH, **CLASSIC}):
        bots = [resolve_bot("search", overrides)] * 4
        for game in range(3):
            state, _ = mid_game(setup, game, 14 + 9 * game, [ENGINE.resolve_bot("greedy")] * 4)
            context = ENGINE.make_ctx(setup, 4, bots, betrayal_capacity=1000)
            player = int(state.scal[S_ACTIVE])
            scrambled = scramble_hidden(state, player, rng)
            assert search_decisions(setup, scrambled, context, player) == search_decisions(setup, state, context, player)


# --- which decisions are searched ---------------------------------------------------------------------
def take_rows(state, context):
    """The take rows of §4.2 (display slots, then the deck) written into context.moves; their count."""
    n = 0
    for slot, card in enumerate(state.display):
        if card >= 0:
            context.moves[n, :2] = (slot, card)
            n += 1
    context.moves[n, :2] = (-1, -1)
    return n + 1


def greedy_take_lead(setup, state, context, player, n):
    """(greedy's row, its value minus the best other distinct take's value)."""
    from strategies.heads_of_state.greedy import open_rank_mask, take_value
    params = context.bot_params[player]
    mask = open_rank_mask(state, setup.data, player)
    values = [take_value(state.hand, setup.data.recipe, setup.data.recipe_size, mask, params, player,
                         context.moves[i, 0], context.moves[i, 1]) for i in range(n)]
    best = int(np.argmax(values))
    others = [v for i, v in enumerate(values)
              if i != best and not (context.moves[i, 0] >= 0 and context.moves[i, 1] == context.moves[best, 1])]
    return best, values[best] - max(others)


def test_a_take_with_a_clear_greedy_favourite_is_not_searched(setup):
    """clear_lead: a take whose greedy favourite leads the next distinct take by at least
    clear_lead is the greedy's take, found without a rollout (no draw from the search stream);
    a smaller lead is searched."""
    for game in range(12):
        state, _ = mid_game(setup, game, 10, [ENGINE.resolve_bot("greedy")] * 4)
        player = int(state.scal[S_ACTIVE])
        context = ENGINE.make_ctx(setup, 4, [resolve_bot("search", FAST_SEARCH)] * 4, betrayal_capacity=1000)
        n = take_rows(state, context)
        best, lead = greedy_take_lead(setup, state, context, player, n)
        if lead > 0.05:
            break
    assert lead > 0.05
    params = context.bot_params[player].copy()
    params[resolve_bot("search").parameter_names.index("distinct_takes")] = 1
    clear_lead = resolve_bot("search").parameter_names.index("clear_lead")
    params[clear_lead] = lead
    assert candidate_rows(state, setup.data, context, player, D_TAKE, n, params).tolist() == [best]
    params[clear_lead] = lead + 0.01
    assert len(candidate_rows(state, setup.data, context, player, D_TAKE, n, params)) > 1
    context.bot_params[player, clear_lead] = lead
    before = copy_state(state)
    assert search_choose(state, setup.data, context, player, D_TAKE, n) == best
    assert np.array_equal(state.streams, before.streams)          # no rollouts, no draw


def test_equal_display_cards_are_one_take_candidate(setup):
    """distinct_takes: of display cards of one type only the first slot is a candidate (either
    take leaves the same hand and display); 0 lists every row."""
    state, _ = mid_game(setup, 0, 10, [ENGINE.resolve_bot("greedy")] * 4)
    player = int(state.scal[S_ACTIVE])
    state.display[:] = [1, 1, 2, 3, 3, 3]
    context = ENGINE.make_ctx(setup, 4, [resolve_bot("search", FAST_SEARCH)] * 4, betrayal_capacity=1000)
    n = take_rows(state, context)
    params = context.bot_params[player].copy()
    names = resolve_bot("search").parameter_names
    params[names.index("max_candidates")] = 32
    params[names.index("clear_lead")] = 0.0
    params[names.index("distinct_takes")] = 1
    rows = candidate_rows(state, setup.data, context, player, D_TAKE, n, params)
    assert sorted(int(context.moves[row, 0]) for row in rows) == [-1, 0, 2, 3]
    params[names.index("distinct_takes")] = 0
    assert sorted(candidate_rows(state, setup.data, context, player, D_TAKE, n, params).tolist()) == list(range(n))


# --- truncated rollouts -----------------------------------------------------------------------------
def test_a_truncated_rollout_plays_horizon_turns_of_every_player(setup):
    """horizon h: h turns of every player after the searched turn (fewer only if the game ends);
    stop_at_round_end: no further turn once the round has ended."""
    state, context = mid_game(setup, 2, 20, [ENGINE.resolve_bot("greedy")] * 4)
    imagined = copy_state(state)
    play_truncated(imagined, setup.data, context, 2, False)
    assert imagined.scal[S_TURN] - state.scal[S_TURN] == 2 * 4
    imagined = copy_state(state)
    play_truncated(imagined, setup.data, context, 0, True)
    by_hand = copy_state(state)
    while by_hand.scal[S_ROUND] == state.scal[S_ROUND]:
        play_turn(by_hand, setup.data, context)
    assert imagined.scal[S_ROUND] == state.scal[S_ROUND] + 1
    assert imagined.scal[S_TURN] == by_hand.scal[S_TURN]     # the turn in which the round ended was the last


def test_a_stopped_rollout_is_scored_as_the_docstring_says(position):
    """position_values: score + influence places if the round ended now (x (1 + future_rounds_weight
    x later rounds)) + noble-card majorities of the cards held now + held_card_value x cards in hand."""
    from sim.heads_of_state.state import DUKE, EARL, KING
    from strategies.heads_of_state.search import evaluated_margin
    pos = position(3)
    pos.place(0, "FR_CAP.upper", "king")        # FR: seat 0 first (4 influence): 10 points
    pos.place(1, "FR_P1.upper", "duke")         # FR: seat 1 second (2): 2 points
    pos.place(1, "GB_IRL.upper", "earl")        # GB: seat 1 alone: 8 points
    state = pos.state
    state.score[:3] = [5, 7, 20]
    state.cards[0, KING] = 1                    # king majority: seat 0, 16
    state.cards[1, DUKE] = 1                    # duke: seat 1, 12
    state.cards[1, EARL] = state.cards[2, EARL] = 1   # earl: two tied, 4 each
    state.hand[0, 0] = 3
    state.hand[2, 1] = 5
    params = resolve_bot("search", {"held_card_value": 1.5, "future_rounds_weight": 0.5}).params
    values = np.zeros(16)
    state.scal[S_ROUND] = 0                     # 1589: two later rounds, influence x 2
    position_values(state, pos.data, pos.context, params, values)
    assert values[:3].tolist() == [5 + 1.5 * 3 + 2 * 10 + 16, 7 + 2 * (2 + 8) + 12 + 4, 20 + 1.5 * 5 + 4]
    assert evaluated_margin(state, pos.data, pos.context, 0, params) == 45.5 - 43.0
    state.scal[S_ROUND] = 2                     # 1789: only this round's scoring
    position_values(state, pos.data, pos.context, params, values)
    assert values[:3].tolist() == [5 + 1.5 * 3 + 10 + 16, 7 + 2 + 8 + 12 + 4, 20 + 1.5 * 5 + 4]


# --- the classic search and strength ------------------------------------------------------------------
def test_search_classic_is_the_pre_issue_13_search(setup):
    """configs/bots/heads_of_state/search_classic.yaml: rollouts to the end of the game at every
    searched decision, 16 rollouts of the greedy's best 3 candidates. With these values (and a
    budget of 1 rollout of 2 candidates, for time) the search plays exactly the games the
    pre-issue-13 code played: the golden traces hos_*p_search_classic_seed17_game0.txt were
    recorded with it (commit 127973c, ``ENGINE.replay(setup, n, [search(rollouts=1,
    max_candidates=2)] + [greedy] * (n - 1), 17, 0)``); they must never be regenerated. They
    were recorded with seat 0 starting every game (random_start_player off, the default then)
    and before the replay logged the displays (EV_DISPLAYS, issue 37), so both are left out here."""
    classic = resolve_bots("heads-of-state", ["search_classic"])[0]
    assert classic.family_name == "search"
    assert np.array_equal(classic.params, resolve_bot("search", {**CLASSIC, "rollouts": 16, "max_candidates": 3}).params)
    seat_0_starts = ENGINE.load_setup(rule_overrides={"random_start_player": False})
    for n_players in (2, 3):
        bots = [resolve_bot("search", {**CLASSIC, "rollouts": 1, "max_candidates": 2})]
        bots += [resolve_bot("greedy")] * (n_players - 1)
        events = ENGINE.trace_events(seat_0_starts, n_players, bots, 17, 0)
        events = events[events[:, 0] != ev.EV_DISPLAYS]
        text = "\n".join(decode_events(events, seat_0_starts.description, [b.name for b in bots])) + "\n"
        assert text == (GOLDEN / f"hos_{n_players}p_search_classic_seed17_game0.txt").read_text()


def test_search_beats_greedy_and_random(setup):
    """Default search, 3 players, the search seat rotated: more than the third of the wins that
    would make it no better than its greedy opponents (measured 0.42, 95% interval 0.33-0.53, on
    90 games), and nearly every game against random."""
    bot = resolve_bot("search")
    vs_greedy = win_rate(setup, bot, "greedy", 20, 100)
    vs_random = win_rate(setup, bot, "random", 4, 100)
    assert vs_greedy > 1 / 3, vs_greedy
    assert vs_random > 0.8, vs_random
