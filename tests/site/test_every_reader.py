"""Every page works on a phone and for every reader, the dock included,
one visit a page checking all of it.

Each page (the landing page and every dashboard) is opened once in headless Chromium, on a
phone (Playwright's emulation: 390 × 844 CSS px, device scale 3, touch), from its spec's link
(``specs/``: the link's view, then one control step and what it changes), and checked there;
then the same page is widened to a desktop's window (1280 × 1000: the page's layout follows
the width alone) and checked again, once the view has drawn its figures for that width.
On the phone: nothing scrolls sideways or sticks out past the screen's edge (a wide table
scrolls inside its own frame, its first column and its caption kept in view), labelled
controls stack in one column, text boxes have a font of 16 px or more (no zoom on focus),
sliders are long enough to aim and show their value, figures fit the screen at twice its
pixels (sharp), a touch drag moves a slider and the view follows, and the dock (``dock.py``:
its first screen, a control on the screen of the first live table moving it, its button,
never covering; axe-core, the phone's run, after it was folded, unfolded and moved) works with taps.
At the desktop's width: the page's title; a dashboard speaks to a viewer (``viewer_text.py``:
no code, no instructions for code readers, no Python output), shows the documents' facts where
a reader looks for them (``document_facts.py``; those shown only at the defaults in the
translated visits, which open the page there) and links its neighbours; its first figure is
its card's on the landing page; every control has a name; every letter is drawn in a font
that has it, by Chromium's own record (``seen.py``); the keyboard alone (``keyboard.py``: every
control reached with Tab and showing it, a choice and a slider changed with keys) and the
dock with the keyboard. On both: every figure has a text alternative with numbers, axe-core
(the npm package, ``package.json``, injected into the page) reports no serious or critical
violation, no output area shows Python's text; over the visit, every request goes to the
page's own host and nothing is logged to the console but Voilà 0.5.13's own known warnings
(``console.py``). A bad link is opened in each translated visit (``test_languages.py``), its
English words asserted without a browser (``tests/models/test_bad_links.py``).
"""

from __future__ import annotations

import re
from importlib.metadata import version
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK
from elo_explain.dashboards.index import card_picture, published
from harness import POLL_MS, READY, ROOT, TIMEOUT, assert_clean, open_dashboard
from tests.site.audit import check_the_link, take_the_step
from tests.site.console import unexpected
from tests.site.dock import dock_problems
from tests.site.document_facts import FACTS, check_the_documents_facts
from tests.site.keyboard import keyboard_problems
from tests.site.seen import captions_out_of_view, glyph_problems, python_text
from tests.site.specs import SPECS
from tests.site.test_way_around import check_the_way_around
from tests.site.viewer_text import check_speaks_to_a_viewer

PAGES = [INDEX_NOTEBOOK] + [d.notebook for d in DASHBOARDS]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 1000}}


class Recorder:
    """Every request's host, and every console message and uncaught exception of the page
    now loaded (from its load on: what a page being left logs as it goes is not its
    successor's)."""

    def __init__(self, page):
        self.hosts: set[str] = set()
        self.messages: list[tuple[str, str]] = []
        page.on("framenavigated", lambda f: self.messages.clear() if f == page.main_frame else None)
        page.on(
            "request",
            lambda r: (
                self.hosts.add(urlsplit(r.url).netloc)
                if urlsplit(r.url).scheme in ("http", "https", "ws", "wss")
                else None
            ),
        )
        page.on("console", lambda m: self.messages.append((m.type, m.text)))
        page.on("pageerror", lambda e: self.messages.append(("pageerror", str(e))))


def open_page(devices, base: str, notebook: str, device: dict, query: str = "", before=None):
    """Open ``notebook`` (with a link's ``query``) in a new page on ``device`` (its profile
    of ``devices``, the session's); ``before(page)`` runs before the page loads (a dialog
    guard). Returns the visit (``close()`` it), the page and its :class:`Recorder`."""
    context = devices.visit(device)
    page = context.new_page()
    rec = Recorder(page)
    if before is not None:
        before(page)
    open_dashboard(page, base, notebook + query)
    settle(page)
    return context, page, rec


