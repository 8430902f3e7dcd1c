"""Dashboard 3 (backgammon divisor) in a real Voilà server and headless Chromium.

Numbers asserted come from the Greek Gammon42 document (docs/sources.md#greek).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from harness import (
    TIMEOUT, above_the_view, assert_clean, open_with_plots, plot_src, slider_step, table_row,
    type_into, wait_changed,
)

NOTEBOOK = "03_backgammon_divisor.ipynb"


def test_divisor_dashboard_numbers_sliders_and_fields(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK)

    # the notebook's cells show the document's tables above the view, on the same page
    table = page.locator("table.ee-table", has_text="Expected win rate of the favourite")
    # Greek document, step 1 (÷1200): 0 -> 50.0 %, 300 -> 64.0 %, 500 -> 72.3 %
    for text in ("50.0 %", "52.4 %", "54.8 %", "57.1 %", "59.5 %", "64.0 %", "68.3 %", "72.3 %"):
        expect(table).to_contain_text(text)
    # Greek document, step 2: K 32 changes
    changes = page.locator("table.ee-table", has_text="Rating changes with K 32")
    for text in ("+16 / −16", "+14 / −14", "+18 / −18", "+12 / −12", "+22 / −22"):
        expect(changes).to_contain_text(text)
    # Greek document, version history at 300: 84.9 / 70.3 / 64.0 %, +5/+9/+12, −27/−23/−20
    history = page.locator("table.ee-table", has_text="A favourite 300 points up")
    for text in ("84.9 %", "70.3 %", "+5", "+9", "−27", "−23", "−20"):
        expect(history).to_contain_text(text)
    summary = page.locator(".ee-summary")
    expect(summary).to_contain_text("÷1200: expected win rate 64.0 %")
    expect(summary).to_contain_text("÷800 70.3 % (+9 / −23)")  # the version history at 300

    # keyboard on the divisor slider: one step of 50
    before = plot_src(page)
    slider_step(page, ".ee-divisor-slider", "ArrowRight")
    expect(summary).to_contain_text("÷1250", timeout=TIMEOUT)
    expect(page.locator(".ee-divisor-field input")).to_have_value("1250")
    wait_changed(page, before)

    # type a difference: the version history is redone at 200 (document step 1: 59.5 %)
    before = plot_src(page)
    type_into(page, ".ee-difference-field", "200")
    expect(summary).to_contain_text("At 200 points up", timeout=TIMEOUT)
    expect(summary).to_contain_text("÷1200 59.5 %")
    wait_changed(page, before)

    # a bad value shows a message naming the field and keeps the dashboard working
    type_into(page, ".ee-divisor-field", "abc")
    error = page.locator(".ee-divisor .ee-error")
    expect(error).to_contain_text("Your divisor", timeout=TIMEOUT)
    expect(error).to_contain_text("100 to 4000")
    type_into(page, ".ee-divisor-field", "400")
    # document: with ÷400 a favourite 200 points up is expected to win 76 %
    expect(summary).to_contain_text("200 points up, ÷400: expected win rate 76.0 %",
                                    timeout=TIMEOUT)
    expect(error).to_have_text("")
    assert_clean(page, NOTEBOOK)


def test_divisor_link_sets_the_view_and_a_bad_value_is_noted(page, voila_url):
    # a link to ÷800, 300 points up: the document's version history gives 70.3 %, +9 / −23
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?divisor=800&difference=300",
              wait_until="commit")
    summary = page.locator(".ee-summary")
    expect(summary).to_contain_text("300 points up, ÷800: expected win rate 70.3 %; +9 for a "
                                    "win, −23 for a loss", timeout=TIMEOUT)
    expect(page.locator(".ee-divisor-field input")).to_have_value("800")
    link = page.locator(".ee-link")
    expect(link).to_have_attribute("href", "?divisor=800&difference=300")
    # the link follows the view: type 400 -> ?divisor=400 (document: ÷400, 300 up -> 84.9 %)
    type_into(page, ".ee-divisor-field", "400")
    expect(summary).to_contain_text("÷400: expected win rate 84.9 %", timeout=TIMEOUT)
    expect(link).to_have_attribute("href", "?divisor=400&difference=300")
    expect(page.locator(".ee-query-note")).to_have_count(0)

    # a bad value and an unknown name: a note, the defaults (document: ÷1200 -> 64.0 %)
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?divisor=abc&colour=red", wait_until="commit")
    note = page.locator(".ee-query-note")
    expect(note).to_contain_text("divisor=abc", timeout=TIMEOUT)
    expect(note).to_contain_text("colour (not a setting of this page)")
    expect(summary).to_contain_text("300 points up, ÷1200: expected win rate 64.0 %")
    assert_clean(page, NOTEBOOK)


# ---------------------------------------------------------------- one live page (issue 17)
def test_divisor_tables_above_the_view_follow_its_slider(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK)
    win_rates = above_the_view(page, "win_rates")
    history = above_the_view(page, "history")
    expect(win_rates).to_contain_text("÷1200 (your divisor)")
    # type ÷800: the document's version history, ÷800 at 300 points up -> 70.3 %, +9 / −23
    type_into(page, ".ee-divisor-field", "800")
    expect(win_rates).to_contain_text("÷800 (your divisor)", timeout=TIMEOUT)
    expect(table_row(win_rates, "300")).to_have_text(["300", "64.0 %", "70.3 %"])  # ÷1200 kept
    expect(table_row(history, "Your divisor (÷800)")).to_have_text(
        ["Your divisor (÷800)", "800", "70.3 %", "+9", "−23", re.compile(r"%$")])
    changes = above_the_view(page, "changes")
    expect(changes).to_contain_text("÷800 (your divisor): favourite wins")
    # the lead slider: 200 points up -> the version history is redone at 200 (step 1: 59.5 %)
    type_into(page, ".ee-difference-field", "200")
    expect(history).to_contain_text("A favourite 200 points up", timeout=TIMEOUT)
    expect(table_row(history, "From 1.3.1 (÷1200)").nth(2)).to_have_text("59.5 %")
    assert_clean(page, NOTEBOOK)


def test_divisor_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # ÷1000, 300 points up: 1 / (1 + 10^(−300/1000)) = 66.6 %, in the tables and in the view
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?divisor=1000&difference=300",
              wait_until="commit")
    expect(page.locator(".ee-summary")).to_contain_text("÷1000: expected win rate 66.6 %",
                                                        timeout=TIMEOUT)
    win_rates = above_the_view(page, "win_rates")
    expect(table_row(win_rates, "300")).to_have_text(["300", "64.0 %", "66.6 %"])
    expect(table_row(above_the_view(page, "history"), "Your divisor (÷1000)").nth(2)
           ).to_have_text("66.6 %")
    expect(above_the_view(page, "changes")).to_contain_text("÷1000 (your divisor)")
    assert_clean(page, NOTEBOOK)
