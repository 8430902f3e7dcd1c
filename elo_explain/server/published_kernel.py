"""What the published site's kernels run before a page's notebook: the site's guards, in those
kernels only.

An IPython extension (``load_ipython_extension``), which the published server's kernel
manager names on every kernel's command line
(:data:`~elo_explain.server.kernels.KERNEL_ARGUMENTS`: ``--IPKernelApp.extensions=...``).
A kernel of JupyterLab, of a plain ``voila`` or of nbclient never loads it: importing the
package or a dashboard changes nothing global, and a reader's own widgets and tracebacks
there behave as ipywidgets and IPython make them. In a published kernel it

* **gives every widget message a byte budget** (:func:`install_budget`), checked before the
  message reaches the widget: a message over its widget's budget
  (:func:`elo_explain.interactive.budget.budget_of`) is dropped and counted;
* **keeps tracebacks off the page** (:func:`quiet_tracebacks`): an error in a widget
  callback is logged to the kernel's own log, not sent to the page (it names the server's
  files; the server drops such messages as well, ``channels.GuardedConnection``);
* **makes a preheated kernel wait for its viewer's request** before a view reads its link
  (:func:`elo_explain.interactive.link.wait_for_request_with`, :mod:`.preheat`).

**Upstream**: ipywidgets has no per-message size limit and no hook before a message's state
is set, so :func:`install_budget` wraps ``Widget._handle_msg``, the one entry point of every
comm message to a widget (``docs/upstream/``). IPython's ``InteractiveShell.showtraceback``
is the documented place where a shell shows an error; the kernel's own shell's is replaced.

>>> import ipywidgets as widgets
>>> from elo_explain.interactive.budget import DEFAULT_BUDGET, refused, set_budget
>>> install_budget()
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
>>> uninstall_budget()
"""

from __future__ import annotations

import logging
import os
import sys

__all__ = ["load_ipython_extension", "install_budget", "uninstall_budget", "quiet_tracebacks"]

_log = logging.getLogger("elo_explain.published")


def load_ipython_extension(shell) -> None:
    """Install the published kernel's guards in ``shell``'s kernel (IPython's extension API)."""
    from elo_explain.interactive.link import wait_for_request_with
    from elo_explain.server.preheat import wait_for_request

    install_budget()
    quiet_tracebacks(shell)
    if os.environ.get("VOILA_PREHEAT") == "True":  # a kernel of the pool, before its viewer
        wait_for_request_with(wait_for_request)


def install_budget() -> None:
    """Wrap ``ipywidgets.Widget._handle_msg`` once: a message over the widget's budget is
    dropped (and counted, :func:`~elo_explain.interactive.budget.refused`), any other goes on
    as before."""
    import ipywidgets

    from elo_explain.interactive.budget import budget_of, message_bytes, refused

    handle = ipywidgets.Widget._handle_msg
    if getattr(handle, "_ee_budgeted", False):
        return

    def _handle_msg(self, msg):
        budget = budget_of(self)
        try:
            data, buffers = msg["content"]["data"], msg.get("buffers") or ()
        except (KeyError, TypeError):
            return None  # not a widget message
        if message_bytes(data, buffers, budget) > budget:
            self._ee_refused = refused(self) + 1
            return None
        return handle(self, msg)

    _handle_msg._ee_budgeted = True
    _handle_msg._ee_unbudgeted = handle
    ipywidgets.Widget._handle_msg = _handle_msg


def uninstall_budget() -> None:
    """Put ipywidgets' own ``Widget._handle_msg`` back (for tests that install the guard in
    their own process, as a published kernel does)."""
    import ipywidgets

    handle = ipywidgets.Widget._handle_msg
    ipywidgets.Widget._handle_msg = getattr(handle, "_ee_unbudgeted", handle)


def quiet_tracebacks(shell) -> None:
    """``shell``'s tracebacks go to the kernel's log, not to the page: ipywidgets shows an
    error in a widget callback through ``shell.showtraceback``, and the traceback names the
    server's files."""

    def showtraceback(*args, **kwargs):
        kind = sys.exc_info()[0]
        _log.warning(
            "widget callback failed: %s (not shown to the viewer)", getattr(kind, "__name__", kind)
        )

    shell.showtraceback = showtraceback
