"""Heads of State bot families: a family id + a float64 parameter vector.

* ``random`` (family 0): uniform over the legal decisions at every decision point, drawn from the
  seat's own random stream. No parameters (the vector is ignored).
* ``greedy`` (family 1): one-step heuristic (greedy.py ``greedy_choose``):
  takes the display card that best completes a recipe it can still place, raises the
  best-valued noble while it can (hexagon, rank, new rank for the large token, square-token
  progress, influence), and switches to Option 2 when it can kill a valuable opponent noble
  it could replace at once. Its parameters (``GREEDY_PARAMS``) also describe archetypes written
  as YAML parameter sets: country priorities, capital bias, rank ambition, when to switch from
  character cards to betrayal, assassins vs country cards, hand management. Every parameter after
  ``influence_weight`` is neutral at its default. The parameters from ``capital_attack_weight`` on
  (issue 13) let it reach every choice the rules offer: capital attacks, country-card and deck
  betrayal takes valued by the victims they enable, collecting betrayal cards, attacking late in a
  round, leaving a vacated box empty, spending a courtesan on an attribute held, and (Q7) taking
  the character card first; with ``refresh_threshold`` (Option 1b) and ``raise_threshold`` (stop
  raising, also a Q8 deferred refill) no decision kind has a choice only a random bot takes.
  For restricted play (issue 41, courtsim landscape) ``assassination_weight`` and the low ends of
  ``capital_attack_weight``, ``assassination_weight`` and ``betrayal_deck_value`` switch off
  assassinations, betrayal plays on capitals and blind betrayal draws (NEVER_* below).
* ``search`` (family 2): determinized Monte Carlo rollouts at the turn option, take and betrayal
  play decisions (search.py), the greedy elsewhere and inside the rollouts.
  Its vector is ``GREEDY_PARAMS`` (used for its own other decisions and for every seat in its
  rollouts) followed by ``SEARCH_PARAMS``. Its defaults are the fast search of issue 13
  (truncated rollouts, only the decisions the greedy does not settle); the pre-issue-13 search
  is the bot file configs/bots/heads_of_state/search_classic.yaml.

Also here: the parameter indices (``P_*``) the compiled bots read (the decision kinds ``D_*`` the
rules pass to ``decide.choose`` are in sim/heads_of_state/decisions.py).
"""
from __future__ import annotations

import numpy as np

from sim.heads_of_state.state import COUNTRY_NAMES
from strategies.parameters import Parameter, parameter_vector

RANDOM, GREEDY, SEARCH = 0, 1, 2

# greedy parameter indices (names, defaults and ranges: GREEDY_PARAMS below)
# (P_COUNTRY_WEIGHT + country: one weight per country, GB FR ES DE). Every parameter added after
# P_INFLUENCE_WEIGHT is neutral at its default: the default greedy plays exactly as before.
(P_DECK_THRESHOLD, P_COURTESAN_VALUE, P_HEX_WEIGHT, P_RANK_WEIGHT, P_NEW_RANK_WEIGHT,
 P_SQUARE_WEIGHT, P_BETRAY_MIN_VALUE, P_REFRESH_THRESHOLD, P_INFLUENCE_WEIGHT,
 P_COUNTRY_WEIGHT, _FR, _ES, _DE, P_CAPITAL_BIAS, P_ASSASSIN_PREFERENCE, P_BETRAY_FROM_ROUND,
 P_BETRAY_ROUND_DISCOUNT, P_RAISE_THRESHOLD, P_HAND_TARGET,
 # issue 13: parameters that let the greedy reach every choice the rules offer (neutral defaults)
 P_CAPITAL_ATTACK_WEIGHT, P_BETRAYAL_TAKE_WEIGHT, P_BETRAYAL_DECK_VALUE, P_BETRAYAL_COLLECT_VALUE,
 P_BETRAY_DECK_BELOW, P_REFILL_MAX_CARDS, P_COURTESAN_SPEND_FROM, P_CHARACTER_FIRST_DECK_BELOW,
 # issue 41: restricted play (courtsim landscape) switches assassinations off
 P_ASSASSINATION_WEIGHT) = range(28)
N_GREEDY_PARAMS = 28
# search parameters follow the greedy ones in a search bot's vector (search.py)
(P_ROLLOUTS, P_MAX_CANDIDATES, P_HORIZON, P_STOP_AT_ROUND_END, P_CLEAR_LEAD, P_DISTINCT_TAKES,
 P_HELD_CARD_VALUE, P_FUTURE_ROUNDS_WEIGHT) = range(N_GREEDY_PARAMS, N_GREEDY_PARAMS + 8)
