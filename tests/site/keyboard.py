"""The keyboard alone (each page can be used with it),
checked in every page's visit at a desktop's width (``test_every_reader.py``): :func:`keyboard_problems`.

The page is walked with the Tab key only: every control it shows (link, button, text box, dropdown,
slider handle, checkbox, toggle) takes the focus in turn, and each shows that it has it
(its outline or box shadow, as computed, differs from the same control without the focus).
Then one slider is moved with an arrow key and one dropdown, toggle or checkbox is changed
with the keyboard, and the view follows (a figure, a number or a table changes).

In the full suite this walk (and, once, an earlier page test) froze the shared Voilà
server (100 % of a core, its memory 0.16 -> 6.4 GB in 90 s): a figure's update reached the
server as a page closed, and went out in the legacy protocol, which Voilà's writer reads as
v1. ``channels.GuardedConnection`` now sends v1 only, and nothing to a closed websocket
(``test_hardening_limits``).
"""

from __future__ import annotations

from harness import POLL_MS, TIMEOUT

CONTROLS = (
    "a[href], button, input, select, textarea, [role=slider], [contenteditable=true], [tabindex]"
)

# Every control shown, numbered (data-ee-key), with its look without the focus.
MARK = """(sel) => {
  const shown = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  const look = e => { const s = getComputedStyle(e);
    return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join('|'); };
  document.activeElement && document.activeElement.blur();
  return [...document.querySelectorAll(sel)]
    .filter(e => shown(e) && !e.disabled && (e.tabIndex >= 0 || e.isContentEditable))
    .map((e, i) => { e.dataset.eeKey = String(i);
      return {key: String(i), look: look(e), what: e.tagName + ' ' +
        (e.getAttribute('aria-label') || e.textContent.trim() || e.type || e.className || '').slice(0, 40)}; });
}"""

# The focused element: its number and whether it shows the focus (an outline drawn, or a box
# shadow, that the same element does not have unfocused); and whether it is a frame that
# scrolls sideways now (elo-explain.js gives such a frame a place in the Tab order as the
# page settles: one that took it after the controls were numbered).
FOCUSED = """(looks) => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const key = e.dataset.eeKey;
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1;
  const shadow = s.boxShadow !== 'none';
  const now = [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join('|');
  return {key: key === undefined ? null : key, what: e.tagName + ' ' + (e.className || ''),
          ring: (outline || shadow) && now !== looks[key],
          scrolls: e.hasAttribute('data-ee-frame') && e.scrollWidth > e.clientWidth + 1};
}"""

# What the view shows: its figures, live numbers and tables.
SHOWN = """() => [...document.querySelectorAll(
  '.ee-app img.ee-plot, .ee-app .ee-value, .ee-app table, .ee-live')]
  .map(e => e.tagName === 'IMG' ? e.getAttribute('src') || '' : e.innerText).join(' | ')"""


# The numbered controls still shown and focusable (a frame that scrolled sideways while the
# page settled takes the Tab key only while it scrolls: elo-explain.js gives and takes its
# tabindex as it measures).
STILL = """() => [...document.querySelectorAll('[data-ee-key]')]
  .filter(e => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !e.disabled && (e.tabIndex >= 0 || e.isContentEditable); })
  .map(e => e.dataset.eeKey)"""


def walk(page) -> tuple[list[dict], dict[str, bool], list[str]]:
    """Tab through the page from its top: the controls shown, which ones took the focus
    (and whether they showed it), and what else took it."""
    controls = page.evaluate(MARK, CONTROLS)
    looks = {c["key"]: c["look"] for c in controls}
    reached: dict[str, bool] = {}
    others: list[str] = []
    for _ in range(len(controls) + 10):  # once round the page, and past its end
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED, looks)
        if focused is None:
            continue  # the page itself (before the first control, after the last)
        if focused["key"] is None:
            if not focused["scrolls"]:  # a frame scrolling sideways now: the keyboard's to scroll
                others.append(focused["what"])
        else:
            reached[focused["key"]] = reached.get(focused["key"], True) and focused["ring"]
        if len(reached) == len(controls):
            break
    return controls, reached, others


def _changed(page, before: str) -> bool:
    try:
        page.wait_for_function(
            f"(before) => ({SHOWN})() !== before", arg=before, timeout=TIMEOUT, polling=POLL_MS
        )
    except Exception:  # noqa: BLE001 - reported as a problem in words
        return False
    return True


def keyboard_problems(page, dashboard: bool) -> list[str]:
    """What the keyboard alone cannot do on the page open in ``page`` (a desktop's window):
    every control shown takes the focus with Tab and shows it, nothing else takes it; on a
    dashboard (``dashboard``), a dropdown, a toggle or a checkbox changed with the keyboard and
    a slider moved with an arrow key change the view."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    controls, reached, others = walk(page)
    if not controls:
        return ["a page without controls (it has at least its links)"]
    problems = []
    still = set(page.evaluate(STILL))
    missed = [c["what"] for c in controls if c["key"] not in reached and c["key"] in still]
    if missed:
        problems.append(f"not reached with Tab: {missed}")
    no_ring = [c["what"] for c in controls if reached.get(c["key"]) is False]
    if no_ring:
        problems.append(f"no visible focus: {no_ring}")
    if others:
        problems.append(f"took the focus though not a control shown: {others}")
    if not dashboard:
        return problems
    # a dropdown, a toggle or a checkbox, with the keyboard: the view follows (01's
    # "Average opponent" first: its slider is in that mode)
    select = page.locator(".ee-app select:not(.ee-dock *) >> visible=true")
    toggle = page.locator(
        ".ee-app .widget-toggle-button:not(.mod-active):not(.ee-dock *) >> visible=true"
    )
    average = toggle.filter(has_text="Average")
    check = page.locator(".ee-app input[type=checkbox]:not(.ee-dock *) >> visible=true")
    before = page.evaluate(SHOWN)
    if average.count() or (toggle.count() and not select.count()):
        (average if average.count() else toggle).first.focus()
        page.keyboard.press("Space")
    elif select.count():
        select.first.focus()  # the next choice (the one before, at the last)
        last = select.first.evaluate("s => s.selectedIndex === s.options.length - 1")
        page.keyboard.press("ArrowUp" if last else "ArrowDown")
    elif check.count():
        check.first.focus()
        page.keyboard.press("Space")
    else:
        return problems + ["no dropdown, toggle or checkbox"]
    if not _changed(page, before):
        problems.append(
            "a dropdown, toggle or checkbox changed with the keyboard: the view did not"
        )
    # a slider, with an arrow key: the view follows
    handle = page.locator(".ee-app [role=slider]:not(.ee-dock *) >> visible=true").first
    if not handle.count():
        return problems + ["no slider"]
    key = (
        "ArrowLeft"
        if handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        else "ArrowRight"
    )
    before = page.evaluate(SHOWN)
    handle.focus()
    page.keyboard.press(key)
    if not _changed(page, before):
        problems.append("a slider moved with an arrow key: the view did not follow")
    return problems
