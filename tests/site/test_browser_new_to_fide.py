"""Dashboard 10 (New to FIDE) in a real Voilà server and headless Chromium.

Numbers asserted come from docs/sources.md#fide-b02 (FIDE Rating Regulations B.02 section 7,
table 8.1.1, FIDE's notice of 1 March 2024): the worked examples 3 / 5 -> 1743 (2022 rule 1670),
5 / 5 -> capped at 2200 (2022 rule 2300), 1 / 6 -> 1382 not published (2022 rule 1227), the
uplift 1500 -> 1700 and 1650 -> 1790, the floor 1400 (1000 before 1 March 2024). One figure is
worked here by hand from those rules: adding a drawn game against 1900 to the first example
gives Ra = (8250 + 1900 + 3600) / 8 = 1718.75, p = (3.5 + 1) / 8 = .5625 -> .56, dp 43 (table
8.1.1), Ru = 1761.75 -> 1762.
"""

from __future__ import annotations

from urllib.parse import urljoin

from playwright.sync_api import expect

from harness import (LOAD_TIMEOUT_MS, READY, TIMEOUT, above_the_view, assert_clean,
                     open_dashboard, table_row, type_into)

NOTEBOOK = "10_new_to_fide.ipynb"
EX3_LINK = "opponents=1400,1450,1500,1500,1550,1600&scores=1,0,0,0,0,0&on=2023-05-01&rating=1650"


def _open(page, url: str) -> None:
    page.goto(url, timeout=LOAD_TIMEOUT_MS, wait_until="commit")
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)


def test_new_to_fide_numbers_rows_paste_presets(page, voila_url):
    open_dashboard(page, voila_url, NOTEBOOK)
    assert_clean(page, NOTEBOOK)
    first, games = page.locator(".ee-first-value"), page.locator(".ee-app textarea:not(.ee-dock *)")
    headline, steps = page.locator(".ee-first-rating"), page.locator(".ee-arithmetic")
    other = page.locator(".ee-other-rule")

    # the first worked example: Ra 1692.86, p .57, dp +50, 1743; the 2022 rule 1670 -- in the
    # notebook's table above the dashboard, and live in the dashboard
    table = page.locator("table.ee-table", has_text="Your first event")
    for cell in ("1692.86", "0.57", "+50", "1743", "yes"):
        expect(table.locator("tr", has_text="From 1 March 2024")).to_contain_text(cell)
    expect(table.locator("tr", has_text="2022 rule")).to_contain_text("1670")
    expect(first).to_have_text("1743", timeout=TIMEOUT)
    for text in ("1692.86", ".57", "dp = 50"):
        expect(steps).to_contain_text(text)
    expect(other).to_have_text("2022 rule (to 29 February 2024): 1670")
    expect(page.locator(".ee-performance-value")).to_have_text("1722")   # 1650 + dp(.60) 72
    expect(page.locator(".ee-uplift-value")).to_have_text("1700")
    expect(page.locator(".ee-floor-value")).to_have_text("1400")

    # add a row: a draw against 1900 -> 1762 (worked above from the rules)
    type_into(page, ".ee-new-opponent", "1900")
    page.locator(".ee-new-result button", has_text="½").click()
    page.locator(".ee-add-game").click()
    expect(first).to_have_text("1762", timeout=TIMEOUT)
    expect(steps).to_contain_text("1718.75")
    expect(games).to_have_value("1600 1\n1700 0.5\n1800 0.5\n1500 1\n1650 0\n1900 0.5")

    # paste a list on one line: 5 / 5 against 2000-2400 -> capped at 2200, 2022 rule 2300
    games.fill("2000 1, 2100 1, 2200 1, 2300 1, 2400 1")
    expect(first).to_have_text("2200", timeout=TIMEOUT)
    expect(headline).to_contain_text("2200 (capped)")
    expect(other).to_contain_text("2300")
    expect(page.locator(".ee-preset select")).to_have_value(
        "5 / 5 against 2000-2400: capped at 2200 (2022 rule 2300)")

    # a bad row: a message naming the row and the allowed results; the numbers stay
    games.fill("2000 1\n2100 x")
    error = page.locator(".ee-games-error")
    expect(error).to_contain_text("Games, row 2", timeout=TIMEOUT)
    expect(error).to_contain_text("1 (win), 0.5 or ½ (draw), 0 (loss)")
    expect(first).to_have_text("2200")
    games.fill("2000 1\n2100 1")          # too few games: 3 more needed, not published
    expect(error).to_have_text("", timeout=TIMEOUT)
    expect(page.locator(".ee-needed")).to_have_text("3 more needed", timeout=TIMEOUT)
    expect(page.locator(".ee-verdict")).to_contain_text("at least 5")

    # a preset: 1 / 6 -> 1382, below 1400, not published; the 2022 rule 1227
    page.locator(".ee-preset select").select_option(
        label="1 / 6 against 1400-1600: 1382, not published (2022 rule 1227)")
    expect(first).to_have_text("1382", timeout=TIMEOUT)
    expect(page.locator(".ee-verdict")).to_contain_text("below 1400")
    expect(steps).to_contain_text("dp = \u2212193")
    expect(other).to_contain_text("1227")
    expect(games).to_have_value("1400 1\n1450 0\n1500 0\n1500 0\n1550 0\n1600 0")

    # an event before 1 March 2024: the 2022 rule is in force, the floor is 1000
    page.locator(".ee-on input").fill("2023-05-01")
    expect(first).to_have_text("1227", timeout=TIMEOUT)
    expect(page.locator(".ee-floor-value")).to_have_text("1000")
    expect(headline).to_contain_text("under the 2022 rule")

    # the uplift: 1650 -> 1790
    type_into(page, ".ee-rating", "1650")
    expect(page.locator(".ee-uplift-value")).to_have_text("1790", timeout=TIMEOUT)
    assert_clean(page)


