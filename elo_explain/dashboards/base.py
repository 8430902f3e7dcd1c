"""The one pattern every dashboard follows: a traitlets model and a widget view linked to it.

**Model** -- a :class:`DashboardModel` (``traitlets.HasTraits``) holding the state in
validated traits (:class:`Whole`, :class:`Number`, ``traitlets.Enum``, ``traitlets.Bool``)
and the computation as plain methods that return numbers and rows, never HTML. A bad value
raises ``ValueError`` (or ``TraitError`` for a choice) naming the field and the allowed range.
``params`` lists the traits a reader sets in the notebook's parameters cell (their names
are the cell's names in lower case); the page's query string may set them, and the
view's "link to this view" writes them. ``presets`` are named examples (trait values).

The model's methods that produce a table, a sentence or a number declare the traits
they read with :func:`~elo_explain.dashboards.live.depends` (``@depends("divisor")``):
called, they return plain data; shown by a notebook cell, their output follows the model
(:mod:`elo_explain.dashboards.live`), so every table on a page follows the view's
controls, its presets and the page's link.

**View** -- a :class:`DashboardView` (an ``ipywidgets.VBox``: the notebook's last cell
returns it) whose subclass provides ``build()`` (make the widgets, linked to the model's
traits with the ``slider`` / ``number`` / ``dropdown`` / ``toggles`` / ``checkbox``
helpers, and return the page's children) and its *parts*: methods declared with
``@depends(...)`` that show the model (formatting and HTML live only here). The first
render runs every part; a change runs the parts that depend on it, each guarded: an
error becomes a visible message (``.ee-status``), never a traceback. A view with one
undeclared ``render()`` follows every trait. A preset, or a link, is applied in one
batch and renders once.

>>> from traitlets import Enum
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
elo_explain.dashboards.base.FieldError: Rating must be a whole number between 0 and 4000, got 5000
>>> m.apply({"result": "win", "rating": -1})    # one bad value: none is kept
Traceback (most recent call last):
...
elo_explain.dashboards.base.FieldError: Rating must be a whole number between 0 and 4000, got -1
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
import hashlib
import html
import os
from typing import ClassVar
from urllib.parse import parse_qsl, urlencode

import ipywidgets as widgets
import traitlets

from elo_explain import _validate
from elo_explain.formats import fmt_plain, parse_number
from elo_explain.i18n import N_, _, language, pgettext
from elo_explain.dashboards.live import ANY, Reactive, dependencies, depends
from elo_explain.ui import STYLE, FigureView, NumberField, guarded

__all__ = [
    "ANY",
    "depends",
    "Choice",
    "FieldError",
    "checked",
    "html_box",
    "Whole",
    "Number",
    "DashboardModel",
    "DashboardView",
    "page_query",
]


# the viewer-facing words of every view, translated where shown (``_(LINK_TEXT)``)
LINK_TEXT = N_("Link to this view")
COPY_TEXT = N_("Copy link")
COPIED_TEXT = N_("Link copied")
CUSTOM = N_("Custom")
"""The preset menu's entry for values that match no preset (its value, in every language)."""


def shown_label(trait: traitlets.TraitType, default: str | None = None) -> str:
    """A trait's label in the page's language: its ``label`` (an English literal a dashboard
    marks with ``N_``, translated here, where it is shown), else its name in words."""
    label = getattr(trait, "label", None)
    if label:
        return _(label)
    name = getattr(trait, "name", None)
    return (name and name.replace("_", " ").capitalize()) or default or _("This setting")


def _field(trait: traitlets.TraitType) -> str:
    """The field a trait's own error names: its label in the page's language, else its name
    (as the parameters cell spells it)."""
    return _(trait.label) if getattr(trait, "label", None) else trait.name


def _bound(value, english: str = "{:g}") -> str:
    """A trait's bound in a message: ``english`` (a pattern) in English, as always; the page's
    numbers in another language (decimal symbol, minus sign U+2212)."""
    return english.format(value) if language() == "en" else fmt_plain(value)


def _title(title: str) -> str:
    """A view's title in the page's language: the dashboard's title entry (keyed
    ``"<notebook> title"``, as the landing page shows it) when it is one, else ``_(title)``."""
    if not title:
        return ""
    from elo_explain.dashboards import DASHBOARDS

    for d in DASHBOARDS:
        if d.title == title:
            key = f"{d.notebook} title"  # (the entry's context: elo_explain.translate)
            return pgettext(key, title)
    return _(title)


