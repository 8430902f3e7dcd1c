"""What a dashboard view shows a viewer, as text, without a browser: for the tests of the
translated pages (no English of the catalogs left; the documents' numbers in the page's
language).

:func:`shown_text` collects every string a viewer can read, one per line:

* widgets: descriptions, placeholders, tooltips, button texts, the labels (and tooltips) of
  the options of dropdowns, toggles and selection sliders, the text of HTML and label
  widgets without their markup, a text box's value. Not the values behind the options: link
  keys, English on purpose and never shown.
* figures (laid out first, so that the tick labels exist): every text artist -- titles, axis
  and tick labels, legends, annotations -- and the figure's alt text.

Left out: the "Link to this view" line (its address keeps the English keys of the link on
purpose); ``field_tooltips=False`` also leaves out the number boxes' tooltips that
``DashboardView.slider`` writes from a trait's label ("Games per week: 1 to 50"), which
belong to elo_explain.interactive's own tests. :func:`in_language` sets the page's language
for a block and restores English.
"""

from __future__ import annotations

import functools
import html
import re

import ipywidgets as widgets
from matplotlib.text import Text

from elo_explain import i18n, translate
from elo_explain.interactive.figures import FigureView, describe_figure
from elo_explain.interactive.live import LiveOutput

in_language = i18n.speaking  # as the kernel of a page in ``lang`` (its language cell)

_TEXT_TRAITS = ("description", "placeholder", "tooltip", "button_text")
_MARKUP = re.compile(r"<[^>]+>")


def _widget_texts(view, field_tooltips: bool) -> list[str]:
    out, seen, todo = [], {id(view.link)}, [view]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        for name in _TEXT_TRAITS:
            if name == "tooltip" and not field_tooltips and "ee-field" in w._dom_classes:
                continue
            value = getattr(w, name, None)
            if isinstance(value, str) and value:
                out.append(value)
        labels = getattr(w, "_options_labels", None)
        if labels:
            out += [str(x) for x in labels]
        elif isinstance(w, (widgets.HTML, widgets.HTMLMath, widgets.Label)):
            out.append(html.unescape(_MARKUP.sub(" ", w.value)))
        elif isinstance(getattr(w, "value", None), str):
            out.append(w.value)  # a text box
        out += [str(x) for x in getattr(w, "tooltips", ()) or ()]
        todo += [c for c in getattr(w, "children", ()) if isinstance(c, widgets.Widget)]
    return [t for t in out if t.strip()]


def figure_texts(fig, alt: str | None = None) -> list[str]:
    """Every text of ``fig`` (titles, axis and tick labels, legends, annotations) and its
    alt text (``alt``, or the one :func:`elo_explain.interactive.figures.describe_figure` writes)."""
    # tick labels exist once drawn: laid out as drawn (the same texts, measured), the pixels
    # not rendered again (the view drew them; rendering was most of a translated page's test)
    fig.draw_without_rendering()
    texts = [t.get_text() for t in fig.findobj(Text) if t.get_text()]
    return texts + [alt if alt is not None else describe_figure(fig)]


def shown_text(view, *, field_tooltips: bool = True) -> str:
    """Every text ``view`` (a :class:`~elo_explain.interactive.view.DashboardView`) shows,
    one per line (see the module's docstring)."""
    figures = {id(f): f for f in view.figures()}
    figures.update({id(v): v for v in vars(view).values() if isinstance(v, FigureView)})
    out = _widget_texts(view, field_tooltips)
    for fv in figures.values():
        out += figure_texts(fv.fig, fv.describe())
    return "\n".join(out)


@functools.cache
def _catalog_ids(lang: str, modules: tuple) -> tuple:
    """The English (msgids) of ``lang``'s catalog entries of ``modules`` (read once a run)."""
    cat = translate.read_catalog(translate.po_path(lang), lang)
    return tuple(m.id for m in cat if m.id and any(loc[0].endswith(modules) for loc in m.locations))


def english_left_of(text: str, lang: str, modules) -> list[str]:
    """:func:`elo_explain.translate.english_left` of ``text``, limited to the English of the
    catalog entries of ``modules`` (paths such as ``"dashboards/calibrate.py"``): what those
    modules still show untranslated (the shared widgets' words are tested with their own
    module)."""
    own = _catalog_ids(lang, tuple(modules))
    return [
        piece
        for piece in translate.english_left(text, lang)
        if any(piece in " ".join(msgid.split()) for msgid in own)
    ]


def live(model, method, *args):
    """The notebook cell's output of ``model.method(*args)`` above the view (CSS class
    ``ee-live-<method>``), made as a cell's display makes it: it follows the model as the
    page's does."""
    result = getattr(model, method)(*args)
    return LiveOutput(result._live, result._repr_html_())


def row(shown, first):
    """The cells' texts of the row of a shown table (HTML) whose first cell reads ``first``."""
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", shown, re.S):
        cells = [
            html.unescape(re.sub(r"<[^>]+>", "", c))
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)
        ]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in {shown[-600:]}")


def caption(shown):
    """The caption's text of a shown table (HTML)."""
    return html.unescape(re.search(r"<caption>(.*?)</caption>", shown, re.S).group(1))
