"""Component data: YAML -> pydantic v2 validation -> kernel arrays (``HosData``, an array record:
sim/core/records.py) + rule vector.

``configs/games/heads_of_state.yaml`` holds every number of the game (rules file Appendix A).
This module is the one place where YAML names become the integer constants of
``sim.heads_of_state.state`` (ranks, countries, attributes, betrayal card types) and where
malformed data is rejected with a one-line :class:`sim.core.engine.ConfigError`
("<file>: key '<a.b>': expected ... (found ...)"; "--rule <a.b>: ..." when a ``--rule`` override
set the value). Every number has a range (the ``integer_in`` types below); totals that tie
several keys together (deck sizes, the option-1b minimum, ...) are checked in ``build``.
"""
from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, StrictBool, ValidationError

from sim.core.engine import ConfigError
from sim.core.kernels import kernel
from sim.core.records import construct_with, define_array_record
from sim.core.arguments import check_integer_in, integer_in, parse_bool
from sim.core.yaml_files import found_text, key_error_line, load_yaml_file, validation_error_line
from sim.heads_of_state.state import (COUNTRY_NAMES, MAX_PLAYERS, N_ATTRIBUTES,
                                      N_COUNTRIES, N_RANKS, RANK_NAMES)

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "configs" / "games" / "heads_of_state.yaml"

# --- rule switches: indices into the float64 rules vector (GameSetup.rules) --------------------
R_FIRST_TURN_REFRESH = 0          # Q3
R_COURTESAN_ONLY_MISSING = 1      # Q14
R_LARGE_TOKEN_BY_CARDS = 2        # Q17
R_BETRAYAL_RESHUFFLE = 3          # Q26: 0 when_deck_empties, 1 when_draw_needed
R_OPTION2_REFILL = 4              # Q8: 0 interleaved, 1 deferred
R_OPTION2_TAKE_ORDER = 5          # Q7: 0 betrayal_first, 1 player_choice
R_MIX_ASSASSIN_COUNTRY = 6        # Q9: 0 never mixed, 1 assassin + country card on a capital
R_RANDOM_START_PLAYER = 7         # §3 step 11: 1 a seeded random seat starts (default), 0 seat 0 starts
R_FIRST_TURN_TAKE_ONLY = 8        # Q4: 0 a first turn may raise nobles, 1 it only takes cards
R_REVOLUTION_TAKE_LOST = 9        # Q5: 0 the interrupted take is repeated, 1 it is used up
R_TAKE_FROM_SET_ASIDE = 10        # Q31: 0 never, 1 Option 1b's take may be a set-aside card
R_DEAD_TILES_RETURN = 11          # Q15: 0 dead tiles stay, 1 they return to supply at a round end
R_INFLUENCE_HEXAGON_TIEBREAK = 12  # Q19: 0 all_regions (lexicographic), 1 best_region only
R_WINNER_TIEBREAK = 13            # Q22: 0 noble_cards, 1 living_nobles on the board
N_RULES = 14
RULE_NAMES = ("first_turn_refresh", "courtesan_only_for_missing", "large_token_counts_noble_cards",
              "betrayal_reshuffle", "option2_refill", "option2_take_order",
              "mix_assassin_and_country", "random_start_player", "first_turn_take_only",
              "revolution_take_lost", "option1b_take_from_set_aside", "dead_tiles_return_at_round_end",
              "influence_hexagon_tiebreak", "winner_tiebreak")
RESHUFFLE_CHOICES = ("when_deck_empties", "when_draw_needed")
TAKE_ORDER_CHOICES = ("betrayal_first", "player_choice")
REFILL_CHOICES = ("interleaved", "deferred")
HEXAGON_TIEBREAK_CHOICES = ("all_regions", "best_region")
WINNER_TIEBREAK_CHOICES = ("noble_cards", "living_nobles")

