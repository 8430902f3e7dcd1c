"""Every page in Telugu, Ukrainian and Greek, through the published configuration.

Each page (the landing page and the ten dashboards) in each of te, uk and el is opened once,
on a phone (Playwright's emulation: 390 × 844, touch, scale 3), and that one load checks
everything a translated page must be: ``<html lang>`` names its language, and its title (the
tab's) is in it; no English of the
catalogs is left in its text (:func:`elo_explain.translate.english_left`; proper names and
units may stay); the language switch offers the same page in every language, the current one
marked; nothing scrolls sideways or sticks out past the screen; every request goes to the
page's own host and the console is clean (``console.py``); axe-core finds no serious or critical
violation (the checks of ``test_every_reader.py``); every rendered letter is drawn in a font
that has it, by Chromium's own record, on the phone and again at a desktop's width in the
same visit, and no output area shows Python's text (``seen.py``); a wide table's caption
stays in view as it scrolls; the landing page's cards show pictures of that language's pages.

The divisor page (03) is reached in each language through the switch, in one chain of
loads (te from a link, then uk, el and English from the switch), and each of its pages also
gets the documents' numbers in the language's format (the Greek Gammon42 document's version
history: ÷1200 and 300 points up, 64.0 %; ÷800, 70.3 %), a link's value, a typed value and
the link following it, a bad typed value's message in the page's language, and the switch
keeping the values the viewer changed.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK
from elo_explain.i18n import TRANSLATIONS
from elo_explain.server.languages import LANGUAGE_NAMES
from elo_explain.translate import english_left
from harness import POLL_MS, TIMEOUT, type_into
from tests.site.audit import (
    bad_query,
    check_the_bad_link_shown,
    check_typed_markup_inert,
    guard_dialogs,
)
from tests.site.document_facts import VOLUME_K, check_g10_at_the_defaults
from tests.site.seen import captions_out_of_view, glyph_problems, python_text
from tests.site.specs import SPECS
from tests.site.test_every_reader import (
    DESKTOP,
    PHONE,
    PHONE_LAYOUT,
    check_axe,
    check_card_pictures,
    check_self_contained,
    open_page,
    settle,
)

PAGES = [INDEX_NOTEBOOK] + [d.notebook for d in DASHBOARDS]
DIVISOR = "03_backgammon_divisor.ipynb"
# a letter of each language's own script: a message "in that language" has some
SCRIPT = {
    "te": re.compile("[\u0c00-\u0c7f]"),
    "uk": re.compile("[\u0400-\u04ff]"),
    "el": re.compile("[\u0370-\u03ff]"),
}
SWITCH = (
    "() => [...document.querySelectorAll('nav.ee-langs a.ee-lang')].map(a => ({"
    " lang: a.lang, hreflang: a.hreflang, text: a.textContent,"
    " href: a.getAttribute('href'), current: a.getAttribute('aria-current')}))"
)


def _switch_expected(notebook: str, lang: str) -> list[dict]:
    """The switch of ``lang``'s page ``notebook``: relative links to the same file name in
    each language's folder (English at the top), each language named in itself."""
    up = "" if lang == "en" else "../"
    rows = []
    for other, name in LANGUAGE_NAMES.items():
        href = (
            notebook
            if other == lang
            else up + (notebook if other == "en" else f"{other}/{notebook}")
        )
        rows.append(
            {
                "lang": other,
                "hreflang": other,
                "text": name,
                "href": href,
                "current": "page" if other == lang else None,
            }
        )
    return rows


# the page's text, and the text of its note on a link apart
NOTE_APART = """() => { const n = document.querySelector('.ee-query-note');
  const note = n ? n.innerText : ''; return [document.body.innerText.replace(note, ''), note]; }"""


