"""What one viewer costs the machine, against a bare notebook measured the same way.

One ``voila`` with the published configuration (the preheated pool: every page is served by
a kernel that already ran its notebook, as on the published site) serves the dashboards and
``benchmarks/notebooks/bare.ipynb`` (numpy, matplotlib and ipywidgets imported, one slider
echoed to a label) and ``bare_figure.ipynb`` (the same plus one drawn figure and a table).
Round-robin, ``repeats`` times, a viewer arrives at a full, idle pool and opens each page in
headless Chromium; when the page is ready:

* **kernel CPU per page view** -- the CPU time of the kernel the page got: its start, its run
  of the notebook (done in the pool, before the viewer came) and the page's connection. The
  pool then runs the notebook again for the next viewer, so this is what every arriving viewer
  costs the machine;
* **memory per viewer** -- that kernel's RSS and USS (the memory no other process shares)
  while the page is open.

Each as a median and as a ratio to the bare notebook's. Writes ``benchmarks/CAPACITY.md``.

    .venv/bin/python benchmarks/capacity.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from browser_dashboards import BARE, FIGURE, _kernels, _serve_dir, _wait_pool_idle  # noqa: E402

from elo_explain.dashboards import INDEX_NOTEBOOK  # noqa: E402
from elo_explain.dashboards.index import published  # noqa: E402
from harness import READY, launch_chromium, start_voila, stop  # noqa: E402

OUT = HERE / "CAPACITY.md"
TIMEOUT_MS = 180_000
KERNEL_WS = re.compile(r"/api/kernels/([0-9a-f-]{36})/channels")


def _cpu(p: psutil.Process) -> float:
    t = p.cpu_times()
    return t.user + t.system


def _view(browser, server, base: str, notebook: str) -> dict | None:
    """One viewer on one page from the pool: the CPU and memory of the kernel it got."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(f"{base}/voila/render/{notebook}", wait_until="commit", timeout=TIMEOUT_MS)
        page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
        page.wait_for_load_state("load", timeout=TIMEOUT_MS)
        kernel_id = next(m.group(1) for u in sockets if (m := KERNEL_WS.search(u)))
        kernel = next(k for k in _kernels(server) if any(kernel_id in a for a in k.cmdline()))
        _wait_idle(kernel)  # the page's widgets have all arrived
        mem = kernel.memory_full_info()
        return {"cpu": _cpu(kernel), "rss": mem.rss, "uss": mem.uss}
    except Exception as exc:  # noqa: BLE001 - reported, not hidden
        print(f"FAILED {notebook}: {str(exc).splitlines()[0][:160]}", flush=True)
        return None
    finally:
        context.close()


def _wait_idle(kernel: psutil.Process, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    kernel.cpu_percent(None)
    while time.monotonic() < deadline:
        time.sleep(0.5)  # the interval the kernel's CPU use is measured over
        if kernel.cpu_percent(None) < 2:
            return


def measure(repeats: int = 3) -> list[dict]:
    from playwright.sync_api import sync_playwright

    folder = _serve_dir()
    names = [BARE, FIGURE, INDEX_NOTEBOOK] + [d.notebook for d in published()]
    served = sorted(p.name for p in folder.glob("*.ipynb"))  # Voilà pools every one of them
    allow = [f"--PublishedOnly.notebooks={n}" for n in served]  # the gate lets them through
    rows = {n: {"notebook": n, "cpu": [], "rss": [], "uss": []} for n in names}
    log = open(HERE / "results" / "capacity-voila.log", "w")
    proc, base = start_voila(*allow, notebooks=folder, preheat=True, log=log)
    server = psutil.Process(proc.pid)
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            _wait_pool_idle(server, len(served))
            for _ in range(repeats):
                for n in names:  # round-robin: every page sees the same machine
                    before = {k.pid for k in _kernels(server)}
                    got = _view(browser, server, base, n)
                    if got:
                        for key, value in got.items():
                            rows[n][key].append(value)
                    _wait_pool_idle(server, len(served), not_in=before)  # refilled, idle
            browser.close()
    finally:
        stop(proc)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
    return [rows[n] for n in names]


def report(rows: list[dict], repeats: int) -> str:
    med = {
        r["notebook"]: {
            k: statistics.median(r[k]) if r[k] else float("nan") for k in ("cpu", "rss", "uss")
        }
        for r in rows
    }
    bare = med[BARE]
    mib = 2**20
    lines = [
        "# What one viewer costs: kernel CPU per page view and memory, against a bare notebook",
        "",
        f"Written by `benchmarks/capacity.py`: the published `voila.json` with its preheated pool, "
        f"headless Chromium, round-robin, median of {repeats} views each; ratios against "
        "`bare.ipynb` (numpy, matplotlib, ipywidgets, one slider echoed to a label) measured in "
        "the same run. CPU = the CPU time of the kernel a page got, when the page is ready and "
        "its kernel idle: its start, its run of the notebook in the pool, the page's connection "
        "(the pool runs the notebook again for the next viewer, so every viewer costs this).",
        "",
        "| page | kernel CPU per page view | × bare | RSS | × bare | USS | × bare |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, m in med.items():
        lines.append(
            f"| {name} | {m['cpu']:.2f} s | {m['cpu'] / bare['cpu']:.2f} | "
            f"{m['rss'] / mib:.0f} MiB | {m['rss'] / bare['rss']:.2f} | "
            f"{m['uss'] / mib:.0f} MiB | {m['uss'] / bare['uss']:.2f} |"
        )
    dash = [m for n, m in med.items() if n not in (BARE, FIGURE)]
    worst = max(m["cpu"] for m in dash) / bare["cpu"]
    lines += [
        "",
        f"Pages (landing + dashboards): CPU {min(m['cpu'] for m in dash):.2f}–"
        f"{max(m['cpu'] for m in dash):.2f} s per view, at most {worst:.2f} × the bare "
        f"notebook's {bare['cpu']:.2f} s (goal: ≤ 1.5 ×); RSS "
        f"{min(m['rss'] for m in dash) / mib:.0f}–{max(m['rss'] for m in dash) / mib:.0f} MiB "
        f"(bare {bare['rss'] / mib:.0f} MiB).",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    (HERE / "results").mkdir(exist_ok=True)
    rows = measure(args.repeats)
    text = report(rows, args.repeats)
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
