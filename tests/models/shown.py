"""What a dashboard view shows a viewer, as text: for the translated pages' tests.

Every widget of the view (hidden ones too: a mode's inputs are in the page, shown on a
click) gives its description, value, placeholder, tooltip and option labels; every figure
of the view (and any extra matplotlib figure given) its title, axis labels, tick labels,
legend and text artists.
"""

from __future__ import annotations

import ipywidgets as widgets


def widget_texts(w, skip=()) -> list[str]:
    """The texts of ``w`` and its children (not of the widgets in ``skip``); a choice's
    labels, not its value (a key a link uses)."""
    out, seen, todo = [], {id(s) for s in skip}, [w]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        choice = isinstance(w, widgets.widget_selection._Selection)
        for name in ("description", "placeholder", "tooltip") + (() if choice else ("value",)):
            v = getattr(w, name, None)
            if isinstance(v, str) and v:
                out.append(v)
        out += [str(x) for x in getattr(w, "_options_labels", ()) or ()]
        todo += [c for c in getattr(w, "children", ()) or () if isinstance(c, widgets.Widget)]
    return out


def figure_texts(fig) -> list[str]:
    fig.canvas.draw()  # tick labels exist once drawn
    out = [t.get_text() for t in fig.texts]
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        out += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        out += [t.get_text() for t in ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
    return [t for t in out if t]


def shown(view, *figures) -> str:
    """Every text ``view`` shows (and the ``figures``' texts), one per line.

    The link line under every dashboard (``view.link``, made by ``base.DashboardView``) is
    left out: the shared widgets' words are tested with ``base`` (issue 21, its owner's
    tests), this text is what the dashboard itself shows.
    """
    texts = widget_texts(view, skip=(view.link,))
    for f in view.figures():
        texts += figure_texts(f.fig)
    for fig in figures:
        texts += figure_texts(fig)
    return "\n".join(texts)