N_SEARCH_PARAMS = 8

FAMILIES = {"random": RANDOM, "greedy": GREEDY, "search": SEARCH}

# in the order of the P_* indices above
GREEDY_PARAMS = (
    Parameter("deck_threshold", 0.3, 0.0, 3.0, "value of a blind deck draw; a display card worth less is not taken"),
    Parameter("courtesan_value", 0.8, 0.0, 3.0, "value of taking a courtesan"),
    Parameter("hex_weight", 1.0, 0.0, 3.0, "points per hexagon point still on the region"),
    Parameter("rank_weight", 0.5, 0.0, 3.0, "value per rank index (+1) of the raised noble"),
    Parameter("new_rank_weight", 2.0, 0.0, 10.0, "bonus for a rank never raised before (large round token)"),
    Parameter("square_weight", 1.0, 0.0, 10.0, "bonus for a new region of a country, scaled by coverage"),
    Parameter("betray_min_value", 5.0, 0.0, 12.0, "min victim value (rank+1, +2 in a capital) to choose Option 2 / play"),
    Parameter("refresh_threshold", 0.0, 0.0, 3.0, "use Option 1b when no display card is worth this (0 = never)"),
    Parameter("influence_weight", 0.5, 0.0, 3.0, "value per influence point of the raised noble's box"),
    # country priorities (rules §2.1): added to the value of raising a noble in that country
    *(Parameter(f"country_weight_{country.lower()}", 0.0, -5.0, 5.0,
                f"bonus for raising a noble in {country} (country priority; negative avoids it)")
      for country in COUNTRY_NAMES),
    Parameter("capital_bias", 0.0, -5.0, 5.0,
              "bonus for raising a noble in a capital (two-card slots, more influence; negative = provinces)"),
    Parameter("assassin_preference", 0.0, -3.0, 3.0,
              "added to assassination attempts (betrayal takes and plays); negative prefers country cards"),
    Parameter("betray_from_round", 0, 0, 2,
              "no Option 2 before this round (0 = 1589, 1 = 1689, 2 = 1789): build first, betray later",
              integer=True),
    Parameter("betray_round_discount", 0.0, 0.0, 6.0,
              "betray_min_value falls by this much per round played (later rounds: betray more readily)"),
    Parameter("raise_threshold", 0.0, 0.0, 10.0,
              "a raise must be worth more than this, else the cards are kept for a better noble later"),
    Parameter("hand_target", 0, 0, 10,
              "with at least this many character cards in hand, take Option 2 whenever any attack is "
              "possible instead of collecting more (0 = off)", integer=True),
    # issue 13: capital attacks, country cards, betrayal timing, refills, payments, take order
    Parameter("capital_attack_weight", 0.0, -5.0, 5.0,
              "added to the value of a victim in a capital (Option 2, betrayal takes and plays; negative "
              "spares capitals; at -5, the range's low end, no betrayal play on a capital, while Option 2 and "
              "takes read it as -5)"),
    Parameter("betrayal_take_weight", 0.0, 0.0, 3.0,
              "a betrayal card is worth this much per point it adds to the best victim the betrayal hand "
              "can reach (a country card where a valuable opponent noble sits, the second card a capital "
              "needs); also at the hand-limit discard and, above 0, Option 2 counts displayed country cards"),
    Parameter("betrayal_deck_value", 0.5, -2.0, 5.0,
              "value of a blind betrayal-deck draw (a displayed assassin is worth 2 + assassin_preference, "
              "a country card 1, plus betrayal_take_weight x the victim value it adds; below -1 the deck "
              "only when the display is empty)"),
    Parameter("betrayal_collect_value", 0.0, 0.0, 12.0,
              "take Option 2 just to collect a displayed betrayal card that adds at least this much to the "
              "best reachable victim, e.g. the second assassin for a capital (0 = off)"),
    Parameter("betray_deck_below", 0, 0, 90,
              "attack (Option 2 for a kill, betrayal plays) only once the regular deck holds fewer than "
              "this many cards, i.e. just before the round-end scoring (0 = any time)", integer=True),
    Parameter("refill_max_cards", 8, 0, 8,
              "refill a box emptied by a kill only with a noble whose recipe has at most this many cards, "
              "else keep the cards and leave it empty; such victims need no payable refill (8 = always refill)",
              integer=True),
    Parameter("courtesan_spend_from", 0, 0, 10,
              "with at least this many courtesans in hand, pay with one even for an attribute held (the one "
              "held least), keeping attribute cards (0 = a courtesan only for a missing attribute)",
              integer=True),
    Parameter("character_first_deck_below", 0, 0, 90,
              "rule switch option2_take_order = player_choice (Q7): take the character card before the "
              "betrayal card once the regular deck holds fewer than this many cards, so that a revolution "
              "it reveals (betrayal hands cut to 2) comes before the betrayal take (0 = betrayal card first)",
              integer=True),
    # issue 41: apart from assassin_preference, which also steers betrayal takes and discards
    Parameter("assassination_weight", 0.0, -5.0, 5.0,
              "added to an assassination attempt at a betrayal play (§4.4 steps 2-3; not at takes or "
              "discards); -5, the range's low end, never attempts one"),
)
assert len(GREEDY_PARAMS) == N_GREEDY_PARAMS
# A parameter at the low end of its range means "never" for the optional decision it weighs,
# whatever the others: restricted play (courtsim landscape, configs/landscape/heads_of_state.yaml)
# switches an option off so; no shipped bot sits there. The ends are the ranges' own (numba
# freezes them).
NEVER_CAPITAL_ATTACK = float(GREEDY_PARAMS[P_CAPITAL_ATTACK_WEIGHT].low)    # no betrayal play on a capital
NEVER_ASSASSINATION = float(GREEDY_PARAMS[P_ASSASSINATION_WEIGHT].low)      # no assassin (nor mixed) play
# A displayed betrayal card is worth at least 2 + assassin_preference (an assassin; a country card
# 1), plus betrayal_take_weight (>= 0) x a gain (>= 0): a blind draw valued below that lowest worth
# is taken only when the display is empty (greedy.btake_value).
LOWEST_DISPLAYED_BETRAYAL_CARD = 2.0 + float(GREEDY_PARAMS[P_ASSASSIN_PREFERENCE].low)
NEVER_BLIND_BETRAYAL_DRAW = float(GREEDY_PARAMS[P_BETRAYAL_DECK_VALUE].low)
assert NEVER_BLIND_BETRAYAL_DRAW < min(LOWEST_DISPLAYED_BETRAYAL_CARD, 1.0)

