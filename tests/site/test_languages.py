"""Every page in Telugu, Ukrainian and Greek, through the published configuration (issue 21,
points 1 and 6).

Each page (the landing page and the ten dashboards) in each of te, uk and el is opened once,
on a phone (Playwright's emulation: 390 × 844, touch, scale 3), and that one load checks
everything a translated page must be: ``<html lang>`` names its language; no English of the
catalogs is left in its text (:func:`elo_explain.translate.english_left`; proper names and
units may stay); the language switch offers the same page in every language, the current one
marked; nothing scrolls sideways or sticks out past the screen; every request goes to the
page's own host and nothing is logged as an error; axe-core finds no serious or critical
violation (the checks of ``test_every_reader.py``); every rendered letter is drawn in a font
that has it, by Chromium's own record, on the phone and again at a desktop's width in the
same visit, and no output area shows Python's text (``seen.py``); a wide table's caption
stays in view as it scrolls; the landing page's cards show pictures of that language's pages.

Then the documents' numbers in each language's format (the Greek Gammon42 document's
version history: ÷1200 and 300 points up, 64.0 %; ÷800, 70.3 %), a link with a changed value,
a bad typed value's message in the page's language, and the language switch keeping a value
the viewer changed.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from harness import TIMEOUT, open_link, type_into
from tests.site.seen import captions_out_of_view, glyph_problems, python_text
from tests.site.test_every_reader import (
    DESKTOP, PHONE, PHONE_LAYOUT, check_axe, check_self_contained, open_page,
)
from tests.site.test_landing import _cards

from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK
from elo_explain.dashboards.index import card_picture, published
from elo_explain.i18n import TRANSLATIONS
from elo_explain.server.languages import LANGUAGE_NAMES
from elo_explain.translate import english_left

PAGES = [INDEX_NOTEBOOK] + [d.notebook for d in DASHBOARDS]
DIVISOR = "03_backgammon_divisor.ipynb"
# a letter of each language's own script: a message "in that language" has some
SCRIPT = {"te": re.compile("[\u0c00-\u0c7f]"), "uk": re.compile("[\u0400-\u04ff]"),
          "el": re.compile("[\u0370-\u03ff]")}
SWITCH = ("() => [...document.querySelectorAll('nav.ee-langs a.ee-lang')].map(a => ({"
          " lang: a.lang, hreflang: a.hreflang, text: a.textContent,"
          " href: a.getAttribute('href'), current: a.getAttribute('aria-current')}))")


def _switch_expected(notebook: str, lang: str) -> list[dict]:
    """The switch of ``lang``'s page ``notebook``: relative links to the same file name in
    each language's folder (English at the top), each language named in itself."""
    up = "" if lang == "en" else "../"
    rows = []
    for other, name in LANGUAGE_NAMES.items():
        href = notebook if other == lang else up + (notebook if other == "en"
                                                     else f"{other}/{notebook}")
        rows.append({"lang": other, "hreflang": other, "text": name, "href": href,
                     "current": "page" if other == lang else None})
    return rows


@pytest.mark.parametrize("notebook", PAGES)
@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translated_page_on_a_phone(browser, voila_url, lang, notebook):
    context, page, rec = open_page(browser, voila_url, f"{lang}/{notebook}", PHONE)
    try:
        assert page.evaluate("document.documentElement.lang") == lang
        switch = page.evaluate(SWITCH)
        # the links carry the view's query once it has one: compare the paths
        assert [dict(s, href=s["href"].split("?")[0]) for s in switch] == \
            _switch_expected(notebook, lang)
        m = page.evaluate(PHONE_LAYOUT)
        assert m["docWidth"] <= m["vw"], f"the page scrolls sideways: {m['docWidth']} > {m['vw']}"
        assert m["out"] == [], f"past the screen's edge: {m['out'][:5]}"
        assert captions_out_of_view(page) == [], "a wide table's caption scrolls away"
        if notebook == INDEX_NOTEBOOK:  # its cards show pictures of this language's pages
            page.wait_for_function("() => [...document.querySelectorAll('img.ee-card-picture')]"
                                   ".every(i => i.complete && i.naturalWidth > 0)", timeout=TIMEOUT)
            cards = _cards(page)
            assert [c["href"] for c in cards] == [d.notebook for d in published()]
            for c in cards:
                assert c["loaded"] and c["src"].endswith(
                    "/static/cards/" + card_picture(c["href"], lang)), c
        check_axe(page)
        check_self_contained(rec, voila_url)
        # what is drawn: every letter in a font that has it (Telugu from the page's own
        # font, on a machine with none), no Python text in an output; on the phone, then in
        # the same visit at a desktop's width
        assert python_text(page) == []
        assert glyph_problems(page) == []
        page.set_viewport_size(DESKTOP["viewport"])
        page.wait_for_function("w => document.documentElement.clientWidth === w",
                               arg=DESKTOP["viewport"]["width"], timeout=TIMEOUT)
        assert glyph_problems(page) == []
        # last: the one check other helpers' catalogs still decide
        left = english_left(page.inner_text("body"), lang)
        assert left == [], f"{len(left)} English strings of the catalogs left: {left[:8]}"
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["uk", "el"])
def test_the_documents_numbers_with_a_decimal_comma(page, voila_url, lang):
    # Greek document, version history: ÷1200 and 300 points up, 64.0 %
    open_link(page, voila_url, f"{lang}/{DIVISOR}", "")
    summary = page.locator(".ee-summary")
    expect(summary).to_contain_text("64,0%", timeout=TIMEOUT)
    # the same at ÷800: 70.3 % (typed with the language's own digits; a link follows)
    type_into(page, ".ee-divisor-field", "800")
    expect(summary).to_contain_text("70,3%", timeout=TIMEOUT)
    expect(page.locator(".ee-link")).to_have_attribute("href", "?divisor=800&difference=300")


