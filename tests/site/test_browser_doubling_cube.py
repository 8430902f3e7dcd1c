"""Dashboard 4 (doubling cube) in a real Voilà server and headless Chromium.

Numbers asserted come from the Greek Gammon42 document (docs/sources.md#greek).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from harness import (
    TIMEOUT, above_the_view, assert_clean, open_link, open_with_plots, plot_src, slider_step,
    table_row, type_into, wait_changed,
)

NOTEBOOK = "04_doubling_cube.ipynb"


def test_cube_dashboard_numbers_sliders_and_fields(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK)

    # the notebook's cell shows the document's table above the view, on the same page
    table = page.locator("table.ee-table", has_text="The doubling cube: coefficient")
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


def test_cube_link_sets_the_game_and_a_bad_value_is_noted(page, voila_url):
    # the underdog 300 down wins at cube 2: by hand 32 × 0.640 × 7/6 = 23.9 -> +24 / −24
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?loser_rating=1800&cube=2",
              wait_until="commit")
    winner = page.locator(".ee-winner-change")
    expect(winner).to_have_text("+24", timeout=TIMEOUT)
    expect(page.locator(".ee-loser-change")).to_have_text("−24")
    expect(page.locator(".ee-coefficient")).to_have_text("1.17")  # document: cube 2
    expect(page.locator(".ee-link")).to_have_attribute("href", re.compile(
        r"^\?winner_rating=1500&loser_rating=1800&cube=2&"))
    # document: 60 vs 10 games this week -> +8 / −16
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?winner_k_source=from+games+this+week"
              "&winner_games=60", wait_until="commit")
    expect(winner).to_have_text("+8", timeout=TIMEOUT)
    expect(page.locator(".ee-loser-change")).to_have_text("−16")
    # a cube the game does not have: a note, the defaults (document: two at 1500 -> +16)
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?cube=3", wait_until="commit")
    expect(page.locator(".ee-query-note")).to_contain_text("cube=3", timeout=TIMEOUT)
    expect(winner).to_have_text("+16")
    assert_clean(page, NOTEBOOK)


# ---------------------------------------------------------------- one live page (issue 17)
def test_cube_table_and_outcome_above_the_view_follow_it(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK)
    outcome = above_the_view(page, "outcome")
    expect(outcome).to_contain_text("Winner 1500 (K 32): +16")  # document: +16 / −16
    # cube 2: document, 1.17 and ±19
    slider_step(page, ".ee-cube", "ArrowRight")
    expect(outcome).to_contain_text("Winner 1500 (K 32): +19, new rating 1519", timeout=TIMEOUT)
    expect(outcome).to_contain_text("Loser 1500 (K 32): −19, new rating 1481")
    expect(outcome).to_contain_text("Cube 2, coefficient 1.17")
    # the example "60 vs 10 games this week": document, K 16 against K 32 -> +8 / −16 at
    # cube 1, the table's "your game" column
    page.locator(".ee-preset select").select_option(label="60 vs 10 games this week (+8 / −16)")
    cubes = above_the_view(page, "cubes")
    expect(table_row(cubes, "1").nth(5)).to_have_text("+8 / −16", timeout=TIMEOUT)
    expect(table_row(cubes, "1").nth(2)).to_have_text("±16")   # the document's column, fixed
    assert_clean(page, NOTEBOOK)


def test_cube_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # document: the underdog 300 down wins at cube 1, +20 / −20, above and in the view
    open_link(page, voila_url, NOTEBOOK, "?winner_rating=1500&loser_rating=1800&cube=1")
    outcome = above_the_view(page, "outcome")
    expect(page.locator(".ee-winner-change")).to_have_text("+20", timeout=TIMEOUT)
    expect(page.locator(".ee-loser-change")).to_have_text("−20")
    expect(outcome).to_contain_text("Winner 1500 (K 32): +20")
    expect(outcome).to_contain_text("Loser 1800 (K 32): −20")
    expect(table_row(above_the_view(page, "cubes"), "1").nth(5)).to_have_text("+20 / −20")
    assert_clean(page, NOTEBOOK)
