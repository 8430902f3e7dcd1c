"""What a dashboard view shows, as text, without a browser: for the translated pages' tests.

:func:`shown_text` collects every string a viewer can read -- widget labels, HTML values,
dropdown and toggle labels, tooltips and placeholders of buttons, every text of its
figures (titles, axis labels, tick labels, legends, annotations; drawn first, so that the
tick labels exist) and the figures' alt texts -- and :func:`in_language` sets a page's
language for a test, English again after it.
"""

from __future__ import annotations


import ipywidgets as widgets
import matplotlib.text

from elo_explain import i18n, translate
from elo_explain.ui import FigureView

_TEXT_TRAITS = ("description", "tooltip", "button_text")


in_language = i18n.speaking  # as the kernel of a page in ``lang`` (its language cell)


def _widget_texts(root: widgets.Widget, field_tooltips: bool) -> list[str]:
    out, seen, todo = [], set(), [root]
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
        if isinstance(w, (widgets.HTML, widgets.Label, widgets.HTMLMath)) and w.value:
            out.append(w.value)
        out += [str(x) for x in getattr(w, "_options_labels", ()) or ()]
        out += [str(x) for x in getattr(w, "tooltips", ()) or ()]
        todo += [c for c in getattr(w, "children", ()) if isinstance(c, widgets.Widget)]
    return out


def _figure_texts(view) -> list[str]:
    out = []
    for fv in {id(v): v for v in vars(view).values() if isinstance(v, FigureView)}.values():
        fv.fig.canvas.draw()
        out += [t.get_text() for t in fv.fig.findobj(matplotlib.text.Text) if t.get_text()]
        out.append(fv.describe())
    return out


def shown_text(view, *, field_tooltips: bool = True) -> str:
    """Every text ``view`` (a :class:`~elo_explain.dashboards.base.DashboardView`) shows,
    one per line. ``field_tooltips=False`` leaves out the tooltips of the slider's text
    boxes ("Games per week: 1 to 50"): ``DashboardView.slider`` writes them from the trait's
    label, in the page's language (base.py's and ``ui.NumberField``'s, tested with them)."""
    return "\n".join(_widget_texts(view, field_tooltips) + _figure_texts(view))


def figure_texts(view) -> list[str]:
    """The texts of ``view``'s figures (titles, labels, ticks, legends) and alt texts."""
    return _figure_texts(view)


def english_left_of(text: str, lang: str, modules) -> list[str]:
    """:func:`elo_explain.translate.english_left` of ``text``, limited to the English of the
    catalog entries of ``modules`` (paths such as ``"dashboards/calibrate.py"``): what those
    modules still show untranslated (the shared widgets' words are tested with their own
    module)."""
    cat = translate.read_catalog(translate.po_path(lang), lang)
    own = [m.id for m in cat if m.id and any(loc[0].endswith(tuple(modules))
                                             for loc in m.locations)]
    return [piece for piece in translate.english_left(text, lang)
            if any(piece in " ".join(msgid.split()) for msgid in own)]