DATA_FIELDS = (
    # the kernel data of one game file: int64 scalars and int64 arrays
    # scalars
    "display_size", "bdisplay_size", "rev_cards", "hand_limit_char", "hand_limit_betrayal",
    "round_limit_char", "round_limit_betrayal", "option1_take", "option1b_take", "option1b_min",
    "own_cubes", "target_cubes", "noble_cards_per_rank", "courtesan_max",
    # ranks / cards
    "tiles_per_rank", "majority_points", "deck_cards", "deck_len", "recipe", "recipe_size",
    "courtesan_ok", "btype_mask", "bdeck_init",
    # map
    "region_country", "region_type", "region_hex", "region_box", "box_region", "box_ranks",
    "box_upper", "base_influence", "country_regions", "country_nreg",
    # tokens / setup
    "square_tokens", "round_tokens", "large_tokens", "large_n", "first_turn_takes", "starting_points",
    # derived
    "hex_key_base", "region_hex_key",
)
HosData, HosDataArrays = define_array_record("HosData", DATA_FIELDS, globals())


@kernel
def new_hos_data_record(*arrays):
    """A HosData from its arrays, compiled once and cached (records.construct_with: why)."""
    return HosData(*arrays)


construct_with(HosData, new_hos_data_record)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Bounds of the game file's numbers (rules file section; default value in brackets). Upper bounds
# are generous multiples of the printed game, small enough that a game stays far inside the turn
# safety net (kernel.MAX_TURNS: a turn takes >= 1 character card, so turns <= 3 x deck size).
TILES_PER_RANK = integer_in(1, 32)        # §1.2: a player's tiles of one rank [6/4]; 32 tiles in all
NOBLE_CARDS_PER_RANK = integer_in(1, 100)  # §1.2 [10]: a raise takes a noble card while any is left
POINTS = integer_in(0, 100)               # §6 majority / token points [4..16]: scores, never negative
CHARACTER_COUNT = integer_in(0, 40)       # §1.3 cards of one type [10-12]; 9 x 40 x 3 rounds << MAX_TURNS
MARKS_PER_TYPE = integer_in(0, 10)        # §1.3 H9 cards of one type per player-count mark [1]
BETRAYAL_COUNT = integer_in(0, 60)        # §1.5 H10 betrayal cards of one kind [19 / 1]
CUBES = integer_in(0, 10)                 # §4.4 step 3 bag cubes per side [3 / 1]
HEXAGON_VALUE = (0, 20)                     # §2.2 H4 [2..8]; also bounded by the tie-break key (build)
INFLUENCE = integer_in(0, 40)             # §6.3 base influence [2 / 4]
COURTESANS_PER_NOBLE = integer_in(0, 1)   # §1.4 [1]: the kernels support at most one courtesan
YEAR = integer_in(1, 9999)                # §5 round labels [1589, 1689, 1789]; names only
DISPLAY_SIZE = integer_in(1, 12)          # §3 step 5 [6]: one take move per slot (events.MAX_MOVES)
BETRAYAL_DISPLAY_SIZE = integer_in(1, 6)  # §3 step 6 [2]
REVOLUTION_DECK_CARDS = integer_in(1, 40)  # §3 step 4 [10] (+ the revolution card)
HAND_LIMIT = integer_in(1, 100)           # §4.5 / §5.2 hand limits [10/4, 6/2]: >= 1 card kept
TAKES = integer_in(1, 10)                 # §4.2 cards taken by option 1a / 1b [3 / 1]
FIRST_TURN_TAKES = integer_in(0, 10)      # §4.1 first-turn takes by seat [1..3]
MIN_REGULAR_DECK = integer_in(1, 1000)    # §4.2 Q6 [6]; checked against display and deck in build


class Betrayal(_Model):
    assassin: BETRAYAL_COUNT
    single: dict[str, BETRAYAL_COUNT]
    double: list[list[str]]


class Bag(_Model):
    own_cubes: CUBES
    target_cubes: CUBES


class Limits(_Model):
    character: HAND_LIMIT
    betrayal: HAND_LIMIT


class Rules(_Model):
    first_turn_refresh: StrictBool = False
    courtesan_only_for_missing: StrictBool = False
    large_token_counts_noble_cards: StrictBool = False
    option2_refill: str = "interleaved"
    option2_take_order: str = "betrayal_first"
    mix_assassin_and_country: StrictBool = False
    random_start_player: StrictBool = True     # §3 step 11; false: seat 0 starts every game
    first_turn_take_only: StrictBool = False
    revolution_take_lost: StrictBool = False
    option1b_take_from_set_aside: StrictBool = False
    dead_tiles_return_at_round_end: StrictBool = False
    influence_hexagon_tiebreak: str = "all_regions"
    winner_tiebreak: str = "noble_cards"


