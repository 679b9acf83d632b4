"""Louis XIV component data: configs/games/louis_xiv.yaml -> validated model -> kernel arrays.

pydantic models check the file (their errors name the key); ``to_kernel_data`` turns the
model into ``LouisData``, a namedtuple of numpy arrays the compiled kernels take. Scalars are
collected in ``numbers`` with named indices (``numbers[START_GOLD]``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sim.core.engine import ConfigError
from sim.core.arguments import integer_in
from sim.core.yaml_files import load_yaml_file, validation_error_line
from sim.core.kernels import kernel
from sim.core.records import construct_with, define_array_record
from sim.louis_xiv import constants as C
from sim.louis_xiv.rules import N_SWITCHES, SWITCH_INDEX, SWITCHES, switch_number

DEFAULT_GAME_FILE = Path(__file__).resolve().parents[2] / "configs" / "games" / "louis_xiv.yaml"

TokenName = Literal["crown", "scepter", "helmet", "ring", "document"]
CostName = Literal["crown", "scepter", "helmet", "ring", "document", "any"]
AbilityName = Literal[C.ABILITY_NAMES]  # type: ignore[valid-type]


def problem(key: str, expected: str, found) -> ValueError:
    """A whole-file consistency problem, worded like a field's: key, what was expected, found."""
    return ValueError(f"key '{key}': expected {expected} (found {found!r})")


# Ranges. Where the rules file fixes no upper bound, it is generous (several times the printed
# game), so that a variant may raise a number while a slip such as 1e19 is still caught.
MAX_MARKERS = 64        # §1: 64 markers in the box; one player (or the imaginary one) has at most all
MAX_GOLD = 1000         # any amount of gold: the printed bank holds 72 (§1), costs are 2..4
MAX_CARDS = 64          # cards drawn by one gift, or of one kind; the game has 90 cards in all
MAX_POINTS = 100        # victory points per coat or mission (printed: 1 and 5)
COURTIER_NUMBER = integer_in(1, C.N_COURTIERS)   # courtiers are numbered 1..12 (§1.1)
COUNT = integer_in(0, MAX_MARKERS)               # markers moved or needed
AMOUNT = integer_in(0, MAX_GOLD)                 # gold paid or received
CARDS = integer_in(0, MAX_CARDS)
POINTS = integer_in(0, MAX_POINTS)
# A placement puts 1..4 markers: the kernels enumerate placement paths of at most 4 courtiers
# (turn_options.add_placements, decisions.MOVE_WIDTH), a bot's gains table has a column per
# count 0..4 (state.scratch_gains), and with every placement size at 4 the turn options of the
# largest possible hand (12 courtier cards and a joker, DB-PLACE4, LB-SKIP, B-CARDSWAP, Q9 off)
# are 1,913 rows, within the move buffer (decisions.MOVE_CAPACITY = 2048).
PLACEMENT = integer_in(1, 4)
# The rules file's game has exactly 4 rounds (§3): 4 of the 8 gold cards are revealed, and the
# three-player compensation (§9) falls in round 4. A shorter variant is allowed; a longer one is
# not, since the gold cards and §9 are the printed game's (the seats table has score columns for
# tables.MAX_ROUNDS = 8 rounds; a test checks that this bound stays within them).
MAX_ROUNDS_OF_THE_RULES = 4


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Side(Strict):
    """One side of a courtier tile (§1.2): a bribe cost (gold), a threshold (markers, checked by
    the game file: at least 1), or no value (first place: 0)."""
    mode: Literal["gold", "first", "threshold"]
    value: AMOUNT


class PlaceOn(Strict):
    courtier: COURTIER_NUMBER
    count: integer_in(1, MAX_MARKERS)


class Gift(Strict):
    """A courtier's gift (§5) as data; every part may be absent (0)."""
    token: TokenName | None = None
    coats: integer_in(0, MAX_CARDS) = 0
    gold: AMOUNT = 0
    influence_cards: CARDS = 0
    intrigue_cards: CARDS = 0
    place_any: COUNT = 0
    place_on: PlaceOn | None = None
    retrieve: COUNT = 0


