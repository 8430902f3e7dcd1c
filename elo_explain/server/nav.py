"""The way around the published site: every dashboard links back to the landing page and to
the topics before and after it, in the order of :data:`elo_explain.dashboards.DASHBOARDS`.

:func:`nav_html` is a Jinja filter of the page template (``VoilaExporter.filters`` in
``voila.json``): the template passes the notebook's name and puts the links above the page's
cells and below them. Links are relative, so they work under any base URL and keep a
translated page (``notebooks/<lang>/``) among its own language's pages.

>>> print(nav_html("03_backgammon_divisor"))  # doctest: +NORMALIZE_WHITESPACE
<nav class="ee-nav" aria-label="Topics"><a class="ee-nav-home" href="index.ipynb">All topics</a>
<a class="ee-nav-prev" href="02_fide_rules.ipynb" rel="prev"><span aria-hidden="true">←</span> 2. FIDE rules</a>
<a class="ee-nav-next" href="04_doubling_cube.ipynb" rel="next">4. Doubling cube <span aria-hidden="true">→</span></a></nav>
>>> nav_html("index"), nav_html("not_a_page")
('', '')

In another language (``lang``; default: the page's), the words and the titles are the
catalog's (the titles keyed ``"<notebook> title"``, as the landing page shows them):

>>> print(nav_html("02_fide_rules", lang="uk"))  # doctest: +NORMALIZE_WHITESPACE
<nav class="ee-nav" aria-label="Теми"><a class="ee-nav-home" href="index.ipynb">Усі теми</a>
<a class="ee-nav-prev" href="01_chess_calculator.ipynb" rel="prev"><span aria-hidden="true">←</span> 1. Калькулятор рейтингу Elo для шахів</a>
<a class="ee-nav-next" href="03_backgammon_divisor.ipynb" rel="next">3. Дільник у нардах (Gammon42) <span aria-hidden="true">→</span></a></nav>
"""

from __future__ import annotations

import html

from elo_explain import i18n
from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK
from elo_explain.i18n import _, pgettext

__all__ = ["nav_html", "neighbours"]


def neighbours(notebook: str):
    """``(previous, next)`` dashboards of ``notebook`` (``None`` at either end), or ``None``
    when it is not a dashboard."""
    names = [d.notebook for d in DASHBOARDS]
    if notebook not in names:
        return None
    i = names.index(notebook)
    return (
        DASHBOARDS[i - 1] if i > 0 else None,
        DASHBOARDS[i + 1] if i + 1 < len(DASHBOARDS) else None,
    )


def _label(d, lang: str) -> str:
    key = f"{d.notebook} title"  # (the entry's context: elo_explain.translate)
    title = pgettext(key, d.title, lang=lang)
    return f"{DASHBOARDS.index(d) + 1}. {title}"


def nav_html(name: str, lang: str | None = None, end: bool = False) -> str:
    """The links of the page whose notebook is ``name`` (with or without ``.ipynb``), in
    ``lang`` (default: the page's language; the template passes its notebook's, e.g.
    ``resources.metadata.name | ee_nav(lang)``); ``end``: the copy below the page's cells,
    named apart (each landmark its own name).

    >>> nav_html("03_backgammon_divisor", "en", True).startswith('<nav class="ee-nav" aria-label="Topics, end of page">')
    True
    """
    lang = lang or i18n.language()
    notebook = name if name.endswith(".ipynb") else f"{name}.ipynb"
    around = neighbours(notebook)
    if around is None:
        return ""
    prev, nxt = around
    e = html.escape
    home, topics = _("All topics", lang=lang), _("Topics", lang=lang)
    links = [f'<a class="ee-nav-home" href="{e(INDEX_NOTEBOOK)}">{e(home)}</a>']
    if prev is not None:
        links.append(
            f'<a class="ee-nav-prev" href="{e(prev.notebook)}" rel="prev">'
            f'<span aria-hidden="true">←</span> {e(_label(prev, lang))}</a>'
        )
    if nxt is not None:
        links.append(
            f'<a class="ee-nav-next" href="{e(nxt.notebook)}" rel="next">'
            f'{e(_label(nxt, lang))} <span aria-hidden="true">→</span></a>'
        )
    label = _("Topics, end of page", lang=lang) if end else topics
    return f'<nav class="ee-nav" aria-label="{e(label)}">' + "\n".join(links) + "</nav>"
