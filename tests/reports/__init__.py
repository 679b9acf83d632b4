"""Report tests.

tests/ has no __init__.py, so pytest puts tests/ first on sys.path and imports this directory as
the top-level package ``reports`` (and tests/strategies as ``strategies``). That hides the
project's own ``reports`` and ``strategies`` packages: ``from reports import metrics_louis_xiv``
then fell through to the *installed* courtsim (the main checkout's editable install), so a
worktree's report tests ran main's code. Searching the checkout's directories too makes them
test the code next to them.
"""
import importlib
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
__path__.append(str(CHECKOUT / "reports"))
_strategies = importlib.import_module("strategies")
if str(CHECKOUT / "strategies") not in list(_strategies.__path__):
    _strategies.__path__.append(str(CHECKOUT / "strategies"))