class HosFile(_Model):
    ranks: list[str]
    countries: list[str]
    tiles_per_colour: dict[str, TILES_PER_RANK]
    noble_cards_per_rank: NOBLE_CARDS_PER_RANK
    majority_points: dict[str, POINTS]
    attributes: list[str]
    wild: str
    character_counts: dict[str, CHARACTER_COUNT]
    marks_per_type: dict[int, MARKS_PER_TYPE]
    removed_marks_by_players: dict[int, list[int]]
    recipes: dict[str, list[str]]
    courtesan_max_per_noble: COURTESANS_PER_NOBLE
    courtesan_forbidden: list[str]
    betrayal: Betrayal
    assassin_bag: Bag
    regions: dict[str, list[Any]]
    base_influence: dict[str, INFLUENCE]
    gb_capital_box_ranks: list[str]
    square_tokens: dict[str, list[POINTS]]
    round_tokens: dict[str, list[POINTS]]
    large_tokens: dict[str, list[POINTS]]
    rounds: list[YEAR]
    display_size: DISPLAY_SIZE
    betrayal_display_size: BETRAYAL_DISPLAY_SIZE
    revolution_deck_cards: REVOLUTION_DECK_CARDS
    hand_limit_turn_end: Limits
    hand_limit_round_start: Limits
    option1_take: TAKES
    option1b_take: TAKES
    option1b_min_regular_deck: MIN_REGULAR_DECK
    betrayal_reshuffle: str
    first_turn_takes: dict[int, list[FIRST_TURN_TAKES]]
    starting_points: dict[int, list[POINTS]]
    rules: Rules = Rules()


def _fail(file, key, expected, found):
    raise ConfigError(key_error_line(file, key, f"expected {expected}", found))


def _set_dotted(raw: dict, key: str, value):
    parts = key.split(".")
    node = raw
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value


SWITCH_CHOICES = {"betrayal_reshuffle": RESHUFFLE_CHOICES, "option2_refill": REFILL_CHOICES,
                  "option2_take_order": TAKE_ORDER_CHOICES,
                  "influence_hexagon_tiebreak": HEXAGON_TIEBREAK_CHOICES,
                  "winner_tiebreak": WINNER_TIEBREAK_CHOICES}


def rule_switch_value(name: str, value):
    """A ``--rule`` value for the rule switch ``name``, checked here so that a bad value names
    ``--rule NAME`` (not the game file): a choice among its names, or true/false."""
    where = f"--rule {name}"
    choices = SWITCH_CHOICES.get(name)
    if choices is None:
        return parse_bool(value, where)
    if value not in choices:
        raise ConfigError(f"{where}: expected {' or '.join(choices)} (found {found_text(value)})")
    return value


def read_yaml(game_file=None, overrides=None, edit_game_data=None) -> tuple[dict, str]:
    path = Path(game_file) if game_file else DEFAULT_FILE
    raw = load_yaml_file(path, "game")
    if not isinstance(raw, dict):
        _fail(path, "(top level)", "a mapping", type(raw).__name__)
    raw = copy.deepcopy(raw)
    if edit_game_data is not None:   # a variant's overlay (sim.core.variants), before --rule
        raw = edit_game_data(raw)
    for key, value in (overrides or {}).items():
        if key in RULE_NAMES:
            value = rule_switch_value(key, value)
            if key != "betrayal_reshuffle":
                key = "rules." + key
        _set_dotted(raw, key, value)
    return raw, str(path)


def blame_the_command_line(line: str, file: str, overrides) -> str:
    """The error line ``<file>: key '<a.b>': ...`` naming ``--rule <a.b>`` instead of the game file
    when a ``--rule`` override set that key (or a mapping holding it)."""
    prefix = f"{file}: key '"
    if not overrides or not line.startswith(prefix):
        return line
    key = line[len(prefix):].split("'", 1)[0]
    for name in overrides:
        if key in (name, "rules." + name) or key.startswith(name + "."):
            shown = name if key == "rules." + name else key
            return line.replace(f"{prefix}{key}'", f"--rule {shown}", 1)
    return line


def load_data(game_file=None, overrides=None, edit_game_data=None):
    """Validate the YAML; return (HosData, rules vector, description dict)."""
    raw, file = read_yaml(game_file, overrides, edit_game_data)
    try:
        return build(HosFile.model_validate(raw), file)
    except ValidationError as error:
        line = validation_error_line(file, error)
    except ConfigError as error:
        line = str(error)
    raise ConfigError(blame_the_command_line(line, file, overrides)) from None


