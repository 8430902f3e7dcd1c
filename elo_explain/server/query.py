"""The preheated pool's request socket, ``voila/query/<kernel id>``: for the pool's own kernels
only.

A kernel of Voilà's preheated pool runs its notebook before anyone asks for the page, then
waits for its viewer's request (the page's query string) over this websocket
(:mod:`elo_explain.server.preheat`, the kernel's side). :class:`QuerySocket` replaces Voilà
0.5.13's ``RequestInfoSocketHandler`` (:func:`install`), whose ``on_close`` deletes the *last*
waiter of its dict when a socket's own entry was overwritten by a second socket for the same
id: 44 opens and closes on made-up ids from outside took the pooled kernels' waiters, and
every pooled render then hung. Here:

* **Only the pool's kernels get in**: a peer on this machine presenting the kernel's query
  token (:func:`~elo_explain.server.kernels.query_token`, which the server gives the kernel in
  its environment and nobody else) in the ``X-Elo-Query-Token`` header; anyone else gets 404
  before the upgrade. nginx does not proxy ``/voila/query/`` at all.
* **One waiter per kernel**: a new socket for a kernel replaces and closes its old one; a
  closing socket removes only its own entry.
* **The request is kept until the kernel says "received"**: a request sent while the kernel
  was reconnecting is sent again on its next socket; the entry goes when the kernel
  acknowledges it or is shut down (:meth:`QuerySocket.forget`).

**Upstream**: the bug is in ``voila/request_info_handler.py`` (Voilà 0.5.13, pinned in
``pyproject.toml``); its reproduction and fix are ``docs/upstream/voila_query_waiter.md``, and
``tests/models/test_upstream.py`` fails once Voilà no longer has it. What would let this class
go: a Voilà whose handler keeps one waiter per id and authenticates the kernel; the route would
still be left unproxied.

>>> QuerySocket.send_updates({"kernel_id": "k", "payload": {"QUERY_STRING": "a=1"}})
>>> QuerySocket._cache["k"]
{'QUERY_STRING': 'a=1'}
>>> QuerySocket.forget("k"); "k" in QuerySocket._cache
False
"""

from __future__ import annotations

import ipaddress

from tornado import web
from tornado.websocket import WebSocketClosedError, WebSocketHandler

__all__ = ["QuerySocket", "TOKEN_HEADER", "install"]

TOKEN_HEADER = "X-Elo-Query-Token"
RECEIVED = "received"


def _loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


class QuerySocket(WebSocketHandler):
    """``voila/query/<kernel id>`` for the pool's kernels (see the module's docstring)."""

    _waiters: dict[str, QuerySocket] = {}
    _cache: dict[str, dict] = {}
    #: ``(kernel_id, token) -> bool``: given by :func:`install` (the kernel manager's check)
    token_matches = staticmethod(lambda kernel_id, token: False)

    async def get(self, kernel_id: str, *args, **kwargs):
        if not (
            _loopback(self.request.remote_ip)
            and QuerySocket.token_matches(kernel_id, self.request.headers.get(TOKEN_HEADER))
        ):
            raise web.HTTPError(404)
        await super().get(kernel_id, *args, **kwargs)

    def open(self, kernel_id: str) -> None:
        self.kernel_id = kernel_id
        old = QuerySocket._waiters.get(kernel_id)
        QuerySocket._waiters[kernel_id] = self
        if old is not None and old is not self:
            old.close()  # its on_close leaves this entry alone
        if kernel_id in QuerySocket._cache:
            self._send(QuerySocket._cache[kernel_id])

    def on_message(self, message) -> None:
        if message == RECEIVED:
            QuerySocket._cache.pop(self.kernel_id, None)
            self.close()

    def on_close(self) -> None:
        kernel_id = getattr(self, "kernel_id", None)
        if QuerySocket._waiters.get(kernel_id) is self:
            del QuerySocket._waiters[kernel_id]

    def _send(self, payload: dict) -> None:
        try:
            self.write_message(payload)
        except WebSocketClosedError:
            pass  # the kernel's next socket gets it from the cache

    @classmethod
    def send_updates(cls, msg: dict) -> None:
        """The request of the viewer who took ``msg["kernel_id"]`` (Voilà's handler calls this
        when it hands a pooled kernel out): sent to its waiting socket, and kept until the
        kernel acknowledges it."""
        kernel_id, payload = msg["kernel_id"], msg["payload"]
        cls._cache[kernel_id] = payload
        waiter = cls._waiters.get(kernel_id)
        if waiter is not None:
            waiter._send(payload)

    @classmethod
    def forget(cls, kernel_id: str) -> None:
        """The kernel is gone: its request and its socket too."""
        cls._cache.pop(kernel_id, None)
        waiter = cls._waiters.pop(kernel_id, None)
        if waiter is not None:
            waiter.close()


def install(app, token_matches) -> None:
    """Serve :class:`QuerySocket` where ``app`` (the Voilà application, before it starts)
    would serve Voilà's ``RequestInfoSocketHandler``, and let Voilà's page handler send the
    request to it; ``token_matches(kernel_id, token)`` checks a kernel's query token. Voilà names the class in two places, its route list
    (``Voila.init_handlers``) and its page handler's module (``voila.handler``, which calls
    ``RequestInfoSocketHandler.send_updates``): both are pointed here."""
    import voila.handler
    from voila.request_info_handler import RequestInfoSocketHandler

    QuerySocket.token_matches = staticmethod(token_matches)
    voila.handler.RequestInfoSocketHandler = QuerySocket
    init_handlers = app.init_handlers

    def handlers():
        return [
            (route[0], QuerySocket, *route[2:]) if route[1] is RequestInfoSocketHandler else route
            for route in init_handlers()
        ]

    app.init_handlers = handlers
