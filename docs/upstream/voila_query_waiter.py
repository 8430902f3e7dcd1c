"""Voilà 0.5.13: ``RequestInfoSocketHandler.on_close`` deletes another kernel's waiter.

Standalone reproduction (Voilà 0.5.13, tornado 6; no kernel, no notebook): a tornado app that
serves only Voilà's own ``voila/query/<kernel id>`` handler, as ``voila --preheat_kernel``
routes it. A pooled kernel "A" waits on its socket; a visitor opens two sockets for one
made-up id "B" and closes them. The second close finds no entry of its own (the first socket's
entry was overwritten by the second's, then deleted by it) and ``del``s the loop variable's
last key instead: A's waiter. The viewer's request for A then never reaches A, whose render
hangs.

Run: ``python docs/upstream/voila_query_waiter.py``; exits 1 while the bug is present,
0 once Voilà keeps A's waiter.
"""

import asyncio
import json
import sys

from tornado import httpserver, testing, web, websocket
from voila.request_info_handler import RequestInfoSocketHandler

A = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"  # the pooled kernel, waiting for its viewer
B = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb"  # a made-up id


async def settle(condition, seconds=5.0):
    for _ in range(int(seconds / 0.01)):
        if condition():
            return True
        await asyncio.sleep(0.01)
    return condition()


async def main() -> int:
    app = web.Application([(r"/voila/query/(\w+-\w+-\w+-\w+-\w+)", RequestInfoSocketHandler)])
    sock, port = testing.bind_unused_port()
    server = httpserver.HTTPServer(app)
    server.add_sockets([sock])
    url = f"ws://127.0.0.1:{port}/voila/query/"
    waiters = RequestInfoSocketHandler._waiters

    kernel_a = await websocket.websocket_connect(url + A)
    await settle(lambda: A in waiters)
    print(f"kernel A waits:           waiters = {sorted(waiters)}")

    first = await websocket.websocket_connect(url + B)
    second = await websocket.websocket_connect(url + B)
    await settle(lambda: waiters.get(B) is not None)
    first.close()
    await settle(lambda: B not in waiters)
    second.close()
    await asyncio.sleep(0.3)  # the second socket's on_close has run
    print(f"after B's two sockets:    waiters = {sorted(waiters)}")

    # the viewer takes kernel A: Voilà's page handler sends A its request
    RequestInfoSocketHandler.send_updates({"kernel_id": A, "payload": {"QUERY_STRING": "x=1"}})
    try:
        message = await asyncio.wait_for(kernel_a.read_message(), 2.0)
    except asyncio.TimeoutError:
        message = None
    kernel_a.close()  # A's own close then finds no entry at all: an UnboundLocalError in the log
    await asyncio.sleep(0.3)
    server.stop()
    if message is None:
        print(
            "BUG: kernel A never received its request (its waiter was deleted by B's close);"
            f" Voilà cached it instead: _cache = {json.dumps(RequestInfoSocketHandler._cache)}"
        )
        return 1
    print(f"kernel A received its request: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