def settle(page) -> None:
    """Wait until a loaded page's figures are drawn, and (on a narrow screen) laid out for
    it: no image wider than its page, and drawn for the phone (twice its pixels), not the
    desktop's figure scaled down before the view heard the page's width; then until its
    network is idle."""
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT)
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.ee-plot')].every(i => i.getAttribute('src')"
        " && i.naturalWidth > 0 && i.getBoundingClientRect().width <="
        " document.documentElement.clientWidth && (document.documentElement.clientWidth > 700"
        " || i.naturalWidth >= 2 * i.getBoundingClientRect().width - 2))",
        timeout=TIMEOUT,
        polling=POLL_MS,
    )
    page.wait_for_load_state("networkidle", timeout=TIMEOUT)


def check_self_contained(rec: Recorder, base: str) -> None:
    """Every request to the page's own host; a clean console (``console.py``: no error, no
    uncaught exception, no warning but Voilà 0.5.13's own known ones)."""
    own = urlsplit(base).netloc
    assert rec.hosts and rec.hosts <= {own}, f"requests to other hosts: {rec.hosts - {own}}"
    bad = unexpected(rec.messages, version("voila"))
    assert not bad, "the console: " + "\n".join(bad[:5])


MODERATE = ("heading-order", "region", "landmark-unique", "empty-table-header")
"""axe-core's moderate findings that fail too: headings in order (the issue's own
requirement), everything inside a landmark (the cells are the page's ``<main>``, the links
around them its two ``<nav>``), each landmark named apart, no empty table header."""


def check_axe(page) -> None:
    """No serious or critical axe-core violation, nor one of :data:`MODERATE`."""
    assert AXE.exists(), "axe-core is missing: make test installs it (npm ci)"
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        "async (moderate) => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical' || moderate.includes(v.id))"
        ".map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ')).join(' | '))",
        list(MODERATE),
    )
    assert violations == [], "\n".join(violations)


def check_alt_texts(page) -> None:
    """Every figure says in words what it shows, with its numbers."""
    alts = page.evaluate(
        "() => [...document.querySelectorAll('img.ee-plot, img.ee-figure')]"
        ".filter(i => i.getBoundingClientRect().width > 0).map(i => i.alt)"
    )
    for alt in alts:
        assert len(alt) > 20 and re.search(r"\d", alt), f"figure without a useful alt: {alt!r}"


PHONE_LAYOUT = """() => {
  const vw = document.documentElement.clientWidth;
  const framed = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll') return a; }
    return null; };
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const app = [...document.querySelectorAll('.ee-app *')].filter(shown);
  const name = e => e.tagName + '.' + [...e.classList].slice(-2).join('.') + ' "' +
    (e.innerText || '').slice(0, 30) + '"';
  // sticking out past the screen (not inside a frame that scrolls: a wide table)
  const out = app.filter(e => e.getBoundingClientRect().right > vw + 0.5 && !framed(e)).map(name);
  // scrolling sideways: only a table's own frame may
  const scrolling = [...document.querySelectorAll('*')].filter(e => shown(e) &&
      ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1
      && e.tagName !== 'TABLE').map(name);
  // a framed table keeps its first column in view
  const tables = [...document.querySelectorAll('table.ee-table')].filter(t => shown(t) &&
      t.scrollWidth > t.clientWidth + 1).map(t => getComputedStyle(t.querySelector('tr > :first-child')).position);
  // labelled controls in one column: no two side by side
  const controls = [...document.querySelectorAll('.ee-app .widget-inline-hbox')].filter(e => shown(e)
      && !e.closest('.ee-bound > .ee-number') && e.querySelector(':scope > .widget-label')
      && e.querySelector(':scope > .widget-label').textContent.trim()).map(e => e.getBoundingClientRect());
  let side = 0;
  for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) {
    const a = controls[i], b = controls[j];
    if (a.top < b.bottom - 2 && b.top < a.bottom - 2 && (a.right <= b.left + 2 || b.right <= a.left + 2)) side++;
  }
  const fonts = [...document.querySelectorAll('.ee-app input:not([type=file]):not([type=checkbox]), .ee-app select, .ee-app textarea')]
      .filter(shown).map(e => parseFloat(getComputedStyle(e).fontSize));
  const tracks = [...document.querySelectorAll('.ee-app .widget-slider .noUi-target')].filter(shown)
      .map(e => Math.round(e.getBoundingClientRect().width));
  const figures = [...document.querySelectorAll('img.ee-plot')].filter(shown)
      .map(i => [Math.round(i.getBoundingClientRect().width), i.naturalWidth]);
  return {vw, docWidth: document.documentElement.scrollWidth, out, scrolling, tables, side,
          fonts, tracks, figures};
}"""

