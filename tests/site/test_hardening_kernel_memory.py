"""A kernel cannot be grown to gigabytes, and has a memory ceiling of its own.

One ``voila`` with the repository's ``voila.json`` and a lower RSS ceiling than published
(300 MiB, so that the test's allocation stays small on a shared machine):

* the issue's abuse, 435 updates of 3.8 MB to the calculator's games box over a second
  websocket (they grew a kernel from 120 to 1,607 MiB, busy for 140 s): the server lets
  through what its byte rate allows, the kernel drops each over the box's budget before
  reading it; the kernel's RSS stays within 60 MiB of where it was, it idles within seconds,
  and its page keeps answering;
* a kernel's own ceilings: every kernel starts with RLIMIT_DATA of 1 GiB (an allocation beyond
  fails in the kernel, which keeps serving), and a kernel over its RSS ceiling -- made to
  allocate by the operator, through its connection file, as an abuse would grow it -- is shut
  down at once and its open page says "This view has stopped."; the server lives on.

No traceback in the server's log.
"""

from __future__ import annotations

import json
import resource
import time

import psutil
import pytest
from jupyter_client import BlockingKernelClient
from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
from playwright.sync_api import expect
from websockets.exceptions import ConnectionClosed

from harness import (
    TIMEOUT,
    KernelSocket,
    Viewer,
    _message,
    kernel_pids,
    open_dashboard,
    start_voila,
    stop,
    tracebacks,
    widget_states,
)

CALCULATOR = "01_chess_calculator.ipynb"
RSS_CEILING_MIB = 300
ABUSE = (435, 3_800_000)  # the updates and their size


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kernel-memory")
    log = open(folder / "voila.log", "w")
    proc, base = start_voila(f"--ViewerKernels.kernel_rss_mib={RSS_CEILING_MIB}", log=log)
    yield proc, base, folder / "voila.log"
    log.flush()
    text = (folder / "voila.log").read_text()  # what the tests caused, before the server stops
    stop(proc)
    log.close()
    assert tracebacks(text) == [], tracebacks(text)[0][:3000]


def _kernel(proc, kernel_id: str) -> psutil.Process:
    (pid,) = [p for p in kernel_pids(proc) if kernel_id in " ".join(psutil.Process(p).cmdline())]
    return psutil.Process(pid)


def _cpu(p: psutil.Process) -> float:
    t = p.cpu_times()
    return t.user + t.system


def _idle(kernel: psutil.Process, within: float) -> float:
    """Seconds until the kernel used under 0.1 CPU-s in a second (fails after ``within``)."""
    t0 = time.monotonic()
    while True:
        before = _cpu(kernel)
        time.sleep(1.0)  # a 1-second CPU sample (polling window)
        if _cpu(kernel) - before < 0.1:
            return time.monotonic() - t0
        assert time.monotonic() - t0 < within, f"the kernel was still busy after {within:.0f} s"


