"""Scoring (§6): immediate tokens (§6.1 hexagon, §6.2 square, §6.3 large round), round-end
influence (§6.4), final noble-card majorities (§6.5) and the winner (§6.6).
"""

from sim.core.kernels import game_kernel
from sim.core.random_streams import uniform
from sim.heads_of_state.data import R_INFLUENCE_HEXAGON_TIEBREAK, R_LARGE_TOKEN_BY_CARDS, R_WINNER_TIEBREAK
from sim.heads_of_state.events import (EV_HEXAGON, EV_LARGE, EV_MAJORITY, EV_SQUARE, W_BEST_HEX, W_HEX_KEY, W_INFLUENCE,
                                       W_TOP_RANK, trace)
from sim.heads_of_state.state import (CAPITAL, N_RANKS, RNG_TIEBREAK, S_LARGE_NEXT, S_N_PLAYERS,
                                      SRC_ALL_RANKS, SRC_COUNTRY, SRC_HEXAGON, SRC_NOBLE_MAJORITY)

# influence tie-break levels (§6.4 key levels 2..4); -1 = no contest, 0 = influence alone
TB_NO_CONTEST, TB_INFLUENCE, TB_HIGHEST_RANK, TB_HEXAGON, TB_UNRESOLVED = -1, 0, 1, 2, 3


@game_kernel
def add_score(state, player, source, points):
    state.score[player] += points
    state.score_src[player, source] += points


@game_kernel
def take_hexagon_token(state, data, context, player, region):
    """§6.1: the first noble raised in a region takes its hexagon token."""
    if state.hex_owner[region] < 0:
        state.hex_owner[region] = player
        add_score(state, player, SRC_HEXAGON, data.region_hex[region])
        trace(context.counters, context.trace, EV_HEXAGON, player, region, data.region_hex[region])


@game_kernel
def has_noble_in_region(state, data, player, region):
    """§6.2 condition for one region: a living noble in a box or a dead tile on the hexagon."""
    region_box = data.region_box
    box_owner = state.box_owner
    dead = state.dead
    for b in range(2):
        box = region_box[region, b]
        if box >= 0 and box_owner[box] == player:
            return True
    for r in range(N_RANKS):
        if dead[player, region, r] > 0:
            return True
    return False


@game_kernel
def take_square_token(state, data, context, player, country):
    """§6.2: first/second player with a noble (alive or dead) in every region of the country takes the
    higher/lower square token and takes back his dead tiles from that country's hexagons."""
    if state.square_owner[player, country] != 0 or state.square_next[country] >= 2:
        return
    country_regions = data.country_regions
    for i in range(data.country_nreg[country]):
        if not has_noble_in_region(state, data, player, country_regions[country, i]):
            return
    points = data.square_tokens[country, state.square_next[country]]
    state.square_next[country] += 1
    state.square_owner[player, country] = 1
    add_score(state, player, SRC_COUNTRY, points)
    returned = 0
    tiles = state.tiles
    dead = state.dead
    for i in range(data.country_nreg[country]):
        region = country_regions[country, i]
        for r in range(N_RANKS):
            tiles[player, r] += dead[player, region, r]
            returned += dead[player, region, r]
            dead[player, region, r] = 0
    trace(context.counters, context.trace, EV_SQUARE, player, country, points * 100 + returned)


@game_kernel
def take_large_token(state, data, context, player):
    """§6.3: first/second/third player to have raised all 7 ranks (Q17 switch: hold a card of each)."""
    n_players = state.scal[S_N_PLAYERS]
    if state.large_owner[player] != 0 or state.scal[S_LARGE_NEXT] >= data.large_n[n_players]:
        return
    have_ranks = state.cards if context.rules[R_LARGE_TOKEN_BY_CARDS] != 0.0 else state.raised
    for r in range(N_RANKS):
        have = have_ranks[player, r]
        if have == 0:
            return
    points = data.large_tokens[n_players, state.scal[S_LARGE_NEXT]]
    state.scal[S_LARGE_NEXT] += 1
    state.large_owner[player] = points
    add_score(state, player, SRC_ALL_RANKS, points)
    trace(context.counters, context.trace, EV_LARGE, player, points, 0)


