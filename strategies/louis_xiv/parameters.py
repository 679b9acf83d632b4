"""Louis XIV bot families and their documented parameters (strategies/parameters.py says what
every game's bot package declares). The compiled decisions that read these vectors are in
``decide.py`` (one entry function per decision point of the rules, rules §10.1), ``greedy.py`` and
``search.py``."""
import numpy as np

from strategies.parameters import Parameter, parameter_vector

RANDOM = 0
GREEDY = 1
SEARCH = 2
FAMILIES = {"random": RANDOM, "greedy": GREEDY, "search": SEARCH}


PARAMETERS = (
    Parameter("value_crown", 3.0, 0, 20, "value of a crown (pays for any mission cost)"),
    Parameter("value_token", 1.5, 0, 20, "value of a scepter, helmet, ring or document"),
    Parameter("value_needed_token", 2.5, 0, 20, "extra value of a token a mission card in hand needs"),
    Parameter("value_coat", 1.0, 0, 20, "value of a coat of arms (1 point)"),
    Parameter("value_gold", 0.4, 0, 5, "value of one gold"),
    Parameter("value_influence_card", 1.5, 0, 20, "value of an extra influence card (Mazarin)"),
    Parameter("value_intrigue_card", 1.5, 0, 20, "value of an intrigue card"),
    Parameter("value_marker", 0.35, 0, 5, "value of a marker in the own supply rather than the general supply"),
    Parameter("bribe_willingness", 1.0, 0, 10, "bribe when gift value x willingness >= cost x value_gold"),
    Parameter("louis_aggression", 1.0, 0, 5, "weight of Louis XIV's extra crown"),
    Parameter("chance_lead", 0.65, 0, 1, "estimated chance that a lead of one marker wins a courtier"),
    Parameter("chance_lead_step", 0.15, 0, 1, "extra chance per further marker of lead"),
    Parameter("chance_tie", 0.2, 0, 1, "estimated chance of winning from a tie for most"),
    Parameter("retrieve_below", 3, 0, 16, "retrieve markers eagerly when the own supply is at most this",
              integer=True),
    Parameter("deck_light", 1.0, 0, 10, "preference for drawing from the light-blue mission deck"),
    Parameter("deck_blue", 0.8, 0, 10, "preference for drawing from the blue mission deck"),
    Parameter("deck_dark", 0.5, 0, 10, "preference for drawing from the dark-blue mission deck"),
    Parameter("noise", 0.05, 0, 10, "random noise added to move scores (breaks ties, varies play)"),
    # Appended for issue 13 (the greedy reaches every decision the rules offer); each default
    # plays exactly as before these existed.
    Parameter("value_second_needed_token", 0.0, 0, 20,
              "extra value of a second token of a kind a dark-blue card in hand needs twice, when the player "
              "holds one"),
    Parameter("deck_reach", 0.0, 0, 1,
              "how far the mission-deck choice weighs each deck's preference by the chance to complete a card "
              "drawn from it: preference x (1 - deck_reach + deck_reach x payability), payability the mean over "
              "the colour's unseen cards of 1 if the tokens held pay it, 1/2 per token short (0 in the last "
              "round)"),
    Parameter("place_four_cost", 1.0, 0, 20, "what spending the once-per-phase DB-PLACE4 costs a turn's score "
              "(20: never used)"),
    Parameter("card_swap_score", 0.2, -20, 20, "the worth of a B-CARDSWAP turn"),
    Parameter("skip_score", 0.5, -20, 20, "the worth of an LB-SKIP turn before its gold (value_gold per gold)"),
    Parameter("retrieve_low_factor", 2.0, 0, 20,
              "a retrieved marker's worth in value_marker units when the own supply is at most retrieve_below"),
    Parameter("retrieve_high_factor", 0.5, 0, 20,
              "a retrieved marker's worth in value_marker units when the own supply is above retrieve_below"),
    Parameter("card_for_marker_shift", 0, -16, 16,
              "DB-CARDFORMARKER is used when the own supply is above retrieve_below plus this", integer=True),
    Parameter("lb_marker_below", 16, 0, 16,
              "LB-MARKER is used when the own supply is below this (16: whenever a marker is in the general "
              "supply)", integer=True),
    Parameter("markers3_target", 16, 0, 16,
              "DB-MARKERS3 brings markers back (at most 3) until the own supply reaches this", integer=True),
    Parameter("intrigue_draw_below", 13, 0, 13,
              "DB-INTRIGUE takes the top intrigue card while holding fewer intrigue cards than this", integer=True),
    Parameter("maintenon_markers", 2, 0, 2, "most markers put on Maintenon's named courtier", integer=True),
    Parameter("intrigue_keep_shift", 0.0, -20, 20,
              "an intrigue card is played only when its gain beats value_coat (its worth kept) plus this "
              "(20: never played)"),
    Parameter("once_first_shift", 0.0, -20, 20,
              "DB-ONCEFIRST is used when the tied courtier's gift is worth more than value_coat plus this "
              "(20: never)"),
    Parameter("end_place_min_gain", -50.0, -50, 50,
              "DB-ENDPLACE puts its marker only where one marker gains at least this (-50: always, 50: never)"),
    Parameter("start_place_min_gain", -50.0, -50, 50,
              "a start-of-phase placement (LB-TILE1..4, B-LOUIS, B-TILE5, B-TILE9) is used only when one marker "
              "on its courtier gains at least this (-50: always, 50: never)"),
    Parameter("token_swap_reserve", 0, 0, 20, "LB-TOKENSWAP is used only if this much gold is left after paying "
              "(20: never)", integer=True),
    Parameter("token_swap_any", 0, 0, 1,
              "1: LB-TOKENSWAP also trades a token no mission card in hand names for a crown when no swap makes "
              "a card payable", integer=True),
    Parameter("mission_swap_mode", 0, 0, 2,
              "LB-MISSIONSWAP puts back: 0 dark-blue cards whose token it holds none of (nor a crown), 1 nothing, "
              "2 any card it cannot pay for now", integer=True),
    Parameter("late_lead_safety", 0.0, 0, 1,
              "how much safer a marker lead is as the others' influence turns run out: the chance a lead "
              "loses (1 - the chance_lead estimate) shrinks by this share when no other player has a turn "
              "left in the phase, in proportion before (0: every lead is as safe at the last turn as at the "
              "first)"),
    # issue 41: restricted play (courtsim landscape) keeps the greedy from one B-INCOME choice
    Parameter("income_never", 0, 0, 3,
              "B-INCOME (§6): the choice never taken, the next one the greedy prefers instead (0 none, 1 two "
              "gold, 2 a gold and a marker, 3 two markers; every choice is always legal)", integer=True),
)
PARAMETER_INDEX = {parameter.name: index for index, parameter in enumerate(PARAMETERS)}
(VALUE_CROWN, VALUE_TOKEN, VALUE_NEEDED_TOKEN, VALUE_COAT, VALUE_GOLD, VALUE_INFLUENCE_CARD,
 VALUE_INTRIGUE_CARD, VALUE_MARKER, BRIBE_WILLINGNESS, LOUIS_AGGRESSION, CHANCE_LEAD, CHANCE_LEAD_STEP,
 CHANCE_TIE, RETRIEVE_BELOW, DECK_LIGHT, DECK_BLUE, DECK_DARK, NOISE, VALUE_SECOND_NEEDED_TOKEN, DECK_REACH,
 PLACE_FOUR_COST, CARD_SWAP_SCORE, SKIP_SCORE, RETRIEVE_LOW_FACTOR, RETRIEVE_HIGH_FACTOR, CARD_FOR_MARKER_SHIFT,
 LB_MARKER_BELOW, MARKERS3_TARGET, INTRIGUE_DRAW_BELOW, MAINTENON_MARKERS, INTRIGUE_KEEP_SHIFT, ONCE_FIRST_SHIFT,
 END_PLACE_MIN_GAIN, START_PLACE_MIN_GAIN, TOKEN_SWAP_RESERVE, TOKEN_SWAP_ANY, MISSION_SWAP_MODE,
 LATE_LEAD_SAFETY, INCOME_NEVER) = range(len(PARAMETERS))
