"""The published preheated kernel pool (issue 5): ``voila.json`` as it is, preheat on.

Voilà starts ``default_pool_size`` kernels per notebook in the served folder and runs
the notebook in each before any viewer comes.  A viewer then gets a kernel that has
already run its notebook; the pool is refilled behind it.  The test checks that the
published settings do that with the published-only gate, the stripped sources and
hidden tracebacks: the pool fills to one kernel per notebook, a dashboard served from
the pool shows its document numbers with no source and no traceback, and the pool
refills after the page took its kernel.
"""

from __future__ import annotations

import json
import time

from playwright.sync_api import expect

from conftest import NOTEBOOKS, ROOT, TIMEOUT, assert_clean, open_dashboard, start_voila
from harness import kernel_pids, stop

POOL_FILL_S = 300   # ten notebooks run on 2 cores, while other tests may run too
POLL = 0.5          # seconds between two kernel counts (polling, not a wait for a result)


def _wait_kernels(voila, n: int, what: str) -> None:
    deadline = time.monotonic() + POOL_FILL_S
    while len(kernel_pids(voila)) < n:
        assert voila.poll() is None, "voila exited"
        assert time.monotonic() < deadline, f"{what}: {len(kernel_pids(voila))} kernels, expected {n}"
        time.sleep(POLL)


def test_the_published_config_preheats_one_kernel_per_notebook():
    vc = json.loads((ROOT / "voila.json").read_text())["VoilaConfiguration"]
    assert vc["preheat_kernel"] is True and vc["default_pool_size"] == 1
    # Voilà refuses preheat together with progressive rendering
    assert not vc.get("progressive_rendering", False)


def test_a_dashboard_from_the_pool_shows_its_numbers_and_the_pool_refills(page, tmp_path):
    notebooks = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    log = open(tmp_path / "voila.log", "w")
    voila, base = start_voila(log=log, preheat=True)
    try:
        _wait_kernels(voila, len(notebooks), "the pool did not fill")
        pooled = kernel_pids(voila)
        open_dashboard(page, base, "01_chess_calculator.ipynb")
        # Telugu document: E = 0.24 for 1500 against 1700
        expect(page.locator(".ee-app").first).to_contain_text("0.24", timeout=TIMEOUT)
        assert_clean(page, "01_chess_calculator.ipynb")
        # the page took a kernel from the pool, and the pool is refilled behind it
        _wait_kernels(voila, len(notebooks) + 1, "the pool was not refilled")
        assert pooled <= kernel_pids(voila), "a pooled kernel was stopped"
    finally:
        stop(voila)
        log.close()