@game_kernel
def country_influence_as_ruled(state, data, context, country):
    """§6.4 steps 1 and 3 for one country: country_influence into the scratch rows W_INFLUENCE,
    W_TOP_RANK, W_BEST_HEX and W_HEX_KEY of ``context``, with the Q19 switch applied: under its
    other reading (influence_hexagon_tiebreak) level 3 compares only the best hexagon. The
    round-end scoring and the search's position value both rank countries by this."""
    infl = context.work[W_INFLUENCE]
    top_rank = context.work[W_TOP_RANK]
    best_hex = context.work[W_BEST_HEX]
    hex_key = context.work[W_HEX_KEY]
    country_influence(state, data, country, infl, top_rank, best_hex, hex_key)
    if context.rules[R_INFLUENCE_HEXAGON_TIEBREAK] != 0.0:
        for player in range(state.scal[S_N_PLAYERS]):
            hex_key[player] = best_hex[player]


@game_kernel
def country_influence(state, data, country, infl, top_rank, best_hex, hex_key):
    """§6.4 inputs for one country: influence per seat (living nobles only), highest living rank
    (-1 none), best hexagon value with a living noble (-1 none) and the hexagon key (Q19)."""
    box_owner = state.box_owner
    box_rank = state.box_rank
    region_box = data.region_box
    region_hex = data.region_hex
    country_regions = data.country_regions
    for player in range(infl.shape[0]):
        infl[player] = 0
        top_rank[player] = -1
        best_hex[player] = -1
        hex_key[player] = 0
    for i in range(data.country_nreg[country]):
        region = country_regions[country, i]
        base = data.base_influence[1 if data.region_type[region] == CAPITAL else 0]
        hexv = region_hex[region]
        upper = region_box[region, 0]
        lower = region_box[region, 1]
        alive_upper = box_owner[upper] >= 0
        alive_lower = lower >= 0 and box_owner[lower] >= 0
        # the "higher" of two living nobles: the higher rank; equal ranks -> upper box (Q32/Q36)
        high_box = upper
        if alive_upper and alive_lower and box_rank[lower] > box_rank[upper]:
            high_box = lower
        both = alive_upper and alive_lower
        seen = 0   # seats already counted in this region (hexagon key counts a region once)
        for b in range(2):
            box = region_box[region, b]
            if box < 0 or box_owner[box] < 0:
                continue
            player = box_owner[box]
            if not both or box == high_box:
                infl[player] += base          # alone (Q37) or the higher noble: full value
            else:
                infl[player] += base // 2     # the lower of two nobles: half
            if box_rank[box] > top_rank[player]:
                top_rank[player] = box_rank[box]
            if hexv > best_hex[player]:
                best_hex[player] = hexv
            if (seen >> player) & 1 == 0:
                seen |= 1 << player
                hex_key[player] += data.region_hex_key[region]


@game_kernel
def tiebreak_level(infl, top_rank, hex_key, a, b):
    """The §6.4 key level at which seats a and b (a ordered first) differ."""
    if infl[a] != infl[b]:
        return TB_INFLUENCE
    if top_rank[a] != top_rank[b]:
        return TB_HIGHEST_RANK
    if hex_key[a] != hex_key[b]:
        return TB_HEXAGON
    return TB_UNRESOLVED


@game_kernel
def ranks_before(infl, top_rank, hex_key, a, b):
    """§6.4 step 3, key levels 1-3: seat a is ordered before seat b by influence, then the highest
    rank, then the hexagon key (False when they tie on all three). Also the search's position
    value (strategies/heads_of_state/search.py), which leaves residual ties in seat order."""
    if infl[a] != infl[b]:
        return infl[a] > infl[b]
    if top_rank[a] != top_rank[b]:
        return top_rank[a] > top_rank[b]
    return hex_key[a] > hex_key[b]


