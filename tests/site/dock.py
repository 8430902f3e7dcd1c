"""The dock in a browser: one visit of a dashboard checks what a reader of its
tables needs, :func:`dock_problems` returning what is wrong, in words.

On the page's first screen: what the page is (its title) and its key number or a control
(the dock, not slid away); "Go to the result" reaches the view's key number in one tap.
Then the first live table is scrolled to the top of the screen: a control on that screen
(the dock's, not covered, not slid away) is moved -- with a tap on a phone, the keyboard
on a desktop -- until the table changes, and the table is still in view, above the dock.
The dock folds and unfolds with its button (``aria-expanded`` says so), and still does once the
button is drawn anew (the HTML widget's markup set again); axe-core finds
nothing serious in it; the keyboard's focus reaches its controls and shows. The view's own
controls on screen: the dock slides away (it never covers them). The page's end scrolls up above
the dock.
"""

from __future__ import annotations

import warnings

from harness import POLL_MS, TIMEOUT

CHANGE_TIMEOUT = 20_000  # ms: a control that moves the table answers well within this
FOLD_TIMEOUT = 10_000  # ms: the page's own script answers a tap (no kernel in between)
TAP_CLICK_TIMEOUT = 5_000  # ms: a tap's click, after its touch events (a loaded machine)
AFTER_THE_LINK = 3_000  # ms: the table, after the link of the same answer (sent just after it)

# a visible dock control's kind, and where it is (page coordinates of the dock)
ITEMS = """([css, docked]) => [...document.querySelectorAll(css)]
  .map((e, i) => { e.dataset.eeItem = String(i); const r = e.getBoundingClientRect();
    const kind = e.querySelector('.noUi-handle') ? 'slider' : e.querySelector('select') ? 'select'
      : e.querySelector('textarea') || e.matches('.widget-textarea') ? 'textarea'
      : e.querySelector('input[type=checkbox]') ? 'checkbox'
      : e.querySelector('.widget-toggle-button') ? 'toggles' : 'text';
    const trait = [...e.classList].map(c => c.replace(/^ee-(dock-)?/, ''))
      .find(c => docked.includes(c));
    return {key: String(i), kind, trait, top: r.top,
            bottom: r.bottom, height: innerHeight, shown: r.width > 0}; })"""

READY = """() => { const d = document.querySelector('.ee-dock');
  return getComputedStyle(d).transform === 'none' ? !d.classList.contains('ee-dock-away')
    : d.classList.contains('ee-dock-away') && d.getBoundingClientRect().top >= innerHeight - 1; }"""

AWAY = """() => { const d = document.querySelector('.ee-dock');
  return d.classList.contains('ee-dock-away') && d.getBoundingClientRect().top >= innerHeight - 1; }"""

# the page's top or end: the box that scrolls (Voilà's, or the document) scrolled there
SCROLL = """(to) => { let s = document.querySelector('main.ee-main');
  while (s && s !== document.body && !(['auto', 'scroll'].includes(getComputedStyle(s).overflowY)
         && s.scrollHeight > s.clientHeight + 1)) s = s.parentElement;
  (s && s !== document.body ? s : document.scrollingElement).scrollTop = to; }"""

# where an element is on screen: visible between the top and the dock's top
IN_VIEW = """(e) => { const r = e.getBoundingClientRect(), d = document.querySelector('.ee-dock');
  const away = d.classList.contains('ee-dock-away');
  const floor = away ? innerHeight : d.getBoundingClientRect().top;
  return r.height > 0 && r.bottom > 0 && r.top < floor - 10; }"""


# two frames after a scroll: the page's IntersectionObservers have told the dock what is in
# view (their callbacks follow the frame that measured), so READY sees the new state
FRAMES = """() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(
  () => setTimeout(r, 0))))"""


def _scrolled(page, script: str, arg=None) -> None:
    """Run a scrolling ``script`` and let the page's observers answer it."""
    page.evaluate(script, arg)
    page.evaluate(FRAMES)


def _away(page) -> bool:
    return page.evaluate(
        "() => document.querySelector('.ee-dock').classList.contains('ee-dock-away')"
    )


