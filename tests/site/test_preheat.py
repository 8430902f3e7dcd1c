"""The published preheated kernel pool: ``voila.json`` as it is, preheat on.

Voilà starts ``default_pool_size`` kernels per notebook in the served folder and runs
the notebook in each before any viewer comes.  A viewer then gets a kernel that has
already run its notebook; the pool is refilled behind it.  The tests check that the
published settings do that with the published-only gate, the stripped sources and
hidden tracebacks: the published configuration pools one kernel for every served page
(every notebook under the folder, none denied), its kernels talk over unix sockets, a
dashboard served from the pool shows its document numbers with no source and no
traceback, a link's query string reaches a pooled kernel, the pool refills after each
page took its kernel, and ``/voila/query/`` traffic from outside leaves every pooled
render working (the query socket itself, without a server, at the end).

One server (the module's ``pool`` fixture) serves all these tests; it pools only the pages
they open, the English 01 and 03 and the Ukrainian 03
(``VoilaKernelManager.preheat_denylist``): a pool of every page in every language is ~48
notebook runs before the first page, the same mechanism for each.  Each test that opens a
page starts from the pool as it is when no page holds a kernel (three kernels, each waiting
for its viewer) and counts kernels from there.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from playwright.sync_api import expect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from elo_explain.server.gate import served_pages
from elo_explain.server.kernels import ViewerKernels
from harness import (
    HTTP_TIMEOUT,
    KERNEL_ID,
    NOTEBOOKS,
    ROOT,
    TIMEOUT,
    Viewer,
    assert_clean,
    kernel_pids,
    open_dashboard,
    start_proxy,
    start_voila,
    stop,
    tracebacks,
    widget_states,
)

DIVISOR_NB = "03_backgammon_divisor.ipynb"
POOL_FILL_S = 300  # notebooks run on 2 cores, while other tests may run too
POLL = 0.5  # seconds between two kernel counts (polling, not a wait for a result)


#: what the server's log says of its kernels and its pool (shown when a count is not reached)
KERNEL_EVENTS = re.compile(
    r"Kernel started|Kernel shutdown|pre-heated|pool|Culling|viewer kernel|"
    r"restart|died|Traceback|Error|Killed",
    re.IGNORECASE,
)


def _wait_kernels(voila, log, n: int, what: str, exactly: bool = False) -> None:
    """Until ``voila`` has ``n`` kernels (at least ``n``; ``exactly`` ``n``); else what its
    log (the open file ``log``) says."""
    deadline = time.monotonic() + POOL_FILL_S
    while len(kernel_pids(voila)) < n or (exactly and len(kernel_pids(voila)) != n):
        assert voila.poll() is None, "voila exited"
        if time.monotonic() >= deadline:
            log.flush()
            lines = Path(log.name).read_text(errors="replace").splitlines()
            events = [line[:160] for line in lines if KERNEL_EVENTS.search(line)]
            server = psutil.Process(voila.pid)
            raise AssertionError(
                f"{what}: {len(kernel_pids(voila))} kernels, expected {n}; "
                f"the server at {server.cpu_percent(interval=1.0):.0f} % CPU, "
                f"{server.memory_info().rss >> 20} MiB; available memory "
                f"{psutil.virtual_memory().available >> 20} MiB; its log:\n"
                + "\n".join(events[-25:])
            )
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
            waiting += any(
                c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
                for c in connections
            )
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


# Voilà matches a pattern against the notebook's absolute path: a pool for the English 01 and
# 03 and the Ukrainian 03 only, the pages the tests open (not 03's other translations,
# notebooks/<lang>/03_backgammon_divisor.ipynb)
POOLED = ("01_chess_calculator", "03_backgammon_divisor", "uk/03_backgammon_divisor")
ONLY_POOLED = (
    f"--VoilaKernelManager.preheat_denylist=['^(?!.*/notebooks/({'|'.join(POOLED)})[.]ipynb$)']"
)
POOL = len(POOLED)  # kernels: one per pooled page (``default_pool_size`` 1)


@dataclass
class Pool:
    voila: object  # the server's process
    base: str
    log: object  # the open file its output goes to
    filled: set[int]  # its kernels once the pool first filled

    def settled(self) -> None:
        """Until the pool is as it is when no page holds a kernel: ``POOL`` kernels (a page an
        earlier test left has had its kernel shut down, each taken kernel has been replaced),
        each waiting for its viewer. A test that takes a pooled kernel starts from here."""
        _wait_kernels(self.voila, self.log, POOL, "the pool did not settle", exactly=True)
        _wait_waiting_for_a_viewer(
            self.voila, self.base, "the pooled kernels never waited for a viewer", POOL
        )


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    """The module's one Voilà server, with the published configuration, preheat on, and a
    pool for the pages the tests open; returned once the pool has filled."""
    log = open(tmp_path_factory.mktemp("voila-pool") / "voila.log", "w")
    voila, base = start_voila(ONLY_POOLED, log=log, preheat=True)
    try:
        _wait_kernels(voila, log, POOL, "the pool did not fill")
        _wait_waiting_for_a_viewer(
            voila, base, "the pooled kernels never waited for a viewer", POOL
        )
        yield Pool(voila, base, log, kernel_pids(voila))
    finally:
        stop(voila)
        log.close()


def _env(pid: int) -> dict:
    return psutil.Process(pid).environ()


def _pid(voila, kernel_id: str) -> int:
    """The process of the server's kernel ``kernel_id`` (its connection file is named after it)."""
    (pid,) = [p for p in kernel_pids(voila) if kernel_id in " ".join(psutil.Process(p).cmdline())]
    return pid


