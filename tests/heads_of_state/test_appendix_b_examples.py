"""Appendix B of rules/heads_of_state.md: every worked example as a regression test on the default map.
Seats: red = 0, blue = 1, yellow = 2."""
import numpy as np

from sim.core.records import replace_fields
from sim.heads_of_state.betrayal import betrayal_plays, list_betrayal_plays
from sim.heads_of_state.nobles import list_payments, list_raises, raise_noble
from sim.heads_of_state.round_end import round_end_influence_scoring
from sim.heads_of_state.scoring import noble_card_majorities
from sim.heads_of_state.state import (ARCHDUKE, BARON, COUNT, DE, DUKE, EARL, FR, GB, KING, MARGRAVE,
                                      SRC_COUNTRY, SRC_HEXAGON, SRC_NOBLE_MAJORITY,
                                      SRC_ROUND_INFLUENCE)
from sim.heads_of_state.tables import COUNTRY_COLUMNS

RED, BLUE, YELLOW = 0, 1, 2
ALL8 = ("GOLD", "TROOPS", "TITLE", "CASTLE", "DUEL", "BISHOP", "PALACE", "ATTR8")


def country_row(pos, country):
    round_end_influence_scoring(pos.state, pos.data, pos.context)
    return dict(zip(COUNTRY_COLUMNS, pos.context.country[country].tolist()))


def test_example_1_germany_influence(position):
    pos = position(3)
    pos.place(RED, "DE_CAP.lower", "archduke")
    pos.place(YELLOW, "DE_P1.upper", "duke")
    pos.place(YELLOW, "DE_P1.lower", "earl")
    pos.place(BLUE, "DE_P2.upper", "margrave")
    pos.place(BLUE, "DE_P3.lower", "baron")
    row = country_row(pos, DE)
    assert [row[f"influence_s{i}"] for i in range(3)] == [4, 4, 3]
    assert (row["first_seat"], row["second_seat"]) == (RED, BLUE)
    assert (row["first_points"], row["second_points"]) == (6, 5)
    assert row["first_tiebreak"] == 1            # decided by the highest rank (archduke > margrave)
    assert row["second_tiebreak"] == 0           # blue 4 > yellow 3 on influence
    assert pos.state.score_src[:3, SRC_ROUND_INFLUENCE].tolist() == [6, 5, 0]


def test_example_2_france_influence(position):
    pos = position(3)
    pos.place(BLUE, "FR_CAP.upper", "king")
    pos.place(RED, "FR_CAP.lower", "archduke")
    pos.place(RED, "FR_P4.lower", "baron")
    pos.place(YELLOW, "FR_P1.upper", "duke")
    pos.place(RED, "FR_P1.lower", "earl")
    pos.place(YELLOW, "FR_P2.upper", "margrave")
    pos.place(YELLOW, "FR_P2.lower", "count")
    row = country_row(pos, FR)
    assert [row[f"influence_s{i}"] for i in range(3)] == [5, 4, 5]
    assert (row["first_seat"], row["second_seat"]) == (RED, YELLOW)
    assert row["first_tiebreak"] == 1            # red's archduke beats yellow's duke
    assert pos.state.score[:3].tolist() == [10, 0, 2]   # blue has the king but scores nothing


def test_example_3_hexagon_first_noble_only(position):
    pos = position(3)
    pos.give(YELLOW, "GOLD", "TROOPS", "DUEL", "BISHOP", "PALACE", "ATTR8")
    raise_noble(pos.state, pos.data, pos.context, YELLOW, pos.box("FR_CAP.lower"), ARCHDUKE)
    assert pos.state.score_src[YELLOW, SRC_HEXAGON] == 7
    assert pos.state.hex_owner[pos.region("FR_CAP")] == YELLOW
    pos.give(RED, *ALL8)
    raise_noble(pos.state, pos.data, pos.context, RED, pos.box("FR_CAP.upper"), KING)
    assert pos.state.score_src[RED, SRC_HEXAGON] == 0


def test_example_4_gb_square_token_and_dead_king_returns(position):
    pos = position(3)
    pos.place(YELLOW, "GB_IRL.upper", "earl")
    pos.state.dead[YELLOW, pos.region("GB_CAP"), KING] = 1      # a dead king on the GB capital hexagon
    pos.state.tiles[YELLOW, KING] -= 1
    pos.give(YELLOW, "TITLE", "TROOPS", "CASTLE", "DUEL")
    raise_noble(pos.state, pos.data, pos.context, YELLOW, pos.box("GB_SCO.upper"), MARGRAVE)
    assert pos.state.score_src[YELLOW, SRC_COUNTRY] == 4
    assert pos.state.square_owner[YELLOW, GB] == 1
    assert pos.state.tiles[YELLOW, KING] == 4 and pos.state.dead[YELLOW].sum() == 0
    # the second player to cover Great Britain takes the lower token (H5: 2)
    pos.place(RED, "GB_CAP.upper", "king")
    pos.place(RED, "GB_IRL.lower", "count")
    pos.give(RED, "GOLD")
    raise_noble(pos.state, pos.data, pos.context, RED, pos.box("GB_SCO.lower"), BARON)
    assert pos.state.score_src[RED, SRC_COUNTRY] == 2


