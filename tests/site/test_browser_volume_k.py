"""Dashboard 5 (K vs weekly volume) in a real Voilà server and headless Chromium.

Numbers asserted come from the Greek Gammon42 document (docs/sources.md#greek).
"""

from __future__ import annotations

from playwright.sync_api import expect

from harness import (
    TIMEOUT, above_the_view, assert_clean, open_with_plots, plot_src, slider_step, table_row,
    type_into, wait_changed,
)

NOTEBOOK = "05_volume_k.ipynb"


def test_volume_dashboard_numbers_sliders_and_fields(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK, plots=2)

    # document, step 3: K 32 vs K 16 (the notebook's table, above the view)
    k_table = page.locator("table.ee-table", has_text="The favourite's change with K 32 and K 16")
    for text in ("+16 / −16", "+8 / −8", "+14 / −18", "+7 / −9", "+12 / −20", "+6 / −10"):
        expect(k_table).to_contain_text(text)
    # document: 60 games vs 10, same rating -> +8 / −16, and the other way round +16 / −8
    expect(page.locator(".ee-a-wins")).to_have_text("+8 / −16")
    expect(page.locator(".ee-b-wins")).to_have_text("+16 / −8")
    # document: 300 games, 2-3 points short at K 32 -> about 200 (32 × 300 × 0.02 = 192)
    expect(page.locator(".ee-swing")).to_contain_text("192 points")
    expect(page.locator(".ee-swing")).to_contain_text("288 points")

    # type 50 games: K 16 (document: 50 or more)
    k_value = page.locator(".ee-k-value")
    expect(k_value).to_have_text("K 32")
    type_into(page, ".ee-games-field", "50")
    expect(k_value).to_have_text("K 16", timeout=TIMEOUT)

    # bad value: a message naming the field; the dashboard still answers
    type_into(page, ".ee-games-field", "lots")
    error = page.locator(".ee-games .ee-error")
    expect(error).to_contain_text("Ranked games in the last 7 days", timeout=TIMEOUT)
    expect(error).to_contain_text("0 to 300")
    type_into(page, ".ee-games-field", "49")
    expect(k_value).to_have_text("K 32", timeout=TIMEOUT)  # document: fewer than 50 -> K 32
    expect(error).to_have_text("")

    # player B's games slider: the End key jumps to its maximum, 300 games
    slider_step(page, ".ee-games-b", "End")  # 300 games: both K 16 -> mirror images, +8 / −8
    expect(page.locator(".ee-a-wins")).to_have_text("+8 / −8", timeout=TIMEOUT)
    expect(page.locator(".ee-b-wins")).to_have_text("+8 / −8")

    # the busy player's week 2: one more game a day moves the window plot
    before = plot_src(page, nth=0)
    slider_step(page, ".ee-week2", "ArrowRight")
    wait_changed(page, before, nth=0)
    expect(page.locator(".ee-window")).to_contain_text("189 games in four weeks")  # 7 × 27

    # the weekly swing: one step (10 games) more
    before = plot_src(page, nth=1)
    slider_step(page, ".ee-swing-games", "ArrowRight")
    expect(page.locator(".ee-swing")).to_contain_text("310 games in a week", timeout=TIMEOUT)
    expect(page.locator(".ee-swing")).to_contain_text("198 points")  # 32 × 310 × 0.02 = 198.4
    wait_changed(page, before, nth=1)
    assert_clean(page, NOTEBOOK)


def test_volume_link_sets_the_view_and_a_bad_value_is_noted(page, voila_url):
    # 50 games: K 16 (document); B with 300 games: both K 16, mirror images +8 / −8
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?games=50&games_b=300&swing_games=100",
              wait_until="commit")
    expect(page.locator(".ee-k-value")).to_have_text("K 16", timeout=TIMEOUT)
    expect(page.locator(".ee-a-wins")).to_have_text("+8 / −8")
    expect(page.locator(".ee-swing")).to_contain_text("64 points")  # 32 × 100 × 0.02
    expect(page.locator(".ee-link")).to_have_attribute(
        "href", "?games=50&games_a=60&games_b=300&per_day=3%2C12%2C2%2C9&swing_games=100"
                "&shortfall=2.5&feedback=false")
    # a bad value: a note, and the document's defaults (60 vs 10 games: +8 / −16)
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?shortfall=lots", wait_until="commit")
    expect(page.locator(".ee-query-note")).to_contain_text("shortfall=lots", timeout=TIMEOUT)
    expect(page.locator(".ee-a-wins")).to_have_text("+8 / −16")
    expect(page.locator(".ee-swing")).to_contain_text("192 points")  # 32 × 300 × 0.02
    assert_clean(page, NOTEBOOK)


# ---------------------------------------------------------------- one live page (issue 17)
def test_volume_tables_above_the_view_follow_it(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK, plots=2)
    your_k = above_the_view(page, "your_k")
    expect(your_k).to_contain_text("K 32: 0 ranked games in the last 7 days")
    # 60 games: document, 50 or more -> K 16, above and in the view
    type_into(page, ".ee-games-field", "60")
    expect(your_k).to_contain_text("K 16: 60 ranked games in the last 7 days", timeout=TIMEOUT)
    expect(page.locator(".ee-k-value")).to_have_text("K 16")
    # the weekly swing at 290 games: the document's rule of thumb K × games × shortfall,
    # 32 × 290 × 2 % = 185.6 -> 186 points (K 16: 92.8 -> 93)
    slider_step(page, ".ee-swing-games", "ArrowLeft")
    thumb = above_the_view(page, "rule_of_thumb")
    expect(thumb).to_contain_text("290 games in a week", timeout=TIMEOUT)
    expect(table_row(thumb, "2 points below")).to_have_text(
        ["2 points below", "186 points", "93 points"])
    assert_clean(page, NOTEBOOK)


def test_volume_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # document: the same K on both sides -> the winner gains what the loser loses, +16 / −16
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?games_a=10&games_b=10", wait_until="commit")
    expect(page.locator(".ee-a-wins")).to_have_text("+16 / −16", timeout=TIMEOUT)
    table = above_the_view(page, "asymmetric_table")
    expect(table_row(table, "A (K 32) wins")).to_have_text(["A (K 32) wins", "+16 / −16"])
    expect(table_row(table, "B (K 32) wins")).to_have_text(["B (K 32) wins", "+16 / −16"])
    expect(table).to_contain_text("10 vs 10 games this week")
    assert_clean(page, NOTEBOOK)
