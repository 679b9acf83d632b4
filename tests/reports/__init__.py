"""Report tests.

pytest imports this directory as the top-level package ``reports`` (tests/ has no __init__.py),
which hides the project's own ``reports`` package: ``from reports import metrics_louis_xiv`` then
fell through to the *installed* courtsim (the main checkout's editable install), so a worktree's
report tests ran main's report code. Searching the checkout's reports directory too makes them
test the code next to them.
"""
from pathlib import Path

__path__.append(str(Path(__file__).resolve().parents[2] / "reports"))
