"""Dashboard 8 "Calibrate the curve": what only a browser shows, in one page load.

The real FileUpload widget (Playwright answers the file chooser its button opens) carries a
reader's file to the kernel, and the page's own script refuses a file over the limit before
sending it, keeping the fit. Everything else this page showed in a browser is asserted in
tests/models/test_dash_calibrate.py (the view's widgets and the notebook's live tables) and
in the page's audit (tests/site/specs/d08.py, test_every_reader.py); files of 3, 8 and 20 MB
and pasted text over the limit in tests/site/test_hardening_uploads.py.

[CF]  Closed form for one difference: 3 wins in 4 games at +200 gives
      D = 200 / log10(3) = 419.2.
"""

from __future__ import annotations

from playwright.sync_api import expect

from harness import TIMEOUT, assert_clean, open_dashboard, plot_src, wait_changed

NB = "08_calibrate.ipynb"


def test_a_file_chosen_is_read_and_one_over_the_limit_refused(page, voila_url):
    open_dashboard(page, voila_url, NB)
    expect(page.locator("img.ee-plot")).to_be_visible(timeout=TIMEOUT)
    report = page.locator(".ee-upload-report")
    button = page.locator("button.ee-upload")

    def choose(name: str, data: bytes) -> None:
        # FileUpload's <input type=file> is not in the page: its button opens the chooser
        with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
            button.click()
        chooser.value.set_files(files=[{"name": name, "mimeType": "text/csv", "buffer": data}])

    rows = "rating,opponent,score\n" + "1700,1500,1\n" * 3 + "1700,1500,0\n" + "1700,,1\n"
    before = plot_src(page)
    choose("mine.csv", rows.encode())
    expect(report).to_contain_text("mine.csv", timeout=TIMEOUT)
    expect(report).to_contain_text("5 rows read, 1 rejected")
    expect(report).to_contain_text("row 6: opponent is empty")
    expect(page.locator(".ee-divisor")).to_contain_text("÷419", timeout=TIMEOUT)  # [CF]
    wait_changed(page, before)
    # over the 2 MB limit: the page says so before sending anything, and the fit stays
    big = b"rating,opponent,score\n" + b"1700,1500,1\n" * 190_000
    choose("big.csv", big)
    expect(page.locator(".ee-limit")).to_contain_text("big.csv is 2.3 MB; the limit is 2 MB",
                                                      timeout=TIMEOUT)
    expect(page.locator(".ee-divisor")).to_contain_text("÷419")  # [CF] mine.csv's fit
    assert_clean(page, NB)