class Courtier(Strict):
    number: COURTIER_NUMBER
    name: str
    side_a: Side
    side_b: Side
    gift: Gift


class TokenKind(Strict):
    name: TokenName
    count: integer_in(0, 100)   # a pile (§1.4: 10 crowns, 6 of each other kind)


class GoldCard(Strict):
    courtier: COURTIER_NUMBER
    gold: AMOUNT


class Mission(Strict):
    ability: AbilityName
    cost: tuple[CostName, CostName]


class Missions(Strict):
    light: list[Mission] = Field(min_length=1)
    blue: list[Mission] = Field(min_length=1)
    dark: list[Mission] = Field(min_length=1)


class PlayerRange(Strict):
    # 2..4 players (§3): the state has a row per seat for C.MAX_PLAYERS = 4 seats
    min: integer_in(2, C.MAX_PLAYERS)
    max: integer_in(2, C.MAX_PLAYERS)


class StartMissions(Strict):
    light: CARDS
    blue: CARDS


# Two-player variants (§8): what a revealed influence card of Louis XIV's courtier does, and
# when the imaginary player places (the printed rules first)
LOUIS_CARD_CHOICES = ("place", "reveal_another")
PLACEMENT_CHOICES = ("start_of_phase", "end_of_phase")


class ImaginaryPlayer(Strict):
    markers: COUNT
    on_louis: COUNT
    cards_revealed: integer_in(0, C.N_COURTIERS * 4)   # at most every courtier card of a deck of 4 each
    per_card: COUNT
    # place = markers on Louis XIV's courtier for its card too [seed]; reveal_another = such a card
    # is passed over like a joker, so only on_louis markers go there
    louis_card: Literal[LOUIS_CARD_CHOICES] = "place"   # type: ignore[valid-type]
    # start_of_phase = before the players' turns [seed]; end_of_phase = after every influence
    # turn and DB-ENDPLACE, so the players cannot answer its markers
    placement: Literal[PLACEMENT_CHOICES] = "start_of_phase"   # type: ignore[valid-type]


