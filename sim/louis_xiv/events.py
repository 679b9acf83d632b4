"""Event codes of the replay log (``state.trace``). The kernel appends integer rows
(code, a..g); ``sim.louis_xiv.replay`` turns them into readable lines. Golden traces in
tests/louis_xiv/golden/ are these logs."""
(ROUND_START, GOLD_CARD, LOUIS_PLACED, COMPENSATION_INTRIGUE, ABILITY_USED, INFLUENCE_DRAWN,
 IMAGINARY_PLACED, START_PLACEMENT, PLACE, RETRIEVE, SKIP, CARD_SWAP, END_PLACEMENT, RESHUFFLE,
 INTRIGUE_PLAYED, ONCE_FIRST, EVALUATION, GIFT, BRIBE, MARKERS_RETURNED, FLIP, MISSION_PLAYED,
 MISSION_DRAWN, TOKEN_SWAP, MISSION_SWAP, TOKEN_CAP, CONVERSION, MAJORITY_BONUS, FINAL_SCORE,
 WINNER, EXHAUSTED, MAINTENON, CONDE_PLACEMENT, INCOME_CHOICE, MARKER_COUNTS, LOUIS_CROWN,
 GIFT_RETRIEVE, INFLUENCE_HAND, MISSION_DEALT, GIFT_CARD, COAT_DRAWN, COATS_HELD) = range(42)

# What a referee needs to check hidden information (issue 37), only in replay mode: the cards of
# each influence hand, the start missions, the card a gift draws, and every coat of arms' kind.
# The replay joins consecutive rows of one list (one seat's hand, one draw of coats) into a line.

# Arguments of the events whose meaning is not plain from the kernel that appends them:
# PLACE (seat, card, step 1..4 as courtier * 16 + markers or -1 past the path's end, move kind)
# GIFT (seat, courtier, token kind or -1, coats, gold, influence cards, intrigue cards)
# MAINTENON (seat, courtier, markers placed, of them from the own supply)
# MISSION_SWAP (seat, first card, second card or -1, number of cards)
# TOKEN_CAP (seat, tokens returned, tokens kept of each kind 0..4)
# INFLUENCE_HAND (seat, card kind, cards of it): one row per kind held, after the hands are drawn
# MISSION_DEALT (seat, mission card or -1: its deck was empty): a start mission (§3 step 8)
# GIFT_CARD (seat, courtier, 0 influence / 1 intrigue, card kind or -1: its deck was empty)
# COAT_DRAWN (seat, coat kind, STAT_* counter it counts under): one row per coat of arms drawn
# COATS_HELD (seat, coat kind, coats of it): one row per kind held, before the majorities of §7