def _rank(file, key, name):
    if name not in RANK_NAMES:
        _fail(file, key, f"a rank in {list(RANK_NAMES)}", name)
    return RANK_NAMES.index(name)


def gb_capital_ranks(file, key, written, accepted: list[str]) -> list[str]:
    """The ranks the GB capital's box accepts: ``gb_capital_box_ranks`` decides (Q36), so the
    region's own upper-box rank must be among them rather than be silently ignored."""
    written_ranks = written if isinstance(written, list) else [written]
    for name in written_ranks:
        _rank(file, key, name)
    for name in accepted:
        _rank(file, "gb_capital_box_ranks", name)
    if not accepted or not set(written_ranks) <= set(accepted):
        _fail(file, f"{key}.3", f"ranks among gb_capital_box_ranks {list(accepted)} (Q36: that key decides "
              "which ranks the GB capital's box accepts)", written)
    return list(accepted)


def check_deck_sizes(f: HosFile, file: str, deck_len):
    """§3 steps 4-5 and §4.2 Q6 at every player count: setup deals the revolution deck and the
    display from the character deck, and Option 1b (which reveals a whole new display from the
    regular deck) needs at least ``display_size`` and at most the regular deck after setup."""
    for n in range(2, MAX_PLAYERS + 1):
        setup_cards = f.display_size + f.revolution_deck_cards
        if deck_len[n] < setup_cards + 1:
            _fail(file, f"removed_marks_by_players.{n}",
                  f"a character deck of more than display_size + revolution_deck_cards = {setup_cards} cards",
                  int(deck_len[n]))
    regular_after_setup = int(deck_len[2:].min()) - f.display_size - f.revolution_deck_cards
    if not f.display_size <= f.option1b_min_regular_deck <= regular_after_setup:
        _fail(file, "option1b_min_regular_deck",
              f"an integer {f.display_size}..{regular_after_setup} (from display_size to the smallest "
              "regular deck after setup)", f.option1b_min_regular_deck)


def values_by_place(file, key, table, what):
    """A per-player-count table {2: [...], ..., 5: [...]} with one value per place after the start
    player (§3 table) as an int64[MAX_PLAYERS + 1, MAX_PLAYERS] array."""
    array = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS), np.int64)
    if set(table) != {2, 3, 4, 5}:
        _fail(file, key, "keys 2, 3, 4, 5", sorted(table))
    for n, values in table.items():
        if len(values) != n:
            _fail(file, f"{key}.{n}", f"{n} {what}, one per seat", values)
        array[n, :n] = values
    return array


