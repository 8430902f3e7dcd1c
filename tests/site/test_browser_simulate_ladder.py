"""Dashboard 9 "Simulate a ladder" in a real Voilà server and headless Chromium.

Numbers asserted come from independent sources:
[G42]  docs/sources.md#greek G10 (Gammon42 document): at 300 games a week and K 32, 2-3 points below the
       expected win rate cost "about 200": 32 x 300 x 0.02 = 192, x 0.03 = 288; K 16 half.
[ZS]   Zero-sum rules (Elo, each game +x / −x): the mean rating stays at the start, 1500.
[BIN]  Binomial luck: a week of g games between equals at K 32 (+16 / -16 a game,
       docs/sources.md#greek G6) moves a rating by 32 (W - g/2), W ~ Binomial(g, 1/2): SD 16 sqrt(g) = 277 at 300.
"""

from __future__ import annotations

import math
import re
from urllib.parse import urlencode

from playwright.sync_api import expect

from harness import above_the_view, assert_clean, open_dashboard, table_row

NB = "09_simulate_ladder.ipynb"
TIMEOUT = 90_000


def plot_src(page, i: int) -> str:
    return page.locator("img.ee-plot").nth(i).get_attribute("src") or ""


def wait_plot_changed(page, i: int, before: str) -> None:
    page.wait_for_function(
        "([i, prev]) => { const img = document.querySelectorAll('img.ee-plot')[i];"
        " return img && img.getAttribute('src') && img.getAttribute('src') !== prev; }",
        arg=[i, before], timeout=TIMEOUT)


def swing_now(swing) -> tuple[int, int, int]:
    """The swing headline's games a week and typical swing (SD) at K 32 and K 16."""
    m = re.search(r"At (\d+) games a week.*?: typical swing ±(\d+) at K 32, ±(\d+) at K 16",
                  swing.inner_text())
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def press(page, css: str, key: str) -> None:
    handle = page.locator(f"{css} .noUi-handle")
    handle.focus()
    handle.press(key)


def test_ladder_season_and_weekly_swing(page, voila_url):
    open_dashboard(page, voila_url, NB)
    page.wait_for_function("document.querySelectorAll('img.ee-plot[src]').length === 2",
                           timeout=TIMEOUT)
    assert_clean(page, NB)
    summary = page.locator(".ee-summary")
    swing = page.locator(".ee-swing")
    expect(summary).to_contain_text("Gammon42 1.3.1 (÷1200), 100 players, 20 weeks × 5 games")
    expect(summary).to_contain_text("Favourites won")
    # the document's weekly-swing arithmetic
    expect(swing).to_contain_text("32 × 300 × 2 % = 192")                       # [G42]
    expect(swing).to_contain_text("32 × 300 × 3 % = 288")                       # [G42]
    expect(swing).to_contain_text("96 to 144 at K 16")                           # [G42]
    # the simulated K 32 swing at 300 games is binomial luck: ±16 sqrt(300) = ±277
    games, sd32, sd16 = swing_now(swing)
    assert games == 300
    assert abs(sd32 - 16 * math.sqrt(300)) < 0.05 * 277                          # [BIN]
    assert abs(sd16 - 8 * math.sqrt(300)) < 0.05 * 139                           # [BIN]
    # the notebook's table above shows the same row
    luck = page.locator("table.ee-table", has_text="Luck alone")
    row = luck.locator("tr", has=page.locator("td", has_text=re.compile(r"^300$")))
    assert row.locator("td").all_inner_texts()[1:4:2] == [f"±{sd32}", f"±{sd16}"]

    # players slider one step right: a new season, the plot follows
    before = plot_src(page, 0)
    press(page, ".ee-players", "ArrowRight")
    expect(summary).to_contain_text("110 players", timeout=TIMEOUT)
    wait_plot_changed(page, 0, before)

    # a bad seed: a message naming the field; a good one still answers
    seed = page.locator(".ee-seed input")
    seed.fill("lucky")
    seed.press("Enter")
    error = page.locator(".ee-seed .ee-error")
    expect(error).to_contain_text("Seed", timeout=TIMEOUT)
    expect(error).to_contain_text("0 to 99999")
    before = plot_src(page, 0)
    seed.fill("7")
    seed.press("Enter")
    expect(error).to_have_text("", timeout=TIMEOUT)
    wait_plot_changed(page, 0, before)

    # another rule set, with a true curve flatter than the rule's
    page.locator(".ee-rules select").select_option(label="Gammon42 1.2.0 (÷800)")
    expect(summary).to_contain_text("Gammon42 1.2.0 (÷800), 110 players", timeout=TIMEOUT)
    page.locator(".ee-true-curve select").select_option(label="÷1200 (Gammon42 1.3.1)")
    expect(summary).to_contain_text("true results follow ÷1200", timeout=TIMEOUT)

    # big settings wait for Run; Run simulates them
    press(page, ".ee-players", "End")                        # 1,000 players
    press(page, ".ee-games-per-week", "End")                          # 50 games a week
    expect(summary).to_contain_text("press Run", timeout=TIMEOUT)
    run = page.locator("button.ee-run")
    expect(run).to_be_enabled()
    before = plot_src(page, 0)
    run.click()
    expect(summary).to_contain_text("1,000 players, 20 weeks × 50 games", timeout=TIMEOUT)
    expect(summary).not_to_contain_text("press Run")
    wait_plot_changed(page, 0, before)
    # far too big: refused with a message, nothing to run
    press(page, ".ee-weeks", "End")                          # 104 weeks
    expect(summary).to_contain_text("Too big", timeout=TIMEOUT)
    expect(run).to_be_disabled()

    # the weekly-swing slider: 250 games, its headline and histogram follow
    before = plot_src(page, 1)
    press(page, ".ee-swing-games", "ArrowLeft")
    expect(swing).to_contain_text("At 250 games a week", timeout=TIMEOUT)
    assert swing_now(swing)[0] == 250
    wait_plot_changed(page, 1, before)
    text = assert_clean(page, NB)
    assert re.search(r"Rating spread after the season: \d+ points", text)


