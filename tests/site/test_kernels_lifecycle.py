"""Kernels that come and go cleanly: a closed tab frees its kernel, a lost one loses
nothing.

The tests run ``voila`` with the repository's ``voila.json`` (its kernel manager
``ViewerKernels``, its page template's script) and real pages in headless Chromium; the
first two share one server, the culling test has its own (a short idle timeout):

* ten pages (the landing page: any page's kernel goes the same way) opened and closed -- half
  with ``beforeunload`` run, half without (both send the page's beacon as the page goes) --
  leave no kernel behind within 10 s of each page's close, and
  their kernels kept no IPython history database; each page is opened while the
  kernels of the pages before it go, each kernel's end timed from its own page's close;
* a page with no goodbye at all (its kernel websocket dropped without a close frame or a
  beacon): its kernel goes within 10 s too (``closed_grace``, 5 s);
* a viewer's kernel killed (``kill -9``: Voilà would restart a blank kernel under the same id)
  or culled for idling: the page says in plain words that the view stopped and its one link
  reopens exactly the same view, typed values included;
* a kernel the server shuts down (the beacon's path, which is the culler's): its page says so
  within 2 s, untouched.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time

import psutil
import pytest
from playwright.sync_api import expect

from harness import (
    POLL_MS,
    READY,
    TIMEOUT,
    KernelSocket,
    Viewer,
    kernel_pids,
    open_dashboard,
    start_voila,
    stop,
    tracebacks,
    type_into,
)

POLL = 0.25  # seconds between two kernel counts (polling, not a wait for a result)
DIVISOR = "03_backgammon_divisor.ipynb"
NEW_TO_FIDE = "10_new_to_fide.ipynb"


def _voila(folder, *options):
    # IPython's folder of the server's kernels: where a kernel's history database would be
    with pytest.MonkeyPatch.context() as env:
        env.setenv("IPYTHONDIR", str(folder / "ipython"))
        log = open(folder / "voila.log", "w")
        proc, base = start_voila(*options, log=log)
    return proc, base, log


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``(process, base URL, its folder)``: the server the tabs and the killed kernel share."""
    folder = tmp_path_factory.mktemp("lifecycle")
    proc, base, log = _voila(folder)
    yield proc, base, folder
    stop(proc)
    log.close()


def _pid_of(proc, page) -> int:
    """The process of the kernel of ``page`` (its id, from the page's config)."""
    return _pid_of_kernel(
        proc, json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]
    )


def _pid_of_kernel(proc, kernel_id: str) -> int:
    """The process of kernel ``kernel_id`` (its id names the kernel's connection file on
    its command line)."""
    pids = []
    for pid in kernel_pids(proc):
        try:
            if kernel_id in " ".join(psutil.Process(pid).cmdline()):
                pids.append(pid)
        except psutil.Error:
            continue
    assert len(pids) == 1, f"kernel {kernel_id}: processes {pids}"
    return pids[0]


class _Ends(threading.Thread):
    """Watches kernel processes of ``proc`` (polling its kernels every ``POLL`` s) and notes
    when each was first seen gone: ``ends[pid]`` (``time.monotonic()``)."""

    def __init__(self, proc):
        super().__init__(daemon=True)
        self.proc = proc
        self.watched: set[int] = set()
        self.ends: dict[int, float] = {}
        self._done = threading.Event()

    def watch(self, pid: int) -> None:
        self.watched.add(pid)

    def run(self):
        while not self._done.is_set():
            alive, now = kernel_pids(self.proc), time.monotonic()
            for pid in set(self.watched) - alive:
                self.ends.setdefault(pid, now)
            self._done.wait(POLL)

    def stop(self):
        self._done.set()
        self.join(10)


