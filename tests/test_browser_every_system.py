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

from conftest import (
    TIMEOUT, assert_clean, open_with_plots, plot_src, slider_step, type_into, wait_changed,
)
from conftest import MINUS  # the page's minus sign, U+2212

NB = "07_every_system.ipynb"


def _row(page, label: str):
    return page.locator(".ee-results tr", has=page.locator("td", has_text=label)).first


def test_every_system_in_the_browser(page, voila_url):
    open_with_plots(page, voila_url, NB)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+16")         # [GR]
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text(f"{MINUS}16")
    expect(_row(page, "FIBS")).to_contain_text("+2.00")                  # [KB]
    expect(_row(page, "FIBS")).to_contain_text(f"{MINUS}2.00")
    expect(_row(page, "Telugu calculator")).to_contain_text("+10.0")    # [TEL]
    expect(page.locator(".ee-app")).to_contain_text("Chess.com is left out")

    # type B's rating: the underdog A now wins, every Gammon42 version follows [GR]
    old = plot_src(page)
    type_into(page, ".ee-rating-b", "1800")
    expect(_row(page, "Gammon42 1.0.5")).to_contain_text("+27", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.2.0")).to_contain_text("+23")
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+20")
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text(f"{MINUS}20")
    wait_changed(page, old)

    # a draw: backgammon has none
    page.locator(".ee-result button", has_text="Draw").click()
    expect(_row(page, "FIBS")).to_contain_text("no draws in backgammon", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("no draws in backgammon")
    page.locator(".ee-result button", has_text="A wins").click()
    type_into(page, ".ee-rating-b", "1500")
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+16", timeout=TIMEOUT)

    # move the cube slider with the keyboard: cube 2 → coefficient 1.17 → +19 [GR]
    old = plot_src(page)
    slider_step(page, ".ee-cube", "ArrowRight")
    expect(page.locator(".ee-cube .widget-readout")).to_have_text("2", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+19", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text(f"{MINUS}19")
    wait_changed(page, old)

    # an example: two new players [LILA], [HELP]
    page.locator(".ee-preset select").select_option(label="Two new players at 1500, A wins")
    expect(_row(page, "Lichess Glicko-2")).to_contain_text("1741?", timeout=TIMEOUT)
    expect(_row(page, "Lichess Glicko-2")).to_contain_text("1258?")
    expect(_row(page, "FIBS")).to_contain_text("+10.00")

    # a bad typed value shows a message naming the field; the dashboard still answers
    type_into(page, ".ee-rating-b", "abc")
    error = page.locator(".ee-rating-b .ee-error")
    expect(error).to_contain_text("Rating of B", timeout=TIMEOUT)
    expect(error).to_contain_text("not a number")
    type_into(page, ".ee-rating-b", "1800")
    expect(error).to_have_text("", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+20", timeout=TIMEOUT)  # [GR]
    assert_clean(page, NB)