def test_example_5_noble_card_majorities(position):
    pos = position(4)
    c = pos.state.cards
    c[0, BARON], c[1, BARON] = 3, 2                        # sole most barons: 4
    c[0, MARGRAVE], c[2, MARGRAVE] = 2, 1                  # sole most margraves: 10
    c[0, KING], c[1, KING], c[2, KING] = 2, 2, 1           # two-way king tie: 16 / 2 = 8 each
    c[0, COUNT], c[1, COUNT], c[2, COUNT], c[3, COUNT] = 2, 2, 2, 1   # three-way tie: nobody
    c[0, EARL], c[1, EARL] = 1, 3
    c[2, DUKE] = 1
    c[3, ARCHDUKE] = 1
    noble_card_majorities(pos.state, pos.data, pos.context)
    assert pos.state.score_src[:4, SRC_NOBLE_MAJORITY].tolist() == [22, 8 + 8, 12, 14]


def test_example_6_assassins_one_for_province_two_for_capital(position, setup):
    assert setup.data.own_cubes == 3 and setup.data.target_cubes == 1    # P(success) = 3/4
    pos = position(3)
    pos.place(YELLOW, "FR_P1.upper", "duke")
    pos.place(YELLOW, "FR_CAP.upper", "king")
    pos.give_betrayal(RED, "assassin")
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    targets = {(b, a, c) for b, a, c, _ in pos.moves(n) if b >= 0}
    assert targets == {(pos.box("FR_P1.upper"), 0, -1)}
    pos.give_betrayal(RED, "assassin")
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    targets = {(b, a, c) for b, a, c, _ in pos.moves(n) if b >= 0}
    assert (pos.box("FR_CAP.upper"), 0, 0) in targets


def test_example_7_refill_rule_after_a_box_was_left_empty(position):
    pos = position(3)
    pos.place(YELLOW, "FR_P1.upper", "duke")
    pos.place(YELLOW, "FR_P4.upper", "count")
    pos.give_betrayal(RED, "assassin", "assassin")
    # nothing left empty yet: both targets are legal
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    assert len([m for m in pos.moves(n) if m[0] >= 0]) == 2
    # one vacated box already left empty: only targets red can refill (pay + tile) remain
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 1)
    assert [m for m in pos.moves(n) if m[0] >= 0] == []
    pos.give(RED, "GOLD", "DUEL")                        # red can now pay a count
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 1)
    assert [m[0] for m in pos.moves(n) if m[0] >= 0] == [pos.box("FR_P4.upper")]


def test_example_8_box_ranks_and_placement_order(position):
    pos = position(3)
    pos.give(BLUE, *ALL8, *ALL8)
    n = list_raises(pos.state, pos.data, pos.context, BLUE)
    irl = {(b, r) for b, r, _, _ in pos.moves(n) if b in (pos.box("GB_IRL.upper"), pos.box("GB_IRL.lower"))}
    assert irl == {(pos.box("GB_IRL.upper"), EARL), (pos.box("GB_IRL.lower"), COUNT)}
    raise_noble(pos.state, pos.data, pos.context, BLUE, pos.box("GB_IRL.upper"), EARL)
    raise_noble(pos.state, pos.data, pos.context, BLUE, pos.box("GB_IRL.lower"), COUNT)
    assert pos.state.box_owner[pos.box("GB_IRL.upper")] == BLUE == pos.state.box_owner[pos.box("GB_IRL.lower")]
    assert pos.state.cards[BLUE, EARL] == 1 and pos.state.cards[BLUE, COUNT] == 1


