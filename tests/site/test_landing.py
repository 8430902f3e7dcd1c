"""The landing page: a card for every published dashboard (its picture, title and one line),
a grid on a desktop and one column on a phone; each language's cards show pictures of that
language's pages (the translated landing pages are opened in ``test_languages.py``)."""

import pytest
from PIL import Image, ImageOps

from harness import POLL_MS, NOTEBOOKS, TIMEOUT, assert_clean, open_dashboard
from elo_explain.dashboards import DASHBOARDS
from elo_explain.dashboards.index import CARDS, card_picture, published
from elo_explain.i18n import LANGUAGES


def test_published_notebooks_exist_and_are_listed():
    names = {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    assert "index.ipynb" in names
    # every notebook in notebooks/ is a published dashboard (nothing unlisted is served)
    assert names - {"index.ipynb"} == {d.notebook for d in published()}
    assert {d.notebook for d in published()} <= {d.notebook for d in DASHBOARDS}


def card_shows(notebook: str, lang: str = "en") -> tuple[int, int]:
    """The size (CSS px) of what a card's picture was taken from (its ``Shows`` note)."""
    with Image.open(CARDS / card_picture(notebook, lang)) as im:
        w, h = im.info["Shows"].split("x")
    return int(w), int(h)


def _pages(lang: str):
    """The dashboards with a page in ``lang``, and the page's notebook path."""
    return [(d, d.notebook if lang == "en" else f"{lang}/{d.notebook}") for d in published()
            if (NOTEBOOKS / ("" if lang == "en" else lang) / d.notebook).exists()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_has_a_picture_of_its_dashboard(lang):
    """Each card's picture is committed, and was taken from its own dashboard's page in the
    landing page's language (scripts/screenshots.py notes the page it was taken from in the
    PNG, and the size of the figure it shows: ``test_every_reader`` checks that size on the
    English page). The figure is whole: its frame in the card has the figure's proportions
    and reaches the card's sides or its top and bottom (scaled to fit, not cropped)."""
    pages = _pages(lang)
    assert len(pages) == len(published())  # every dashboard is translated
    for d, page in pages:
        path = CARDS / card_picture(d.notebook, lang)
        assert path.exists(), f"{path.name}: run make screenshots"
        with Image.open(path) as im:
            assert im.size == (480, 300)
            assert im.info.get("Source") == page
            w, h = card_shows(d.notebook, lang)
            ink = ImageOps.invert(im.convert("L")).point(lambda v: 255 if v > 12 else 0)
            x0, y0, x1, y1 = ink.getbbox()
        assert abs((x1 - x0) / (y1 - y0) - w / h) < 0.03 * w / h + 0.02, \
            f"{path.name}: {x1 - x0}×{y1 - y0} shows a {w}×{h} figure cropped"
        assert x1 - x0 >= 480 - 16 or y1 - y0 >= 300 - 16, f"{path.name}: not scaled to fit"


def _cards(page):
    return page.evaluate(
        "() => [...document.querySelectorAll('ol.ee-index li.ee-card')].map(li => {"
        " const a = li.querySelector('a'), img = li.querySelector('img.ee-card-picture');"
        " const r = li.getBoundingClientRect();"
        " return {href: a.getAttribute('href'), title: li.querySelector('.ee-card-title').innerText,"
        " line: li.querySelector('.ee-card-line').innerText, x: Math.round(r.left),"
        " y: Math.round(r.top), loaded: !!img && img.complete && img.naturalWidth === 480,"
        " src: img && img.getAttribute('src')}; })")


def test_landing_page_shows_a_card_per_dashboard(page, voila_url):
    open_dashboard(page, voila_url, "index.ipynb")
    text = assert_clean(page, "index.ipynb")
    assert "elo-explain" in text
    page.wait_for_function("() => [...document.querySelectorAll('img.ee-card-picture')]"
                           ".every(i => i.complete && i.naturalWidth > 0)", timeout=TIMEOUT, polling=POLL_MS)
    cards = _cards(page)
    assert [c["href"] for c in cards] == [d.notebook for d in published()]
    for c, d in zip(cards, published()):
        assert c["title"] == d.title and c["line"] == d.line
        assert c["loaded"] and c["src"].endswith("/static/cards/" + card_picture(d.notebook))
    assert len({c["x"] for c in cards}) >= 3, "a grid on a desktop"


def test_landing_page_is_one_column_on_a_phone(browser, voila_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_dashboard(page, voila_url, "index.ipynb")
        cards = _cards(page)
        assert len(cards) == len(published())
        assert len({c["x"] for c in cards}) == 1, "one column"
        assert [c["y"] for c in cards] == sorted(c["y"] for c in cards)
    finally:
        context.close()
