"""The one pattern every dashboard follows: a traitlets model and a widget view linked to it.

**Model** -- a :class:`~elo_explain.interactive.model.DashboardModel`
(``traitlets.HasTraits``) holding the state in validated traits
(:mod:`elo_explain.interactive.traits`: ``Whole``, ``Number``, ``Choice``; ``traitlets.Enum``,
``traitlets.Bool``)
and the computation as plain methods that return numbers and rows, never HTML. A bad value
raises ``ValueError`` (or ``TraitError`` for a choice) naming the field and the allowed range.
``params`` lists the traits a reader sets in the notebook's parameters cell (their names
are the cell's names in lower case); the page's query string may set them, and the
view's "link to this view" writes them. ``presets`` are named examples (trait values).

The model's methods that produce a table, a sentence or a number declare the traits
they read with :func:`~elo_explain.interactive.live.depends` (``@depends("divisor")``):
called, they return plain data; shown by a notebook cell, their output follows the model
(:mod:`elo_explain.interactive.live`), so every table on a page follows the view's
controls, its presets and the page's link.

**View** -- a :class:`DashboardView` (an ``ipywidgets.VBox``: the notebook's last cell
returns it) whose subclass provides ``build()`` (make the widgets, linked to the model's
traits with the ``slider`` / ``number`` / ``dropdown`` / ``toggles`` / ``checkbox``
helpers, and return the page's children) and its *parts*: methods declared with
``@depends(...)`` that show the model (formatting and HTML live only here). The first
render runs every part; a change runs the parts that depend on it, each guarded: an
error becomes a visible message (``.ee-status``), never a traceback. A view with one
undeclared ``render()`` follows every trait. A preset, or a link
(:mod:`elo_explain.interactive.link`), is applied in one batch and renders once.

>>> import ipywidgets as widgets
>>> from traitlets import Enum
>>> from elo_explain.interactive.live import depends
>>> from elo_explain.interactive.model import DashboardModel
>>> from elo_explain.interactive.traits import Whole
>>> class Demo(DashboardModel):
...     params = ("rating", "result")
...     presets = {"Beat a 1700": {"rating": 1500, "result": "win"}}
...     rating = Whole(1500, 0, 4000, label="Rating")
...     result = Enum(["win", "draw", "loss"], default_value="draw")
...     def change(self):
...         return {"win": 1, "draw": 0, "loss": -1}[self.result] * 10
>>> m = Demo()
>>> m.rating = 5000
Traceback (most recent call last):
...
elo_explain.interactive.traits.FieldError: Rating must be a whole number between 0 and 4000, got 5000
>>> m.apply({"result": "win", "rating": -1})    # one bad value: none is kept
Traceback (most recent call last):
...
elo_explain.interactive.traits.FieldError: Rating must be a whole number between 0 and 4000, got -1
>>> m.result, m.rating
('draw', 1500)
>>> class DemoView(DashboardView):
...     def build(self):
...         self.out, self.rating = widgets.HTML(), widgets.HTML()
...         return [self.preset_menu(), self.slider("rating", step=10), self.out, self.rating]
...     @depends("result")
...     def show_change(self):
...         self.out.value = f"change {self.model.change()}"
...     @depends("rating")
...     def show_rating(self):
...         self.rating.value = f"rating {self.model.rating}"
>>> v = DemoView(Demo(), query="rating=1600&result=loss")
>>> v.model.rating, v.model.result, v.out.value, v.notes.value
(1600, 'loss', 'change -10', '')
>>> print(v.link.value)
<p class="ee-link-line"><a class="ee-link" href="?rating=1600&amp;result=loss" target="_top">Link to this view</a> <button type="button" class="ee-copy" data-done="Link copied">Copy link</button></p>
>>> print(DemoView(Demo(), query="rating=9999&result=win&colour=red").notes.value)
<p class="ee-note ee-query-note">Ignored from the link: rating=9999 (Rating must be a whole number between 0 and 4000, got 9999; the page keeps 1500); colour (not a setting of this page). Taken from the link: result=win.</p>
>>> v.preset.value = "Beat a 1700"; v.model.rating, v.out.value, v.renders   # one render each
(1500, 'change 10', 3)
>>> v.out.value = "drawn"; v.controls["rating"].slider.value = 1510   # only its part runs
>>> v.out.value, v.rating.value, v.preset.value    # and by hand: back to "Custom"
('drawn', 'rating 1510', 'Custom')
"""

from __future__ import annotations

import functools
import html
from typing import ClassVar

import ipywidgets as widgets
import traitlets

