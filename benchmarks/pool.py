"""What the preheated pool costs and what it gains; what the local preview holds.

Two servers from the repository's ``voila.json``, measured in the same run:

* **the preview** -- ``make dashboard``, exactly as a reader types it (no preheated pool):
  seconds from the command to the server answering and to the first page (the landing page)
  ready in headless Chromium; the memory of the server and its kernels (RSS, psutil over the
  server and its children) right after it answers, with that page open, and idle again after
  the page was closed (its kernel freed);
* **the published pool** -- the same server with ``preheat_kernel`` (one kernel per page and
  language, each having run its notebook): seconds and CPU-seconds (kernels, server) until the
  pool is full and idle, and its memory at idle (RSS; USS, what no other process shares).

Then a first viewer's gain: each sampled page opened ``repeats`` times from the full pool and
cold from the preview (a kernel started and its notebook run for the request), alternately,
seconds from the request to the page ready (``READY_JS``: the reader sees the dashboard); the
ratio pooled / cold of the medians. The machine's load average is written beside each phase:
other work on the machine inflates the seconds (not the memory).

    .venv/bin/python benchmarks/pool.py [--repeats 3]

Writes ``benchmarks/POOL.md``.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "deploy"))

from browser_dashboards import DESKTOP, _idle, _kernels, _load  # noqa: E402

from elo_explain.dashboards import INDEX_NOTEBOOK  # noqa: E402
from elo_explain.server.gate import published_notebooks, served_pages  # noqa: E402
from harness import free_port, launch_chromium, start_voila, stop, wait_http  # noqa: E402

OUT = HERE / "POOL.md"
MIB = 2**20
# dashboards (their pooled kernel waits for its viewer, which tells when the pool is full)
SAMPLE = (
    "01_chess_calculator.ipynb",
    "03_backgammon_divisor.ipynb",
    "uk/03_backgammon_divisor.ipynb",
    "te/09_simulate_ladder.ipynb",
)
FIRST_PAGE = "index.ipynb"


def _tree(server: psutil.Process) -> list[psutil.Process]:
    return [server, *server.children(recursive=True)]


def _rss(server: psutil.Process) -> int:
    total = 0
    for p in _tree(server):
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def _uss(processes) -> int:
    total = 0
    for p in processes:
        try:
            total += p.memory_full_info().uss
        except psutil.Error:
            pass
    return total


def _cpu(p: psutil.Process) -> float:
    t = p.cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def _load_avg() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} / {five:.1f}"


def _voila_of(make: subprocess.Popen, timeout: float = 60.0) -> psutil.Process:
    """The ``voila`` process ``make dashboard`` started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in psutil.Process(make.pid).children(recursive=True):
            try:
                if p.cmdline()[1:3] == ["-m", "elo_explain.server"]:
                    return p
            except psutil.Error:
                continue
        time.sleep(0.2)  # poll interval
    raise RuntimeError("make dashboard started no voila")


def _waiting(server: psutil.Process, port: int) -> int:
    """Pooled kernels that have run their notebook and wait for a viewer: each holds a
    connection to the server (``voila/query/<kernel id>``, :mod:`elo_explain.server.preheat`)."""
    count = 0
    for k in _kernels(server):
        try:
            if any(
                c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
                for c in k.net_connections(kind="tcp")
            ):
                count += 1
        except psutil.Error:
            continue
    return count