def test_closed_tabs_free_their_kernels_within_10_s(server, devices):
    proc, base, folder = server
    assert len(kernel_pids(proc)) == 0  # no pool in the tests' server: it holds 0 kernels
    ends = _Ends(proc)
    ends.start()
    closed: list[tuple[int, float]] = []  # each page's kernel, and when the page closed
    try:
        for i in range(10):
            before = kernel_pids(proc)  # the kernels of the pages before, still going
            tab = devices.visit({"viewport": {"width": 1280, "height": 1000}})
            page = tab.page
            open_dashboard(page, base, "index.ipynb")  # any page's kernel: the cheapest
            pid = _pid_of(proc, page)
            assert kernel_pids(proc) - before == {pid}  # the page's kernel: one, its own
            ends.watch(pid)
            if i % 2:
                page.close(run_before_unload=True)  # the page's beacon, with its token
            else:
                tab.close()  # closed without its unload handlers
            closed.append((pid, time.monotonic()))
        last = closed[-1][1]
        while set(ends.ends) != {pid for pid, _ in closed} and time.monotonic() - last < 10:
            time.sleep(POLL)
    finally:
        ends.stop()
    lived = [ends.ends.get(pid, float("inf")) - at for pid, at in closed]
    print("each page's kernel lived on for " + ", ".join(f"{s:.1f}" for s in lived) + " s")
    for i, seconds in enumerate(lived):
        assert seconds < 10, f"page {i + 1}: its kernel lived 10 s on"
    assert kernel_pids(proc) == set()
    # and they kept no history: IPython's database (one SQLite file every kernel writes to;
    # 44 kernels at once locked it, and the losers printed IPython's error into the page)
    # was never made, while the kernels' IPython folder was
    assert (folder / "ipython" / "profile_default").is_dir()
    assert list((folder / "ipython").rglob("history.sqlite*")) == []


def test_a_page_whose_connection_just_drops_frees_its_kernel_within_10_s(server):
    """No goodbye at all (a phone out of coverage, a laptop's lid): a page's kernel
    websocket, connected as the page's script connects it, dropped without a close frame
    and without the page's beacon. The server shuts the kernel down ``closed_grace`` (5 s)
    after its last websocket went."""
    proc, base, _folder = server
    viewer = Viewer(base)
    _html, kernel_id = viewer.render("index.ipynb")
    pid = _pid_of_kernel(proc, kernel_id)
    sock = KernelSocket(base, kernel_id, "v1")
    sock.send("kernel_info_request", {})
    while sock.receive()["header"]["msg_type"] != "kernel_info_reply":
        pass  # connected and answered: the server counts the page as there
    ends = _Ends(proc)
    ends.watch(pid)
    ends.start()
    try:
        sock.ws.socket.shutdown(socket.SHUT_RDWR)  # the connection just goes: no close frame
        sock.ws.socket.close()
        dropped = time.monotonic()
        while pid not in ends.ends and time.monotonic() - dropped < 10:
            time.sleep(POLL)
    finally:
        ends.stop()
        viewer.http.close()
    lived = ends.ends.get(pid, float("inf")) - dropped
    print(f"the dropped page's kernel lived on for {lived:.1f} s")
    assert lived < 10, "the kernel of a page whose connection dropped lived 10 s on"


def _lost(page):
    notice = page.locator(".ee-lost")
    expect(notice).to_be_visible(timeout=TIMEOUT)
    expect(notice).to_contain_text("This view has stopped.")
    expect(notice).to_contain_text("Nothing you set is lost")
    return notice.locator("a.ee-reopen")