from elo_explain.i18n import N_, _, language, pgettext
from elo_explain.interactive.dock import Dock
from elo_explain.interactive.figures import FigureView, shown_state
from elo_explain.interactive.link import apply_query, link_html, page_query
from elo_explain.interactive.live import ANY
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import STYLE, NumberField, guarded
from elo_explain.interactive.traits import shown_label

__all__ = ["DashboardView", "CUSTOM"]

CUSTOM = N_("Custom")
"""The preset menu's entry for values that match no preset (its value, in every language)."""


def _title(title: str, notebook: str) -> str:
    """A view's title in the page's language: the dashboard's title entry (keyed
    ``"<notebook> title"``, as the landing page shows it) for a view that names its
    notebook, else ``_(title)``."""
    if not title:
        return ""
    if notebook:
        key = f"{notebook} title"  # (the entry's context: elo_explain.translate)
        return pgettext(key, title)
    return _(title)


def _label_width(label: str, width: str) -> str:
    """A slider's label width: ``width`` (a dashboard sizes it for its English label), or
    in another language wider for a label that needs more (about 0.55 em a character: a
    translation longer than the English).

    >>> from elo_explain.i18n import set_language
    >>> _label_width("Rated games", "7em"), _label_width("Games in the period", "7em")
    ('7em', '7em')
    >>> set_language("uk"); _label_width("Ігор у періоді", "7em"); set_language("en")
    '7.7em'
    """
    if language() == "en" or not width.endswith("em"):
        return width
    needed = round(len(label) * 0.55, 1)
    return width if needed <= float(width.removesuffix("em")) else f"{needed:g}em"


class _Bound(widgets.HBox):
    """A slider and a text box for one trait (see :meth:`DashboardView.slider`)."""


