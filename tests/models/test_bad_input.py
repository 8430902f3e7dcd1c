"""Bad input and markup in every box a viewer can type into, on every dashboard view, without a
kernel or a browser: the sweeps at model level.

Each view is built as its notebook's last cell builds it (``tests/models/test_dock.py``'s
``PAGES``: the model and view classes each notebook imports), and its widget tree is walked
(the root's children, recursively) to *discover* the boxes, so a new field is covered without
a change here:

* a :class:`~elo_explain.interactive.page.NumberField` (its ``text``): its message is its own
  ``message`` (class ``ee-error``);
* a text area of the view (class ``ee-field``: 01's and 10's games, 11's season): its message
  is the ``ee-error`` widget of the nearest box around it that holds one;
* a free-text box submitted by a button (:data:`FREE_TEXT`: 08's paste box), whose verdict is a
  report.

Any other text box fails the test until it is added to :data:`FREE_TEXT` (the view's
``viewport``, a hidden box the page's script writes its width into, is no viewer's box).

The value is set as the browser sets it: the box's ``value`` (its text, as typed: every box
sends each keystroke, ``continuous_update``). Enter sends nothing to the kernel: the page's
script only marks the number box ``ee-submitted`` so that the CSS shows its message
(``elo-explain.js``); that part is the browser's, checked once in
``tests/site/test_hardening_inputs.py``. A button (08's "Fit pasted results") is clicked with
``Button.click()``, the handler the front end's click runs.

The dock's boxes (``view.dock``) are linked copies (``widgets.link``) of the view's own
boxes: they are swept too, bad values only; the message must show in the copy that was
typed into when it is a number box (it has its own), and for a docked text area (10's games)
in the view's own box's message, the one the copy's text reaches. That a copy moves the
model is ``tests/models/test_dock.py``'s.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import ipywidgets as widgets
import pytest

from elo_explain.interactive import figures
from elo_explain.interactive.live import LiveOutput
from elo_explain.interactive.page import NumberField
from harness import FORBIDDEN_TEXT
from tests.models.test_dock import PAGES
from tests.site.audit import PAYLOADS

BAD_VALUES = ["", "abc", "<negative>", "1e308", "99999999999999999999", "nan"]

# Free-text boxes that are not number fields, by CSS class: the view's button that submits
# one, the view's widget that reports on it, a valid entry and the report's text for it, and
# the report's text for a rejected entry (a row's number and what is wrong with it), with the
# name the report gives the pasted text (08's "pasted text: 2 rows read").
FREE_TEXT = {
    "ee-paste": {  # 08 calibrate: paste CSV results, then "Fit pasted results"
        "button": "fit_button",
        "report": "report",
        "name": "pasted text",
        "valid": "rating,opponent,score\n1500,1400,1\n1500,1600,0",
        "valid_text": re.compile(r"2 rows read, 0 rejected"),
        "bad_text": re.compile(r"row \d+: \S"),
        "bad": [
            "",
            "abc",
            "rating,opponent,score\nnan,1500,1",
            "rating,opponent,score\n1e308,1500,1",
            "rating,opponent,score\n-5,1500,1",
            "rating,opponent,score\n1500,abc,2",
            "rating,opponent,score\n99999999999999999999,1500,0.5",
            "\x00\x01,,,\n;;;",
        ],
        # a payload as the whole paste, and as a row's values
        "markup": lambda p: [p, f"rating,opponent,score\n1700,1500,1\n{p},1500,1\n1700,{p},0"],
    },
}

# What a payload would be as live markup: the start of each element it holds, as written in
# it (escaped, ``<`` is ``&lt;``, and none of these can be found). The same elements as
# tests/site/audit.py's check in the page: ``img[src="x"]``, ``.ee-pwned``, ``svg[onload]``,
# a script of ``eePwned``.
MARKUP = ("<img src=x", '<b class="ee-pwned"', "<svg onload", "<script>window.eePwned")
assert all(any(m in p for p in PAYLOADS) for m in MARKUP)

_TAGS = re.compile(r"<[^>]+>")
# a rating in a text area's line (not a date's year: "2026-01-10: 1750 1")
_RATING = re.compile(r"(?<![\d.-])\d{3,4}(?![\d.-])")
_RANGE = re.compile(r"from (-?[\d.]+) to (-?[\d.]+)")


@pytest.fixture(autouse=True)
def no_pixels(monkeypatch):
    """Figures are not drawn to pixels here: what a box does to a figure is no text of the
    page (the figures' texts and drawings: tests/models/test_figure_text.py and each
    dashboard's test_dash_*.py). A figure's alt text is still written from its artists."""
    monkeypatch.setattr(figures.FigureView, "png", lambda self: b"")
    monkeypatch.setattr(figures, "_png", lambda fig: b"")


def _walk(w, parents=()):
    """``(widget, its parents)`` for ``w`` and every widget inside it."""
    yield w, parents
    for child in getattr(w, "children", ()) or ():
        if isinstance(child, widgets.Widget):
            yield from _walk(child, (*parents, w))


def _live_outputs(model, shown) -> list[LiveOutput]:
    """The live outputs the notebook's cells show above the view (as a kernel displays them:
    ``tests/models/test_live.py``), following the same model."""
    outs = []
    for method in shown:
        result = getattr(model, method)()
        origin = getattr(result, "_live", None)
        if origin is not None:
            outs.append(LiveOutput(origin, result._repr_html_()))
    return outs


def _page(notebook: str):
    model_cls, view_cls, shown = PAGES[notebook]
    model = model_cls()
    view = view_cls(model, query="")
    return view, _live_outputs(model, shown)


def _rendered(view, outputs) -> list[widgets.HTML]:
    """Every widget whose value the page renders as HTML: the view's (and its dock's) HTML
    widgets, and the notebook's live outputs."""
    return [w for w, _p in _walk(view) if isinstance(w, (widgets.HTML, widgets.HTMLMath))] + outputs


