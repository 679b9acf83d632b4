"""The one page toolkit every page of reports/pages/ writes with: a game's title, the words of a
setting's value, rendering a template into one self-contained HTML file (jinja2; figures are inline
base64 PNGs, no scripts, fonts or styles from the network) written atomically, the checks that the
page and its ``<stem>_files/`` can be written, the ``python -m reports.pages.<study>_report``
command, and looking at a page in headless Chromium.

Numbers in the designer's units are the analysis floor's (reports.analysis.units): the verdicts
are worded with them too."""
from __future__ import annotations

import argparse
import contextlib
import errno
import itertools
import math
import os
import sys
import tempfile
from pathlib import Path

import jinja2
import numpy as np

from reports.pages.plots import FigureStore
from sim import registry
from sim.core.engine import ConfigError

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = "report.html.j2"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# A write that fails for these reasons is the user's to fix (space, permissions, a path that
# cannot be a file); any other OSError is a bug and keeps its traceback.
WRITE_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM,
                errno.ENOTDIR, errno.EISDIR, errno.ENOENT, errno.ENAMETOOLONG)


# --- words -----------------------------------------------------------------------------------------

def game_title(game: str) -> str:
    """The game's name as a page prints it ("Louis XIV", its descriptor's title); a name the
    registry does not know (a study file's) as it is."""
    if game not in registry.known_games():
        return game
    return registry.descriptor(game).title


def setting_text(value) -> str:
    """A setting's value as words: 3 not 3.0, true/false for a switch, "printed rules" for no variant."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "printed rules"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return f"{float(value):g}"
    return str(value)


# --- the page --------------------------------------------------------------------------------------

def render(title: str, meta: str, headlines: list[str], sections: list, limitations: list[str]) -> str:
    return render_template(TEMPLATE, title=title, meta=meta, headlines=headlines, sections=sections,
                           limitations=limitations)


def render_template(template: str, **values) -> str:
    """One of reports/pages/templates/ rendered with ``values`` (HTML-escaped; a missing value is an error)."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                                     autoescape=jinja2.select_autoescape(["html", "j2"]),
                                     undefined=jinja2.StrictUndefined)
    return environment.get_template(template).render(**values)


def write(path: Path, html: str) -> Path:
    """Write ``html`` to ``path`` atomically: into a new temporary file of the same folder (created
    exclusively, so never a file already there), renamed over ``path`` once whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for attempt in itertools.count():
        temporary = path.with_name(f".{path.name}.{os.getpid()}{f'-{attempt}' if attempt else ''}.tmp")
        try:
            file = open(temporary, "x", encoding="utf-8")
        except FileExistsError:
            continue
        break
    try:
        with file:
            file.write(html)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


# --- where the page goes ---------------------------------------------------------------------------

def writable_output(output: Path) -> FigureStore:
    """The report's figure store, once ``output``'s folder and ``<stem>_files/`` are proven
    writable: a read-only or impossible ``-o`` is one line before anything is computed."""
    if output.is_dir():
        raise ConfigError(f"output {output} is a directory; give a file name such as report.html")
    with report_write_errors(output):
        store = FigureStore(output.parent / f"{output.stem}_files")
        for directory in (output.parent, store.directory):
            with tempfile.NamedTemporaryFile(dir=directory, prefix=".courtsim-write-test-"):
                pass
    return store


@contextlib.contextmanager
def report_write_errors(output: Path):
    """A full disk, a read-only folder or a path through a file while writing the report:
    one line naming the report and the file being written, not a traceback."""
    try:
        yield
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise
        where = f" (writing {error.filename})" if error.filename else ""
        raise ConfigError(f"cannot write the report {output}: {error.strerror or error}{where}") from None


# --- a study page's command, and looking at it in a browser ----------------------------------------

def view_in_chromium(page: Path, screenshot: Path | None = None, width: int = 1000, height: int = 1300) -> dict:
    """Open ``page`` in headless Chromium (Debian's /usr/bin/chromium through python playwright)
    and report what a reader gets: console errors, failed requests, each image's natural width,
    the headline texts; with ``screenshot``, a PNG of the top of the page (``width`` × ``height``)."""
    try:
        from playwright import sync_api
    except ImportError:
        raise ConfigError("a screenshot needs python playwright (pip install playwright)") from None
    if not CHROMIUM.exists():
        raise ConfigError(f"{CHROMIUM}: Chromium not found (apt-get install chromium)")
    seen = {"errors": [], "failed": []}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.on("console", lambda message: seen["errors"].append(message.text) if message.type == "error" else None)
            tab.on("pageerror", lambda error: seen["errors"].append(str(error)))
            tab.on("requestfailed", lambda request: seen["failed"].append(request.url))
            tab.goto(Path(page).resolve().as_uri())
            tab.wait_for_load_state("load")
            seen["title"] = tab.title()
            seen["image_widths"] = tab.evaluate("Array.from(document.images).map(image => image.naturalWidth)")
            seen["headlines"] = tab.locator("#summary li").all_inner_texts()
            if screenshot is not None:
                Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                tab.screenshot(path=str(screenshot))
        finally:
            browser.close()
    return seen


def report_main(write_report, prog: str, description: str, directory_help: str,
                arguments: list[str] | None = None) -> int:
    """The ``python -m reports.pages.<study>_report DIR [--out] [--screenshot]`` command of a study's
    report: write it (``write_report(directory, out)``), optionally look at it in Chromium; exit
    2 with one line on a ConfigError."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("directory", type=Path, help=directory_help)
    parser.add_argument("--out", type=Path, default=None, help="the report (default DIRECTORY/report.html)")
    parser.add_argument("--screenshot", type=Path, default=None, help="also write a PNG of the page's top here")
    options = parser.parse_args(arguments)
    try:
        page = write_report(options.directory, options.out)
        print(page)
        if options.screenshot is not None:
            seen = view_in_chromium(page, options.screenshot)
            print(options.screenshot)
            if seen["errors"] or seen["failed"]:
                print(f"warning: the browser reported {seen['errors'] + seen['failed']}", file=sys.stderr)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
