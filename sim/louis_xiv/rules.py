"""Louis XIV rule switches: the rules file's open questions (§10) and assumptions (§12) that
are choices rather than numbers. Defaults are the rules file's; each can be set in the
``rules:`` block of configs/games/louis_xiv.yaml or with ``--rule NAME=VALUE``.

A switch is on/off (``true``/``false``) or a choice among named readings (``choices``, the
default first). The kernel reads them from a float64 vector: ``rules[LOUIS_EMPTY_TILE_FLIPS]``
is 0.0 or 1.0, a choice is the index of the reading (``rules[FINAL_TIE] == FINAL_TIE_SHARED``).
"""
from dataclasses import dataclass

from sim.core.arguments import parse_bool
from sim.core.engine import ConfigError
from sim.core.yaml_files import found_text


@dataclass(frozen=True)
class RuleSwitch:
    name: str
    default: bool | str
    meaning: str
    choices: tuple[str, ...] = ()   # named readings (the default first); empty for on/off


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
    RuleSwitch("imaginary_sole_top_flips", True,
               "Q19: true = a gold or first-place courtier where the two-player imaginary player alone "
               "has most markers flips, as for a player; false = it does not flip (nobody won it)"),
    RuleSwitch("imaginary_player_ties", "block",
               "Q19: block = a real player tied for most with the imaginary player is tied (no free gift, "
               "no flip; on Louis XIV's courtier case D, no crown); lose = the imaginary player loses "
               "ties: a real player tied with it counts as the sole top holder",
               ("block", "lose")),
    RuleSwitch("imaginary_player_takes_louis_crown", True,
               "§8/Q19: true = on Louis XIV's courtier the imaginary player ranks like a player, so when it "
               "alone has most the crown is lost (the best real player gets the second-place gift) and a "
               "tie with it gives no crown; false = it is left out of Louis XIV's ranking there, the real "
               "players are ranked among themselves for the crown and the second place"),
    RuleSwitch("tied_second_under_louis", "may_bribe",
               "Q3: under Louis XIV on a gold side, two or more players tied for second place: may_bribe = "
               "nobody gets the second-place gift, they may bribe like everyone else; each_gets_gift = each "
               "gets the gift free (as tied top holders do in case D); no_bribe = they get nothing and may "
               "not bribe (as on a first-place side, the seed's example)",
               ("may_bribe", "each_gets_gift", "no_bribe")),
    RuleSwitch("once_first_partner_is_second", True,
               "Q4: DB-ONCEFIRST under Louis XIV with exactly one other player tied: true = he is second and "
               "gets the second-place gift; false = the players it beat get no second place (on a gold side "
               "they may bribe), as in the seed's example with two tied"),
    RuleSwitch("intrigue_needs_own_marker", False,
               "Q5: false = an intrigue card may be played on its courtier even where its holder has no "
               "marker; true = only where he already has one"),
    RuleSwitch("place_four_path", "four_courtiers",
               "Q6: DB-PLACE4's placement path: four_courtiers = up to 4 courtiers (the 3-marker rule "
               "extended); three_courtiers = at most two jumps, as a courtier card; two_courtiers = at most "
               "one jump, as a joker",
               ("four_courtiers", "three_courtiers", "two_courtiers")),
    RuleSwitch("markers_added_during_evaluation_stay", True,
               "Q11: true = markers a gift puts on the courtier being evaluated (Condé on his own tile) stay "
               "for next round; false = they leave with the evaluated markers (a top holder's to the "
               "general supply, others' to the own supply)"),
    RuleSwitch("maintenon_markers_mandatory", False,
               "Q12: false = Maintenon's markers on her named courtier are optional (0-2); true = mandatory, "
               "as many as the supplies allow"),
    RuleSwitch("discounted_bribe_costs_at_least_one", False,
               "Q13: false = DB-BRIBE-1 makes a bribe cost max(0, cost - discount); true = at least 1 gold "
               "(differs only where a bribe cost is at most the discount; the printed costs are 2-4)"),
    RuleSwitch("coat_majorities_one_kind_at_a_time", False,
               "Q16: false = all six kinds are compared before any bonus coat is drawn; true = each kind's "
               "bonus coats are drawn as it is compared, so they count in later kinds' majorities"),
    RuleSwitch("final_tie", "shared",
               "Q17: players still tied after the own-supply tiebreak: shared = each is a winner; "
               "later_seat = the one latest in seat order from the first start player wins; "
               "most_gold_left = the one with most gold left after the conversions wins (still tied: shared)",
               ("shared", "later_seat", "most_gold_left")),
    RuleSwitch("intrigue_usable_same_phase", True,
               "Q24: true = an intrigue card gained during an evaluation phase (Louvois) may be played on "
               "courtiers not yet evaluated in it; false = only from the next evaluation phase (the same "
               "with the printed data, where Louvois is the last courtier)"),
    RuleSwitch("conde_targets", "any_courtier",
               "Q26: where Condé's marker may go: any_courtier = 1-12, his own tile and Louis XIV's included; "
               "not_his_own = any courtier but Condé; later_courtiers = only courtiers evaluated after "
               "Condé this round (it counts now)",
               ("any_courtier", "not_his_own", "later_courtiers")),
)
SWITCH_INDEX = {switch.name: index for index, switch in enumerate(SWITCHES)}
(LOUIS_EMPTY_TILE_FLIPS, PLACE_AT_LEAST_ONE_MARKER, STRICT_SUPPLIES, MISSION_SWAP_AT_PHASE_END,
 RANDOM_START_PLAYER, THREE_PLAYER_COMPENSATION, IMAGINARY_SOLE_TOP_FLIPS, IMAGINARY_PLAYER_TIES,
 IMAGINARY_PLAYER_TAKES_LOUIS_CROWN, TIED_SECOND_UNDER_LOUIS, ONCE_FIRST_PARTNER_IS_SECOND,
 INTRIGUE_NEEDS_OWN_MARKER, PLACE_FOUR_PATH, MARKERS_ADDED_DURING_EVALUATION_STAY,
 MAINTENON_MARKERS_MANDATORY, DISCOUNTED_BRIBE_COSTS_AT_LEAST_ONE, COAT_MAJORITIES_ONE_KIND_AT_A_TIME,
 FINAL_TIE, INTRIGUE_USABLE_SAME_PHASE, CONDE_TARGETS) = range(len(SWITCHES))
