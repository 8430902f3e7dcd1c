"""Voilà 0.5.13: ``voila.utils.wait_for_request``, the helper a preheated kernel calls, cannot
be imported without the whole server.

Standalone reproduction (Voilà 0.5.13): the helper only opens one websocket (``websockets``)
and reads environment variables, but ``import voila.utils`` first runs ``voila/__init__.py``
(which imports ``voila.server_extension``, hence ``jupyter_server``), and ``voila/utils.py``
itself imports ``jupyter_server`` and ``jupyterlab_server`` at module level. In a kernel that
is seconds of CPU before the notebook's first cell can wait for its request (jsonschema,
which jupyter_server's event logging imports, compiles its URI grammars as it is imported).

Run: ``python docs/upstream/voila_wait_for_request_import.py``; exits 1 while importing the
helper pulls in the server packages, 0 once it imports on its own.
"""

import subprocess
import sys

PROBE = """
import sys, time
start = time.process_time()
from voila.utils import wait_for_request
spent = time.process_time() - start
heavy = sorted(m for m in ("jupyter_server", "jupyterlab_server", "jsonschema", "tornado")
               if m in sys.modules)
print(f"{spent:.2f}", ",".join(heavy))
"""


def main() -> int:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout.split()
    spent, heavy = float(out[0]), (out[1].split(",") if len(out) > 1 else [])
    print(f"from voila.utils import wait_for_request: {spent:.2f} CPU-s, imported {heavy}")
    if "jupyter_server" in heavy or "jupyterlab_server" in heavy:
        print("BUG: the kernel-side helper imports the server packages")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
