"""Heads of State (Peter Hawes, 2-5 players): compiled engine. Rules: shared/rules/heads_of_state.md.

Where each rulebook part lives (kernel functions are named after the rule step and cite the §):

=====================  ==================================================================
§1-2 data, map         data.py (YAML -> pydantic -> ``HosData`` arrays, ConfigError),
                       configs/games/heads_of_state.yaml (every number, H1-H11, switches)
state, constants       state.py (``HosState`` array record, named indices, ``copy_state``); kernel
                       decorators and copy helpers: sim/core/kernels.py, as for Louis XIV
§3 setup               kernel.setup_game, decks.build_character_decks / setup_betrayal_deck
§4.1-4.2, 4.4 step 1,  turn.py (first turn, option 1a/1b, option 2 takes, end of turn,
§4.5                   revolution interrupts -> round_end.revolution, then the take repeats)
§4.3 raising, §1.4     nobles.py (payments with courtesan, legal raises, raise_noble)
§4.4 steps 2-3         betrayal.py -- **assassin odds: betrayal.assassination_succeeds**; targets
                       and the cards a play takes: betrayal_targets.py (also read by the greedy)
§4.4 step 3, Q8        refill_plan.py (deferred refills: refill-plan search, end-of-plays refills)
§4.6 decks             decks.py (draws, 1b set-aside, betrayal reshuffle Q26)
§5 round end           round_end.py (influence scoring rows, hand cuts, new decks)
§6 scoring             scoring.py (hexagon, square, large tokens, influence + tie-breaks,
                       majorities, winner)
bots (H12)             strategies/heads_of_state/ (decide.choose: the one entry point; greedy, search);
                       decision codes and move rows: decisions.py
chunk loop             kernel.py; outputs: tables.py; trace codes: events.py; replay text: replay.py
API                    engine.py (``ENGINE``); invariants.py (checks used by property tests)
=====================  ==================================================================

Rule questions (rules §7.1) and where their default lives:
* with a switch (YAML ``rules:``): §3 step 11 ``random_start_player`` (default on: the start player
  is drawn; off: seat 0 starts every game), Q3 ``first_turn_refresh``, Q7 ``option2_take_order``,
  Q8 ``option2_refill`` (interleaved / deferred: refill_plan.py), Q9 ``mix_assassin_and_country``
  (1 assassin + 1 country card on a capital, resolved by the bag draw: betrayal.py),
  Q14 ``courtesan_only_for_missing``, Q17 ``large_token_counts_noble_cards``; top-level keys:
  Q26 ``betrayal_reshuffle``, Q36 ``gb_capital_box_ranks``, Q6 ``option1b_min_regular_deck``.
* fixed to the rules file's default, no switch: Q1 (turn.end_of_turn order), Q2, Q4, Q5/Q38
  (turn.take_character_card repeats the interrupted take), Q10-Q13, Q15, Q16, Q18 (nobles.raise_noble
  order), Q19 (scoring.rank_country: lexicographic hexagon key, then RNG_TIEBREAK), Q20-Q25,
  Q27-Q35, Q37.

The hot kernels are ``game_kernel`` functions, compiled without reference counting (see state.py):
they must not allocate.
Nothing is imported here, so ``import sim.heads_of_state`` stays cheap.
"""
from sim import use_source_keyed_numba_cache

use_source_keyed_numba_cache("heads_of_state", extra_sources=("strategies/heads_of_state",))  # before any kernel module of this game is imported
