"""A dashboard model's fields: traits that validate what they are given.

A bad value raises :class:`FieldError` (a ``ValueError`` as everywhere in the package, and a
``TraitError``, so that traitlets rolls back a preset whose one value is bad), naming the field
(its ``label`` in the page's language, else its name) and the allowed range. A trait of
traitlets' own (``Enum``, ``Bool``, ``List``, ``Unicode``) takes its label as metadata,
``.tag(label=N_("…"))``:

>>> class M(traitlets.HasTraits):
...     rating = Whole(1500, 0, 4000, label="Rating")
...     k = Number(20, 0.5, 100)
>>> m = M(); m.rating = 5000
Traceback (most recent call last):
...
elo_explain.interactive.traits.FieldError: Rating must be a whole number between 0 and 4000, got 5000
>>> m.rating, M.rating.from_string("1600"), shown_label(M.k)
(1500, 1600, 'K')
>>> shown_label(traitlets.Bool(False).tag(label="Fit white's first-move advantage"))
"Fit white's first-move advantage"
"""

from __future__ import annotations

import traitlets

from elo_explain import _validate
from elo_explain.formats import fmt_plain, parse_number
from elo_explain.i18n import _, language

__all__ = [
    "FieldError",
    "checked",
    "Whole",
    "Number",
    "Choice",
    "label_of",
    "shown_label",
    "shown_bound",
]


def label_of(trait: traitlets.TraitType) -> str | None:
    """A trait's ``label`` (English, ``N_``-marked): its own (:class:`Whole`, :class:`Number`,
    :class:`Choice`), else its metadata's (``.tag(label=…)``); ``None`` without one."""
    return getattr(trait, "label", None) or trait.metadata.get("label")


def shown_label(trait: traitlets.TraitType, default: str | None = None) -> str:
    """A trait's label in the page's language: its ``label`` (an English literal a dashboard
    marks with ``N_``, translated here, where it is shown), else its name in words."""
    label = label_of(trait)
    if label:
        return _(label)
    name = getattr(trait, "name", None)
    return (name and name.replace("_", " ").capitalize()) or default or _("This setting")


def _field(trait: traitlets.TraitType) -> str:
    """The field a trait's own error names: its label in the page's language, else its name
    (as the parameters cell spells it)."""
    return _(label_of(trait)) if label_of(trait) else trait.name


def shown_bound(value, english: str = "{:g}") -> str:
    """A trait's bound in a message: ``english`` (a pattern) in English, as always; the page's
    numbers in another language (decimal symbol, minus sign U+2212)."""
    return english.format(value) if language() == "en" else fmt_plain(value)


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
            raise FieldError(
                _("{label} must be a whole number between {lo} and {hi}, got {value}").format(
                    label=_field(self),
                    lo=shown_bound(self.lo, "{}"),
                    hi=shown_bound(self.hi, "{}"),
                    value=s[:30],
                )
            ) from None
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
            raise FieldError(
                _("{label} must be a number, got {value}").format(
                    label=_field(self), value=repr(value)
                )
            )
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
    elo_explain.interactive.traits.FieldError: K must be one of 40, 20, 10, got 30
    """

    def __init__(self, default, values, *, label: str | None = None, **kw):
        super().__init__(default, **kw)
        self.values, self.label = tuple(values), label

    def validate(self, obj, value):
        if isinstance(value, str) and value not in self.values and value.strip().isdigit():
            value = int(value)
        if isinstance(value, (bool, list, dict)) or value not in self.values:
            raise FieldError(
                _("{label} must be one of {values}, got {value}").format(
                    label=_field(self),
                    values=", ".join(map(_shown, self.values)),
                    value=repr(value),
                )
            )
        return self.values[self.values.index(value)]


def _shown(value) -> str:
    return repr(value) if isinstance(value, str) else str(value)
