"""The preheated pool survives any ``/voila/query/`` traffic from outside (issue 26, 1).

Voilà 0.5.13's ``RequestInfoSocketHandler`` deleted the *last* waiter of its dict when a
socket's own entry had been overwritten: pairs of websockets on made-up ids, opened and closed
by anyone, took the pooled kernel's waiter, and every pooled render then hung with partial
HTML (the kernel waited for its request for ever). A real ``voila`` with the published
configuration and a pool of one kernel (the English 03 only), nginx in front as ``make
publish`` runs it: 44 such pairs through nginx and 44 directly, then a render from the pool
through each completes, with the link's values (the request reached the kernel), and the
server's log has no traceback.
"""

from __future__ import annotations

import json
import uuid

import psutil
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from harness import HTTP_TIMEOUT, Viewer, kernel_pids, start_proxy, start_voila, stop
from harness import tracebacks, widget_states

from .test_preheat import DIVISOR_NB, ONLY_03, _wait_kernels, _wait_waiting_for_a_viewer

PAIRS = 44   # the count


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


def _pooled_render(voila, base: str, page_base: str) -> str:
    """A render of 03 with a link's values, through ``page_base``, once the pool's kernel
    waits for a viewer; returns the page's kernel id (checked to be the pool's)."""
    _wait_waiting_for_a_viewer(voila, base, "the pooled kernel never waited for a viewer")
    viewer = Viewer(page_base)
    _html, kernel_id = viewer.render(DIVISOR_NB, "?divisor=800&difference=300")
    # Greek document, version history: ÷800, 300 points up -> 70.3 % (the link reached the
    # kernel, which ran the notebook before the request)
    shown = json.dumps(list(widget_states(base, kernel_id).values()), ensure_ascii=False)
    assert "÷800: expected win rate 70.3 %" in shown, "the link's values are not in the view"
    (pid,) = [p for p in kernel_pids(voila) if kernel_id in " ".join(psutil.Process(p).cmdline())]
    assert psutil.Process(pid).environ().get("VOILA_PREHEAT") == "True", "not the pool's kernel"
    viewer.close()
    return kernel_id


def test_query_socket_traffic_from_outside_leaves_every_pooled_render_working(tmp_path):
    log = open(tmp_path / "voila.log", "w")
    voila, base = start_voila(ONLY_03, log=log, preheat=True)
    nginx_log = open(tmp_path / "nginx.log", "w")
    nginx, proxied = start_proxy(base, tmp_path / "nginx", log=nginx_log)
    try:
        _wait_kernels(voila, log, 1, "the pool did not fill")
        _wait_waiting_for_a_viewer(voila, base, "the pooled kernel never waited for a viewer")
        refused = _pairs(proxied), _pairs(base)   # from outside: through nginx, and directly
        assert HTTP_TIMEOUT >= 100  # the renders stopped at 100 s
        _pooled_render(voila, base, proxied)
        again = _pairs(proxied), _pairs(base)   # again, with the pool refilled behind the page
        _pooled_render(voila, base, base)
        assert voila.poll() is None
        log.flush()
        # no traceback for any of this (read before the server stops: a refill kernel still
        # starting then is interrupted, and says so in the log)
        assert tracebacks((tmp_path / "voila.log").read_text()) == []
        # nobody but the pool's kernels got in
        assert refused == again == ([404] * 2 * PAIRS, [404] * 2 * PAIRS)
    finally:
        stop(nginx)
        stop(voila)
        log.close()
        nginx_log.close()


def test_the_query_socket_keeps_one_waiter_per_kernel_and_the_request_until_received():
    """Inside: the pool's kernel's own sockets, with its token (what the kernel's wait does,
    ``elo_explain.server.preheat``), against :class:`QuerySocket` in a bare tornado app."""
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
            with pytest.raises(InvalidStatus) as refused:   # another kernel's token
                await websockets.connect(url, additional_headers={
                    TOKEN_HEADER: query_token(str(uuid.uuid4()))}, proxy=None)
            assert refused.value.response.status_code == 404
            first = await websockets.connect(url, additional_headers=own, proxy=None)
            second = await websockets.connect(url, additional_headers=own, proxy=None)
            await first.wait_closed()          # the second replaced it; its close took nothing
            assert QuerySocket._waiters[kernel_id] is not None
            QuerySocket.send_updates({"kernel_id": kernel_id, "payload": {"QUERY_STRING": "a=1"}})
            assert json.loads(await asyncio.wait_for(second.recv(), 10)) == {"QUERY_STRING": "a=1"}
            await second.close()               # not acknowledged: kept for the next socket
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