class LouisXIVFile(Strict):
    game: Literal["louis-xiv"]
    players: PlayerRange
    rounds: integer_in(1, MAX_ROUNDS_OF_THE_RULES)
    tokens: list[TokenKind] = Field(min_length=5, max_length=5)
    coat_kinds: integer_in(1, 20)            # §1.1: 6 kinds
    coats_per_kind: integer_in(0, 100)       # §1.1: 10 of each
    bank_gold: AMOUNT
    courtiers: list[Courtier] = Field(min_length=12, max_length=12)
    adjacency: dict[COURTIER_NUMBER, list[COURTIER_NUMBER]]
    louis_courtiers: list[COURTIER_NUMBER] = Field(min_length=1)
    gold_cards: list[GoldCard] = Field(min_length=1)
    gold_cards_used: integer_in(1, MAX_CARDS)
    influence_cards_per_courtier: integer_in(0, 4)   # §1.1: 2 each
    jokers: integer_in(0, 12)                        # §1.1: 6
    intrigue_cards_per_courtier: integer_in(0, 3)    # §1.1: 1 each
    influence_hand: integer_in(1, 10)                # §4.1 step 3: 5 (a hand needs a card to play)
    place_courtier_card: PLACEMENT
    place_joker: PLACEMENT
    place_four: PLACEMENT
    retrieve_courtier_card: COUNT
    retrieve_joker: COUNT
    retrieve_four: COUNT
    markers_per_player: integer_in(1, MAX_MARKERS)   # §1: 16
    start_gold: AMOUNT
    start_missions: StartMissions
    general_supply_at_start: dict[integer_in(2, C.MAX_PLAYERS), list[COUNT]]
    # start-position compensation (not in the printed game: all 0): extra gold from the bank and
    # extra markers in the own supply, by number of players, by seat from the start player
    extra_start_gold: dict[integer_in(2, C.MAX_PLAYERS), list[AMOUNT]] = Field(default_factory=dict)
    extra_start_markers: dict[integer_in(2, C.MAX_PLAYERS), list[COUNT]] = Field(default_factory=dict)
    imaginary_player: ImaginaryPlayer
    tokens_kept_after_missions: integer_in(0, 100)   # §4.5 step 5: 1
    gold_per_coat_at_end: integer_in(1, MAX_GOLD)    # §7: 3 (a divisor: at least 1)
    points_per_coat: POINTS
    points_per_mission: POINTS
    lb_skip_cost: AMOUNT
    lb_tokenswap_cost: AMOUNT
    bribe_discount: AMOUNT
    rules: dict[str, Any] = Field(default_factory=dict)   # checked by check_consistency
    missions: Missions

    @model_validator(mode="after")
    def check_consistency(self):
        """What single keys cannot say: names, orders and totals that must fit together."""
        self.check_components()
        self.check_board()
        self.check_gold_cards()
        self.check_totals()
        for name, value in self.rules.items():
            if name not in SWITCH_INDEX:
                raise problem(f"rules.{name}", f"a rule switch, one of {sorted(SWITCH_INDEX)}", name)
            try:
                switch_number(name, value, f"key 'rules.{name}'")
            except ConfigError as error:
                raise ValueError(str(error)) from None
        return self

    def check_components(self):
        tokens = [token.name for token in self.tokens]
        if tokens != list(C.TOKEN_NAMES):
            raise problem("tokens", f"the kinds {list(C.TOKEN_NAMES)} in that order", tokens)
        numbers = [courtier.number for courtier in self.courtiers]
        if numbers != list(range(1, 13)):
            raise problem("courtiers", "numbers 1..12 in order", numbers)
        for index, courtier in enumerate(self.courtiers):
            for side_name in ("side_a", "side_b"):
                side = getattr(courtier, side_name)
                key = f"courtiers.{index}.{side_name}.value"
                if side.mode == "first" and side.value != 0:
                    raise problem(key, "0 on a first-place side (it has no bribe cost nor threshold)", side.value)
                if side.mode == "threshold" and not 1 <= side.value <= self.markers_per_player:
                    raise problem(key, f"a threshold 1..{self.markers_per_player} (markers_per_player)", side.value)
            place_on = courtier.gift.place_on
            if place_on is not None and place_on.count > self.markers_per_player:
                raise problem(f"courtiers.{index}.gift.place_on.count",
                              f"at most markers_per_player = {self.markers_per_player}", place_on.count)

    def check_board(self):
        if sorted(self.adjacency) != list(range(1, 13)):
            raise problem("adjacency", "keys 1..12", sorted(self.adjacency))
        for tile, neighbours in self.adjacency.items():
            if len(neighbours) > 4 or len(set(neighbours)) != len(neighbours):
                # the kernels keep 4 neighbours per courtier (LouisData.adjacency)
                raise problem(f"adjacency.{tile}", "at most 4 distinct neighbours", neighbours)
            for neighbour in neighbours:
                if neighbour == tile:
                    raise problem(f"adjacency.{tile}", f"courtier numbers other than {tile}", neighbours)
                if tile not in self.adjacency[neighbour]:
                    raise problem(f"adjacency.{neighbour}", f"{tile} listed (adjacency.{tile} lists {neighbour}: "
                                  "it must be symmetric)", self.adjacency[neighbour])
        if len(set(self.louis_courtiers)) != len(self.louis_courtiers):
            raise problem("louis_courtiers", "distinct courtier numbers", self.louis_courtiers)
        for index, number in enumerate(self.louis_courtiers):
            courtier = self.courtiers[number - 1]
            if "threshold" in (courtier.side_a.mode, courtier.side_b.mode):
                # §4.3.4: Louis XIV's rule is for gold and first-place sides only
                raise problem(f"louis_courtiers.{index}", "a courtier without a threshold side (§4.3.4)", number)

    def check_gold_cards(self):
        for index, card in enumerate(self.gold_cards):
            if card.courtier not in self.louis_courtiers:
                raise problem(f"gold_cards.{index}.courtier", f"one of louis_courtiers {self.louis_courtiers}",
                              card.courtier)
        if self.gold_cards_used > len(self.gold_cards):
            raise problem("gold_cards_used", f"at most {len(self.gold_cards)} (the number of gold cards)",
                          self.gold_cards_used)
        if self.gold_cards_used < self.rounds:
            raise problem("gold_cards_used", f"at least rounds = {self.rounds} (one gold card a round)",
                          self.gold_cards_used)

    def check_totals(self):
        """Enough components for the largest game the file allows (players.max)."""
        players = self.players
        if players.min > players.max:
            raise problem("players.min", f"at most players.max = {players.max}", players.min)
        influence_cards = C.N_COURTIERS * self.influence_cards_per_courtier + self.jokers
        if influence_cards < self.influence_hand * players.max:
            raise problem("influence_hand", f"at most {influence_cards // players.max}: the {influence_cards} "
                          f"influence cards must fill the hands of {players.max} players", self.influence_hand)
        for colour in ("light", "blue"):
            deck = len(getattr(self.missions, colour))
            start = getattr(self.start_missions, colour)
            if start * players.max > deck:
                raise problem(f"start_missions.{colour}", f"at most {deck // players.max}: the {deck} {colour} "
                              f"missions must deal every one of {players.max} players", start)
        # the state keeps every mission card in arrays of state.MAX_MISSIONS columns (imported
        # here: state.py imports this module)
        from sim.louis_xiv.state import MAX_MISSIONS
        n_missions = len(self.missions.light) + len(self.missions.blue) + len(self.missions.dark)
        if n_missions > MAX_MISSIONS:
            raise problem("missions", f"at most {MAX_MISSIONS} mission cards in all", n_missions)
        for n in range(players.min, players.max + 1):
            seats = self.general_supply_at_start.get(n)
            if seats is None or len(seats) != n:
                raise problem(f"general_supply_at_start.{n}", f"a list of {n} numbers", seats)
            extra_markers = self.extra_start_markers.get(n, [0] * n)
            for position, count in enumerate(seats):
                markers = self.markers_per_player + (extra_markers[position] if position < len(extra_markers) else 0)
                if count > markers:
                    raise problem(f"general_supply_at_start.{n}",
                                  f"numbers 0..{markers} (markers_per_player + extra_start_markers)", seats)
        for key in ("extra_start_gold", "extra_start_markers"):
            for n, seats in getattr(self, key).items():
                if len(seats) != n:
                    raise problem(f"{key}.{n}", f"a list of {n} numbers (one per seat from the start player)", seats)
        imaginary = self.imaginary_player
        needed = imaginary.on_louis + imaginary.cards_revealed * imaginary.per_card
        if needed > imaginary.markers:
            raise problem("imaginary_player.markers",
                          f"at least on_louis + cards_revealed x per_card = {needed}", imaginary.markers)