def _waited(
    page, script: str, problems: list[str], problem: str, arg=None, timeout: int = TIMEOUT
) -> bool:
    """Wait until ``script`` (given ``arg``) is true; else note ``problem``."""
    try:
        page.wait_for_function(script, arg=arg, timeout=timeout, polling=POLL_MS)
    except Exception:
        problems.append(problem)
        return False
    return True


def _go_to_the_result(page, spec, problems: list[str]) -> None:
    """ "Go to the result", from the first screen: one tap to the view's key number."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    _scrolled(page, SCROLL, 0)
    if not _waited(page, READY, problems, "the dock neither stays nor slides away") or _away(
        page
    ):  # the view's controls on the first screen: the result beside them
        return
    go = page.locator(".ee-dock a.ee-dock-go")
    if not go.count():
        problems.append("no link from the first screen to the result")
        return
    target = page.locator("#ee-result")
    target.wait_for(state="attached", timeout=TIMEOUT)
    go.first.tap() if spec["phone"] else go.first.click()  # one tap
    page.wait_for_function(
        "(e) => { const r = e.getBoundingClientRect();"
        " return r.top >= -1 && r.top < innerHeight / 2; }",
        arg=target.element_handle(),
        timeout=TIMEOUT,
        polling=POLL_MS,
    )


def _first_screen(page, spec, problems: list[str]) -> None:
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    _scrolled(page, SCROLL, 0)
    title = page.locator("main h1").first
    if not title.evaluate(IN_VIEW):
        problems.append("the first screen does not say what the page is (its title)")
    if not _waited(page, READY, problems, "the dock neither stays nor slides away"):
        return
    if _away(page):  # the view's own controls are on the first screen: its offer
        return
    key = page.locator(".ee-dock .ee-dock-key")
    if spec.get("key", True) and not (key.count() and key.first.inner_text().strip()):
        problems.append("the first screen shows no key number")


def _move(page, item, kind: str, phone: bool, bounds) -> None:
    """Move one dock control (a tap on a phone where a finger would; else the keyboard);
    ``bounds``: a number box's range."""
    if kind == "slider":
        handle = item.locator(".noUi-handle")
        end = (
            "Home"
            if handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
            else "End"
        )
        handle.focus()
        handle.press(end)
    elif kind == "select":
        select = item.locator("select")
        values = select.evaluate("s => [...s.options].map(o => o.value)")
        current = select.input_value()
        select.select_option([v for v in values if v != current][-1])
    elif kind == "textarea":
        box = item.locator("textarea")
        games = ["1600 1\n1700 0.5\n1800 0", "1500 0\n1900 1"]
        box.fill(games[1] if box.input_value().strip() == games[0] else games[0])
    elif kind == "checkbox":
        box = item.locator("input[type=checkbox]")
        box.tap() if phone else box.press("Space")
    elif kind == "toggles":
        button = item.locator(".widget-toggle-button:not(.mod-active)").last
        button.tap() if phone else (button.focus(), page.keyboard.press("Space"))
    else:  # a number box: its far end
        box = item.locator("input")
        lo, hi = bounds
        now = float(box.input_value().replace(",", "") or lo)
        box.fill(f"{lo if abs(now - lo) > abs(now - hi) else hi:g}")
        box.press("Enter")


