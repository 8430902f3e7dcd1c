"""Dashboard 4 (doubling cube) in a real Voilà server and headless Chromium.

Numbers asserted come from the Greek Gammon42 document (seeds/004_*, rules.md section C).
"""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import assert_clean, open_dashboard

NOTEBOOK = "04_doubling_cube.ipynb"
TIMEOUT = 90_000


def plot_src(page) -> str:
    return page.locator(".ee-plot img").first.get_attribute("src")


def wait_plot_changed(page, before: str) -> None:
    page.wait_for_function(
        "prev => { const i = document.querySelector('.ee-plot img');"
        " return i !== null && i.src !== prev; }",
        arg=before, timeout=TIMEOUT,
    )


def test_cube_dashboard_numbers_sliders_and_fields(page, voila_url):
    open_dashboard(page, voila_url, NOTEBOOK)
    page.wait_for_selector(".ee-plot img", timeout=TIMEOUT)
    assert_clean(page, NOTEBOOK)

    table = page.locator(".ee-cube-table")
    # Greek document, cube table: 1 -> 1.00 ±16 ±8 ... 2 -> 1.17 ±19 ±9 ... 32 -> 1.83 ±29 ±15
    for text in ("1.00", "1.17", "1.33", "1.50", "1.67", "1.83", "2.00",
                 "±16", "±19", "±21", "±24", "±27", "±29", "±32", "±8", "±9", "±11", "±15"):
        expect(table).to_contain_text(text)
    winner = page.locator(".ee-winner-change")
    loser = page.locator(".ee-loser-change")
    expect(winner).to_have_text("+16")  # document: two players at 1500 -> +16 / −16
    expect(loser).to_have_text("−16")

    # one step right on the cube slider: cube 2, coefficient 1.17, ±19 (document)
    before = plot_src(page)
    handle = page.locator(".ee-cube .noUi-handle")
    handle.focus()
    handle.press("ArrowRight")
    expect(page.locator(".ee-coefficient")).to_have_text("1.17", timeout=TIMEOUT)
    expect(winner).to_have_text("+19")
    expect(loser).to_have_text("−19")
    expect(page.locator(".ee-cube-table tr.ee-highlight")).to_contain_text("1.17")
    wait_plot_changed(page, before)

    # type the loser's rating: the underdog 300 down wins; by hand 32 × 0.640 × 7/6 = 23.9
    before = plot_src(page)
    field = page.locator(".ee-loser-rating-field input")
    field.fill("1800")
    field.press("Enter")
    expect(winner).to_have_text("+24", timeout=TIMEOUT)
    expect(loser).to_have_text("−24")
    wait_plot_changed(page, before)

    # a bad value: message naming the field, the dashboard keeps answering
    field.fill("abc")
    field.press("Enter")
    error = page.locator(".ee-loser-rating .ee-error")
    expect(error).to_contain_text("Loser's rating", timeout=TIMEOUT)
    expect(error).to_contain_text("500 to 3000")
    field.fill("1500")
    field.press("Enter")
    expect(winner).to_have_text("+19", timeout=TIMEOUT)  # document: cube 2 -> ±19
    expect(error).to_have_text("")
    assert_clean(page, NOTEBOOK)
