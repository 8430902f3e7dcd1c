"""Dashboard 1 (chess Elo calculator) in a real Voilà server and headless Chromium: what only a
browser shows and neither the models nor the audit spec carry, in one page load.

The page answers as the viewer types (the page's script sends each keystroke that leaves a
valid value, and hides a message until the box is left or Enter is pressed), and the
notebook's averaging figure stands above the view. Everything else the browser tests asserted
is in tests/models/test_dash_chess_calculator.py (the numbers, the widgets, the live tables)
and tests/site/specs/d01.py (a link, a control step, a bad link: test_every_reader.py).

Numbers asserted come from the Telugu document (docs/sources.md#telugu) and the Ukrainian
document (docs/sources.md#ukrainian).
"""

from __future__ import annotations

from playwright.sync_api import expect

from harness import TIMEOUT, above_the_view, assert_clean, open_with_plots

NOTEBOOK = "01_chess_calculator.ipynb"
CURVE = ".ee-plot-curve"


def test_calculator_answers_as_you_type(page, voila_url):
    """Each keystroke that leaves a valid value updates the page ([UK] U3: the
    new rating "live as you type"); a half-typed value shows no message until the box is
    left (blur) or Enter is pressed."""
    open_with_plots(page, voila_url, NOTEBOOK, css=CURVE)
    # the average-opponent shortcut's figure is the notebook's, above the view (it follows
    # the listed games: tests/models)
    expect(above_the_view(page, "averaging_figure").locator("img.ee-figure")).to_be_visible(
        timeout=TIMEOUT
    )
    e = page.locator(".ee-e")
    box = page.locator(".ee-opponent input")
    error = page.locator(".ee-opponent .ee-error")
    box.click()
    box.press("Control+a")
    box.press("Backspace")  # "" : half-typed, no message while the box has the focus
    box.press_sequentially("16")  # "16": below 100, still no message shown
    if error.count():
        expect(error).not_to_be_visible()
    box.press_sequentially("00")  # [TE] 1500 against 1600: E 0.36, with no Enter
    expect(e).to_have_text("0.36", timeout=TIMEOUT)
    box.press_sequentially(".")  # "1600." reads 1600: no message, the text stays as typed
    expect(box).to_have_value("1600.")
    box.press("Control+a")
    box.press("Backspace")
    box.press_sequentially("17")
    expect(error).to_contain_text("Opponent", timeout=TIMEOUT)  # the kernel wrote it ...
    expect(error).not_to_be_visible()  # ... the page hides it
    box.press("Tab")  # left invalid: the message shows, the page keeps 0.36
    expect(error).to_be_visible(timeout=TIMEOUT)
    expect(e).to_have_text("0.36")
    box.click()
    box.press("End")
    box.press_sequentially("00")  # [TE] 1500 against 1700: E 0.24
    expect(e).to_have_text("0.24", timeout=TIMEOUT)
    expect(error).to_have_text("")
    box.press("Control+a")
    box.press_sequentially("x")
    box.press("Enter")  # Enter on a bad value: the message shows at once
    expect(error).to_be_visible(timeout=TIMEOUT)
    expect(error).to_contain_text("100 to 3500")
    assert_clean(page, NOTEBOOK)
