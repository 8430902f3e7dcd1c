"""Dashboard 1 (chess Elo calculator) in a real Voilà server and headless Chromium.

Numbers asserted come from the Telugu document (docs/sources.md#telugu), the Ukrainian
document (docs/sources.md#ukrainian) and FIDE's table 8.1.2 (docs/sources.md#fide-b02). The page
prints negative numbers with the minus sign U+2212 ("−").
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from harness import (
    TIMEOUT, above_the_view, assert_clean, open_link, open_with_plots, plot_src, slider_step,
    table_row, type_into, wait_changed,
)
from harness import MINUS as M  # the page's minus sign, U+2212

NOTEBOOK = "01_chess_calculator.ipynb"
CURVE = ".ee-plot-curve"


def table(page, caption: str):
    """The first table on the page whose caption holds ``caption``."""
    return page.locator("table", has=page.locator("caption", has_text=caption)).first


def load_example(page, label: str) -> None:
    """Choose an example in the dashboard's "Example" menu."""
    page.locator(".ee-preset select").select_option(label=label)


def test_calculator_numbers_presets_fields_and_sliders(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK, css=CURVE)

    # defaults: [TE] 1500 against 1700, K 20: E 0.24; a draw against the stronger player gains
    e, change = page.locator(".ee-e"), page.locator(".ee-change")
    expect(e).to_have_text("0.24")
    expect(change).to_contain_text("+")
    expect(page.locator(".ee-summary")).to_contain_text("not a 24 % chance of winning")
    gains = page.locator("li", has_text="draw against a stronger player gains points")
    expect(gains).to_be_visible()  # the notebook's markdown above the calculator

    # every example the Telugu document prints, visible at the defaults: the notebook's
    # tables above the calculator (the period, the cap example) and its note on the method
    period = table(page, "every game from the starting ratings")
    for text in ("0.64", "+7.2", "0.36", "+2.8", "0.43", f"{M}8.6", "+1.4", "new rating 1501"):
        expect(period).to_contain_text(text)
    example = table(page, "The Telugu document's example")
    for text in ("0.95", "+1.1", f"{M}18.9", "0.91", "+1.8", f"{M}18.2"):
        expect(example).to_contain_text(text)
    expect(page.locator("li", has_text="table 8.1.2")).to_contain_text("0.92 vs 0.91")

    # type an opponent: 1500 against 1600 -> E 0.36 ([TE] the period's draw against 1600)
    before = plot_src(page, CURVE)
    type_into(page, ".ee-opponent", "1600")
    expect(e).to_have_text("0.36", timeout=TIMEOUT)
    wait_changed(page, before, CURVE)

    # a bad value shows a message naming the field; the dashboard keeps answering
    type_into(page, ".ee-opponent", "abc")
    error = page.locator(".ee-opponent .ee-error")
    expect(error).to_contain_text("Opponent", timeout=TIMEOUT)
    expect(error).to_contain_text("100 to 3500")
    expect(e).to_have_text("0.36")
    type_into(page, ".ee-opponent", "1700")
    expect(e).to_have_text("0.24", timeout=TIMEOUT)  # [TE]
    expect(error).to_have_text("")

    # preset: 1500 beats 1000 with the 400-point rule ([TE] E 0.91, +1.8; a loss -18.2)
    before = plot_src(page, CURVE)
    load_example(page, "1500 beats 1000, 400-point rule on")
    expect(e).to_have_text("0.91", timeout=TIMEOUT)
    expect(change).to_have_text("+1.8")
    outcomes = page.locator(".ee-outcomes")
    expect(outcomes).to_contain_text(f"{M}18.2")
    expect(outcomes).to_contain_text(f"{M}18.9")
    wait_changed(page, before, CURVE)
    # switch the rule off: [TE] E 0.95, about +1.1
    page.locator(".ee-cap-400 input").click()
    expect(e).to_have_text("0.95", timeout=TIMEOUT)
    expect(change).to_have_text("+1.1")
    # FIDE's table instead of the formula: [B02] 500 -> 0.96 in the notebook's table of the
    # real difference; FIDE beside the calculator caps 1500's +500 at +400 -> 0.92, and the
    # calculator's E stays the document's ÷400 formula ([TE] 0.95 with the rule off) (issue 18)
    page.locator(".ee-method button", has_text="FIDE table 8.1.2").click()
    expect(table_row(above_the_view(page, "outcomes_table"), "E")).to_have_text(
        ["E", "0.96", ""], timeout=TIMEOUT)
    fide = page.locator(".ee-fide")
    expect(fide).to_contain_text("400-point rule: +500 counts as +400")
    expect(fide).to_contain_text("table 8.1.2: E 0.92")
    expect(e).to_have_text("0.95")
    assert_clean(page, NOTEBOOK)


