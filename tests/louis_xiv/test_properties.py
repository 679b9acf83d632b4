"""Invariants over thousands of random games (hypothesis picks seeds, player counts and mixes of
random / greedy bots; each example plays a few hundred compiled games through ENGINE.play_chunk,
or plays games phase by phase and checks the state after every phase: sim/louis_xiv/invariants.py)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.louis_xiv import constants as C
from sim.louis_xiv import tables as R
from sim.louis_xiv.engine import ENGINE, bot_arrays
from sim.louis_xiv.invariants import conservation_violations, play_phase_by_phase
from sim.louis_xiv.kernel import play_game
from sim.louis_xiv.decisions import MOVE_CAPACITY, MOVE_WIDTH, OPTION_CAPACITY, OPTION_WIDTH
from sim.louis_xiv.state import new_state

GAMES_PER_EXAMPLE = 500
FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])

player_counts = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
bot_mixes = st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4)


def play_many(n_players, bot_names, seed, n_games=GAMES_PER_EXAMPLE, first_game=0):
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot(name) for name in bot_names[:n_players]]
    return ENGINE.play_chunk(setup, n_players, bots, seed, first_game, n_games)


def as_int(table):
    return {name: np.asarray(column).astype(np.int64) for name, column in table.items() if name != "bot"}


# ---------------------------------------------------------------- seats table

@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_sixteen_markers_per_player_conserved(n_players, bot_names, seed):
    seats = as_int(play_many(n_players, bot_names, seed)["seats"])
    total = seats["own_supply"] + seats["general_supply"] + seats["markers_on_courtiers"]
    assert (total == 16).all()
    assert (seats["own_supply"] >= 0).all() and (seats["general_supply"] >= 0).all()


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_no_negative_gold_and_score_is_coats_plus_five_per_mission(n_players, bot_names, seed):
    tables = play_many(n_players, bot_names, seed)
    seats, games = as_int(tables["seats"]), as_int(tables["games"])
    assert (seats["gold"] >= 0).all() and (seats["gold"] < 3).all()    # full 3 gold became coats
    missions = seats["missions_light"] + seats["missions_blue"] + seats["missions_dark"]
    assert (seats["score"] == seats["coats"] + 5 * missions).all()
    assert (seats["tokens_left"] == 0).all() and (seats["influence_cards_left"] == 0).all()
    assert (seats["intrigue_cards_left"] == 0).all()
    # the winner has the most points; ties on points are broken by the own supply
    score = seats["score"].reshape(-1, n_players)
    own = seats["own_supply"].reshape(-1, n_players)
    winner = seats["is_winner"].reshape(-1, n_players)
    assert (games["winning_score"] == score.max(axis=1)).all()
    # coats handed out never exceed the 60 tiles plus the virtual ones counted as exhaustion (Q14)
    coats = seats["coats"].reshape(-1, n_players).sum(axis=1)
    assert (coats <= 60 + games["exhausted_coats"]).all()
    assert ((coats < 60) | (games["exhausted_coats"] >= coats - 60)).all()
    for game in range(score.shape[0]):
        top = score[game] == score[game].max()
        best_own = own[game][top].max()
        assert (winner[game] == (top & (own[game] == best_own))).all()


# ---------------------------------------------------------------- courtiers table

@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_no_flips_in_round_4_and_louis_only_on_courtiers_1_to_4_once_per_round(n_players, bot_names, seed):
    courtiers = as_int(play_many(n_players, bot_names, seed)["courtiers"])
    rounds, number, louis = courtiers["round"], courtiers["courtier"], courtiers["louis"]
    assert (courtiers["flipped"][rounds == 4] == 0).all()
    assert (number[louis == 1] <= 4).all()
    per_round = louis.reshape(-1, 12).sum(axis=1)       # rows come 12 per (game, round)
    assert (per_round == 1).all()
    assert (number.reshape(-1, 12) == np.arange(1, 13)).all()
    assert ((courtiers["louis_case"] != 0) == (louis == 1)).all()


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_courtier_rows_follow_the_evaluation_rules(n_players, bot_names, seed):
    """§4.3.1-4.3.5 re-derived from each row: who gets the gift, who may bribe, flips, sides."""
    c = as_int(play_many(n_players, bot_names, seed, n_games=200)["courtiers"])
    markers = np.stack([c[f"markers_seat_{s}"] for s in range(4)], axis=1)
    present = markers[:, :n_players] > 0
    present_mask = (present * (1 << np.arange(n_players))).sum(axis=1)
    assert (markers[:, n_players:] == -1).all()
    if n_players > 2:
        assert (c["markers_imaginary"] == 0).all()
    else:
        assert (c["markers_imaginary"] >= 0).all()
    louis = c["louis"] == 1
    threshold = (c["mode"] == C.THRESHOLD_MODE) & ~louis
    plain = ~louis & ~threshold
    # bribes: only on gold sides, only players with markers there, never a player who got the gift
    assert (c["bribe_mask"][c["mode"] != C.GOLD_MODE] == 0).all()
    assert ((c["bribe_mask"] & ~present_mask) == 0).all()
    assert ((c["bribe_mask"] & c["free_mask"]) == 0).all()
    second_bit = np.where(c["second_seat"] >= 0, 1 << np.maximum(c["second_seat"], 0), 0)
    assert ((c["bribe_mask"] & second_bit) == 0).all()
    # threshold: everyone at or above the threshold, all markers home, flip iff someone received
    reached = ((markers[:, :n_players] >= c["value"][:, None]) & present) * (1 << np.arange(n_players))
    assert (c["free_mask"][threshold] == reached.sum(axis=1)[threshold]).all()
    assert (c["to_general_mask"][threshold] == 0).all()
    # gold / first without Louis: the sole top holder (a real player) gets it, flip iff sole top
    top = c["top_seat"]
    real_top = (top >= 0) & (top < 4)
    expected_free = np.where(real_top, 1 << np.maximum(top, 0), 0)
    assert (c["free_mask"][plain] == expected_free[plain]).all()
    assert (c["to_general_mask"][plain] == expected_free[plain]).all()
    # flips: never in round 4; else Louis always (Q2), threshold iff received, else iff sole top
    early = c["round"] < 4
    expected_flip = np.where(louis, 1, np.where(threshold, c["free_mask"] != 0, top >= 0)) & early
    assert (c["flipped"] == expected_flip).all()
    # a flipped tile shows its other side next round; round 1 starts on side A
    side = c["side"].reshape(-1, 4, 12)
    flipped = c["flipped"].reshape(-1, 4, 12)
    assert (side[:, 0] == 0).all()
    assert (side[:, 1:] == side[:, :-1] ^ flipped[:, :-1]).all()


@FEW
@given(bot_names=bot_mixes, seed=seeds)
def test_chunking_does_not_change_results(bot_names, seed):
    whole = play_many(3, bot_names, seed, n_games=40)
    parts = [play_many(3, bot_names, seed, n_games=20, first_game=first) for first in (0, 20)]
    for table in ("games", "seats", "courtiers"):
        for name, column in whole[table].items():
            joined = np.concatenate([part[table][name] for part in parts])
            assert (np.asarray(column) == joined).all(), (table, name)


# ---------------------------------------------------------------- state level, phase by phase

@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_tokens_coats_missions_markers_conserved_after_every_phase(n_players, bot_names, seed):
    setup = ENGINE.load_setup()
    families, params = bot_arrays([ENGINE.resolve_bot(name) for name in bot_names[:n_players]])
    for game_index in range(15):
        state, scores, rows, violations = play_phase_by_phase(setup, n_players, families, params, seed, game_index)
        assert violations == []
        # the phase-by-phase game is the kernel's game (same seed, same streams)
        kernel_state = new_state(setup.data)
        kernel_scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
        kernel_rows = np.zeros_like(rows)
        play_game(kernel_state, setup.data, setup.rules, n_players, seed, game_index, families, params,
                  np.zeros((MOVE_CAPACITY, MOVE_WIDTH), dtype=np.int64),
                  np.zeros((OPTION_CAPACITY, OPTION_WIDTH), dtype=np.int64), kernel_rows, 0, kernel_scores, 0)
        assert (scores == kernel_scores).all() and (rows == kernel_rows).all()
        assert conservation_violations(kernel_state, n_players) == []


# ---------------------------------------------------------------- rule switches

@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_strict_supplies_nothing_is_created_from_nothing(n_players, bot_names, seed):
    """Q14 with strict_supplies: an empty pile or bank gives nothing, so tokens, coats and gold
    are conserved exactly."""
    setup = ENGINE.load_setup(rule_overrides={"strict_supplies": True})
    families, params = bot_arrays([ENGINE.resolve_bot(name) for name in bot_names[:n_players]])
    state = new_state(setup.data)
    rows = np.zeros((4 * C.N_COURTIERS, len(R.COURTIER_COLUMNS)), dtype=np.int32)
    for game_index in range(60):
        scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
        play_game(state, setup.data, setup.rules, n_players, seed, game_index, families, params,
                  np.zeros((MOVE_CAPACITY, MOVE_WIDTH), dtype=np.int64),
                  np.zeros((OPTION_CAPACITY, OPTION_WIDTH), dtype=np.int64), rows, 0, scores, 0)
        assert state.coats.sum() + state.coat_pile.sum() == 60
        assert state.tokens.sum() + state.token_pile.sum() == 34
        assert 0 <= state.gold[:n_players].sum() <= 72 and (state.gold >= 0).all()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_louis_empty_tile_does_not_flip_with_switch_off_over_many_games(n_players, bot_names, seed):
    setup = ENGINE.load_setup(rule_overrides={"louis_empty_tile_flips": False})
    bots = [ENGINE.resolve_bot(name) for name in bot_names[:n_players]]
    c = as_int(ENGINE.play_chunk(setup, n_players, bots, seed, 0, 300)["courtiers"])
    louis = (c["louis"] == 1) & (c["round"] < 4)
    empty_case = c["louis_case"] == R.LOUIS_CASE_NAMES.index("E")
    assert (c["flipped"][louis & empty_case] == 0).all()
    assert (c["flipped"][louis & ~empty_case] == 1).all()