def test_a_dashboard_from_the_pool_shows_its_numbers_and_the_pool_refills(pool, page):
    voila, base, log = pool.voila, pool.base, pool.log
    assert len(pool.filled) == POOL, "a kernel for a page the pool should not hold"
    pool.settled()
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
    _wait_kernels(voila, log, POOL + 1, "the pool was not refilled")
    assert pooled <= kernel_pids(voila), "a pooled kernel was stopped"
    # every kernel was started for the pool: the page's is the pooled one
    assert all(_env(pid).get("VOILA_PREHEAT") == "True" for pid in kernel_pids(voila))
    # a translated page from the pool the same way (Greek document, ÷1200, 300 points
    # up: 64.0 %, in Ukrainian with a decimal comma)
    # (a second tab: the first page keeps its kernel)
    pooled = kernel_pids(voila)
    second = page.context.new_page()
    try:
        open_dashboard(second, base, "uk/" + DIVISOR_NB)
        assert second.evaluate("document.documentElement.lang") == "uk"
        expect(second.locator(".ee-summary")).to_contain_text("64,0%", timeout=TIMEOUT)
        assert_clean(second)
        _wait_kernels(voila, log, POOL + 2, "the pool was not refilled")
        assert pooled <= kernel_pids(voila), "a pooled kernel was stopped"
        assert all(_env(pid).get("VOILA_PREHEAT") == "True" for pid in kernel_pids(voila))
    finally:
        second.close()  # its kernel is shut down: the next test finds the pool settled


