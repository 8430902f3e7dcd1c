"""The checks of what a page shows (``seen.py``) see what they must, on pages made here
(no server): Telugu drawn without a Telugu font is found, the same text in the page's Noto
Sans Telugu passes; IPython's history error in an output area is found, the page's own words
are not."""

from __future__ import annotations

import base64

from tests.site.seen import ROOT, glyph_problems, machine_telugu_fonts, python_text

TELUGU = "చెస్ Elo కాలిక్యులేటర్"  # te/01's title, boxes in the issue's run
FONT = ROOT / "elo_explain" / "data" / "fonts" / "NotoSansTelugu-Regular.ttf"  # the same file


def _page(browser, html: str):
    page = browser.new_page()
    page.set_content(f"<!doctype html><html><body>{html}</body></html>")
    return page


def test_this_machine_has_no_telugu_font():
    # else a page without a Telugu font of its own would pass the glyph check here
    assert machine_telugu_fonts() == []


def test_glyphs_telugu_without_a_font_is_found_with_the_pages_font_passes(browser):
    page = _page(
        browser,
        f'<h1 style="font-family: system-ui, sans-serif">{TELUGU}</h1>'
        "<p>Ελληνικά · Українська · 1500 − 1700 → ÷400</p>",
    )
    try:
        found = glyph_problems(page)
        assert any("its Telugu not drawn by the page's own font" in p for p in found), found
        assert any("in no font it was drawn with" in p for p in found), found
        assert all(TELUGU in p for p in found), found  # the Greek, Cyrillic, signs: drawn
    finally:
        page.close()
    data = base64.b64encode(FONT.read_bytes()).decode()
    page = _page(
        browser,
        "<style>@font-face { font-family: T; src: url(data:font/ttf;base64,"
        f"{data}); unicode-range: U+0C00-0C7F; }}</style>"
        f'<h1 style="font-family: T, system-ui, sans-serif">{TELUGU}</h1>',
    )
    try:
        assert glyph_problems(page) == []
    finally:
        page.close()


def test_python_text_finds_ipythons_message_not_the_pages_words(browser):
    message = (
        "The history saving thread hit an unexpected error (OperationalError('database "
        "is locked')).History will not be written to the database."
    )
    page = _page(
        browser,
        '<div class="jp-OutputArea-output" data-mime-type="text/html">'
        "<p>At 300 points up: ÷400 84.9 %</p></div>",
    )
    try:
        assert python_text(page) == []
        page.evaluate(
            "m => document.body.insertAdjacentHTML('beforeend', '<div class=\""
            'jp-OutputArea-output jp-RenderedText" data-mime-type="'
            "application/vnd.jupyter.stderr\"><pre>' + m + '</pre></div>')",
            message,
        )
        found = python_text(page)
        assert len(found) == 1 and "database is locked" in found[0], found
    finally:
        page.close()
