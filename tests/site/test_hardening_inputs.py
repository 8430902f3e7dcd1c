"""Bad input in the browser: one check per kind of box a viewer types into.

Every box of every dashboard (its number boxes, text areas and paste box, and the dock's
copies), with every bad value (empty, letters, a negative number below the range, 1e308,
99999999999999999999, ``nan``) and every markup payload, is swept without a browser in
``tests/models/test_bad_input.py``: each must get a message naming the field and its range,
no Python text, the model unchanged; the valid value again clears it and the model answers.
That sweep finds the boxes in the views' widget trees, so a new field is covered there.

What only a browser shows is checked here, once for each kind of box, on two page loads:

* a number box (``NumberField``; 08's bucket width, beside its slider): letters typed and
  Enter show a visible ``.ee-error`` message (the page's script marks the box submitted;
  until then the CSS hides a half-typed value's message while the box has the focus) naming
  the field as the reader sees it (its label in the page) and a range; the valid value typed
  again clears it: a round trip through the kernel, the dashboard still answering;
* a paste box submitted by a button (08's, "Fit pasted results"): a valid paste is read, a
  bad row gets the report's message for its row;
* a text area of games (10's, class ``ee-field``): letters show the message beside it, naming
  the field; the games again clear it.

No page shows Python's text (``FORBIDDEN_TEXT``) after them.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from harness import assert_clean, open_dashboard

ROUND_TRIP_MS = 60_000  # a kernel round trip on a loaded 2-core machine
RANGE = re.compile(r"\d+ to \d+")

FIELD_NAME = """(input) => {
  // the label the reader sees: the field's own, else the nearest label around it
  const field = input.closest('.ee-field');
  const own = field.querySelector('label');
  if (own && own.textContent.trim()) return own.textContent.trim();
  for (let el = field.parentElement; el && !el.classList.contains('ee-app'); el = el.parentElement) {
    const label = [...el.querySelectorAll('label')].find(l => l.textContent.trim());
    if (label) return label.textContent.trim();
  }
  return '';
}"""

# 08 calibrate's paste box: a valid paste and the report's text for it; a bad row and the
# report's text for a rejected row
PASTE_VALID = "rating,opponent,score\n1500,1400,1\n1500,1600,0"
PASTE_READ = re.compile(r"2 rows read, 0 rejected")
PASTE_BAD = "rating,opponent,score\nnan,1500,1"
PASTE_REJECTED = re.compile(r"row \d+: \S")


def test_a_number_box_and_the_paste_box_refuse_bad_input_visibly_and_keep_answering(
    page, voila_url
):
    open_dashboard(page, voila_url, "08_calibrate.ipynb")
    # a number box: letters, Enter; then the valid value again
    number = page.locator(".ee-number:not(.ee-dock *)", has=page.locator(".ee-bucket-field")).first
    box = number.locator("input").first
    error = number.locator(".ee-error")
    name, original = box.evaluate(FIELD_NAME), box.input_value()
    assert name, "the number box has no visible label to name it"
    box.fill("abc")
    box.press("Enter")
    expect(error).to_contain_text(name, timeout=ROUND_TRIP_MS)
    expect(error).to_contain_text(RANGE)
    expect(error).to_be_visible()
    box.fill(original)
    box.press("Enter")
    expect(error).to_have_text("", timeout=ROUND_TRIP_MS)
    # the paste box: a valid paste is read, a bad row is named
    paste = page.locator(".ee-paste textarea").first
    fit, report = page.locator(".ee-fit-pasted").first, page.locator(".ee-upload-report").first
    paste.fill(PASTE_VALID)
    fit.click()
    expect(report).to_contain_text(PASTE_READ, timeout=ROUND_TRIP_MS)
    expect(report).not_to_contain_text(PASTE_REJECTED)
    paste.fill(PASTE_BAD)
    fit.click()
    expect(report).to_contain_text(PASTE_REJECTED, timeout=ROUND_TRIP_MS)
    expect(report).to_contain_text("pasted text")
    assert_clean(page)
    assert page.locator(".ee-ready").count() >= 1, "the dashboard's root is gone"


def test_a_text_area_of_games_refuses_bad_input_visibly_and_keeps_answering(page, voila_url):
    open_dashboard(page, voila_url, "10_new_to_fide.ipynb")
    area = page.locator(".ee-opponents:not(.ee-dock *) textarea").first
    error = page.locator(".ee-games-error:not(.ee-dock *)").first
    name, original = area.evaluate(FIELD_NAME), area.input_value()
    assert name, "the text area has no visible label to name it"
    area.fill("abc")
    area.press("Tab")
    expect(error).to_contain_text(name, timeout=ROUND_TRIP_MS)
    expect(error).to_be_visible()
    area.fill(original)
    area.press("Tab")
    expect(error).to_have_text("", timeout=ROUND_TRIP_MS)
    assert_clean(page)
    assert page.locator(".ee-ready").count() >= 1, "the dashboard's root is gone"
