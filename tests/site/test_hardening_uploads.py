"""An upload or paste over the limit gets the same clear message at any size (issue 16, point 7).

Before, 08 refused 3 and 8 MB files with a message, but a 20 MB file did nothing at all and a
12 MB paste said "the file is empty": the websocket's 10 MiB limit dropped them before the
kernel's 2 MB check ran. The page template's script now checks the size in the browser, before
anything is sent. In headless Chromium against a real ``voila``: files of 3, 8 and 20 MB and a
12 MB paste each get the kernel's own words, and no frame of more than a few kB leaves the page
(one page of 08 for the module's tests, each taking its turn on it: each checks every frame
the page sent since it opened, its own turn's included).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from harness import TIMEOUT, open_dashboard

NB = "08_calibrate.ipynb"
ROW = b"1700,1500,1\n"


def _csv(megabytes: float) -> bytes:
    return b"rating,opponent,score\n" + ROW * int(megabytes * 1e6 / len(ROW))


@pytest.fixture(scope="module")
def _calibrate_page(browser, voila_url):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(len(f))))
    open_dashboard(page, voila_url, NB)
    expect(page.locator("img.ee-plot").first).to_be_visible(timeout=TIMEOUT)
    yield page, sent
    context.close()


@pytest.fixture
def calibrate(_calibrate_page):
    """The page of 08, and the size of every frame it sent since it opened."""
    return _calibrate_page


@pytest.mark.parametrize("megabytes", [3, 8, 20])
def test_a_file_over_the_limit_is_refused_in_the_page_with_the_kernels_words(calibrate, megabytes):
    page, sent = calibrate
    data = _csv(megabytes)
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.locator("button.ee-upload").click()
    chooser.value.set_files(files=[{"name": "big.csv", "mimeType": "text/csv", "buffer": data}])
    # the words of CalibrateModel.load_csv, e.g. "big.csv is 20.0 MB; the limit is 2 MB: ..."
    expect(page.locator(".ee-limit")).to_have_text(
        f"big.csv is {len(data) / 1e6:.1f} MB; the limit is 2 MB: split it or keep the rating, "
        "opponent and score columns only", timeout=TIMEOUT)
    assert max(sent) < 10_000, f"a frame of {max(sent):,} bytes left the page"


def test_a_paste_over_the_limit_is_refused_and_one_within_it_is_read(calibrate):
    page, sent = calibrate
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    box = page.locator(".ee-paste textarea")
    big = _csv(12).decode()
    page.evaluate("(text) => navigator.clipboard.writeText(text)", big)
    box.focus()
    box.press("Control+V")   # a real paste, as a viewer's
    expect(page.locator(".ee-limit")).to_have_text(
        f"pasted text is {len(big.encode()) / 1e6:.1f} MB; the limit is 2 MB: split it or keep "
        "the rating, opponent and score columns only", timeout=TIMEOUT)
    assert box.input_value() == "", "the refused paste reached the box"
    assert max(sent) < 10_000, f"a frame of {max(sent):,} bytes left the page"
    # a paste within the limit is read by the kernel as before
    page.evaluate("(text) => navigator.clipboard.writeText(text)",
                  "rating,opponent,score\n1700,1500,1\n1700,1500,1\n1700,1500,1\n1700,1500,0\n")
    box.focus()
    box.press("Control+V")
    expect(page.locator(".ee-limit")).to_have_text("")
    page.locator(".ee-fit-pasted").click()
    # a player 200 up scoring 3 of 4: 0.75 = 1 / (1 + 10^(-200/D)), D = 200 / log10(3) = 419.2
    expect(page.locator(".ee-divisor")).to_contain_text("÷419", timeout=TIMEOUT)