def test_a_link_reaches_a_preheated_kernel(pool, page):
    """A link's query string reaches a kernel from the pool: the kernel ran the
    notebook before the request and waits in ``page_query`` (``voila.utils.wait_for_request``,
    through the gate's ``voila/query/<kernel>``) for the request's query string."""
    voila, base, log = pool.voila, pool.base, pool.log
    pool.settled()
    pooled = kernel_pids(voila)
    page.goto(f"{base}/voila/render/{DIVISOR_NB}?divisor=800&difference=300", wait_until="commit")
    summary = page.locator(".ee-summary")
    # Greek document, version history: ÷800, 300 points up -> 70.3 %, +9 / −23
    expect(summary).to_contain_text(
        "300 points up, ÷800: expected win rate 70.3 %; +9 for a win, −23 for a loss",
        timeout=TIMEOUT,
    )
    expect(page.locator(".ee-link")).to_have_attribute("href", "?divisor=800&difference=300")
    expect(page.locator(".ee-query-note")).to_have_count(0)
    assert_clean(page, DIVISOR_NB)
    first = _pid(voila, KERNEL_ID.search(page.content()).group(1))
    # the page's kernel is the pooled one: every kernel was started preheated (a kernel
    # started for the request would have VOILA_PREHEAT=False and the query in its
    # environment), and the pool is refilled behind it
    assert first in pooled
    _wait_kernels(voila, log, POOL + 1, "the pool was not refilled")
    assert pooled <= kernel_pids(voila)
    envs = [_env(pid) for pid in kernel_pids(voila)]
    assert all(e.get("VOILA_PREHEAT") == "True" for e in envs), envs
    assert not any("divisor=800" in e.get("QUERY_STRING", "") for e in envs)

    # a bad value, again from the pool: a note and the defaults (document: ÷1200 -> 64.0 %)
    # (once 03's new pooled kernel waits for its viewer, as all the pool's do)
    _wait_waiting_for_a_viewer(voila, base, "the refilled kernel never waited for a viewer", POOL)
    page.goto(f"{base}/voila/render/{DIVISOR_NB}?divisor=abc", wait_until="commit")
    expect(page.locator(".ee-query-note")).to_contain_text("divisor=abc", timeout=TIMEOUT)
    expect(summary).to_contain_text("300 points up, ÷1200: expected win rate 64.0 %")
    expect(page.locator(".ee-divisor-field input")).to_have_value("1200")
    assert_clean(page, DIVISOR_NB)
    # the first page was left: its kernel (the pool's 03) is shut down; the second page's
    # kernel came from the pool, which is refilled again: the pool's kernels and the page's
    deadline = time.monotonic() + POOL_FILL_S
    while first in kernel_pids(voila) or len(kernel_pids(voila)) != POOL + 1:
        assert time.monotonic() < deadline, (
            f"kernels {kernel_pids(voila)}; the first page's {first} should be gone, "
            f"{POOL + 1} left"
        )
        time.sleep(POLL)
    assert all(_env(pid).get("VOILA_PREHEAT") == "True" for pid in kernel_pids(voila))


# --- the pool survives any ``/voila/query/`` traffic from outside -----------------------------
# Voilà 0.5.13's ``RequestInfoSocketHandler`` deleted the *last* waiter of its dict when a
# socket's own entry had been overwritten: pairs of websockets on made-up ids, opened and closed
# by anyone, took the pooled kernel's waiter, and every pooled render then hung with partial
# HTML (the kernel waited for its request for ever). The module's server (the published
# configuration, a pool), nginx in front as ``make publish`` runs it: 44 such pairs through
# nginx and 44 directly, then a render from the pool through each completes, with the link's
# values (the request reached the kernel), and the server's log has no traceback.
PAIRS = 44  # the count


def _pairs(base: str, count: int = PAIRS) -> list[int]:
    """``count`` pairs of websockets on one made-up id each, opened then closed (what
    emptied Voilà's waiters); the HTTP statuses of the refused opens."""
    url = base.replace("http://", "ws://") + "/voila/query/"
    refused = []
    for _ in range(count):
        kernel_id = str(uuid.uuid4())
        opened = []
        for _twice in range(2):
            try:
                opened.append(connect(url + kernel_id, open_timeout=10, proxy=None, legacy=True))
            except InvalidStatus as exc:
                refused.append(exc.response.status_code)
        for ws in opened:
            ws.close()
    return refused


def _pooled_render(pool: Pool, page_base: str) -> str:
    """A render of 03 with a link's values, through ``page_base``, once the pool is settled
    (its 03 kernel waits for a viewer); returns the page's kernel id (checked to be the
    pool's). The page is closed after it (its kernel shut down, as the page's beacon does)."""
    pool.settled()
    viewer = Viewer(page_base)
    _html, kernel_id = viewer.render(DIVISOR_NB, "?divisor=800&difference=300")
    # Greek document, version history: ÷800, 300 points up -> 70.3 % (the link reached the
    # kernel, which ran the notebook before the request)
    shown = json.dumps(list(widget_states(pool.base, kernel_id).values()), ensure_ascii=False)
    assert "÷800: expected win rate 70.3 %" in shown, "the link's values are not in the view"
    assert _env(_pid(pool.voila, kernel_id)).get("VOILA_PREHEAT") == "True", "not the pool's kernel"
    viewer.close()
    return kernel_id