@game_kernel
def rank_country(state, n_players, infl, top_rank, hex_key, order, noise):
    """§6.4 step 3: candidates (influence > 0) sorted by (influence, highest rank, hexagon key,
    seeded random) descending. Writes seats into ``order``; returns the number of candidates."""
    n = 0
    for player in range(n_players):
        if infl[player] > 0:
            order[n] = player
            n += 1
    # residual-tie noise is drawn for every candidate (level 4, RNG_TIEBREAK stream)
    for i in range(n):
        noise[order[i]] = uniform(state.streams, RNG_TIEBREAK)
    for i in range(1, n):          # insertion sort, n <= 5
        j = i
        while j > 0:
            a = order[j - 1]
            b = order[j]
            if tiebreak_level(infl, top_rank, hex_key, b, a) == TB_UNRESOLVED:
                better = noise[b] > noise[a]       # level 4
            else:
                better = ranks_before(infl, top_rank, hex_key, b, a)
            if not better:
                break
            order[j - 1] = b
            order[j] = a
            j -= 1
    return n


@game_kernel
def noble_card_majorities(state, data, context):
    """§6.5: per rank, the sole leader scores the full value, exactly two tied leaders half each,
    three or more tied nobody; a leader needs at least one card (Q21)."""
    cards = state.cards
    for r in range(N_RANKS):
        most, points = noble_majority(state, data, r)
        if most == 0:
            continue
        for player in range(state.scal[S_N_PLAYERS]):
            if cards[player, r] == most:
                add_score(state, player, SRC_NOBLE_MAJORITY, points)
                trace(context.counters, context.trace, EV_MAJORITY, player, r, points)


@game_kernel
def noble_majority(state, data, rank):
    """(most cards of ``rank`` held, the points each holder of that many scores) by §6.5; most is 0
    when nobody scores the rank (no cards, or three or more tied). Also the search's position value
    of the cards held now (strategies/heads_of_state/search.py)."""
    cards = state.cards
    most = 0
    n_most = 0
    for player in range(state.scal[S_N_PLAYERS]):
        if cards[player, rank] > most:
            most = cards[player, rank]
            n_most = 1
        elif cards[player, rank] == most and most > 0:
            n_most += 1
    if most == 0 or n_most > 2:
        return 0, 0
    return most, data.majority_points[rank] if n_most == 1 else data.majority_points[rank] // 2


@game_kernel
def living_nobles(state, player, rank):
    """p's nobles of ``rank`` alive in boxes (Q22 other reading of "the most kings")."""
    n = 0
    for box in range(state.box_owner.shape[0]):
        if state.box_owner[box] == player and state.box_rank[box] == rank:
            n += 1
    return n


@game_kernel
def winner_tiebreak_count(state, context, player, rank):
    """What §6.6's "most kings" (then archdukes ...) counts for p: noble cards held (Q22 default)
    or, with winner_tiebreak = living_nobles, nobles of that rank alive on the board."""
    if context.rules[R_WINNER_TIEBREAK] != 0.0:
        return living_nobles(state, player, rank)
    return state.cards[player, rank]


@game_kernel
def find_winners(state, context):
    """§6.6: highest score; ties broken by king cards, then archduke cards ... baron cards (Q22;
    the switch winner_tiebreak counts living nobles instead); still tied -> shared win.
    Returns (winner bitmask, first winner seat, tiebreak code)."""
    n_players = state.scal[S_N_PLAYERS]
    score = state.score
    best = score[0]
    for player in range(1, n_players):
        if score[player] > best:
            best = score[player]
    mask = 0
    n = 0
    for player in range(n_players):
        if state.score[player] == best:
            mask |= 1 << player
            n += 1
    code = 0
    if n > 1:
        code = 1
        for r in range(N_RANKS - 1, -1, -1):
            top = -1
            for player in range(n_players):
                if mask & (1 << player) and winner_tiebreak_count(state, context, player, r) > top:
                    top = winner_tiebreak_count(state, context, player, r)
            new_mask = 0
            for player in range(n_players):
                if mask & (1 << player) and winner_tiebreak_count(state, context, player, r) == top:
                    new_mask |= 1 << player
            mask = new_mask
        n = 0
        for player in range(n_players):
            if mask & (1 << player):
                n += 1
        if n > 1:
            code = 2
    first = -1
    for player in range(n_players):
        if mask & (1 << player):
            first = player
            break
    return mask, first, code