# 1 / (1 + 10^(-300/1000)) = 0.6661: 66.6 %, each language's way
AT_1000 = {"te": "66.6%", "uk": "66,6%", "el": "66,6%"}
# 1 / (1 + 10^(-200/1000)) = 0.6131: 61.3 %
AT_200_1000 = {"te": "61.3%", "uk": "61,3%", "el": "61,3%"}


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_link_the_switch_and_a_bad_value_in_each_language(page, voila_url, lang):
    open_link(page, voila_url, f"{lang}/{DIVISOR}", "?divisor=1000")
    summary = page.locator(".ee-summary")
    expect(summary).to_contain_text(AT_1000[lang], timeout=TIMEOUT)
    expect(page.locator(".ee-divisor-field input")).to_have_value("1000")

    # the viewer changes a value, then follows the switch to the next language: same view
    type_into(page, ".ee-difference-field", "200")
    expect(page.locator(".ee-link")).to_have_attribute("href", "?divisor=1000&difference=200",
                                                       timeout=TIMEOUT)
    other = TRANSLATIONS[(TRANSLATIONS.index(lang) + 1) % len(TRANSLATIONS)]
    target = page.locator(f"nav.ee-langs a.ee-lang[lang={other}]")
    expect(target).to_have_attribute("href", f"../{other}/{DIVISOR}?divisor=1000&difference=200")
    target.click()
    page.wait_for_url(re.compile(rf"/voila/render/{other}/{DIVISOR}\?"), timeout=TIMEOUT)
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == other
    expect(page.locator(".ee-difference-field input")).to_have_value("200")
    expect(page.locator(".ee-divisor-field input")).to_have_value("1000")
    expect(summary).to_contain_text(AT_200_1000[other], timeout=TIMEOUT)

    # a bad typed value: its message in the page's language, no catalog English in it
    type_into(page, ".ee-divisor-field", "abc")
    error = page.locator(".ee-divisor .ee-error")
    expect(error).to_contain_text("4000", timeout=TIMEOUT)
    message = error.inner_text()
    assert english_left(message, other) == [], message
    assert SCRIPT[other].search(message), f"not in {other}: {message!r}"


def test_the_english_pages_name_their_language_and_switch(page, voila_url):
    open_link(page, voila_url, DIVISOR, "?divisor=800")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert [dict(s, href=s["href"].split("?")[0]) for s in page.evaluate(SWITCH)] == \
        _switch_expected(DIVISOR, "en")
    type_into(page, ".ee-difference-field", "200")
    target = page.locator("nav.ee-langs a.ee-lang[lang=el]")
    expect(target).to_have_attribute("href", f"el/{DIVISOR}?divisor=800&difference=200",
                                     timeout=TIMEOUT)
    target.click()
    page.wait_for_url(re.compile(rf"/voila/render/el/{DIVISOR}\?divisor=800&difference=200$"),
                      timeout=TIMEOUT)
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == "el"
    # 1 / (1 + 10^(-200/800)) = 0.640
    expect(page.locator(".ee-summary")).to_contain_text("64,0%", timeout=TIMEOUT)
    # and back to English, the same view
    page.locator("nav.ee-langs a.ee-lang[lang=en]").click()
    page.wait_for_url(re.compile(rf"/voila/render/{DIVISOR}\?divisor=800&difference=200$"),
                      timeout=TIMEOUT)
    page.wait_for_selector(".ee-ready", state="visible", timeout=TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator(".ee-summary")).to_contain_text("64.0 %", timeout=TIMEOUT)
