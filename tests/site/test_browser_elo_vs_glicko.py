"""Dashboard 6 "Elo vs Glicko" in a real Voilà server and headless Chromium.

Numbers asserted come from independent sources:
[LILA] lila's RatingCalculatorTest: two new players, the winner 1741 ± 1, the loser 1258 ± 1.
[SC]   scalachess GlickoCalculatorTest "mixed ratings and deviations": 1400/79/0.06 against
       1550/110/0.065 gives 1422.63 for a win, RD 77.50.
[G2]   Glickman, "Example of the Glicko-2 system", printed 1464.06 / 151.52 / 0.05999.
[TEL]  Telugu document: E = 0.24 for 1500 against 1700; the formula 1/(1 + 10^(300/400)) = 0.15.
[LILA-G] lila's Glicko comment: a typical player's RD goes from 60 to 110 in one year.
"""

from __future__ import annotations

from playwright.sync_api import expect

from harness import (
    TIMEOUT, above_the_view, assert_clean, open_with_plots, plot_src, slider_step, table_row,
    type_into, wait_changed,
)

NB = "06_elo_vs_glicko.ipynb"


def test_elo_vs_glicko_in_the_browser(page, voila_url):
    text = open_with_plots(page, voila_url, NB)
    # [LILA] two new players: the winner shows 1741?, the loser 1258?, both provisional
    for printed in ("1741?", "1258?", "1500?"):
        assert printed in text
    # [G2] the paper's printed values are on the page
    for printed in ("1464.06", "151.52", "0.05999"):
        assert printed in text
    assert "Chess.com" in text and "no Chess.com preset" in text

    # an example from scalachess's tests, loaded by the preset dropdown
    results = page.locator(".ee-results")
    old = plot_src(page)
    page.locator(".ee-preset select").select_option(
        label="scalachess's test: 1400 (RD 79) against 1550 (RD 110)")
    expect(results).to_contain_text("1422", timeout=TIMEOUT)   # [SC] 1422.63
    expect(results).to_contain_text("+22.6")
    expect(results).to_contain_text("77.5")                    # [SC] RD 77.50
    wait_changed(page, old)

    # move the RD slider with the keyboard: the numbers and the plot follow
    before = results.inner_text()
    old = plot_src(page)
    slider_step(page, ".ee-rd", "ArrowRight", times=5)
    page.wait_for_function(
        "old => document.querySelector('.ee-results').innerText !== old",
        arg=before, timeout=TIMEOUT)
    wait_changed(page, old)
    expect(page.locator(".ee-rd-field input")).to_have_value("84")

    # type the opponent's rating: Elo's E for 1500 against 1800... here 1400 against 1700
    summary = page.locator(".ee-summary")
    type_into(page, ".ee-opponent", "1700")
    expect(summary).to_contain_text("0.15", timeout=TIMEOUT)   # [TEL] formula, 300 below

    # a bad typed value: a message naming the field, and the dashboard still answers
    type_into(page, ".ee-rating", "abc")
    error = page.locator(".ee-rating .ee-error")
    expect(error).to_contain_text("Your rating", timeout=TIMEOUT)
    expect(error).to_contain_text("not a number")
    type_into(page, ".ee-rating", "1500")
    expect(error).to_have_text("", timeout=TIMEOUT)
    expect(summary).to_contain_text("0.24", timeout=TIMEOUT)   # [TEL] 1500 vs 1700: E 0.24
    assert_clean(page, NB)


def test_elo_vs_glicko_link(page, voila_url):
    # [SC] the scalachess game from a link: 1422.63 for a win (+22.6), RD 77.50
    query = ("rating=1400&rd=79&volatility=0.06&days_away=0&k=20&opponent=1550&opponent_rd=110"
             "&opponent_volatility=0.065")
    page.goto(f"{voila_url}/voila/render/{NB}?{query}", timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    results = page.locator(".ee-results")
    expect(results).to_contain_text("+22.6", timeout=TIMEOUT)
    expect(results).to_contain_text("77.5")
    expect(page.locator(".ee-rd-field input")).to_have_value("79")
    expect(page.locator(".ee-query-note")).to_have_count(0)
    # the link to this view holds the same state; following it shows the same numbers
    href = page.locator("a.ee-link").get_attribute("href")
    assert href == "?" + query, href
    # a bad and an unknown value: a short note, the rest of the link applies, no traceback
    page.goto(f"{voila_url}/voila/render/{NB}?rating=1400&rd=20&colour=red", timeout=TIMEOUT,
              wait_until="commit")
    note = page.locator(".ee-query-note")
    expect(note).to_contain_text("rd=20", timeout=TIMEOUT)
    expect(note).to_contain_text("colour")
    expect(page.locator(".ee-summary")).to_contain_text("1400?")  # rating from the link, RD 500
    assert_clean(page, NB)


# ---------------------------------------------------------------- one live page (issue 17)
def test_elo_vs_glicko_tables_above_the_view_follow_it(page, voila_url):
    open_with_plots(page, voila_url, NB)
    before = above_the_view(page, "before_table")
    expect(table_row(before, "Glicko-2 (Lichess)").nth(1)).to_have_text("1500?")
    # the example "a regular back after a year away": [LILA-G] RD 60 -> 110 in a year, "1500?"
    page.locator(".ee-preset select").select_option(label="A regular back after a year away")
    expect(table_row(before, "Glicko-2 (Lichess)").nth(2)).to_have_text(
        "110.0 (60 + 365 idle days)", timeout=TIMEOUT)
    expect(table_row(before, "Glicko-2 (Lichess)").nth(1)).to_have_text("1500?")
    expect(above_the_view(page, "rd_growth")).to_contain_text(
        "RD 60 after 365 days without games is 110.0")
    expect(page.locator(".ee-summary")).to_contain_text("1500?")
    assert_clean(page, NB)


def test_elo_vs_glicko_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # [SC] 1400 / 79 / 0.06 against 1550 / 110 / 0.065: a win gives 1422.63 (+22.6), RD 77.50
    query = ("rating=1400&rd=79&volatility=0.06&days_away=0&k=20&opponent=1550&opponent_rd=110"
             "&opponent_volatility=0.065")
    page.goto(f"{voila_url}/voila/render/{NB}?{query}", timeout=TIMEOUT, wait_until="commit")
    expect(page.locator(".ee-results")).to_contain_text("+22.6", timeout=TIMEOUT)
    win = table_row(above_the_view(page, "after_table"), "Win")
    expect(win.nth(3)).to_have_text("+22.6")
    expect(win.nth(4)).to_have_text("1422")
    expect(win.nth(5)).to_have_text("77.5")
    assert_clean(page, NB)
