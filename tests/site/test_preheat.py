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
import re
import time
from pathlib import Path

import psutil
from playwright.sync_api import expect

from harness import NOTEBOOKS, ROOT, TIMEOUT, assert_clean, open_dashboard, start_voila
from harness import kernel_pids, stop

from elo_explain.server.gate import served_pages

DIVISOR_NB = "03_backgammon_divisor.ipynb"
POOL_FILL_S = 300   # ten notebooks run on 2 cores, while other tests may run too
POLL = 0.5          # seconds between two kernel counts (polling, not a wait for a result)


#: what the server's log says of its kernels and its pool (shown when a count is not reached)
KERNEL_EVENTS = re.compile(r"Kernel started|Kernel shutdown|pre-heated|pool|Culling|viewer kernel|"
                           r"restart|died|Traceback|Error|Killed", re.IGNORECASE)


def _wait_kernels(voila, log, n: int, what: str) -> None:
    """Until ``voila`` has ``n`` kernels; else what its log (the open file ``log``) says."""
    deadline = time.monotonic() + POOL_FILL_S
    while len(kernel_pids(voila)) < n:
        assert voila.poll() is None, "voila exited"
        if time.monotonic() >= deadline:
            log.flush()
            lines = Path(log.name).read_text(errors="replace").splitlines()
            events = [line[:160] for line in lines if KERNEL_EVENTS.search(line)]
            server = psutil.Process(voila.pid)
            raise AssertionError(f"{what}: {len(kernel_pids(voila))} kernels, expected {n}; "
                                 f"the server at {server.cpu_percent(interval=1.0):.0f} % CPU, "
                                 f"{server.memory_info().rss >> 20} MiB; available memory "
                                 f"{psutil.virtual_memory().available >> 20} MiB; its log:\n"
                                 + "\n".join(events[-25:]))
        time.sleep(POLL)


def _transport(pid: int) -> str:
    """The transport of a kernel's channels, from the connection file the server gave it."""
    args = psutil.Process(pid).cmdline()
    return json.loads(Path(args[args.index("-f") + 1]).read_text())["transport"]


def _wait_waiting_for_a_viewer(voila, base: str, what: str) -> None:
    """Until a kernel of the pool has run its notebook and waits for its viewer's request:
    it holds a connection to the Voilà server (``voila/query/<kernel id>``, opened by
    ``page_query``). Voilà hands out a pooled kernel only once it has started; a page
    that comes earlier gets a kernel of its own (the race this wait closes)."""
    port = int(base.rsplit(":", 1)[1])
    deadline = time.monotonic() + POOL_FILL_S
    while True:
        for pid in kernel_pids(voila):
            try:
                connections = psutil.Process(pid).net_connections(kind="tcp")
            except psutil.Error:
                continue
            if any(c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
                   for c in connections):
                return
        assert voila.poll() is None, "voila exited"
        assert time.monotonic() < deadline, what
        time.sleep(POLL)


def test_the_published_config_preheats_one_kernel_per_notebook():
    vc = json.loads((ROOT / "voila.json").read_text())["VoilaConfiguration"]
    assert vc["preheat_kernel"] is True and vc["default_pool_size"] == 1
    # Voilà refuses preheat together with progressive rendering
    assert not vc.get("progressive_rendering", False)


def test_a_dashboard_from_the_pool_shows_its_numbers_and_the_pool_refills(page, tmp_path):
    # Voilà pools every notebook under the folder: the English ones and their translations
    # (notebooks/<lang>/), all of them published pages
    notebooks = sorted(NOTEBOOKS.rglob("*.ipynb"))
    assert len(notebooks) == len(served_pages())
    log = open(tmp_path / "voila.log", "w")
    voila, base = start_voila(log=log, preheat=True)
    try:
        _wait_kernels(voila, log, len(notebooks), "the pool did not fill")
        pooled = kernel_pids(voila)
        # the server gave its kernels unix sockets, not TCP ports (``KernelManager.transport``
        # "ipc"): 44 kernels started at once on TCP raced other processes for the free ports
        # they were given ("Address already in use"), two died and the pool never refilled
        assert {_transport(pid) for pid in pooled} == {"ipc"}
        open_dashboard(page, base, "01_chess_calculator.ipynb")
        # Telugu document: E = 0.24 for 1500 against 1700
        expect(page.locator(".ee-app").first).to_contain_text("0.24", timeout=TIMEOUT)
        assert_clean(page, "01_chess_calculator.ipynb")
        # the page took a kernel from the pool, and the pool is refilled behind it
        _wait_kernels(voila, log, len(notebooks) + 1, "the pool was not refilled")
        assert pooled <= kernel_pids(voila), "a pooled kernel was stopped"
        # a translated page from the pool the same way (Greek document, ÷1200, 300 points
        # up: 64.0 %, in Ukrainian with a decimal comma)
        # (a second tab: the first page keeps its kernel)
        pooled = kernel_pids(voila)
        second = page.context.new_page()
        open_dashboard(second, base, "uk/" + DIVISOR_NB)
        assert second.evaluate("document.documentElement.lang") == "uk"
        expect(second.locator(".ee-summary")).to_contain_text("64,0%", timeout=TIMEOUT)
        assert_clean(second)
        _wait_kernels(voila, log, len(notebooks) + 2, "the pool was not refilled")
        assert pooled <= kernel_pids(voila), "a pooled kernel was stopped"
    finally:
        stop(voila)
        log.close()


