"""Scoring (§6): immediate tokens (§6.1 hexagon, §6.2 square, §6.3 large round), round-end
influence (§6.4), final noble-card majorities (§6.5) and the winner (§6.6).
"""
import numpy as np
from numba import njit

from sim.core.random_streams import uniform
from sim.heads_of_state.data import R_LARGE_TOKEN_BY_CARDS
from sim.heads_of_state.events import EV_HEXAGON, EV_LARGE, EV_MAJORITY, EV_SQUARE, trace
from sim.heads_of_state.state import (CAPITAL, N_RANKS, RNG_TIEBREAK, S_LARGE_NEXT, S_N_PLAYERS,
                                      SRC_ALL_RANKS, SRC_COUNTRY, SRC_HEXAGON, SRC_NOBLE_MAJORITY)

# influence tie-break levels (§6.4 key levels 2..4); -1 = no contest, 0 = influence alone
TB_NO_CONTEST, TB_INFLUENCE, TB_HIGHEST_RANK, TB_HEXAGON, TB_UNRESOLVED = -1, 0, 1, 2, 3


@njit(cache=True)
def add_score(st, p, source, points):
    st.score[p] += points
    st.score_src[p, source] += points


@njit(cache=True)
def take_hexagon_token(st, d, cx, p, region):
    """§6.1: the first noble raised in a region takes its hexagon token."""
    if st.hex_owner[region] < 0:
        st.hex_owner[region] = p
        add_score(st, p, SRC_HEXAGON, d.region_hex[region])
        trace(cx, EV_HEXAGON, p, region, d.region_hex[region])


@njit(cache=True)
def has_noble_in_region(st, d, p, region):
    """§6.2 condition for one region: a living noble in a box or a dead tile on the hexagon."""
    for b in range(2):
        box = d.region_box[region, b]
        if box >= 0 and st.box_owner[box] == p:
            return True
    for r in range(N_RANKS):
        if st.dead[p, region, r] > 0:
            return True
    return False


@njit(cache=True)
def take_square_token(st, d, cx, p, country):
    """§6.2: first/second player with a noble (alive or dead) in every region of the country takes the
    higher/lower square token and takes back his dead tiles from that country's hexagons."""
    if st.square_owner[p, country] != 0 or st.square_next[country] >= 2:
        return
    for i in range(d.country_nreg[country]):
        if not has_noble_in_region(st, d, p, d.country_regions[country, i]):
            return
    points = d.square_tokens[country, st.square_next[country]]
    st.square_next[country] += 1
    st.square_owner[p, country] = 1
    add_score(st, p, SRC_COUNTRY, points)
    returned = 0
    for i in range(d.country_nreg[country]):
        region = d.country_regions[country, i]
        for r in range(N_RANKS):
            st.tiles[p, r] += st.dead[p, region, r]
            returned += st.dead[p, region, r]
            st.dead[p, region, r] = 0
    trace(cx, EV_SQUARE, p, country, points * 100 + returned)


@njit(cache=True)
def take_large_token(st, d, cx, p):
    """§6.3: first/second/third player to have raised all 7 ranks (Q17 switch: hold a card of each)."""
    n_players = st.scal[S_N_PLAYERS]
    if st.large_owner[p] != 0 or st.scal[S_LARGE_NEXT] >= d.large_n[n_players]:
        return
    by_cards = cx.rules[R_LARGE_TOKEN_BY_CARDS] != 0.0
    for r in range(N_RANKS):
        have = st.cards[p, r] if by_cards else st.raised[p, r]
        if have == 0:
            return
    points = d.large_tokens[n_players, st.scal[S_LARGE_NEXT]]
    st.scal[S_LARGE_NEXT] += 1
    st.large_owner[p] = points
    add_score(st, p, SRC_ALL_RANKS, points)
    trace(cx, EV_LARGE, p, points, 0)