class DashboardView(widgets.VBox):
    """Base of every dashboard's view; the subclass defines ``build()`` and its parts.

    ``query``: the query string to start from (default: the page's, :func:`page_query`).
    After it, ``self.model`` holds the starting state, ``self.controls`` the widgets made
    by the helpers (by trait name), ``self.status`` the message line (class ``ee-status``),
    ``self.notes`` what a link asked for that was ignored, ``self.link`` the link to this view.
    """

    title: ClassVar[str] = ""
    """The view's heading (none by default: the page's own cells head it)."""
    notebook: ClassVar[str] = ""
    """The dashboard's notebook (``DASHBOARDS``), whose title entry translates ``title``."""
    docked: ClassVar[tuple[str, ...]] = ()
    """The traits whose controls the dock repeats beside the page's tables
    (:mod:`elo_explain.interactive.dock`), the ones that change the first tables first."""
    key_target: ClassVar[str] = ""
    """A CSS class of the view's element that shows the page's key number (the dock's "Go to
    the result" link leads there)."""

    def __init__(self, model: DashboardModel, *, query: str | None = None):
        super().__init__()
        self.model = model
        self.controls: dict[str, widgets.Widget] = {}
        self.renders = 0
        self.status = widgets.HTML("")
        self.status.add_class("ee-error")
        self.status.add_class("ee-status")
        self.guard = guarded(self.status)
        self.notes = widgets.HTML("")
        self.link = widgets.HTML("")
        self._syncing_preset = False
        self._errors: dict[str, str] = {}
        self.preset: widgets.Dropdown | None = None
        children = self.build()
        self._parts = self._declared_parts()
        model.subscribe(ANY, self.refresh)
        figures = {name: v for name, v in vars(self).items() if isinstance(v, FigureView)}
        for name, figure in figures.items():  # the first render: the same for every viewer
            figure.stored_as = functools.partial(shown_state, self, name)
        self.refresh()
        for figure in figures.values():
            figure.stored_as = None
        title = _title(self.title, self.notebook)
        head = widgets.HTML(STYLE + (f"<h2>{html.escape(title)}</h2>" if title else ""))
        # the page's script writes the view's width (CSS px) here: figures are laid out for it
        self.viewport = widgets.Text("", layout={"display": "none"})
        self.viewport.add_class("ee-viewport")
        self.viewport.observe(self._on_viewport, names="value")
        self.dock = Dock(self) if self.docked else None
        self.children = [
            head,
            self.notes,
            *children,
            self.status,
            self.link,
            self.viewport,
            *([self.dock] if self.dock else []),
        ]
        self.add_class("ee-app")
        self.add_class("ee-ready")
        # Only now the page's query string: a preheated kernel waits for its viewer here, with
        # the widgets and the first render already done; a link then costs one more render.
        self._start_from(page_query() if query is None else query)

    # to be written by each dashboard
    def build(self) -> list:
        """Make the widgets (linked to the model) and return the page's children."""
        raise NotImplementedError

    def render(self) -> None:
        """Show the model's numbers in the widgets: a view without declared parts (every
        change runs it)."""
        raise NotImplementedError

    def key_result(self) -> str:
        """The page's key number in a few words ("New rating 1505"), shown in the dock on the
        first screen (default: none)."""
        return ""

    def linked(self) -> None:
        """What the view does after a link set the model (default: nothing more)."""

    # rendering
    def _declared_parts(self) -> list:
        """``(name, traits)`` of the view's declared parts, in the order they are defined
        (``[("render", None)]`` for a view without any)."""
        parts: dict = {}
        for klass in reversed(type(self).__mro__):
            for name, attr in vars(klass).items():
                if callable(attr) and hasattr(attr, "depends"):
                    parts[name] = attr.depends
        if not parts:
            return [("render", None)]
        traits = set(self.model.trait_names())
        for name, deps in parts.items():
            if deps is not None and not deps <= traits:
                raise TypeError(
                    f"{type(self).__name__}.{name} depends on "
                    f"{sorted(deps - traits)}, not traits of the model"
                )
        return list(parts.items())

    def refresh(self, names: frozenset | None = None) -> None:
        """Run the parts that depend on ``names`` (all when ``None``), each guarded, and
        write the link to this view."""
        self.renders += 1
        self._write_link()  # first: it holds the state however far the parts get
        for name, deps in self._parts:
            if names is None or deps is None or deps & names:
                try:
                    getattr(self, name)()
                except Exception as exc:  # shown to the viewer, never a traceback
                    self._errors[name] = _("Could not update: {error}").format(error=exc)
                else:
                    self._errors.pop(name, None)
        self.status.value = html.escape(next(iter(self._errors.values()), ""))[:300]
        if self.preset is not None:
            self._show_matching_preset()

    def _write_link(self) -> None:
        if self.model.params:
            self.link.value = link_html(self.model)

    def figures(self) -> list[FigureView]:
        """The view's figures (its :class:`~elo_explain.interactive.figures.FigureView` attributes)."""
        return [v for v in vars(self).values() if isinstance(v, FigureView)]

    def _on_viewport(self, change) -> None:
        """The page's width (written by the page's script): each figure laid out for it (a
        phone: one column, stacked panels); anything else than a width is ignored."""
        try:
            width = float(change["new"])
        except (TypeError, ValueError):
            return
        if not 200 <= width <= 10_000:
            return
        for fv in self.figures():
            try:
                if fv.fit(width) and fv.image.value:
                    fv.refresh()
            except Exception as exc:  # shown to the viewer, never a traceback
                self.status.value = html.escape(_("Could not update: {error}").format(error=exc))[
                    :300
                ]

    def apply(self, values: dict) -> None:
        """Set several traits (a preset) and render once; a bad value shows in the status."""
        try:
            self.model.apply(values)
        except Exception as exc:  # shown to the viewer, never a traceback
            self.status.value = html.escape(_("Could not apply: {error}").format(error=exc))[:300]

    def apply_pasted(self, parse, text: str, error: widgets.HTML, names: tuple) -> None:
        """Set the traits ``names`` from a viewer's text box (a pasted list): ``parse(text)``
        returns their values in that order; its ``ValueError`` is shown in ``error`` (escaped:
        it quotes the viewer's text) and the model keeps its values."""
        try:
            values = parse(text)
        except ValueError as exc:
            error.value = html.escape(str(exc))
            return
        error.value = ""
        new = dict(zip(names, values))
        if any(getattr(self.model, n) != v for n, v in new.items()):
            self.apply(new)

    def _start_from(self, query: str) -> None:
        """Set the model from a query string, in one batch (one render); note what was
        ignored and what was taken."""
        if not query:
            return
        with self.model.batch():
            self.notes.value = apply_query(self.model, query)
        self.linked()

    # presets
    def preset_menu(self, width: str = "26em") -> widgets.Dropdown:
        """An "Example" dropdown of the model's presets (class ``ee-preset``); it shows the
        preset the model matches, else "Custom". The entries' values are the presets' names
        (English, as the model has them); their labels are in the page's language (a preset's
        name is an English literal the dashboard marks with ``N_``)."""
        options = [(_(CUSTOM), CUSTOM), *((_(name), name) for name in self.model.presets)]
        self.preset = widgets.Dropdown(
            options=options,
            value=CUSTOM,
            description=_("Example"),
            layout={"width": width},
            style={"description_width": "initial"},
        )
        self.preset.add_class("ee-preset")
        self.preset.observe(self._on_preset, names="value")
        return self.preset

    def _on_preset(self, change) -> None:
        if change["new"] != CUSTOM and not self._syncing_preset:
            self.apply(self.model.presets[change["new"]])

    def _show_matching_preset(self) -> None:
        state = {n: getattr(self.model, n) for n in self.model.trait_names()}
        current = self.preset.value
        if current != CUSTOM and all(
            state.get(k) == v for k, v in self.model.presets[current].items()
        ):
            return
        match = next(
            (
                name
                for name, values in self.model.presets.items()
                if all(state.get(k) == v for k, v in values.items())
            ),
            CUSTOM,
        )
        if match != current:
            self._syncing_preset = True
            try:
                self.preset.value = match
            finally:
                self._syncing_preset = False

    # widgets linked to a trait
    def _trait(self, name: str):
        trait = self.model.traits()[name]
        return trait, shown_label(trait)

    def _css(self, w: widgets.Widget, name: str, suffix: str = "") -> widgets.Widget:
        w.add_class(f"ee-{name.replace('_', '-')}{suffix}")
        return w

    def slider(
        self,
        name: str,
        *,
        step=1,
        label: str | None = None,
        width: str = "36em",
        label_width: str = "13em",
    ) -> widgets.HBox:
        """A slider and a text box for a :class:`Whole` or :class:`Number` trait.

        CSS classes (used by the browser tests): ``ee-<name>`` on the box, ``-slider`` and
        ``-field`` after it on the two parts. The slider is linked to the trait; a typed
        value is checked like the trait (a bad one shows the field's message). The label
        (default: the trait's, in the page's language, as the box's messages and tooltip
        name it) gets ``label_width``, or more for a longer translation
        (:func:`_label_width`)."""
        trait, default_label = self._trait(name)
        label = label or default_label
        whole = isinstance(trait, traitlets.Int)
        cls = widgets.IntSlider if whole else widgets.FloatSlider
        value = getattr(self.model, name)
        slider = cls(
            value=value,
            min=trait.lo,
            max=trait.hi,
            step=step,
            description=label,
            readout=False,
            continuous_update=False,
            layout={"width": width},
            style={"description_width": _label_width(label, label_width)},
        )
        widgets.link((self.model, name), (slider, "value"))
        field = self.number(name, label="", register=False)
        box = _Bound([slider, field])
        box.add_class("ee-bound")  # a phone keeps the two on one line (elo-explain.css)
        box.slider, box.field = slider, field
        self._css(box, name)
        self._css(slider, name, "-slider")
        self._css(field.text, name, "-field")
        self.controls[name] = box
        return box

    def number(
        self, name: str, *, label: str | None = None, width: str = "14em", register: bool = True
    ) -> NumberField:
        """A text box for a :class:`Whole` or :class:`Number` trait (class ``ee-<name>``);
        a bad entry shows a message naming the field and the range, the model keeps its value.
        ``label=""`` shows no label (messages still name the field)."""
        trait, default_label = self._trait(name)
        field = NumberField(
            label or default_label,
            getattr(self.model, name),
            lo=trait.lo,
            hi=trait.hi,
            integer=isinstance(trait, traitlets.Int),
            width="6.5em" if label == "" else width,
        )
        if label == "":
            field.text.description = ""
        field.on_change(self.guard(lambda v: setattr(self.model, name, v)))
        self.model.observe(lambda c: field.set(c["new"]), names=name)
        if register:
            self._css(field, name)
            self.controls[name] = field
        return field

    def _linked(self, name, w, css_suffix=""):
        widgets.link((self.model, name), (w, "value"))
        self.controls[name] = self._css(w, name, css_suffix)
        return w

    def dropdown(
        self, name: str, options, *, label: str | None = None, width: str = "22em"
    ) -> widgets.Dropdown:
        """A dropdown for a choice trait; ``options`` as ipywidgets takes them
        (values, or ``(text, value)`` pairs)."""
        label = label or self._trait(name)[1]
        return self._linked(
            name,
            widgets.Dropdown(
                options=options,
                value=getattr(self.model, name),
                description=label,
                layout={"width": width},
                style={"description_width": "initial"},
            ),
        )

    def toggles(self, name: str, options, *, label: str | None = None) -> widgets.ToggleButtons:
        """Toggle buttons for a choice trait."""
        label = label if label is not None else self._trait(name)[1]
        return self._linked(
            name,
            widgets.ToggleButtons(
                options=options,
                value=getattr(self.model, name),
                description=label,
                style={"description_width": "initial", "button_width": "auto"},
            ),
        )

    def checkbox(self, name: str, *, label: str | None = None) -> widgets.Checkbox:
        """A checkbox for a ``Bool`` trait."""
        label = label or self._trait(name)[1]
        return self._linked(
            name, widgets.Checkbox(value=getattr(self.model, name), description=label, indent=False)
        )
