"""The dock: the view's controls again, beside the tables they change.

A dashboard's page is long: the notebook's tables come first, the view (its controls) last,
screens below on a phone. The dock is a compact bar pinned to the bottom of the screen
(``.ee-dock``, the published template's CSS and script) holding *twins* of the controls a
view declares in :attr:`~elo_explain.interactive.view.DashboardView.docked`: each twin is
linked to the view's own control with ``widgets.link`` (one model, one set of values:
moving a twin moves the view's control, the model and the link to this view, and the other
way round). Above them, the page's key number
(:meth:`~elo_explain.interactive.view.DashboardView.key_result`), a link to it in the view and
a button that folds the bar to one line of current values.

In the page, the script shows the twins of the traits the tables in view depend on (each
live output names them: CSS classes ``ee-dep-<trait>``, :mod:`elo_explain.interactive.live`),
slides the bar away while the view's own controls are on screen (the keyboard's focus
brings it back), and pads the page so that its end can be read above the bar.

CSS classes: ``ee-dock`` (the bar), ``ee-dock-item`` and ``ee-dock-<trait>`` (a twin),
``ee-dock-values`` (the key number and the values), ``ee-dock-toggle``, ``ee-dock-go``.

>>> import ipywidgets as widgets
>>> from elo_explain.interactive.model import DashboardModel
>>> from elo_explain.interactive.traits import Whole
>>> from elo_explain.interactive.view import DashboardView
>>> class Demo(DashboardModel):
...     rating = Whole(1500, 0, 4000, label="Rating")
...     k = Whole(20, 1, 100, label="K")
>>> class DemoView(DashboardView):
...     docked = ("rating", "k")
...     def build(self):
...         return [self.slider("rating", step=10), self.number("k")]
...     def render(self):
...         pass
...     def key_result(self):
...         return f"Rating {self.model.rating}"
>>> v = DemoView(Demo(), query="")
>>> twin = v.dock.twins["rating"].slider
>>> twin.value = 1600                        # the twin moves the view's slider and the model
>>> v.controls["rating"].slider.value, v.model.rating
(1600, 1600)
>>> v.model.k = 30; v.dock.twins["k"].text.value     # and the model moves the twin
'30'
>>> v.dock.twins["k"].text.value = "40"; v.model.k   # typed into the twin
40
>>> print(v.dock.values.value)
<p class="ee-dock-values"><span class="ee-dock-key">Rating 1600</span> <span class="ee-dock-value">Rating 1600</span> <span class="ee-dock-value">K 40</span></p>
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from elo_explain.formats import fmt_plain
from elo_explain.i18n import N_, _
from elo_explain.interactive.live import ANY
from elo_explain.interactive.page import NumberField

__all__ = ["Dock", "twin_of", "css_name", "DOCK_WORDS"]

#: The words of the dock's head, translated where shown.
DOCK_WORDS = {
    "label": N_("Controls of this page"),
    "show": N_("Show the controls"),
    "hide": N_("Hide the controls"),
    "result": N_("Go to the result"),
    "controls": N_("Go to the controls"),
}


def css_name(trait: str) -> str:
    """A trait's name in a CSS class (``rated_games`` -> ``rated-games``), as the view's
    ``ee-<name>`` classes write it."""
    return trait.replace("_", "-")


def _twin_bound(box) -> widgets.HBox:
    """A slider and its box again (:meth:`DashboardView.slider`): the slider linked to the
    view's slider, the box's text to the view's box's text."""
    s = box.slider
    slider = type(s)(
        value=s.value,
        min=s.min,
        max=s.max,
        step=s.step,
        description=s.description,
        readout=False,
        continuous_update=False,
        style={"description_width": "initial"},
    )
    widgets.link((s, "value"), (slider, "value"))
    field = _twin_field(box.field)
    twin = widgets.HBox([slider, field])
    twin.add_class("ee-bound")
    twin.slider, twin.field = slider, field
    return twin


def _twin_field(f: NumberField) -> NumberField:
    """A number box again: its text linked to the view's box's text (the view's box reads
    it, and sets the model; a bad entry shows its message in both)."""
    twin = NumberField(
        f.label,
        f.value,
        lo=f.lo,
        hi=f.hi,
        integer=f.integer,
        width="6.5em" if not f.text.description else "auto",
        tooltip=f.text.tooltip,
        locale=f.locale,
    )
    twin.text.description = f.text.description
    widgets.link((f.text, "value"), (twin.text, "value"))
    return twin


def twin_of(control: widgets.Widget) -> widgets.Widget:
    """A twin of one of a view's controls, linked to it (``widgets.link``): a slider with its
    box, a number box, or a widget with a ``value`` (a dropdown, toggle buttons, a checkbox,
    a text area, a date); labelled toggle buttons become a dropdown of the same options."""
    if hasattr(control, "slider") and hasattr(control, "field"):
        return _twin_bound(control)
    if isinstance(control, NumberField):
        return _twin_field(control)
    kind = type(control)
    if isinstance(control, widgets.ToggleButtons) and control.description:
        kind = widgets.Dropdown  # a row of buttons as a menu: one line of the bar
    kwargs = dict(value=control.value, description=control.description)
    if hasattr(control, "options"):
        kwargs["options"] = control.options
    for name in ("min", "max", "step", "readout", "readout_format", "continuous_update"):
        if control.has_trait(name):  # a slider of its own: its range and its readout
            kwargs[name] = getattr(control, name)
    if isinstance(control, widgets.Checkbox):
        kwargs["indent"] = False
    if isinstance(control, widgets.Textarea):
        kwargs.update(rows=3, placeholder=control.placeholder, continuous_update=True)
    style = {"description_width": "initial"}
    if kind is widgets.ToggleButtons:
        style["button_width"] = "auto"
    if "description_width" in control.style.keys:
        kwargs["style"] = style
    kwargs["value"] = control.value  # after the range (a slider clamps to it)
    twin = kind(**kwargs, layout={"width": "auto"})
    widgets.link((control, "value"), (twin, "value"))
    return twin


class Dock(widgets.VBox):
    """The docked twins of ``view``'s controls (its :attr:`docked` traits), the page's key
    number and the head's button and link (see the module)."""

    def __init__(self, view):
        self.view = view
        missing = [n for n in view.docked if n not in view.controls]
        if missing:
            raise TypeError(
                f"{type(view).__name__}.docked names {missing}: no control of the view sets them"
            )
        self.twins: dict[str, widgets.Widget] = {}
        items = []
        for name in view.docked:
            twin = twin_of(view.controls[name])
            twin.add_class("ee-dock-item")
            twin.add_class(f"ee-dock-{css_name(name)}")
            self.twins[name] = twin
            items.append(twin)
        self.head = widgets.HTML(self._head())
        self.head.add_class("ee-dock-head")
        self.values = widgets.HTML("")
        self.values.add_class("ee-dock-values-box")
        self.body = widgets.VBox(items)
        self.body.add_class("ee-dock-body")
        super().__init__([self.head, self.values, self.body])
        self.add_class("ee-dock")
        self.show()
        view.model.subscribe(ANY, self.show)

    def _head(self) -> str:
        e = html.escape
        target = self.view.key_target
        go = (
            (
                f'<a class="ee-dock-go" href="#ee-result" data-target="{e(target)}">'
                f"{e(_(DOCK_WORDS['result'] if self._key() else DOCK_WORDS['controls']))}"
                "</a>"
            )
            if target
            else ""
        )
        return (
            f'<div class="ee-dock-bar" data-label="{e(_(DOCK_WORDS["label"]))}" '
            f'data-show="{e(_(DOCK_WORDS["show"]))}" data-hide="{e(_(DOCK_WORDS["hide"]))}">'
            f'<button type="button" class="ee-dock-toggle" aria-expanded="true">'
            f"{e(_(DOCK_WORDS['hide']))}</button>{go}</div>"
        )

    def _value(self, name: str) -> str:
        """A docked trait's label and value as its control shows them."""
        control, value = self.view.controls[name], getattr(self.view.model, name)
        label = (
            getattr(control, "label", None)
            if isinstance(control, NumberField)
            else (getattr(getattr(control, "slider", control), "description", ""))
        )
        if hasattr(control, "options") and not isinstance(control, widgets.Checkbox):
            shown = control.label or (
                fmt_plain(value) if isinstance(value, (int, float)) else str(value)
            )
            return shown if not label else f"{label} {shown}"
        if isinstance(value, bool):
            return f"{label}: {_('yes') if value else _('no')}"
        elif isinstance(value, (int, float)):
            shown = fmt_plain(value)
        else:
            return label or ""
        return f"{label} {shown}".strip()

    def _key(self) -> str:
        """The view's key number; none while it cannot be computed (the view's own parts
        say why)."""
        try:
            return self.view.key_result()
        except Exception:  # shown by the view, never a traceback
            return ""

    def show(self, names=None) -> None:
        """The key number and the current values (a change of any trait)."""
        key = self._key()
        parts = ([f'<span class="ee-dock-key">{html.escape(key)}</span>'] if key else []) + [
            f'<span class="ee-dock-value">{html.escape(self._value(n))}</span>'
            for n in self.view.docked
        ]
        value = '<p class="ee-dock-values">' + " ".join(parts) + "</p>"
        if value != self.values.value:
            self.values.value = value
