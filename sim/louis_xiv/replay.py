"""Turn the kernel's integer event log (``state.trace``, events.py) into a readable game log
that a designer can check against the rulebook, step by step."""
from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.decisions import MOVE_KIND_NAMES, PLACE_FOUR
from sim.louis_xiv.tables import LOUIS_CASE_NAMES
from sim.louis_xiv.state import (COATS_FROM_CONVERSION, COATS_FROM_GIFTS, COATS_FROM_MAJORITY, COATS_FROM_MISSIONS,
                                 COATS_FROM_TOKEN_CAP)

INTRIGUE_OPTIONS = ("keeps it", "1 marker from the general supply", "1 marker from the own supply",
                    "2 markers from the own supply")
INCOME_OPTIONS = ("2 gold", "1 gold + 1 marker", "2 markers")
EXHAUSTED_WHAT = ("token pile", "coat pile", "bank")
COATS_FROM = {COATS_FROM_GIFTS: "gift", COATS_FROM_MISSIONS: "B-COAT", COATS_FROM_TOKEN_CAP: "token cap",
              COATS_FROM_CONVERSION: "end conversion", COATS_FROM_MAJORITY: "majority bonus"}


def courtier_name(index: int) -> str:
    return f"courtier {index + 1}" if index >= 0 else "none"


def card_name(kind: int) -> str:
    return "joker" if kind == C.JOKER else f"card {kind + 1}"


def seats(mask: int) -> str:
    chosen = [str(seat + 1) for seat in range(C.MAX_PLAYERS) if mask & (1 << seat)]
    return ", ".join(chosen) if chosen else "nobody"


def amount(count: int, thing: str) -> str:
    return f"{count} {thing}" + ("" if count == 1 else "s")


def one_marker_placement(seat: int, ability: str, placed: int, courtier: int) -> str:
    """A start- or end-of-phase ability's own marker on a courtier (``placed`` 0: none was left)."""
    if placed == 0:
        return f"  seat {seat + 1} ({ability}) has no own marker left to put on {courtier_name(courtier)}"
    return f"  seat {seat + 1} ({ability}) puts {placed} marker on {courtier_name(courtier)}"


def gift_contents(token: int, coats: int, gold: int, influence_cards: int, intrigue_cards: int) -> str:
    """What a gift holds (GIFT event); Condé's and Maintenon's markers follow on lines of their own."""
    parts = [f"a {C.TOKEN_NAMES[token]}"] if token >= 0 else []
    for count, thing in ((coats, "coat"), (gold, "gold"), (influence_cards, "influence card"),
                         (intrigue_cards, "intrigue card")):
        if count > 0:
            parts.append(f"{count} gold" if thing == "gold" else amount(count, thing))
    return ", ".join(parts) or "markers only (below)"


def ability_detail(ability: int, detail: int, mission_names) -> str:
    """What an ABILITY_USED event's detail means for each ability (§6), in words."""
    if ability == C.B_INCOME:
        return INCOME_OPTIONS[detail]
    if ability in C.START_PLACEMENT_ABILITIES:
        return f"chooses to put an own marker on {courtier_name(detail)}"
    if ability == C.DB_ENDPLACE:
        return f"chooses {courtier_name(detail)} for an own marker at the end of the influence phase"
    if ability == C.DB_ONCEFIRST:
        return f"tied for most markers on {courtier_name(detail)}, becomes its sole top holder"
    if ability in (C.LB_MARKER, C.DB_MARKERS3):
        return f"moves {amount(detail, 'own marker')} general -> own supply"
    if ability in (C.LB_GOLD, C.DB_GOLD3):
        return f"takes {detail} gold"
    if ability == C.B_COAT:
        return f"draws {amount(detail, 'coat')} of arms"
    if ability == C.LB_EXTRA:
        return f"draws {detail} mission cards instead of 1"
    if ability == C.LB_SKIP:
        return f"pays {detail} gold instead of playing a card"
    if ability == C.LB_TOKENSWAP:
        return f"returns a {C.TOKEN_NAMES[detail]} for a crown"
    if ability == C.LB_MISSIONSWAP:
        return f"swaps {amount(detail, 'mission card')}"
    if ability == C.B_CARDSWAP:
        return f"swaps {card_name(detail)} for the top influence card"
    if ability == C.DB_PLACE4:
        return f"spends {card_name(detail)} as a joker of 4"
    if ability == C.DB_INTRIGUE:
        return (f"draws the intrigue card of {courtier_name(detail)}" if detail >= 0
                else "draws no intrigue card (the deck is empty)")
    if ability == C.DB_CARDFORMARKER:
        drawn = card_name(detail) if detail >= 0 else "nothing (the deck is empty)"
        return f"an own marker own -> general supply buys the top influence card: {drawn}"
    if ability == C.DB_BRIBE_1:
        return f"the bribe costs {detail} gold less"
    return str(detail)