N_SWITCHES = len(SWITCHES)

# The readings of the choice switches, as the kernel sees them (index in ``choices``)
IMAGINARY_TIES_BLOCK, IMAGINARY_TIES_LOSE = range(2)
TIED_SECOND_MAY_BRIBE, TIED_SECOND_EACH_GETS_GIFT, TIED_SECOND_NO_BRIBE = range(3)
PLACE_FOUR_FOUR_COURTIERS, PLACE_FOUR_THREE_COURTIERS, PLACE_FOUR_TWO_COURTIERS = range(3)
FINAL_TIE_SHARED, FINAL_TIE_LATER_SEAT, FINAL_TIE_MOST_GOLD_LEFT = range(3)
CONDE_ANY_COURTIER, CONDE_NOT_HIS_OWN, CONDE_LATER_COURTIERS = range(3)


def switch_number(name: str, value, where: str) -> float:
    """A switch value (YAML boolean or word, or a reading's name) as the kernel's number;
    ConfigError naming ``where`` if the switch has no such value."""
    switch = SWITCHES[SWITCH_INDEX[name]]
    if not switch.choices:
        return float(parse_bool(value, where))
    if not isinstance(value, str) or value not in switch.choices:
        raise ConfigError(f"{where}: expected {' or '.join(switch.choices)}, found {found_text(value)}")
    return float(switch.choices.index(value))


def switch_settings(rules) -> dict:
    """The rule vector by switch name, as a user writes it (true/false or a reading's name)."""
    return {switch.name: (switch.choices[int(rules[index])] if switch.choices else bool(rules[index]))
            for index, switch in enumerate(SWITCHES)}
