"""One audit of a dashboard, driven by a short spec.

Each dashboard's spec (``tests/site/specs/``) names, from an independent source, what a visit
checks beyond what every page is checked for:

* ``link``: a link's query; the page's visit (``test_every_reader.py``) opens it on a phone
  with it, and the page must show ``link_shows`` (a CSS selector and a text it must contain,
  each) and the link must read it back (``.ee-link``);
* ``step``: one control step on that page (type, click, choose, press a key on a slider,
  fill a paste box) and what it must change: texts, the figures that must be redrawn, the
  view's link after it;
* ``bad_link``: a link with a bad value; the translated visits (``test_languages.py``) open
  the page with it and with markup (``PAYLOADS``) in every other setting: the page says in its
  language what it ignored, and makes no element of the markup, runs no script of it and opens
  no dialog (:func:`check_the_bad_link_shown`); the note's English words (``bad_note``: the
  field's name and its range) and the defaults it keeps (``defaults_show``) are asserted on the
  views the page builds (``tests/models/test_bad_links.py``).

The numbers the model computes are asserted in ``tests/models``; the spec holds what only a
browser shows: that a link, a control and a bad link reach the page the viewer sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from playwright.sync_api import expect

from harness import READY, TIMEOUT, above_the_view, plot_src, slider_step, type_into, wait_changed
from notebook_runner import parameters

Shows = tuple[tuple[str, str], ...]

PAYLOADS = (
    '<img src=x onerror="alert(1)">',
    '"><b class="ee-pwned">B</b><svg onload="window.eePwned=1">',
    "</p><script>window.eePwned=1</script>",
)
# an element a payload would make, a script of one in the page, or one that ran
_INJECTED_JS = """() => ({
  elements: document.querySelectorAll('.ee-pwned, img[src="x"], svg[onload]').length
            + [...document.scripts].filter(s => s.textContent.includes('eePwned')).length,
  ran: window.eePwned === 1,
})"""


@dataclass(frozen=True)
class Step:
    """One control step: ``action`` on the control ``css`` and what it must change.

    ``action``: ``"type"`` (``value`` typed into the text box inside ``css``, then Enter),
    ``"click"`` (``css`` itself), ``"choose"`` (the option labelled ``value`` of the ``select``
    inside ``css``), ``"key"`` (``value``, a key name, pressed ``times`` on the slider handle
    inside ``css``), ``"fill"`` (``value`` into the ``textarea`` inside ``css``, then Tab)."""

    action: str
    css: str
    value: str = ""
    times: int = 1
    shows: Shows = ()
    redraws: tuple = ()  # figures (img) that must be redrawn: a class (".ee-plot", its first
    #                       image) or (class, n) for its n-th image, counted from 0
    link: str | None = None  # the view's link after the step; None: not asked


@dataclass(frozen=True)
class Spec:
    source: str  # where the numbers come from (docs/sources.md's anchors)
    link: str  # "?divisor=800&difference=300"
    link_shows: Shows
    step: Step
    bad_link: str  # "divisor=abc": one setting with a bad value
    bad_note: tuple[str, ...]  # what the note must say of it (the field, its range)
    defaults_show: Shows = ()  # what the page shows at its defaults (the bad value ignored)


def _shows(page, shows: Shows) -> None:
    for css, text in shows:
        expect(page.locator(css).first).to_contain_text(text, timeout=TIMEOUT)


def check_the_link(page, spec: Spec) -> None:
    """The page opened with ``spec.link`` shows what the link sets and reads it back."""
    _shows(page, spec.link_shows)
    for css, _text in spec.link_shows:  # a notebook cell's live output: above the view
        if css.startswith(".ee-live-"):
            above_the_view(page, css.removeprefix(".ee-live-"))
    expect(page.locator("a.ee-link").first).to_have_attribute("href", spec.link, timeout=TIMEOUT)
    expect(page.locator(".ee-query-note")).to_have_count(0)


def take_the_step(page, spec: Spec) -> None:
    """One control step, and what it must change (texts, figures, the link)."""
    step = spec.step
    figures = [(r, 0) if isinstance(r, str) else tuple(r) for r in step.redraws]
    before = {(css, nth): plot_src(page, css, nth) for css, nth in figures}
    target = f"{step.css}:not(.ee-dock *)"
    if step.action == "type":
        type_into(page, target, step.value)
    elif step.action == "click":
        page.locator(target).first.click()
    elif step.action == "choose":
        page.locator(f"{target} select").first.select_option(label=step.value)
    elif step.action == "key":
        slider_step(page, target, step.value, step.times)
    elif step.action == "fill":
        box = page.locator(f"{target} textarea").first
        box.fill(step.value)
        box.press("Tab")
    else:
        raise ValueError(
            f"step action must be type, click, choose, key or fill, got {step.action!r}"
        )
    _shows(page, step.shows)
    for (css, nth), src in before.items():
        wait_changed(page, src, css, nth)
    if step.link is not None:
        expect(page.locator("a.ee-link").first).to_have_attribute(
            "href", step.link, timeout=TIMEOUT
        )


UNKNOWN = "colour=red"  # a name that is not a setting of any page


def bad_query(notebook: str, spec: Spec) -> str:
    """``spec.bad_link``, then every other setting of the page's parameters cell with all
    the markup payloads in its value, and a name that is no setting (:data:`UNKNOWN`)."""
    bad_name = spec.bad_link.split("=", 1)[0]
    names = [n.lower() for n in parameters(notebook) if n.lower() != bad_name]
    payload = quote("".join(PAYLOADS))
    return "?" + "&".join([spec.bad_link, UNKNOWN, *(f"{n}={payload}" for n in names)])


def guard_dialogs(page, dialogs: list[str]) -> None:
    """Record every dialog the page opens in ``dialogs`` (and dismiss it), for
    :func:`check_the_bad_link_shown`."""
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))


def check_the_bad_link_shown(page, spec: Spec, dialogs: list[str], script) -> None:
    """A translated page opened with :func:`bad_query`: its note, in the page's language
    (``script``: a pattern of a letter of its script), names the setting as the link gave
    it, the unknown name and the payload as text; no markup of a payload became an element,
    ran, or opened a dialog. (The note's English words and the defaults kept:
    ``tests/models/test_bad_links.py``, on the same views.)"""
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT)
    note = page.locator(".ee-query-note")
    expect(note).to_contain_text(spec.bad_link, timeout=TIMEOUT)
    expect(note).to_contain_text(UNKNOWN.split("=")[0])
    expect(note).to_contain_text(PAYLOADS[0][:12])  # a payload, shown as text
    assert script.search(note.inner_text()), "the note is not in the page's language"
    assert_inert(page, dialogs, "the bad link")


def assert_inert(page, dialogs: list[str], what: str) -> None:
    """No markup of a payload became an element, ran, or opened a dialog (``dialogs``: those
    :func:`guard_dialogs` recorded); ``what`` names what was sent, in a failure's words."""
    found = page.evaluate(_INJECTED_JS)
    assert not dialogs, f"{what}: a dialog opened: {dialogs}"
    assert found["elements"] <= 0, f"{what}: {found['elements']} elements made from a payload"
    assert not found["ran"], f"{what}: a payload's script ran"


def check_typed_markup_inert(page, dialogs: list[str], what: str) -> int:
    """Every payload typed into every visible text field and paste box of the view (the dock's
    copies aside), each field left after each (a text box answers, a paste box syncs); once
    the kernel answered them all, no payload made an element, ran or opened a dialog.
    Returns how many boxes there were."""
    boxes = page.locator(
        ".ee-ready input[type=text]:not(.ee-dock *), .ee-ready textarea:not(.ee-dock *)"
    )
    for i in range(boxes.count()):
        box = boxes.nth(i)
        if not box.is_visible() or not box.is_enabled():
            continue
        for payload in PAYLOADS:
            box.fill(payload)
            box.press("Tab")
    # the kernel answered every entry: a last bad entry into a number box, whose message
    # comes back after the answers to all earlier ones (one kernel handles them in order)
    number = page.locator(".ee-ready .ee-number:not(.ee-dock *)").first
    number.locator("input").fill("§")
    number.locator("input").press("Enter")
    expect(number.locator(".ee-error")).not_to_have_text("", timeout=TIMEOUT)
    assert_inert(page, dialogs, f"{what}, typed")
    return boxes.count()
