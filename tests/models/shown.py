"""What a dashboard view shows a viewer, as text, for the tests of its translations.

:func:`shown_texts` collects every widget's label, text, tooltip and option labels (not a
dropdown's value: the key it stands for, never shown), every figure's titles, axis labels,
tick labels, legends and texts, and each figure's alt text. The link line, the link notes
and the status line are :mod:`elo_explain.dashboards.base`'s (tested with base).
:func:`page_language` sets the page's language for a block and restores English.
"""

from __future__ import annotations

from elo_explain.i18n import speaking as page_language  # noqa: F401 (the tests' name)


def shown_texts(view) -> list[str]:
    out: list[str] = []
    skip = {id(view.link), id(view.notes), id(view.status)}

    def walk(w):
        if id(w) in skip:
            return
        labels = getattr(w, "_options_labels", None)
        for attr in ("description", "placeholder", "tooltip") + (() if labels else ("value",)):
            value = getattr(w, attr, None)
            if isinstance(value, str):
                out.append(value)
        out.extend(str(x) for x in labels or ())
        for child in getattr(w, "children", ()):
            walk(child)

    walk(view)
    for fv in view.figures():
        for ax in fv.fig.axes:
            out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
            out += [t.get_text() for t in (*ax.texts, *ax.get_xticklabels(), *ax.get_yticklabels())]
            legend = ax.get_legend()
            if legend is not None:
                out += [t.get_text() for t in legend.get_texts()]
        out.append(fv.describe())
    return out
