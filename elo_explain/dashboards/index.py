"""The landing page: a card per published dashboard (its picture, title and one line; a grid
on a desktop, one column on a phone), in the page's language.

A translated landing page (``notebooks/<lang>/index.ipynb``) links each dashboard's page in
its own language where it exists (``notebooks/<lang>/<name>``), with a picture of that page
(``cards/<lang>/``), else the English page (``../<name>``, marked as English).
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets

from elo_explain import i18n
from elo_explain.dashboards import DASHBOARDS
from elo_explain.i18n import _, pgettext
from elo_explain.interactive.page import app_root

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def published(notebooks_dir: Path | None = None):
    """The dashboards whose notebook exists in ``notebooks_dir`` (default: the repo's).

    >>> from elo_explain.dashboards import DASHBOARDS
    >>> set(published()) <= set(DASHBOARDS)
    True
    >>> published("/nonexistent")
    []
    """
    folder = NOTEBOOKS if notebooks_dir is None else Path(notebooks_dir)
    return [d for d in DASHBOARDS if (folder / d.notebook).exists()]


CARDS = (
    Path(__file__).resolve().parents[2]
    / "share"
    / "jupyter"
    / "voila"
    / "templates"
    / "elo-explain"
    / "static"
    / "cards"
)
"""The cards' pictures (``scripts/screenshots.py`` takes them from the real pages), served
with the published template's static files: ``voila/templates/elo-explain/static/cards/``;
the English pages' in it, each translation's in ``cards/<lang>/``, taken from its own pages."""


def card_picture(notebook: str, lang: str = "en") -> str:
    """The file name of a dashboard's card picture in ``lang`` (relative to :data:`CARDS`).

    >>> card_picture("03_backgammon_divisor.ipynb")
    '03_backgammon_divisor.png'
    >>> card_picture("03_backgammon_divisor.ipynb", "te")
    'te/03_backgammon_divisor.png'
    """
    name = notebook.removesuffix(".ipynb") + ".png"
    return name if lang == "en" else f"{lang}/{name}"


def _link(d, lang: str) -> str:
    """One card: the dashboard's picture, title and line, linking its page in ``lang`` if it
    is translated (with a picture of that page), else the English page, marked as English."""
    # the entries are keyed "<notebook> title" / "<notebook> line" (elo_explain.translate)
    title_key, line_key = f"{d.notebook} title", f"{d.notebook} line"
    title = html.escape(pgettext(title_key, d.title, lang=lang))
    line = html.escape(pgettext(line_key, d.line, lang=lang))
    up = "../" if lang == "en" else "../../"  # from voila/render/[<lang>/]index.ipynb
    translated = lang == "en" or (NOTEBOOKS / lang / d.notebook).exists()
    shown = card_picture(d.notebook, lang if translated else "en")
    picture = ""
    if (CARDS / shown).exists():  # the link names it: a decorative picture
        src = html.escape(f"{up}templates/elo-explain/static/cards/{shown}")
        picture = f'<img class="ee-card-picture" src="{src}" alt="" width="480" height="300">'
    if translated:
        href, extra, note = html.escape(d.notebook), "", ""
    else:
        href, extra = f"../{html.escape(d.notebook)}", ' hreflang="en"'
        note = " " + html.escape(_("(in English)", lang=lang))
    return (
        f'<li class="ee-card"><a href="{href}"{extra}>{picture}'
        f'<span class="ee-card-title">{title}</span></a>'
        f'<p class="ee-card-line">{line}{note}</p></li>'
    )


CARD_CSS = """<style>
ol.ee-index { list-style: none; padding: 0; margin: 0.5em 0;
  display: grid; gap: 1.1rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 290px), 1fr)); }
ol.ee-index li.ee-card { border: 1px solid #dde1e6; border-radius: 8px; padding: 0.6rem;
  background: #fff; margin: 0; }
ol.ee-index a { color: #1a5fb4; text-decoration: underline; font-weight: 600; display: block; }
ol.ee-index a:focus-visible { outline: 3px solid #0b3d7a; outline-offset: 2px; }
ol.ee-index img.ee-card-picture { display: block; width: 100%; height: auto;
  border: 1px solid #eceef1; border-radius: 4px; margin-bottom: 0.5rem; }
ol.ee-index .ee-card-title { font-size: 1.1em; }
ol.ee-index p.ee-card-line { margin: 0.3rem 0 0; color: #333; line-height: 1.4; }
</style>"""


def landing(language: str | None = None) -> widgets.VBox:
    """The landing page's root widget, in ``language`` (default: the page's, see
    :func:`elo_explain.i18n.set_language`).

    >>> html = landing("uk").children[1].value
    >>> 'lang="uk"' in html, "Калькулятор рейтингу Elo для шахів" in html
    (True, True)
    >>> 'src="../../templates/elo-explain/static/cards/uk/01_chess_calculator.png"' in html
    True
    >>> '<span class="ee-card-title">Chess Elo calculator</span>' in landing().children[1].value
    True
    """
    lang = language or i18n.language()
    items = "".join(_link(d, lang) for d in published())
    if not items:
        none = _("No dashboards are published yet.", lang=lang)
        items = f"<li>{html.escape(none)}</li>"
    body = widgets.HTML(f'{CARD_CSS}<ol class="ee-index" lang="{lang}">{items}</ol>')
    return app_root([body])