def _kernel_shutdown_race(record: str) -> bool:
    """A log record that is only ipykernel 7.4's own shutdown race (ipython/ipykernel#1518,
    fixed upstream): a kernel shut down as its control handler ends publishes "idle" on its
    closed iopub pipe and prints this traceback on its way out (its render had completed)."""
    return (
        record.count("Traceback (most recent call last)") == 1
        and "in _publish_status_and_flush" in record
        and "ZMQError: Socket operation on non-socket" in record
    )


def test_query_socket_traffic_from_outside_leaves_every_pooled_render_working(pool, tmp_path):
    voila, base = pool.voila, pool.base
    nginx_log = open(tmp_path / "nginx.log", "w")
    nginx, proxied = start_proxy(base, tmp_path / "nginx", log=nginx_log)
    try:
        pool.settled()  # an earlier test's pages have had their kernels shut down
        pool.log.flush()
        before = Path(pool.log.name).stat().st_size  # the log of this test: from here
        refused = _pairs(proxied), _pairs(base)  # from outside: through nginx, and directly
        assert HTTP_TIMEOUT >= 100  # the renders stopped at 100 s
        _pooled_render(pool, proxied)
        again = _pairs(proxied), _pairs(base)  # again, with the pool refilled behind the page
        _pooled_render(pool, base)
        assert voila.poll() is None
        pool.log.flush()
        # no traceback for any of this (read while the server runs: a refill kernel still
        # starting when it stops is interrupted, and says so in the log), but a kernel's own
        # shutdown race (the first render's kernel is shut down behind it)
        with open(pool.log.name, "rb") as log:
            log.seek(before)
            records = tracebacks(log.read().decode(errors="replace"))
        assert [r for r in records if not _kernel_shutdown_race(r)] == []
        # nobody but the pool's kernels got in
        assert refused == again == ([404] * 2 * PAIRS, [404] * 2 * PAIRS)
    finally:
        stop(nginx)
        nginx_log.close()


def test_the_query_socket_keeps_one_waiter_per_kernel_and_the_request_until_received():
    """Inside: the pool's kernel's own sockets, with its token (what the kernel's wait does,
    ``elo_explain.server.preheat``), against :class:`QuerySocket` in a bare tornado app (no
    Voilà server)."""
    import asyncio
    import concurrent.futures

    import websockets
    from tornado.web import Application

    from elo_explain.server.kernels import query_token, query_token_matches
    from elo_explain.server.query import TOKEN_HEADER, QuerySocket

    kernel_id = str(uuid.uuid4())
    QuerySocket.token_matches = staticmethod(query_token_matches)  # as install() sets it

    async def scenario():
        server = Application([(r"/voila/query/(.*)", QuerySocket)]).listen(0, "127.0.0.1")
        port = next(iter(server._sockets.values())).getsockname()[1]
        url = f"ws://127.0.0.1:{port}/voila/query/{kernel_id}"
        own = {TOKEN_HEADER: query_token(kernel_id)}
        try:
            with pytest.raises(InvalidStatus) as refused:  # another kernel's token
                await websockets.connect(
                    url,
                    additional_headers={TOKEN_HEADER: query_token(str(uuid.uuid4()))},
                    proxy=None,
                )
            assert refused.value.response.status_code == 404
            first = await websockets.connect(url, additional_headers=own, proxy=None)
            second = await websockets.connect(url, additional_headers=own, proxy=None)
            await first.wait_closed()  # the second replaced it; its close took nothing
            assert QuerySocket._waiters[kernel_id] is not None
            QuerySocket.send_updates({"kernel_id": kernel_id, "payload": {"QUERY_STRING": "a=1"}})
            assert json.loads(await asyncio.wait_for(second.recv(), 10)) == {"QUERY_STRING": "a=1"}
            await second.close()  # not acknowledged: kept for the next socket
            third = await websockets.connect(url, additional_headers=own, proxy=None)
            assert json.loads(await asyncio.wait_for(third.recv(), 10)) == {"QUERY_STRING": "a=1"}
            await third.send("received")
            await third.wait_closed()
            assert kernel_id not in QuerySocket._cache and kernel_id not in QuerySocket._waiters
        finally:
            server.stop()

    # its own loop in its own thread: the test process may already run one (Playwright's)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result(timeout=60)
