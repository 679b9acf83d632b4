"""What the rest of courtsim asks about a game, declared once by the game's own package.

Each game package holds ``descriptor.py`` with one :class:`GameDescriptor`; ``sim/registry.py``
lists them. Code outside a game's packages asks the registry for the descriptor and never compares
a game's name. The parts that import heavy modules (the compiled engine, the bots, the metrics and
report sections) are named as import paths and loaded on first use, so listing the games or
reading a run's tables compiles nothing.

A third game: write its packages (sim/<game>/ with a descriptor, strategies/<game>/, its metrics
in reports/analysis/, its report sections in reports/pages/, configs/games/<game>.yaml) and add one
line to sim/registry.py.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from sim.core.engine import GameEngine


@dataclass(frozen=True)
class GameDescriptor:
    name: str                          # the command line's name: "louis-xiv"
    title: str                         # as a page prints it: "Louis XIV"
    folder: str                        # configs/games/<folder>.yaml, configs/bots/<folder>/, configs/variants/<folder>/
    engine_path: str                   # "module:attribute" of the sim.core.engine.GameEngine
    bots_path: str | None              # the bot package (strategies/parameters.py says what it declares);
                                       # None: the engine resolves its built-in bots itself (a test engine)
    tables_path: str                   # the module that builds and documents the game's tables
    metrics_path: str                  # reports.analysis: the game's per-game mechanics and metrics
    sections_path: str                 # reports.pages: the run report's sections of the game (``sections``)
    sections_step: str                 # what those sections show, as the report's progress names it
    length_unit: str                   # the unit a game's length is counted in ("influence turns")
    tie_break: str                     # the rule that breaks a tied score, as a page names it
    assumptions: tuple[str, ...]       # the rules file's numbered assumptions (A1 ..): a sensitivity study covers each
    limitations: tuple[str, ...]       # what the tables cannot show, printed on every report

    def engine(self) -> GameEngine:
        module_name, attribute = self.engine_path.split(":")
        return getattr(importlib.import_module(module_name), attribute)

    def bots(self) -> ModuleType:
        return importlib.import_module(self.bots_path)

    def tables(self) -> ModuleType:
        return importlib.import_module(self.tables_path)

    def metrics(self) -> ModuleType:
        return importlib.import_module(self.metrics_path)

    def sections(self) -> ModuleType:
        return importlib.import_module(self.sections_path)