def _moves_the_table(page, table, spec, problems: list[str]) -> None:
    """The first live table at the top of the screen: a control on that screen (the dock's,
    or the view's own when they are in view and the dock has slid away) moves it."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    _scrolled(page, "(e) => e.scrollIntoView({block: 'start'})", table.element_handle())
    if not _waited(page, READY, problems, "the dock neither stays nor slides away"):
        return
    if not table.evaluate(IN_VIEW):
        problems.append("the first live table is not in view above the dock")
    away = _away(page)
    where = (
        ", ".join(f".ee-app .ee-{t}:not(.ee-dock *)" for t in spec["docked"])
        if away
        else ".ee-dock .ee-dock-item:not(.ee-dock-idle)"
    )
    items = [
        i
        for i in page.evaluate(ITEMS, [where, spec["docked"]])
        if i["shown"] and i["bottom"] > 0 and i["top"] < i["height"]
    ]
    if not items:
        problems.append(
            "no control on the screen of the first live table (dock "
            + page.evaluate("() => document.querySelector('.ee-dock').className")
            + ")"
        )
        return
    # first the controls of the traits the table's model method declares it follows (its CSS
    # class ``ee-live-<method>``), a number box last (its far end may fall in the same
    # bracket of a rule): a control that does not move the table costs CHANGE_TIMEOUT
    follows = spec.get("follows", lambda _classes: set())(table.evaluate("e => [...e.classList]"))
    if follows:  # the table declares what it follows: only those controls can move it
        items = [i for i in items if i["trait"] in follows] or items
    # a control wholly on the screen before one cut by its edge (the keyboard's focus
    # scrolls that one into view, and the table with the page)
    items.sort(
        key=lambda i: (
            i["trait"] not in follows,
            i["top"] < 0 or i["bottom"] > i["height"],
            i["kind"] == "text",
        )
    )
    handle = table.element_handle()
    link = page.locator("a.ee-link").first
    for item in items:
        control = page.locator(f"[data-ee-item='{item['key']}']").first
        # a control cut by the screen's bottom edge: scrolled up just into view, as a reader
        # would (the keyboard's focus would scroll it to the screen's middle)
        cut = control.evaluate("e => e.getBoundingClientRect().bottom - innerHeight")
        if away and 0 < cut < table.evaluate("e => e.getBoundingClientRect().bottom") - 20:
            _scrolled(page, "(e) => e.scrollIntoView({block: 'nearest'})", control.element_handle())
        before, before_link = table.inner_html(), link.get_attribute("href")
        _move(page, control, item["kind"], spec["phone"], spec["bounds"].get(item["trait"]))
        try:
            # the kernel took the change: the view's link, written first of a change's
            # outputs, follows it; the notebook's tables come last, in the same answer
            # (the link's element is made anew with each answer: looked up each time)
            page.wait_for_function(
                "([e, before, href]) => e.innerHTML !== before || (document"
                ".querySelector('a.ee-link') || {getAttribute: () => href})"
                ".getAttribute('href') !== href",
                arg=[handle, before, before_link],
                timeout=CHANGE_TIMEOUT,
                polling=POLL_MS,
            )
            page.wait_for_function(
                "([e, before]) => e.innerHTML !== before",
                arg=[handle, before],
                timeout=AFTER_THE_LINK,
                polling=POLL_MS,
            )
        except Exception:
            continue  # this control does not move this table: the next one on screen
        if not table.evaluate(IN_VIEW):
            problems.append("the table changed out of view (under the dock)")
        return
    problems.append(f"no control on the table's screen changed it ({[i['kind'] for i in items]})")


def _what_is_at(toggle) -> str:
    """The dock's state and the element drawn at its button's centre (a failure's words)."""
    return toggle.evaluate(
        "t => { const r = t.getBoundingClientRect(), d = t.closest('.ee-dock');"
        " const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        " return `dock ${d.className}, button at ${Math.round(r.top)} of ${innerHeight},"
        " on top there: ${e ? e.tagName + '.' + e.className : 'nothing'}`; }"
    )


# what the document sees of a tap, for a failure's message: the clicks on the dock's button,
# and each touch, pointer, mouse, click and scroll event (its target, where, when, whether a
# handler cancelled it) since the tap, as the window sees them first
INPUTS = """() => { if (window.__eeTaps !== undefined) return; window.__eeTaps = 0;
  window.__eeInput = [];
  const name = (t) => t && t.tagName ? t.tagName + '.' + String(t.className).slice(0, 40) : String(t);
  window.addEventListener('click', (e) => { if (e.target.closest &&
    e.target.closest('.ee-dock-toggle')) window.__eeTaps++; }, true);
  for (const type of ['touchstart', 'touchend', 'touchcancel', 'pointerdown', 'pointerup',
                      'pointercancel', 'mousedown', 'mouseup', 'click', 'contextmenu', 'scroll']) {
    window.addEventListener(type, (e) => {
      const p = e.changedTouches ? e.changedTouches[0] : e;
      const at = p && p.clientX !== undefined ? ` at ${Math.round(p.clientX)},${Math.round(p.clientY)}` : '';
      if (window.__eeInput.length < 30)
        window.__eeInput.push([`${type} on ${name(e.target)}${at} (${Math.round(e.timeStamp)} ms)`, e]);
    }, true);
  } }"""


