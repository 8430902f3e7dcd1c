"""Dashboard 11 (What do I need?): what only a browser shows, in one page load.

A table's CSV link downloads its file (every table of the page has one), and the page prints
without its controls and CSV links, its tables whole and its figure at the page's width: on a
desktop, and once the window is a phone's width (whose screen frames a wide table to scroll
it). Everything else this page showed in a browser is asserted in
tests/models/test_dash_plan.py (the view's widgets and the notebook's live tables) and in the
page's audit on a phone and a desktop (tests/site/specs/d11.py, test_every_reader.py).

[EVEN] Worked by hand from the rules (docs/sources.md#fide-b02; as in
       tests/models/test_dash_plan.py): 9 games at even ratings, K 20 (table 8.1.2: .50):
       7 / 9 gives +50 (1850), 6½ gives +40 (1840); every game won +90 (1890).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from harness import POLL_MS, TIMEOUT, above_the_view, assert_clean, open_dashboard

NOTEBOOK = "11_plan.ipynb"


def test_a_tables_csv_downloads_and_the_page_prints_without_controls(page, voila_url):
    open_dashboard(page, voila_url, NOTEBOOK)
    page.locator("img.ee-plot").first.wait_for(state="visible", timeout=TIMEOUT)
    assert_clean(page, NOTEBOOK)

    # the notebook's table above the view, and its CSV link: the file it downloads
    table = above_the_view(page, "fide_table")
    expect(table).to_contain_text("1850")  # [EVEN]
    expect(page.locator("a.ee-csv")).to_have_count(5)  # every table of the page
    with page.expect_download(timeout=TIMEOUT) as download:
        table.locator("a.ee-csv").click()
    assert download.value.suggested_filename.endswith(".csv")
    data = Path(download.value.path()).read_text(encoding="utf-8")
    assert data.startswith("\ufeffMethod,Least score,")
    assert "FIDE: table 8.1.2,7,1850,6.5,1840,1890,20" in data  # [EVEN]

    # printed: no controls, no CSV links; the figure at the page's width; the tables whole
    page.emulate_media(media="print")
    for control in (".ee-target", ".ee-preset", ".ee-season", "a.ee-csv", ".ee-link"):
        expect(page.locator(control).first).to_be_hidden()
    figure = page.locator("img.ee-plot").first.bounding_box()
    body = page.locator(".ee-app").first.bounding_box()
    assert figure["width"] >= 0.95 * body["width"], (figure, body)
    whole = (
        "t => getComputedStyle(t).display === 'table'"
        " && getComputedStyle(t).overflowX === 'visible'"
    )
    assert table.locator("table.ee-table").evaluate(whole)
    # a phone's width: its screen frames a wide table (display: block), print does not
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function(
        "() => document.documentElement.clientWidth <= 400", timeout=TIMEOUT, polling=POLL_MS
    )
    expect(table.locator("table.ee-table")).to_be_visible()
    assert table.locator("table.ee-table").evaluate(whole)
    for control in (".ee-target", "a.ee-csv"):
        expect(page.locator(control).first).to_be_hidden()
