"""Turn the kernel's integer event log (``context.trace``, events.py) into a readable game log
that a designer can check against the rulebook, turn by turn."""
from sim.heads_of_state import events as ev
from sim.heads_of_state.state import COUNTRY_NAMES, MAX_PLAYERS, OPTION_NAMES, RANK_NAMES, STEP_NAMES


def decode_events(events, description, bot_names=None):
    """Readable lines for trace events (code, a, b, c)."""
    regions = description["region_ids"]
    boxes = description["box_names"]
    chars = description["character_types"] + ["REVOLUTION"]
    btypes = description["betrayal_types"]
    years = description["rounds"]
    tokens = description["round_tokens"]
    display_size = description["game_data"]["display_size"]
    bdisplay_size = description["game_data"]["betrayal_display_size"]

    def slots(packed, n_slots, bits, names):
        cards = [(packed >> (bits * slot)) & ((1 << bits) - 1) for slot in range(n_slots)]
        return ", ".join(names[card - 1] if card else "-" for card in cards)

    def a_rank(r):
        name = RANK_NAMES[r]
        return ("an " if name[0] in "aeiou" else "a ") + name

    def seat(player):
        name = f"seat {player}"
        if bot_names is not None and 0 <= player < len(bot_names):
            name += f" ({bot_names[player]})"
        return name

    lines = []
    for code, a, b, c in events.tolist():
        if code == ev.EV_GAME_START:
            lines.append(f"game {b}: {a} players, seed {c % 2**64}; seats numbered from 0, as in the tables")
        elif code == ev.EV_ROUND_START:
            lines.append(f"== round {years[a]} ==")
        elif code == ev.EV_TURN:
            lines.append(f"-- turn {c}: {seat(a)} plays {OPTION_NAMES[b]}")
        elif code == ev.EV_TAKE_DISPLAY:
            lines.append(f"   {seat(a)} takes {chars[c]} from display slot {b}")
        elif code == ev.EV_TAKE_DECK:
            lines.append(f"   {seat(a)} draws {chars[b]} from the deck")
        elif code == ev.EV_TAKE_SET_ASIDE:
            lines.append(f"   {seat(a)} takes {chars[c]} from the set-aside cards (Q31 switch)")
        elif code == ev.EV_STARTING_POINTS:
            lines.append(f"   {seat(a)} starts with {b} points (starting_points)")
        elif code == ev.EV_DEAD_RETURN:
            lines.append(f"   {seat(a)}'s {b} dead tiles return to his supply (Q15 switch)")
        elif code == ev.EV_REFRESH:
            lines.append(f"   {seat(a)} refreshes the display (option 1b)")
        elif code == ev.EV_RAISE:
            lines.append(f"   {seat(a)} raises {a_rank(c)} in {boxes[b]}")
        elif code == ev.EV_COURTESAN:
            lines.append(f"   {seat(a)} pays with a courtesan instead of {chars[b]}")
        elif code == ev.EV_NO_CARD:
            lines.append(f"   {seat(a)} gets no {RANK_NAMES[b]} card (pile empty)")
        elif code == ev.EV_HEXAGON:
            lines.append(f"   {seat(a)} takes the {regions[b]} hexagon token: +{c}")
        elif code == ev.EV_SQUARE:
            lines.append(f"   {seat(a)} takes a {COUNTRY_NAMES[b]} square token: +{c // 100}"
                         f" ({c % 100} dead tiles return)")
        elif code == ev.EV_LARGE:
            lines.append(f"   {seat(a)} has raised all 7 ranks: large round token +{b}")
        elif code == ev.EV_BTAKE_DISPLAY:
            lines.append(f"   {seat(a)} takes betrayal card {btypes[c]} from display slot {b}")
        elif code == ev.EV_BTAKE_DECK:
            lines.append(f"   {seat(a)} draws betrayal card {btypes[b]}")
        elif code == ev.EV_BPLAY:
            card_a, card_b = c // 100, c % 100 - 1
            cards = btypes[card_a] + (f" + {btypes[card_b]}" if card_b >= 0 else "")
            lines.append(f"   {seat(a)} plays {cards} on {boxes[b]}")
        elif code == ev.EV_BAG:
            lines.append(f"   bag draw: {'own cube - success' if b else 'victim cube - failure'}")
        elif code == ev.EV_KILL:
            lines.append(f"   {seat(a)}'s {RANK_NAMES[c]} in {boxes[b]} dies")
        elif code == ev.EV_LEAVE_EMPTY:
            lines.append(f"   {seat(a)} leaves {boxes[b]} empty")
        elif code == ev.EV_DISCARD:
            lines.append(f"   {seat(a)} discards {chars[b]}")
        elif code == ev.EV_BDISCARD:
            lines.append(f"   {seat(a)} discards betrayal card {btypes[b]}")
        elif code == ev.EV_BRESHUFFLE:
            lines.append(f"   betrayal discards reshuffled into a deck of {a}")
        elif code == ev.EV_REVOLUTION:
            lines.append(f"** revolution card: round {years[a]} ends (during {STEP_NAMES[b]})")
        elif code == ev.EV_COUNTRY:
            first, second = tokens[COUNTRY_NAMES[a]]
            lines.append(f"   {COUNTRY_NAMES[a]}: 1st {seat(b) + f' +{first}' if b >= 0 else '-'}, "
                         f"2nd {seat(c) + f' +{second}' if c >= 0 else '-'}")
        elif code == ev.EV_MAJORITY:
            lines.append(f"   {seat(a)} noble-card majority {RANK_NAMES[b]}: +{c}")
        elif code == ev.EV_SCORE:
            lines.append(f"final score {seat(a)}: {b}")
        elif code == ev.EV_DISPLAYS:
            when = ("display", "new display", "display after the refill")[c]
            lines.append(f"   {when}: {slots(a, display_size, ev.DISPLAY_BITS, chars)}; "
                         f"betrayal display: {slots(b, bdisplay_size, ev.BETRAYAL_DISPLAY_BITS, btypes)}")
        elif code == ev.EV_GAME_END:
            winners = [seat(player) for player in range(MAX_PLAYERS) if a & (1 << player)]
            how = ("", " (noble-card tie-break)", " (shared)")[c]
            lines.append(f"winner: {', '.join(winners)}{how}")
        else:
            lines.append(f"?? event {code} {a} {b} {c}")
    return lines