# Voilà matches the pattern against the notebook's absolute path: the English 03 only, not
# its translations (notebooks/<lang>/03_backgammon_divisor.ipynb)
ONLY_03 = "--VoilaKernelManager.preheat_denylist=['^(?!.*/notebooks/03_backgammon_divisor)']"


def _env(pid: int) -> dict:
    return psutil.Process(pid).environ()


def test_a_link_reaches_a_preheated_kernel(page, tmp_path):
    """A link's query string reaches a kernel from the pool (issue 11): the kernel ran the
    notebook before the request and waits in ``page_query`` (``voila.utils.wait_for_request``,
    through the gate's ``voila/query/<kernel>``) for the request's query string."""
    log = open(tmp_path / "voila.log", "w")
    voila, base = start_voila(ONLY_03, log=log, preheat=True)  # a pool for 03 only
    try:
        _wait_kernels(voila, log, 1, "the pool did not fill")
        _wait_waiting_for_a_viewer(voila, base, "the pooled kernel never waited for a viewer")
        pooled = kernel_pids(voila)
        page.goto(f"{base}/voila/render/{DIVISOR_NB}?divisor=800&difference=300",
                  wait_until="commit")
        summary = page.locator(".ee-summary")
        # Greek document, version history: ÷800, 300 points up -> 70.3 %, +9 / −23
        expect(summary).to_contain_text("300 points up, ÷800: expected win rate 70.3 %; +9 for "
                                        "a win, −23 for a loss", timeout=TIMEOUT)
        expect(page.locator(".ee-link")).to_have_attribute("href", "?divisor=800&difference=300")
        expect(page.locator(".ee-query-note")).to_have_count(0)
        assert_clean(page, DIVISOR_NB)
        # the page's kernel is the pooled one: every kernel was started preheated (a kernel
        # started for the request would have VOILA_PREHEAT=False and the query in its
        # environment), and the pool is refilled behind it
        _wait_kernels(voila, log, 2, "the pool was not refilled")
        assert pooled <= kernel_pids(voila)
        envs = [_env(pid) for pid in kernel_pids(voila)]
        assert all(e.get("VOILA_PREHEAT") == "True" for e in envs), envs
        assert not any("divisor=800" in e.get("QUERY_STRING", "") for e in envs)

        # a bad value, again from the pool: a note and the defaults (document: ÷1200 -> 64.0 %)
        page.goto(f"{base}/voila/render/{DIVISOR_NB}?divisor=abc", wait_until="commit")
        expect(page.locator(".ee-query-note")).to_contain_text("divisor=abc", timeout=TIMEOUT)
        expect(summary).to_contain_text("300 points up, ÷1200: expected win rate 64.0 %")
        expect(page.locator(".ee-divisor-field input")).to_have_value("1200")
        assert_clean(page, DIVISOR_NB)
        # the first page was left: its kernel (the pool's first) is shut down; the second
        # page's kernel came from the pool, which is refilled again: two kernels
        deadline = time.monotonic() + POOL_FILL_S
        while pooled & kernel_pids(voila) or len(kernel_pids(voila)) != 2:
            assert time.monotonic() < deadline, (
                f"kernels {kernel_pids(voila)}; the first page's {pooled} should be gone")
            time.sleep(POLL)
        assert all(_env(pid).get("VOILA_PREHEAT") == "True" for pid in kernel_pids(voila))
    finally:
        stop(voila)
        log.close()