# the button had the tap's last touch and no handler cancelled any event since the tap
LOST_TAP = """() => window.__eeInput.some(([_, e]) => e.type === 'touchend' && e.target.closest
  && e.target.closest('.ee-dock-toggle')) && !window.__eeInput.some(([_, e]) => e.defaultPrevented)"""


def _tap(page, toggle, after: str) -> None:
    """Tap the dock's button; once more if Chromium made no click of the tap although the
    button had the touch and nothing cancelled it: in a few loaded visits in a hundred, on a
    page a few seconds old, the document sees ``pointerdown``, ``touchstart``, ``pointerup``
    and ``touchend`` on the button, none cancelled, then no ``mousedown``, ``mouseup`` or
    ``click`` (the page acts on the click); the same with the finger lifted 80 ms later, the
    events sent one by one. A second tap has always folded it. It is reported as a warning,
    with what the document saw, in the run's summary; a touch a handler cancelled, or a
    touch elsewhere, is not tapped again: the fold check says so."""
    clicks = page.evaluate("() => window.__eeTaps")
    toggle.tap()
    try:
        page.wait_for_function(
            "(n) => window.__eeTaps > n", arg=clicks, timeout=TAP_CLICK_TIMEOUT, polling=POLL_MS
        )
        return
    except Exception:
        pass
    if not page.evaluate(LOST_TAP):
        return
    warnings.warn(
        f"the dock's button: Chromium made no click of a tap on it; tapped again ("
        f"{page.evaluate(after)})",
        stacklevel=2,
    )
    page.evaluate("() => { window.__eeInput = []; }")
    toggle.tap()


def _folds(page, spec, problems: list[str]) -> None:
    """The dock's button folds it and unfolds it, and says so (``aria-expanded``); so does a
    button drawn anew (an HTML widget draws its markup again at any change of its model: a
    new element). A tap's click follows the touch events: each state is waited for, read
    from the elements there at each look (the button may be drawn anew meanwhile)."""
    toggle = page.locator(".ee-dock button.ee-dock-toggle")
    values = page.locator(".ee-dock .ee-dock-value >> visible=true")
    # open: the button says so, and the body is shown (a box drawn, not hidden)
    state = (
        "(open) => { const t = document.querySelector('.ee-dock button.ee-dock-toggle');"
        " const b = document.querySelector('.ee-dock .ee-dock-body');"
        " return !!t && !!b && t.getAttribute('aria-expanded') === String(open)"
        " && (b.getClientRects().length > 0 && getComputedStyle(b).visibility !== 'hidden')"
        " === open; }"
    )
    # the clicks the document sees on the button, and whether it was drawn anew, for the
    # message of a failure
    page.evaluate(INPUTS)
    after = (
        "() => { const d = document.querySelector('.ee-dock');"
        " const t = document.querySelector('.ee-dock button.ee-dock-toggle');"
        " const r = t && t.getBoundingClientRect();"
        " return `after: dock ${d && d.className}, aria-expanded ${t &&"
        " t.getAttribute('aria-expanded')}, clicks seen ${window.__eeTaps},"
        " button drawn anew ${!(t && t.dataset.eeProbe)}, button now at ${r && Math.round(r.top)};"
        " input since the tap: ${window.__eeInput.map(([seen, e]) => seen +"
        " (e.defaultPrevented ? ' (cancelled)' : '')).join(' | ') || 'none'}`; }"
    )

    def press(open: bool, problem: str) -> bool:
        where = _what_is_at(toggle)  # before the tap: what a finger would touch there
        toggle.evaluate("t => { t.dataset.eeProbe = '1'; window.__eeInput = []; }")
        if spec["phone"]:
            _tap(page, toggle, after)
        else:
            toggle.focus()
            page.keyboard.press("Enter")
        if _waited(page, state, problems, f"{problem}: {where}", open, timeout=FOLD_TIMEOUT):
            return True
        problems[-1] += "; " + page.evaluate(after)
        return False

    if not press(False, "the dock's button does not fold it (or does not say so)"):
        return
    if not values.count():
        problems.append("the folded dock shows no values")
    if not press(True, "the dock's button does not unfold it"):
        return
    # the widget draws the head's markup again (``update()``: its content's innerHTML)
    toggle.evaluate(
        "t => { const c = t.closest('.widget-html-content'); c.innerHTML = c.innerHTML; }"
    )
    if press(False, "a button drawn anew does not fold the dock"):
        press(True, "a button drawn anew does not unfold the dock")


