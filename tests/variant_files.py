"""Variant files written by tests (tests/core/test_variants.py, tests/test_variants_play.py)."""
from __future__ import annotations

from pathlib import Path

import yaml

LOUIS_XIV = "louis-xiv"
HEADS_OF_STATE = "heads-of-state"


def write_variant(folder: Path, stem: str, game: str = LOUIS_XIV, **fields) -> Path:
    """A variant file ``folder/<stem>.yaml`` (named ``stem``, of ``game``, with a description,
    then ``fields``; a field given as None is left out)."""
    text = {"name": stem, "game": game, "description": f"the {stem} test variant"} | fields
    path = folder / f"{stem}.yaml"
    path.write_text(yaml.safe_dump({key: value for key, value in text.items() if value is not None},
                                   allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path