@njit(cache=True)
def country_influence(st, d, country, infl, top_rank, best_hex, hex_key):
    """§6.4 inputs for one country: influence per seat (living nobles only), highest living rank
    (-1 none), best hexagon value with a living noble (-1 none) and the hexagon key (Q19)."""
    for p in range(infl.shape[0]):
        infl[p] = 0
        top_rank[p] = -1
        best_hex[p] = -1
        hex_key[p] = 0
    for i in range(d.country_nreg[country]):
        region = d.country_regions[country, i]
        base = d.base_influence[1 if d.region_type[region] == CAPITAL else 0]
        upper = d.region_box[region, 0]
        lower = d.region_box[region, 1]
        n_alive = 0
        for b in range(2):
            box = d.region_box[region, b]
            if box >= 0 and st.box_owner[box] >= 0:
                n_alive += 1
        # which living noble is the "higher" one: the higher rank; equal ranks -> upper box (Q32/Q36)
        high_box = -1
        if n_alive == 2:
            high_box = upper if st.box_rank[upper] >= st.box_rank[lower] else lower
        for b in range(2):
            box = d.region_box[region, b]
            if box < 0 or st.box_owner[box] < 0:
                continue
            p = st.box_owner[box]
            if n_alive == 1 or box == high_box:
                infl[p] += base          # alone (Q37) or the higher noble: full value
            else:
                infl[p] += base // 2     # the lower of two nobles: half
            if st.box_rank[box] > top_rank[p]:
                top_rank[p] = st.box_rank[box]
            hexv = d.region_hex[region]
            if hexv > best_hex[p]:
                best_hex[p] = hexv
        # hexagon key: count each region once per seat
        for p in range(infl.shape[0]):
            here = False
            for b in range(2):
                box = d.region_box[region, b]
                if box >= 0 and st.box_owner[box] == p:
                    here = True
            if here:
                hex_key[p] += d.hex_key_base ** d.region_hex[region]


@njit(cache=True)
def tiebreak_level(infl, top_rank, hex_key, a, b):
    """The §6.4 key level at which seats a and b (a ordered first) differ."""
    if infl[a] != infl[b]:
        return TB_INFLUENCE
    if top_rank[a] != top_rank[b]:
        return TB_HIGHEST_RANK
    if hex_key[a] != hex_key[b]:
        return TB_HEXAGON
    return TB_UNRESOLVED


@njit(cache=True)
def rank_country(st, n_players, infl, top_rank, hex_key, order):
    """§6.4 step 3: candidates (influence > 0) sorted by (influence, highest rank, hexagon key,
    seeded random) descending. Writes seats into ``order``; returns the number of candidates."""
    n = 0
    noise = np.zeros(n_players, np.float64)
    for p in range(n_players):
        if infl[p] > 0:
            order[n] = p
            n += 1
    # residual-tie noise is drawn for every candidate (level 4, RNG_TIEBREAK stream)
    for i in range(n):
        noise[order[i]] = uniform(st.streams, RNG_TIEBREAK)
    for i in range(1, n):          # insertion sort, n <= 5
        j = i
        while j > 0:
            a = order[j - 1]
            b = order[j]
            better = False
            if infl[b] != infl[a]:
                better = infl[b] > infl[a]
            elif top_rank[b] != top_rank[a]:
                better = top_rank[b] > top_rank[a]
            elif hex_key[b] != hex_key[a]:
                better = hex_key[b] > hex_key[a]
            else:
                better = noise[b] > noise[a]
            if not better:
                break
            order[j - 1] = b
            order[j] = a
            j -= 1
    return n


@njit(cache=True)
def noble_card_majorities(st, d, cx):
    """§6.5: per rank, the sole leader scores the full value, exactly two tied leaders half each,
    three or more tied nobody; a leader needs at least one card (Q21)."""
    n_players = st.scal[S_N_PLAYERS]
    for r in range(N_RANKS):
        best = 0
        n_best = 0
        for p in range(n_players):
            if st.cards[p, r] > best:
                best = st.cards[p, r]
                n_best = 1
            elif st.cards[p, r] == best and best > 0:
                n_best += 1
        if best == 0 or n_best > 2:
            continue
        points = d.majority_points[r] if n_best == 1 else d.majority_points[r] // 2
        for p in range(n_players):
            if st.cards[p, r] == best:
                add_score(st, p, SRC_NOBLE_MAJORITY, points)
                trace(cx, EV_MAJORITY, p, r, points)


@njit(cache=True)
def find_winners(st):
    """§6.6: highest score; ties broken by king cards, then archduke cards ... baron cards (Q22);
    still tied -> shared win. Returns (winner bitmask, first winner seat, tiebreak code)."""
    n_players = st.scal[S_N_PLAYERS]
    best = st.score[:n_players].max()
    mask = 0
    n = 0
    for p in range(n_players):
        if st.score[p] == best:
            mask |= 1 << p
            n += 1
    code = 0
    if n > 1:
        code = 1
        for r in range(N_RANKS - 1, -1, -1):
            top = -1
            for p in range(n_players):
                if mask & (1 << p) and st.cards[p, r] > top:
                    top = st.cards[p, r]
            new_mask = 0
            for p in range(n_players):
                if mask & (1 << p) and st.cards[p, r] == top:
                    new_mask |= 1 << p
            mask = new_mask
        n = 0
        for p in range(n_players):
            if mask & (1 << p):
                n += 1
        if n > 1:
            code = 2
    first = -1
    for p in range(n_players):
        if mask & (1 << p):
            first = p
            break
    return mask, first, code
