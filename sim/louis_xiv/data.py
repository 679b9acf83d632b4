"""Louis XIV component data: configs/games/louis_xiv.yaml -> validated model -> kernel arrays.

pydantic models check the file (their errors name the key); ``to_kernel_data`` turns the
model into ``LouisData``, a namedtuple of numpy arrays the compiled kernels take. Scalars are
collected in ``numbers`` with named indices (``numbers[START_GOLD]``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sim.core.engine import ConfigError
from sim.core.yaml_files import load_yaml_file
from sim.core.records import define_array_record
from sim.louis_xiv import constants as C
from sim.louis_xiv.rules import N_SWITCHES, SWITCH_INDEX, SWITCHES

DEFAULT_GAME_FILE = Path(__file__).resolve().parents[2] / "configs" / "games" / "louis_xiv.yaml"

TokenName = Literal["crown", "scepter", "helmet", "ring", "document"]
CostName = Literal["crown", "scepter", "helmet", "ring", "document", "any"]
AbilityName = Literal[C.ABILITY_NAMES]  # type: ignore[valid-type]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Side(Strict):
    mode: Literal["gold", "first", "threshold"]
    value: int = Field(ge=0, le=16)


class PlaceOn(Strict):
    courtier: int = Field(ge=1, le=12)
    count: int = Field(ge=1, le=16)


class Gift(Strict):
    token: TokenName | None = None
    coats: int = Field(0, ge=0, le=10)
    gold: int = Field(0, ge=0, le=72)
    influence_cards: int = Field(0, ge=0, le=5)
    intrigue_cards: int = Field(0, ge=0, le=5)
    place_any: int = Field(0, ge=0, le=4)
    place_on: PlaceOn | None = None
    retrieve: int = Field(0, ge=0, le=16)


class Courtier(Strict):
    number: int = Field(ge=1, le=12)
    name: str
    side_a: Side
    side_b: Side
    gift: Gift


class TokenKind(Strict):
    name: TokenName
    count: int = Field(ge=0, le=100)


class GoldCard(Strict):
    courtier: int = Field(ge=1, le=12)
    gold: int = Field(ge=0, le=72)


class Mission(Strict):
    ability: AbilityName
    cost: tuple[CostName, CostName]


class Missions(Strict):
    light: list[Mission] = Field(min_length=1)
    blue: list[Mission] = Field(min_length=1)
    dark: list[Mission] = Field(min_length=1)


class PlayerRange(Strict):
    min: int = Field(ge=2, le=4)
    max: int = Field(ge=2, le=4)


class StartMissions(Strict):
    light: int = Field(ge=0, le=4)
    blue: int = Field(ge=0, le=4)


class ImaginaryPlayer(Strict):
    markers: int = Field(ge=0, le=16)
    on_louis: int = Field(ge=0, le=16)
    cards_revealed: int = Field(ge=0, le=10)
    per_card: int = Field(ge=0, le=16)


class LouisXIVFile(Strict):
    game: Literal["louis-xiv"]
    players: PlayerRange
    rounds: int = Field(ge=1, le=10)
    tokens: list[TokenKind] = Field(min_length=5, max_length=5)
    coat_kinds: int = Field(ge=1, le=20)
    coats_per_kind: int = Field(ge=0, le=100)
    bank_gold: int = Field(ge=0, le=1000)
    courtiers: list[Courtier] = Field(min_length=12, max_length=12)
    adjacency: dict[int, list[int]]
    louis_courtiers: list[int] = Field(min_length=1)
    gold_cards: list[GoldCard] = Field(min_length=1)
    gold_cards_used: int = Field(ge=1)
    influence_cards_per_courtier: int = Field(ge=0, le=4)
    jokers: int = Field(ge=0, le=12)
    intrigue_cards_per_courtier: int = Field(ge=0, le=3)
    influence_hand: int = Field(ge=1, le=10)
    place_courtier_card: int = Field(ge=1, le=4)
    place_joker: int = Field(ge=1, le=4)
    place_four: int = Field(ge=1, le=4)
    retrieve_courtier_card: int = Field(ge=0, le=16)
    retrieve_joker: int = Field(ge=0, le=16)
    retrieve_four: int = Field(ge=0, le=16)
    markers_per_player: int = Field(ge=1, le=40)
    start_gold: int = Field(ge=0, le=72)
    start_missions: StartMissions
    general_supply_at_start: dict[int, list[int]]
    imaginary_player: ImaginaryPlayer
    tokens_kept_after_missions: int = Field(ge=0, le=34)
    gold_per_coat_at_end: int = Field(ge=1, le=72)
    points_per_coat: int = Field(ge=0, le=100)
    points_per_mission: int = Field(ge=0, le=100)
    lb_skip_cost: int = Field(ge=0, le=72)
    lb_tokenswap_cost: int = Field(ge=0, le=72)
    bribe_discount: int = Field(ge=0, le=72)
    rules: dict[str, bool] = Field(default_factory=dict)

    @model_validator(mode="after")
    def check_consistency(self):
        tokens = [token.name for token in self.tokens]
        if tokens != list(C.TOKEN_NAMES):
            raise ValueError(f"tokens: expected the kinds {list(C.TOKEN_NAMES)} in that order, found {tokens}")
        numbers = [courtier.number for courtier in self.courtiers]
        if numbers != list(range(1, 13)):
            raise ValueError(f"courtiers: expected numbers 1..12 in order, found {numbers}")
        if sorted(self.adjacency) != list(range(1, 13)):
            raise ValueError(f"adjacency: expected keys 1..12, found {sorted(self.adjacency)}")
        for tile, neighbours in self.adjacency.items():
            for neighbour in neighbours:
                if neighbour not in self.adjacency or neighbour == tile:
                    raise ValueError(f"adjacency.{tile}: expected courtier numbers 1..12 other than {tile}, found {neighbour}")
                if tile not in self.adjacency[neighbour]:
                    raise ValueError(f"adjacency.{tile}: {neighbour} is listed but adjacency.{neighbour} does not list {tile} (must be symmetric)")
            if len(neighbours) > 4 or len(set(neighbours)) != len(neighbours):
                raise ValueError(f"adjacency.{tile}: expected at most 4 distinct neighbours, found {neighbours}")
        for card in self.gold_cards:
            if card.courtier not in self.louis_courtiers:
                raise ValueError(f"gold_cards: courtier {card.courtier} is not in louis_courtiers {self.louis_courtiers}")
        if self.gold_cards_used > len(self.gold_cards):
            raise ValueError(f"gold_cards_used: expected at most {len(self.gold_cards)} (the number of gold cards), found {self.gold_cards_used}")
        if self.gold_cards_used < self.rounds:
            raise ValueError(f"gold_cards_used: expected at least rounds={self.rounds}, found {self.gold_cards_used}")
        if self.players.min > self.players.max:
            raise ValueError(f"players: min {self.players.min} is above max {self.players.max}")
        for n in range(self.players.min, self.players.max + 1):
            seats = self.general_supply_at_start.get(n)
            if seats is None or len(seats) != n:
                raise ValueError(f"general_supply_at_start.{n}: expected a list of {n} numbers, found {seats}")
            if any(not 0 <= count <= self.markers_per_player for count in seats):
                raise ValueError(f"general_supply_at_start.{n}: expected numbers 0..{self.markers_per_player}, found {seats}")
        imaginary = self.imaginary_player
        needed = imaginary.on_louis + imaginary.cards_revealed * imaginary.per_card
        if needed > imaginary.markers:
            raise ValueError(f"imaginary_player.markers: expected at least on_louis + cards_revealed x per_card = {needed}, found {imaginary.markers}")
        for name in self.rules:
            if name not in SWITCH_INDEX:
                raise ValueError(f"rules.{name}: unknown rule switch; expected one of {sorted(SWITCH_INDEX)}")
        return self

    missions: Missions


# Scalars the kernels read, in ``LouisData.numbers``
NUMBER_FIELDS = (
    "rounds", "coat_kinds", "coats_per_kind", "bank_gold", "gold_cards_used", "influence_hand",
    "place_courtier_card", "place_joker", "place_four",
    "retrieve_courtier_card", "retrieve_joker", "retrieve_four",
    "markers_per_player", "start_gold", "start_light_missions", "start_blue_missions",
    "imaginary_markers", "imaginary_on_louis", "imaginary_cards_revealed", "imaginary_per_card",
    "tokens_kept_after_missions", "gold_per_coat_at_end", "points_per_coat", "points_per_mission",
    "lb_skip_cost", "lb_tokenswap_cost", "bribe_discount", "n_influence_cards", "n_intrigue_cards",
    "n_gold_cards",
)
(ROUNDS, COAT_KINDS, COATS_PER_KIND, BANK_GOLD, GOLD_CARDS_USED, INFLUENCE_HAND,
 PLACE_COURTIER_CARD_COUNT, PLACE_JOKER_COUNT, PLACE_FOUR_COUNT,
 RETRIEVE_COURTIER_CARD_COUNT, RETRIEVE_JOKER_COUNT, RETRIEVE_FOUR_COUNT,
 MARKERS_PER_PLAYER, START_GOLD, START_LIGHT_MISSIONS, START_BLUE_MISSIONS,
 IMAGINARY_MARKERS, IMAGINARY_ON_LOUIS, IMAGINARY_CARDS_REVEALED, IMAGINARY_PER_CARD,
 TOKENS_KEPT_AFTER_MISSIONS, GOLD_PER_COAT_AT_END, POINTS_PER_COAT, POINTS_PER_MISSION,
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
    "mission_ability",      # int64[n_missions]
    "mission_cost",         # int64[n_missions, 2]: token kind or ANY_TOKEN
    "mission_names_tokens", # int64[n_missions]: bit k set if the cost names token kind k (not a
                            # crown: a crown in hand pays for anything); derived from mission_cost
    "mission_payments",     # int64[n_missions, N_TOKENS**2, 2]: the ways to pay each card with tokens
                            # enough (card_payments), in listing order; derived from mission_cost
    "mission_payment_count",  # int64[n_missions]: rows of mission_payments in use
    "general_supply_at_start",  # int64[5, 4]: by number of players, by seat
)
LouisData, LouisDataArrays = define_array_record("LouisData", DATA_FIELDS, globals())


def _format_validation_error(path: Path, error: ValidationError) -> str:
    first = error.errors()[0]
    message = first["msg"].removeprefix("Value error, ")
    if not first["loc"]:  # a whole-file consistency check: its message names the key
        return f"{path}: {message}"
    key = ".".join(str(part) for part in first["loc"])
    found = first.get("input")
    found_text = repr(found) if not isinstance(found, dict) else "a mapping"
    if first["type"] == "missing":
        return f"{path}: key '{key}': required but missing"
    if len(found_text) > 80:
        found_text = found_text[:77] + "..."
    return f"{path}: key '{key}': {message} (found {found_text})"


def load_game_file(path: str | Path | None = None, overrides: dict | None = None) -> LouisXIVFile:
    """Read and validate a Louis XIV game file; ``overrides`` (nested dict) is merged on top
    (a variant). Raises ConfigError with one line naming file, key, expected and found."""
    path = Path(path) if path else DEFAULT_GAME_FILE
    raw = load_yaml_file(path, "game")
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping of game data, found {type(raw).__name__}")
    if overrides:
        raw = _merge(raw, overrides)
    try:
        return LouisXIVFile.model_validate(raw)
    except ValidationError as error:
        raise ConfigError(_format_validation_error(path, error)) from None


def _merge(base: dict, overrides: dict) -> dict:
    merged = dict(base)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def rule_vector(model: LouisXIVFile, overrides: dict | None = None) -> np.ndarray:
    """Rule switches as the kernel's float64 vector: defaults, then the file, then overrides."""
    rules = np.array([float(switch.default) for switch in SWITCHES], dtype=np.float64)
    for source in (model.rules, overrides or {}):
        for name, value in source.items():
            if name not in SWITCH_INDEX:
                raise ConfigError(f"rule '{name}': unknown rule switch; expected one of {', '.join(sorted(SWITCH_INDEX))}")
            rules[SWITCH_INDEX[name]] = float(_as_bool(name, value))
    assert rules.shape == (N_SWITCHES,)
    return rules


def _as_bool(name: str, value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"rule '{name}': expected true or false, found {value!r}")


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
    general_supply = np.zeros((C.MAX_PLAYERS + 1, C.MAX_PLAYERS), dtype=np.int64)
    for n, seats in model.general_supply_at_start.items():
        if 2 <= n <= C.MAX_PLAYERS:
            general_supply[n, :n] = seats

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
        mission_ability=ints([ability_index[m.ability] for _, m in missions]),
        mission_cost=ints(costs, (len(missions), 2)),
        mission_names_tokens=ints([sum({1 << kind for kind in cost if kind not in (C.ANY_TOKEN, C.CROWN)})
                                   for cost in costs]),
        mission_payments=payments,
        mission_payment_count=ints([len(ways) for ways in payment_lists]),
        general_supply_at_start=general_supply,
    ))
