"""The HTML report in a real headless Chromium (Debian's chromium package, driven by Python
playwright): it renders, every image loads, the console shows no error; a screenshot is kept."""
import shutil

import pytest

from reports.pages.run_report import build_report
from reports.pages.toolkit import CHROMIUM, CHROMIUM_ARGS as ARGS

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)


@pytest.mark.parametrize("run_fixture", ["louis_run", "heads_run"])
def test_report_renders_in_chromium(run_fixture, request, tmp_path):
    run = request.getfixturevalue(run_fixture)
    output = build_report(run, tmp_path / "report.html", progress=False)
    errors, failed = [], []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1250, "height": 900})
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("requestfailed", lambda request: failed.append(request.url))
            page.goto(output.as_uri())
            page.wait_for_load_state("load")
            assert page.title().endswith("balance report")
            assert page.locator("#summary li").count() >= 3
            widths = page.evaluate("Array.from(document.images).map(image => image.naturalWidth)")
            assert len(widths) >= 8 and all(width > 0 for width in widths), widths
            screenshot = tmp_path / "report.png"
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    assert errors == [] and failed == []
    assert screenshot.stat().st_size > 10_000
    shutil.copy(screenshot, tmp_path / f"{run_fixture}.png")