# --- validated traits -------------------------------------------------------------------
class FieldError(traitlets.TraitError, ValueError):
    """A bad value for a model's field: a ``ValueError`` as everywhere in the package, and a
    ``TraitError`` so that traitlets rolls back every value of a preset when one is bad."""


def checked(check, *args, **kw):
    """``check(*args, **kw)`` with its ``TypeError`` / ``ValueError`` raised as :class:`FieldError`
    (for a trait's own validation, so a bad preset value rolls back)."""
    try:
        return check(*args, **kw)
    except (TypeError, ValueError) as exc:
        raise FieldError(str(exc)) from None


class Whole(traitlets.Int):
    """A whole-number trait within ``lo``..``hi``; a bad value raises ``ValueError`` naming
    ``label`` (default: the trait's name) and the range (``_validate.integer``)."""

    def __init__(self, default, lo: int, hi: int, *, label: str | None = None, **kw):
        super().__init__(default, **kw)
        self.lo, self.hi, self.label = lo, hi, label

    def validate(self, obj, value):
        return checked(_validate.integer, _field(self), value, lo=self.lo, hi=self.hi)

    def from_string(self, s: str) -> int:
        try:
            number = _link_number(s)
        except ValueError:
            raise FieldError(_("{label} must be a whole number between {lo} and {hi}, got "
                               "{value}").format(label=_field(self), lo=_bound(self.lo, "{}"),
                                                 hi=_bound(self.hi, "{}"), value=s[:30])) from None
        return int(number) if number.is_integer() else number


def _link_number(s: str) -> float:
    """A number in a link: as a link to this view writes it (``0.5``), or as the page's
    language writes it (``0,5`` in Ukrainian and Greek); ``ValueError`` otherwise."""
    try:
        return float(s)
    except ValueError:
        if language() == "en":
            raise
    return float(parse_number("", s, float("-inf"), float("inf")))


class Number(traitlets.Float):
    """A finite number trait within ``lo``..``hi`` (``_validate.in_range``)."""

    def __init__(self, default, lo: float, hi: float, *, label: str | None = None, **kw):
        super().__init__(default, **kw)
        self.lo, self.hi, self.label = lo, hi, label

    def validate(self, obj, value):
        if isinstance(value, bool):
            raise FieldError(_("{label} must be a number, got {value}").format(
                label=_field(self), value=repr(value)))
        return checked(_validate.in_range, _field(self), value, self.lo, self.hi)

    def from_string(self, s: str) -> float:
        return _link_number(s)


class Choice(traitlets.TraitType):
    """One of ``values`` (texts or whole numbers); a link's text ``"20"`` reads as 20.

    >>> class M(traitlets.HasTraits):
    ...     k = Choice(20, (40, 20, 10), label="K")
    >>> m = M(); m.k = "10"; m.k
    10
    >>> m.k = 30
    Traceback (most recent call last):
    ...
    elo_explain.dashboards.base.FieldError: K must be one of 40, 20, 10, got 30
    """

    def __init__(self, default, values, *, label: str | None = None, **kw):
        super().__init__(default, **kw)
        self.values, self.label = tuple(values), label

    def validate(self, obj, value):
        if isinstance(value, str) and value not in self.values and value.strip().isdigit():
            value = int(value)
        if isinstance(value, (bool, list, dict)) or value not in self.values:
            raise FieldError(_("{label} must be one of {values}, got {value}").format(
                label=_field(self), values=", ".join(map(_shown, self.values)),
                value=repr(value)))
        return self.values[self.values.index(value)]


def _shown(value) -> str:
    return repr(value) if isinstance(value, str) else str(value)


class DashboardModel(Reactive):
    """Base of every dashboard's model: validated traits plus pure computation, its
    results declared with ``@depends`` (:class:`~elo_explain.dashboards.live.Reactive`).

    ``params``: the traits the notebook's parameters cell sets (lower-case names), which a
    link may set too. ``presets``: named examples, each a dict of trait values.
    """

    params: ClassVar[tuple[str, ...]] = ()
    presets: ClassVar[dict[str, dict]] = {}

    def __init__(self, **values):
        unknown = set(values) - set(self.trait_names())
        if unknown:  # traitlets would only warn
            raise TypeError(f"unknown setting {sorted(unknown)[0]!r}; "
                            f"allowed: {', '.join(self.params or self.trait_names())}")
        super().__init__(**values)

    def state(self) -> dict:
        """The values of :attr:`params` (what a link to this view holds)."""
        return {name: getattr(self, name) for name in self.params}

    def apply(self, values: dict) -> None:
        """Set several traits at once, in one batch (dispatched once); if one value is bad,
        none is kept (the error names it)."""
        old = {name: getattr(self, name) for name in values}
        with self.batch():
            try:
                with self.hold_trait_notifications():
                    for name, value in values.items():
                        setattr(self, name, value)
            except Exception:
                with self.hold_trait_notifications():
                    for name, value in old.items():
                        setattr(self, name, value)
                raise


