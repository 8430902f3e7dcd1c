"""The published site's kernel websockets: what a page may send, and what it may receive.

:class:`GuardedConnection` (``Voila.kernel_websocket_connection_class`` in ``voila.json``) is
jupyter_server's websocket connection with limits a real viewer never meets, each applied
before the message reaches the kernel:

* **v1 protocol only**: a websocket that does not ask for
  ``v1.kernel.websocket.jupyter.org`` is refused. Voilà parses every binary frame it sends as
  v1 (``read_header_from_binary_message``); a legacy-protocol frame holding widget buffers
  reads as ~10^17 offsets and freezes the whole server. The gate and nginx refuse
  such a websocket too; this is the last line.
* **Connections per kernel**: a page opens one; a second may overlap while it reconnects.
* **Message size**, **message rate** and **byte rate** (token buckets: a burst, then a steady
  rate, in messages and in bytes) and **comm opens** (the page's widget manager opens one
  control comm; every other widget is created by the kernel): beyond them a message is
  dropped, and the drops are logged once per connection. The figures a real viewer sends are
  in docs/security.md.
* **A page that does not read is cut off**: every message written to the websocket counts
  as queued until tornado has flushed it to the socket (the future ``write_message``
  returns); once :attr:`~GuardedConnection.max_queued_bytes` (8 MiB) wait unread, the
  websocket is closed (1008, policy violation) and what follows, either way, is dropped. Without it a client asking for a
  3.5 MB widget state 38 times a second and reading nothing grew the shared server by ~46 MB
  a second. The futures' errors once the socket is gone are retrieved
  here, not logged one traceback per queued message (5,126 of them at that close).
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
from tornado.websocket import WebSocketClosedError
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
    offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    if offsets[0] != 8 * (count + 1) or offsets != sorted(offsets) or offsets[-1] > len(frame):
        return None
    try:
        channel = frame[offsets[0] : offsets[1]].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return channel, [frame[offsets[i] : offsets[i + 1]] for i in range(1, count - 1)]


def asks_for_v1(header: str | None) -> bool:
    """Whether a ``Sec-WebSocket-Protocol`` header offers the v1 kernel protocol.

    >>> asks_for_v1("v1.kernel.websocket.jupyter.org"), asks_for_v1(None), asks_for_v1("x, v1")
    (True, False, False)
    """
    return V1 in [p.strip() for p in (header or "").split(",")]


class GuardedConnection(ZMQChannelsWebsocketConnection):
    """A kernel websocket with the published site's limits (see the module's docstring)."""

    # this class's open connections (jupyter_server keeps its own in a private set)
    _open: weakref.WeakSet[GuardedConnection] = weakref.WeakSet()

    max_connections = Integer(2, config=True, help="Websockets one kernel may have at once.")
    max_message_bytes = Integer(
        4 * 2**20,
        config=True,
        help=(
            "Largest message a page may send (bytes); an upload's limit is checked in the page "
            "before sending, far below this."
        ),
    )
    message_rate = Float(
        40.0,
        config=True,
        help=(
            "Messages per second a page may send, sustained (a held arrow key repeats ~30 a second)."
        ),
    )
    message_burst = Integer(80, config=True, help="Messages a page may send at once.")
    state_request_burst = Integer(
        1000,
        config=True,
        help=(
            "Widget state requests a page may send at once beyond the message burst: when the "
            "kernel is too slow to answer the widget manager's one request for every state (a "
            "busy machine), ipywidgets asks for each widget's state in turn, ~200 messages at "
            "once on 02's page; dropped, the page stayed on 'Loading widget...'."
        ),
    )
    state_request_rate = Float(
        5.0,
        config=True,
        help=("Widget state requests a second that refill that burst (a page asks once, on load)."),
    )
    bytes_rate = Float(
        1.0 * 2**20,
        config=True,
        help=("Bytes a second a page may send, sustained (an upload is at most 2 MB)."),
    )
    bytes_burst = Integer(8 * 2**20, config=True, help="Bytes a page may send at once.")
    max_queued_bytes = Integer(
        8 * 2**20,
        config=True,
        help=(
            "Bytes written for a page and not yet flushed to its socket (a client that does not "
            "read) beyond which its websocket is closed."
        ),
    )
    max_comm_opens = Integer(4, config=True, help="Comms a page may open.")
    comm_targets = List(
        Unicode(),
        ["jupyter.widget.control"],
        config=True,
        help=("Comm targets a page may open (the widget manager's control comm)."),
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._tokens = float(self.message_burst)
        self._byte_tokens = float(self.bytes_burst)
        self._state_tokens = float(self.state_request_burst)
        self._refilled = time.monotonic()
        self._queued = 0  # bytes written to the websocket, not yet flushed
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

    def _take_token(self, size: int) -> str | None:
        """Take one message and ``size`` bytes from the buckets; why not, if they are empty."""
        now = time.monotonic()
        elapsed, self._refilled = now - self._refilled, now
        self._tokens = min(float(self.message_burst), self._tokens + elapsed * self.message_rate)
        self._state_tokens = min(
            float(self.state_request_burst), self._state_tokens + elapsed * self.state_request_rate
        )
        self._byte_tokens = min(
            float(self.bytes_burst), self._byte_tokens + elapsed * self.bytes_rate
        )
        if self._tokens < 1:
            return f"over {self.message_rate:g} messages a second"
        if self._byte_tokens < size:
            return f"over {self.bytes_rate:g} bytes a second"
        self._tokens -= 1
        self._byte_tokens -= size
        return None

    def _take_state_request(self, incoming_msg) -> bool:
        """Whether a message over the message rate is a widget state request the state
        burst still admits (:attr:`state_request_burst`; a small ``comm_msg`` asking
        ``request_state``); takes it from that burst and the byte bucket."""
        if (
            self._state_tokens < 1
            or len(incoming_msg) > 4096
            or self._byte_tokens < len(incoming_msg)
        ):
            return False
        split = split_v1(incoming_msg)
        try:
            parts = split[1]
            if (
                self.session.unpack(parts[0])["msg_type"] != "comm_msg"
                or self.session.unpack(parts[3])["data"]["method"] != "request_state"
            ):
                return False
        except Exception:  # noqa: BLE001 - not such a message
            return False
        self._state_tokens -= 1
        self._byte_tokens -= len(incoming_msg)
        return True

    def handle_incoming_message(self, incoming_msg) -> None:
        if self._websocket_closed():  # cut off (or closing): it asks the kernel for nothing more
            return self._drop("messages after its websocket was closed")
        if len(incoming_msg) > self.max_message_bytes:
            return self._drop(f"a message over {self.max_message_bytes} bytes")
        if (over := self._take_token(len(incoming_msg))) is not None:
            if not self._take_state_request(incoming_msg):
                return self._drop(over)
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

    @property
    def write_message(self):
        """jupyter_server writes every message through this alias of the handler's
        ``write_message``: here it counts what is queued for the page (module docstring)."""
        return self._write_counted

    def _write_counted(self, message, binary: bool = False):
        size = (
            len(message)
            if isinstance(message, (bytes, bytearray))
            else len(str(message).encode("utf-8", "surrogatepass"))
        )
        if self._queued >= self.max_queued_bytes:  # already that much unread: no more
            self._cut_off()
            return None
        future = self.websocket_handler.write_message(message, binary=binary)
        if future is None:  # Voilà drops execute_input messages
            return None
        self._queued += size
        future.add_done_callback(lambda done: self._flushed(done, size))
        return future

    def _flushed(self, future, size: int) -> None:
        self._queued -= size
        if not future.cancelled():
            future.exception()  # retrieved: a closed socket's error is expected, not logged

    def _cut_off(self) -> None:
        """Close the websocket of a page that does not read what it asked for."""
        if self._websocket_closed():
            return
        self.log.warning(
            "Kernel %s: closing a page's websocket: %d bytes queued unread (at most %d)",
            self.kernel_id,
            self._queued,
            self.max_queued_bytes,
        )
        try:
            self.websocket_handler.close(1008, "too much unread data")
        except WebSocketClosedError:
            pass

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
