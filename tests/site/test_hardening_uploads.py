"""08's uploads and pastes in a browser, on one page of 08 for the module's tests, each taking
its turn on it (each checks every frame the page sent since it opened, its own turn's included).

A file chosen (the real FileUpload widget: Playwright answers the file chooser its button
opens) is read by the kernel and fits the curve; a file over the limit is refused by the page's
own script before it is sent, the fit kept.

[CF]  Closed form for one difference: 3 wins in 4 games at +200 gives
      D = 200 / log10(3) = 419.2.

An upload's name and rows with markup stay text: no dialog, no element, no script
of a payload (``audit.PAYLOADS``; the other ways markup comes in: ``docs/security.md``).

An upload or paste over the limit gets the same clear message at any size.
Before, 08 refused 3 and 8 MB files with a message, but a 20 MB file did nothing at all and a
12 MB paste said "the file is empty": the websocket's 10 MiB limit dropped them before the
kernel's 2 MB check ran. The page template's script now checks the size in the browser, before
anything is sent. In headless Chromium against a real ``voila``: files of 3, 8 and 20 MB and a
12 MB paste each get the kernel's own words, and no frame of more than a few kB leaves the page.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from harness import TIMEOUT, assert_clean, open_dashboard, plot_src, wait_changed
from tests.site.audit import PAYLOADS, assert_inert, guard_dialogs

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


def _choose(page, name: str, data: bytes) -> None:
    """A file chosen with the upload's button (FileUpload's <input type=file> is not in the
    page: its button opens the chooser)."""
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.locator("button.ee-upload").click()
    chooser.value.set_files(files=[{"name": name, "mimeType": "text/csv", "buffer": data}])


# first on the page: the curve it draws is the page's first fit from a file
def test_a_file_chosen_is_read_and_one_over_the_limit_refused(calibrate):
    page, sent = calibrate
    report = page.locator(".ee-upload-report")
    rows = "rating,opponent,score\n" + "1700,1500,1\n" * 3 + "1700,1500,0\n" + "1700,,1\n"
    before = plot_src(page)
    _choose(page, "mine.csv", rows.encode())
    expect(report).to_contain_text("mine.csv", timeout=TIMEOUT)
    expect(report).to_contain_text("5 rows read, 1 rejected")
    expect(report).to_contain_text("row 6: opponent is empty")
    expect(page.locator(".ee-divisor")).to_contain_text("÷419", timeout=TIMEOUT)  # [CF]
    wait_changed(page, before)
    # over the 2 MB limit: the page says so before sending anything, and the fit stays
    big = b"rating,opponent,score\n" + b"1700,1500,1\n" * 190_000
    _choose(page, "big.csv", big)
    expect(page.locator(".ee-limit")).to_contain_text(
        "big.csv is 2.3 MB; the limit is 2 MB", timeout=TIMEOUT
    )
    expect(page.locator(".ee-divisor")).to_contain_text("÷419")  # [CF] mine.csv's fit
    assert_clean(page, NB)
    assert max(sent) < 10_000, f"a frame of {max(sent):,} bytes left the page"


def test_markup_in_an_uploaded_files_name_and_rows_stays_text(calibrate):
    page, sent = calibrate
    dialogs: list[str] = []
    guard_dialogs(page, dialogs)
    report = page.locator(".ee-upload-report")
    for payload in PAYLOADS:
        rows = f"rating,opponent,score\n1700,1500,1\n{payload},1500,1\n1700,{payload},0\n"
        _choose(page, f"{payload}.csv", rows.encode())
        expect(report).to_contain_text(payload[:12], timeout=TIMEOUT)  # shown, as text
        expect(report).to_contain_text("rows read")
        assert_inert(page, dialogs, "08 upload")


@pytest.mark.parametrize("megabytes", [3, 8, 20])
def test_a_file_over_the_limit_is_refused_in_the_page_with_the_kernels_words(calibrate, megabytes):
    page, sent = calibrate
    data = _csv(megabytes)
    _choose(page, "big.csv", data)
    # the words of CalibrateModel.load_csv, e.g. "big.csv is 20.0 MB; the limit is 2 MB: ..."
    expect(page.locator(".ee-limit")).to_have_text(
        f"big.csv is {len(data) / 1e6:.1f} MB; the limit is 2 MB: split it or keep the rating, "
        "opponent and score columns only",
        timeout=TIMEOUT,
    )
    assert max(sent) < 10_000, f"a frame of {max(sent):,} bytes left the page"


def test_a_paste_over_the_limit_is_refused_and_one_within_it_is_read(calibrate):
    page, sent = calibrate
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    box = page.locator(".ee-paste textarea")
    big = _csv(12).decode()
    page.evaluate("(text) => navigator.clipboard.writeText(text)", big)
    box.focus()
    box.press("Control+V")  # a real paste, as a viewer's
    expect(page.locator(".ee-limit")).to_have_text(
        f"pasted text is {len(big.encode()) / 1e6:.1f} MB; the limit is 2 MB: split it or keep "
        "the rating, opponent and score columns only",
        timeout=TIMEOUT,
    )
    assert box.input_value() == "", "the refused paste reached the box"
    assert max(sent) < 10_000, f"a frame of {max(sent):,} bytes left the page"
    # a paste within the limit is read by the kernel as before
    page.evaluate(
        "(text) => navigator.clipboard.writeText(text)",
        "rating,opponent,score\n1700,1500,1\n1700,1500,1\n1700,1500,1\n1700,1500,0\n",
    )
    box.focus()
    box.press("Control+V")
    expect(page.locator(".ee-limit")).to_have_text("")
    page.locator(".ee-fit-pasted").click()
    # a player 200 up scoring 3 of 4: 0.75 = 1 / (1 + 10^(-200/D)), D = 200 / log10(3) = 419.2
    expect(page.locator(".ee-divisor")).to_contain_text("÷419", timeout=TIMEOUT)