def _texts(view, outputs) -> list[str]:
    """What the page shows as text: every HTML value without its markup, every description,
    placeholder and tooltip, every box's value."""
    out = [html.unescape(_TAGS.sub(" ", w.value)) for w in _rendered(view, outputs)]
    for w, _p in _walk(view):
        names = ("description", "placeholder", "tooltip") + (
            () if isinstance(w, (widgets.HTML, widgets.HTMLMath)) else ("value",)
        )
        out += [getattr(w, n) for n in names if isinstance(getattr(w, n, None), str)]
    return out


def _forbidden(view, outputs, where: str) -> list[str]:
    return [
        f"{where}: the page shows {word!r}: {text[:200]!r}"
        for text in _texts(view, outputs)
        for word in FORBIDDEN_TEXT
        if word in text
    ]


def _live_markup(view, outputs, where: str) -> list[str]:
    """A payload's markup in an HTML value, or in a description the page renders as HTML
    (``description_allow_html``; any other widget's texts are shown as text)."""
    shown = [(w, w.value) for w in _rendered(view, outputs)] + [
        (w, w.description) for w, _p in _walk(view) if getattr(w, "description_allow_html", False)
    ]
    return [
        f"{where}: {m!r} is live markup in {type(w).__name__} {w._dom_classes}: "
        f"{value[max(0, value.find(m) - 80) : value.find(m) + 80]!r}"
        for w, value in shown
        for m in MARKUP
        if m in value
    ]


def _params(view) -> dict:
    return {n: getattr(view.model, n) for n in view.model.params}


# --- the boxes of a view -----------------------------------------------------------------------
@dataclass
class Box:
    """A box a viewer types into: ``text`` (the widget whose ``value`` the browser sets),
    ``error`` (the widget its message shows in; a number box's is ``field.error``), ``name``
    (the label the reader sees beside it), ``range`` (the allowed values, from the model's
    trait when the box sets one), ``docked`` (a copy in the dock; ``own``: the view's own
    number box it copies), ``free`` (a :data:`FREE_TEXT` box's spec)."""

    kind: str  # "number", "area" or "free"
    text: widgets.Widget
    error: widgets.HTML | None
    name: str
    where: str
    docked: bool = False
    field: NumberField | None = None
    range: tuple | None = None
    free: dict | None = None
    own: NumberField | None = None


