"""What a page may send its kernel: a byte budget for every widget message, checked in the
kernel before the message reaches the widget (issue 26, 3).

A page talks to its kernel only through its widgets: a text box's value, a slider's, an
upload's file, a button's click, each a comm message to one widget. :func:`install` wraps
ipywidgets' one entry point for them (``Widget._handle_msg``, which sets the state and runs
the dashboard's observers) once, for every widget of the kernel: a message whose state and
buffers hold more than the widget's budget is dropped there, before anything parses it
(:data:`DEFAULT_BUDGET` for a widget that declares none: a number, a choice, a short text; a
box that takes a pasted list or a file declares its own with :func:`set_budget`). Counting
stops at the budget, so a refused message costs no more than the budget to look at.

The server bounds the rest before a message reaches the kernel: its size and the messages and
bytes a page may send a second (:class:`~elo_explain.server.channels.GuardedConnection`). A
text box's own length check (:func:`fits`) comes before the text is split into rows.

>>> import ipywidgets as widgets
>>> install()
>>> box = widgets.Textarea("1600 win")
>>> def update(value):
...     return {"content": {"data": {"method": "update", "state": {"value": value},
...                                  "buffer_paths": []}}, "buffers": []}
>>> box._handle_msg(update("1700 draw")); box.value
'1700 draw'
>>> box._handle_msg(update("x" * (DEFAULT_BUDGET + 1))); box.value, refused(box)
('1700 draw', 1)
>>> _ = set_budget(box, 2 * DEFAULT_BUDGET); box._handle_msg(update("y" * (DEFAULT_BUDGET + 1)))
>>> len(box.value)
16385
"""

from __future__ import annotations

import ipywidgets

__all__ = ["DEFAULT_BUDGET", "ROW_CHARS", "install", "set_budget", "refused", "message_bytes",
           "fits"]

#: bytes one message to a widget may hold, unless the widget declares its own budget: far
#: above a number, a choice or a list of 100 games (``ROW_CHARS`` each)
DEFAULT_BUDGET = 16 * 1024
#: characters one row of a pasted list may take ("1600 win", "2400 0.5", room for spaces)
ROW_CHARS = 40


def set_budget(widget: ipywidgets.Widget, nbytes: int) -> ipywidgets.Widget:
    """Let ``widget`` take messages of up to ``nbytes`` (a paste box, a file upload)."""
    widget._ee_budget = int(nbytes)
    return widget


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
            total += len(value) if value.isascii() or len(value) > limit else len(
                value.encode("utf-8", "surrogatepass"))
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


def install() -> None:
    """Wrap ``ipywidgets.Widget._handle_msg`` once: a message over the widget's budget is
    dropped (and counted, :func:`refused`), any other goes on as before."""
    handle = ipywidgets.Widget._handle_msg
    if getattr(handle, "_ee_budgeted", False):
        return

    def _handle_msg(self, msg):
        budget = getattr(self, "_ee_budget", DEFAULT_BUDGET)
        try:
            data, buffers = msg["content"]["data"], msg.get("buffers") or ()
        except (KeyError, TypeError):
            return None  # not a widget message
        if message_bytes(data, buffers, budget) > budget:
            self._ee_refused = refused(self) + 1
            return None
        return handle(self, msg)

    _handle_msg._ee_budgeted = True
    ipywidgets.Widget._handle_msg = _handle_msg