def test_link_sets_the_view_and_reproduces_it(page, voila_url):
    summary = page.locator(".ee-summary")
    swing = page.locator(".ee-swing")
    query = urlencode({"rules": "Elo per game (K 20, ÷400)", "players": 50, "weeks": 10,
                       "swing_games": 100})
    open_dashboard(page, voila_url, f"{NB}?{query}")
    expect(summary).to_contain_text("Elo K 20 ÷400, 50 players, 10 weeks × 5 games",
                                    timeout=TIMEOUT)
    # K x games x shortfall at 100 games: 32 x 100 x 2 % = 64, x 3 % = 96 (K 16: 32 to 48)
    expect(swing).to_contain_text("32 × 100 × 2 % = 64")                        # [G42]
    expect(swing).to_contain_text("32 × 100 × 3 % = 96")                        # [G42]
    games, sd32, _ = swing_now(swing)
    assert games == 100
    assert abs(sd32 - 16 * math.sqrt(100)) < 0.05 * 160                          # [BIN]
    href = page.locator("a.ee-link").get_attribute("href")
    assert "players=50" in href and "weeks=10" in href and "swing_games=100" in href
    assert_clean(page, NB)

    # the link reproduces the view
    open_dashboard(page, voila_url, NB + href)
    expect(summary).to_contain_text("Elo K 20 ÷400, 50 players, 10 weeks × 5 games",
                                    timeout=TIMEOUT)
    expect(swing).to_contain_text("At 100 games a week: typical swing")
    expect(page.locator(".ee-query-note")).to_have_count(0)

    # bad values and an unknown name: ignored with a note, the defaults stay
    open_dashboard(page, voila_url, f"{NB}?players=5&swing_games=30&colour=red")
    note = page.locator(".ee-query-note")
    expect(note).to_contain_text("players=5", timeout=TIMEOUT)
    expect(note).to_contain_text("swing_games=30")
    expect(note).to_contain_text("colour (not a setting of this page)")
    expect(summary).to_contain_text("Gammon42 1.3.1 (÷1200), 100 players, 20 weeks × 5 games")
    expect(swing).to_contain_text("At 300 games a week: typical swing")
    assert_clean(page, NB)


# ---------------------------------------------------------------- one live page (issue 17)
def test_ladder_tables_above_the_view_follow_it(page, voila_url):
    open_dashboard(page, voila_url, NB)
    page.wait_for_function("document.querySelectorAll('img.ee-plot[src]').length === 2",
                           timeout=TIMEOUT)
    thumb = above_the_view(page, "rule_of_thumb_table")
    expect(table_row(thumb, "32")).to_have_text(["32", "300", "192", "288"])      # [G42]
    # 250 games a week: [G42] 32 × 250 × 2 % = 160, × 3 % = 240; K 16 half
    press(page, ".ee-swing-games", "ArrowLeft")
    expect(table_row(thumb, "32")).to_have_text(["32", "250", "160", "240"], timeout=TIMEOUT)
    expect(table_row(thumb, "16")).to_have_text(["16", "250", "80", "120"])
    # ten more players: a new season (small: at once), the season's table above follows
    season = above_the_view(page, "season_table")
    press(page, ".ee-players", "ArrowRight")
    expect(page.locator(".ee-summary")).to_contain_text("110 players", timeout=TIMEOUT)
    expect(season.locator("td").first).to_have_text("110", timeout=TIMEOUT)
    assert_clean(page, NB)


def test_ladder_link_sets_the_tables_and_the_view_alike(page, voila_url):
    query = urlencode({"rules": "Elo per game (K 20, ÷400)", "players": 50, "weeks": 10,
                       "swing_games": 100})
    open_dashboard(page, voila_url, f"{NB}?{query}")
    expect(page.locator(".ee-summary")).to_contain_text(
        "Elo K 20 ÷400, 50 players, 10 weeks × 5 games", timeout=TIMEOUT)
    season = above_the_view(page, "season_table")
    expect(season).to_contain_text("Elo K 20 ÷400 after 10 weeks")
    expect(season.locator("td").nth(0)).to_have_text("50")
    expect(season.locator("td").nth(3)).to_have_text("1500")                     # [ZS]
    expect(table_row(above_the_view(page, "rule_of_thumb_table"), "32")).to_have_text(
        ["32", "100", "64", "96"])                                               # [G42]
    expect(page.locator(".ee-swing")).to_contain_text("32 × 100 × 2 % = 64")
    # settings that wait for Run (about 0.5 s): a link runs them, tables and plots alike
    query = urlencode({"rules": "Elo per game (K 20, ÷400)", "players": 1000,
                       "games_per_week": 50})
    open_dashboard(page, voila_url, f"{NB}?{query}")
    expect(page.locator(".ee-summary")).to_contain_text(
        "1,000 players, 20 weeks × 50 games", timeout=TIMEOUT)
    expect(page.locator(".ee-summary")).not_to_contain_text("press Run")
    expect(above_the_view(page, "season_table").locator("td").nth(0)).to_have_text("1,000")
    assert_clean(page, NB)
