"""The published server's start: ``python -m elo_explain.server`` (Voilà without
``rfc3987_syntax``, ``elo_explain.server.without_rfc3987_syntax``) against Voilà's own ``voila``
command, with the same arguments (the published configuration, no pool). Writes
``benchmarks/SERVER_START.md``.

For each start, in turns (the order alternates): the seconds from the command until the
server answers (a static path, which starts no kernel) and the server process's CPU then.
Medians, and their ratio launcher / ``voila``, in the same run.

    .venv/bin/python benchmarks/server_start.py [--starts 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))

from harness import free_port, stop, wait_http  # noqa: E402

OUT = HERE / "SERVER_START.md"
COMMANDS = {
    "python -m elo_explain.server": [sys.executable, "-m", "elo_explain.server"],
    "voila": [str(Path(sys.executable).with_name("voila"))],
}


def _start(command: list[str]) -> tuple[float, float]:
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [
            *command,
            "notebooks",
            f"--port={port}",
            "--no-browser",
            "--Voila.port_retries=0",
            "--Voila.ip=127.0.0.1",
            "--VoilaConfiguration.preheat_kernel=False",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/voila/static/ready-probe", proc)
        seconds = time.perf_counter() - t0
        cpu = psutil.Process(proc.pid).cpu_times()
        return seconds, cpu.user + cpu.system
    finally:
        stop(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    starts = parser.parse_args().starts
    rows = {name: [] for name in COMMANDS}
    for i in range(starts):
        for name in list(COMMANDS) if i % 2 == 0 else list(COMMANDS)[::-1]:
            rows[name].append(_start(COMMANDS[name]))
    (ours, voila) = COMMANDS
    med = {
        n: (statistics.median(s for s, _ in r), statistics.median(c for _, c in r))
        for n, r in rows.items()
    }
    load = os.getloadavg()
    text = "\n".join(
        [
            "# The server's start",
            "",
            f"Written by `benchmarks/server_start.py`: {starts} starts of each command, in turns, "
            "with the same arguments (the published configuration, no pool); medians, and the "
            "ratio in the same run.",
            "",
            f"| | `{ours}` | `{voila}` | ratio |",
            "|---|---:|---:|---:|",
            f"| command to the server answering | {med[ours][0]:.2f} s | {med[voila][0]:.2f} s | "
            f"{med[ours][0] / med[voila][0]:.2f} |",
            f"| the server's CPU by then | {med[ours][1]:.2f} CPU-s | {med[voila][1]:.2f} CPU-s | "
            f"{med[ours][1] / med[voila][1]:.2f} |",
            "",
            f"Load average at the end: {load[0]:.1f} / {load[1]:.1f} (1 / 5 min).",
            "",
        ]
    )
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