# Events that list things one row at a time (events.py): ``decode`` joins consecutive rows of one
# list into one line. Each gives (key of its list, the line's start, this row's item).
def list_event(code, a, b, c, mission_names):
    if code == E.INFLUENCE_HAND:
        return a, f"    seat {a + 1}'s influence cards: ", card_name(b) + (f" x{c}" if c > 1 else "")
    if code == E.MISSION_DEALT:
        return a, f"Setup: seat {a + 1} is dealt the start missions ", mission_names[b] if b >= 0 else "none (deck empty)"
    if code == E.COAT_DRAWN:
        return (a, c), f"  seat {a + 1} draws coats of arms ({COATS_FROM.get(c, 'other')}): ", f"kind {b + 1}"
    if code == E.COATS_HELD:
        return a, f"End: seat {a + 1}'s coats of arms by kind before the majorities: ", f"kind {b + 1} x{c}"
    return None


LIST_EVENTS = (E.INFLUENCE_HAND, E.MISSION_DEALT, E.COAT_DRAWN, E.COATS_HELD)


def describe(row, mission_names) -> str:  # noqa: C901 - one branch per event code reads best
    code, a, b, c, d, e, f, g = (int(value) for value in row)
    if code in LIST_EVENTS:
        _, start, item = list_event(code, a, b, c, mission_names)
        return start + item
    if code == E.ROUND_START:
        return f"== Round {a} (start player: seat {b + 1}) =="
    if code == E.GOLD_CARD:
        return f"Resources: gold card {a + 1}: every player takes {b} gold; Louis XIV goes to {courtier_name(c)}"
    if code == E.COMPENSATION_INTRIGUE:
        return f"  three-player compensation: seat {a + 1} takes the top intrigue card ({courtier_name(b)})"
    if code == E.ABILITY_USED:
        return f"  seat {a + 1} uses {C.ABILITY_NAMES[b]}: {ability_detail(b, c, mission_names)}"
    if code == E.INFLUENCE_DRAWN:
        return f"  seat {a + 1} holds {b} influence cards"
    if code == E.IMAGINARY_PLACED:
        if a == -2:
            return f"  imaginary player reveals {courtier_name(b)}, Louis XIV's courtier, and reveals another card"
        if a < 0:
            return "  imaginary player reveals a joker and reveals another card"
        return f"  imaginary player puts {b} markers on {courtier_name(a)}"
    if code == E.START_PLACEMENT:
        return one_marker_placement(a, C.ABILITY_NAMES[b], d, c)
    if code == E.PLACE:
        path = []
        for packed in (c, d, e, f):
            courtier, count = divmod(packed, 16)
            if courtier >= 0 and count > 0:
                path.append(f"{count} on {courtier + 1}")
        how = " (DB-PLACE4)" if g == PLACE_FOUR else ""
        played = card_name(b)
        if not path:
            return f"Influence: seat {a + 1} plays {played}{how} for nothing (places no marker)"
        return f"Influence: seat {a + 1} plays {played}{how} and places " + " -> ".join(path)
    if code == E.RETRIEVE:
        return f"Influence: seat {a + 1} plays {card_name(b)} ({MOVE_KIND_NAMES[d]}) and retrieves {c} markers"
    if code == E.SKIP:
        return f"Influence: seat {a + 1} pays {b} gold to skip (LB-SKIP)"
    if code == E.CARD_SWAP:
        drawn = card_name(c) if c >= 0 else "nothing"
        return f"Influence: seat {a + 1} swaps {card_name(b)} for {drawn} (B-CARDSWAP)"
    if code == E.END_PLACEMENT:
        return one_marker_placement(a, "DB-ENDPLACE", c, b)
    if code == E.RESHUFFLE:
        return "  all influence cards are shuffled into a new deck"
    if code == E.INTRIGUE_PLAYED:
        return f"Evaluation: seat {a + 1} plays the intrigue card of {courtier_name(b)}: {INTRIGUE_OPTIONS[c]} ({d} added)"
    if code == E.ONCE_FIRST:
        return f"  seat {a + 1} uses DB-ONCEFIRST on {courtier_name(b)}"
    if code == E.MARKER_COUNTS:
        counts = ", ".join(f"seat {seat + 1}: {count}" for seat, count in enumerate((b, c, d, e)) if count > 0)
        imaginary = f", imaginary: {f}" if f else ""
        return f"Evaluation of {courtier_name(a)}: markers {counts or 'none'}{imaginary}"
    if code == E.EVALUATION:
        mode = C.MODE_NAMES[b]
        if b == C.THRESHOLD_MODE and not c:
            return f"  threshold side: gift to {seats(e)}"
        louis = f", Louis XIV case {LOUIS_CASE_NAMES[f]}" if c else ""
        top = "none (tie or empty)" if d < 0 else ("the imaginary player" if d == C.IMAGINARY else f"seat {d + 1}")
        second = f", second place: seat {g + 1}" if g >= 0 else ""
        return f"  {mode} side{louis}: sole top holder {top}; free gift to {seats(e)}{second}"
    if code == E.GIFT:
        return f"  seat {a + 1} receives the gift of {courtier_name(b)}: {gift_contents(c, d, e, f, g)}"
    if code == E.LOUIS_CROWN:
        return f"  seat {a + 1} takes Louis XIV's crown as the top holder of {courtier_name(b)}"
    if code == E.GIFT_RETRIEVE:
        return f"  seat {a + 1} moves {amount(c, 'own marker')} general -> own supply (gift of {courtier_name(b)})"
    if code == E.BRIBE:
        return f"  seat {a + 1} bribes {courtier_name(b)} for {c} gold"
    if code == E.CONDE_PLACEMENT:
        return f"  seat {a + 1} (Condé) puts a marker on {courtier_name(b)}"
    if code == E.MAINTENON:
        from_own = f" ({d} of them from the own supply)" if d else ""
        return f"  seat {a + 1} (Maintenon) puts {amount(c, 'marker')} on {courtier_name(b)}{from_own}"
    if code == E.MARKERS_RETURNED:
        return f"  markers leave {courtier_name(a)}; to the general supply: {seats(b)}"
    if code == E.FLIP:
        return f"  {courtier_name(a)} flips to side {'AB'[b]}"
    if code == E.MISSION_PLAYED:
        return (f"Missions: seat {a + 1} plays {mission_names[b]} paying {C.TOKEN_NAMES[c]} + {C.TOKEN_NAMES[d]}")
    if code == E.MISSION_DRAWN:
        drawn = mission_names[c] if c >= 0 else "nothing"
        return f"  seat {a + 1} draws from the {C.COLOUR_NAMES[b]} deck: {drawn}"
    if code == E.TOKEN_SWAP:
        return f"  seat {a + 1} pays {c} gold, returns a {C.TOKEN_NAMES[b]} and takes a crown (LB-TOKENSWAP)"
    if code == E.MISSION_SWAP:
        swapped = ", ".join(mission_names[card] for card in (b, c) if card >= 0)
        return (f"  seat {a + 1} puts {amount(d, 'mission card')} ({swapped}) under the decks and draws as many"
                " (LB-MISSIONSWAP)")
    if code == E.TOKEN_CAP:
        kept = [amount(count, C.TOKEN_NAMES[kind]) for kind, count in enumerate((c, d, e, f, g)) if count > 0]
        return (f"  seat {a + 1} returns {amount(b, 'token')} over the limit and takes as many coats;"
                f" keeps {', '.join(kept) or 'no token'}")
    if code == E.CONVERSION:
        # the gold a coat costs is game data (gold_per_coat_at_end): name the coats, not a rate
        return (f"End: seat {a + 1} converts {b} influence, {c} intrigue, {d} tokens, {e} markers on courtiers"
                f" and gold worth {amount(f, 'coat')} into coats")
    if code == E.MAJORITY_BONUS:
        return f"End: coat kind {a + 1} majority bonus to seat(s) {seats(b)}"
    if code == E.FINAL_SCORE:
        return f"End: seat {a + 1} scores {b} ({c} coats, {d} missions; {e} markers in own supply)"
    if code == E.WINNER:
        how = " (own-supply tiebreak)" if b else ""
        return f"Winner: seat(s) {seats(a)} with {c} points{how}"
    if code == E.EXHAUSTED:
        return f"  the {EXHAUSTED_WHAT[a]} is empty: a virtual supply is used (seat {c + 1})"
    if code == E.GIFT_CARD:
        deck = ("influence", "intrigue")[c]
        if d < 0:
            return f"  seat {a + 1} draws no {deck} card (the deck is empty; gift of {courtier_name(b)})"
        card = f"{card_name(d)} from the influence deck" if c == 0 else f"the intrigue card of {courtier_name(d)}"
        return f"  seat {a + 1} draws {card} (gift of {courtier_name(b)})"
    return f"event {code}: {a} {b} {c} {d} {e} {f} {g}"


def decode(trace, length, mission_names) -> str:
    """The log's lines; the rows of one list (LIST_EVENTS: a hand, a draw of coats) make one line."""
    lines = []
    open_list = None          # (code, key) of the list the last line shows
    for row in range(min(length, trace.shape[0])):
        code, a, b, c = (int(value) for value in trace[row, :4])
        if code in LIST_EVENTS:
            key, start, item = list_event(code, a, b, c, mission_names)
            if open_list == (code, key):
                lines[-1] += ", " + item
            else:
                lines.append(start + item)
                open_list = (code, key)
            continue
        open_list = None
        lines.append(describe(trace[row], mission_names))
    return "\n".join(lines)
