"""The published site's kernel websockets: what a page may send, and what it may receive.

:class:`GuardedConnection` (``Voila.kernel_websocket_connection_class`` in ``voila.json``) is
jupyter_server's websocket connection with limits a real viewer never meets, each applied
before the message reaches the kernel:

* **v1 protocol only**: a websocket that does not ask for
  ``v1.kernel.websocket.jupyter.org`` is refused. Voilà parses every binary frame it sends as
  v1 (``read_header_from_binary_message``); a legacy-protocol frame holding widget buffers
  reads as ~10^17 offsets and freezes the whole server (issue 16). The gate and nginx refuse
  such a websocket too; this is the last line.
* **Connections per kernel**: a page opens one; a second may overlap while it reconnects.
* **Message size**, **message rate** and **byte rate** (token buckets: a burst, then a steady
  rate; a message passes only if both have room) and **comm
  opens** (the page's widget manager opens one control comm; every other widget is created by
  the kernel): beyond them a message is dropped, and the drops are logged once per connection.
  The figures a real viewer sends are in the README's security section.
* **Nothing but the dashboard's own messages go out**: ``error`` messages (a traceback naming
  the server's files) and ``stderr`` streams are dropped; the kernel keeps serving.
* **Always v1 out, and nothing to a closed websocket**: jupyter_server asks the tornado
  handler for the websocket's protocol on every message, and once the page has gone the
  handler has no connection, the question fails and the answer falls back to the legacy
  protocol. A message with buffers (every figure: an image widget's bytes) then goes to
  Voilà's writer in the legacy format, which Voilà reads as v1: its first 8 bytes as the
  number of offsets, ~10^17, in a Python loop that holds the whole server (100 % of a core,
  memory growing by ~30 MB a second, every page frozen; seen when a page closed while its
  figure was being sent). The protocol is v1 (``prepare`` refuses any other), and a message
  for a closed websocket is dropped, as tornado would refuse to write it anyway.

Each limit is a configurable trait (``--GuardedConnection.max_message_bytes=…``).

**Upstream** (``voila`` and ``jupyter_server`` are pinned, ``pyproject.toml``):

* The legacy answer after a close is jupyter_server's fallback of
  ``ZMQChannelsWebsocketConnection.subprotocol`` (jupyter-server/jupyter_server#706, for
  #705: "fall back to legacy protocol if ``selected_subprotocol`` raises"), which tornado's
  ``selected_subprotocol`` does once the websocket has closed. The same race, the handler's
  connection gone after ``on_close``, is jupyter-server/jupyter_server#1265, open; its fix
  (PR #1696, open) answers a closed socket with the legacy protocol too, so it does not let
  :attr:`GuardedConnection.subprotocol` go. What would: jupyter_server keeping the protocol
  negotiated at the handshake for the connection's life (or dropping messages for a closed
  websocket), or Voilà reading a frame in the protocol it was written in.
* Which connections a kernel has is asked through ``kernel_model(kernel_id)["connections"]``,
  the kernel REST API's own model (public), and this class keeps its own set of open
  connections (:meth:`GuardedConnection.close_for_kernel`) instead of jupyter_server's private
  ``ZMQChannelsWebsocketConnection._open_sockets``.
"""

from __future__ import annotations

import time
import weakref

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import web
from traitlets import Float, Integer, List, Unicode

__all__ = ["GuardedConnection", "V1", "asks_for_v1", "split_v1"]

V1 = "v1.kernel.websocket.jupyter.org"
MAX_PARTS = 64  # channel, header, parent, metadata, content and the buffers of one message


def split_v1(frame) -> tuple[str, list[bytes]] | None:
    """A v1 websocket frame's channel and parts, or ``None`` if it is not a well-formed one.

    jupyter_server's own reader trusts the frame's first 8 bytes as the number of offsets, so
    a crafted frame claiming 2^60 of them keeps the server looping: this checks first.

    >>> from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
    >>> split_v1(serialize_msg_to_ws_v1([b"{}", b"{}", b"{}", b"{}"], "shell"))
    ('shell', [b'{}', b'{}', b'{}', b'{}'])
    >>> split_v1((2**60).to_bytes(8, "little") + b"x" * 40), split_v1("text"), split_v1(b"")
    (None, None, None)
    """
    if not isinstance(frame, (bytes, bytearray, memoryview)) or len(frame) < 8:
        return None
    frame = bytes(frame)
    count = int.from_bytes(frame[:8], "little")
    if not 3 <= count <= MAX_PARTS + 2 or 8 * (count + 1) > len(frame):
        return None
    offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    if offsets[0] != 8 * (count + 1) or offsets != sorted(offsets) or offsets[-1] > len(frame):
        return None
    try:
        channel = frame[offsets[0]:offsets[1]].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return channel, [frame[offsets[i]:offsets[i + 1]] for i in range(1, count - 1)]


def asks_for_v1(header: str | None) -> bool:
    """Whether a ``Sec-WebSocket-Protocol`` header offers the v1 kernel protocol.

    >>> asks_for_v1("v1.kernel.websocket.jupyter.org"), asks_for_v1(None), asks_for_v1("x, v1")
    (True, False, False)
    """
    return V1 in [p.strip() for p in (header or "").split(",")]


