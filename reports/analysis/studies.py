"""A study's files as its report reads them: the plan file (comparison.yaml, sweep.yaml,
tuning.yaml, sensitivity.yaml) validated by the report's model, and its Parquet tables checked
against the contract with the study that wrote them. What is missing, unreadable or off the
contract is a one-line ConfigError naming the file."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from sim.core.engine import ConfigError
from sim.core.yaml_files import read_yaml_mapping, validate


def read_study_settings(path: Path, model, kind: str, format_key: str):
    """A study's plan file (comparison.yaml, sweep.yaml, ...) validated by its report's model, in
    the one format this courtsim reads (one-line ConfigErrors naming the file)."""
    settings = validate(model, read_yaml_mapping(path, kind), path)
    if getattr(settings, format_key) != 1:
        raise ConfigError(f"{path}: key '{format_key}': expected 1, the format this courtsim reads "
                          f"(found {getattr(settings, format_key)})")
    return settings


def read_parquet_table(path: Path, columns: dict[str, str], what: str, first: str) -> pd.DataFrame:
    """A study's Parquet table as pandas, its columns checked against the contract with the study
    (``columns``: name -> str / int / float / bool; a column of nulls only has no type to check);
    missing (``first``: what to run), unreadable or off-contract is a ConfigError naming the file."""
    if not path.is_file():
        found = "a directory" if path.is_dir() else "nothing"
        raise ConfigError(f"{path}: {what} not found (found {found}); {first}")
    try:
        table = pl.read_parquet(path).to_pandas()
    except (OSError, pl.exceptions.PolarsError) as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ConfigError(f"{path}: not a readable Parquet table ({first_line})") from None
    for column, kind in columns.items():
        if column not in table.columns:
            raise ConfigError(f"{path}: column '{column}' required but missing")
        if not table[column].notna().any():
            continue
        # (a true/false column with nulls reaches pandas as objects)
        is_bool = pd.api.types.is_bool_dtype(table[column]) or all(
            isinstance(value, (bool, np.bool_)) for value in table[column].dropna())
        numeric = pd.api.types.is_numeric_dtype(table[column]) and not pd.api.types.is_bool_dtype(table[column])
        if kind in ("int", "float") and not numeric:
            raise ConfigError(f"{path}: column '{column}': expected numbers (found {table[column].dtype})")
        if kind == "bool" and not is_bool:
            raise ConfigError(f"{path}: column '{column}': expected true/false (found {table[column].dtype})")
    return table