# Scalars the kernels read, in ``LouisData.numbers``
NUMBER_FIELDS = (
    "rounds", "coat_kinds", "coats_per_kind", "bank_gold", "gold_cards_used", "influence_hand",
    "place_courtier_card", "place_joker", "place_four",
    "retrieve_courtier_card", "retrieve_joker", "retrieve_four",
    "markers_per_player", "start_gold", "start_light_missions", "start_blue_missions",
    "imaginary_markers", "imaginary_on_louis", "imaginary_cards_revealed", "imaginary_per_card",
    "imaginary_louis_card", "imaginary_placement", "tokens_kept_after_missions", "gold_per_coat_at_end", "points_per_coat", "points_per_mission",
    "lb_skip_cost", "lb_tokenswap_cost", "bribe_discount", "n_influence_cards", "n_intrigue_cards",
    "n_gold_cards",
)
(ROUNDS, COAT_KINDS, COATS_PER_KIND, BANK_GOLD, GOLD_CARDS_USED, INFLUENCE_HAND,
 PLACE_COURTIER_CARD_COUNT, PLACE_JOKER_COUNT, PLACE_FOUR_COUNT,
 RETRIEVE_COURTIER_CARD_COUNT, RETRIEVE_JOKER_COUNT, RETRIEVE_FOUR_COUNT,
 MARKERS_PER_PLAYER, START_GOLD, START_LIGHT_MISSIONS, START_BLUE_MISSIONS,
 IMAGINARY_MARKERS, IMAGINARY_ON_LOUIS, IMAGINARY_CARDS_REVEALED, IMAGINARY_PER_CARD,
 IMAGINARY_LOUIS_CARD, IMAGINARY_PLACEMENT, TOKENS_KEPT_AFTER_MISSIONS, GOLD_PER_COAT_AT_END, POINTS_PER_COAT, POINTS_PER_MISSION,
 LB_SKIP_COST, LB_TOKENSWAP_COST, BRIBE_DISCOUNT, N_INFLUENCE_CARDS, N_INTRIGUE_CARDS,
 N_GOLD_CARDS) = range(len(NUMBER_FIELDS))

