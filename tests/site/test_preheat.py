"""The published preheated kernel pool (issue 5): ``voila.json`` as it is, preheat on.

Voilà starts ``default_pool_size`` kernels per notebook in the served folder and runs
the notebook in each before any viewer comes.  A viewer then gets a kernel that has
already run its notebook; the pool is refilled behind it.  The tests check that the
published settings do that with the published-only gate, the stripped sources and
hidden tracebacks: the published configuration pools one kernel for every served page
(every notebook under the folder, none denied), its kernels talk over unix sockets, a
dashboard served from the pool shows its document numbers with no source and no
traceback, and the pool refills after the page took its kernel.

The servers started here pool only the pages their test opens
(``VoilaKernelManager.preheat_denylist``): a pool of every page in every language is ~48
notebook runs before the first page, the same mechanism for each.
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
from elo_explain.server.kernels import ViewerKernels

DIVISOR_NB = "03_backgammon_divisor.ipynb"
POOL_FILL_S = 300   # notebooks run on 2 cores, while other tests may run too
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


def _wait_waiting_for_a_viewer(voila, base: str, what: str, n: int = 1) -> None:
    """Until ``n`` kernels of the pool have run their notebook and wait for their viewer's
    request: each holds a connection to the Voilà server (``voila/query/<kernel id>``, opened
    by ``page_query``). Voilà hands out a pooled kernel only once it has started; a page
    that comes earlier gets a kernel of its own (the race this wait closes)."""
    port = int(base.rsplit(":", 1)[1])
    deadline = time.monotonic() + POOL_FILL_S
    while True:
        waiting = 0
        for pid in kernel_pids(voila):
            try:
                connections = psutil.Process(pid).net_connections(kind="tcp")
            except psutil.Error:
                continue
            waiting += any(c.raddr and c.raddr.port == port
                           and c.status == psutil.CONN_ESTABLISHED for c in connections)
        if waiting >= n:
            return
        assert voila.poll() is None, "voila exited"
        assert time.monotonic() < deadline, what
        time.sleep(POLL)


def test_the_published_config_preheats_one_kernel_per_notebook():
    config = json.loads((ROOT / "voila.json").read_text())
    vc = config["VoilaConfiguration"]
    assert vc["preheat_kernel"] is True and vc["default_pool_size"] == 1
    # Voilà refuses preheat together with progressive rendering
    assert not vc.get("progressive_rendering", False)
    # Voilà pools every notebook under the folder that no pattern of its
    # ``VoilaKernelManager.preheat_denylist`` names: the published configuration names none
    # (Voilà's default is none), so every page is pooled, the English ones and their
    # translations (notebooks/<lang>/), all of them published pages
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    pooling = voila_kernel_manager_factory(ViewerKernels, True, 1)
    assert pooling.class_traits()["preheat_denylist"].default() == []
    assert not config.get("VoilaKernelManager", {}).get("preheat_denylist")
    assert len(sorted(NOTEBOOKS.rglob("*.ipynb"))) == len(served_pages())
    # and its kernels talk over unix sockets (checked on the pool's kernels below)
    assert config["KernelManager"]["transport"] == "ipc"


# Voilà matches a pattern against the notebook's absolute path: a pool for the English 01
# and the Ukrainian 03 only, the pages the test opens
ONLY_01_UK_03 = ("--VoilaKernelManager.preheat_denylist="
                 "['^(?!.*/notebooks/(01_chess_calculator|uk/03_backgammon_divisor)[.]ipynb$)']")


def test_a_dashboard_from_the_pool_shows_its_numbers_and_the_pool_refills(page, tmp_path):
    log = open(tmp_path / "voila.log", "w")
    voila, base = start_voila(ONLY_01_UK_03, log=log, preheat=True)
    try:
        _wait_kernels(voila, log, 2, "the pool did not fill")
        _wait_waiting_for_a_viewer(voila, base, "the pooled kernels never waited for a viewer", 2)
        pooled = kernel_pids(voila)
        assert len(pooled) == 2, "a kernel for a page the pool should not hold"
        # the server gave its kernels unix sockets, not TCP ports (``KernelManager.transport``
        # "ipc"): 44 kernels started at once on TCP raced other processes for the free ports
        # they were given ("Address already in use"), two died and the pool never refilled
        assert {_transport(pid) for pid in pooled} == {"ipc"}
        open_dashboard(page, base, "01_chess_calculator.ipynb")
        # Telugu document: E = 0.24 for 1500 against 1700
        expect(page.locator(".ee-app").first).to_contain_text("0.24", timeout=TIMEOUT)
        assert_clean(page, "01_chess_calculator.ipynb")
        # the page took a kernel from the pool, and the pool is refilled behind it
        _wait_kernels(voila, log, 3, "the pool was not refilled")
        assert pooled <= kernel_pids(voila), "a pooled kernel was stopped"
        # every kernel was started for the pool: the page's is the pooled one
        assert all(_env(pid).get("VOILA_PREHEAT") == "True" for pid in kernel_pids(voila))
        # a translated page from the pool the same way (Greek document, ÷1200, 300 points
        # up: 64.0 %, in Ukrainian with a decimal comma)
        # (a second tab: the first page keeps its kernel)
        pooled = kernel_pids(voila)
        second = page.context.new_page()
        open_dashboard(second, base, "uk/" + DIVISOR_NB)
        assert second.evaluate("document.documentElement.lang") == "uk"
        expect(second.locator(".ee-summary")).to_contain_text("64,0%", timeout=TIMEOUT)
        assert_clean(second)
        _wait_kernels(voila, log, 4, "the pool was not refilled")
        assert pooled <= kernel_pids(voila), "a pooled kernel was stopped"
        assert all(_env(pid).get("VOILA_PREHEAT") == "True" for pid in kernel_pids(voila))
    finally:
        stop(voila)
        log.close()


# the English 03 only, not its translations (notebooks/<lang>/03_backgammon_divisor.ipynb)
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
