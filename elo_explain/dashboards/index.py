"""The landing page: one link and one line per published dashboard, in the page's language.

A translated landing page (``notebooks/<lang>/index.ipynb``) links each dashboard's page in
its own language where it exists (``notebooks/<lang>/<name>``), else the English page
(``../<name>``, marked as English).
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets

from elo_explain import i18n
from elo_explain.dashboards import DASHBOARDS
from elo_explain.i18n import _, pgettext
from elo_explain.ui import app_root

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


def _link(d, lang: str) -> str:
    """One line of the list: the dashboard's page in ``lang`` if it is translated, else the
    English page, marked as English."""
    # the entries are keyed "<notebook> title" / "<notebook> line" (elo_explain.translate)
    title_key, line_key = f"{d.notebook} title", f"{d.notebook} line"
    title = html.escape(pgettext(title_key, d.title, lang=lang))
    line = html.escape(pgettext(line_key, d.line, lang=lang))
    if lang == "en" or (NOTEBOOKS / lang / d.notebook).exists():
        return f'<li><a href="{html.escape(d.notebook)}">{title}</a> &mdash; {line}</li>'
    english = html.escape(_("(in English)", lang=lang))
    return (f'<li><a href="../{html.escape(d.notebook)}" hreflang="en">{title}</a> &mdash; '
            f"{line} {english}</li>")


def landing(language: str | None = None) -> widgets.VBox:
    """The landing page's root widget, in ``language`` (default: the page's, see
    :func:`elo_explain.i18n.set_language`).

    >>> html = landing("uk").children[1].value
    >>> 'lang="uk"' in html, "Калькулятор рейтингу Elo для шахів" in html
    (True, True)
    >>> '<a href="01_chess_calculator.ipynb">Chess Elo calculator</a>' in landing().children[1].value
    True
    """
    lang = language or i18n.language()
    items = "".join(_link(d, lang) for d in published())
    if not items:
        none = _("No dashboards are published yet.", lang=lang)
        items = f"<li>{html.escape(none)}</li>"
    style = ("<style>ol.ee-index a { color: #1a5fb4; text-decoration: underline; font-weight: 600; }"
             " ol.ee-index li { margin: 0.35em 0; }</style>")
    body = widgets.HTML(f'{style}<ol class="ee-index" lang="{lang}">{items}</ol>')
    return app_root([body])