def test_calculator_k_typed_and_a_pasted_period(page, voila_url):
    """Issue 18: a K of one's own, the buttons' readers, the Ukrainian formula in the
    average-opponent mode with FIDE beside it, a period pasted as a list."""
    open_with_plots(page, voila_url, NOTEBOOK, css=CURVE)
    change, new = page.locator(".ee-change"), page.locator(".ee-new")
    # [TE] T11-T14: who each K is for
    for label in ("K 40: new and young players", "K 20: most players, below 2400",
                  "K 10: 2400 and above"):
        expect(page.locator(".ee-k button", has_text=label)).to_be_visible()
    # [TE] T8: 1500 against 1700, E 0.24; the reader's K 25: 25 (0.5 - 0.2403) = +6.5, 1506
    type_into(page, ".ee-k-own", "25")
    expect(change).to_have_text("+6.5", timeout=TIMEOUT)
    expect(new).to_have_text("1506")
    # [UK] K 40, 1500, 20 games, 10 points against an average of 1600: its formula 1612.05;
    # FIDE 1598 (700 rule: K 35)
    page.locator(".ee-k button", has_text="K 40").click()
    page.locator(".ee-mode button", has_text="Average opponent").click()
    type_into(page, ".ee-average", "1600")
    type_into(page, ".ee-n-games-field", "20")
    type_into(page, ".ee-points-field", "10")
    expect(new).to_have_text("1612.05", timeout=TIMEOUT)
    fide = page.locator(".ee-fide")
    expect(fide).to_contain_text("1598")
    expect(fide).to_contain_text("700 rule: K 40 → 35")
    # [TE] T10: the period pasted as a list: +1.4, new rating 1501 (K 20)
    page.locator(".ee-k button", has_text="K 20").click()
    page.locator(".ee-mode button", has_text="Several games").click()
    page.locator(".ee-games-text textarea").fill("1400 win, 1600 draw, 1550 loss")
    expect(new).to_have_text("1501", timeout=TIMEOUT)
    expect(change).to_have_text("+1.4")
    expect(page.locator(".ee-row-3 input")).to_have_value("1550")
    assert_clean(page, NOTEBOOK)


def test_calculator_period_and_average_modes(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK, css=CURVE)
    change, new = page.locator(".ee-change"), page.locator(".ee-new")

    # [TE] the period 1500 -> 1501: +7.2, +2.8, -8.6, total +1.4
    load_example(page, "Period 1500 → 1501")
    expect(change).to_have_text("+1.4", timeout=TIMEOUT)
    expect(new).to_have_text("1501")
    for text in ("+7.2", "+2.8", f"{M}8.6"):
        expect(page.locator(".ee-per-game")).to_contain_text(text)
    expect(page.locator(".ee-summary")).to_contain_text("E per game: 0.64, 0.36, 0.43")
    # issue 11: the average-opponent shortcut against the per-game sum, and its plot:
    # [UK] 1500 + 20 (1.5 - 3 E(1516.7)) = +1.44 against [TE] +1.43 (opponents close: safe)
    averaging = page.locator(".ee-averaging")
    expect(averaging).to_contain_text("+1.43")
    expect(averaging).to_contain_text("+1.44")
    # the plot is the notebook's figure above the view (it follows the listed games)
    page.locator(".ee-live-averaging-figure img.ee-figure").wait_for(state="visible",
                                                                     timeout=TIMEOUT)

    # edit a row: game 3 becomes a draw against 1550: 20 (0.5 - 0.43) = +1.4 instead of -8.6
    page.locator(".ee-row-result-3 select").select_option("Draw")
    expect(change).to_have_text("+11.4", timeout=TIMEOUT)  # +1.43 + 10 = +11.43
    # add a game (a win against 1500, E 0.5 -> +10)
    page.locator(".ee-add").click()
    expect(page.locator(".ee-row-4 input")).to_be_visible(timeout=TIMEOUT)
    expect(change).to_have_text("+21.4", timeout=TIMEOUT)

    # [UK] average-opponent mode: 5 games against 1600 scoring 3: R + K (points - G E)
    page.locator(".ee-mode button", has_text="Average opponent").click()
    expect(page.locator(".ee-n-games")).to_be_visible(timeout=TIMEOUT)
    # 1500 + 20 (3 - 5 x 0.36) = 1524.0 (E against 1600 = 0.3599)
    expect(change).to_have_text("+24.0", timeout=TIMEOUT)
    before = plot_src(page, CURVE)
    # G 6, still 3 points: 20 (3 - 6 x 0.3599) = +16.8
    slider_step(page, ".ee-n-games", "ArrowRight")
    expect(change).to_have_text("+16.8", timeout=TIMEOUT)
    wait_changed(page, before, CURVE)
    assert_clean(page, NOTEBOOK)


