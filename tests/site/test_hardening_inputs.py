"""Bad input in the browser: every typed field of every published dashboard (issue 5, "Hardening").

For each field (an ``input``/``textarea`` inside ``.ee-field``, discovered on the page, so
a new dashboard is covered automatically) the sweep types an empty value, letters, a
negative number, huge numbers (1e308 and 99999999999999999999) and ``nan``.  Each must
show a visible ``.ee-error`` message naming the field (its label as the reader sees it),
with no traceback; after each, the original valid value is typed again and the message
must clear -- a round trip through the kernel, so the dashboard is still answering.

Fields inside sections hidden by a mode switch (``display: none``) are revealed in the
page before the sweep: the kernel-side validation being tested is the same in every mode.
Sections made only when first opened (``LAZY``) are opened by a click first.
Typed inputs that are not ``.ee-field`` number fields must be listed in ``FREE_TEXT``
with the way to submit them, so no text box escapes the sweep.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from harness import FORBIDDEN_TEXT, assert_clean, open_dashboard
from elo_explain.dashboards.index import published

ROUND_TRIP_MS = 60_000  # a kernel round trip on a loaded 2-core machine
BAD_VALUES = ["", "abc", "<negative>", "1e308", "99999999999999999999", "nan"]
RANGE = re.compile(r"(-?\d[\d.,]*(?:e[+-]?\d+)?)\s+to\s+(-?\d[\d.,]*(?:e[+-]?\d+)?)")

# Free-text boxes that are not number fields, by CSS class: how to submit them, a valid
# entry and the report's text for it, and the report's text for a rejected entry.
FREE_TEXT = {
    "ee-paste": {  # 08 calibrate: paste CSV results, then "Fit pasted results"
        "button": "ee-fit-pasted", "report": "ee-upload-report",
        "valid": "rating,opponent,score\n1500,1400,1\n1500,1600,0",
        "valid_text": re.compile(r"2 rows read, 0 rejected"),
        "bad_text": re.compile(r"row \d+: \S"),
        "bad": ["", "abc", "rating,opponent,score\nnan,1500,1", "rating,opponent,score\n1e308,1500,1",
                "rating,opponent,score\n-5,1500,1", "rating,opponent,score\n1500,abc,2",
                "rating,opponent,score\n99999999999999999999,1500,0.5", "\x00\x01,,,\n;;;"],
    },
}

# Sections a dashboard makes only when the reader first opens them: how to open each
# (a button to click) and a field that must then appear.  Opened before REVEAL.
LAZY = {
    "01_chess_calculator.ipynb": [(".ee-mode button:has-text('Several games')", ".ee-row-1 input")],
}

REVEAL = """() => {
  // show sections a mode switch hid (display: none), so every field can be typed into
  for (const field of document.querySelectorAll('.ee-app .ee-field')) {
    for (let el = field; el && !el.classList.contains('ee-app'); el = el.parentElement) {
      if (getComputedStyle(el).display === 'none') {
        el.style.removeProperty('display');
        el.classList.remove('lm-mod-hidden', 'p-mod-hidden');
        if (getComputedStyle(el).display === 'none') el.style.display = 'flex';
      }
    }
  }
}"""

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

def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


# A NumberField (.ee-number) makes its .ee-error message on the first bad entry: the
# message is looked up inside the field's own box, lazily (Playwright re-queries).
ERROR_OF_NUMBER = f"xpath=ancestor::*[{_has_class('ee-number')}][1]//*[{_has_class('ee-error')}]"
# any other field: the nearest ancestor that holds an .ee-error element, then that element
ERROR_OF_FIELD = ("xpath=ancestor::*[.//*[contains(concat(' ', normalize-space(@class), ' '), ' ee-error ')]][1]"
                  "//*[contains(concat(' ', normalize-space(@class), ' '), ' ee-error ')]")


def _negative(message: str) -> str:
    """A negative value outside the field's range (read from its message when it states one)."""
    m = RANGE.search(message.replace("\u2212", "-"))
    if m:
        lo = float(m.group(1).replace(",", ""))
        if lo <= -1:
            return f"{lo - 1:g}"
    return "-1"


def _submit(locator, value: str) -> None:
    locator.fill(value)
    locator.press("Enter")