# --- the page's query string ------------------------------------------------------------
_request_seen = False


def page_query() -> str:
    """The query string of the page that runs this kernel (``""`` outside Voilà).

    Voilà puts it in the kernel's environment; a preheated kernel (started before anyone
    asked for the page) first waits here for the request, as Voilà documents
    (``voila.utils.wait_for_request``: :func:`_wait_for_request` does the same).
    """
    global _request_seen
    if os.environ.get("VOILA_PREHEAT") == "True" and not _request_seen:
        _wait_for_request()
        _request_seen = True
    return os.environ.get("QUERY_STRING", "")


def _wait_for_request() -> None:
    """``voila.utils.wait_for_request`` without importing ``voila``: the package's import
    pulls in jupyter_server and jupyterlab_server, whose JSON schemas parse a URI grammar
    at import -- about 3 CPU-s in every preheated kernel, four times the rest of the
    notebook (``benchmarks/CAPACITY.md``). The protocol is Voilà's: one websocket to
    ``voila/query/<kernel id>`` on the Voilà server, which sends the request's environment
    as a JSON object when a viewer takes the kernel."""
    import asyncio
    import json
    import threading

    import websockets

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
           f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env.get('VOILA_KERNEL_ID')}")
    info: list[str] = []

    async def receive():
        try:
            async with websockets.connect(url, open_timeout=5) as ws:
                info.append(await ws.recv())
        except (OSError, TimeoutError, websockets.WebSocketException):
            pass  # no request info: the page starts from the notebook's values

    thread = threading.Thread(target=lambda: asyncio.new_event_loop().run_until_complete(receive()))
    thread.start()
    thread.join()
    if info:
        for key, value in json.loads(info[0]).items():
            env[key] = value