def _send_one_update(
    base: str, kernel_id: str, comm_id: str, value: str, count: int, each=None
) -> int:
    """``harness.send_updates`` of ``count`` times the same ``value``, its message's content
    encoded to JSON once (encoding 3.8 MB again for each took the sender ~25 ms, 435 times):
    each message its own header, sent as fast as the server reads them over a second v1
    websocket, one the server closes opened again. Returns how many websockets were needed."""
    content = json.dumps(
        {
            "comm_id": comm_id,
            "data": {"method": "update", "state": {"value": value}, "buffer_paths": []},
        }
    ).encode()

    def frame(ws: KernelSocket) -> bytes:
        msg = _message("comm_msg", {}, ws.session)
        return serialize_msg_to_ws_v1(
            [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata")]
            + [content],
            "shell",
        )

    ws, opened = KernelSocket(base, kernel_id, "v1"), 1
    for i in range(count):
        try:
            ws.ws.send(frame(ws))
        except ConnectionClosed:
            ws, opened = KernelSocket(base, kernel_id, "v1"), opened + 1
            ws.ws.send(frame(ws))
        if each is not None:
            each(i)
        time.sleep(0.002)  # as send_updates: the client's thread answers the server's pings
    ws.close()
    return opened


def _state_of(base: str, kernel_id: str, comm_id: str) -> dict:
    """The state of one widget of a kernel's page, over a second v1 websocket, as the page's
    widget manager asks for it (``harness.widget_states`` asks for every widget's, paced)."""
    ws = KernelSocket(base, kernel_id, "v1")
    ws.send("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}})
    try:
        while True:
            m = ws.receive()
            if m["header"]["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id:
                return m["content"]["data"].get("state", {})
    finally:
        ws.close()


def test_435_updates_of_3_8_mb_to_a_text_box_are_refused_cheaply(server):
    proc, base, log = server
    viewer = Viewer(base)
    _, kernel_id = viewer.render(CALCULATOR)
    games = next(
        comm
        for comm, state in widget_states(base, kernel_id).items()
        if "ee-games-text" in state.get("_dom_classes", ())
    )
    kernel = _kernel(proc, kernel_id)
    ws = KernelSocket(base, kernel_id, "v1")  # the page's own websocket, open all along
    _idle(kernel, 60)
    rss0, cpu0 = kernel.memory_info().rss, _cpu(kernel)
    count, size = ABUSE
    text = ("1600 win, " * (size // 10 + 1))[:size]
    t0 = time.monotonic()
    peak = [rss0]

    def sample(i):
        if i % 20 == 0:
            peak.append(kernel.memory_info().rss)

    sockets = _send_one_update(base, kernel_id, games, text, count, sample)
    sent_s = time.monotonic() - t0
    settled = _idle(kernel, 30)
    peak = max(*peak, kernel.memory_info().rss)
    grown, cpu = (peak - rss0) / 2**20, _cpu(kernel) - cpu0
    print(
        f"{count} updates of {size / 1e6:.1f} MB in {sent_s:.1f} s ({sockets} websockets): "
        f"kernel RSS peak {grown:+.1f} MiB, CPU {cpu:.1f} s, idle {settled:.0f} s after"
    )
    assert grown < 60, f"the kernel grew by {grown:.0f} MiB"
    assert cpu < 20, f"the updates cost the kernel {cpu:.1f} CPU-s"
    # the kernel keeps serving; the games box holds what the page had
    barrier = ws.send("kernel_info_request", {})
    assert any(
        m["parent_header"].get("msg_id") == barrier
        for m in iter(ws.receive, None)
        if m["header"]["msg_type"] == "kernel_info_reply"
    )
    state = _state_of(base, kernel_id, games)
    ws.close()
    assert state["value"] == "1400 win\n1600 draw\n1550 loss"  # [TE] the period 1500 -> 1501
    assert "bytes a second" in log.read_text()  # the server's byte rate dropped most of them
    viewer.close()


def test_a_kernel_over_its_ceiling_is_stopped_and_its_page_told(server, page):
    proc, base, log = server
    # any page's kernel (the landing page's is the cheapest); its notice is the template's
    open_dashboard(page, base, "index.ipynb")
    kernel_id = json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]
    kernel = _kernel(proc, kernel_id)
    assert kernel.rlimit(resource.RLIMIT_DATA) == (2**30, 2**30)
    client = BlockingKernelClient()
    args = kernel.cmdline()
    client.load_connection_file(args[args.index("-f") + 1])
    client.start_channels()
    try:
        said: list[str] = []

        def run(code: str) -> None:
            client.execute_interactive(
                code, timeout=60, output_hook=lambda m: said.append(m["content"].get("text", ""))
            )

        # beyond RLIMIT_DATA: refused in the kernel, which lives on
        run("try:\n    _x = bytearray(1100 << 20)\nexcept MemoryError:\n    print('refused')")
        assert "refused" in "".join(said) and kernel.is_running()
        assert kernel.memory_info().rss < RSS_CEILING_MIB * 2**20
        # over the RSS ceiling (an abused kernel's growth): shut down, its page told
        client.execute(f"_y = b'x' * ({RSS_CEILING_MIB + 50} << 20)")
        notice = page.locator(".ee-lost")
        expect(notice).to_be_visible(timeout=TIMEOUT)
        expect(notice).to_contain_text("This view has stopped.")
    finally:
        client.stop_channels()
    deadline = time.monotonic() + 30
    while kernel.is_running() and kernel.status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the kernel over its ceiling still runs"
        time.sleep(0.25)  # polling interval
    assert proc.poll() is None  # the server lives on
    assert f"over its ceiling of {RSS_CEILING_MIB} MiB" in log.read_text()
