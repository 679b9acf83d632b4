"""Render the report sections into one self-contained HTML file (jinja2; figures are inline
base64 PNGs, no scripts, fonts or styles from the network)."""
from __future__ import annotations

import itertools
import os
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = "report.html.j2"


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
