"""One Voilà process against two on the same machine, behind one nginx.

``deploy/publish.py --workers=1`` and ``--workers=2`` in turn, each as ``make publish`` runs it
(nginx in front, the published ``voila.json``), without the preheated pool (so a page view's
CPU is all spent while the benchmark watches) and with the per-address ceiling raised (every
viewer here comes from 127.0.0.1). For each, in the same run:

* **viewers held** -- the viewers' kernels the processes admit together (the sum of their
  default ceilings, ``elo_explain.server.kernels.default_ceilings``, for this machine's memory
  and the pool ``publish.py`` would give each), less what the extra Voilà processes hold
  themselves (their resident memory when idle, measured, in 160 MiB kernels);
* **page-view CPU** -- ``VIEWERS`` viewers arrive, ``ARRIVING`` at a time, each with a browser's
  own routing cookie: the landing redirect, the render of 03 (``?divisor=800``) and the page's
  kernel websocket with the widget state the page asks for. CPU time of the whole tree (Voilà
  processes, kernels, nginx) divided by the views;
* **slider latency** -- then the ``VIEWERS`` viewers move 03's divisor slider together, each
  ``MOVES`` times, ``THINK_S`` apart: the page's own message (a widget ``update`` of the
  slider's value over its kernel's websocket) to the kernel's ``idle`` for it, as the page
  sees it. Median and 90th percentile, and the CPU a move costs.

Two against one as ratios (in the same run, on the same machine: its other load is in both).
Writes ``benchmarks/WORKERS.md``.

    .venv/bin/python benchmarks/workers.py [--viewers 40] [--moves 10]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import requests

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "deploy"))

import publish  # noqa: E402

from elo_explain.server.gate import published_notebooks  # noqa: E402
from elo_explain.server.kernels import (  # noqa: E402
    KERNEL_MIB,
    default_ceilings,
    machine_memory_mib,
)
from harness import KERNEL_ID, KernelSocket, _message, free_port, wait_http  # noqa: E402

OUT = HERE / "WORKERS.md"
NOTEBOOK = "03_backgammon_divisor.ipynb"
SLIDER = "ee-divisor-slider"
VIEWERS, ARRIVING, MOVES, THINK_S = 40, 4, 10, 0.5
HTTP_TIMEOUT = 300
PREFIX = re.compile(r"/(w[0-9]+)/voila/render/")


def _cpu(processes) -> float:
    total = 0.0
    for p in processes:
        try:
            t = p.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
        except psutil.NoSuchProcess:
            continue
    return total


def _tree(pub: subprocess.Popen) -> list[psutil.Process]:
    return psutil.Process(pub.pid).children(recursive=True)


class WidgetSocket(KernelSocket):
    """The kernel websocket as the page's widget manager speaks it: its control comm says
    which control protocol it speaks (ipywidgets refuses a comm_open without it)."""

    def send(
        self, msg_type: str, content: dict, channel: str = "shell", metadata: dict | None = None
    ) -> str:
        from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

        msg = _message(msg_type, content, self.session)
        msg["metadata"] = metadata or {}
        parts = [
            json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")
        ]
        self.ws.send(serialize_msg_to_ws_v1(parts, channel))
        return msg["header"]["msg_id"]


def slider_model(ws) -> str:
    """What a page does once rendered: the widgets' control comm asks for every widget's
    state; the model id of 03's divisor slider among them."""
    control = secrets.token_hex(16)
    ws.send(
        "comm_open",
        {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
        metadata={"version": "1.0.0"},
    )
    ws.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    while True:
        msg = ws.receive()
        data = msg["content"].get("data") or {}
        if msg["header"]["msg_type"] == "comm_msg" and data.get("method") == "update_states":
            for model, state in data["states"].items():
                if SLIDER in state["state"].get("_dom_classes", []):
                    return model


class Viewer:
    """A page without a browser: what its HTML and its widget manager send."""

    def __init__(self, base: str):
        self.base, self.http = base, requests.Session()
        self.http.cookies.set("ee_route", secrets.token_hex(16))  # a browser's own
        r = self.http.get(f"{base}/voila/render/{NOTEBOOK}?divisor=800", timeout=HTTP_TIMEOUT)
        r.raise_for_status()
        prefix = PREFIX.search(r.url)  # none with one process: the site as before
        self.process = prefix.group(1) if prefix else "/"
        self.kernel = KERNEL_ID.search(r.text).group(1)
        self.ws = WidgetSocket(f"{base}/{self.process}" if prefix else base, self.kernel, "v1")
        self.slider = slider_model(self.ws)
        self.latencies: list[float] = []

    def move(self, value: int) -> None:
        sent = time.perf_counter()
        msg_id = self.ws.send(
            "comm_msg",
            {
                "comm_id": self.slider,
                "data": {"method": "update", "state": {"value": value}, "buffer_paths": []},
            },
        )
        answered = False  # the view's answer: another widget's new state (the summary)
        while True:
            msg = self.ws.receive()
            if msg["header"]["msg_type"] == "comm_msg" and msg["content"]["comm_id"] != self.slider:
                answered = True
            if (
                msg["header"]["msg_type"] == "status"
                and msg["content"]["execution_state"] == "idle"
                and msg["parent_header"].get("msg_id") == msg_id
            ):
                if not answered:
                    raise RuntimeError(f"kernel {self.kernel}: the view did not answer a move")
                self.latencies.append(time.perf_counter() - sent)
                return

    def close(self) -> None:
        self.ws.close()
        self.http.close()


def _together(items, fn, at_once: int) -> list:
    """``fn(item)`` for every item, ``at_once`` threads at a time; results in order."""
    results: list = [None] * len(items)

    def run(i):
        try:
            results[i] = fn(items[i])
        except Exception as exc:  # noqa: BLE001 - reported
            results[i] = exc

    for start in range(0, len(items), at_once):
        threads = [
            threading.Thread(target=run, args=(i,))
            for i in range(start, min(start + at_once, len(items)))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return results


def held(workers: int, voila_rss: list[int]) -> tuple[int, int]:
    """The viewers' kernels the processes admit together, and that less the memory the
    processes beyond the first hold (in kernels)."""
    total, pages = machine_memory_mib(), len(published_notebooks())
    langs = len(publish.pool_languages(total // workers, pages))
    ceilings = sum(
        default_ceilings(total, pool_kernels=langs * pages, share=1 / workers)[0]
        for _ in range(workers)
    )
    extra = sum(sorted(voila_rss)[:-1]) / 2**20 / KERNEL_MIB if workers > 1 else 0
    return ceilings, int(ceilings - extra)


def measure(workers: int, viewers: int, moves: int) -> dict:
    port = free_port()
    log = open(Path(tempfile.gettempdir()) / f"ee-workers-{workers}.log", "w")  # the servers' log
    pub = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "deploy" / "publish.py"),
            f"--port={port}",
            f"--workers={workers}",
            "--host=127.0.0.1",
            "--",
            "--VoilaConfiguration.preheat_kernel=False",
            f"--ViewerKernels.max_kernels_per_address={viewers + 10}",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    row: dict = {"workers": workers}
    try:
        prefixes = ["w0", "w1"][:workers] if workers > 1 else [""]
        for p in prefixes:
            wait_http(f"{base}/{p + '/' if p else ''}voila/static/voila.js", pub, timeout=180)
        time.sleep(5)  # idle after start (a settle time for the RSS, not a wait for a result)
        voilas = [c for c in psutil.Process(pub.pid).children() if c.name() != "nginx"]
        row["voila_rss"] = [v.memory_info().rss for v in voilas]
        row["held"], row["held_net"] = held(workers, row["voila_rss"])

        before = _cpu(_tree(pub))
        started = time.monotonic()
        opened = _together([base] * viewers, Viewer, ARRIVING)
        row["arrivals_s"] = time.monotonic() - started
        pages = [v for v in opened if isinstance(v, Viewer)]
        row["failed"] = [str(e)[:120] for e in opened if not isinstance(e, Viewer)]
        row["view_cpu"] = (_cpu(_tree(pub)) - before) / max(len(pages), 1)
        row["spread"] = {
            p: sum(v.process == p for v in pages) for p in sorted({v.process for v in pages})
        }

        def drag(viewer: Viewer) -> None:
            for i in range(moves):
                viewer.move(850 if i % 2 == 0 else 800)
                time.sleep(THINK_S)  # the viewer's rhythm between two moves

        before = _cpu(_tree(pub))
        _together(pages, drag, len(pages))
        moved = [t for v in pages for t in v.latencies]
        row["move_cpu"] = (_cpu(_tree(pub)) - before) / max(len(moved), 1)
        row["moves"] = len(moved)
        row["latency_median"] = statistics.median(moved)
        row["latency_p90"] = statistics.quantiles(moved, n=10)[-1]
        for v in pages:
            v.close()
    finally:
        pub.send_signal(signal.SIGINT)
        try:
            pub.wait(timeout=120)
        except subprocess.TimeoutExpired:
            pub.kill()
        log.close()
    print(json.dumps({k: v for k, v in row.items() if k != "failed"}), row["failed"], flush=True)
    return row


def report(one: dict, two: dict, viewers: int, moves: int) -> str:
    def ms(x):
        return f"{1e3 * x:.0f} ms"

    load = os.getloadavg()
    lines = [
        "# One Voilà process against two (`benchmarks/workers.py`)",
        "",
        f"This machine: {machine_memory_mib() / 1024:.0f} GiB, {os.cpu_count()} cores, shared "
        f"(load average at the end {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}). "
        f"`deploy/publish.py --workers=1` and `--workers=2`, nginx in front, no pool; "
        f"{viewers} viewers arriving {ARRIVING} at a time, each with its own routing cookie, on "
        f"{NOTEBOOK}; then all {viewers} moving its divisor slider {moves} times, "
        f"{THINK_S:g} s apart (the page's widget message, to the kernel's idle for it).",
        "",
        "| | 1 process | 2 processes | 2 / 1 |",
        "|---|---:|---:|---:|",
        f"| viewers held (sum of the default ceilings) | {one['held']} | {two['held']} | "
        f"{two['held'] / one['held']:.2f} |",
        f"| less the second Voilà's own memory (idle RSS, in 160 MiB kernels) | "
        f"{one['held_net']} | {two['held_net']} | {two['held_net'] / one['held_net']:.2f} |",
        f"| Voilà processes' idle RSS | "
        f"{' + '.join(f'{r / 2**20:.0f}' for r in one['voila_rss'])} MiB | "
        f"{' + '.join(f'{r / 2**20:.0f}' for r in two['voila_rss'])} MiB | |",
        f"| pages served (of {viewers}); by process | {sum(one['spread'].values())} | "
        f"{sum(two['spread'].values())}: "
        + ", ".join(f"/{p}/ {n}" for p, n in two["spread"].items())
        + " | |",
        f"| page-view CPU (Voilà + kernel + nginx) | {one['view_cpu']:.2f} s | "
        f"{two['view_cpu']:.2f} s | {two['view_cpu'] / one['view_cpu']:.2f} |",
        f"| all {viewers} arrived in | {one['arrivals_s']:.0f} s | {two['arrivals_s']:.0f} s | "
        f"{two['arrivals_s'] / one['arrivals_s']:.2f} |",
        f"| slider move, median | {ms(one['latency_median'])} | {ms(two['latency_median'])} | "
        f"{two['latency_median'] / one['latency_median']:.2f} |",
        f"| slider move, 90th percentile | {ms(one['latency_p90'])} | {ms(two['latency_p90'])} | "
        f"{two['latency_p90'] / one['latency_p90']:.2f} |",
        f"| CPU per move (all processes) | {ms(one['move_cpu'])} | {ms(two['move_cpu'])} | "
        f"{two['move_cpu'] / one['move_cpu']:.2f} |",
        "",
    ]
    failed = one["failed"] + two["failed"]
    if failed:
        lines += ["Viewers that failed: " + "; ".join(failed), ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--viewers", type=int, default=VIEWERS)
    ap.add_argument("--moves", type=int, default=MOVES)
    ap.add_argument(
        "--two-first",
        action="store_true",
        help="measure two processes first (the machine's other load drifts)",
    )
    ap.add_argument("--append", action="store_true", help=f"append to {OUT.name}")
    args = ap.parse_args()
    if args.two_first:
        two = measure(2, args.viewers, args.moves)
        one = measure(1, args.viewers, args.moves)
    else:
        one = measure(1, args.viewers, args.moves)
        two = measure(2, args.viewers, args.moves)
    text = report(one, two, args.viewers, args.moves)
    order = "two processes measured first" if args.two_first else "one process measured first"
    text = text.replace("\n\n| |", f" Order: {order}.\n\n| |", 1)
    if args.append:
        text = OUT.read_text() + "\n" + text.split("\n", 2)[2]
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