def _text(value) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_text(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _kept(value) -> str:
    """The value a page keeps, in a link's note: as a link writes it (:func:`_text`) in
    English; numbers in the page's format in another language."""
    if language() == "en" or isinstance(value, bool) or not isinstance(value, (int, float)):
        return _text(value)
    return fmt_plain(value)


def _from_text(trait: traitlets.TraitType, text: str):
    if isinstance(trait, traitlets.Bool):
        if text.lower() in ("true", "1", "yes", "on"):
            return True
        if text.lower() in ("false", "0", "no", "off"):
            return False
        raise ValueError(_("{label} must be true or false").format(label=trait.name))
    if isinstance(trait, (traitlets.Int, traitlets.Float)):
        return trait.from_string(text)
    if isinstance(trait, (traitlets.List, traitlets.Tuple)):  # a comma-separated list
        items = [t.strip() for t in text.split(",") if t.strip()]
        inner = getattr(trait, "_trait", None)
        parse = (lambda t: _from_text(inner, t)) if inner is not None else (
            lambda t: float(t) if t.replace(".", "", 1).lstrip("-").isdigit() else t)
        values = [parse(t) for t in items]
        return tuple(values) if isinstance(trait, traitlets.Tuple) else values
    return text


def _allowed(trait: traitlets.TraitType, label: str | None = None) -> str:
    """What ``trait`` accepts, in words: "Rating must be a whole number between 0 and 4000"
    (``label``: the name to use, for a list's items)."""
    label = label or shown_label(trait)
    inner = getattr(trait, "_trait", None)
    listed = isinstance(trait, (traitlets.List, traitlets.Tuple)) and inner is not None
    kind = inner if listed else trait
    if isinstance(kind, (Whole, Number)):
        if isinstance(kind, Whole):
            text = (_("{label} must be a list separated by commas, each a whole number between "
                      "{lo} and {hi}") if listed else
                    _("{label} must be a whole number between {lo} and {hi}"))
        else:
            text = (_("{label} must be a list separated by commas, each a number between {lo} "
                      "and {hi}") if listed else
                    _("{label} must be a number between {lo} and {hi}"))
        return text.format(label=label, lo=_bound(kind.lo), hi=_bound(kind.hi))
    if isinstance(kind, (Choice, traitlets.Enum)):
        text = (_("{label} must be a list separated by commas, each one of {values}") if listed
                else _("{label} must be one of {values}"))
        return text.format(label=label, values=", ".join(str(v) for v in kind.values))
    if isinstance(kind, traitlets.Bool):
        text = (_("{label} must be a list separated by commas, each true or false") if listed
                else _("{label} must be true or false"))
        return text.format(label=label)
    return _("{label} cannot be set to that").format(label=label)


def _plain_error(trait: traitlets.TraitType, text: str, exc: Exception) -> str:
    """A bad link value's reason in plain words: the model's own message (a
    :class:`FieldError`: it names the field and the range), else what the field accepts
    (never Python's text, such as "could not convert string to float")."""
    if isinstance(exc, FieldError):
        return str(exc)
    try:
        return _("{allowed}, got {value}").format(allowed=_allowed(trait), value=text[:30])
    except Exception:  # the note must never fail: the page would not open
        return _("not a value this setting takes")


def _fingerprint(value) -> str:
    """A value as text that names it exactly (arrays and bytes by their content's hash)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "bytes:" + hashlib.sha256(bytes(value)).hexdigest()
    if hasattr(value, "tobytes") and hasattr(value, "dtype"):
        return f"array:{value.dtype}{value.shape}:" + hashlib.sha256(value.tobytes()).hexdigest()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(_fingerprint, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_fingerprint(v)}" for k, v in sorted(value.items())) + "}"
    return repr(value)


def _shown_state(view: "DashboardView", name: str) -> str:
    """What ``view``'s figure ``name`` shows: the view's class and every trait of its model
    (:attr:`ui.FigureView.stored_as`)."""
    traits = view.model.trait_values()
    return (f"{type(view).__module__}.{type(view).__qualname__}.{name}: "
            + _fingerprint(traits))


# --- the view -----------------------------------------------------------------------------
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
            figure.stored_as = functools.partial(_shown_state, self, name)
        self.refresh()
        for figure in figures.values():
            figure.stored_as = None
        title = _title(self.title)
        head = widgets.HTML(STYLE + (f"<h2>{html.escape(title)}</h2>" if title else ""))
        # the page's script writes the view's width (CSS px) here: figures are laid out for it
        self.viewport = widgets.Text("", layout={"display": "none"})
        self.viewport.add_class("ee-viewport")
        self.viewport.observe(self._on_viewport, names="value")
        self.children = [head, self.notes, *children, self.status, self.link, self.viewport]
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
                raise TypeError(f"{type(self).__name__}.{name} depends on "
                                f"{sorted(deps - traits)}, not traits of the model")
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
            query = html.escape(urlencode({k: _text(v) for k, v in self.model.state().items()}))
            e = html.escape
            self.link.value = (f'<p class="ee-link-line"><a class="ee-link" href="?{query}" '
                               f'target="_top">{e(_(LINK_TEXT))}</a> <button type="button" '
                               f'class="ee-copy" data-done="{e(_(COPIED_TEXT))}">'
                               f'{e(_(COPY_TEXT))}</button></p>')

    def figures(self) -> list[FigureView]:
        """The view's figures (its :class:`~elo_explain.ui.FigureView` attributes)."""
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
                self.status.value = html.escape(
                    _("Could not update: {error}").format(error=exc))[:300]

    def apply(self, values: dict) -> None:
        """Set several traits (a preset) and render once; a bad value shows in the status."""
        try:
            self.model.apply(values)
        except Exception as exc:  # shown to the viewer, never a traceback
            self.status.value = html.escape(
                _("Could not apply: {error}").format(error=exc))[:300]

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
            self.notes.value = self._apply_query(query)
        self.linked()

    def _apply_query(self, query: str) -> str:
        """Set the model from a query string; returns the note on what was ignored (HTML)."""
        ignored, taken, seen = [], [], {}
        for key, text in parse_qsl(query or "", keep_blank_values=True):
            name, text = key.strip().lower(), text.strip()
            if name not in self.model.params:
                ignored.append(_("{key} (not a setting of this page)").format(key=key[:30]))
                continue
            if name in seen:
                ignored.append(_("{name}={text} (given twice), the first ({name}={first}) is "
                                 "taken").format(name=name, text=text[:30],
                                                 first=seen[name][:30]))
                continue
            trait = self.model.traits()[name]
            try:
                setattr(self.model, name, _from_text(trait, text))
            except Exception as exc:  # any bad value: a note in plain words, never a traceback
                kept = _kept(getattr(self.model, name))
                ignored.append(_("{name}={text} ({reason}; the page keeps {kept})").format(
                    name=name, text=text[:30], reason=_plain_error(trait, text, exc),
                    kept=kept[:60]))
                continue
            seen[name] = text
            taken.append(f"{name}={text[:30]}")
        if not ignored:
            return ""
        # (the separator is the language's: Greek writes ";" as its question mark)
        sep = pgettext("between a link's notes", "; ")
        note = _("Ignored from the link: {ignored}.").format(ignored=sep.join(ignored))
        if taken:
            note += " " + _("Taken from the link: {taken}.").format(taken=", ".join(taken))
        return '<p class="ee-note ee-query-note">' + html.escape(note)[:900] + "</p>"

    # presets
    def preset_menu(self, width: str = "26em") -> widgets.Dropdown:
        """An "Example" dropdown of the model's presets (class ``ee-preset``); it shows the
        preset the model matches, else "Custom". The entries' values are the presets' names
        (English, as the model has them); their labels are in the page's language (a preset's
        name is an English literal the dashboard marks with ``N_``)."""
        options = [(_(CUSTOM), CUSTOM), *((_(name), name) for name in self.model.presets)]
        self.preset = widgets.Dropdown(options=options, value=CUSTOM,
                                       description=_("Example"), layout={"width": width},
                                       style={"description_width": "initial"})
        self.preset.add_class("ee-preset")
        self.preset.observe(self._on_preset, names="value")
        return self.preset

    def _on_preset(self, change) -> None:
        if change["new"] != CUSTOM and not self._syncing_preset:
            self.apply(self.model.presets[change["new"]])

    def _show_matching_preset(self) -> None:
        state = {n: getattr(self.model, n) for n in self.model.trait_names()}
        current = self.preset.value
        if current != CUSTOM and all(state.get(k) == v
                                       for k, v in self.model.presets[current].items()):
            return
        match = next((name for name, values in self.model.presets.items()
                      if all(state.get(k) == v for k, v in values.items())), CUSTOM)
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

    def slider(self, name: str, *, step=1, label: str | None = None, width: str = "36em",
               label_width: str = "13em") -> widgets.HBox:
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
        slider = cls(value=value, min=trait.lo, max=trait.hi, step=step, description=label,
                     readout=False, continuous_update=False, layout={"width": width},
                     style={"description_width": _label_width(label, label_width)})
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

    def number(self, name: str, *, label: str | None = None, width: str = "14em",
               register: bool = True) -> NumberField:
        """A text box for a :class:`Whole` or :class:`Number` trait (class ``ee-<name>``);
        a bad entry shows a message naming the field and the range, the model keeps its value.
        ``label=""`` shows no label (messages still name the field)."""
        trait, default_label = self._trait(name)
        field = NumberField(label or default_label, getattr(self.model, name), lo=trait.lo,
                            hi=trait.hi, integer=isinstance(trait, traitlets.Int),
                            width="6.5em" if label == "" else width)
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

    def dropdown(self, name: str, options, *, label: str | None = None,
                 width: str = "22em") -> widgets.Dropdown:
        """A dropdown for a choice trait; ``options`` as ipywidgets takes them
        (values, or ``(text, value)`` pairs)."""
        label = label or self._trait(name)[1]
        return self._linked(name, widgets.Dropdown(
            options=options, value=getattr(self.model, name), description=label,
            layout={"width": width}, style={"description_width": "initial"}))

    def toggles(self, name: str, options, *, label: str | None = None) -> widgets.ToggleButtons:
        """Toggle buttons for a choice trait."""
        label = label if label is not None else self._trait(name)[1]
        return self._linked(name, widgets.ToggleButtons(
            options=options, value=getattr(self.model, name), description=label,
            style={"description_width": "initial", "button_width": "auto"}))

    def checkbox(self, name: str, *, label: str | None = None) -> widgets.Checkbox:
        """A checkbox for a ``Bool`` trait."""
        label = label or self._trait(name)[1]
        return self._linked(name, widgets.Checkbox(
            value=getattr(self.model, name), description=label, indent=False))


def html_box(css: str, value: str = "", **layout) -> widgets.HTML:
    """An ``HTML`` widget with CSS classes ``css`` (space-separated) for a view's output."""
    w = widgets.HTML(value, **({"layout": layout} if layout else {}))
    for name in css.split():
        w.add_class(name)
    return w