# in the order of P_ROLLOUTS ... (search.py's docstring says how they play). The pre-issue-13
# search is rollouts 16, max_candidates 3, horizon 0, stop_at_round_end 0, clear_lead 0,
# distinct_takes 0 (configs/bots/heads_of_state/search_classic.yaml).
SEARCH_PARAMS = (
    Parameter("rollouts", 8, 0, 1000,
              "playouts per candidate at each searched decision (the budget; 0 = play as the greedy)",
              integer=True),
    Parameter("max_candidates", 3, 1, 32,
              "candidates searched per decision: the ones the greedy values most", integer=True),
    Parameter("horizon", 2, 0, 100,
              "turns of every player a rollout plays after the searched turn before the position is "
              "evaluated (0 = to the end of the game)", integer=True),
    Parameter("stop_at_round_end", 0, 0, 1,
              "1 = a rollout also stops (and is evaluated) when the round ends", integer=True),
    Parameter("clear_lead", 0.5, 0.0, 100.0,
              "a take or betrayal play whose greedy favourite leads the runner-up by at least this much "
              "is not searched (0 = search every such decision)"),
    Parameter("distinct_takes", 1, 0, 1,
              "1 = display cards of the same type are one take candidate", integer=True),
    Parameter("held_card_value", 1.0, 0.0, 10.0,
              "evaluation of a stopped rollout: points per character card in hand"),
    Parameter("future_rounds_weight", 0.5, 0.0, 2.0,
              "evaluation of a stopped rollout: weight of each later round's influence scoring, "
              "as if the board stayed as it is"),
)
assert len(SEARCH_PARAMS) == N_SEARCH_PARAMS
# family name -> its documented parameters, in vector order (strategies/parameters.py)
FAMILY_PARAMETERS = {"random": (), "greedy": GREEDY_PARAMS, "search": GREEDY_PARAMS + SEARCH_PARAMS}
N_PARAMETERS = max(len(parameters) for parameters in FAMILY_PARAMETERS.values())


def default_params(family: str) -> np.ndarray:
    return parameter_vector(FAMILY_PARAMETERS[family], None, N_PARAMETERS, family)
