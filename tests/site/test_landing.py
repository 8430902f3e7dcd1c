"""The landing page: a card for every published dashboard (its picture, title and one line),
each language's cards show pictures of that language's pages. The page itself is opened in
the landing page's visit of ``test_every_reader.py`` (``check_the_cards``: every card, its
title, line and picture; one column on a phone, a grid on a desktop) and the translated ones
in ``test_languages.py``."""

import pytest
from PIL import Image, ImageOps

from elo_explain.dashboards import DASHBOARDS
from elo_explain.dashboards.index import CARDS, card_picture, published
from elo_explain.i18n import LANGUAGES
from harness import NOTEBOOKS


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
    return [
        (d, d.notebook if lang == "en" else f"{lang}/{d.notebook}")
        for d in published()
        if (NOTEBOOKS / ("" if lang == "en" else lang) / d.notebook).exists()
    ]


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
        assert abs((x1 - x0) / (y1 - y0) - w / h) < 0.03 * w / h + 0.02, (
            f"{path.name}: {x1 - x0}×{y1 - y0} shows a {w}×{h} figure cropped"
        )
        assert x1 - x0 >= 480 - 16 or y1 - y0 >= 300 - 16, f"{path.name}: not scaled to fit"