def _trait_of(controls: dict, field) -> str | None:
    return next(
        (n for n, c in controls.items() if c is field or getattr(c, "field", None) is field), None
    )


def _visible_label(widget, parents) -> str:
    """The label the reader sees beside a box: its own description, else a slider's it
    shares a line with (``DashboardView.slider``: the box has none of its own)."""
    if widget.description:
        return widget.description
    for parent in reversed(parents):
        slider = getattr(parent, "slider", None)
        if slider is not None and slider.description:
            return slider.description
    return ""


def _error_around(parents, view) -> widgets.HTML | None:
    """The ``ee-error`` widget of the nearest box around a text area that holds one (not the
    view's status line, which is the whole page's)."""
    for parent in reversed(parents):
        if parent is view:
            return None
        for w, _p in _walk(parent):
            if (
                isinstance(w, widgets.HTML)
                and "ee-error" in w._dom_classes
                and w is not view.status
            ):
                return w
    return None


def boxes(view) -> tuple[list[Box], list[str]]:
    """Every box of ``view`` a viewer can type into, and the problems of discovery (a box no
    message goes to, a box of an unknown kind)."""
    m, found, problems = view.model, [], []
    dock = view.dock
    twins = dock.twins if dock else {}
    number_texts = set()
    for w, parents in _walk(view):
        docked = dock is not None and (w is dock or dock in parents)
        if isinstance(w, NumberField):
            number_texts.add(id(w.text))
            name = _visible_label(w.text, (*parents, w))
            trait = _trait_of(twins if docked else view.controls, w)
            range_ = (m.traits()[trait].lo, m.traits()[trait].hi) if trait else (w.lo, w.hi)
            where = f"{'dock ' if docked else ''}{name or w.label!r}"
            own = None
            if docked:  # the view's own box of the same trait
                own = view.controls[trait]
                own = getattr(own, "field", own)
            found.append(
                Box("number", w.text, None, name, where, docked, field=w, range=range_, own=own)
            )
    for w, parents in _walk(view):
        if not isinstance(w, (widgets.Text, widgets.Textarea)) or id(w) in number_texts:
            continue
        if w is view.viewport:
            continue  # hidden, written by the page's script with its width: no viewer's box
        docked = dock is not None and dock in parents
        classes = set(w._dom_classes)
        known = sorted(classes & set(FREE_TEXT))
        if known:
            spec = FREE_TEXT[known[0]]
            found.append(
                Box(
                    "free",
                    w,
                    getattr(view, spec["report"]),
                    spec["name"],
                    f".{known[0]}",
                    docked,
                    free=spec,
                )
            )
        elif isinstance(w, widgets.Textarea) and ("ee-field" in classes or docked):
            if docked:  # the dock's copy: its text reaches the view's own box and its message
                trait = next(n for n, t in twins.items() if t is w)
                own = view.controls[trait]
                error = _error_around(next(p for v, p in _walk(view) if v is own), view)
            else:
                error = _error_around(parents, view)
            name = _visible_label(w, parents)
            where = f"{'dock ' if docked else ''}{name!r} (text area)"
            if error is None:
                problems.append(f"{where}: no ee-error widget for its message")
                continue
            found.append(Box("area", w, error, name, where, docked))
        else:
            problems.append(
                f"a text box ({type(w).__name__}, classes {sorted(classes)}) is neither "
                "a NumberField, nor a text area with a message, nor in FREE_TEXT"
            )
    return found, problems


# --- typing -----------------------------------------------------------------------------------
def _negative(box: Box) -> str:
    """A negative number below the box's range (``-1`` unless the range goes below it)."""
    lo = box.range[0] if box.range else 0
    return f"{lo - 1:g}" if lo <= -1 else "-1"


