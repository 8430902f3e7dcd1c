"""The link to a view: a page's query string sets its model, and the view writes its state
back as a link (``?rating=1600&result=loss``).

A link's values are read as the traits read them (:mod:`elo_explain.interactive.traits`); a
bad or unknown one is not applied: :func:`apply_query` returns a note in plain words saying
what was ignored and why (never Python's text), and what was taken.

>>> from traitlets import Enum
>>> from elo_explain.interactive.model import DashboardModel
>>> from elo_explain.interactive.traits import Whole
>>> class Demo(DashboardModel):
...     params = ("rating", "result")
...     rating = Whole(1500, 0, 4000, label="Rating")
...     result = Enum(["win", "draw", "loss"], default_value="draw")
>>> m = Demo()
>>> print(apply_query(m, "rating=9999&result=win&colour=red"))
<p class="ee-note ee-query-note">Ignored from the link: rating=9999 (Rating must be a whole number between 0 and 4000, got 9999; the page keeps 1500); colour (not a setting of this page). Taken from the link: result=win.</p>
>>> query_of(m)
'rating=1500&result=win'

A view starts from its page's query string (:func:`page_query`), which Voilà puts in the
kernel's environment; outside Voilà it is empty:

>>> page_query()
''
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from urllib.parse import parse_qsl, urlencode

import traitlets

from elo_explain.formats import fmt_plain
from elo_explain.i18n import N_, _, language, pgettext
from elo_explain.interactive.traits import (
    Choice,
    FieldError,
    Number,
    Whole,
    shown_bound,
    shown_label,
)

__all__ = [
    "LINK_TEXT",
    "COPY_TEXT",
    "COPIED_TEXT",
    "apply_query",
    "query_of",
    "link_html",
    "page_query",
    "wait_for_request_with",
]

# the viewer-facing words of the link line, translated where shown (``_(LINK_TEXT)``)
LINK_TEXT = N_("Link to this view")
COPY_TEXT = N_("Copy link")
COPIED_TEXT = N_("Link copied")


_wait_for_request: Callable[[], None] | None = None


def wait_for_request_with(wait: Callable[[], None]) -> None:
    """Have :func:`page_query` call ``wait`` once, first: a kernel started before its viewer
    asked for the page (the published site's preheated pool) learns the request only then
    (:mod:`elo_explain.server.published_kernel` sets it in those kernels)."""
    global _wait_for_request
    _wait_for_request = wait


def page_query() -> str:
    """The query string of the page that runs this kernel (``""`` outside Voilà): Voilà puts
    it in the kernel's environment (``QUERY_STRING``)."""
    global _wait_for_request
    if _wait_for_request is not None:
        wait, _wait_for_request = _wait_for_request, None
        wait()
    return os.environ.get("QUERY_STRING", "")


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
        raise ValueError(_("{label} must be true or false").format(label=shown_label(trait)))
    if isinstance(trait, (traitlets.Int, traitlets.Float)):
        return trait.from_string(text)
    if isinstance(trait, (traitlets.List, traitlets.Tuple)):  # a comma-separated list
        items = [t.strip() for t in text.split(",") if t.strip()]
        inner = getattr(trait, "_trait", None)
        parse = (
            (lambda t: _from_text(inner, t))
            if inner is not None
            else (lambda t: float(t) if t.replace(".", "", 1).lstrip("-").isdigit() else t)
        )
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
            text = (
                _(
                    "{label} must be a list separated by commas, each a whole number between "
                    "{lo} and {hi}"
                )
                if listed
                else _("{label} must be a whole number between {lo} and {hi}")
            )
        else:
            text = (
                _("{label} must be a list separated by commas, each a number between {lo} and {hi}")
                if listed
                else _("{label} must be a number between {lo} and {hi}")
            )
        return text.format(label=label, lo=shown_bound(kind.lo), hi=shown_bound(kind.hi))
    if isinstance(kind, (Choice, traitlets.Enum)):
        text = (
            _("{label} must be a list separated by commas, each one of {values}")
            if listed
            else _("{label} must be one of {values}")
        )
        return text.format(label=label, values=", ".join(str(v) for v in kind.values))
    if isinstance(kind, traitlets.Bool):
        text = (
            _("{label} must be a list separated by commas, each true or false")
            if listed
            else _("{label} must be true or false")
        )
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


def query_of(model) -> str:
    """The query string of a link to ``model``'s state (its ``params``)."""
    return urlencode({k: _text(v) for k, v in model.state().items()})


def link_html(model) -> str:
    """The view's link line: "Link to this view" with ``model``'s state, and a copy button."""
    e = html.escape
    return (
        f'<p class="ee-link-line"><a class="ee-link" href="?{e(query_of(model))}" '
        f'target="_top">{e(_(LINK_TEXT))}</a> <button type="button" '
        f'class="ee-copy" data-done="{e(_(COPIED_TEXT))}">'
        f"{e(_(COPY_TEXT))}</button></p>"
    )


def apply_query(model, query: str) -> str:
    """Set ``model`` from a query string; returns the note on what was ignored (HTML, ``""``
    when nothing was)."""
    ignored, taken, seen = [], [], {}
    for key, text in parse_qsl(query or "", keep_blank_values=True):
        name, text = key.strip().lower(), text.strip()
        if name not in model.params:
            ignored.append(_("{key} (not a setting of this page)").format(key=key[:30]))
            continue
        if name in seen:
            ignored.append(
                _("{name}={text} (given twice), the first ({name}={first}) is taken").format(
                    name=name, text=text[:30], first=seen[name][:30]
                )
            )
            continue
        trait = model.traits()[name]
        try:
            setattr(model, name, _from_text(trait, text))
        except Exception as exc:  # any bad value: a note in plain words, never a traceback
            kept = _kept(getattr(model, name))
            ignored.append(
                _("{name}={text} ({reason}; the page keeps {kept})").format(
                    name=name, text=text[:30], reason=_plain_error(trait, text, exc), kept=kept[:60]
                )
            )
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
