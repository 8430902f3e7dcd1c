"""Declared dependencies and live outputs: a published page is one live document.

A model method that produces a table, a sentence, a figure or a number declares the
traits it reads, in the spirit of panel's ``@param.depends``::

    @depends("divisor", "difference")
    def history(self) -> tables.Table: ...

Called, it returns plain data (the ``Table``), computed once for the same values of those
traits: the notebook's cell, the view and a test share one computation, and a result
must not be changed in place. Displayed as a notebook cell's last expression in a Jupyter
kernel (JupyterLab, Voilà, nbclient), a :class:`~elo_explain.tables.Table`, a
:class:`~elo_explain.tables.Sentence` or a :class:`~elo_explain.interactive.figures.Picture`
so returned is a *live output* (:class:`LiveOutput`): an HTML widget bound to the model, the method and
its arguments, which shows the result and shows it again when -- and only when -- one of
the declared traits changes, whether by a control of the view, a preset, the page's link
or a line of code. Its display keeps the static HTML beside the widget (for a reader
without widgets, and for tests that read a notebook's outputs).

A view's parts declare their traits the same way, by name or by naming the model method
whose declaration they share (``@depends(DivisorModel.history)``): on a change only the
parts that depend on it run (:class:`elo_explain.interactive.view.DashboardView`).

The model dispatches (:class:`Reactive`): every trait change notes its name; outside a
:meth:`~Reactive.batch` the subscribers whose traits meet the changed names are called at
once, inside one (a preset, a link) once at its end, with every name it changed.

>>> import traitlets
>>> from elo_explain.tables import Sentence
>>> class Game(Reactive):
...     rating = traitlets.Int(1500)
...     opponent = traitlets.Int(1700)
...     k = traitlets.Int(20)
...     computed = 0
...     @depends("rating", "opponent")
...     def expected(self):
...         self.computed += 1
...         e = 1 / (1 + 10 ** ((self.opponent - self.rating) / 400))
...         return Sentence(f"E {e:.2f}", e)
>>> g = Game()
>>> g.expected().text, g.expected() is g.expected(), g.computed   # one computation
('E 0.24', True, 1)
>>> seen = []
>>> g.subscribe(Game.expected, lambda names: seen.append(sorted(names)))
>>> g.k = 40; seen                     # not a trait it reads: nothing to do
[]
>>> with g.batch():
...     g.rating, g.opponent = 1600, 1600
>>> seen, g.expected().text            # one call for the two changes
([['opponent', 'rating']], 'E 0.50')
"""

from __future__ import annotations

import contextlib
import copy
import functools
import html
from collections.abc import Callable
from dataclasses import dataclass

import ipywidgets as widgets
import traitlets
from ipywidgets.widgets.widget_string import HTMLStyle

from elo_explain.i18n import _
from elo_explain.tables import Displayable

__all__ = ["depends", "dependencies", "Reactive", "LiveOutput", "ANY"]

MAX_ROUNDS = 20
"""Rounds of one dispatch (a subscriber's change starts another) before it is an error."""

ANY = "*"
"""``@depends(ANY)``: a view's part that follows every trait (use sparingly)."""


def dependencies(*on) -> frozenset | None:
    """The trait names ``on`` stands for: names, and methods declared with :func:`depends`
    (their names); ``None`` for :data:`ANY`."""
    names: set[str] = set()
    for item in on:
        if item == ANY:
            return None
        if isinstance(item, str):
            names.add(item)
            continue
        item = getattr(item, "fget", item)  # a property over a declared method
        declared = getattr(item, "depends", False)
        if declared is False:
            raise TypeError(
                f"depends: {item!r} is neither a trait name nor a method declared with @depends"
            )
        if declared is None:
            return None
        names |= declared
    return frozenset(names)


def depends(*on):
    """Declare the traits a model method (or a view's part) reads; see the module.

    On a model (a :class:`Reactive`), the method's result is kept for the same values of
    those traits and arguments, and carries its origin so that a notebook shows it live.
    On a view, the part is run when one of them changed (first render: every part).
    """
    if not on:
        raise TypeError("depends needs at least one trait name (or ANY)")
    names = dependencies(*on)

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def declared(self, *args, **kwargs):
            if isinstance(self, Reactive):
                return self._computed(declared, fn, args, kwargs)
            return fn(self, *args, **kwargs)

        declared.depends = names
        return declared

    return decorate