def audit_translated_page(page, rec, base: str, lang: str, notebook: str) -> None:
    """Everything a translated page must be (the module's list), on the page open in
    ``page`` at a phone's size; it ends at a desktop's width."""
    assert page.evaluate("document.documentElement.lang") == lang
    # the tab's title (bookmarks, history, what a screen reader announces first): the
    # dashboard's title in the language, the site's name after it
    title = page.title()
    assert title.endswith("elo-explain") and english_left(title, lang) == [], title
    assert notebook == INDEX_NOTEBOOK or SCRIPT[lang].search(title), (
        f"the page's title is not in {lang}: {title!r}"
    )
    switch = page.evaluate(SWITCH)
    # the links carry the view's query once it has one: compare the paths
    assert [dict(s, href=s["href"].split("?")[0]) for s in switch] == _switch_expected(
        notebook, lang
    )
    m = page.evaluate(PHONE_LAYOUT)
    assert m["docWidth"] <= m["vw"], f"the page scrolls sideways: {m['docWidth']} > {m['vw']}"
    assert m["out"] == [], f"past the screen's edge: {m['out'][:5]}"
    assert captions_out_of_view(page) == [], "a wide table's caption scrolls away"
    if notebook == INDEX_NOTEBOOK:  # its cards show pictures of this language's pages
        check_card_pictures(page, lang)
    check_axe(page)
    check_self_contained(rec, base)
    # what is drawn: every letter in a font that has it (Telugu from the page's own
    # font, on a machine with none), no Python text in an output; on the phone, then in
    # the same visit at a desktop's width
    assert python_text(page) == []
    assert glyph_problems(page) == []
    page.set_viewport_size(DESKTOP["viewport"])
    page.wait_for_function(
        "w => document.documentElement.clientWidth === w",
        arg=DESKTOP["viewport"]["width"],
        timeout=TIMEOUT,
        polling=POLL_MS,
    )
    assert glyph_problems(page) == []
    # last: the one check other helpers' catalogs still decide; a bad link's note quotes
    # what a link may hold, the links' English keys (``'from games this week'``) as the
    # address has them, on purpose
    body, note = page.evaluate(NOTE_APART)
    left = english_left(body + "\n" + re.sub(r"'[^']*'", "", note), lang)
    assert left == [], f"{len(left)} English strings of the catalogs left: {left[:8]}"


# one page in each language with text boxes (a different dashboard each): every payload typed
# into every box, after the audit (the link's payloads are in every visit's bad link)
TYPED = {
    ("te", "01_chess_calculator.ipynb"),
    ("uk", "08_calibrate.ipynb"),
    ("el", "10_new_to_fide.ipynb"),
}


@pytest.mark.parametrize("notebook", [p for p in PAGES if p != DIVISOR])
@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translated_page_on_a_phone(devices, voila_url, lang, notebook):
    # a dashboard opened from a bad link with markup in every other setting (audit.py):
    # its note in the page's language, the markup inert; on three pages, markup typed too
    spec = SPECS.get(notebook)
    dialogs: list[str] = []
    context, page, rec = open_page(
        devices,
        voila_url,
        f"{lang}/{notebook}",
        PHONE,
        query=bad_query(notebook, spec) if spec else "",
        before=lambda p: guard_dialogs(p, dialogs),
    )
    try:
        if spec:
            check_the_bad_link_shown(page, spec, dialogs, SCRIPT[lang])
        if notebook == VOLUME_K:  # at its defaults (the bad link ignored): G10
            check_g10_at_the_defaults(page, lang)
        audit_translated_page(page, rec, voila_url, lang, notebook)
        if (lang, notebook) in TYPED:
            assert check_typed_markup_inert(page, dialogs, f"{lang}/{notebook}"), "no text box"
    finally:
        context.close()


# the divisor page's numbers, each language's way (1 / (1 + 10^(-d/divisor))):
# 300 up at ÷1000: 0.6661; 200 up at ÷1000: 0.6131; 200 up at ÷800: 0.6400;
# the Greek document's version history: 300 up at ÷1200 64.0 %, at ÷800 70.3 %
AT_300_1000 = {"te": "66.6%"}
AT_200_1000 = {"te": "61.3%", "uk": "61,3%", "el": "61,3%"}
# 1 / (1 + 10^(-200/800)) = 0.640
AT_200_800 = {"el": "64,0%", "en": "64.0 %"}