def test_example_9_courtesan(position):
    pos = position(3)
    castle = pos.card("CASTLE")
    pos.give(RED, "TITLE", "TROOPS", "COURTESAN")
    n = list_payments(pos.state, pos.data, pos.context, RED, EARL)
    assert [m[0] for m in pos.moves(n)] == [castle]        # the courtesan replaces the castle
    pos.state.hand[RED] = 0
    pos.give(RED, "TITLE", "COURTESAN", "COURTESAN")       # two courtesans on one noble: illegal
    assert list_payments(pos.state, pos.data, pos.context, RED, EARL) == 0
    pos.state.hand[RED] = 0
    pos.give(RED, "COURTESAN")                              # no courtesan for a baron
    assert list_payments(pos.state, pos.data, pos.context, RED, BARON) == 0
    pos.state.hand[RED] = 0
    pos.give(RED, *ALL8[:-1], "COURTESAN")                  # ... nor for a king
    assert list_payments(pos.state, pos.data, pos.context, RED, KING) == 0
    pos.give(RED, "TITLE", "TROOPS", "CASTLE")
    pos.state.hand[RED, pos.card("COURTESAN")] = 0
    raise_noble(pos.state, pos.data, pos.context, RED, pos.box("GB_IRL.upper"), EARL)
    assert pos.state.discard[[pos.card("TITLE"), pos.card("TROOPS"), castle]].tolist() == [1, 1, 1]


def test_example_10_assassination_then_refill(position):
    pos = position(3)
    pos.data = replace_fields(pos.data, target_cubes=0)          # force the bag draw to succeed
    pos.place(YELLOW, "FR_P1.upper", "duke")
    pos.state.cards[YELLOW, DUKE] = 1
    pos.state.cards_left[DUKE] -= 1
    pos.give_betrayal(BLUE, "assassin")
    pos.give(BLUE, "TITLE", "CASTLE", "BISHOP", "PALACE", "ATTR8")
    betrayal_plays(pos.state, pos.data, pos.context, BLUE)            # greedy: kill the duke, refill
    box = pos.box("FR_P1.upper")
    assert pos.state.dead[YELLOW, pos.region("FR_P1"), DUKE] == 1
    assert pos.state.box_owner[box] == BLUE and pos.state.box_rank[box] == DUKE
    assert pos.state.cards[BLUE, DUKE] == 1 and pos.state.cards[YELLOW, DUKE] == 1
    assert pos.state.lost[YELLOW] == 1 and pos.state.bhand[BLUE].sum() == 0
    assert pos.context.betrayals[0, 12] == 1 and pos.context.betrayals[0, 13] == 1   # success, box_refilled


def test_example_11_country_cards(position):
    pos = position(3)
    for name in ("FR_P1.upper", "FR_CAP.upper", "GB_IRL.upper", "DE_P1.upper", "ES_P1.upper"):
        pos.place(YELLOW, name, {"FR_P1.upper": "duke", "FR_CAP.upper": "king", "GB_IRL.upper": "earl",
                                 "DE_P1.upper": "duke", "ES_P1.upper": "duke"}[name])
    fr = pos.btype("FR")
    pos.give_betrayal(RED, "FR")                            # the guillotine
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    assert [(m[0], m[1]) for m in pos.moves(n) if m[0] >= 0] == [(pos.box("FR_P1.upper"), fr)]
    pos.give_betrayal(RED, "FR/ES")                          # two France-usable cards: the capital
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    plays = {m[:3] for m in pos.moves(n) if m[0] >= 0}
    assert (pos.box("FR_CAP.upper"), fr, pos.btype("FR/ES")) in plays
    assert (pos.box("ES_P1.upper"), pos.btype("FR/ES"), -1) in plays
    pos.state.bhand[RED] = 0
    pos.give_betrayal(RED, "GB/DE")
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    assert {m[0] for m in pos.moves(n) if m[0] >= 0} == {pos.box("GB_IRL.upper"), pos.box("DE_P1.upper")}


def test_example_12_noble_card_exhaustion(position):
    pos = position(3)
    pos.state.cards_left[DUKE] = 0
    pos.give(RED, "TITLE", "CASTLE", "BISHOP", "PALACE", "ATTR8")
    raise_noble(pos.state, pos.data, pos.context, RED, pos.box("FR_P1.upper"), DUKE)
    assert pos.state.box_owner[pos.box("FR_P1.upper")] == RED
    assert pos.state.cards[RED, DUKE] == 0 and pos.state.raised[RED, DUKE] == 1


def test_example_13_single_player_with_influence(position):
    pos = position(3)
    pos.place(BLUE, "GB_SCO.lower", "baron")
    row = country_row(pos, GB)
    assert (row["first_seat"], row["second_seat"]) == (BLUE, -1)
    assert (row["first_points"], row["second_points"]) == (8, 0)
    assert row["first_tiebreak"] == -1
    assert pos.state.score[:3].tolist() == [0, 8, 0]
    assert np.all(pos.context.country[[FR, 2, DE], 3 + BLUE] == 0)   # influence_s1 elsewhere: none