class GuardedConnection(ZMQChannelsWebsocketConnection):
    """A kernel websocket with the published site's limits (see the module's docstring)."""

    # this class's open connections (jupyter_server keeps its own in a private set)
    _open: "weakref.WeakSet[GuardedConnection]" = weakref.WeakSet()

    max_connections = Integer(2, config=True, help="Websockets one kernel may have at once.")
    max_message_bytes = Integer(4 * 2**20, config=True, help=(
        "Largest message a page may send (bytes); an upload's limit is checked in the page "
        "before sending, far below this."))
    message_rate = Float(40.0, config=True, help=(
        "Messages per second a page may send, sustained (a held arrow key repeats ~30 a second)."))
    message_burst = Integer(80, config=True, help="Messages a page may send at once.")
    byte_rate = Float(4 * 2**20, config=True, help=(
        "Bytes per second a page may send, sustained (issue 26, 3: the rate counts bytes, not "
        "only messages; a 2 MB upload or paste is sent once)."))
    byte_burst = Integer(16 * 2**20, config=True, help=(
        "Bytes a page may send at once (four messages of the largest size)."))
    max_comm_opens = Integer(4, config=True, help="Comms a page may open.")
    comm_targets = List(Unicode(), ["jupyter.widget.control"], config=True, help=(
        "Comm targets a page may open (the widget manager's control comm)."))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._tokens = float(self.message_burst)
        self._bytes = float(self.byte_burst)
        self._refilled = time.monotonic()
        self._comm_opens = 0
        self._dropped: dict[str, int] = {}

    async def prepare(self):
        request = self.websocket_handler.request
        if not asks_for_v1(request.headers.get("Sec-WebSocket-Protocol")):
            raise web.HTTPError(400, "the kernel websocket needs the v1 protocol")
        kernels = self.multi_kernel_manager
        connections = kernels.kernel_model(self.kernel_id)["connections"]  # 404 if none
        if connections >= self.max_connections:
            raise web.HTTPError(429, "too many websockets for this kernel")
        await super().prepare()

    # --- the open connections, by kernel ------------------------------------------------------
    def connect(self):
        connected = super().connect()
        GuardedConnection._open.add(self)
        return connected

    def disconnect(self):
        GuardedConnection._open.discard(self)
        return super().disconnect()

    @classmethod
    def close_for_kernel(cls, kernel_id: str, reason: str = "kernel shut down") -> int:
        """Close the page websockets of ``kernel_id`` (code 1001, going away), so a page
        hears at once that its kernel is gone; returns how many were open."""
        closed = 0
        for connection in list(cls._open):
            if connection.kernel_id != kernel_id:
                continue
            closed += 1
            try:
                connection.websocket_handler.close(1001, reason)
            except Exception:  # noqa: BLE001 - already closing
                pass
        return closed

    # --- what comes in --------------------------------------------------------------------
    def _drop(self, why: str) -> None:
        self._dropped[why] = self._dropped.get(why, 0) + 1
        if self._dropped[why] == 1:
            self.log.warning("Kernel %s: dropping a page's messages (%s)", self.kernel_id, why)

    def _take_token(self, size: int) -> bool:
        """One message of ``size`` bytes from both buckets (messages and bytes), or none."""
        now = time.monotonic()
        elapsed, self._refilled = now - self._refilled, now
        self._tokens = min(float(self.message_burst), self._tokens + elapsed * self.message_rate)
        self._bytes = min(float(self.byte_burst), self._bytes + elapsed * self.byte_rate)
        if self._tokens < 1 or self._bytes < size:
            return False
        self._tokens -= 1
        self._bytes -= size
        return True

    def handle_incoming_message(self, incoming_msg) -> None:
        if len(incoming_msg) > self.max_message_bytes:
            return self._drop(f"a message over {self.max_message_bytes} bytes")
        if not self._take_token(len(incoming_msg)):
            return self._drop(f"over {self.message_rate:g} messages or "
                              f"{self.byte_rate / 2**20:g} MiB a second")
        split = split_v1(incoming_msg)
        try:
            msg_type = self.session.unpack(split[1][0])["msg_type"]
        except Exception:  # noqa: BLE001 - not a v1 kernel message
            return self._drop("a malformed message")
        parts = split[1]
        if msg_type == "comm_open":
            try:
                target = self.session.unpack(parts[3]).get("target_name")
            except Exception:  # noqa: BLE001
                target = None
            if target not in self.comm_targets:
                return self._drop(f"a comm for target {str(target)[:40]!r}")
            self._comm_opens += 1
            if self._comm_opens > self.max_comm_opens:
                return self._drop(f"over {self.max_comm_opens} comm opens")
        super().handle_incoming_message(incoming_msg)

    # --- what goes out ----------------------------------------------------------------------
    @property
    def subprotocol(self):
        """v1, the only protocol :meth:`prepare` lets in, also after the websocket closed
        (jupyter_server's own answer then turns to the legacy protocol:
        jupyter-server/jupyter_server#706 and #1265, the module's docstring)."""
        return V1

    def _websocket_closed(self) -> bool:
        ws = getattr(self.websocket_handler, "ws_connection", None)
        return ws is None or ws.is_closing()

    def handle_outgoing_message(self, stream, outgoing_msg) -> None:
        if self._websocket_closed():
            return self._drop_out("messages after the page's websocket closed")
        try:
            _idents, fed = self.session.feed_identities(outgoing_msg)
            header = self.session.unpack(fed[1])
            msg_type = header.get("msg_type")
            if msg_type == "error":
                return self._drop_out("an error message with a traceback")
            if msg_type == "stream" and self.session.unpack(fed[4]).get("name") == "stderr":
                return self._drop_out("stderr output")
        except Exception:  # noqa: BLE001 - let the parent handle what it can
            pass
        super().handle_outgoing_message(stream, outgoing_msg)

    def _drop_out(self, why: str) -> None:
        self._dropped["out: " + why] = self._dropped.get("out: " + why, 0) + 1
        if self._dropped["out: " + why] == 1:
            self.log.info("Kernel %s: not sending %s to the page", self.kernel_id, why)
