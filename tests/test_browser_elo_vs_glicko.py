"""Dashboard 6 "Elo vs Glicko" in a real Voilà server and headless Chromium.

Numbers asserted come from independent sources:
[LILA] lila's RatingCalculatorTest: two new players, the winner 1741 ± 1, the loser 1258 ± 1.
[SC]   scalachess GlickoCalculatorTest "mixed ratings and deviations": 1400/79/0.06 against
       1550/110/0.065 gives 1422.63 for a win, RD 77.50.
[G2]   Glickman, "Example of the Glicko-2 system", printed 1464.06 / 151.52 / 0.05999.
[TEL]  Telugu document: E = 0.24 for 1500 against 1700; the formula 1/(1 + 10^(300/400)) = 0.15.
"""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import assert_clean, open_dashboard

NB = "06_elo_vs_glicko.ipynb"
TIMEOUT = 90_000


def _img(page) -> str:
    return page.locator(".ee-plot img").first.get_attribute("src") or ""


def _wait_img_change(page, old: str) -> None:
    page.wait_for_function(
        "old => { const i = document.querySelector('.ee-plot img');"
        " return i && i.getAttribute('src') && i.getAttribute('src') !== old; }",
        arg=old, timeout=TIMEOUT)


def _type(page, css: str, text: str) -> None:
    box = page.locator(f"{css} input")
    box.fill(text)
    box.press("Enter")


def test_elo_vs_glicko_in_the_browser(page, voila_url):
    open_dashboard(page, voila_url, NB)
    expect(page.locator(".ee-plot img")).to_be_visible(timeout=TIMEOUT)
    text = assert_clean(page, NB)
    # [LILA] two new players: the winner shows 1741?, the loser 1258?, both provisional
    for printed in ("1741?", "1258?", "1500?"):
        assert printed in text
    # [G2] the paper's printed values are on the page
    for printed in ("1464.06", "151.52", "0.05999"):
        assert printed in text
    assert "Chess.com" in text and "no Chess.com preset" in text

    # an example from scalachess's tests, loaded by the preset dropdown
    results = page.locator(".ee-results")
    old = _img(page)
    page.locator(".ee-preset select").select_option(
        label="scalachess's test: 1400 (RD 79) against 1550 (RD 110)")
    expect(results).to_contain_text("1422", timeout=TIMEOUT)   # [SC] 1422.63
    expect(results).to_contain_text("+22.6")
    expect(results).to_contain_text("77.5")                    # [SC] RD 77.50
    _wait_img_change(page, old)

    # move the RD slider with the keyboard: the numbers and the plot follow
    before = results.inner_text()
    old = _img(page)
    handle = page.locator(".ee-rd .noUi-handle")
    handle.focus()
    for _ in range(5):
        handle.press("ArrowRight")
    page.wait_for_function(
        "old => document.querySelector('.ee-results').innerText !== old",
        arg=before, timeout=TIMEOUT)
    _wait_img_change(page, old)
    expect(page.locator(".ee-rd .widget-readout")).to_have_text("84")

    # type the opponent's rating: Elo's E for 1500 against 1800... here 1400 against 1700
    summary = page.locator(".ee-summary")
    _type(page, ".ee-opponent-rating", "1700")
    expect(summary).to_contain_text("0.15", timeout=TIMEOUT)   # [TEL] formula, 300 below

    # a bad typed value: a message naming the field, and the dashboard still answers
    _type(page, ".ee-rating", "abc")
    error = page.locator(".ee-rating .ee-error")
    expect(error).to_contain_text("Your rating", timeout=TIMEOUT)
    expect(error).to_contain_text("not a number")
    _type(page, ".ee-rating", "1500")
    expect(error).to_have_text("", timeout=TIMEOUT)
    expect(summary).to_contain_text("0.24", timeout=TIMEOUT)   # [TEL] 1500 vs 1700: E 0.24
    assert_clean(page, NB)