PICTURES = """async () => Promise.all([...document.querySelectorAll('img.ee-figure')]
  .filter(i => i.getBoundingClientRect().width > 0).map(async i => {
    const raw = new Image(); raw.src = i.currentSrc; await raw.decode();
    return [i.getBoundingClientRect().width, raw.naturalWidth, i.naturalWidth]; }))"""


def touch_drag(page, context, handle) -> None:
    """Drag a slider's handle 60 CSS px with one finger (Chromium's touch input): to the
    right, or to the left from the slider's end."""
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    way = (
        -1 if handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax") else 1
    )
    cdp = context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 7):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": x + way * 10 * step, "y": y}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize("notebook", PAGES)
def test_on_a_phone_then_a_desktop(devices, voila_url, notebook):
    """One visit: the page opened from its spec's link on a phone, checked there, then the
    same page at a desktop's width (``to_a_desktop``) and checked again."""
    spec = None if notebook == INDEX_NOTEBOOK else SPECS[notebook]
    context, page, rec = open_page(
        devices, voila_url, notebook, PHONE, query=spec.link if spec else ""
    )
    try:
        on_a_phone(page, context, notebook, spec)
        to_a_desktop(page, notebook)
        on_a_desktop(page, notebook)
        check_self_contained(rec, voila_url)
    finally:
        context.close()


def on_a_phone(page, context, notebook: str, spec) -> None:
    """The phone's checks of a page opened from ``spec.link`` (the module's list)."""
    if spec:  # opened from a link: the link's view, then one control step (specs/)
        check_the_link(page, spec)
        take_the_step(page, spec)
    m = page.evaluate(PHONE_LAYOUT)
    assert m["docWidth"] <= m["vw"], f"the page scrolls sideways: {m['docWidth']} > {m['vw']}"
    assert m["out"] == [], f"past the screen's edge: {m['out'][:5]}"
    assert m["scrolling"] == [], f"scrolls sideways inside: {m['scrolling'][:5]}"
    assert all(p == "sticky" for p in m["tables"]), "a wide table loses its first column"
    assert captions_out_of_view(page) == [], "a wide table's caption scrolls away"
    assert m["side"] == 0, "controls side by side on a phone"
    assert all(f >= 16 for f in m["fonts"]), f"text boxes under 16 px: {m['fonts']}"
    assert all(t >= 200 for t in m["tracks"]), f"sliders too short to aim: {m['tracks']}"
    for shown_width, pixels in m["figures"]:  # fits the screen, twice its pixels: sharp
        assert shown_width <= m["vw"] - 10 and pixels >= 2 * shown_width - 2
    for shown_width, pixels, natural in page.evaluate(PICTURES):
        # a notebook cell's figure: its phone drawing, twice the pixels, not enlarged
        # (laid out for the width it is shown at: text of 10 CSS px or more)
        assert shown_width <= m["vw"] - 10 and pixels >= 2 * shown_width - 2
        assert shown_width <= natural + 0.5
    check_alt_texts(page)
    opening = None
    if notebook == "01_chess_calculator.ipynb":  # its slider is in the average mode
        average = page.get_by_role("button", name=re.compile("average", re.I)).first
        opening = average.locator("xpath=..").locator(".mod-active").first.inner_text()
        average.click()
    if notebook != INDEX_NOTEBOOK:
        # a touch drag of the first slider: its value moves, and the view follows
        bound = page.locator(".ee-app .ee-bound >> visible=true").first
        if bound.count():
            field = bound.locator(".ee-number input")
            before = field.input_value()
            touch_drag(page, context, bound.locator(".noUi-handle"))
            expect(field).not_to_have_value(before, timeout=TIMEOUT)
        else:
            handle = page.locator(".ee-app .noUi-handle >> visible=true").first
            before = handle.get_attribute("aria-valuenow")
            touch_drag(page, context, handle)
            expect(handle).not_to_have_attribute("aria-valuenow", before, timeout=TIMEOUT)
        page.wait_for_function(
            "() => !document.querySelector('.ee-status') ||"
            " document.querySelector('.ee-status').innerText.trim() === ''",
            timeout=TIMEOUT,
            polling=POLL_MS,
        )
    if opening:  # back to the mode the page opened in (the desktop's keyboard walk starts there)
        page.get_by_role("button", name=opening, exact=True).first.click()
    assert python_text(page) == []
    if notebook == INDEX_NOTEBOOK:
        check_the_cards(page, phone=True)
        check_axe(page)
    else:  # axe-core on the phone once, after the dock was folded, unfolded and moved
        problems = dock_problems(page, dock_spec(notebook, phone=True))
        assert problems == [], f"the dock, on a phone: {problems}"


