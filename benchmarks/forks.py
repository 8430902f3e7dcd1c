"""Kernels forked from a pre-imported process (``elo_explain.server.forks``) against kernels
started as a program (jupyter_client's ``local-provisioner``): what a viewer and the machine
gain. Writes ``benchmarks/FORKS.md``.

Two Voilà servers with the published configuration (no preheated pool) run side by side,
one forking its kernels, one starting them the usual way; each page is loaded on both, in
turns (the order alternates from page to page), in headless Chromium, so both see the same
machine. For each load:

* **time to ready**: navigation until the page's numbers and plot show (``_load`` of
  ``browser_dashboards.py``);
* **the kernel's CPU** (user + system seconds of its process) when the page is ready: its
  start, its imports and the notebook's run; the fork server's own imports, paid once per
  server, are reported apart;
* **the kernel's unshared memory** (USS) with the page open: a forked kernel shares the
  preloaded modules with its siblings.

Every figure is a median and a ratio forked / started in the same run.

    .venv/bin/python benchmarks/forks.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from browser_dashboards import DESKTOP, _load  # noqa: E402

from elo_explain.dashboards import DASHBOARDS  # noqa: E402
from harness import kernel_pids, launch_chromium, start_voila, stop  # noqa: E402

OUT = HERE / "FORKS.md"
PAGES = [d.notebook for d in DASHBOARDS] + [
    "uk/03_backgammon_divisor.ipynb",
    "te/09_simulate_ladder.ipynb",
]
KINDS = ("forked", "started")


def _one(browser, server, base: str, notebook: str) -> dict:
    """One load: seconds to ready, the page's kernel's CPU and USS then."""
    before = kernel_pids(server)
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        seconds = _load(page, f"{base}/voila/render/{notebook}")
        new = kernel_pids(server) - before
        assert len(new) == 1, f"{notebook}: {len(new)} new kernels"
        kernel = psutil.Process(new.pop())
        cpu = kernel.cpu_times()
        return {
            "seconds": seconds,
            "cpu": cpu.user + cpu.system,
            "uss": kernel.memory_full_info().uss / 2**20,
        }
    finally:
        context.close()


def _fork_servers(server) -> list[psutil.Process]:
    return [
        p
        for p in psutil.Process(server.pid).children()
        if "elo_explain.server.forks" in " ".join(p.cmdline())
    ]


def measure(rounds: int) -> tuple[dict, dict]:
    from playwright.sync_api import sync_playwright

    logs = {k: open(os.devnull, "w") for k in KINDS}
    servers = {
        "forked": start_voila(log=logs["forked"]),
        "started": start_voila(
            "--KernelProvisionerFactory.default_provisioner_name=local-provisioner",
            log=logs["started"],
        ),
    }
    rows = {k: [] for k in KINDS}
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            # one load each first: the browser's cache and the fork server's imports warm
            for kind in KINDS:
                _one(browser, servers[kind][0], servers[kind][1], PAGES[0])
            forks = _fork_servers(servers["forked"][0])
            assert len(forks) == 1, f"{len(forks)} fork servers"
            cpu = forks[0].cpu_times()
            once = {"cpu": cpu.user + cpu.system, "rss": forks[0].memory_info().rss / 2**20}
            for r in range(rounds):
                for i, notebook in enumerate(PAGES):
                    order = KINDS if (i + r) % 2 == 0 else KINDS[::-1]
                    for kind in order:
                        proc, base = servers[kind]
                        rows[kind].append({"page": notebook, **_one(browser, proc, base, notebook)})
            browser.close()
    finally:
        for proc, _ in servers.values():
            stop(proc)
    return rows, once


def report(rows: dict, once: dict, rounds: int) -> str:
    def med(kind, key):
        return statistics.median(r[key] for r in rows[kind])

    lines = [
        "# Kernels forked from a pre-imported process",
        "",
        f"Written by `benchmarks/forks.py`: {len(PAGES)} pages × {rounds} rounds, each page "
        "loaded on two servers side by side (the published configuration, no pool): one "
        "forks its kernels (`elo_explain.server.forks`), one starts them as a program "
        "(jupyter_client's `local-provisioner`). Medians; the ratio is forked / started.",
        "",
        "| per page | forked | started | forked / started |",
        "|---|---:|---:|---:|",
    ]
    for key, name, fmt in (
        ("seconds", "time to ready", "{:.2f} s"),
        ("cpu", "the kernel's CPU at ready", "{:.2f} CPU-s"),
        ("uss", "the kernel's unshared memory (USS)", "{:.0f} MiB"),
    ):
        f, s = med("forked", key), med("started", key)
        lines.append(f"| {name} | {fmt.format(f)} | {fmt.format(s)} | {f / s:.2f} |")
    lines += [
        "",
        f"The fork server, once per server: {once['cpu']:.2f} CPU-s to import "
        f"its modules, {once['rss']:.0f} MiB (RSS) shared with its kernels.",
        "",
        "| page | time to ready, forked / started | kernel CPU, forked / started |",
        "|---|---:|---:|",
    ]
    for notebook in PAGES:
        f = [r for r in rows["forked"] if r["page"] == notebook]
        s = [r for r in rows["started"] if r["page"] == notebook]
        lines.append(
            f"| {notebook} | {statistics.median(r['seconds'] for r in f):.2f} / "
            f"{statistics.median(r['seconds'] for r in s):.2f} s | "
            f"{statistics.median(r['cpu'] for r in f):.2f} / "
            f"{statistics.median(r['cpu'] for r in s):.2f} |"
        )
    load = os.getloadavg()
    lines += ["", f"Load average at the end: {load[0]:.1f} / {load[1]:.1f} (1 / 5 min).", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    rounds = parser.parse_args().rounds
    rows, once = measure(rounds)
    text = report(rows, once, rounds)
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
