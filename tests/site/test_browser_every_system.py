"""Dashboard 7 "Every system, one game" in a real Voilà server and headless Chromium.

Numbers asserted come from independent sources:
[GR]  Greek document (Gammon42): equal ratings +16/−16 at K 32; a favourite 300 up loses
      −27 / −23 / −20 with ÷400 / ÷800 / ÷1200; cube 2 → 1.17 → ±19.
[KB]  Bastian, "The FIBS Rating System": equal experienced players, 1-point match: 2.00.
[HELP] FIBS help formula: a newcomer's K is 5, so the same match is worth 10.00.
[LILA] lila's RatingCalculatorTest: two new players, the winner 1741 ± 1, the loser 1258 ± 1.
[TEL] Telugu document: equal ratings, K 20 → ±10.
"""

from __future__ import annotations

from playwright.sync_api import expect

from harness import (
    TIMEOUT, above_the_view, assert_clean, open_with_plots, plot_src, slider_step, table_row,
    type_into, wait_changed,
)
from harness import MINUS  # the page's minus sign, U+2212

NB = "07_every_system.ipynb"


def _row(page, label: str):
    """A row of the notebook's tables (the game at the notebook's parameters)."""
    return page.locator("table.ee-table tr", has=page.locator("td", has_text=label)).first


def test_every_system_in_the_browser(page, voila_url):
    # the notebook's tables, above the view; the view's numbers after a change are on its chart
    # (test_dash_every_system reads the chart's labels: −27 / −23 / −20, +19, no draws, +10.00)
    open_with_plots(page, voila_url, NB)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+16")         # [GR]
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text(f"{MINUS}16")
    expect(_row(page, "FIBS")).to_contain_text("+2.00")                  # [KB]
    expect(_row(page, "FIBS")).to_contain_text(f"{MINUS}2.00")
    expect(_row(page, "Telugu calculator")).to_contain_text("+10.0")    # [TEL]
    expect(page.locator("body")).to_contain_text("Chess.com is left out")  # the notebook's text
    game = page.locator(".ee-summary .ee-game")
    expect(game).to_have_text("1500 against 1500: you win")

    # type B's rating: the underdog A now wins, the chart follows [GR]
    old = plot_src(page)
    type_into(page, ".ee-opponent", "1800")
    expect(game).to_have_text("1500 against 1800: you win", timeout=TIMEOUT)
    wait_changed(page, old)

    # a draw, then the cube: 2 → coefficient 1.17 → ±19 [GR]
    page.locator(".ee-result button", has_text="Draw").click()
    expect(game).to_have_text("1500 against 1800: draw", timeout=TIMEOUT)
    page.locator(".ee-result button", has_text="You win").click()
    type_into(page, ".ee-opponent", "1500")
    expect(game).to_have_text("1500 against 1500: you win", timeout=TIMEOUT)
    old = plot_src(page)
    page.locator(".ee-cube button").get_by_text("2", exact=True).click()
    wait_changed(page, old)

    # an example: two new players [LILA]
    page.locator(".ee-preset select").select_option(label="Two new players at 1500, you win")
    lichess = page.locator(".ee-lichess-now")
    expect(lichess).to_have_text("1741? / 1258?", timeout=TIMEOUT)

    # a bad typed value shows a message naming the field; the dashboard still answers
    type_into(page, ".ee-opponent", "abc")
    error = page.locator(".ee-opponent .ee-error")
    expect(error).to_contain_text("Opponent's rating", timeout=TIMEOUT)
    expect(error).to_contain_text("not a number")
    type_into(page, ".ee-opponent", "1800")
    expect(error).to_have_text("", timeout=TIMEOUT)
    expect(game).to_have_text("1500 against 1800: you win", timeout=TIMEOUT)

    # a slider moved with the keyboard: your RD 500 (the example) → 499, Lichess follows
    summary = page.locator(".ee-summary")
    before = summary.inner_text()
    slider_step(page, ".ee-rd", "ArrowLeft")
    expect(page.locator(".ee-rd-field input")).to_have_value("499", timeout=TIMEOUT)
    expect(summary).to_contain_text("RD 499 →", timeout=TIMEOUT)
    expect(summary).not_to_have_text(before)
    assert_clean(page, NB)


def test_every_system_link(page, voila_url):
    # [GR] the favourite 300 up loses (−27 / −23 / −20: test_dash_every_system reads the chart)
    query = "rating=1800&opponent=1500&result=loss&cube=1"
    page.goto(f"{voila_url}/voila/render/{NB}?{query}", timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    expect(page.locator(".ee-game")).to_have_text("1800 against 1500: you lose", timeout=TIMEOUT)
    expect(page.locator(".ee-opponent input")).to_have_value("1500")
    expect(page.locator(".ee-query-note")).to_have_count(0)
    href = page.locator("a.ee-link").get_attribute("href")
    for part in query.split("&"):
        assert part in href, (part, href)
    # a bad and an unknown value: a short note, the rest applies, no traceback
    page.goto(f"{voila_url}/voila/render/{NB}?opponent=1800&cube=3&player=b", timeout=TIMEOUT,
              wait_until="commit")
    note = page.locator(".ee-query-note")
    expect(note).to_contain_text("cube=3", timeout=TIMEOUT)
    expect(note).to_contain_text("player")
    expect(page.locator(".ee-game")).to_have_text("1500 against 1800: you win")
    assert_clean(page, NB)


# ---------------------------------------------------------------- one live page (issue 17)
def test_every_system_tables_above_the_view_follow_it(page, voila_url):
    open_with_plots(page, voila_url, NB)
    backgammon = above_the_view(page, "backgammon_table")
    expect(table_row(backgammon, "Gammon42 1.3.1").nth(2)).to_have_text("+16")  # [GR] equal
    # the example "underdog 300 below wins": [GR] +27 / +23 / +20 under ÷400 / ÷800 / ÷1200
    page.locator(".ee-preset select").select_option(
        label="Underdog 300 below wins (Gammon42 versions)")
    for version, change in (("1.0.5", 27), ("1.2.0", 23), ("1.3.1", 20)):
        expect(table_row(backgammon, f"Gammon42 {version}").nth(2)).to_have_text(
            f"+{change}", timeout=TIMEOUT)
        expect(table_row(backgammon, f"Gammon42 {version}").nth(3)).to_have_text(
            f"{MINUS}{change}")
    expect(above_the_view(page, "chess_table")).to_contain_text("1500 against 1800: you win")
    assert_clean(page, NB)


def test_every_system_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # [GR] the favourite 300 up loses: −27 / −23 / −20; [TEL] E = 1/(1 + 10^(−300/400)) = 0.85
    page.goto(f"{voila_url}/voila/render/{NB}?rating=1800&opponent=1500&result=loss",
              timeout=TIMEOUT, wait_until="commit")
    summary = page.locator(".ee-summary")
    expect(summary).to_contain_text("1800 against 1500: you lose", timeout=TIMEOUT)
    expect(summary).to_contain_text("E for you (÷400 formula) 0.85")
    chess = above_the_view(page, "chess_table")
    expect(chess).to_contain_text("1800 against 1500: you lose")
    expect(table_row(chess, "Telugu calculator").nth(1)).to_have_text("0.85")
    backgammon = above_the_view(page, "backgammon_table")
    for version, change in (("1.0.5", 27), ("1.2.0", 23), ("1.3.1", 20)):
        expect(table_row(backgammon, f"Gammon42 {version}").nth(2)).to_have_text(
            f"{MINUS}{change}")
    assert_clean(page, NB)
