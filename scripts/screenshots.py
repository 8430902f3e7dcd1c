"""Take the README's screenshots: every published dashboard, in headless Chromium.

Run with ``make screenshots`` (writes ``docs/screenshots/<notebook>.png``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from harness import launch_chromium, open_dashboard, start_voila  # noqa: E402

from elo_explain.dashboards import INDEX_NOTEBOOK  # noqa: E402
from elo_explain.dashboards.index import published  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    proc, base = start_voila()
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            for notebook in [INDEX_NOTEBOOK] + [d.notebook for d in published()]:
                open_dashboard(page, base, notebook)
                page.wait_for_load_state("networkidle")
                # the page scrolls inside its own container: grow the viewport to the content
                height = page.evaluate("() => Math.max(...[...document.querySelectorAll('*')]"
                                       ".map(e => e.scrollHeight))")
                page.set_viewport_size({"width": 1200, "height": min(int(height) + 40, 6000)})
                target = OUT / notebook.replace(".ipynb", ".png")
                page.screenshot(path=str(target), full_page=True)
                page.set_viewport_size({"width": 1200, "height": 900})
                print(f"wrote {target.relative_to(ROOT)}")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
