"""Progress display for long runs: a rich bar on an interactive stderr, silence otherwise
(logs and CI output stay clean)."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                           TextColumn, TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text


class GamesPerSecondColumn(ProgressColumn):
    """Recent throughput; games reused from an earlier session do not count."""

    def render(self, task) -> Text:
        speed = task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "… games/s", style="progress.data.speed")


@contextmanager
def games_progress(total: int, already_done: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n_games)``; draws a bar only if ``enabled`` and stderr is a terminal."""
    if not (enabled and sys.stderr.isatty()):
        yield lambda n_games: None
        return
    progress = Progress(
        TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(), GamesPerSecondColumn(),
        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False,
    )
    with progress:
        task = progress.add_task("games", total=total, completed=already_done)
        yield lambda n_games: progress.advance(task, n_games)
