"""The hub's parts for anonymous visitors (``jupyterhub_config.py`` configures them).

* :class:`VisitorAuthenticator`: jupyterhub-tmpauthenticator's temporary user for every
  visitor (no login form), and the two handlers below ahead of the hub's own.
* :class:`BusySpawnHandler`: past the cap on servers (``JupyterHub.active_server_limit``) the
  hub answers 429; its page is the site's own busy page, as ``make publish`` answers past its
  ceilings, in the language of the page the visitor asked for.
* :class:`StoppedServerHandler`: a culled or killed server's page asks for its kernel; the
  hub's answer, 424 "server not running", becomes 404, the status the site's page script reads
  as "This view has stopped" (``elo-explain.js``, as under ``make publish``).
* :class:`VisitorSpawner`: a local process per visitor, whose stop ends every process the
  server started (kernels included), and whose processes share a control group with the
  server's memory and CPU ceilings (``Spawner.mem_limit``, ``Spawner.cpu_limit``).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

import psutil
from jupyterhub.handlers.base import UserUrlHandler
from jupyterhub.handlers.pages import SpawnHandler
from jupyterhub.spawner import SimpleLocalProcessSpawner
from tmpauthenticator import TmpAuthenticator
from traitlets import Unicode

from elo_explain.dashboards import INDEX_NOTEBOOK
from elo_explain.server.gate import RETRY_AFTER_S, busy_page
from elo_explain.server.languages import language_of, page_path


class BusySpawnHandler(SpawnHandler):
    """``/hub/spawn[/<user>]``: where every visitor's server starts (the hub's home page sends
    a new visitor here, ``/hub/user-redirect/...`` and a stopped server's pages too)."""

    def write_error(self, status_code, **kwargs):
        if status_code != 429:
            return super().write_error(status_code, **kwargs)
        # the page asked for is the spawn's ``next``: /user/<name>/voila/render/<lang>/<page>
        asked = urlsplit(self.get_argument("next", "")).path
        lang = (
            language_of(asked.split("/voila/render/", 1)[1]) if "/voila/render/" in asked else "en"
        )
        landing = f"{self.base_url}hub/user-redirect/voila/render/"
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Retry-After", str(RETRY_AFTER_S))
        self.write(busy_page(landing + page_path(INDEX_NOTEBOOK, lang), "busy", lang))


class StoppedServerHandler(UserUrlHandler):
    """``/hub/user/<name>/...``: where the proxy sends a server's requests once it is gone."""

    def _fail_api_request(self, user_name="", server_name=""):
        self.set_status(404)
        self.set_header("Content-Type", "application/json")
        self.write({"message": "This kernel is gone: its server has stopped."})


class VisitorAuthenticator(TmpAuthenticator):
    """tmpauthenticator's temporary users; an authenticator's handlers come first in the
    hub's (``JupyterHub.init_handlers``), so these replace the hub's for their paths."""

    def get_handlers(self, app):
        return [
            (r"/spawn", BusySpawnHandler),  # and its routes for a user's server:
            (r"/spawn/([^/]+)", BusySpawnHandler),  # the hub's own (handlers.pages)
            (r"/spawn/([^/]+)/([^/]+)", BusySpawnHandler),
            (r"/user/(?P<user_name>[^/]+)(?P<user_path>/api/.*)", StoppedServerHandler),
            *super().get_handlers(app),
        ]


CGROUP_V1 = Path("/sys/fs/cgroup")


