"""The published site's kernels: one per viewer's page, for as long as that page uses it.

Voilà starts a kernel for every page it renders and keeps it until the idle culler takes it.
:class:`ViewerKernels` (``VoilaConfiguration.multi_kernel_manager_class`` in ``voila.json``)
is Voilà's kernel manager with the rules a public site needs:

* **A render nobody connects to is shut down**: a page rendered by ``curl`` never opens its
  websocket, so its kernel goes :attr:`~ViewerKernels.connect_timeout` (30 s) after the
  render finished.
* **A closed tab frees its kernel**: when the last websocket of a kernel closes and none comes
  back within :attr:`~ViewerKernels.closed_grace` (5 s), the kernel is shut down (the page's
  shutdown beacon, when the browser sends one, does it at once: see :func:`page_token`).
* **A restarted kernel is shut down**: after a crash Voilà would restart a blank kernel under
  the same id, which answers nothing; the page says the view stopped and offers to reopen it.
* **The site's guards, in its kernels only**: each kernel loads
  :mod:`elo_explain.server.published_kernel` as it starts (:data:`KERNEL_ARGUMENTS`): every
  widget message within its widget's byte budget, no traceback sent to a page, a pooled
  kernel's wait for its viewer.
* **No history**: a viewer's kernel starts with IPython's history off
  (:data:`KERNEL_ARGUMENTS`). Every kernel would otherwise write the viewer's cells to one
  SQLite file shared by all of them; the pool starts 44 at once, and the losers printed
  "The history saving thread hit an unexpected error (OperationalError('database is
  locked'))" into the page. A page's code is the notebook's: nothing to keep.
* **A kernel has a memory ceiling of its own**: every kernel starts with RLIMIT_DATA of
  :attr:`~ViewerKernels.kernel_data_mib` (1 GiB: an allocation beyond it fails in the kernel),
  and a viewer's kernel holding more than :attr:`~ViewerKernels.kernel_rss_mib` (512 MiB RSS)
  at a check (every second) is shut down at once; its page says the view stopped.
* **A kernel being shut down is gone for its page at once**, whichever path stops it (the
  page's beacon, the culler, a check here): its page's ``GET api/kernels/<id>``, which the
  page sends ~300 ms after its websocket closed, gets 404 (:meth:`~ViewerKernels.kernel_model`),
  so the page says the view stopped within a second, however long the kernel takes to exit.
* **The pool's request socket is the pool's**: a pooled kernel gets a token of its own
  (:func:`query_token`) for ``voila/query/<id>`` (:mod:`elo_explain.server.query`).
* **Ceilings**: at most :attr:`~ViewerKernels.max_kernels` viewers' kernels at once, and
  :attr:`~ViewerKernels.max_kernels_per_address` per client address; the gate
  (:mod:`elo_explain.server.gate`) asks :meth:`~ViewerKernels.admit` before a render and
  answers "busy" (HTTP 503) beyond them. Both default to what the machine's memory holds
  (:func:`default_ceilings`): its *available* memory as the server starts
  (:func:`memory_at_start_mib`), not its total, which counts what other programs hold.

The preheated pool's kernels (``preheat_kernel``) are not viewers' kernels until the pool hands
one to a page; the pool is a fixed cost the defaults set aside (the most kernels it has held
at once, counted as it fills).

:func:`page_token` is the token only a page's own HTML carries (the template puts it in the
page config); the gate accepts a shutdown request only with it.

>>> token = page_token("0f1e2d3c-aaaa-bbbb-cccc-123456789abc")
>>> len(token), token == page_token("0f1e2d3c-aaaa-bbbb-cccc-123456789abc")
(32, True)
>>> token_matches("0f1e2d3c-aaaa-bbbb-cccc-123456789abc", token), token_matches("x", token)
(True, False)
>>> ceilings = default_ceilings(total_mib=24 * 1024, pool_kernels=11)
>>> ceilings                     # (24 GiB - 2 GiB reserve - 11 pooled kernels) / 180 MiB
(114, 11)
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import hashlib
import hmac
import os
import resource
import secrets
import signal
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.ioloop import IOLoop, PeriodicCallback
from traitlets import Float, Integer

from elo_explain.server.channels import GuardedConnection
from elo_explain.server.query import QuerySocket, install

__all__ = [
    "ViewerKernels",
    "Reservation",
    "page_token",
    "token_matches",
    "query_token",
    "query_token_matches",
    "default_ceilings",
    "CURRENT_RENDER",
    "KERNEL_ARGUMENTS",
]

#: Memory one viewer's kernel may hold, and a reserve for the system, Voilà and nginx. A page's
#: kernel holds 67-125 MiB RSS once its page is ready, at most 143 MiB after its heaviest input
#: (08 after a 2 MB upload; ``benchmarks/KERNEL_MEMORY.md``); 180 is that and a quarter more,
#: for what a kernel gains over a long session. A kernel past ``kernel_rss_mib`` is shut down.
KERNEL_MIB = 180
RESERVE_MIB = 2048

_PAGE = os.sysconf("SC_PAGE_SIZE")
_SECRET = secrets.token_bytes(32)  # this server's; its kernels die with it

#: The command-line options every viewer's kernel (the pool's too) starts with: no IPython
#: history database (see the module's docstring), and the site's guards
#: (:mod:`elo_explain.server.published_kernel`, an IPython extension: this server's kernels
#: load it, no other kernel does).
KERNEL_ARGUMENTS = (
    "--HistoryManager.enabled=False",
    "--IPKernelApp.extensions=elo_explain.server.published_kernel",
)


def page_token(kernel_id: str) -> str:
    """The token of the page that owns ``kernel_id``: an HMAC only this server can make.

    A Jinja filter of the page template (``VoilaExporter.filters`` in ``voila.json``)."""
    return hmac.new(_SECRET, str(kernel_id).encode(), hashlib.sha256).hexdigest()[:32]


def token_matches(kernel_id: str, token: str | None) -> bool:
    """Whether ``token`` is the page token of ``kernel_id`` (constant-time)."""
    return hmac.compare_digest(page_token(kernel_id), str(token or ""))


def query_token(kernel_id: str) -> str:
    """The token a pooled kernel presents on ``voila/query/<kernel id>``
    (:mod:`elo_explain.server.query`): given to the kernel alone, in its environment
    (``ELO_QUERY_TOKEN``); another HMAC than the page's token, which its page holds.

    >>> query_token("k") != page_token("k") and query_token_matches("k", query_token("k"))
    True
    """
    return hmac.new(_SECRET, b"query:" + str(kernel_id).encode(), hashlib.sha256).hexdigest()


def query_token_matches(kernel_id: str, token: str | None) -> bool:
    """Whether ``token`` is the query token of ``kernel_id`` (constant-time)."""
    return hmac.compare_digest(query_token(kernel_id), str(token or ""))


def machine_memory_mib() -> int:
    """The memory this server may use: the cgroup's limit where one is set, else the machine's."""
    for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(limit).read_text().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:
            return int(text) // 2**20
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20


@functools.lru_cache(maxsize=1)
def memory_at_start_mib() -> int:
    """The memory this server may fill, taken once, as it starts (before its first kernel):
    the machine's available memory (``psutil.virtual_memory().available``: free memory and
    caches the system can drop), or what is left under the cgroup's limit when that is less.
    The ceilings count the kernels started after this against it."""
    import psutil

    available = psutil.virtual_memory().available // 2**20
    for limit, used in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ):
        try:
            cap, now = Path(limit).read_text().strip(), Path(used).read_text().strip()
        except OSError:
            continue
        if cap.isdigit() and now.isdigit() and int(cap) < 1 << 60:
            available = min(available, (int(cap) - int(now)) // 2**20)
    return max(0, available)


def default_ceilings(
    total_mib: int | None = None,
    pool_kernels: int = 0,
    kernel_mib: int = KERNEL_MIB,
    reserve_mib: int = RESERVE_MIB,
    share: float = 1.0,
) -> tuple[int, int]:
    """``(max_kernels, max_kernels_per_address)`` for this machine: the memory left after the
    reserve and the pool, in viewers' kernels; one address may hold a tenth of them (at
    least 2: a classroom behind one address needs the per-address ceiling raised).

    One of ``N`` processes on the machine (``deploy/publish.py --workers=N``) takes its
    ``share`` (1/N) of the memory after the reserve, less its own pool: the N together hold
    what one did, and one address at most a tenth of the machine's across them.

    >>> default_ceilings(24 * 1024, pool_kernels=22, share=0.5)  # (22 GiB / 2 - 22 pooled) / 180
    (40, 4)
    """
    total = memory_at_start_mib() if total_mib is None else total_mib
    if not 0 < share <= 1:
        raise ValueError(f"share: {share!r} is not a share of the machine (more than 0, at most 1)")
    kernels = max(1, (int(share * (total - reserve_mib)) - pool_kernels * kernel_mib) // kernel_mib)
    return kernels, max(2, kernels // 10)


@dataclass
class Reservation:
    """A render admitted by the gate: its address, and the kernel it got (once it has one)."""

    address: str
    created: float = field(default_factory=time.monotonic)
    kernel_id: str | None = None


#: The render the current request is doing (set by the gate, read when a kernel is assigned).
CURRENT_RENDER: contextvars.ContextVar[Reservation | None] = contextvars.ContextVar(
    "elo_explain_render", default=None
)


@dataclass
class _Viewer:
    address: str
    assigned: float
    rendered: float | None = None
    connections: int = 0
    ever_connected: bool = False
    closed_at: float | None = None


class ViewerKernels(AsyncMappingKernelManager):
    """Voilà's kernel manager for the published site (see the module's docstring)."""

    connect_timeout = Float(
        30.0,
        config=True,
        help=(
            "Seconds after its render finished within which a page must open its kernel's "
            "websocket; otherwise the kernel is shut down."
        ),
    )
    closed_grace = Float(
        5.0,
        config=True,
        help=(
            "Seconds a viewer's kernel may stay without a websocket (the page was closed, or its "
            "connection dropped and did not come back) before it is shut down."
        ),
    )
    render_timeout = Float(
        600.0,
        config=True,
        help=("Seconds a render may take before its kernel counts as abandoned."),
    )
    max_kernels = Integer(
        0,
        config=True,
        help=(
            "Most viewers' kernels at once (0: sized from the machine's memory, default_ceilings)."
        ),
    )
    max_kernels_per_address = Integer(
        0,
        config=True,
        help=("Most viewers' kernels one client address may hold (0: a tenth of max_kernels)."),
    )
    reap_interval = Float(1.0, config=True, help="Seconds between two checks of the kernels.")
    memory_share = Float(
        1.0,
        config=True,
        help=(
            "The share of the machine this process sizes its default ceilings by: 1/N for one of "
            "N processes on it (deploy/publish.py --workers=N; default_ceilings)."
        ),
    )
    kernel_data_mib = Integer(
        1024,
        config=True,
        help=(
            "Each kernel's RLIMIT_DATA (MiB), set as it starts: an allocation beyond it fails in "
            "the kernel (0: none)."
        ),
    )
    kernel_rss_mib = Integer(
        512,
        config=True,
        help=(
            "A viewer's kernel holding more memory (RSS, MiB) is shut down at the next check, and "
            "its page says the view stopped (0: no watch)."
        ),
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.viewers: dict[str, _Viewer] = {}
        self._reserved: dict[int, Reservation] = {}
        self._reaper: PeriodicCallback | None = None
        self._pooled: set[str] = set()  # kernels the preheated pool holds now
        self._stopping: set[str] = set()  # being shut down: gone for the pages already
        self._pool_most = 0  # the most it has held: what the pool sets aside
        memory_at_start_mib()  # taken now, before the first kernel
        # Voilà's preheated pool hands a kernel to a render in this method (voila PR #936,
        # ``voila/voila_kernel_manager.py``; public by name, not documented): wrapped, the
        # kernel becomes a viewer's when it is handed out. What would let it go: a documented
        # Voilà hook for "a pooled kernel was given to a request" (reproduction and proposed
        # hook: docs/upstream/voila_pool_handout_hook.md).
        pooled = getattr(self, "get_rendered_notebook", None)
        if pooled is not None:

            async def get_rendered_notebook(*args, **kw):
                task, cache, kernel_id = await pooled(*args, **kw)
                self._assign(kernel_id)
                return task, cache, kernel_id

            self.get_rendered_notebook = get_rendered_notebook
        # the pool's request socket: ours, for the pool's kernels only (Voilà's loses a pooled
        # kernel's waiter: docs/upstream/voila_query_waiter.md)
        if hasattr(self.parent, "init_handlers"):
            install(self.parent, query_token_matches)

    # --- ceilings -------------------------------------------------------------------------
    def ceilings(self) -> tuple[int, int]:
        """``(global, per address)``, from the configuration or the machine's memory."""
        # the pool's kernels, counted here as they start (not from Voilà's private ``_pools``)
        auto_all, auto_each = default_ceilings(
            pool_kernels=self._pool_most, share=self.memory_share
        )
        total = self.max_kernels or auto_all
        each = self.max_kernels_per_address or (
            max(2, total // 10) if self.max_kernels else auto_each
        )
        return total, each

    def admit(self, address: str) -> tuple[Reservation | None, str]:
        """A reservation for a render from ``address``, or ``(None, why)`` beyond a ceiling
        (``"busy"``: the whole site, ``"address"``: this address)."""
        self._forget_stale_reservations()
        total, each = self.ceilings()
        pending = list(self._reserved.values())
        live = len(self.viewers) + sum(r.kernel_id is None for r in pending)
        mine = sum(v.address == address for v in self.viewers.values()) + sum(
            r.address == address and r.kernel_id is None for r in pending
        )
        if live >= total:
            return None, "busy"
        if mine >= each:
            return None, "address"
        reservation = Reservation(address)
        self._reserved[id(reservation)] = reservation
        return reservation, ""

    def render_finished(self, reservation: Reservation) -> None:
        """The render's response is complete: its page may now connect (or never will)."""
        self._reserved.pop(id(reservation), None)
        viewer = self.viewers.get(reservation.kernel_id or "")
        if viewer is not None and viewer.rendered is None:
            viewer.rendered = time.monotonic()

    def _forget_stale_reservations(self) -> None:
        now = time.monotonic()
        for key, r in list(self._reserved.items()):
            if now - r.created > self.render_timeout:
                self._reserved.pop(key, None)

    # --- which kernels are viewers' ---------------------------------------------------------
    async def start_kernel(self, *args, **kwargs):
        # jupyter_client appends ``extra_arguments`` to the kernel spec's command line (and
        # keeps them for a restart)
        kwargs["extra_arguments"] = [*kwargs.get("extra_arguments", ()), *KERNEL_ARGUMENTS]
        env = kwargs.get("env") or {}
        if env.get("VOILA_PREHEAT") == "True":  # for the pool: its token for voila/query/
            kwargs["kernel_id"] = kwargs.get("kernel_id") or str(uuid.uuid4())
            kwargs["env"] = {**env, "ELO_QUERY_TOKEN": query_token(kwargs["kernel_id"])}
        kernel_id = await super().start_kernel(*args, **kwargs)
        self._limit_data(kernel_id)
        if env.get("VOILA_PREHEAT") != "True":  # started for a render, not for the pool
            self._assign(kernel_id)
        else:
            self._pooled.add(kernel_id)
            self._pool_most = max(self._pool_most, len(self._pooled))
        return kernel_id

    def _pid(self, kernel_id: str) -> int | None:
        try:
            return getattr(self.get_kernel(kernel_id).provisioner, "pid", None)
        except (KeyError, AttributeError):
            return None

    def _limit_data(self, kernel_id: str) -> None:
        """The kernel's own memory ceiling: RLIMIT_DATA of :attr:`kernel_data_mib`."""
        pid = self._pid(kernel_id)
        if not self.kernel_data_mib or pid is None:
            return
        limit = self.kernel_data_mib * 2**20
        try:
            resource.prlimit(pid, resource.RLIMIT_DATA, (limit, limit))
        except (OSError, ValueError, AttributeError) as exc:  # not Linux, or already gone
            self.log.warning("Kernel %s: no memory ceiling (%s)", kernel_id, exc)

    def _assign(self, kernel_id: str) -> None:
        self._pooled.discard(kernel_id)
        reservation = CURRENT_RENDER.get()
        address = reservation.address if reservation is not None else "?"
        if reservation is not None:
            reservation.kernel_id = kernel_id
        self.viewers[kernel_id] = _Viewer(address, time.monotonic())
        try:
            self.add_restart_callback(kernel_id, lambda: self._restarted(kernel_id), "restart")
        except KeyError:
            pass
        if self._reaper is None:
            self._reaper = PeriodicCallback(self._reap, 1000 * self.reap_interval)
            self._reaper.start()

    def _restarted(self, kernel_id: str) -> None:
        self.log.warning(
            "Viewer kernel %s restarted blank after a crash: shutting it down", kernel_id
        )
        IOLoop.current().add_callback(self._shutdown, kernel_id, "restarted after a crash", True)

    # --- connections ------------------------------------------------------------------------
    def notify_connect(self, kernel_id):
        super().notify_connect(kernel_id)
        viewer = self.viewers.get(kernel_id)
        if viewer is not None:
            viewer.connections += 1
            viewer.ever_connected = True
            viewer.closed_at = None

    def notify_disconnect(self, kernel_id):
        super().notify_disconnect(kernel_id)
        viewer = self.viewers.get(kernel_id)
        if viewer is not None:
            viewer.connections = max(0, viewer.connections - 1)
            if viewer.connections == 0:
                viewer.closed_at = time.monotonic()

    # --- shutting down ----------------------------------------------------------------------
    def _why_done(self, viewer: _Viewer, now: float) -> str | None:
        if viewer.connections:
            return None
        if viewer.ever_connected:
            if now - (viewer.closed_at or now) >= self.closed_grace:
                return "its page was closed"
            return None
        if viewer.rendered is not None and now - viewer.rendered >= self.connect_timeout:
            return f"no page connected within {self.connect_timeout:g} s"
        if now - viewer.assigned >= self.render_timeout:
            return "its render never finished"
        return None

    async def _reap(self) -> None:
        now = time.monotonic()
        for kernel_id, viewer in list(self.viewers.items()):
            held = self._rss_mib(kernel_id)
            if self.kernel_rss_mib and held > self.kernel_rss_mib:  # at once, not politely
                await self._shutdown(
                    kernel_id,
                    f"it held {held} MiB, over its ceiling of {self.kernel_rss_mib} MiB",
                    now=True,
                )
                continue
            why = self._why_done(viewer, now)
            if why:
                await self._shutdown(kernel_id, why)

    def _rss_mib(self, kernel_id: str) -> int:
        """The memory a kernel holds now (RSS, MiB; 0 when unknown)."""
        try:
            with open(f"/proc/{self._pid(kernel_id)}/statm") as statm:
                return int(statm.read().split()[1]) * _PAGE // 2**20
        except (OSError, ValueError, IndexError):
            return 0

    async def _shutdown(self, kernel_id: str, why: str, now: bool = False) -> None:
        if self.viewers.pop(kernel_id, None) is None:
            return  # not a viewer's, or already being shut down
        self.log.info("Shutting viewer kernel %s down: %s", kernel_id, why)
        try:
            await self._restart_done(kernel_id)
            if now:  # nothing to save (a blank kernel, one over its memory): killed first, as
                # jupyter_client would interrupt it before its kill, and a kernel still
                # starting prints that interrupt's traceback into the server's log
                await self._kill(kernel_id)
            await self.shutdown_kernel(kernel_id, now=now)
        except (KeyError, RuntimeError, web.HTTPError):  # already gone
            self._stopping.discard(kernel_id)

    async def _kill(self, kernel_id: str) -> None:
        """SIGKILL to the kernel (jupyter_client's ``signal_kernel``: its process group), its
        restarter stopped first (the kill is not a crash to restart from)."""
        km = self.get_kernel(kernel_id)
        km.stop_restarter()
        with contextlib.suppress(OSError, RuntimeError):  # already gone
            await km.signal_kernel(signal.SIGKILL)

    async def _restart_done(self, kernel_id: str, timeout: float = 60.0) -> None:
        """Until a restart under way is over (jupyter_client cannot shut a kernel down
        halfway: its restart is a shutdown, then a start, each with a ``ready`` future of its
        own); meanwhile the kernel is already gone for its page."""
        km = self.get_kernel(kernel_id)
        deadline = time.monotonic() + timeout
        while not km.ready.done() and time.monotonic() < deadline:
            self._stopping.add(kernel_id)
            await asyncio.wait([km.ready], timeout=deadline - time.monotonic())

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        """Shut a kernel down, whichever path asks (the page's beacon, the culler, the
        reaper): the kernel is gone for its page *before* its websockets close, so the
        page's check (``GET api/kernels/<id>``, ~300 ms after the close) gets 404 and says
        the view stopped, however long the kernel takes to exit."""
        self.viewers.pop(kernel_id, None)
        self._pooled.discard(kernel_id)
        QuerySocket.forget(kernel_id)
        self._stopping.add(kernel_id)
        try:
            _close_websockets(kernel_id)  # the page hears at once that its kernel is gone
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)
        finally:
            self._stopping.discard(kernel_id)

    def kernel_model(self, kernel_id):
        """The kernel REST API's model; a kernel being shut down is already gone (404)."""
        if kernel_id in self._stopping:
            raise web.HTTPError(404, f"Kernel does not exist: {kernel_id}")
        return super().kernel_model(kernel_id)


def _close_websockets(kernel_id: str) -> None:
    """Close the page websockets of ``kernel_id`` (the published connection class keeps them:
    :meth:`~elo_explain.server.channels.GuardedConnection.close_for_kernel`)."""
    GuardedConnection.close_for_kernel(kernel_id)
