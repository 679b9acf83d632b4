"""Louis XIV bot families and their documented parameters (strategies/parameters.py says what
every game's bot package declares). The compiled decisions that read these vectors are in
``decide.py`` (one entry function per decision point of the rules, rules §10.1) and ``search.py``."""
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
)
PARAMETER_INDEX = {parameter.name: index for index, parameter in enumerate(PARAMETERS)}
(VALUE_CROWN, VALUE_TOKEN, VALUE_NEEDED_TOKEN, VALUE_COAT, VALUE_GOLD, VALUE_INFLUENCE_CARD,
 VALUE_INTRIGUE_CARD, VALUE_MARKER, BRIBE_WILLINGNESS, LOUIS_AGGRESSION, CHANCE_LEAD, CHANCE_LEAD_STEP,
 CHANCE_TIE, RETRIEVE_BELOW, DECK_LIGHT, DECK_BLUE, DECK_DARK, NOISE) = range(len(PARAMETERS))
# a search bot's vector: the greedy parameters (same indices), then these (strategies/louis_xiv/search.py)
SEARCH_PARAMETERS = (
    Parameter("rollouts", 8, 1, 1000, "rollouts per candidate influence turn (the search budget)", integer=True),
    Parameter("max_candidates", 6, 1, 64, "influence turns searched: the greedy's best by its own turn score",
              integer=True),
)
ROLLOUTS, MAX_CANDIDATES = range(len(PARAMETERS), len(PARAMETERS) + len(SEARCH_PARAMETERS))
# family name -> its documented parameters, in vector order (strategies/parameters.py)
FAMILY_PARAMETERS = {"random": (), "greedy": PARAMETERS, "search": PARAMETERS + SEARCH_PARAMETERS}
N_PARAMETERS = max(len(parameters) for parameters in FAMILY_PARAMETERS.values())


def default_parameters() -> np.ndarray:
    """The greedy's default vector, padded to the kernels' width."""
    return parameter_vector(PARAMETERS, None, N_PARAMETERS, "greedy")
