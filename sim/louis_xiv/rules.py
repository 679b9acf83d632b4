"""Louis XIV rule switches: the rules file's open questions (§10) and assumptions (§12) that
are choices rather than numbers. Defaults are the rules file's; each can be set in the
``rules:`` block of configs/games/louis_xiv.yaml or with ``--rule NAME=VALUE``.

The kernel reads them from a float64 vector: ``rules[LOUIS_EMPTY_TILE_FLIPS]``.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class RuleSwitch:
    name: str
    default: bool
    meaning: str


SWITCHES = (
    RuleSwitch("louis_empty_tile_flips", True,
               "Q2: Louis XIV's courtier flips after evaluation even when nobody had markers there"),
    RuleSwitch("place_at_least_one_marker", True,
               "Q9: a PLACE must put at least one marker when the own supply holds any "
               "(false: a card may be played as a pure pass)"),
    RuleSwitch("strict_supplies", False,
               "Q14/A7: false = an empty token pile, coat pile or bank is replaced by an unlimited "
               "virtual supply (coats then uniform over the kinds) and counted; true = the gift is lost"),
    RuleSwitch("mission_swap_at_phase_end", False,
               "Q18: false = LB-MISSIONSWAP at the end of the owner's own mission turn; "
               "true = after all players' mission turns, in seat order"),
    RuleSwitch("random_start_player", False,
               "§3 step 7: false = seat 1 is the first start player; true = a seeded random seat"),
    RuleSwitch("three_player_compensation", True,
               "§9: with 3 players the start player of round 4 takes the top intrigue card"),
)
SWITCH_INDEX = {switch.name: index for index, switch in enumerate(SWITCHES)}
(LOUIS_EMPTY_TILE_FLIPS, PLACE_AT_LEAST_ONE_MARKER, STRICT_SUPPLIES, MISSION_SWAP_AT_PHASE_END,
 RANDOM_START_PLAYER, THREE_PLAYER_COMPENSATION) = range(len(SWITCHES))
N_SWITCHES = len(SWITCHES)