def test_new_to_fide_link(page, voila_url):
    url = f"{voila_url}/voila/render/{NOTEBOOK}"
    _open(page, f"{url}?{EX3_LINK}")
    expect(page.locator(".ee-first-value")).to_have_text("1227", timeout=TIMEOUT)  # 2022 rule
    expect(page.locator(".ee-uplift-value")).to_have_text("1790")
    expect(page.locator(".ee-floor-value")).to_have_text("1000")
    expect(page.locator(".ee-other-rule")).to_contain_text("From 1 March 2024: 1382")
    assert page.locator(".ee-query-note").count() == 0
    # the link reproduces the view
    href = page.locator(".ee-link").get_attribute("href")
    assert "rating=1650" in href and "on=2023-05-01" in href
    _open(page, urljoin(url, href))
    expect(page.locator(".ee-first-value")).to_have_text("1227", timeout=TIMEOUT)
    expect(page.locator(".ee-uplift-value")).to_have_text("1790")
    expect(page.locator(".ee-app textarea:not(.ee-dock *)")).to_have_value(
        "1400 1\n1450 0\n1500 0\n1500 0\n1550 0\n1600 0")
    # bad and unknown values: ignored with a note, the defaults stay (3 / 5 -> 1743)
    _open(page, f"{url}?rating=99999&scores=1,2,0,0,0&colour=red")
    note = page.locator(".ee-query-note")
    expect(note).to_contain_text("rating=99999", timeout=TIMEOUT)
    expect(note).to_contain_text("Result in row 2")
    expect(note).to_contain_text("colour")
    expect(page.locator(".ee-first-value")).to_have_text("1743")
    assert_clean(page, NOTEBOOK)


# ---------------------------------------------------------------- one live page (issue 17)
def test_new_to_fide_tables_above_the_view_follow_it(page, voila_url):
    open_dashboard(page, voila_url, NOTEBOOK)
    event = above_the_view(page, "first_rating_table")
    expect(table_row(event, "From 1 March 2024").nth(5)).to_have_text("1743")     # docs/sources.md#fide-b02 F9
    # the example 5 / 5 against 2000-2400: capped at 2200 (2022 rule 2300), above and below
    page.locator(".ee-preset select").select_option(
        label="5 / 5 against 2000-2400: capped at 2200 (2022 rule 2300)")
    expect(table_row(event, "From 1 March 2024").nth(5)).to_have_text("2200 (capped)",
                                                                      timeout=TIMEOUT)
    expect(table_row(event, "2022 rule (to 29 February 2024)").nth(5)).to_have_text("2300")
    expect(page.locator(".ee-first-value")).to_have_text("2200")
    # the uplift: 1650 before 1 March 2024 -> 1790 (docs/sources.md#fide-b02 F12), a row of the table above
    type_into(page, ".ee-rating-field", "1650")
    uplift = above_the_view(page, "uplift_table")
    expect(table_row(uplift, "1650")).to_have_text(["1650", "1790", "+140"], timeout=TIMEOUT)
    assert_clean(page, NOTEBOOK)


def test_new_to_fide_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # docs/sources.md#fide-b02 F9: 1 / 6 against 1400-1600 -> 1382, not published; on 2023-05-01 the 2022
    # rule is in force: 1227; 1650 -> 1790 after the uplift
    _open(page, f"{voila_url}/voila/render/{NOTEBOOK}?{EX3_LINK}")
    expect(page.locator(".ee-first-value")).to_have_text("1227", timeout=TIMEOUT)
    event = above_the_view(page, "first_rating_table")
    expect(event).to_contain_text("on 2023-05-01: the 2022 rule is in force")
    expect(table_row(event, "2022 rule (to 29 February 2024)").nth(5)).to_have_text("1227")
    expect(table_row(event, "From 1 March 2024").nth(5)).to_have_text("1382")
    expect(page.locator(".ee-other-rule")).to_contain_text("1382")
    expect(table_row(above_the_view(page, "uplift_table"), "1650")).to_have_text(
        ["1650", "1790", "+140"])
    expect(page.locator(".ee-uplift-value")).to_have_text("1790")
    assert_clean(page, NOTEBOOK)
