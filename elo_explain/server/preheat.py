"""A preheated kernel's wait for its viewer's request.

Voilà puts the page's request (its query string, ...) in the kernel's environment. With
``preheat_kernel`` Voilà starts kernels and runs their notebook before anyone asks for the
page (a pool per notebook); such a kernel learns its request only when a viewer takes it, over
Voilà's own websocket (``voila/query/<kernel id>``, ``voila.utils.wait_for_request``). A
dashboard view reads its starting state from the query string
(:func:`elo_explain.interactive.link.page_query`) after its first render, and in a pooled
kernel that first calls :func:`wait_for_request` (set by
:mod:`elo_explain.server.published_kernel`), so the kernel has done all the work it can before
its viewer comes.

This module runs in the page's kernel, not in the server; it is the kernel's side of the
server's pool (:mod:`elo_explain.server.kernels`).

**Upstream**: the protocol is Voilà's (the request info over ``voila/query/<kernel id>``,
voila-dashboards/voila#1109, handler ``voila/request_info_handler.py``), and Voilà is pinned
(``pyproject.toml``). :func:`wait_for_request` writes the client side again only to avoid
importing ``voila`` in every kernel (reproduction and proposed fix:
``docs/upstream/voila_wait_for_request_import.md``); what would let it go: a
``voila.utils`` (or a module of its own) that imports without jupyter_server and
jupyterlab_server, then the published kernel waits with ``voila.utils.wait_for_request``.
"""

from __future__ import annotations

import os

__all__ = ["wait_for_request"]

#: seconds a pooled kernel waits on one socket before it asks again (:func:`wait_for_request`)
RETRY_S = 30.0


def wait_for_request() -> None:
    """``voila.utils.wait_for_request`` without importing ``voila``: the package's import
    pulls in jupyter_server and jupyterlab_server, whose JSON schemas parse a URI grammar
    at import -- about 3 CPU-s in every preheated kernel, four times the rest of the
    notebook (``benchmarks/CAPACITY.md``). The protocol is Voilà's: one websocket to
    ``voila/query/<kernel id>`` on the Voilà server, which sends the request's environment
    as a JSON object when a viewer takes the kernel.

    On the published server (:mod:`elo_explain.server.query`) the kernel presents the token
    the server gave it (``ELO_QUERY_TOKEN``) and answers "received"; a wait that hears
    nothing in :data:`RETRY_S` reconnects (a lost socket never leaves the kernel, and its
    viewer's render, waiting for ever), as does a dropped connection. A refused socket
    means no request info: the page starts from the notebook's values."""
    import asyncio
    import json
    import threading

    import websockets

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = (
        f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
        f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env.get('VOILA_KERNEL_ID')}"
    )
    token = env.get("ELO_QUERY_TOKEN")
    headers = {"X-Elo-Query-Token": token} if token else None
    info: list[str] = []

    async def receive():
        while True:
            try:
                async with websockets.connect(
                    url, open_timeout=5, additional_headers=headers, proxy=None
                ) as ws:
                    try:
                        message = await asyncio.wait_for(ws.recv(), RETRY_S)
                    except TimeoutError:
                        continue  # ask again on a new socket
                    info.append(message)
                    if token:
                        await ws.send("received")
                    return
            except websockets.InvalidHandshake:
                return  # refused: no request info
            except (OSError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(1.0)  # the server is busy or restarting: ask again

    thread = threading.Thread(target=lambda: asyncio.new_event_loop().run_until_complete(receive()))
    thread.start()
    thread.join()
    if info:
        for key, value in json.loads(info[0]).items():
            env[key] = value
