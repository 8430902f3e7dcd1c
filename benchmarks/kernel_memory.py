"""What one viewer's kernel holds, against a bare notebook's kernel measured the same way: the
per-kernel memory the ceilings assume (``elo_explain.server.kernels.KERNEL_MIB``) and its RSS
ceiling (``ViewerKernels.kernel_rss_mib``).

One ``voila`` with the published configuration (no pool: a kernel per render, as the pool's
kernels are the same once handed out) serves the dashboards and
``benchmarks/notebooks/bare.ipynb`` (numpy, matplotlib and ipywidgets imported, one slider
echoed to a label). Each page is rendered by a plain HTTP client, and its widgets' state is
asked for over the kernel's websocket as the page's widget manager asks for it; when the
kernel idles:

* **ready** -- the kernel's RSS;
* **after use** -- its RSS after the heaviest thing a viewer may send the page: for 08 a
  CSV file at the upload limit (2 MB, 166,658 games) read and fitted, for 01 and 10 a pasted
  list of 100 games; other pages as ready;
* **abuse** -- the reported abuse, 435 updates of 3.8 MB to 01's games box: the
  kernel's peak RSS while they came.

Each as MiB and as a ratio to the bare notebook's ready kernel. Writes
``benchmarks/KERNEL_MEMORY.md``.

    .venv/bin/python benchmarks/kernel_memory.py
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from browser_dashboards import BARE, _serve_dir  # noqa: E402

from elo_explain.dashboards import INDEX_NOTEBOOK  # noqa: E402
from elo_explain.dashboards.calibrate import MAX_UPLOAD_BYTES  # noqa: E402
from elo_explain.dashboards.index import published  # noqa: E402
from harness import (  # noqa: E402
    KernelSocket,
    Viewer,
    kernel_pids,
    send_updates,
    start_voila,
    stop,
    widget_states,  # noqa: E402
)

OUT = HERE / "KERNEL_MEMORY.md"
CALCULATOR, CALIBRATE, NEW_TO_FIDE = (
    "01_chess_calculator.ipynb",
    "08_calibrate.ipynb",
    "10_new_to_fide.ipynb",
)
ABUSE = (435, 3_800_000)


def _kernel(server, kernel_id: str) -> psutil.Process:
    (pid,) = [p for p in kernel_pids(server) if kernel_id in " ".join(psutil.Process(p).cmdline())]
    return psutil.Process(pid)


def _idle(kernel: psutil.Process, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t = kernel.cpu_times()
        before = t.user + t.system
        time.sleep(1.0)  # a 1-second CPU sample
        t = kernel.cpu_times()
        if t.user + t.system - before < 0.05:
            return


def _comm(states: dict, css: str) -> str:
    return next(c for c, s in states.items() if css in s.get("_dom_classes", ()))


def _use(base: str, kernel_id: str, notebook: str, states: dict) -> None:
    """The heaviest input a viewer may send the page (see the module's docstring)."""
    ws = KernelSocket(base, kernel_id, "v1")
    if notebook == CALIBRATE:
        rows = b"rating,opponent,score\n" + b"1700,1500,1\n" * ((MAX_UPLOAD_BYTES - 100) // 12)
        ws.send(
            "comm_msg",
            {
                "comm_id": _comm(states, "ee-upload"),
                "data": {
                    "method": "update",
                    "buffer_paths": [["value", 0, "content"]],
                    "state": {
                        "value": [
                            {
                                "name": "big.csv",
                                "type": "text/csv",
                                "size": len(rows),
                                "last_modified": 1735689600000,
                            }
                        ]
                    },
                },
            },
            buffers=[rows],
        )
    elif notebook in (CALCULATOR, NEW_TO_FIDE):
        comm = next(
            (c for c, s in states.items() if s.get("_model_name") == "TextareaModel"), None
        )  # the games box (each page has one)
        if comm is not None:
            ws.send(
                "comm_msg",
                {
                    "comm_id": comm,
                    "data": {
                        "method": "update",
                        "buffer_paths": [],
                        "state": {"value": "1700 1\n" * 100},
                    },
                },
            )
    barrier = ws.send("kernel_info_request", {})
    for m in iter(ws.receive, None):
        if m["parent_header"].get("msg_id") == barrier:
            break
    ws.close()


def _abuse(base: str, server, kernel_id: str, states: dict) -> int:
    """The kernel's peak RSS while the issue's updates come (bytes)."""
    kernel = _kernel(server, kernel_id)
    games = _comm(states, "ee-games-text")
    count, size = ABUSE
    text = ("1600 win, " * (size // 10 + 1))[:size]
    peak = [kernel.memory_info().rss]
    send_updates(
        base,
        kernel_id,
        games,
        (text for _ in range(count)),
        lambda i: i % 10 or peak.append(kernel.memory_info().rss),
    )
    _idle(kernel)
    return max(*peak, kernel.memory_info().rss)


def measure() -> tuple[list[dict], int]:
    folder = _serve_dir()
    names = [BARE, INDEX_NOTEBOOK] + [d.notebook for d in published()]
    allow = [f"--PublishedOnly.notebooks={n}" for n in names]
    log = open(HERE / "kernel_memory.log", "w")
    server, base = start_voila(*allow, notebooks=folder, log=log)
    rows, abuse = [], 0
    try:
        voila = psutil.Process(server.pid)
        for notebook in names:
            viewer = Viewer(base)
            _, kernel_id = viewer.render(notebook)
            states = widget_states(base, kernel_id)
            page = KernelSocket(base, kernel_id, "v1")  # the page's websocket, open all along
            kernel = _kernel(server, kernel_id)
            _idle(kernel)
            ready = kernel.memory_info().rss
            _use(base, kernel_id, notebook, states)
            _idle(kernel)
            used = kernel.memory_info().rss
            if notebook == CALCULATOR:
                abuse = _abuse(base, server, kernel_id, states)
            rows.append({"notebook": notebook, "ready": ready, "used": used})
            print(f"{notebook}: ready {ready >> 20} MiB, after use {used >> 20} MiB", flush=True)
            page.close()
            viewer.close()
        rows.append(
            {
                "notebook": "(the Voilà server)",
                "ready": voila.memory_info().rss,
                "used": voila.memory_info().rss,
            }
        )
    finally:
        stop(server)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
    return rows, abuse


def report(rows: list[dict], abuse: int) -> str:
    bare = rows[0]["ready"]
    mib = lambda b: f"{b / 2**20:.0f} MiB"  # noqa: E731
    lines = [
        "# What one viewer's kernel holds: ready, after its heaviest input, under abuse",
        "",
        "Written by `benchmarks/kernel_memory.py`: the published `voila.json` (no pool), a plain "
        "HTTP render and the widgets' state asked for over the kernel's websocket, as a page's "
        "widget manager asks; RSS when the kernel idles, and as a ratio to the bare notebook's "
        "kernel measured the same way in the same run. After use: 08 read and fitted a CSV at "
        "the upload limit (2 MB), 01 and 10 a pasted list of 100 games.",
        "",
        "| page | RSS ready | × bare | RSS after use | × bare |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rows[:-1]:
        lines.append(
            f"| {r['notebook']} | {mib(r['ready'])} | {r['ready'] / bare:.2f} | "
            f"{mib(r['used'])} | {r['used'] / bare:.2f} |"
        )
    pages = rows[1:-1]
    most = max(r["used"] for r in pages)
    count, size = ABUSE
    lines += [
        "",
        f"Pages: {mib(min(r['ready'] for r in pages))}–{mib(max(r['ready'] for r in pages))} "
        f"ready, at most {mib(most)} after use ({most / bare:.2f} × the bare kernel's "
        f"{mib(bare)}).",
        f"Abuse: {count} updates of {size / 1e6:.1f} MB to 01's games box: the kernel's peak "
        f"{mib(abuse)} ({abuse / bare:.2f} × bare; the issue saw 1,607 MiB before the budgets).",
        f"The Voilà server itself: {mib(rows[-1]['ready'])} after all of this.",
        "",
        "The ceilings assume `KERNEL_MIB` per viewer's kernel (`elo_explain/server/kernels.py`): "
        "the most after use, with a margin of about a quarter for what a kernel gains over a "
        "long session; a kernel over `ViewerKernels.kernel_rss_mib` (512 MiB) is shut down, and "
        "RLIMIT_DATA (1 GiB) refuses an allocation beyond it in the kernel itself.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    rows, abuse = measure()
    text = report(rows, abuse)
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