def _snapshot(value):
    """A value as it is now (lists and dicts copied: a later change in place is seen)."""
    return copy.deepcopy(value) if isinstance(value, (list, dict, set)) else value


def _same(a, b) -> bool:
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # e.g. arrays: compared by identity only
        return False


@dataclass(eq=False)
class _Origin:
    """Where a displayed result came from: ``model.name(*args, **kwargs)``."""

    model: Reactive
    name: str
    args: tuple
    kwargs: dict
    deps: frozenset | None

    def call(self):
        return getattr(self.model, self.name)(*self.args, **self.kwargs)

    def same_as(self, other) -> bool:
        return (
            isinstance(other, _Origin)
            and other.model is self.model
            and (other.name, other.args, other.kwargs) == (self.name, self.args, self.kwargs)
        )

    def mimebundle(self, result: Displayable) -> dict | None:
        """The live display of ``result`` (``None`` outside a Jupyter kernel: static)."""
        from IPython import get_ipython

        shell = get_ipython()
        if shell is None or getattr(shell, "kernel", None) is None:
            return None
        static = result._static_bundle()
        try:
            widget = LiveOutput(self, static["text/html"])
            _replaces_the_cells_last_run(shell.kernel, widget)
            return {**static, **widget._repr_mimebundle_(), "text/plain": static["text/plain"]}
        except Exception:  # no widget: the static copy, never a traceback in the cell
            return static


_BY_CELL: dict = {}  # a notebook cell's id -> (its last run, the live outputs it made)


def _replaces_the_cells_last_run(kernel, widget) -> None:
    """In JupyterLab a cell run again replaces its outputs: the live outputs of its last run
    are closed (they stop following their model). A cell is known by the id JupyterLab sends
    with each run; Voilà runs each cell once."""
    parent = kernel.get_parent() or {}
    cell = (parent.get("metadata") or {}).get("cellId")
    if cell is None:
        return
    run = (parent.get("header") or {}).get("msg_id")
    last, outputs = _BY_CELL.get(cell, (None, []))
    if last != run:
        for old in outputs:
            old.close()
        outputs = []
    _BY_CELL[cell] = (run, [*outputs, widget])