class VisitorSpawner(SimpleLocalProcessSpawner):
    """A local process per visitor, as any user (no system accounts).

    Its stop kills the server's whole family at once: the hub's own stop signals the server
    alone, and the fork server and kernels (sessions of their own) outlive a server killed.

    With ``mem_limit`` or ``cpu_limit`` set, the server and everything it starts run in a
    control group of their own, ``<hierarchy>/<cgroup_parent>/<user>``, with the memory ceiling
    (``memory.limit_in_bytes``: past it the kernel's OOM killer ends a process of that group,
    the other visitors' servers untouched) and the CPU ceiling (``cpu.cfs_quota_us`` over
    ``cpu.cfs_period_us``: throttled, not killed) that systemd's ``MemoryMax=`` and
    ``CPUQuota=`` give systemdspawner's units. That is cgroup v1's hierarchies (as on this
    project's machines and CI, where neither systemd nor a Docker engine runs); on a host with
    systemd, systemdspawner sets the same limits (docs/publishing.md).
    """

    cgroup_parent = Unicode(
        "elo-explain-hub", config=True, help="control group folder of the visitors' servers"
    )

    def _cgroups(self) -> dict[str, Path]:
        """The server's control group in each hierarchy its limits need."""
        groups = {}
        for hierarchy, trait in (("memory", "mem_limit"), ("cpu", "cpu_limit")):
            if not getattr(self, trait):
                continue
            root = CGROUP_V1 / hierarchy
            if not os.access(root / "cgroup.procs", os.W_OK):
                raise RuntimeError(
                    f"Spawner.{trait} needs cgroup v1's {root} writable (as root), which this"
                    " host has not: leave the limit unset, or use systemdspawner or"
                    " dockerspawner (docs/publishing.md)"
                )
            groups[hierarchy] = root / self.cgroup_parent / self.user.name
        return groups

    def _make_cgroups(self) -> list[Path]:
        groups = self._cgroups()
        for group in groups.values():
            group.mkdir(parents=True, exist_ok=True)
        if "memory" in groups:
            limit = str(int(self.mem_limit))
            (groups["memory"] / "memory.limit_in_bytes").write_text(limit)
            swap = groups["memory"] / "memory.memsw.limit_in_bytes"
            if swap.exists():  # swap accounting on: no swapping past the ceiling either
                swap.write_text(limit)
        if "cpu" in groups:
            period = 100_000
            (groups["cpu"] / "cpu.cfs_period_us").write_text(str(period))
            (groups["cpu"] / "cpu.cfs_quota_us").write_text(str(int(self.cpu_limit * period)))
        return list(groups.values())

    def make_preexec_fn(self, name):
        base = super().make_preexec_fn(name)
        procs = [str(group / "cgroup.procs") for group in self._make_cgroups()]

        def preexec():
            base()
            for path in procs:  # before exec: everything the server starts inherits it
                with open(path, "w") as f:
                    f.write(str(os.getpid()))

        return preexec

    async def stop(self, now=False):
        # a read-only server has nothing its graceful stop would keep, which takes about 3 s
        # (Voilà ends each kernel in turn) while jupyterhub-idle-culler ends one server after
        # another: the whole family is killed at once, then the spawner's stop finds it gone.
        # In threads: the hub's event loop serves everyone else meanwhile.
        await asyncio.to_thread(self._end, await asyncio.to_thread(_family, self.pid))
        await super().stop(now=True)

    def _end(self, family: list[psutil.Process]) -> None:
        # and what carries this server's prefix (JUPYTERHUB_SERVICE_PREFIX, from the spawner):
        # the orphans of a server that died before its stop
        family = family + prefixed(self.user.url)
        for proc in family:
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                continue
        psutil.wait_procs(family, timeout=5)
        for group in self._cgroups().values():
            # a killed process stays in its group until it is reaped, by init for the
            # kernels whose fork server died first: busy (EBUSY) for a while
            for _ in range(100):
                try:
                    group.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                self.log.warning("control group %s of %s kept: still busy", group, self.user.name)


def _family(pid: int | None) -> list[psutil.Process]:
    """A server and its descendants, taken before its stop re-parents them."""
    try:
        server = psutil.Process(pid) if pid else None
        return [server, *server.children(recursive=True)] if server else []
    except psutil.NoSuchProcess:
        return []


def prefixed(prefix: str) -> list[psutil.Process]:
    """The processes whose environment gives ``prefix`` as their server's."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get("JUPYTERHUB_SERVICE_PREFIX") == prefix:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found
