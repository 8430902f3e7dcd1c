"""Dashboard 4 (doubling cube) in a real Voilà server and headless Chromium.

Numbers asserted come from the Greek Gammon42 document (seeds/004_*, rules.md section C).
"""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import (
    TIMEOUT, assert_clean, open_with_plots, plot_src, slider_step, type_into, wait_changed,
)

NOTEBOOK = "04_doubling_cube.ipynb"


def test_cube_dashboard_numbers_sliders_and_fields(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK)

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
    slider_step(page, ".ee-cube", "ArrowRight")
    expect(page.locator(".ee-coefficient")).to_have_text("1.17", timeout=TIMEOUT)
    expect(winner).to_have_text("+19")
    expect(loser).to_have_text("−19")
    expect(page.locator(".ee-cube-table tr.ee-highlight")).to_contain_text("1.17")
    wait_changed(page, before)

    # type the loser's rating: the underdog 300 down wins; by hand 32 × 0.640 × 7/6 = 23.9
    before = plot_src(page)
    type_into(page, ".ee-loser-rating-field", "1800")
    expect(winner).to_have_text("+24", timeout=TIMEOUT)
    expect(loser).to_have_text("−24")
    wait_changed(page, before)

    # a bad value: message naming the field, the dashboard keeps answering
    type_into(page, ".ee-loser-rating-field", "abc")
    error = page.locator(".ee-loser-rating .ee-error")
    expect(error).to_contain_text("Loser's rating", timeout=TIMEOUT)
    expect(error).to_contain_text("500 to 3000")
    type_into(page, ".ee-loser-rating-field", "1500")
    expect(winner).to_have_text("+19", timeout=TIMEOUT)  # document: cube 2 -> ±19
    expect(error).to_have_text("")
    assert_clean(page, NOTEBOOK)