def test_a_killed_kernel_gets_a_notice_and_one_click_reopens_the_same_view(server, page):
    proc, base, folder = server
    since = (folder / "voila.log").stat().st_size  # the server's log from this test on
    open_dashboard(page, base, DIVISOR + "?divisor=800")
    summary = page.locator(".ee-summary")
    # Greek document, version history: ÷800, 300 points up -> 70.3 %
    expect(summary).to_contain_text(
        "300 points up, ÷800: expected win rate 70.3 %", timeout=TIMEOUT
    )
    type_into(page, ".ee-difference-field", "200")
    expect(summary).to_contain_text("200 points up, ÷800", timeout=TIMEOUT)
    pid = _pid_of(proc, page)
    assert kernel_pids(proc) == {pid}
    os.kill(pid, signal.SIGKILL)
    reopen = _lost(page)  # at once: the server announces the restart and closes
    expect(reopen).to_have_attribute(
        "href", f"{base}/voila/render/{DIVISOR}?divisor=800&difference=200"
    )
    reopen.click()
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT)
    expect(page.locator(".ee-summary")).to_contain_text("200 points up, ÷800", timeout=TIMEOUT)
    expect(page.locator(".ee-lost")).to_have_count(0)
    # the blank kernel Voilà restarted under the old id was shut down: one kernel, the new page's
    deadline = time.monotonic() + 30
    while len(kernel_pids(proc)) != 1:
        assert time.monotonic() < deadline, f"{len(kernel_pids(proc))} kernels after reopening"
        time.sleep(POLL)
    # the server shuts the reopened page's kernel down (the beacon's path, the culler's):
    # the page says so within 2 s, before the viewer does anything
    assert _told_after_shutdown(page) <= 2000
    with open(folder / "voila.log") as f:  # what the server logged in this test's time
        f.seek(since)
        log = f.read()
    assert "Shutting viewer kernel" in log and tracebacks(log) == []


def _told_after_shutdown(page) -> int:
    """Milliseconds from a server-side shutdown of the page's kernel (its beacon, with its
    token, as the page sends it when it closes) to the page's "stopped" note, both on the
    page's clock."""
    page.evaluate("""() => {
      const c = JSON.parse(document.getElementById("jupyter-config-data").textContent);
      new MutationObserver((_m, observer) => {
        if (document.querySelector(".ee-lost")) { window.eeLostAt = Date.now(); observer.disconnect(); }
      }).observe(document.body, { childList: true });
      const form = new FormData();
      form.set("ee_token", c.eePageToken);
      window.eeShutdownAt = Date.now();
      fetch(`${c.baseUrl}voila/api/shutdown/${c.kernelId}`, { method: "POST", body: form });
    }""")
    page.wait_for_function("window.eeLostAt !== undefined", timeout=TIMEOUT, polling=POLL_MS)
    took = page.evaluate("window.eeLostAt - window.eeShutdownAt")
    print(f"shut down server-side: the page said so after {took} ms")
    return took


@pytest.fixture
def culling(tmp_path):
    """A server of its own whose idle culler takes a kernel idle for 15 s (checks every
    second); published: 300 s, every 60 s (``test_the_published_config_is_the_one_tested``).
    Not less: the culler counts a page still loading as idle once the notebook has run, and
    a loaded machine's Chromium took over 5 s to show the page (the kernel was culled first)."""
    proc, base, log = _voila(
        tmp_path,
        "--MappingKernelManager.cull_idle_timeout=15",
        "--MappingKernelManager.cull_interval=1",
    )
    yield proc, base
    stop(proc)
    log.close()


def test_a_culled_kernel_gets_a_notice_and_the_typed_games_come_back(culling, page):
    proc, base = culling
    open_dashboard(page, base, NEW_TO_FIDE)
    games = page.locator(".ee-ready textarea").first
    # FIDE B.02 section 7 (docs/sources.md#fide-b02, F9): 5 / 5 against 2000-2400 -> 2200
    games.fill("2000 1, 2100 1, 2200 1, 2300 1, 2400 1")
    expect(page.locator(".ee-first-rating")).to_contain_text("2200", timeout=TIMEOUT)
    reopen = _lost(page)  # the reader reads on; the idle culler takes the kernel
    reopen.click()
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT)
    expect(page.locator(".ee-first-rating")).to_contain_text("2200", timeout=TIMEOUT)
    # the same five games, one per line as the page writes them
    expect(page.locator(".ee-ready textarea").first).to_have_value(
        "2000 1\n2100 1\n2200 1\n2300 1\n2400 1"
    )
