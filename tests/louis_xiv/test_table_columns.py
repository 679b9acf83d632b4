"""Columns that hold what their docs say: courtiers.top_seat is the DB-ONCEFIRST seat
when that ability broke a tie for most markers (§4.3 step 2, §6), and score_after_round_4 is the
standing before the end-of-game conversions and coat majorities of §7."""
import numpy as np

from sim.louis_xiv.data import POINTS_PER_COAT
from sim.louis_xiv.engine import ENGINE
from strategies.bots import resolve_bots


def test_s6_db_oncefirst_seat_is_the_top_seat(setup):
    bots = resolve_bots("louis-xiv", ["tuned_3p", "random", "mission_racer"])
    courtiers = ENGINE.play_chunk(setup, 3, bots, 47, 0, 300)["courtiers"]
    used = courtiers["once_first_seat"] >= 0
    assert used.sum() > 0
    assert np.array_equal(courtiers["top_seat"][used], courtiers["once_first_seat"][used])
    assert (courtiers["majority_tie"][used] == 1).all()        # it broke a tie for most markers
    meaning = ENGINE.table_schemas(setup)["courtiers"].by_name["top_seat"]
    assert "DB-ONCEFIRST" in meaning.meaning and "DB-ONCEFIRST" in meaning.missing


def test_s7_score_after_round_4_is_before_the_end_conversions(setup):
    bots = resolve_bots("louis-xiv", ["greedy", "random", "coat_hoarder", "crown_hunter"])
    seats = ENGINE.play_chunk(setup, 4, bots, 5, 0, 200)["seats"]
    end_coats = seats["coats_from_conversion"] + seats["coats_from_majority"]
    assert (end_coats > 0).mean() > 0.5                          # the end of game changes most scores
    assert np.array_equal(seats["score"] - seats["score_after_round_4"],
                          end_coats * int(setup.data.numbers[POINTS_PER_COAT]))
    meaning = ENGINE.table_schemas(setup)["seats"].by_name["score_after_round_4"].meaning
    assert "before the end-of-game conversions and coat majorities of §7" in meaning