def build(f: HosFile, file: str):
    i64 = np.int64
    # --- structural names must match the kernel constants (state.py) ---------------------------
    if tuple(f.ranks) != RANK_NAMES:
        _fail(file, "ranks", list(RANK_NAMES), f.ranks)
    if tuple(f.countries) != COUNTRY_NAMES:
        _fail(file, "countries", list(COUNTRY_NAMES), f.countries)
    if len(f.attributes) != N_ATTRIBUTES or len(set(f.attributes)) != N_ATTRIBUTES:
        _fail(file, "attributes", f"{N_ATTRIBUTES} distinct names", f.attributes)
    if f.wild in f.attributes:
        _fail(file, "wild", "a name distinct from the attributes", f.wild)
    char_names = list(f.attributes) + [f.wild]
    # --- ranks -------------------------------------------------------------------------------------
    tiles = np.zeros(N_RANKS, i64)
    majority = np.zeros(N_RANKS, i64)
    for key, table, target in (("tiles_per_colour", f.tiles_per_colour, tiles),
                               ("majority_points", f.majority_points, majority)):
        if set(table) != set(RANK_NAMES):
            _fail(file, key, f"one value for each rank {list(RANK_NAMES)}", sorted(table))
        for name, value in table.items():
            target[RANK_NAMES.index(name)] = value
    for name, value in f.majority_points.items():
        if value % 2:
            _fail(file, f"majority_points.{name}", "an even number (two tied players score half)", value)
    # --- character deck per player count (§1.3, H8, H9) -------------------------------------------
    if set(f.character_counts) != set(char_names):
        _fail(file, "character_counts", f"one count for each of {char_names}", sorted(f.character_counts))
    marks = f.marks_per_type
    if set(f.removed_marks_by_players) != {2, 3, 4, 5}:
        _fail(file, "removed_marks_by_players", "keys 2, 3, 4, 5", sorted(f.removed_marks_by_players))
    max_cards = sum(f.character_counts.values())
    deck_cards = np.full((MAX_PLAYERS + 1, max_cards), -1, i64)
    deck_len = np.zeros(MAX_PLAYERS + 1, i64)
    for n, removed in f.removed_marks_by_players.items():
        removed_per_type = 0
        for mark in removed:
            if mark not in marks:
                _fail(file, f"removed_marks_by_players.{n}", f"marks among {sorted(marks)}", mark)
            removed_per_type += marks[mark]
        k = 0
        for t, name in enumerate(char_names):
            count = f.character_counts[name]
            if count < sum(marks.values()):
                _fail(file, f"character_counts.{name}", f">= {sum(marks.values())} (marked cards)", count)
            for _ in range(count - removed_per_type):
                deck_cards[n, k] = t
                k += 1
        deck_len[n] = k
    # --- recipes (§1.4) ----------------------------------------------------------------------------
    if set(f.recipes) != set(RANK_NAMES):
        _fail(file, "recipes", f"one recipe for each rank {list(RANK_NAMES)}", sorted(f.recipes))
    recipe = np.zeros((N_RANKS, N_ATTRIBUTES), i64)
    for name, attrs in f.recipes.items():
        if not attrs or len(set(attrs)) != len(attrs) or any(a not in f.attributes for a in attrs):
            _fail(file, f"recipes.{name}", f"a non-empty list of distinct attributes from {f.attributes}", attrs)
        for a in attrs:
            recipe[RANK_NAMES.index(name), f.attributes.index(a)] = 1
    courtesan_ok = np.full(N_RANKS, f.courtesan_max_per_noble, i64)
    for name in f.courtesan_forbidden:
        courtesan_ok[_rank(file, "courtesan_forbidden", name)] = 0
    # --- betrayal deck (§1.5, H10, H11) ------------------------------------------------------------
    btype_mask = [0]
    counts = [f.betrayal.assassin]
    btype_names = ["assassin"]
    for c, n in f.betrayal.single.items():
        if c not in COUNTRY_NAMES:
            _fail(file, "betrayal.single", f"countries in {list(COUNTRY_NAMES)}", c)
        btype_mask.append(1 << COUNTRY_NAMES.index(c))
        counts.append(n)
        btype_names.append(c)
    for pair in f.betrayal.double:
        if len(pair) != 2 or pair[0] == pair[1] or any(c not in COUNTRY_NAMES for c in pair):
            _fail(file, "betrayal.double", "pairs of two different countries", pair)
        btype_mask.append((1 << COUNTRY_NAMES.index(pair[0])) | (1 << COUNTRY_NAMES.index(pair[1])))
        counts.append(1)
        btype_names.append("/".join(pair))
    if sum(counts) < f.betrayal_display_size:   # §3 step 6 reveals the betrayal display from it
        _fail(file, "betrayal", f"at least betrayal_display_size = {f.betrayal_display_size} cards",
              sum(counts))
    bdeck_init = np.array([t for t, n in enumerate(counts) for _ in range(n)], i64)
    if f.assassin_bag.own_cubes + f.assassin_bag.target_cubes < 1:   # §4.4 step 3 draws one cube
        _fail(file, "assassin_bag", "at least one cube in the bag", f.assassin_bag.model_dump())
    # --- map (§2) ------------------------------------------------------------------------------------
    region_ids = list(f.regions)
    nr = len(region_ids)
    region_country = np.zeros(nr, i64)
    region_type = np.zeros(nr, i64)
    region_hex = np.zeros(nr, i64)
    region_box = np.full((nr, 2), -1, i64)
    box_region, box_ranks, box_upper = [], [], []
    capitals = [0] * N_COUNTRIES
    for r, rid in enumerate(region_ids):
        row = f.regions[rid]
        key = f"regions.{rid}"
        if not isinstance(row, list) or len(row) != 5:
            _fail(file, key, "[country, capital|province, hexagon value, upper box, lower box|null]", row)
        country, rtype, hexv, upper, lower = row
        if country not in COUNTRY_NAMES:
            _fail(file, key, f"a country in {list(COUNTRY_NAMES)}", country)
        if rtype not in ("capital", "province"):
            _fail(file, key, "type capital or province", rtype)
        try:
            check_integer_in(hexv, *HEXAGON_VALUE)
        except ValueError as error:
            _fail(file, f"{key}.2", f"{str(error).removeprefix('expected ')} (the hexagon value)", hexv)
        region_country[r] = COUNTRY_NAMES.index(country)
        region_type[r] = 1 if rtype == "capital" else 0
        capitals[region_country[r]] += region_type[r]
        region_hex[r] = hexv
        if rid == "GB_CAP":  # Q36: the GB capital's single box may accept a set of ranks
            upper = gb_capital_ranks(file, key, upper, f.gb_capital_box_ranks)
        masks = []
        for b, spec in enumerate((upper, lower)):
            if spec is None:
                if b == 0:
                    _fail(file, key, "an upper box rank", spec)
                continue
            names = spec if isinstance(spec, list) else [spec]
            if not names:
                _fail(file, key, "a rank or a non-empty list of ranks per box", spec)
            mask = 0
            for name in names:
                mask |= 1 << _rank(file, key, name)
            masks.append(mask)
            region_box[r, b] = len(box_region)
            box_region.append(r)
            box_ranks.append(mask)
            box_upper.append(1 if b == 0 else 0)
        if len(masks) == 2 and masks[1].bit_length() > (masks[0] & -masks[0]).bit_length():
            _fail(file, key, "the upper box to hold the higher rank", [upper, lower])
    if nr > 62:
        _fail(file, "regions", "at most 62 regions", nr)
    for c, n in enumerate(capitals):
        if n != 1:
            _fail(file, "regions", f"exactly one capital in {COUNTRY_NAMES[c]}", n)
    nreg = np.bincount(region_country, minlength=N_COUNTRIES).astype(i64)
    if nreg.min() < 1:
        _fail(file, "regions", "at least one region per country", nreg.tolist())
    country_regions = np.full((N_COUNTRIES, int(nreg.max())), -1, i64)
    for c in range(N_COUNTRIES):
        rs = [r for r in range(nr) if region_country[r] == c]
        country_regions[c, :len(rs)] = rs
    hex_key_base = int(nreg.max()) + 1
    if int(region_hex.max() + 1) * math.log2(hex_key_base) > 62:
        _fail(file, "regions", "hexagon values small enough for the tie-break key", int(region_hex.max()))
    if set(f.base_influence) != {"province", "capital"}:
        _fail(file, "base_influence", "keys province and capital", sorted(f.base_influence))
    base_influence = np.array([f.base_influence["province"], f.base_influence["capital"]], i64)
    # --- tokens --------------------------------------------------------------------------------------
    square = np.zeros((N_COUNTRIES, 2), i64)
    rounds = np.zeros((N_COUNTRIES, 2), i64)
    for key, table, target in (("square_tokens", f.square_tokens, square),
                               ("round_tokens", f.round_tokens, rounds)):
        if set(table) != set(COUNTRY_NAMES):
            _fail(file, key, f"one pair for each country {list(COUNTRY_NAMES)}", sorted(table))
        for c, pair in table.items():
            if len(pair) != 2 or pair[0] < pair[1]:
                _fail(file, f"{key}.{c}", "[first/higher, second/lower]", pair)
            target[COUNTRY_NAMES.index(c)] = pair
    if len(f.rounds) != 3:
        _fail(file, "rounds", "exactly 3 rounds", f.rounds)
    large = np.zeros((MAX_PLAYERS + 1, 3), i64)
    large_n = np.zeros(MAX_PLAYERS + 1, i64)
    for key in ("default", "two_players"):
        vals = f.large_tokens.get(key)
        if vals is None or len(vals) > 3 or vals != sorted(vals, reverse=True):
            _fail(file, f"large_tokens.{key}", "a list of at most 3 values, highest first", vals)
    for n in range(2, MAX_PLAYERS + 1):
        vals = f.large_tokens["two_players" if n == 2 else "default"]
        large[n, :len(vals)] = vals
        large_n[n] = len(vals)
    first = values_by_place(file, "first_turn_takes", f.first_turn_takes, "counts")
    # start-player compensation (not in the rules; default all 0): points by place after the
    # start player, scored at setup (score source start_compensation)
    starting = values_by_place(file, "starting_points", f.starting_points, "values")
    check_deck_sizes(f, file, deck_len)
    if f.betrayal_reshuffle not in RESHUFFLE_CHOICES:
        _fail(file, "betrayal_reshuffle", " or ".join(RESHUFFLE_CHOICES), f.betrayal_reshuffle)
    for name in ("option2_take_order", "option2_refill", "influence_hexagon_tiebreak", "winner_tiebreak"):
        if getattr(f.rules, name) not in SWITCH_CHOICES[name]:
            _fail(file, f"rules.{name}", " or ".join(SWITCH_CHOICES[name]), getattr(f.rules, name))
    lim_t, lim_r = f.hand_limit_turn_end, f.hand_limit_round_start
    data = HosData.from_arrays(HosDataArrays(
        f.display_size, f.betrayal_display_size, f.revolution_deck_cards, lim_t.character,
        lim_t.betrayal, lim_r.character, lim_r.betrayal, f.option1_take, f.option1b_take,
        f.option1b_min_regular_deck, f.assassin_bag.own_cubes, f.assassin_bag.target_cubes,
        f.noble_cards_per_rank, f.courtesan_max_per_noble,
        tiles, majority, deck_cards, deck_len, recipe, recipe.sum(axis=1).astype(i64), courtesan_ok,
        np.array(btype_mask, i64), bdeck_init,
        region_country, region_type, region_hex, region_box, np.array(box_region, i64),
        np.array(box_ranks, i64), np.array(box_upper, i64), base_influence, country_regions, nreg,
        square, rounds, large, large_n, first, starting, hex_key_base,
        # each region's term of the §6.4 hexagon key (Q19), hex_key_base ** its hexagon value:
        # worked out once here rather than at every influence count
        np.array([hex_key_base ** int(value) for value in region_hex], i64),
    ))
    rules = np.zeros(N_RULES, np.float64)
    rules[R_FIRST_TURN_REFRESH] = float(f.rules.first_turn_refresh)
    rules[R_COURTESAN_ONLY_MISSING] = float(f.rules.courtesan_only_for_missing)
    rules[R_LARGE_TOKEN_BY_CARDS] = float(f.rules.large_token_counts_noble_cards)
    rules[R_BETRAYAL_RESHUFFLE] = float(RESHUFFLE_CHOICES.index(f.betrayal_reshuffle))
    rules[R_OPTION2_TAKE_ORDER] = float(TAKE_ORDER_CHOICES.index(f.rules.option2_take_order))
    rules[R_OPTION2_REFILL] = float(REFILL_CHOICES.index(f.rules.option2_refill))
    rules[R_MIX_ASSASSIN_COUNTRY] = float(f.rules.mix_assassin_and_country)
    rules[R_RANDOM_START_PLAYER] = float(f.rules.random_start_player)
    rules[R_FIRST_TURN_TAKE_ONLY] = float(f.rules.first_turn_take_only)
    rules[R_REVOLUTION_TAKE_LOST] = float(f.rules.revolution_take_lost)
    rules[R_TAKE_FROM_SET_ASIDE] = float(f.rules.option1b_take_from_set_aside)
    rules[R_DEAD_TILES_RETURN] = float(f.rules.dead_tiles_return_at_round_end)
    rules[R_INFLUENCE_HEXAGON_TIEBREAK] = float(HEXAGON_TIEBREAK_CHOICES.index(f.rules.influence_hexagon_tiebreak))
    rules[R_WINNER_TIEBREAK] = float(WINNER_TIEBREAK_CHOICES.index(f.rules.winner_tiebreak))
    description = {
        "source_file": file,
        "game_data": f.model_dump(mode="json"),  # every validated value: the run's identity (run.yaml)
        "rules": {name: (f.betrayal_reshuffle if name == "betrayal_reshuffle"
                         else getattr(f.rules, name)) for name in RULE_NAMES},
        "region_ids": region_ids,
        "character_types": char_names,
        "betrayal_types": btype_names,
        "box_names": [f"{region_ids[box_region[b]]}.{'upper' if box_upper[b] else 'lower'}"
                      for b in range(len(box_region))],
        "rounds": list(f.rounds),
        "round_tokens": {c: list(v) for c, v in f.round_tokens.items()},
    }
    return data, rules, description
