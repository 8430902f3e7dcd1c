"""Soak: twenty viewers arriving in the same instant (a benchmark, not a test).

``tests/site/test_hardening_load.py`` lets its twenty viewers arrive four at a time, which is
deterministic; this is the harsher case it replaced: every viewer opens its page at once,
so twenty kernels start and run their notebooks together on the machine's cores.  It uses
the test's viewers (the same pages and document numbers) with the published culling
(600 s) and reports how long the crowd took, the slowest page, and every viewer that did
not get its numbers within ``--timeout`` seconds (in one of three clean-clone CI runs of
the old test, one of twenty never became ready within 420 s).

Run by hand: ``.venv/bin/python benchmarks/load_soak.py [--viewers 20] [--timeout 420]``.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import test_hardening_load as load  # noqa: E402

from harness import start_voila, stop  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--viewers", type=int, default=20)
    ap.add_argument("--timeout", type=int, default=420, help="seconds a viewer may wait")
    args = ap.parse_args()
    load.VIEWERS = args.viewers
    with tempfile.TemporaryDirectory(prefix="ee-soak-") as tmp:
        log_path = Path(tmp) / "voila.log"
        with open(log_path, "w") as log:
            voila, base = start_voila(log=log)
            try:
                seen: dict = {}
                problems = asyncio.run(
                    load._crowd(
                        base,
                        load._viewer_plan(),
                        voila,
                        seen,
                        lambda: len(re.findall(r"Culling '\w+' kernel", log_path.read_text())),
                        arriving=args.viewers,
                        timeout_ms=args.timeout * 1000,
                    )
                )
            finally:
                stop(voila)
    print(
        f"{args.viewers} viewers arriving together: crowd {seen['crowd_s']:.0f} s, slowest "
        f"page {seen['slowest_s']:.0f} s, {seen['kernels']} kernels when all were served; "
        f"{len(problems)} failed"
    )
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
