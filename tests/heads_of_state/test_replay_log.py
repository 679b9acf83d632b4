"""The replay log lets a referee check every take from a display (§3 steps 5-6, §4.2 1b, §4.5
steps 2-3): the contents of the character display and the betrayal display are logged when
they are dealt (round start), renewed (Option 1b) and refilled (end of turn) -- in trace mode
only (events.EV_DISPLAYS, trace_displays)."""
import numpy as np
import pytest

from sim.heads_of_state import events as ev
from sim.heads_of_state.engine import ENGINE


def unpack(packed, n_slots, bits):
    """A packed display (EV_DISPLAYS) as card types, -1 = empty slot."""
    return [((packed >> (bits * slot)) & ((1 << bits) - 1)) - 1 for slot in range(n_slots)]


def bots_for(n_players):
    return [ENGINE.resolve_bot("greedy" if seat % 2 else "random") for seat in range(n_players)]


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_s4_5_every_display_take_is_the_card_the_log_shows_in_that_slot(setup, n_players):
    """Walk the log: the displays as last logged, minus the takes since; every take from a slot
    must be the card logged there, and at the start of every turn both displays are as logged
    (full unless a deck ran dry), so no refill went unlogged."""
    size, bsize = setup.data.display_size, setup.data.bdisplay_size
    checked = {"character": 0, "betrayal": 0, "refreshed": 0}
    for game in range(6):
        events = ENGINE.trace_events(setup, n_players, bots_for(n_players), 23, game).tolist()
        display = bdisplay = None
        refreshed = False
        for code, a, b, c in events:
            if code == ev.EV_DISPLAYS:
                display, bdisplay = unpack(a, size, ev.DISPLAY_BITS), unpack(b, bsize, ev.BETRAYAL_DISPLAY_BITS)
                if refreshed:
                    assert c == ev.DISPLAYS_REFRESHED
                    checked["refreshed"] += 1
                refreshed = False
            elif code == ev.EV_REFRESH:
                refreshed = True                  # the next event must be the new display
            elif code == ev.EV_TURN:
                assert display is not None and -1 not in display, (game, events.index([code, a, b, c]))
            elif code == ev.EV_TAKE_DISPLAY:
                assert not refreshed and display[b] == c
                display[b] = -1
                checked["character"] += 1
            elif code == ev.EV_BTAKE_DISPLAY:
                assert bdisplay[b] == c
                bdisplay[b] = -1
                checked["betrayal"] += 1
    assert min(checked.values()) > 0, checked


def test_s3_5_the_replay_shows_the_dealt_displays(setup):
    lines = ENGINE.replay(setup, 3, bots_for(3), 23, 1).splitlines()
    dealt = [line for line in lines if line.startswith("   display: ")]
    assert len(dealt) == 3                                        # 1589, 1689, 1789
    assert lines[lines.index(dealt[0]) - 1] == "== round 1589 =="
    cards, betrayal = dealt[0][len("   display: "):].split("; betrayal display: ")
    assert len(cards.split(", ")) == setup.data.display_size
    assert all(card in setup.description["character_types"] for card in cards.split(", "))
    assert all(card in setup.description["betrayal_types"] for card in betrayal.split(", "))
    assert any(line.startswith("   display after the refill: ") for line in lines)


def test_displays_are_logged_only_in_trace_mode(setup):
    """A production run logs nothing (tracing off): the displays cost one compare per call site."""
    context = ENGINE._run(setup, 3, bots_for(3), 23, 0, 3)
    assert context.counters[ev.K_TRACE_ON] == 0 and context.counters[ev.K_TRACE_N] == 0
    traced = ENGINE.trace_events(setup, 3, bots_for(3), 23, 0)
    assert (traced[:, 0] == ev.EV_DISPLAYS).sum() > 3


def test_tracing_does_not_change_the_game(setup):
    """The replay is the game inside a run, displays logged or not."""
    run = ENGINE.play_chunk(setup, 4, bots_for(4), 23, 0, 4)
    for game in range(4):
        events = ENGINE.trace_events(setup, 4, bots_for(4), 23, game)
        finals = events[events[:, 0] == ev.EV_SCORE][:, 2]
        assert np.array_equal(finals, run["seats"]["score"][run["seats"]["game_index"] == game])