# a start-of-phase or end-of-phase placement minimum at this value (the range's low end) means "always"
ALWAYS_PLACE = -50.0
# a parameter at the top of its range means "never" for the optional decision it weighs, whatever
# the others: restricted play (courtsim landscape, configs/landscape/louis_xiv.yaml) switches an
# option off so; no shipped bot sits at a top. The tops are the ranges' own (numba freezes them).
NEVER_PLACE = float(PARAMETERS[START_PLACE_MIN_GAIN].high)         # start_place_min_gain, end_place_min_gain
NEVER_PLACE_FOUR_COST = float(PARAMETERS[PLACE_FOUR_COST].high)    # DB-PLACE4 (and its retrieval of four) never best
NEVER_SHIFT = float(PARAMETERS[INTRIGUE_KEEP_SHIFT].high)          # intrigue_keep_shift, once_first_shift
NEVER_TOKEN_SWAP_RESERVE = int(PARAMETERS[TOKEN_SWAP_RESERVE].high)
assert PARAMETERS[END_PLACE_MIN_GAIN].high == NEVER_PLACE and PARAMETERS[ONCE_FIRST_SHIFT].high == NEVER_SHIFT
# bribe_willingness at the low end of its range (0) never bribes, whatever value_gold (at value_gold 0
# the gift x 0 >= cost x 0 comparison would always bribe)
NEVER_BRIBE = float(PARAMETERS[BRIBE_WILLINGNESS].low)
# a search bot's vector: the greedy parameters (same indices), then these (strategies/louis_xiv/search.py)
# (search_classic.yaml: the search before issue 13, 8 rollouts x 6 candidates, search_margin 1000,
# rollout_rounds 0, halving 0). The stop_value_* defaults were fitted on 3,000 greedy games at 2 and 3
# players (least squares of the final score minus the standing after rounds 1-3 on what each
# player held then; markers in the general supply are the zero: own and general supply add up to a
# constant).
SEARCH_PARAMETERS = (
    Parameter("rollouts", 1, 1, 1000, "rollouts per candidate influence turn (with halving: per batch)",
              integer=True),
    Parameter("max_candidates", 6, 1, 64, "influence turns searched: the greedy's best by its own turn score",
              integer=True),
    Parameter("search_margin", 1000.0, 0, 1000,
              "candidates only within this of the greedy's best turn score; none within it: no search "
              "(1000: every decision is searched, as before issue 13)"),
    Parameter("rollout_rounds", 1, 0, 10,
              "rounds a rollout plays, the current one included, before it scores the position (standing plus "
              "the valuation of what is held); 0: to the end of the game, as before issue 13", integer=True),
    Parameter("halving", 1, 0, 1,
              "1: successive halving (batches of `rollouts` per candidate still in, the worse half dropped after "
              "each); 0: `rollouts` for every candidate, as before issue 13", integer=True),
    Parameter("held_weight", 0.0, 0, 5,
              "weight of the greedy's own valuation of what is held in a stopped rollout's score"),
    Parameter("stop_value_own_marker", 0.6, 0, 5, "stopped rollout: a marker in the own supply (not the general)"),
    Parameter("stop_value_courtier_marker", 1.4, 0, 5, "stopped rollout: an own marker lying on a courtier"),
    Parameter("stop_value_gold", 0.7, 0, 5, "stopped rollout: one gold"),
    Parameter("stop_value_intrigue_card", 1.8, 0, 5, "stopped rollout: an intrigue card in hand"),
    Parameter("stop_value_influence_card", 1.8, 0, 5, "stopped rollout: an influence card in hand (Mazarin)"),
    Parameter("stop_value_crown", 2.8, 0, 10, "stopped rollout: a crown"),
    Parameter("stop_value_token", 2.5, 0, 10, "stopped rollout: a scepter, helmet, ring or document"),
    Parameter("stop_value_mission_ability", 0.4, 0, 5,
              "stopped rollout: a played mission card's ability, per round left (its 5 points are in the standing)"),
)
(ROLLOUTS, MAX_CANDIDATES, SEARCH_MARGIN, ROLLOUT_ROUNDS, HALVING, HELD_WEIGHT, STOP_VALUE_OWN_MARKER,
 STOP_VALUE_COURTIER_MARKER, STOP_VALUE_GOLD, STOP_VALUE_INTRIGUE_CARD, STOP_VALUE_INFLUENCE_CARD, STOP_VALUE_CROWN,
 STOP_VALUE_TOKEN, STOP_VALUE_MISSION_ABILITY) = range(len(PARAMETERS), len(PARAMETERS) + len(SEARCH_PARAMETERS))
# family name -> its documented parameters, in vector order (strategies/parameters.py)
FAMILY_PARAMETERS = {"random": (), "greedy": PARAMETERS, "search": PARAMETERS + SEARCH_PARAMETERS}
N_PARAMETERS = max(len(parameters) for parameters in FAMILY_PARAMETERS.values())


def default_parameters() -> np.ndarray:
    """The greedy's default vector, padded to the kernels' width."""
    return parameter_vector(PARAMETERS, None, N_PARAMETERS, "greedy")
