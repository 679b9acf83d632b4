"""Shared fixtures: the default setup and helpers to build hand-made positions for rule tests."""
import pytest

from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.state import RANK_NAMES, S_N_PLAYERS, clear_state, forget_country_places, new_state


@pytest.fixture(scope="session")
def setup():
    return ENGINE.load_setup()


class Position:
    """A blank board for n players (nothing raised, empty hands) plus name lookups."""

    def __init__(self, setup, n_players=3, bots=("greedy",), rule_overrides=None):
        if rule_overrides:
            setup = ENGINE.load_setup(rule_overrides=rule_overrides)
        self.setup = setup
        self.data = setup.data
        self.desc = setup.description
        bot_list = [ENGINE.resolve_bot(bots[i % len(bots)]) for i in range(n_players)]
        self.context = ENGINE.make_ctx(setup, n_players, bot_list, n_games=1, betrayal_capacity=64)
        self.state = new_state(self.data)
        clear_state(self.state)
        self.state.scal[S_N_PLAYERS] = n_players
        self.state.cards_left[:] = self.data.noble_cards_per_rank
        for player in range(n_players):
            self.state.tiles[player, :] = self.data.tiles_per_rank

    def box(self, name):
        return self.desc["box_names"].index(name)

    def region(self, name):
        return self.desc["region_ids"].index(name)

    def card(self, name):
        return self.desc["character_types"].index(name)

    def btype(self, name):
        return self.desc["betrayal_types"].index(name)

    def place(self, player, box_name, rank_name):
        """Put p's living noble of rank in a box (no payment, no scoring) -- a position set-up."""
        b = self.box(box_name)
        r = RANK_NAMES.index(rank_name)
        assert (self.data.box_ranks[b] >> r) & 1, f"{box_name} does not show a {rank_name}"
        self.state.box_owner[b] = player
        self.state.box_rank[b] = r
        forget_country_places(self.state, self.data, b)     # as the rules' own placement does
        self.state.tiles[player, r] -= 1

    def give(self, player, *cards):
        for c in cards:
            self.state.hand[player, self.card(c)] += 1

    def give_betrayal(self, player, *cards):
        for c in cards:
            self.state.bhand[player, self.btype(c)] += 1

    def moves(self, n):
        return [tuple(int(x) for x in row) for row in self.context.moves[:n]]


@pytest.fixture
def position(setup):
    def make(n_players=3, bots=("greedy",), rule_overrides=None):
        return Position(setup, n_players, bots, rule_overrides)
    return make