def _in_a_line(text: str, value: str) -> str | None:
    """A text area's first line with its first rating replaced by ``value`` (so that the
    number itself is judged, not the line's form); ``None`` without a rating."""
    line = text.splitlines()[0] if text.strip() else ""
    return _RATING.sub(value, line, count=1) if _RATING.search(line) else None


def _neighbour(box: Box) -> str:
    """A valid entry other than the box's: its value one step up (down at the top)."""
    f, (lo, hi) = box.field, box.range
    step = 1 if f.integer else (hi - lo) / 100
    value = f.value + step if f.value + step <= hi else f.value - step
    return str(int(value)) if f.integer else f"{value:g}"


def _range_text(lo, hi) -> str:
    """The range as an English page writes a number a viewer types (``100``, ``0.02``)."""
    return f"{lo:g} to {hi:g}"


def _sweep_number(view, outputs, box: Box) -> list[str]:
    problems, f = [], box.field
    own = box.own  # a dock's copy: the view's own box, which the copy's text reaches
    original, before = box.text.value, _params(view)
    if not box.name:
        return [f"{box.where}: the box has no visible label to name it"]
    for bad in BAD_VALUES:
        value = _negative(box) if bad == "<negative>" else bad
        box.text.value = value
        message = html.unescape(f.error)
        if box.name not in message or _range_text(*box.range) not in message:
            problems.append(
                f"{box.where}: {value!r} shows {message!r}, not the field's name "
                f"{box.name!r} and its range {_range_text(*box.range)!r}"
            )
        if own is not None and not own.error:
            problems.append(
                f"{box.where}: {value!r} typed in the dock leaves the view's box silent"
            )
        if _params(view) != before:
            problems.append(
                f"{box.where}: {value!r} changed the model: {_params(view)} != {before}"
            )
        problems += _forbidden(view, outputs, f"{box.where} {value!r}")
        box.text.value = original
        if f.error or not f.valid or (own is not None and own.error):
            problems.append(
                f"{box.where}: after {value!r}, the valid {original!r} leaves "
                f"{f.error or own.error!r}"
            )
    if box.docked:
        return problems
    # the model answers: another valid entry moves it, the first one brings it back
    text = _neighbour(box)
    box.text.value = text
    taken = f.valid and f.value == float(text)
    reader = next((NOT_A_SETTING[c] for c in f._dom_classes if c in NOT_A_SETTING), None)
    if reader:  # the box is read by a button: clicked, the model takes the value
        next(w for w, _p in _walk(view) if reader in w._dom_classes).click()
    moved = _params(view) != before
    if not taken or not moved:
        problems.append(
            f"{box.where}: the valid {text!r} after the bad entries is not taken "
            f"(field {f.value!r}, valid {f.valid}; the model moved: {moved})"
        )
    if view.status.value:
        problems.append(f"{box.where}: the valid {text!r} shows {view.status.value!r}")
    box.text.value = original
    if reader:
        view.apply(before)
    if _params(view) != before:
        problems.append(f"{box.where}: {original!r} again does not bring the model back")
    return problems


# Number boxes that set no trait as they are typed in (by CSS class): the button (its CSS
# class) that reads them into the model.
NOT_A_SETTING = {"ee-new-opponent": "ee-add-game"}  # 10's next game: "Add game"


