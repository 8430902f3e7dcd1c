"""The control beside what it changes (issue 29): every dashboard, on a phone and on a
desktop, one visit each (tests/site/dock.py: the first screen, the first live table and a
control on its screen that moves it, the dock's button, axe-core and the keyboard with the
dock, the view's own controls and the page's end never under it)."""

from __future__ import annotations

import pytest

from harness import TIMEOUT, open_dashboard
from tests.models.test_dock import PAGES
from tests.site.dock import dock_problems
from tests.site.test_every_reader import DESKTOP, PHONE, Recorder, check_axe

from elo_explain.dashboards import DASHBOARDS

NO_KEY_NUMBER = {"09_simulate_ladder.ipynb"}  # a season is run: its controls are its offer


def bounds(notebook: str) -> dict:
    """The range of each docked number of a page's model, by its CSS name."""
    model, view, _shown = PAGES[notebook]
    traits = model.class_traits()
    return {name.replace("_", "-"): (traits[name].lo, traits[name].hi) for name in view.docked
            if hasattr(traits[name], "lo")}


@pytest.mark.parametrize("notebook", [d.notebook for d in DASHBOARDS])
def test_the_dock(browser, voila_url, notebook):
    """One visit a dashboard: on a phone (Playwright's emulation, touch), then the same page
    turned into a desktop's window (1280 × 1000: the desktop layout; the keyboard)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    rec = Recorder(page)
    spec = {"axe": check_axe, "key": notebook not in NO_KEY_NUMBER, "bounds": bounds(notebook),
            "docked": [t.replace("_", "-") for t in PAGES[notebook][1].docked]}
    try:
        open_dashboard(page, voila_url, notebook)
        page.wait_for_load_state("networkidle", timeout=TIMEOUT)
        problems = [f"phone: {p}" for p in dock_problems(page, {**spec, "phone": True})]
        page.set_viewport_size(DESKTOP["viewport"])
        problems += [f"desktop: {p}" for p in dock_problems(page, {**spec, "phone": False})]
        assert problems == [], f"{notebook}: " + "; ".join(problems)
        assert not rec.errors, f"console errors: {rec.errors[:3]}"
    finally:
        context.close()
