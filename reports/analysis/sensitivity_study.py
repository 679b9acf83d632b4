"""A sensitivity study's record as ``courtsim sensitivity GAME`` writes it (sim/studies/sensitivity.py):
``sensitivity.yaml`` holds the inputs with their ranges and reasons, the assumptions not varied, the
method and every conclusion's robust / fragile verdict.

The sensitivity report (reports/pages/sensitivity_report.py) reads it whole; the main balance report
(reports/pages/run_report.py) finds the study of its run's game (:func:`find_sensitivity_run`) to
show each conclusion's verdict."""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from reports.analysis.studies import read_study_settings
from sim.core.engine import ConfigError

SETTINGS = "sensitivity.yaml"
COMPLETE = "complete"


class InputRecord(BaseModel):
    """One varied assumption: a number over [low, high], or named options (the first printed)."""
    model_config = ConfigDict(extra="ignore")
    name: str
    assumption: str
    label: str | None = None
    why: str = ""
    kind: Literal["numeric", "options"] = "numeric"
    printed: Any = None
    low: float | None = None
    high: float | None = None
    integer: bool = False
    paths: dict[str, list[str]] = Field(default_factory=dict)
    options: dict[str, Any] | None = None

    @property
    def words(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def numeric(self) -> bool:
        return self.kind == "numeric"


class NotVaried(BaseModel):
    model_config = ConfigDict(extra="ignore")
    assumption: str
    why: str = ""


class Method(BaseModel):
    model_config = ConfigDict(extra="ignore")
    screening: str = "Morris elementary effects (SALib)"
    trajectories: int | None = None
    levels: int | None = None
    sampler_seed: int | None = None
    oat_levels: int | None = None
    matter_share: float | None = None
    pairing: str = ""


class Verdict(BaseModel):
    """One conclusion's verdict as the study judged it."""
    model_config = ConfigDict(extra="ignore")
    conclusion: int
    text: str
    kind: str = ""
    n_players: int
    metric: str | None = None          # a threshold conclusion's metric and threshold
    threshold: float | None = None
    verdict: Literal["robust", "fragile"]
    points: int = 0
    failing_points: int = 0
    failing_screening_points: int = 0
    flip_input: str | None = None
    flip_assumption: str | None = None
    flip_value: str | None = None
    flip_score: float | None = None
    within_noise: bool | None = None
    sentence: str


class SensitivitySettings(BaseModel):
    """sensitivity.yaml as the study writes it (keys it may add later are ignored)."""
    model_config = ConfigDict(extra="ignore")
    courtsim_sensitivity: int
    status: str = COMPLETE
    name: str = "sensitivity"
    description: str | None = ""
    game: str
    sensitivity_file: str | None = None
    experiment_file: str | None = None
    players: list[int] = Field(default_factory=list)
    bots: list[str] = Field(default_factory=list)
    seed: int | None = None
    games_per_matchup: int | None = None
    inputs: list[InputRecord] = Field(min_length=1)
    not_varied: list[NotVaried] = Field(default_factory=list)
    method: Method = Field(default_factory=Method)
    conclusions: list[Verdict] = Field(default_factory=list)
    created: str | datetime | None = None


def read_settings(directory: Path) -> SensitivitySettings:
    """sensitivity.yaml of ``directory``; ConfigError (one line naming the file) when it is
    missing, malformed or of another format."""
    return read_study_settings(Path(directory) / SETTINGS, SensitivitySettings, "sensitivity plan",
                               "courtsim_sensitivity")


# --- the study a run's balance report shows -------------------------------------------------------

@dataclass
class SensitivityRun:
    """A sensitivity directory the balance report speaks of: its plan and verdicts, or (when
    found by default but unusable) only the note why it was ignored."""
    directory: Path
    settings: SensitivitySettings | None
    note: str | None = None

    @property
    def report(self) -> Path:
        return self.directory / "report.html"

    def href_from(self, page: Path) -> str | None:
        """The sensitivity report's address relative to ``page`` (None before it is written)."""
        if not self.report.is_file():
            return None
        return Path(os.path.relpath(self.report.resolve(), Path(page).resolve().parent)).as_posix()


def default_sensitivity_directory(game: str) -> Path:
    """``runs/sensitivity/<game folder>``: where ``courtsim sensitivity GAME`` writes by default."""
    from sim.core.variants import game_folder

    return Path("runs") / "sensitivity" / game_folder(game)


def read_complete_settings(directory: Path, game: str) -> SensitivitySettings:
    """sensitivity.yaml of a finished study of ``game``; ConfigError naming the file otherwise."""
    settings = read_settings(directory)
    path = Path(directory) / SETTINGS
    if settings.game != game:
        raise ConfigError(f"{path}: key 'game': expected {game}, the run's game (found {settings.game})")
    if settings.status != COMPLETE or not settings.conclusions:
        raise ConfigError(f"{path}: key 'status': expected a complete sensitivity study with its verdicts (found "
                          f"{settings.status}); run `courtsim sensitivity {game}` again to finish it")
    return settings


def find_sensitivity_run(game: str, directory: Path | None = None, look_for_default: bool = True
                         ) -> SensitivityRun | None:
    """The sensitivity run the balance report of a ``game`` run shows. Given ``directory``: it
    must hold a complete study of that game (else ConfigError). Not given: the default directory
    when it holds a sensitivity.yaml (one of another game or unfinished gives only a note), else None."""
    if directory is not None:
        return SensitivityRun(Path(directory), read_complete_settings(Path(directory), game))
    if not look_for_default:
        return None
    default = default_sensitivity_directory(game)
    if not (default / SETTINGS).is_file():
        return None
    try:
        return SensitivityRun(default, read_complete_settings(default, game))
    except ConfigError as error:
        return SensitivityRun(default, None, f"The sensitivity run in {default} was not used: {error}")