def _keyboard(page, problems: list[str]) -> None:
    """The dock's controls take the focus with Tab, in order after its button, and show it."""
    page.locator(".ee-dock button.ee-dock-toggle").focus()
    shown = page.evaluate(
        "() => [...document.querySelectorAll('.ee-dock-item:not(.ee-dock-idle)"
        " :is(input, select, textarea, [role=slider], button)')]"
        ".filter(e => e.getBoundingClientRect().width > 0 && e.tabIndex >= 0)"
        ".length"
    )
    reached = 0
    for _ in range(shown + 2):
        page.keyboard.press("Tab")
        state = page.evaluate(
            "() => { const e = document.activeElement;"
            " const s = getComputedStyle(e);"
            " return [!!e.closest('.ee-dock-item'), s.outlineStyle !== 'none'"
            " && parseFloat(s.outlineWidth) >= 1 || s.boxShadow !== 'none']; }"
        )
        if state[0]:
            reached += 1
            if not state[1]:
                problems.append("a dock control shows no focus")
                return
    if reached < shown:
        problems.append(f"Tab reached {reached} of the dock's {shown} controls")


def _never_covers(page, problems: list[str]) -> None:
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    own = page.locator(".ee-app > * .widget-inline-hbox:not(.ee-dock *) >> visible=true").first
    _scrolled(page, "(e) => e.scrollIntoView({block: 'center'})", own.element_handle())
    _waited(page, AWAY, problems, "the dock covers the view's own controls")
    # the page's end, scrolled as far as it goes (it scrolls in a box of Voilà's): above
    # the dock's height, shown or not
    _scrolled(page, SCROLL, 10**9)
    room = page.locator("nav.ee-nav").last.evaluate(
        "(e) => [innerHeight - e.getBoundingClientRect().bottom,"
        " document.querySelector('.ee-dock').offsetHeight]"
    )
    if room[0] < room[1]:
        problems.append("the end of the page is under the dock")


def _tracks(page, problems: list[str]) -> None:
    """Every slider shown in the dock has a track to aim at (100 CSS px or more)."""
    short = page.evaluate(
        "() => [...document.querySelectorAll('.ee-dock .ee-dock-item:not("
        ".ee-dock-idle) .noUi-target')].map(e => e.getBoundingClientRect())"
        ".filter(r => r.height > 0).map(r => Math.round(r.width))"
        ".filter(w => w < 100)"
    )
    if short:
        problems.append(f"dock sliders with tracks of {short} px")


def dock_problems(page, spec: dict) -> list[str]:
    """What is wrong with the dock of the dashboard open in ``page`` (see the module);
    ``spec``: ``phone`` (a phone's emulation: taps), ``docked`` (the CSS names of the docked
    traits), ``bounds`` (the range of each docked
    number, by its CSS name: ``{"rated-games": (0, 1000)}``), ``key`` (the page has a key number,
    default true), ``axe`` (a function checking the page with axe-core, or ``None``),
    ``follows`` (a live table's CSS classes -> the CSS names of the traits it declares it
    follows: their controls are tried first)."""
    problems: list[str] = []
    page.locator(".ee-dock").wait_for(state="attached", timeout=TIMEOUT)
    page.locator(".ee-live").first.wait_for(state="attached", timeout=TIMEOUT)
    _first_screen(page, spec, problems)
    _tracks(page, problems)
    if spec["phone"]:
        _folds(page, spec, problems)
    else:
        _keyboard(page, problems)
        _folds(page, spec, problems)
    _go_to_the_result(page, spec, problems)
    table = page.locator(".ee-live").first
    _moves_the_table(page, table, spec, problems)
    if spec.get("axe"):
        try:
            spec["axe"](page)
        except AssertionError as exc:
            problems.append(f"axe-core, with the dock: {exc}")
    _never_covers(page, problems)
    return problems