def test_calculator_link(page, voila_url):
    # [TE] 1500 beats 1000 with the real difference (rule off): E 0.95, about +1.1
    query = "?rating=1500&opponent=1000&result=win&k=20&cap_400=false"
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}{query}", timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    e, change = page.locator(".ee-e"), page.locator(".ee-change")
    expect(e).to_have_text("0.95", timeout=TIMEOUT)
    expect(change).to_have_text("+1.1")
    expect(page.locator(".ee-query-note")).to_have_count(0)
    # the reader changes the view; the link reproduces it: [TE] a loss costs 18.9
    page.locator(".ee-result button", has_text="Loss").click()
    expect(change).to_have_text(f"{M}18.9", timeout=TIMEOUT)
    link = page.locator(".ee-link")
    expect(link).to_have_attribute("href", re.compile("result=loss"), timeout=TIMEOUT)
    href = link.get_attribute("href")
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}{href}", timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    expect(e).to_have_text("0.95", timeout=TIMEOUT)
    expect(change).to_have_text(f"{M}18.9")
    # a bad or unknown value: a note, the defaults ([TE] 1500 vs 1700: 0.24), no traceback
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?result=lose&colour=red&opponent=1700",
              timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    note = page.locator(".ee-query-note")
    expect(note).to_contain_text("result=lose", timeout=TIMEOUT)
    expect(note).to_contain_text("colour")
    expect(e).to_have_text("0.24")
    assert_clean(page, NOTEBOOK)


# ---------------------------------------------------------------- one live page (issue 17)
def test_calculator_tables_above_the_view_follow_it(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK, css=CURVE)
    outcomes = above_the_view(page, "outcomes_table")
    expect(outcomes).to_contain_text("1500 against 1700: every result")
    # [TE] 1500 against 1000, K 20: with the cap E 0.91 (a win +1.8, a loss −18.2), with
    # the real difference E 0.95 (+1.1, −18.9)
    type_into(page, ".ee-opponent", "1000")
    expect(outcomes).to_contain_text("1500 against 1000: every result", timeout=TIMEOUT)
    expect(table_row(outcomes, "E")).to_have_text(["E", "0.91", "", "0.95", ""])
    expect(table_row(outcomes, "Win")).to_have_text(["Win", "+1.8", "1502", "+1.1", "1501"])
    expect(table_row(outcomes, "Loss")).to_have_text(
        ["Loss", f"{M}18.2", "1482", f"{M}18.9", "1481"])
    # the listed games: [TE] game 3 a draw against 1550 instead of a loss: +1.43 + 10 = +11.4
    page.locator(".ee-mode button", has_text="Several games").click()
    page.locator(".ee-row-result-3 select").select_option("Draw")
    games = above_the_view(page, "games_table")
    expect(table_row(games, "Total").nth(5)).to_have_text("+11.4", timeout=TIMEOUT)
    expect(page.locator(".ee-change")).to_have_text("+11.4")
    assert_clean(page, NOTEBOOK)


def test_calculator_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # [TE] 1500 beats 1000 with the real difference (rule off): E 0.95, +1.1, in both
    open_link(page, voila_url, NOTEBOOK, "?rating=1500&opponent=1000&result=win&k=20&cap_400=false")
    outcomes = above_the_view(page, "outcomes_table")
    expect(page.locator(".ee-e")).to_have_text("0.95", timeout=TIMEOUT)
    expect(page.locator(".ee-change")).to_have_text("+1.1")
    expect(outcomes).to_contain_text("1500 against 1000: every result")
    expect(table_row(outcomes, "E")).to_have_text(["E", "0.95", ""])
    expect(table_row(outcomes, "Win")).to_have_text(["Win", "+1.1", "1501"])
    assert_clean(page, NOTEBOOK)


def test_calculator_answers_as_you_type(page, voila_url):
    """Issue 18: each keystroke that leaves a valid value updates the page ([UK] U3: the
    new rating "live as you type"); a half-typed value shows no message until the box is
    left (blur) or Enter is pressed."""
    open_with_plots(page, voila_url, NOTEBOOK, css=CURVE)
    e = page.locator(".ee-e")
    box = page.locator(".ee-opponent input")
    error = page.locator(".ee-opponent .ee-error")
    box.click()
    box.press("Control+a")
    box.press("Backspace")          # "" : half-typed, no message while the box has the focus
    box.press_sequentially("16")    # "16": below 100, still no message shown
    if error.count():
        expect(error).not_to_be_visible()
    box.press_sequentially("00")    # [TE] 1500 against 1600: E 0.36, with no Enter
    expect(e).to_have_text("0.36", timeout=TIMEOUT)
    box.press_sequentially(".")     # "1600." reads 1600: no message, the text stays as typed
    expect(box).to_have_value("1600.")
    box.press("Control+a")
    box.press("Backspace")
    box.press_sequentially("17")
    expect(error).to_contain_text("Opponent", timeout=TIMEOUT)  # the kernel wrote it ...
    expect(error).not_to_be_visible()                            # ... the page hides it
    box.press("Tab")                # left invalid: the message shows, the page keeps 0.36
    expect(error).to_be_visible(timeout=TIMEOUT)
    expect(e).to_have_text("0.36")
    box.click()
    box.press("End")
    box.press_sequentially("00")    # [TE] 1500 against 1700: E 0.24
    expect(e).to_have_text("0.24", timeout=TIMEOUT)
    expect(error).to_have_text("")
    box.press("Control+a")
    box.press_sequentially("x")
    box.press("Enter")              # Enter on a bad value: the message shows at once
    expect(error).to_be_visible(timeout=TIMEOUT)
    expect(error).to_contain_text("100 to 3500")
    assert_clean(page, NOTEBOOK)
