"""Event codes of the replay log (``state.trace``). The kernel appends integer rows
(code, a..g); ``sim.louis_xiv.replay`` turns them into readable lines. Golden traces in
tests/louis_xiv/golden/ are these logs."""
(ROUND_START, GOLD_CARD, LOUIS_PLACED, COMPENSATION_INTRIGUE, ABILITY_USED, INFLUENCE_DRAWN,
 IMAGINARY_PLACED, START_PLACEMENT, PLACE, RETRIEVE, SKIP, CARD_SWAP, END_PLACEMENT, RESHUFFLE,
 INTRIGUE_PLAYED, ONCE_FIRST, EVALUATION, GIFT, BRIBE, MARKERS_RETURNED, FLIP, MISSION_PLAYED,
 MISSION_DRAWN, TOKEN_SWAP, MISSION_SWAP, TOKEN_CAP, CONVERSION, MAJORITY_BONUS, FINAL_SCORE,
 WINNER, EXHAUSTED, MAINTENON, CONDE_PLACEMENT, INCOME_CHOICE, MARKER_COUNTS, LOUIS_CROWN,
 GIFT_RETRIEVE) = range(37)

# Arguments of the events whose meaning is not plain from the kernel that appends them:
# PLACE (seat, card, step 1..4 as courtier * 16 + markers or -1 past the path's end, move kind)
# GIFT (seat, courtier, token kind or -1, coats, gold, influence cards, intrigue cards)
# MAINTENON (seat, courtier, markers placed, of them from the own supply)
# MISSION_SWAP (seat, first card, second card or -1, number of cards)
# TOKEN_CAP (seat, tokens returned, tokens kept of each kind 0..4)