DATA_FIELDS = (
    "numbers",              # int64[N_NUMBERS]
    "courtier_mode",        # int64[12, 2]: mode of side A / side B
    "courtier_value",       # int64[12, 2]: bribe cost or threshold
    "gift_token",           # int64[12]: token kind or -1
    "gift_coats", "gift_gold", "gift_influence_cards", "gift_intrigue_cards",
    "gift_place_any",       # int64[12]: markers from general supply onto any courtier (Condé)
    "gift_place_on",        # int64[12]: courtier (0-based) or -1 (Maintenon: 5)
    "gift_place_on_count",  # int64[12]
    "gift_retrieve",        # int64[12]: markers general -> own supply
    "adjacency",            # int64[12, 4], -1 padded
    "adjacency_count",      # int64[12]
    "gold_card_courtier",   # int64[n_gold_cards] (0-based)
    "gold_card_gold",       # int64[n_gold_cards]
    "influence_cards",      # int64[n_influence_cards]: kind per card (0..11 courtier, 12 joker)
    "intrigue_cards",       # int64[n_intrigue_cards]: courtier per card
    "token_count",          # int64[5]
    "mission_colour",       # int64[n_missions]
    "mission_colour_start", # int64[N_MISSION_COLOURS + 1]: the cards of colour c are
                            # mission_colour_start[c] .. mission_colour_start[c + 1] - 1 (grouped by colour)
    "mission_ability",      # int64[n_missions]
    "mission_cost",         # int64[n_missions, 2]: token kind or ANY_TOKEN
    "mission_names_tokens", # int64[n_missions]: bit k set if the cost names token kind k (not a
                            # crown: a crown in hand pays for anything); derived from mission_cost
    "mission_payments",     # int64[n_missions, N_TOKENS**2, 2]: the ways to pay each card with tokens
                            # enough (card_payments), in listing order; derived from mission_cost
    "mission_payment_count",  # int64[n_missions]: rows of mission_payments in use
    "general_supply_at_start",  # int64[5, 4]: by number of players, by seat
    "extra_start_gold",     # int64[5, 4]: by number of players, by seat from the start player
    "extra_start_markers",  # int64[5, 4]: the same, extra markers in the own supply
)
LouisData, LouisDataArrays = define_array_record("LouisData", DATA_FIELDS, globals())


@kernel
def new_louis_data_record(*arrays):
    """A LouisData from its arrays, compiled once and cached (records.construct_with: why)."""
    return LouisData(*arrays)


construct_with(LouisData, new_louis_data_record)


def load_game_file(path: str | Path | None = None, overrides: dict | None = None,
                   edit_game_data=None) -> LouisXIVFile:
    """Read and validate a Louis XIV game file; ``overrides`` (nested dict) is merged on top,
    and ``edit_game_data(raw) -> raw`` (a variant's overlay, sim.core.variants) applied before
    validation. Raises ConfigError with one line naming file, key, expected and found."""
    path = Path(path) if path else DEFAULT_GAME_FILE
    raw = load_yaml_file(path, "game")
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping of game data, found {type(raw).__name__}")
    if overrides:
        raw = _merge(raw, overrides)
    if edit_game_data is not None:
        raw = edit_game_data(raw)
    try:
        return LouisXIVFile.model_validate(raw)
    except ValidationError as error:
        raise ConfigError(validation_error_line(path, error)) from None


