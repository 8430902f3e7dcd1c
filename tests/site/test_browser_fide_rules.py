"""Dashboard 2 (FIDE rules) in a real Voilà server and headless Chromium.

Numbers asserted come from the Telugu document (docs/sources.md#telugu) and the FIDE
Rating Regulations B.02 (table 8.1.2, rule 8.3; docs/sources.md#fide-b02). The page prints
negative numbers with the minus sign U+2212 ("−").
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from harness import (
    TIMEOUT, above_the_view, assert_clean, open_link, open_with_plots, plot_src, slider_step,
    table_row, type_into, wait_changed,
)
from harness import MINUS as M  # the page's minus sign, U+2212

NOTEBOOK = "02_fide_rules.ipynb"


def test_fide_rules_numbers_sliders_and_fields(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK, plots=3)  # .ee-plot-700, -cap and -cmp

    # 1. K: the default profile (1800, 80 games, born 1995) gets K 20 and the reason
    k = page.locator(".ee-k-value")
    expect(k).to_have_text("20")
    expect(page.locator(".ee-k-reason")).to_contain_text("under 2400")

    # 2. the 700 rule: [TE] K 40 with 20 games -> 35; K 20 with 40 games -> 17; 700 not reduced
    table_700 = page.locator("table.ee-table", has_text="The 700 rule")  # the notebook's
    for label, cells in (("Junior, K 40, 20 games", ("40", "20", "800", "35")),
                         ("Adult, K 20, 40 games", ("20", "40", "800", "17")),
                         ("K 20, 35 games: exactly 700", ("20", "35", "700", "20"))):
        row = table_700.locator("tr", has_text=label)
        for i, text in enumerate(cells, start=1):
            expect(row.locator("td").nth(i)).to_have_text(text)
    expect(page.locator(".ee-700-line").first).to_have_text(
        "K 40 × 20 games = 800 > 700: K becomes 35 (35 × 20 = 700).")

    # 3. the 400-point rule, 2700 vs 2200 since October 2025: [B02] 2700 keeps the real
    # difference (0.96 for 485-517), 2200 gets the cap (1 - 0.92 = 0.08)
    cap = page.locator("table.ee-table", has_text="One game, both sides")  # the notebook's
    expect(cap.locator("tr", has_text="Difference used")).to_contain_text(f"+500{M}400")
    expect(cap.locator("tr", has_text=re.compile("^E used"))).to_have_text("E used0.960.08")
    cap_a, cap_b = page.locator(".ee-cap-a"), page.locator(".ee-cap-b")  # the view's, live
    expect(cap_a).to_contain_text("difference used +500, E 0.96")
    expect(cap_b).to_contain_text(f"difference used {M}400, E 0.08")
    expect(page.locator(".ee-cap-sum")).to_contain_text("add up to 1.04")
    example = page.locator("table.ee-table", has_text="The Telugu document's example")
    for text in ("0.95", "+1.1", f"{M}18.9", "0.91", "+1.8", f"{M}18.2"):  # [TE]
        expect(example).to_contain_text(text)

    # 4. table vs formula at 400: [TE] 0.92 vs 0.91
    expect(page.locator(".ee-cmp-fide")).to_have_text("0.92")
    expect(page.locator(".ee-cmp-formula")).to_have_text("0.91")

    # move the games slider one step: 21 games, K 40 -> 33 (33 × 21 = 693)
    before = plot_src(page, ".ee-plot-700")
    slider_step(page, ".ee-games", "ArrowRight")
    expect(page.locator(".ee-700-line").first).to_have_text(
        "K 40 × 21 games = 840 > 700: K becomes 33 (33 × 21 = 693).", timeout=TIMEOUT)
    wait_changed(page, before, ".ee-plot-700")

    # move the difference slider: 399 is still in 392-411 -> 0.92 [B02]; the formula 0.91
    before = plot_src(page, ".ee-plot-cmp")
    slider_step(page, ".ee-difference", "ArrowLeft")
    expect(page.locator(".ee-cmp-d")).to_have_text("399", timeout=TIMEOUT)
    expect(page.locator(".ee-cmp-fide")).to_have_text("0.92")
    wait_changed(page, before, ".ee-plot-cmp")

    # type a rating: player A 2600 is below 2650, so both sides are capped: zero-sum again
    before = plot_src(page, ".ee-plot-cap")
    type_into(page, ".ee-rating-a", "2600")
    expect(page.locator(".ee-cap-sum")).to_contain_text("add up to 1", timeout=TIMEOUT)
    expect(page.locator(".ee-cap-sum")).to_contain_text("zero-sum")
    expect(cap_a).to_contain_text("difference used +400")
    expect(cap_b).to_contain_text(f"difference used {M}400")
    wait_changed(page, before, ".ee-plot-cap")

    # a bad birth year shows a message naming the field; the dashboard keeps answering
    type_into(page, ".ee-birth-year", "abc")
    error = page.locator(".ee-birth-year .ee-error")
    expect(error).to_contain_text("Birth year", timeout=TIMEOUT)
    expect(error).to_contain_text("1900 to 2025")
    expect(k).to_have_text("20")
    type_into(page, ".ee-birth-year", "2010")  # [TE] a junior (to the end of 2028) rated under 2300
    expect(k).to_have_text("40", timeout=TIMEOUT)
    expect(page.locator(".ee-k-reason")).to_contain_text("junior")
    expect(error).to_have_text("")
    assert_clean(page, NOTEBOOK)


def test_fide_rules_link(page, voila_url):
    # [TE] born 2008, rated 2100: a junior under 2300 in 2026, K 40; 40 games: 700 // 40 = 17
    query = "?rating=2100&birth_year=2008&games=40&on=2026-01-01"
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}{query}", timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    k = page.locator(".ee-k-value")
    expect(k).to_have_text("40", timeout=TIMEOUT)
    expect(page.locator(".ee-k-reason")).to_contain_text("junior")
    line = page.locator(".ee-700-line").first
    expect(line).to_have_text("K 40 × 40 games = 1600 > 700: K becomes 17 (17 × 40 = 680).")
    # the view changed by the reader; its link reproduces it: 2600 is capped too (zero-sum)
    type_into(page, ".ee-rating-a", "2600")
    expect(page.locator(".ee-cap-sum")).to_contain_text("zero-sum", timeout=TIMEOUT)
    link = page.locator(".ee-link")
    expect(link).to_have_attribute("href", re.compile("rating_a=2600"), timeout=TIMEOUT)
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}{link.get_attribute('href')}",
              timeout=TIMEOUT, wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    expect(page.locator(".ee-cap-sum")).to_contain_text("zero-sum", timeout=TIMEOUT)
    expect(k).to_have_text("40")
    expect(line).to_contain_text("K becomes 17")
    # bad values: a note, the defaults ([TE] K 40 with 20 games -> 35), no traceback
    page.goto(f"{voila_url}/voila/render/{NOTEBOOK}?games=500&k=30&shoe=1", timeout=TIMEOUT,
              wait_until="commit")
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    note = page.locator(".ee-query-note")
    for text in ("games=500", "k=30", "shoe"):
        expect(note).to_contain_text(text, timeout=TIMEOUT)
    expect(line).to_have_text("K 40 × 20 games = 800 > 700: K becomes 35 (35 × 20 = 700).")
    assert_clean(page, NOTEBOOK)


# ---------------------------------------------------------------- one live page (issue 17)
def test_fide_rules_tables_above_the_view_follow_it(page, voila_url):
    open_with_plots(page, voila_url, NOTEBOOK, plots=3)
    table_700 = above_the_view(page, "table_700")
    # one more game: 21 games; [TE] the largest whole K with K × 21 ≤ 700 is 33 (840 > 700)
    slider_step(page, ".ee-games", "ArrowRight")
    expect(table_row(table_700, "Your period: K 40, 21 games").nth(4)).to_have_text(
        "33", timeout=TIMEOUT)
    expect(table_row(table_700, "Your period: K 40, 21 games").nth(3)).to_have_text("840")
    # the documents' cases stay fixed: [TE] K 40 with 20 games -> 35
    expect(table_row(table_700, "Junior, K 40, 20 games in a month (Telugu document)").nth(4)
           ).to_have_text("35")
    # player A at 2600, below 2650: [B02] capped at +400 (one game, both sides)
    type_into(page, ".ee-rating-a", "2600")
    cap = above_the_view(page, "cap_table")
    expect(cap).to_contain_text("Player A (2600)", timeout=TIMEOUT)
    expect(table_row(cap, "Difference used")).to_have_text(["Difference used", "+400", f"{M}400"])
    # 12 rated games: [TE] new to the list (fewer than 30 games) -> K 40
    type_into(page, ".ee-rated-games-field", "12")
    rules = above_the_view(page, "k_rules")
    expect(rules.locator("tr", has_text="◀ applies")).to_contain_text("K 40", timeout=TIMEOUT)
    expect(page.locator(".ee-k-value")).to_have_text("40")
    assert_clean(page, NOTEBOOK)


def test_fide_rules_link_sets_the_tables_and_the_view_alike(page, voila_url):
    # [TE] born 2008, rated 2100: a junior under 2300 in 2026, K 40; 40 games: 700 // 40 = 17
    open_link(page, voila_url, NOTEBOOK, "?rating=2100&birth_year=2008&games=40&on=2026-01-01")
    expect(page.locator(".ee-k-value")).to_have_text("40", timeout=TIMEOUT)
    expect(page.locator(".ee-700-line").first).to_contain_text("K becomes 17")
    rules = above_the_view(page, "k_rules")
    expect(rules.locator("caption")).to_contain_text("K 40: born 2008, a junior")
    expect(table_row(above_the_view(page, "table_700"), "Your period: K 40, 40 games").nth(4)
           ).to_have_text("17")
    assert_clean(page, NOTEBOOK)
