"""Nothing a viewer types, pastes, uploads or puts in a link becomes markup on the page (issue 16).

Where each part is checked:

* a link: the translated visits of every dashboard in ``tests/site/test_languages.py`` (te, uk
  and el) open it with all the payloads in every other setting of its link
  (``tests/site/audit.py``: ``bad_query``, ``check_the_bad_link_shown``: no dialog, no element,
  no script of a payload), and ``tests/models/test_bad_links.py`` the same links in English on
  the views the page builds;
* a text field or paste box: every payload in every box of every dashboard view, found in its
  widget tree, is ``tests/models/test_bad_input.py``'s (no HTML the page renders -- the view's,
  its dock's, the notebook's live outputs -- holds a payload's markup unescaped);
* here, in headless Chromium against a real ``voila``: 08's upload (the file's name and its
  rows), and the translated pages, one visit per language (a different dashboard each: the
  payloads in its link and in its text boxes at once), since their words come from the
  catalogs, not from the English page (issue 26). The tests fail on any dialog, on any
  element a payload would create, and on any script a payload would run.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from harness import READY, TIMEOUT, open_dashboard
from notebook_runner import parameters
from tests.site.audit import PAYLOADS

INJECTED_JS = """() => ({
  elements: document.querySelectorAll('.ee-pwned, img[src="x"], svg[onload], script:not([src]):not([type])').length
            - window.__eeBaselineScripts,
  ran: window.eePwned === 1,
})"""
BASELINE_JS = "() => { window.__eeBaselineScripts = document.querySelectorAll('script:not([src]):not([type])').length; }"


def _guard(page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return dialogs


def _assert_inert(page, dialogs, what):
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT)
    found = page.evaluate(INJECTED_JS)
    assert not dialogs, f"{what}: a dialog opened: {dialogs}"
    assert found["elements"] <= 0, f"{what}: {found['elements']} elements made from a payload"
    assert not found["ran"], f"{what}: a payload's script ran"


def _kernel_caught_up(page) -> None:
    """Wait until the kernel has answered every entry sent so far: a last bad entry into a
    number box, whose message comes back after the answers to all earlier messages (one
    kernel handles them in order)."""
    box = page.locator(".ee-ready .ee-number:not(.ee-dock *)").first
    box.locator("input").fill("§")
    box.locator("input").press("Enter")
    expect(box.locator(".ee-error")).not_to_have_text("", timeout=TIMEOUT)


def _fill_every_box(page) -> int:
    """Each payload into every visible text field and paste box of the view; how many boxes."""
    boxes = page.locator(".ee-ready input[type=text]:not(.ee-dock *),"
                         " .ee-ready textarea:not(.ee-dock *)")
    for i in range(boxes.count()):
        box = boxes.nth(i)
        if not box.is_visible() or not box.is_enabled():
            continue
        for payload in PAYLOADS:
            box.fill(payload)
            box.press("Tab")   # the field is left: a text box answers, a textarea syncs
    return boxes.count()


@pytest.mark.parametrize("lang,notebook", [("te", "01_chess_calculator.ipynb"),
                                           ("uk", "08_calibrate.ipynb"),
                                           ("el", "10_new_to_fide.ipynb")])
def test_markup_stays_text_on_a_translated_page(page, voila_url, lang, notebook):
    """One visit of a page in ``lang``: a payload in every setting of its link (each setting
    another of the payloads), then every payload in every text box."""
    dialogs = _guard(page)
    names = [n.lower() for n in parameters(notebook)]
    query = "&".join(f"{n}={quote(PAYLOADS[i % len(PAYLOADS)])}" for i, n in enumerate(names))
    open_dashboard(page, voila_url, f"{lang}/{notebook}?{query}")
    assert page.evaluate("document.documentElement.lang") == lang
    page.evaluate(BASELINE_JS)
    note = page.locator(".ee-query-note")
    expect(note).to_be_visible(timeout=TIMEOUT)
    expect(note).not_to_contain_text("Ignored from the link")  # its language's words
    _assert_inert(page, dialogs, f"{lang}/{notebook} link")
    assert _fill_every_box(page), f"{lang}/{notebook}: no text box found"
    _kernel_caught_up(page)
    _assert_inert(page, dialogs, f"{lang}/{notebook} fields")


def test_markup_in_an_uploaded_files_name_and_rows_stays_text(page, voila_url):
    dialogs = _guard(page)
    open_dashboard(page, voila_url, "08_calibrate.ipynb")
    page.evaluate(BASELINE_JS)
    report = page.locator(".ee-upload-report")
    for payload in PAYLOADS:
        rows = f"rating,opponent,score\n1700,1500,1\n{payload},1500,1\n1700,{payload},0\n"
        with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
            page.locator("button.ee-upload").click()
        chooser.value.set_files(files=[{"name": f"{payload}.csv", "mimeType": "text/csv",
                                        "buffer": rows.encode()}])
        expect(report).to_contain_text("rows read", timeout=TIMEOUT)
        expect(report).to_contain_text(payload[:12])       # shown, as text
        _assert_inert(page, dialogs, "08 upload")