def _merge(base: dict, overrides: dict) -> dict:
    merged = dict(base)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def rule_vector(model: LouisXIVFile, overrides: dict | None = None) -> np.ndarray:
    """Rule switches as the kernel's float64 vector: defaults, then the file, then overrides
    (on/off switches 0.0 / 1.0, a choice the index of its reading, rules.py)."""
    rules = np.array([switch_number(switch.name, switch.default, switch.name) for switch in SWITCHES],
                     dtype=np.float64)
    for source in (model.rules, overrides or {}):
        for name, value in source.items():
            if name not in SWITCH_INDEX:
                raise ConfigError(f"rule '{name}': unknown rule switch; expected one of {', '.join(sorted(SWITCH_INDEX))}")
            rules[SWITCH_INDEX[name]] = switch_number(name, value, f"rule '{name}'")
    assert rules.shape == (N_SWITCHES,)
    return rules


def pays_for(token: int, cost: int) -> bool:
    """A crown replaces any token; a "?" cost takes any token, crowns included (§4.5)."""
    return cost == C.ANY_TOKEN or token == cost or token == C.CROWN


def card_payments(cost_1: int, cost_2: int) -> list[tuple[int, int]]:
    """The ways to pay a mission card costing (cost_1, cost_2) with tokens enough of every kind:
    (token for the first cost, token for the second), each multiset of tokens once (the first
    found), in the order ``components.list_card_payments`` lists them. With the tokens a player
    holds, the ways are exactly those of this list the tokens allow: a way and its mirror
    need the same tokens, so which of two mirrored ways comes first does not depend on them."""
    ways: list[tuple[int, int]] = []
    for pay_1 in range(C.N_TOKENS):
        for pay_2 in range(C.N_TOKENS):
            if pays_for(pay_1, cost_1) and pays_for(pay_2, cost_2) and (pay_2, pay_1) not in ways:
                ways.append((pay_1, pay_2))
    return ways


