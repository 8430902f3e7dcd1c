"""What a page may send its kernel: each widget's byte budget, declared here, enforced only in
the published site's kernels.

A page talks to its kernel only through its widgets: a text box's value, a slider's, an
upload's file, a button's click, each a comm message to one widget. A widget that takes a
pasted list or a file declares its own budget with :func:`set_budget`; any other widget has
:data:`DEFAULT_BUDGET` (a number, a choice, a short text). The published server's kernels drop
a message over its widget's budget before anything parses it
(:func:`elo_explain.server.published_kernel.install_budget`); a kernel of JupyterLab, or of
any other server, never loads that guard, so a reader's own widgets there take what they are
sent. Counting stops at the budget, so a refused message costs no more than the budget to
look at (:func:`message_bytes`). A text box's own length check (:func:`fits`) comes before
the text is split into rows.

>>> import ipywidgets as widgets
>>> box = set_budget(widgets.Textarea("1600 win"), 2 * DEFAULT_BUDGET)
>>> budget_of(box), budget_of(widgets.Text()), refused(box)
(32768, 16384, 0)
"""

from __future__ import annotations

import ipywidgets

__all__ = [
    "DEFAULT_BUDGET",
    "ROW_CHARS",
    "set_budget",
    "budget_of",
    "refused",
    "message_bytes",
    "fits",
]

#: bytes one message to a widget may hold, unless the widget declares its own budget: far
#: above a number, a choice or a list of 100 games (``ROW_CHARS`` each)
DEFAULT_BUDGET = 16 * 1024
#: characters one row of a pasted list may take ("1600 win", "2400 0.5", room for spaces)
ROW_CHARS = 40


def set_budget(widget: ipywidgets.Widget, nbytes: int) -> ipywidgets.Widget:
    """Let ``widget`` take messages of up to ``nbytes`` (a paste box, a file upload)."""
    widget._ee_budget = int(nbytes)
    return widget


def budget_of(widget: ipywidgets.Widget) -> int:
    """The bytes one message to ``widget`` may hold (:func:`set_budget`, else the default)."""
    return getattr(widget, "_ee_budget", DEFAULT_BUDGET)


def refused(widget: ipywidgets.Widget) -> int:
    """How many messages to ``widget`` were over its budget and dropped."""
    return getattr(widget, "_ee_refused", 0)


def message_bytes(data, buffers=(), limit: int = 1 << 62) -> int:
    """The bytes of a widget message's data (texts as UTF-8, every key and value) and its
    binary buffers, counted until they pass ``limit``.

    >>> message_bytes({"state": {"value": "ab"}}), message_bytes({"v": "é"}, [b"123"])
    (12, 6)
    """
    total = sum(memoryview(b).nbytes for b in buffers or ())
    stack = [data]
    while stack and total <= limit:
        value = stack.pop()
        if isinstance(value, str):
            total += (
                len(value)
                if value.isascii() or len(value) > limit
                else len(value.encode("utf-8", "surrogatepass"))
            )
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            total += memoryview(value).nbytes
        else:
            total += 8  # a number, a boolean, None
    return total


def fits(text: str, rows: int) -> bool:
    """Whether ``text`` is short enough to hold at most ``rows`` rows of a pasted list: checked
    before the text is split, so a long text costs nothing more than its length.

    >>> fits("1600 win, 1700 draw", 2), fits("1600 win" * 1000, 100)
    (True, False)
    """
    return len(text or "") <= rows * ROW_CHARS
