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
* typed in a browser: every payload in every text box of one translated page per language (a
  different dashboard each: te/01, uk/08, el/10), since their words come from the catalogs,
  not from the English page (issue 26), in the same visit as their bad link
  (``test_languages.py``, ``audit.check_typed_markup_inert``);
* here, in headless Chromium against a real ``voila``: 08's upload (the file's name and its
  rows). The tests fail on any dialog, on any element a payload would create, and on any
  script a payload would run.
"""

from __future__ import annotations

from playwright.sync_api import expect

from harness import READY, TIMEOUT, open_dashboard
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