class Reactive(traitlets.HasTraits):
    """A model that dispatches its changes to subscribers and keeps its declared results.

    ``subscribe(on, callback)``: ``callback(names)`` after a change of a trait in ``on``
    (names or declared methods, as :func:`depends`; ``ANY`` for all); ``batch()``: changes
    inside are dispatched once at its end; ``settle(names)``: the model's own follow-up of
    a change, run before the subscribers (a trait it sets joins the same dispatch).
    """

    _declarations_checked: set = set()

    def __init__(self, **values):
        super().__init__(**values)
        self._check_declarations()
        self._subscribers: list = []
        self._pending: dict = {}  # the names changed and not yet dispatched, in order
        self._depth = 0
        self._flushing = False
        self._memo: dict = {}
        self.observe(self._noted)

    @classmethod
    def _check_declarations(cls) -> None:
        if cls in Reactive._declarations_checked:
            return
        traits = set(cls.class_trait_names())
        for klass in cls.__mro__:
            for name, attr in vars(klass).items():
                declared = getattr(getattr(attr, "fget", attr), "depends", None)
                unknown = (declared or set()) - traits
                if unknown:
                    raise TypeError(
                        f"{cls.__name__}.{name} depends on {sorted(unknown)}, "
                        "which are not traits of the model"
                    )
        Reactive._declarations_checked.add(cls)

    # --- dispatch ------------------------------------------------------------------------
    def subscribe(self, on, callback: Callable, *, late: bool = False) -> None:
        """Call ``callback(names)`` after a change of a trait in ``on``; ``late``: after the
        other subscribers of the same change (the notebook's outputs come after the view,
        so the control a viewer moved answers first)."""
        names = (
            on
            if isinstance(on, frozenset) or on is None
            else (dependencies(*on) if isinstance(on, (tuple, list)) else dependencies(on))
        )
        unknown = (names or set()) - set(self.trait_names())
        if unknown:
            raise TypeError(f"not traits of {type(self).__name__}: {sorted(unknown)}")
        self._subscribers.append((names, callback, late))
        self._subscribers.sort(key=lambda s: s[2])  # stable: in order, the late ones last

    def unsubscribe(self, callback: Callable) -> None:
        self._subscribers = [s for s in self._subscribers if s[1] != callback]

    @property
    def batching(self) -> bool:
        return self._depth > 0

    @contextlib.contextmanager
    def batch(self):
        """A context: the changes made inside are dispatched once, at its end."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            self._flush()

    def settle(self, names: frozenset) -> None:
        """The model's own follow-up of a change of ``names`` (default: none)."""

    def _noted(self, change) -> None:
        self._pending[change["name"]] = None
        self._flush()

    def _flush(self) -> None:
        if self._flushing or self._depth:
            return
        self._flushing = True
        try:
            for _round in range(MAX_ROUNDS):
                if not self._pending:
                    break
                names = set(self._pending)
                self._pending.clear()
                self.settle(frozenset(names))
                names |= set(self._pending)
                self._pending.clear()
                names = frozenset(names)
                for deps, callback, _ in list(self._subscribers):
                    if deps is None or deps & names:
                        callback(names)
            else:
                pending, self._pending = sorted(self._pending), {}
                raise RuntimeError(
                    f"{type(self).__name__}: the changes of {pending} keep "
                    f"changing traits after {MAX_ROUNDS} rounds"
                )
        finally:
            self._flushing = False

    # --- declared results ---------------------------------------------------------------
    def _computed(self, declared, fn, args, kwargs):
        deps = declared.depends
        state = tuple(
            _snapshot(getattr(self, n))
            for n in sorted(self.trait_names() if deps is None else deps)
        )
        key = (fn.__name__, args, tuple(sorted(kwargs.items())))
        try:
            hash(key)
        except TypeError:  # unhashable arguments: computed each time
            key = None
        if key is not None and key in self._memo:
            seen, result = self._memo[key]
            if len(seen) == len(state) and all(map(_same, seen, state)):
                return result
        result = fn(self, *args, **kwargs)
        if isinstance(result, Displayable):
            origin = _Origin(self, fn.__name__, args, dict(kwargs), deps)
            known = result.__dict__.get("_live")
            if known is not None and not known.same_as(origin):
                result = copy.copy(result)  # another method's result, returned as it is
            object.__setattr__(result, "_live", origin)
        if key is not None:
            self._memo[key] = (state, result)
        return result


_SHARED: dict = {}


def _shared(kind: str):
    """One layout and one style for every live output (two widget models, not two each)."""
    if kind not in _SHARED or _SHARED[kind].comm is None:  # made, or closed since
        _SHARED[kind] = widgets.Layout() if kind == "layout" else HTMLStyle()
    return _SHARED[kind]


def _html(result) -> str:
    if isinstance(result, Displayable):
        return result._static_bundle()["text/html"]
    return html.escape(str(result))


class LiveOutput(widgets.HTML):
    """A notebook cell's output that follows its model: the method called again after each
    change of the traits it declared (an error shows as a message, never a traceback).
    CSS classes ``ee-live`` and ``ee-live-<method>`` (underscores as dashes), and
    ``ee-dep-<trait>`` for each trait it follows (``ee-dep-any``: every trait): the page's
    dock shows the controls of the tables in view (:mod:`elo_explain.interactive.dock`)."""

    def __init__(self, origin: _Origin, value: str):
        super().__init__(value=value, layout=_shared("layout"), style=_shared("style"))
        self.origin = origin
        self.add_class("ee-live")
        self.add_class("ee-live-" + origin.name.strip("_").replace("_", "-"))
        for trait in ["any"] if origin.deps is None else sorted(origin.deps):
            self.add_class("ee-dep-" + trait.replace("_", "-"))
        origin.model.subscribe(origin.deps, self.follow, late=True)

    def follow(self, names=None) -> None:
        try:
            value = _html(self.origin.call())
        except Exception as exc:  # shown to the viewer, never a traceback
            value = (
                '<p class="ee-error ee-live-error">'
                + html.escape(_("Cannot show this now: {error}").format(error=exc))[:400]
                + "</p>"
            )
        if value != self.value:
            self.value = value

    def close(self):
        self.origin.model.unsubscribe(self.follow)
        super().close()