def _sweep_area(view, outputs, box: Box) -> list[str]:
    problems, original, before = [], box.text.value, _params(view)
    if not box.name:
        return [f"{box.where}: the box has no visible label to name it"]
    entries = [(("-1" if bad == "<negative>" else bad), None) for bad in BAD_VALUES]
    # each bad number also in the place of a line's rating: the message gives the range
    entries += [
        (_in_a_line(original, v), v)
        for v in ("-1", "1e308", "99999999999999999999", "nan")
        if _in_a_line(original, v)
    ]
    for value, number in entries:
        box.text.value = value
        message = html.unescape(box.error.value)
        if box.name not in message:
            problems.append(
                f"{box.where}: {value!r} shows {message!r}, not the field's name {box.name!r}"
            )
        if number is not None:
            r = _RANGE.search(message)
            if not r or float(r.group(1)) <= float(number) <= float(r.group(2)):
                problems.append(
                    f"{box.where}: {value!r} shows {message!r}: no range that leaves out {number!r}"
                )
        if _params(view) != before:
            problems.append(f"{box.where}: {value!r} changed the model")
        problems += _forbidden(view, outputs, f"{box.where} {value!r}")
        box.text.value = original
        if box.error.value:
            problems.append(
                f"{box.where}: after {value!r}, the valid entry leaves {box.error.value!r}"
            )
    if box.docked:
        return problems
    # the model answers: the first rating one point up moves it; the first entry brings it back
    moved_text = _RATING.sub(lambda r: str(int(r.group()) + 1), original, count=1)
    box.text.value = moved_text
    if box.error.value or _params(view) == before:
        problems.append(
            f"{box.where}: the valid {moved_text[:40]!r} is not taken ({box.error.value!r})"
        )
    box.text.value = original
    if _params(view) != before:
        problems.append(f"{box.where}: the first entry again does not bring the model back")
    return problems


def _submit_free(view, box: Box, value: str) -> str:
    box.text.value = value
    getattr(view, box.free["button"]).click()
    return html.unescape(_TAGS.sub(" ", box.error.value))


def _sweep_free(view, outputs, box: Box) -> list[str]:
    spec, problems = box.free, []
    for value in spec["bad"]:
        report = _submit_free(view, box, spec["valid"])
        if not spec["valid_text"].search(report) or spec["bad_text"].search(report):
            return [f"{box.where}: the valid entry is not accepted: {report[-300:]!r}"]
        report = _submit_free(view, box, value)
        if not spec["bad_text"].search(report) or f"{box.name}:" not in report:
            problems.append(
                f"{box.where}: {value!r} shows no message naming {box.name!r}: {report[-300:]!r}"
            )
        problems += _forbidden(view, outputs, f"{box.where} {value!r}")
    return problems


SWEEP = {"number": _sweep_number, "area": _sweep_area, "free": _sweep_free}


@pytest.mark.parametrize("notebook", list(PAGES))
def test_every_box_refuses_bad_input_by_name_and_range_and_the_model_answers(notebook):
    """Each bad value: a message naming the field (the label the reader sees) and its range
    (from the model's trait), no Python text anywhere on the page, the model unchanged; the
    valid entry again clears the message, and another valid one moves the model."""
    view, outputs = _page(notebook)
    found, problems = boxes(view)
    assert any(b.kind == "number" for b in found), f"{notebook}: no number box found"
    for box in found:
        problems += SWEEP[box.kind](view, outputs, box)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("notebook", list(PAGES))
def test_markup_typed_or_pasted_into_any_box_stays_text(notebook):
    """Every payload (tests/site/audit.py's) in every box (a paste submitted): no HTML the page
    renders (the view's, its dock's, the notebook's live outputs) holds its markup unescaped,
    and the payload is refused in words (the box's message)."""
    view, outputs = _page(notebook)
    found, problems = boxes(view)
    for box in found:
        original = box.text.value
        for payload in PAYLOADS:
            entries = box.free["markup"](payload) if box.kind == "free" else [payload]
            for entry in entries:
                if box.kind == "free":
                    said = _submit_free(view, box, entry)
                else:
                    box.text.value = entry
                    said = html.unescape(
                        box.field.error if box.kind == "number" else box.error.value
                    )
                if not said.strip():
                    problems.append(f"{box.where}: {entry[:30]!r} gets no message")
                problems += _live_markup(view, outputs, f"{box.where} {entry[:30]!r}")
        if box.kind != "free":
            box.text.value = original
    assert not problems, "\n".join(problems)