CARDS = (
    "() => [...document.querySelectorAll('ol.ee-index li.ee-card')].map(li => {"
    " const a = li.querySelector('a'), img = li.querySelector('img.ee-card-picture');"
    " const r = li.getBoundingClientRect();"
    " return {href: a.getAttribute('href'), title: li.querySelector('.ee-card-title').innerText,"
    " line: li.querySelector('.ee-card-line').innerText, x: Math.round(r.left),"
    " y: Math.round(r.top), loaded: !!img && img.complete && img.naturalWidth === 480,"
    " src: img && img.getAttribute('src')}; })"
)


def check_card_pictures(page, lang: str = "en") -> list[dict]:
    """A landing page's cards: one for every published dashboard, in the list's order, each
    with its picture of ``lang``'s page, loaded. Returns the cards (:data:`CARDS`)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.ee-card-picture')]"
        ".every(i => i.complete && i.naturalWidth > 0)",
        timeout=TIMEOUT,
        polling=POLL_MS,
    )
    cards = page.evaluate(CARDS)
    assert [c["href"] for c in cards] == [d.notebook for d in published()]
    for c in cards:
        assert c["loaded"] and c["src"].endswith(
            "/static/cards/" + card_picture(c["href"], lang)
        ), c
    return cards


def check_the_cards(page, phone: bool) -> None:
    """The English landing page: every card (:func:`check_card_pictures`) with its dashboard's
    title and line; one column on a phone, in order down the screen; a grid on a desktop."""
    cards = check_card_pictures(page)
    for c, d in zip(cards, published()):
        assert c["title"] == d.title and c["line"] == d.line
    if phone:
        assert len({c["x"] for c in cards}) == 1, "one column on a phone"
        assert [c["y"] for c in cards] == sorted(c["y"] for c in cards)
    else:
        assert len({c["x"] for c in cards}) >= 3, "a grid on a desktop"


NO_KEY_NUMBER = {"09_simulate_ladder.ipynb"}  # a season is run: its controls are its offer


def dock_spec(notebook: str, phone: bool) -> dict:
    """What ``dock.dock_problems`` needs of a dashboard: its docked traits' CSS names and the
    range of each docked number (from its model), whether it has a key number; axe-core after
    the dock was used, on the phone (the visit's own run had the dock untouched)."""
    from tests.models.test_dock import PAGES as VIEWS

    model, view, _shown = VIEWS[notebook]
    traits = model.class_traits()
    bounds = {
        name.replace("_", "-"): (traits[name].lo, traits[name].hi)
        for name in view.docked
        if hasattr(traits[name], "lo")
    }

    def follows(classes: list[str]) -> set[str]:
        methods = [
            c.removeprefix("ee-live-").replace("-", "_")
            for c in classes
            if c.startswith("ee-live-")
        ]
        found = [getattr(model, m, None) or getattr(model, "_" + m, None) for m in methods]
        return {
            t.replace("_", "-")
            for f in found
            if f is not None
            for t in getattr(getattr(f, "fget", f), "depends", None) or ()
        }

    return {
        "phone": phone,
        "axe": check_axe if phone else None,
        "key": notebook not in NO_KEY_NUMBER,
        "bounds": bounds,
        "docked": [t.replace("_", "-") for t in view.docked],
        "follows": follows,
    }


TITLES = {
    INDEX_NOTEBOOK: "elo-explain",
    **{d.notebook: f"{d.title} · elo-explain" for d in DASHBOARDS},
}


def test_every_notebook_names_its_topic():
    """The notebook's metadata ``title`` (the page's title: nbconvert's template shows it)
    names the dashboard as the landing page does, the translated landing pages included."""
    import nbformat

    for notebook in [*PAGES, *(f"{lang}/{INDEX_NOTEBOOK}" for lang in ("te", "uk", "el"))]:
        nb = nbformat.read(ROOT / "notebooks" / notebook, as_version=4)
        assert nb.metadata.get("title") == TITLES[notebook.rsplit("/", 1)[-1]], notebook


def to_a_desktop(page, notebook: str) -> None:
    """The page open on a phone, now at a desktop's window (its layout follows the window's size
    alone: its CSS and script ask ``max-width: 700px`` and the dock ``max-height: 500px`` too,
    nothing of touch or pixel ratio): the dock shows every docked control at once; once the
    view has heard it: every figure drawn again for the desktop (its own pixels, not the
    phone's twice), laid out; the network idle."""
    page.set_viewport_size(DESKTOP["viewport"])
    page.wait_for_function(
        "w => document.documentElement.clientWidth === w",
        arg=DESKTOP["viewport"]["width"],
        timeout=TIMEOUT,
        polling=POLL_MS,
    )
    # the dock, at once (no scroll): every docked control, as a desktop's bar has room for all
    expect(page.locator(".ee-dock .ee-dock-item.ee-dock-idle")).to_have_count(0, timeout=5_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.ee-plot')].every(i => i.naturalWidth > 0"
        " && i.naturalWidth < 1.5 * i.getBoundingClientRect().width)",
        timeout=TIMEOUT,
        polling=POLL_MS,
    )
    settle(page)


def on_a_desktop(page, notebook: str) -> None:
    """The desktop's checks (the module's list) of the page :func:`to_a_desktop` resized."""
    assert page.title() == TITLES[notebook]
    if notebook != INDEX_NOTEBOOK:  # its words are for a viewer; the way around
        check_speaks_to_a_viewer(page, notebook)
        check_the_way_around(page.content(), notebook)
    if notebook in FACTS:
        check_the_documents_facts(page, notebook)
    check_alt_texts(page)
    if notebook == INDEX_NOTEBOOK:
        check_the_cards(page, phone=False)
        # no notebook source in its HTML or its visible text; the site's name in its text
        assert "elo-explain" in assert_clean(page, notebook)
    if notebook != INDEX_NOTEBOOK and page.locator("img.ee-plot").count():
        # its card on the landing page shows this page's first figure, whole
        from tests.site.test_landing import card_shows

        size = page.locator("img.ee-plot").first.evaluate(
            "i => [Math.round(i.getBoundingClientRect().width),"
            " Math.round(i.getBoundingClientRect().height)]"
        )
        shows = card_shows(notebook)  # (a screenshot of an element: a pixel more or less)
        assert all(abs(a - b) <= 2 for a, b in zip(size, shows)), (size, shows)
    # the keyboard alone: every control can take the focus, each has a name
    unnamed = page.evaluate(
        "() => [...document.querySelectorAll('.ee-app input, .ee-app select, .ee-app textarea,"
        " .ee-app button, .ee-app [role=slider]')].filter(e => e.getBoundingClientRect().width > 0"
        " && (e.tabIndex < 0 || !(e.getAttribute('aria-label') || (e.labels && e.labels.length"
        " && e.labels[0].textContent.trim()) || e.textContent.trim() || e.title)))"
        ".map(e => e.outerHTML.slice(0, 80))"
    )
    assert unnamed == [], unnamed
    # what is drawn: every letter in a font that has it (the language switch's Telugu,
    # Ukrainian and Greek too), no Python text in an output
    assert glyph_problems(page) == []
    assert python_text(page) == []
    check_axe(page)
    problems = keyboard_problems(page, dashboard=notebook != INDEX_NOTEBOOK)
    assert problems == [], f"the keyboard alone: {problems}"
    if notebook != INDEX_NOTEBOOK:
        problems = dock_problems(page, dock_spec(notebook, phone=False))
        assert problems == [], f"the dock, on a desktop: {problems}"


def test_link_to_this_view_is_a_link_with_a_copy_button(browser, voila_url):
    """ "Link to this view" looks like a link (underlined, the links' blue) and its button
    copies the view's full address, settings included."""
    context = browser.new_context(**DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        open_dashboard(page, voila_url, "03_backgammon_divisor.ipynb")
        link = page.locator("a.ee-link")
        style = link.evaluate(
            "a => [getComputedStyle(a).textDecorationLine, getComputedStyle(a).color]"
        )
        assert "underline" in style[0] and style[1] == "rgb(26, 95, 180)"
        href = link.get_attribute("href")
        assert "divisor=1200" in href
        page.locator("button.ee-copy").click()
        expect(page.locator("button.ee-copy")).to_have_text("Link copied", timeout=TIMEOUT)
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{voila_url}/voila/render/03_backgammon_divisor.ipynb{href}"
    finally:
        context.close()
