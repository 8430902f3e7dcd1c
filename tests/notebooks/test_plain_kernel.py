"""A reader's kernel is untouched by the published site's guards.

A kernel of JupyterLab (the ``python3`` kernel spec, as JupyterLab starts it) imports every
dashboard and builds a view, and still behaves as ipywidgets and IPython make it: a 200 KiB
message to a widget of its own arrives whole, and an error shows its traceback. A kernel
started with the published server's options (``KERNEL_ARGUMENTS``, which the server's kernel
manager gives each kernel it starts) drops that message and shows no traceback.

The message is the one a page sends when a text box changes (ipywidgets' ``update`` comm
message: jupyter-widgets/ipywidgets, ``packages/schema/messages.md``).
"""

from __future__ import annotations

import re

from jupyter_client.manager import start_new_kernel

from elo_explain.server.kernels import KERNEL_ARGUMENTS

BIG = 200 * 1024  # bytes of the pasted text: far over a widget's default budget (16 KiB)

SETUP = """
import importlib, pkgutil
import ipywidgets
import elo_explain.dashboards as _d
_handle, _show = ipywidgets.Widget._handle_msg, get_ipython().showtraceback
for _m in pkgutil.iter_modules(_d.__path__):
    importlib.import_module("elo_explain.dashboards." + _m.name)
from elo_explain.dashboards.chess_calculator import CalculatorModel, CalculatorView
_view = CalculatorView(CalculatorModel(), query="")
box = ipywidgets.Textarea("")
print(box.comm.comm_id)
"""


# the length that arrived; whether ipywidgets' and IPython's own functions are in place, and
# were not changed by importing the dashboards
CHECK = """
_ip = get_ipython()
_own = (not hasattr(ipywidgets.Widget._handle_msg, "_ee_budgeted")
        and getattr(_ip.showtraceback, "__func__", None) is type(_ip).showtraceback)
print(len(box.value), _own and ipywidgets.Widget._handle_msg is _handle,
      _own and _ip.showtraceback == _show)
"""


def _run(kc, code: str) -> tuple[str, list[dict]]:
    """``code``'s printed text and its iopub ``error`` messages."""
    out, errors = [], []

    def hook(msg):
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            errors.append(msg["content"])

    kc.execute_interactive(code, timeout=120, output_hook=hook)
    return "".join(out), errors


def _kernel_after_a_paste(extra_arguments: list[str]):
    """A kernel that imported every dashboard and was sent a 200 KiB update of a text box:
    ``(box's length, handler and showtraceback unchanged, the error seen of 1/0)``."""
    km, kc = start_new_kernel(
        kernel_name="python3", extra_arguments=extra_arguments, startup_timeout=120
    )
    try:
        printed, errors = _run(kc, SETUP)
        assert not errors, errors
        comm_id = printed.split()[-1]
        update = kc.session.msg(
            "comm_msg",
            {
                "comm_id": comm_id,
                "data": {
                    "method": "update",
                    "state": {"value": "1600 win\n" * (BIG // 9)},
                    "buffer_paths": [],
                },
            },
        )
        kc.shell_channel.send(update)
        printed, _ = _run(kc, CHECK)
        length, same_handler, same_traceback = printed.split()
        _, errors = _run(kc, "1 / 0")
        return int(length), same_handler == "True", same_traceback == "True", errors
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_readers_kernel_keeps_ipywidgets_and_ipython_as_they_are():
    length, same_handler, same_traceback, errors = _kernel_after_a_paste([])
    assert length == BIG // 9 * 9 > 200_000, "the 200 KiB paste did not arrive"
    assert same_handler and same_traceback
    assert [e["ename"] for e in errors] == ["ZeroDivisionError"]
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(errors[0]["traceback"]))  # no colours
    assert "1 / 0" in shown and "division by zero" in shown


def test_a_published_kernel_drops_the_paste_and_shows_no_traceback():
    length, same_handler, same_traceback, errors = _kernel_after_a_paste(list(KERNEL_ARGUMENTS))
    assert length == 0, "a published kernel took a 200 KiB message to a plain text box"
    assert not same_handler and not same_traceback
    assert errors == []