def _sweep_field(page, notebook: str, index: int, locator) -> list[str]:
    problems: list[str] = []
    name = locator.evaluate(FIELD_NAME)
    where = f"{notebook} field #{index} {name!r}"
    if not name:
        return [f"{where}: the field has no visible label to name it"]
    original = locator.input_value()
    if locator.evaluate("el => !!el.closest('.ee-number')"):
        error = locator.locator(ERROR_OF_NUMBER).first
    else:
        error = locator.locator(ERROR_OF_FIELD).first
        if error.count() == 0:
            return [f"{where}: no .ee-error element next to the field"]
    message = ""
    for bad in BAD_VALUES:
        value = _negative(message) if bad == "<negative>" else bad
        _submit(locator, value)
        try:
            expect(error).to_contain_text(name, timeout=ROUND_TRIP_MS)
            expect(error).to_be_visible(timeout=ROUND_TRIP_MS)
        except AssertionError:
            problems.append(f"{where}: typing {value!r} shows no visible message naming the field "
                            f"(message: {error.inner_text()!r})")
            continue
        message = error.inner_text()
        for word in FORBIDDEN_TEXT:
            if word in message:
                problems.append(f"{where}: typing {value!r} shows {word!r}: {message!r}")
        # the dashboard keeps answering: the valid value is accepted and the message clears
        _submit(locator, original)
        try:
            expect(error).to_have_text("", timeout=ROUND_TRIP_MS)
        except AssertionError:
            problems.append(f"{where}: after {value!r}, typing the valid {original!r} does not clear "
                            f"the message ({error.inner_text()!r}): the dashboard stopped answering")
            break
    return problems


def _sweep_free_text(page, notebook: str) -> list[str]:
    problems = []
    boxes = page.locator(".ee-app input[type=text], .ee-app input[type=number], .ee-app input:not([type]), "
                         ".ee-app textarea")
    for i in range(boxes.count()):
        box = boxes.nth(i)
        if box.evaluate("el => !!el.closest('.ee-field, .ee-dock')"):
            continue  # a NumberField (swept above), or the dock's copy of a view's box
        if box.evaluate("el => !!el.closest('.ee-viewport')"):
            continue  # hidden, written by the page's script with its width: not a viewer's box
            # (anything else is ignored: tests/models/test_figures_phone.py)
        classes = box.evaluate("el => [...el.closest('.jupyter-widgets, .lm-Widget').classList]")
        known = [c for c in classes if c in FREE_TEXT]
        if not known:
            problems.append(f"{notebook}: text box #{i} (classes {classes}) is neither a NumberField "
                            f"(.ee-field) nor listed in FREE_TEXT")
            continue
        spec, where = FREE_TEXT[known[0]], f"{notebook} .{known[0]}"
        button = page.locator(f".{spec['button']}").first
        report = page.locator(f".{spec['report']}").first
        for value in spec["bad"]:
            box.fill(spec["valid"])
            button.click()
            try:  # the valid entry is accepted, so the next verdict is about the bad one
                expect(report).to_contain_text(spec["valid_text"], timeout=ROUND_TRIP_MS)
                expect(report).not_to_contain_text(spec["bad_text"], timeout=ROUND_TRIP_MS)
            except AssertionError:
                problems.append(f"{where}: the valid entry is not accepted: {report.inner_text()[-300:]!r}")
                break
            box.fill(value)
            button.click()
            try:
                expect(report).to_contain_text(spec["bad_text"], timeout=ROUND_TRIP_MS)
            except AssertionError:
                problems.append(f"{where}: submitting {value!r} shows no message: {report.inner_text()[-300:]!r}")
            text = page.locator(".ee-app").first.inner_text()
            problems += [f"{where}: submitting {value!r} shows {word!r}" for word in FORBIDDEN_TEXT if word in text]
    return problems


@pytest.mark.parametrize("notebook", [d.notebook for d in published()])
def test_every_field_rejects_bad_input_visibly_and_keeps_answering(page, voila_url, notebook):
    open_dashboard(page, voila_url, notebook)
    for button, field in LAZY.get(notebook, []):
        page.locator(button).click()
        page.locator(field).wait_for(state="visible", timeout=ROUND_TRIP_MS)
    page.evaluate(REVEAL)
    # the view's own fields (the dock's are the same traits' copies: tests/models/test_dock.py)
    fields = page.locator(".ee-app .ee-field input:not(.ee-dock *), "
                          ".ee-app .ee-field textarea:not(.ee-dock *)")
    problems: list[str] = []
    for i in range(fields.count()):
        problems += _sweep_field(page, notebook, i, fields.nth(i))
    problems += _sweep_free_text(page, notebook)
    assert_clean(page)
    assert page.locator(".ee-ready").count() >= 1, "the dashboard's root is gone"
    assert not problems, "\n".join(problems)

