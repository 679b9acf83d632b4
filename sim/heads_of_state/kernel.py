"""The chunk loop: one compiled call plays games first_game .. first_game+n_games-1, each from
its own random streams (seed, game index, source), and fills the output blocks of ``context``."""

from sim.core.kernels import game_kernel, kernel
from sim.core.random_streams import ONE, draw_at, index_below, seed_streams, stream_key, unit_float
from sim.heads_of_state.data import R_RANDOM_START_PLAYER
from sim.heads_of_state.decks import build_character_decks, setup_betrayal_deck
from sim.heads_of_state.events import (COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_ALTERNATIVE,
                                       COUNTERFACTUAL_AVAILABLE, COUNTERFACTUAL_OPTIONS, COUNTERFACTUAL_TURN,
                                       K_BETRAYAL_N, K_OVERFLOW, K_TRACE_N, DISPLAYS_DEALT, EV_GAME_END,
                                       EV_GAME_START, EV_ROUND_START, EV_SCORE, EV_STARTING_POINTS, K_STANDINGS_ON,
                                       K_TRACE_ON, trace, trace_displays)
from sim.heads_of_state.scoring import add_score, find_winners
from sim.heads_of_state.state import (N_STATS, N_RANKS, N_ROUNDS, N_SCORE_SOURCES, RNG_START_PLAYER,
                                      S_ACTIVE, S_GAME_INDEX, S_GAME_OVER, S_GAME_ROW, S_N_PLAYERS, S_ROUND,
                                      S_START_SEAT, SRC_START, clear_state)
from sim.heads_of_state.tables import (G_FIRST_START_SEAT, G_FIRST_WINNER, G_GAME_INDEX, G_N_PLAYERS, G_ROUND_END_STEP,
                                       G_REVOLUTION_POSITION, G_SEED, G_TURNS_ROUND, G_WINNER_MASK, G_WINNER_TIEBREAK,
                                       SE_BOT_FAMILY, SE_CARDS, SE_GAME_INDEX, SE_IS_WINNER, SE_NOBLES_LOST,
                                       SE_RAISED, SE_SCORE, SE_SCORE_AFTER, SE_SCORE_SRC, SE_SEAT, SE_STATS,
                                       SE_TURNS)
from sim.heads_of_state.standings import record_turn_standings
from sim.heads_of_state.turn import play_turn

MAX_TURNS = 5000   # safety net; a game has ~100-150 turns


@game_kernel
def choose_start_player(context, n_players, seed, game_index):
    """§3 step 11: "choose the start player at random": one draw of the game's own start-player
    source, so the draw shifts no other source's draws. Seat 0 with the rule switch
    random_start_player off (its other reading)."""
    if context.rules[R_RANDOM_START_PLAYER] == 0.0:
        return 0
    key = stream_key(seed, game_index, RNG_START_PLAYER)
    return index_below(unit_float(draw_at(key, ONE)), n_players)


@game_kernel
def setup_game(state, data, context, n_players, seed, game_index, row):
    """§3: empty board, noble card piles, decks, displays; the start player; round 1589."""
    clear_state(state)
    seed_streams(state.streams, seed, game_index)
    state.scal[S_N_PLAYERS] = n_players
    state.scal[S_GAME_ROW] = row
    state.scal[S_GAME_INDEX] = game_index
    start_seat = choose_start_player(context, n_players, seed, game_index)   # step 11
    state.scal[S_START_SEAT] = start_seat
    state.scal[S_ACTIVE] = start_seat
    state.scal[S_ROUND] = 0
    state.cards_left[:] = data.noble_cards_per_rank          # step 1
    for player in range(n_players):                          # step 9
        for r in range(N_RANKS):
            state.tiles[player, r] = data.tiles_per_rank[r]
    build_character_decks(state, data, context)                        # steps 2-5
    setup_betrayal_deck(state, data, context)                      # step 6
    trace(context.counters, context.trace, EV_GAME_START, n_players, game_index, seed)
    score_starting_points(state, data, context, n_players, start_seat)
    trace(context.counters, context.trace, EV_ROUND_START, 0, 0, 0)
    if context.counters[K_TRACE_ON] != 0:
        trace_displays(state, context, DISPLAYS_DEALT)


@game_kernel
def score_starting_points(state, data, context, n_players, start_seat):
    """A designer's start-player compensation (game file starting_points; all 0 in the printed
    game, which has only the first-turn takes of §4.1): points by place after the start player."""
    for place in range(n_players):
        points = data.starting_points[n_players, place]
        if points != 0:
            seat = (start_seat + place) % n_players
            add_score(state, seat, SRC_START, points)
            trace(context.counters, context.trace, EV_STARTING_POINTS, seat, points, 0)


