"""Dashboard 11 (What do I need?) in a real Voilà server and headless Chromium, on a desktop
and on a phone (Playwright's emulation: 390 × 844, touch, scale 3): one visit each.

Numbers worked by hand from the rules (docs/sources.md#fide-b02; as in
tests/models/test_dash_plan.py):
9 games at even ratings, K 20 (table 8.1.2: .50): 7 / 9 gives +50 (1850), 6½ gives +40 (1840);
the next game: ±10. The preset 1500 against 1000 (the 400-point rule: .92 a game), 10 games,
to 1507: 10 / 10 (1516) by the table, 9½ by the ÷400 formula (0.909: +8.2 -> 1508).
"""

from __future__ import annotations

import urllib.parse

import pytest
from playwright.sync_api import expect

from harness import TIMEOUT, above_the_view, assert_clean, open_dashboard, type_into

NOTEBOOK = "11_plan.ipynb"
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 1000}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
              "is_mobile": True, "has_touch": True},
}


@pytest.mark.parametrize("device", list(DEVICES))
def test_plan_answer_csv_and_bad_input(browser, voila_url, device):
    context = browser.new_context(**DEVICES[device])
    page = context.new_page()
    try:
        open_dashboard(page, voila_url, NOTEBOOK)
        page.locator("img.ee-plot").first.wait_for(state="visible", timeout=TIMEOUT)
        assert_clean(page, NOTEBOOK)
        answer = page.locator(".ee-answer")
        expect(answer).to_contain_text("You need 7 / 9 (rating 1850); 6.5 gives 1840.",
                                       timeout=TIMEOUT)
        expect(page.locator(".ee-stakes")).to_contain_text("win +10, draw 0, loss −10")

        # the notebook's table above the view, and its CSV link: a data URI, a file name
        table = above_the_view(page, "fide_table")
        expect(table).to_contain_text("1850")
        link = table.locator("a.ee-csv")
        assert link.get_attribute("download").endswith(".csv")
        data = urllib.parse.unquote(link.get_attribute("href").split(",", 1)[1])
        assert data.startswith("\ufeffMethod,Least score,") and "FIDE: table 8.1.2,7,1850," in data
        assert page.locator("a.ee-csv").count() == 5  # every table of the page

        # a preset: the table and the formula differ (live in the view and in the table above)
        page.locator(".ee-preset select").select_option(index=1)
        expect(answer).to_contain_text("You need 10 / 10 (rating 1516)", timeout=TIMEOUT)
        expect(answer).to_contain_text("The ÷400 formula would say 9.5 / 10.")
        expect(table).to_contain_text("1508")

        # bad input: plain words naming the field, the numbers kept
        type_into(page, ".ee-target", "abc")
        expect(page.locator(".ee-target .ee-error")).to_contain_text("Target rating",
                                                                     timeout=TIMEOUT)
        season = page.locator(".ee-season textarea")
        season.fill("2026-01-10: 1750 1\n1700 2")
        expect(page.locator(".ee-season-error")).to_contain_text(
            "Season, period 2: Games, row 1 ('1700 2'): the result must be 1 (win)", timeout=TIMEOUT)
        expect(answer).to_contain_text("You need 10 / 10 (rating 1516)")
        assert_clean(page)

        # printed: no controls, no CSV links; the tables whole; the figure at the page's width
        page.emulate_media(media="print")
        for control in (".ee-target", ".ee-preset", ".ee-season", "a.ee-csv", ".ee-link"):
            expect(page.locator(control).first).to_be_hidden()
        expect(table.locator("table.ee-table")).to_be_visible()
        assert table.locator("table.ee-table").evaluate(
            "t => getComputedStyle(t).display === 'table' && getComputedStyle(t).overflowX === 'visible'")
        figure = page.locator("img.ee-plot").first.bounding_box()
        body = page.locator(".ee-app").first.bounding_box()
        assert figure["width"] >= 0.95 * body["width"], (figure, body)
    finally:
        context.close()