def to_kernel_data(model: LouisXIVFile) -> LouisData:
    token_index = {name: index for index, name in enumerate(C.TOKEN_NAMES)}
    mode_index = {name: index for index, name in enumerate(C.MODE_NAMES)}
    ability_index = {name: index for index, name in enumerate(C.ABILITY_NAMES)}

    def ints(values, shape=None):
        array = np.array(values, dtype=np.int64)
        return array.reshape(shape) if shape else array

    courtiers = model.courtiers
    adjacency = np.full((C.N_COURTIERS, 4), -1, dtype=np.int64)
    adjacency_count = np.zeros(C.N_COURTIERS, dtype=np.int64)
    for tile, neighbours in model.adjacency.items():
        for slot, neighbour in enumerate(sorted(neighbours)):
            adjacency[tile - 1, slot] = neighbour - 1
        adjacency_count[tile - 1] = len(neighbours)

    influence_cards = [kind for kind in range(C.N_COURTIERS) for _ in range(model.influence_cards_per_courtier)]
    influence_cards += [C.JOKER] * model.jokers
    intrigue_cards = [kind for kind in range(C.N_COURTIERS) for _ in range(model.intrigue_cards_per_courtier)]

    missions = [(C.LIGHT, m) for m in model.missions.light] + [(C.BLUE, m) for m in model.missions.blue] \
        + [(C.DARK, m) for m in model.missions.dark]
    costs = [[C.ANY_TOKEN if t == "any" else token_index[t] for t in m.cost] for _, m in missions]
    payment_lists = [card_payments(*cost) for cost in costs]
    payments = np.zeros((len(missions), C.N_TOKENS * C.N_TOKENS, 2), dtype=np.int64)
    for card, ways in enumerate(payment_lists):
        payments[card, :len(ways)] = ways
    general_supply = by_players_and_seat(model.general_supply_at_start)

    numbers = {
        "rounds": model.rounds, "coat_kinds": model.coat_kinds, "coats_per_kind": model.coats_per_kind,
        "bank_gold": model.bank_gold, "gold_cards_used": model.gold_cards_used,
        "influence_hand": model.influence_hand, "place_courtier_card": model.place_courtier_card,
        "place_joker": model.place_joker, "place_four": model.place_four,
        "retrieve_courtier_card": model.retrieve_courtier_card, "retrieve_joker": model.retrieve_joker,
        "retrieve_four": model.retrieve_four, "markers_per_player": model.markers_per_player,
        "start_gold": model.start_gold, "start_light_missions": model.start_missions.light,
        "start_blue_missions": model.start_missions.blue,
        "imaginary_markers": model.imaginary_player.markers,
        "imaginary_on_louis": model.imaginary_player.on_louis,
        "imaginary_cards_revealed": model.imaginary_player.cards_revealed,
        "imaginary_per_card": model.imaginary_player.per_card,
        "imaginary_louis_card": LOUIS_CARD_CHOICES.index(model.imaginary_player.louis_card),
        "imaginary_placement": PLACEMENT_CHOICES.index(model.imaginary_player.placement),
        "tokens_kept_after_missions": model.tokens_kept_after_missions,
        "gold_per_coat_at_end": model.gold_per_coat_at_end, "points_per_coat": model.points_per_coat,
        "points_per_mission": model.points_per_mission, "lb_skip_cost": model.lb_skip_cost,
        "lb_tokenswap_cost": model.lb_tokenswap_cost, "bribe_discount": model.bribe_discount,
        "n_influence_cards": len(influence_cards), "n_intrigue_cards": len(intrigue_cards),
        "n_gold_cards": len(model.gold_cards),
    }
    return LouisData.from_arrays(LouisDataArrays(
        numbers=ints([numbers[name] for name in NUMBER_FIELDS]),
        courtier_mode=ints([[mode_index[c.side_a.mode], mode_index[c.side_b.mode]] for c in courtiers]),
        courtier_value=ints([[c.side_a.value, c.side_b.value] for c in courtiers]),
        gift_token=ints([token_index[c.gift.token] if c.gift.token else -1 for c in courtiers]),
        gift_coats=ints([c.gift.coats for c in courtiers]),
        gift_gold=ints([c.gift.gold for c in courtiers]),
        gift_influence_cards=ints([c.gift.influence_cards for c in courtiers]),
        gift_intrigue_cards=ints([c.gift.intrigue_cards for c in courtiers]),
        gift_place_any=ints([c.gift.place_any for c in courtiers]),
        gift_place_on=ints([c.gift.place_on.courtier - 1 if c.gift.place_on else -1 for c in courtiers]),
        gift_place_on_count=ints([c.gift.place_on.count if c.gift.place_on else 0 for c in courtiers]),
        gift_retrieve=ints([c.gift.retrieve for c in courtiers]),
        adjacency=adjacency,
        adjacency_count=adjacency_count,
        gold_card_courtier=ints([card.courtier - 1 for card in model.gold_cards]),
        gold_card_gold=ints([card.gold for card in model.gold_cards]),
        influence_cards=ints(influence_cards),
        intrigue_cards=ints(intrigue_cards),
        token_count=ints([token.count for token in model.tokens]),
        mission_colour=ints([colour for colour, _ in missions]),
        mission_colour_start=ints(np.searchsorted([colour for colour, _ in missions],
                                                  np.arange(C.N_MISSION_COLOURS + 1))),
        mission_ability=ints([ability_index[m.ability] for _, m in missions]),
        mission_cost=ints(costs, (len(missions), 2)),
        mission_names_tokens=ints([sum({1 << kind for kind in cost if kind not in (C.ANY_TOKEN, C.CROWN)})
                                   for cost in costs]),
        mission_payments=payments,
        mission_payment_count=ints([len(ways) for ways in payment_lists]),
        general_supply_at_start=general_supply,
        extra_start_gold=by_players_and_seat(model.extra_start_gold),
        extra_start_markers=by_players_and_seat(model.extra_start_markers),
    ))


def by_players_and_seat(lists: dict[int, list[int]]) -> np.ndarray:
    """A per-seat list per number of players as an int64[5, 4] table (0 where none is given)."""
    table = np.zeros((C.MAX_PLAYERS + 1, C.MAX_PLAYERS), dtype=np.int64)
    for n, seats in lists.items():
        if 2 <= n <= C.MAX_PLAYERS:
            table[n, :n] = seats
    return table