def _wait_pool_full(
    server: psutil.Process, port: int, pages: int, dashboards: int, timeout: float = 900.0
) -> None:
    """Until the pool holds a kernel per page, every dashboard's waits for its viewer (the
    landing pages' do not wait: they read no link) and the kernels are idle (under 5 % of a
    CPU over a second)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kernels = _kernels(server)
        if len(kernels) >= pages and _waiting(server, port) >= dashboards:
            if _idle(kernels):
                return
        else:
            time.sleep(0.5)  # poll interval
    raise RuntimeError(f"the pool did not fill within {timeout} s")


def _wait_kernels(server: psutil.Process, count: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(_kernels(server)) != count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{len(_kernels(server))} kernels, not {count}, after {timeout} s")
        time.sleep(0.2)  # poll interval


def preview(browser) -> tuple[dict, subprocess.Popen, str]:
    """``make dashboard`` from the command to its first page; it keeps running (returned)
    to serve the cold pages of the comparison."""
    port = free_port()
    result = {"load_start": _load_avg()}
    t0 = time.perf_counter()
    make = subprocess.Popen(
        ["make", "-s", "dashboard", f"PORT={port}"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    wait_http(base + "/voila/static/ready-probe", make, timeout=120)
    result["answers_s"] = time.perf_counter() - t0
    server = _voila_of(make)
    result["rss_started"] = _rss(server)
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    _load(page, f"{base}/voila/render/{FIRST_PAGE}")
    result["first_page_s"] = time.perf_counter() - t0
    result["rss_one_page"] = _rss(server)
    context.close()
    _wait_kernels(server, 0)  # a closed tab frees its kernel (ViewerKernels.closed_grace)
    result["rss_idle"] = _rss(server)
    result["load_end"] = _load_avg()
    return result, make, base


def pool() -> tuple[dict, subprocess.Popen, str]:
    """The published configuration: the pool filled, then idle; it keeps running."""
    pages = served_pages()
    result = {"load_start": _load_avg(), "pages": len(pages)}
    t0 = time.perf_counter()
    with open(HERE / "results" / "pool-voila.log", "w") as log:
        proc, base = start_voila(preheat=True, log=log)
    server = psutil.Process(proc.pid)
    _wait_pool_full(server, _port(base), len(pages), _dashboards(pages))
    result["fill_s"] = time.perf_counter() - t0
    kernels = _kernels(server)
    result["kernels"] = len(kernels)
    result["kernel_cpu"] = sum(_cpu(k) for k in kernels)
    result["server_cpu"] = server.cpu_times().user + server.cpu_times().system
    result["rss_idle"] = _rss(server)
    result["rss_server"] = server.memory_info().rss
    result["uss_kernels"] = _uss(kernels)
    result["load_end"] = _load_avg()
    return result, proc, base


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _dashboards(pages) -> int:
    return sum(not p.endswith(INDEX_NOTEBOOK) for p in pages)


def first_viewers(browser, pooled: tuple, cold_base: str, repeats: int) -> dict:
    """Each sampled page from the full pool and cold, one after the other (the order swapped
    every repeat); after a page from the pool, the pool refills before anything else runs."""
    proc, pooled_base = pooled
    server = psutil.Process(proc.pid)
    pages = served_pages()
    times = {nb: {"pooled": [], "cold": []} for nb in SAMPLE}
    loads = [_load_avg()]
    for i in range(repeats):
        for nb in SAMPLE:
            kinds = (("pooled", pooled_base), ("cold", cold_base))
            for kind, base in kinds if i % 2 == 0 else kinds[::-1]:
                context = browser.new_context(**DESKTOP)
                try:
                    times[nb][kind].append(_load(context.new_page(), f"{base}/voila/render/{nb}"))
                finally:
                    context.close()
                if kind == "pooled":  # refilled and idle: the next viewer meets a full pool
                    _wait_pool_full(server, _port(pooled_base), len(pages), _dashboards(pages))
    loads.append(_load_avg())
    return {"times": times, "loads": loads}


def report(pre: dict, pl: dict, fv: dict, repeats: int) -> str:
    from publish import POOL_SHARE, POOLED_KERNEL_MIB, pool_languages

    from elo_explain.server.kernels import machine_memory_mib

    total_mib = machine_memory_mib()
    langs = pool_languages(total_mib)
    med = {nb: {k: statistics.median(v) for k, v in t.items()} for nb, t in fv["times"].items()}
    pooled_all = statistics.median(x for t in fv["times"].values() for x in t["pooled"])
    cold_all = statistics.median(x for t in fv["times"].values() for x in t["cold"])
    per_kernel = (pl["rss_idle"] - pl["rss_server"]) / pl["kernels"]
    lines = [
        "# The preheated pool: what it costs, what it gains; what the preview holds",
        "",
        "Written by `benchmarks/pool.py` (one run; the machine's load average, 1 min / 5 min, "
        "beside each phase: seconds are inflated by other work, memory is not).",
        "",
        "## The preview: `make dashboard` (no preheated pool)",
        "",
        "| | |",
        "|---|---:|",
        f"| command to the server answering | {pre['answers_s']:.1f} s |",
        f"| command to the first page ready (`{FIRST_PAGE}`, headless Chromium) | "
        f"{pre['first_page_s']:.1f} s |",
        f"| memory, server and kernels (RSS), just started | {pre['rss_started'] / MIB:.0f} MiB |",
        f"| … with that page open (one kernel) | {pre['rss_one_page'] / MIB:.0f} MiB |",
        f"| … idle again, the page closed | {pre['rss_idle'] / MIB:.0f} MiB |",
        f"| load average, start → end | {pre['load_start']} → {pre['load_end']} |",
        "",
        "## The published pool (`voila.json`: one kernel per page and language)",
        "",
        "| | |",
        "|---|---:|",
        f"| pages pooled | {pl['pages']} ({pl['kernels']} kernels) |",
        f"| start to the pool full and idle | {pl['fill_s']:.0f} s |",
        f"| CPU to fill it: kernels / Voilà | {pl['kernel_cpu']:.0f} / {pl['server_cpu']:.0f} "
        f"CPU-s ({pl['kernel_cpu'] / pl['kernels']:.1f} per kernel) |",
        f"| memory at idle, server and kernels (RSS) | {pl['rss_idle'] / 2**30:.2f} GiB "
        f"({per_kernel / MIB:.0f} MiB a pooled kernel) |",
        f"| kernels' unshared memory (USS) | {pl['uss_kernels'] / 2**30:.2f} GiB |",
        f"| load average, start → end | {pl['load_start']} → {pl['load_end']} |",
        "",
        f"## A first viewer: a page from the pool against a cold one (median of {repeats}, "
        "the same run)",
        "",
        "| page | from the pool | cold | pool / cold |",
        "|---|---:|---:|---:|",
    ]
    for nb, m in med.items():
        lines.append(
            f"| {nb} | {m['pooled']:.1f} s | {m['cold']:.1f} s | {m['pooled'] / m['cold']:.2f} |"
        )
    lines += [
        f"| all | {pooled_all:.1f} s | {cold_all:.1f} s | {pooled_all / cold_all:.2f} |",
        "",
        f"Load average during the comparison: {fv['loads'][0]} → {fv['loads'][1]}.",
        "",
        "## The pool's size",
        "",
        f"`make publish` keeps one kernel per page, for as many languages as fit in "
        f"{POOL_SHARE:.0%} of the machine's memory, English first (`deploy/publish.py`, "
        f"`pool_languages`, counting {POOLED_KERNEL_MIB} MiB a pooled kernel: "
        f"{per_kernel / MIB:.0f} MiB measured here). One kernel per page: it gives the first "
        f"viewer of a page {pooled_all / cold_all:.2f} × a cold page's wait; a second one "
        f"would serve only a viewer who comes before the refill (a kernel's "
        f"{pl['kernel_cpu'] / pl['kernels']:.1f} CPU-s), and costs as much memory again. "
        f"This machine ({total_mib / 1024:.0f} GiB): "
        f"{', '.join(langs) if langs else 'no'} pooled, "
        f"{len(langs) * len(published_notebooks())} kernels.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    (HERE / "results").mkdir(exist_ok=True)
    make = pooled = None
    with sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            pre, make, cold_base = preview(browser)
            pl, proc, pooled_base = pool()
            pooled = proc
            fv = first_viewers(browser, (proc, pooled_base), cold_base, args.repeats)
        finally:
            browser.close()
            if pooled is not None:
                stop(pooled)
            if make is not None:
                os.killpg(make.pid, signal.SIGTERM)  # make and the voila it started
                make.wait(timeout=60)
    text = report(pre, pl, fv, args.repeats)
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
