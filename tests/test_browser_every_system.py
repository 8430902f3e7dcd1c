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
    expect(page.locator("body")).to_contain_text("Chess.com is left out")  # the notebook's text

    # type B's rating: the underdog A now wins, every Gammon42 version follows [GR]
    old = plot_src(page)
    type_into(page, ".ee-opponent", "1800")
    expect(_row(page, "Gammon42 1.0.5")).to_contain_text("+27", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.2.0")).to_contain_text("+23")
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+20")
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text(f"{MINUS}20")
    wait_changed(page, old)

    # a draw: backgammon has none
    page.locator(".ee-result button", has_text="Draw").click()
    expect(_row(page, "FIBS")).to_contain_text("no draws in backgammon", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("no draws in backgammon")
    page.locator(".ee-result button", has_text="You win").click()
    type_into(page, ".ee-opponent", "1500")
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+16", timeout=TIMEOUT)

    # the cube: 2 → coefficient 1.17 → +19 [GR]
    old = plot_src(page)
    page.locator(".ee-cube button").get_by_text("2", exact=True).click()
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+19", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text(f"{MINUS}19")
    wait_changed(page, old)

    # an example: two new players [LILA], [HELP]
    page.locator(".ee-preset select").select_option(label="Two new players at 1500, you win")
    expect(_row(page, "Lichess Glicko-2")).to_contain_text("1741?", timeout=TIMEOUT)
    expect(_row(page, "Lichess Glicko-2")).to_contain_text("1258?")
    expect(_row(page, "FIBS")).to_contain_text("+10.00")

    # a bad typed value shows a message naming the field; the dashboard still answers
    type_into(page, ".ee-opponent", "abc")
    error = page.locator(".ee-opponent .ee-error")
    expect(error).to_contain_text("Opponent's rating", timeout=TIMEOUT)
    expect(error).to_contain_text("not a number")
    type_into(page, ".ee-opponent", "1800")
    expect(error).to_have_text("", timeout=TIMEOUT)
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+20", timeout=TIMEOUT)  # [GR]

    # a slider moved with the keyboard: your RD 500 (the example) → 499, the Lichess row follows
    lichess = _row(page, "Lichess Glicko-2").inner_text()
    slider_step(page, ".ee-rd", "ArrowLeft")
    expect(page.locator(".ee-rd-field input")).to_have_value("499", timeout=TIMEOUT)
    page.wait_for_function(
        "old => [...document.querySelectorAll('.ee-results tr')].some(r =>"
        " r.innerText.includes('Lichess') && r.innerText !== old)", arg=lichess, timeout=TIMEOUT)
    assert_clean(page, NB)


def test_every_system_link(page, voila_url):
    # [GR] the favourite 300 up loses: −27 / −23 / −20 under ÷400 / ÷800 / ÷1200 (K 32)
    query = "rating=1800&opponent=1500&result=loss&cube=1"
    page.goto(f"{voila_url}/voila/render/{NB}?{query}", timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    for version, change in (("1.0.5", 27), ("1.2.0", 23), ("1.3.1", 20)):
        expect(_row(page, f"Gammon42 {version}")).to_contain_text(f"{MINUS}{change}",
                                                                  timeout=TIMEOUT)
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
    expect(_row(page, "Gammon42 1.3.1")).to_contain_text("+20")  # [GR] 300 below wins: +20
    assert_clean(page, NB)
