"""A dashboard's model: its state in validated traits (:mod:`elo_explain.interactive.traits`)
and its computation as plain methods that return numbers and rows, never HTML; the results
declared with ``@depends`` (:mod:`elo_explain.interactive.live`).

>>> from elo_explain.interactive.traits import Whole
>>> class Demo(DashboardModel):
...     params = ("rating",)
...     rating = Whole(1500, 0, 4000, label="Rating")
>>> m = Demo(rating=1600); m.state()
{'rating': 1600}
>>> m.apply({"rating": -1})    # one bad value: none is kept
Traceback (most recent call last):
...
elo_explain.interactive.traits.FieldError: Rating must be a whole number between 0 and 4000, got -1
>>> Demo(colour="red")
Traceback (most recent call last):
...
TypeError: unknown setting 'colour'; allowed: rating
"""

from __future__ import annotations

from typing import ClassVar

from elo_explain.interactive.live import Reactive

__all__ = ["DashboardModel"]


class DashboardModel(Reactive):
    """Base of every dashboard's model: validated traits plus pure computation, its
    results declared with ``@depends`` (:class:`~elo_explain.interactive.live.Reactive`).

    ``params``: the traits the notebook's parameters cell sets (lower-case names), which a
    link may set too. ``presets``: named examples, each a dict of trait values.
    """

    params: ClassVar[tuple[str, ...]] = ()
    presets: ClassVar[dict[str, dict]] = {}

    def __init__(self, **values):
        unknown = set(values) - set(self.trait_names())
        if unknown:  # traitlets would only warn
            raise TypeError(
                f"unknown setting {sorted(unknown)[0]!r}; "
                f"allowed: {', '.join(self.params or self.trait_names())}"
            )
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