@game_kernel
def play_game(state, data, context):
    """Turns until the 1789 revolution card (§5.3: exactly three rounds), with the standings
    after each when the run asked for them (standings.py). Returns False if the safety net
    tripped (never expected)."""
    for _ in range(MAX_TURNS):
        acting_seat = state.scal[S_ACTIVE]
        round_index = state.scal[S_ROUND]
        play_turn(state, data, context)
        if context.counters[K_STANDINGS_ON] != 0:
            record_turn_standings(state, data, context, acting_seat, round_index)
        if state.scal[S_GAME_OVER] != 0:
            return True
    return False


@game_kernel
def record_game(state, data, context, seed, row):
    n_players = state.scal[S_N_PLAYERS]
    mask, first, code = find_winners(state, context)
    g = context.games[row]
    g[G_GAME_INDEX] = state.scal[S_GAME_INDEX]
    g[G_SEED] = seed
    g[G_N_PLAYERS] = n_players
    g[G_WINNER_MASK] = mask
    g[G_FIRST_WINNER] = first
    g[G_WINNER_TIEBREAK] = code
    g[G_FIRST_START_SEAT] = state.scal[S_START_SEAT]
    for r in range(N_ROUNDS):
        g[G_TURNS_ROUND + r] = state.turns_round[r]
        g[G_ROUND_END_STEP + r] = state.round_step[r]
        g[G_REVOLUTION_POSITION + r] = state.rev_position[r]
    for player in range(n_players):
        s = context.seats[row * n_players + player]
        s[SE_GAME_INDEX] = state.scal[S_GAME_INDEX]
        s[SE_SEAT] = player
        s[SE_BOT_FAMILY] = context.bot_family[player]
        s[SE_SCORE] = state.score[player]
        for k in range(N_SCORE_SOURCES):
            s[SE_SCORE_SRC + k] = state.score_src[player, k]
        for r in range(N_ROUNDS):
            s[SE_SCORE_AFTER + r] = state.score_round[player, r]
        for r in range(N_RANKS):
            s[SE_RAISED + r] = state.raised[player, r]
        s[SE_NOBLES_LOST] = state.lost[player]
        for r in range(N_RANKS):
            s[SE_CARDS + r] = state.cards[player, r]
        for k in range(4):
            s[SE_TURNS + k] = state.options[player, k]
        for k in range(N_STATS):
            s[SE_STATS + k] = state.stats[player, k]
        held = 0
        for t in range(state.bhand.shape[1]):
            held += state.bhand[player, t]
        s[SE_STATS + N_STATS] = held
        s[SE_IS_WINNER] = 1 if mask & (1 << player) else 0
        trace(context.counters, context.trace, EV_SCORE, player, state.score[player], 0)
    trace(context.counters, context.trace, EV_GAME_END, mask, first, code)


@kernel
def play_chunk_kernel(state, data, context, n_players, seed, first_game, n_games):
    """Play a chunk of games in ``state`` (state.new_state: set up anew for each game); returns the
    number of games whose safety net tripped (0 expected)."""
    stuck = 0
    for row in range(n_games):
        setup_game(state, data, context, n_players, seed, first_game + row, row)
        if not play_game(state, data, context):
            stuck += 1
        record_game(state, data, context, seed, row)
    return stuck


@kernel
def play_counterfactuals_kernel(state, data, context, n_players, seed, game_index, turn, alternative, winner_mask,
                                acting_seat, available, n_options):
    """Request i: game ``game_index[i]`` played again from its start with ``alternative[i]`` at its
    ``turn[i]``-th turn (sim/heads_of_state/counterfactual.py); fills the i-th entry of each result
    vector (acting_seat -1: the game had fewer turns). ``context`` holds one game's output rows:
    each replay writes them anew (betrayal rows past its capacity are counted, not written, and
    change nothing in the game). Returns the number of games whose safety net tripped."""
    stuck = 0
    for request in range(game_index.shape[0]):
        context.counters[K_BETRAYAL_N] = 0
        context.counters[K_TRACE_N] = 0
        context.counters[K_OVERFLOW] = 0
        context.counterfactual[:] = 0
        context.counterfactual[COUNTERFACTUAL_TURN] = turn[request]
        context.counterfactual[COUNTERFACTUAL_ALTERNATIVE] = alternative[request]
        context.counterfactual[COUNTERFACTUAL_ACTING_SEAT] = -1
        setup_game(state, data, context, n_players, seed, game_index[request], 0)
        if not play_game(state, data, context):
            stuck += 1
        mask, _, _ = find_winners(state, context)
        winner_mask[request] = mask
        acting_seat[request] = context.counterfactual[COUNTERFACTUAL_ACTING_SEAT]
        available[request] = context.counterfactual[COUNTERFACTUAL_AVAILABLE]
        n_options[request] = context.counterfactual[COUNTERFACTUAL_OPTIONS]
    context.counterfactual[:] = 0
    return stuck