def _switch_to(page, other: str, query: str, up: str = "../") -> None:
    """Follow the language switch to ``other``'s divisor page, the view's ``query`` with it,
    at a phone's size (the audit before ended at a desktop's width)."""
    path = DIVISOR if other == "en" else f"{other}/{DIVISOR}"
    target = page.locator(f"nav.ee-langs a.ee-lang[lang={other}]")
    expect(target).to_have_attribute("href", f"{up}{path}{query}", timeout=TIMEOUT)
    page.set_viewport_size(PHONE["viewport"])
    target.click()
    page.wait_for_url(
        re.compile(rf"/voila/render/{re.escape(path)}{re.escape(query)}$"), timeout=TIMEOUT
    )
    settle(page)
    assert page.evaluate("document.documentElement.lang") == other


def _bad_value(page, lang: str) -> None:
    """A bad typed value: its message in the page's language, no catalog English in it."""
    type_into(page, ".ee-divisor-field", "abc")
    error = page.locator(".ee-divisor .ee-error")
    expect(error).to_contain_text("4000", timeout=TIMEOUT)
    message = error.inner_text()
    assert english_left(message, lang) == [], message
    assert SCRIPT[lang].search(message), f"not in {lang}: {message!r}"


def _decimal_comma(page) -> None:
    """The Greek document's version history with a decimal comma, typed (a link follows)."""
    summary = page.locator(".ee-summary")
    type_into(page, ".ee-difference-field", "300")
    type_into(page, ".ee-divisor-field", "1200")
    expect(summary).to_contain_text("64,0%", timeout=TIMEOUT)
    type_into(page, ".ee-divisor-field", "800")
    expect(summary).to_contain_text("70,3%", timeout=TIMEOUT)
    expect(page.locator(".ee-link")).to_have_attribute(
        "href", "?divisor=800&difference=300", timeout=TIMEOUT
    )


def test_the_divisor_page_in_every_language_through_the_switch(devices, voila_url):
    """The divisor page (03) in te, uk, el, then English, one page reached from the other by
    the language switch, each keeping the view: a link's values, a typed value, each
    language's numbers, a bad value's message in its language; each translated page gets
    the whole audit above."""
    summary = ".ee-summary"
    context, page, rec = open_page(
        devices, voila_url, f"te/{DIVISOR}", PHONE, query="?divisor=1000"
    )
    try:
        # Telugu, from a link: its value in the box, a typed one, the numbers with a point
        expect(page.locator(".ee-divisor-field input")).to_have_value("1000")
        expect(page.locator(summary)).to_contain_text(AT_300_1000["te"], timeout=TIMEOUT)
        type_into(page, ".ee-difference-field", "200")
        expect(page.locator(summary)).to_contain_text(AT_200_1000["te"], timeout=TIMEOUT)
        expect(page.locator(".ee-link")).to_have_attribute(
            "href", "?divisor=1000&difference=200", timeout=TIMEOUT
        )
        _bad_value(page, "te")
        audit_translated_page(page, rec, voila_url, "te", DIVISOR)
        # to Ukrainian, then Greek: the view the switch carried, a decimal comma, the
        # Greek document's numbers typed, the difference typed back for the next switch
        for lang, divisor, shown in (
            ("uk", "1000", AT_200_1000["uk"]),
            ("el", "800", AT_200_800["el"]),
        ):
            _switch_to(page, lang, f"?divisor={divisor}&difference=200")
            expect(page.locator(".ee-difference-field input")).to_have_value("200")
            expect(page.locator(".ee-divisor-field input")).to_have_value(divisor)
            expect(page.locator(summary)).to_contain_text(shown, timeout=TIMEOUT)
            _bad_value(page, lang)
            _decimal_comma(page)  # leaves ÷800
            type_into(page, ".ee-difference-field", "200")
            audit_translated_page(page, rec, voila_url, lang, DIVISOR)
        # and to English, the same view
        _switch_to(page, "en", "?divisor=800&difference=200")
        expect(page.locator(summary)).to_contain_text(AT_200_800["en"], timeout=TIMEOUT)
        assert [
            dict(s, href=s["href"].split("?")[0]) for s in page.evaluate(SWITCH)
        ] == _switch_expected(DIVISOR, "en")
        # the English page's switch: the other languages' folders, the view with them
        for other in TRANSLATIONS:
            expect(page.locator(f"nav.ee-langs a.ee-lang[lang={other}]")).to_have_attribute(
                "href", f"{other}/{DIVISOR}?divisor=800&difference=200", timeout=TIMEOUT
            )
        check_self_contained(rec, voila_url)
    finally:
        context.close()
