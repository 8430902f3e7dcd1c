"""Dashboard 5 (K vs weekly volume) in a real Voilà server and headless Chromium.

Numbers asserted come from the Greek Gammon42 document (seeds/004_*, rules.md section C).
"""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import assert_clean, open_dashboard

NOTEBOOK = "05_volume_k.ipynb"
TIMEOUT = 90_000


def plot_src(page, i: int) -> str:
    return page.locator(".ee-plot img").nth(i).get_attribute("src")


def wait_plot_changed(page, i: int, before: str) -> None:
    page.wait_for_function(
        "([i, prev]) => { const img = document.querySelectorAll('.ee-plot img')[i];"
        " return img !== undefined && img.src !== prev; }",
        arg=[i, before], timeout=TIMEOUT,
    )


def test_volume_dashboard_numbers_sliders_and_fields(page, voila_url):
    open_dashboard(page, voila_url, NOTEBOOK)
    page.wait_for_function("document.querySelectorAll('.ee-plot img').length === 2",
                           timeout=TIMEOUT)
    assert_clean(page, NOTEBOOK)

    # document, step 3: K 32 vs K 16
    k_table = page.locator(".ee-k")
    for text in ("+16 / −16", "+8 / −8", "+14 / −18", "+7 / −9", "+12 / −20", "+6 / −10"):
        expect(k_table).to_contain_text(text)
    # document: 60 games vs 10, same rating -> +8 / −16, and the other way round +16 / −8
    expect(page.locator(".ee-a-wins")).to_have_text("+8 / −16")
    expect(page.locator(".ee-b-wins")).to_have_text("+16 / −8")
    # document: 300 games, 2-3 points short at K 32 -> about 200 (32 × 300 × 0.02 = 192)
    expect(page.locator(".ee-swing")).to_contain_text("192 points")
    expect(page.locator(".ee-swing")).to_contain_text("288 points")

    # type 50 games: K 16 (document: 50 or more)
    k_value = page.locator(".ee-k-value")
    expect(k_value).to_have_text("K 32")
    field = page.locator(".ee-games-field input")
    field.fill("50")
    field.press("Enter")
    expect(k_value).to_have_text("K 16", timeout=TIMEOUT)

    # bad value: a message naming the field; the dashboard still answers
    field.fill("lots")
    field.press("Enter")
    error = page.locator(".ee-games .ee-error")
    expect(error).to_contain_text("Ranked games in the last 7 days", timeout=TIMEOUT)
    expect(error).to_contain_text("0 to 300")
    field.fill("49")
    field.press("Enter")
    expect(k_value).to_have_text("K 32", timeout=TIMEOUT)  # document: fewer than 50 -> K 32
    expect(error).to_have_text("")

    # player B's games slider: the End key jumps to its maximum, 300 games
    b_handle = page.locator(".ee-games-b .noUi-handle")
    b_handle.focus()
    b_handle.press("End")  # 300 games: both players K 16 -> mirror images, +8 / −8
    expect(page.locator(".ee-a-wins")).to_have_text("+8 / −8", timeout=TIMEOUT)
    expect(page.locator(".ee-b-wins")).to_have_text("+8 / −8")

    # the busy player's week 2: one more game a day moves the window plot
    before = plot_src(page, 0)
    week2 = page.locator(".ee-week2 .noUi-handle")
    week2.focus()
    week2.press("ArrowRight")
    wait_plot_changed(page, 0, before)
    expect(page.locator(".ee-window")).to_contain_text("189 games in four weeks")  # 7 × 27

    # the weekly swing: one step (10 games) more
    before = plot_src(page, 1)
    swing = page.locator(".ee-swing-games .noUi-handle")
    swing.focus()
    swing.press("ArrowRight")
    expect(page.locator(".ee-swing")).to_contain_text("310 games in a week", timeout=TIMEOUT)
    expect(page.locator(".ee-swing")).to_contain_text("198 points")  # 32 × 310 × 0.02 = 198.4
    wait_plot_changed(page, 1, before)
    assert_clean(page, NOTEBOOK)
