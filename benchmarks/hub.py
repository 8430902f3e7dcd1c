"""``make publish`` against JupyterHub (``deploy/hub/``) on the same machine, in one run.

The published site served two ways to the same new visitors:

* ``deploy/publish.py --workers=1`` (``make publish``: nginx in front, the published
  ``voila.json``), and ``--workers=2`` beside it, as ``benchmarks/workers.py`` starts them:
  without the preheated pool (a page's CPU is all spent while the benchmark watches) and with the
  per-address ceilings raised (every visitor here comes from 127.0.0.1): Voilà's kernels per
  address, nginx's render rate;
* ``python -m jupyterhub -f deploy/hub/jupyterhub_config.py`` with the environment its docstring
  lists: its state in a temporary folder, free ports, room for every visitor's server
  (``EE_HUB_MAX_SERVERS``), a culling time longer than the run. Each visitor gets a temporary
  user and a Voilà server of their own.

For each, in the same run:

* **time to a first page** -- ``VISITORS`` visitors without cookies arrive ``ARRIVING`` at a
  time at 03's own address (``?divisor=800``; under the hub, the page's share link
  ``/hub/user-redirect/...``): from the first request to the page rendered and its kernel's
  widget state received, as ``workers.py`` counts a page view. Under the hub that includes the
  temporary user, the spawn of the visitor's server and the server's OAuth, followed as the
  hub's pages have a browser follow them (the spawn's pending page: its progress stream, then
  its reload). Median and slowest; and the CPU of the whole tree per visitor;
* **memory per visitor** -- the proportional set size (PSS: the site's kernels are forked from
  a process that has imported what they need, and their RSS counts those shared pages in every
  kernel) of the whole tree once every visitor is in, divided by the visitors; RSS beside it;
  the tree's before the first visitor. ``make publish``: publish.py, Voilà, its fork server and
  kernels, nginx; the hub: the hub, its proxy, the culler, every visitor's server with its fork
  server and kernel;
* **slider latency** -- then all the visitors move 03's divisor slider together, each ``MOVES``
  times, ``THINK_S`` apart: the page's widget ``update`` over its kernel's websocket to the
  kernel's ``idle`` for it (``workers.py``'s viewer). Median and 90th percentile, and the CPU a
  move costs.

Hub / publish as ratios (in the same run: the machine's other load is in both). Writes
``benchmarks/HUB.md``.

    .venv/bin/python benchmarks/hub.py [--visitors 20] [--moves 10] [--no-two] [--hub-first]
                                       [--append]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import psutil
import requests

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))

from workers import (  # noqa: E402
    HTTP_TIMEOUT,
    NOTEBOOK,
    THINK_S,
    Viewer,
    WidgetSocket,
    _cpu,
    _together,
    slider_model,
)

from elo_explain.server.kernels import machine_memory_mib  # noqa: E402
from harness import KERNEL_ID, V1, WS_TIMEOUT, free_port, wait_http  # noqa: E402

OUT = HERE / "HUB.md"
HUB = ROOT / "deploy" / "hub"
VISITORS, ARRIVING, MOVES = 20, 4, 10
SETTLE_S = 5  # before a memory reading: the processes' allocations after their last request
SPAWN_URL = re.compile(r'var spawn_url = "([^"]+)"')  # jupyterhub's not_running.html
PROGRESS_URL = re.compile(r'new EventSource\("([^"]+)"\)')  # jupyterhub's spawn_pending.html
USER_PAGE = re.compile(r"^/user/([^/]+)/voila/render/")
ROLES = ("kernels", "fork servers", "Voilà servers", "the rest")
ROLE_NAMES = (
    "kernels",
    "fork servers (one per Voilà)",
    "Voilà servers",
    "the rest: publish.py + nginx; hub + proxy + culler",
)


def _role(proc: psutil.Process) -> str:
    cmd = " ".join(proc.cmdline())
    if "ipykernel" in cmd:  # a forked kernel shows the command line it would have had
        return "kernels"
    if "elo_explain.server.forks" in cmd:
        return "fork servers"
    if "elo_explain.server" in cmd:
        return "Voilà servers"
    return "the rest"  # publish.py and nginx; the hub, its proxy and the culler


def memory(procs: list[psutil.Process]) -> dict:
    """PSS and RSS of ``procs`` (bytes), PSS by role, and how many of each role."""
    out = {"pss": 0, "rss": 0, "roles": dict.fromkeys(ROLES, 0), "count": dict.fromkeys(ROLES, 0)}
    for p in procs:
        try:
            m, role = p.memory_full_info(), _role(p)
        except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
            continue
        out["pss"] += m.pss
        out["rss"] += m.rss
        out["roles"][role] += m.pss
        out["count"][role] += 1
    return out


def _family(pid: int) -> list[psutil.Process]:
    try:
        top = psutil.Process(pid)
        return [top, *top.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


class Site:
    """A way of serving the site: started, its processes, a new visitor, stopped. Every process
    :meth:`tree` has seen is ended at :meth:`stop` if its parent's stop left it running."""

    label = ""

    def __init__(self) -> None:
        self.seen: dict[int, psutil.Process] = {}
        self.proc: subprocess.Popen | None = None
        self.base = ""

    def _tree(self) -> list[psutil.Process]:
        raise NotImplementedError

    def tree(self) -> list[psutil.Process]:
        procs = self._tree()
        self.seen.update((p.pid, p) for p in procs)
        return procs

    def visitor(self) -> Viewer:
        raise NotImplementedError

    def _signal_stop(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            self.tree()  # a last look: what started since
        except psutil.Error:
            pass
        if self.proc.poll() is None:
            self._signal_stop()
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)  # its session (start_new_session)
                except ProcessLookupError:
                    pass
                self.proc.wait()
        # is_running checks the start time too: not another process on a reused pid
        _, left = psutil.wait_procs([p for p in self.seen.values() if p.is_running()], timeout=10)
        names = []
        for p in left:
            try:
                names.append(_role(p))
                p.kill()
            except psutil.Error:
                continue
        psutil.wait_procs(left, timeout=10)
        if names:
            print(f"{self.label}: left running by its stop, killed: {names}", flush=True)


class Publish(Site):
    """``deploy/publish.py --workers=N`` as ``workers.py`` starts it (nginx, no pool)."""

    def __init__(self, workers: int, visitors: int) -> None:
        super().__init__()
        self.workers = workers
        self.label = "make publish" if workers == 1 else f"publish WORKERS={workers}"
        self.visitors = visitors

    def start(self) -> None:
        port = free_port()
        self.log = Path(tempfile.gettempdir()) / f"ee-hub-bench-publish-{self.workers}.log"
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    str(ROOT / "deploy" / "publish.py"),
                    f"--port={port}",
                    f"--workers={self.workers}",
                    "--host=127.0.0.1",
                    # nginx's render rate is per address too: 30r/m after a burst of 20
                    f"--render-rate={max(30, 10 * self.visitors)}r/m",
                    "--",
                    "--VoilaConfiguration.preheat_kernel=False",
                    f"--ViewerKernels.max_kernels_per_address={self.visitors + 10}",
                ],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,  # a Ctrl-C here reaches it through stop() only
            )
        self.base = f"http://127.0.0.1:{port}"
        prefixes = [f"w{i}/" for i in range(self.workers)] if self.workers > 1 else [""]
        for p in prefixes:
            wait_http(f"{self.base}/{p}voila/static/voila.js", self.proc, timeout=180)

    def _tree(self) -> list[psutil.Process]:
        return _family(self.proc.pid)

    def visitor(self) -> Viewer:
        return Viewer(self.base)  # with a routing cookie of its own, as nginx would set

    def _signal_stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)  # publish.py stops nginx and Voilà


class HubSocket(WidgetSocket):
    """The page's kernel websocket with the visitor's cookies (the server's ``HubGate``
    refuses a websocket without its hub cookie)."""

    def __init__(self, base: str, kernel_id: str, cookie: str):
        from websockets.sync.client import connect

        self.protocol, self.session = "v1", uuid.uuid4().hex
        self.ws = connect(
            base.replace("http://", "ws://")
            + f"/api/kernels/{kernel_id}/channels?session_id={self.session}",
            subprotocols=[V1],
            additional_headers={"Cookie": cookie},
            open_timeout=WS_TIMEOUT,
            max_size=None,
            proxy=None,
            ping_interval=None,  # as harness.KernelSocket
            max_queue=None,
        )


class HubVisitor(Viewer):
    """A new visitor at 03's share link under the hub, as a browser follows it: the hub's
    temporary user, the spawn of their server (``user-redirect`` sends them there), the
    spawn's pending page while the server starts (its progress stream, then its reload), the
    server's OAuth; then the page's widget state over its kernel's websocket, as
    :class:`workers.Viewer`."""

    def __init__(self, base: str):
        self.base, self.http = base, requests.Session()
        r = self.http.get(
            f"{base}/hub/user-redirect/voila/render/{NOTEBOOK}?divisor=800", timeout=HTTP_TIMEOUT
        )
        # user-redirect sends a visitor without a server to the spawn; a "not running" page
        # (424) instead is followed as its script does, to its spawn link at once
        # (implicit_spawn_seconds)
        if r.status_code == 424:
            spawn = SPAWN_URL.search(r.text)
            if spawn is None:
                raise RuntimeError(f"{r.url}: a 424 without a spawn link")
            r = self.http.get(urljoin(r.url, html.unescape(spawn.group(1))), timeout=HTTP_TIMEOUT)
        self.pending = urlsplit(r.url).path.startswith("/hub/spawn-pending/")
        if self.pending:
            self._wait_ready(r)
            r = self.http.get(r.url, timeout=HTTP_TIMEOUT)
        r.raise_for_status()
        user = USER_PAGE.match(urlsplit(r.url).path)
        if user is None:
            raise RuntimeError(f"ended at {r.url} ({r.status_code}), not at a visitor's page")
        self.process = user.group(1)  # the visitor's name: their own server
        self.kernel = KERNEL_ID.search(r.text).group(1)
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)
        self.ws = HubSocket(f"{base}/user/{self.process}", self.kernel, cookie)
        self.slider = slider_model(self.ws)
        self.latencies: list[float] = []

    def _wait_ready(self, pending: requests.Response) -> None:
        progress = PROGRESS_URL.search(pending.text)
        if progress is None:
            raise RuntimeError(f"{pending.url}: a pending page without its progress stream")
        url = urljoin(pending.url, html.unescape(progress.group(1)))
        with self.http.get(url, stream=True, timeout=HTTP_TIMEOUT) as events:
            events.raise_for_status()
            for line in events.iter_lines():
                if not line.startswith(b"data:"):
                    continue
                event = json.loads(line[5:])
                if event.get("failed"):
                    raise RuntimeError(f"spawn failed: {event.get('message')}")
                if event.get("ready"):
                    return
        raise RuntimeError(f"{url}: the progress stream ended before the server was ready")


class Hub(Site):
    """``python -m jupyterhub -f deploy/hub/jupyterhub_config.py`` (``make hub``'s settings
    from the environment, as tests/site/test_hub.py starts it)."""

    label = "JupyterHub"

    def __init__(self, visitors: int) -> None:
        super().__init__()
        self.visitors = visitors
        self.folder: Path | None = None

    def start(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ee-hub-bench-"))
        self.state = self.folder / "state"
        port = free_port()
        env = {
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "EE_HUB_STATE": str(self.state),
            "EE_HUB_PORT": str(port),
            "EE_HUB_API_PORT": str(free_port()),
            "EE_HUB_HUB_PORT": str(free_port()),
            "EE_HUB_MAX_SERVERS": str(self.visitors),
            "EE_HUB_CULL_TIMEOUT": "3600",  # nothing culled during the run
            "PYTHONUNBUFFERED": "1",
        }
        self.log = Path(tempfile.gettempdir()) / "ee-hub-bench-hub.log"
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(HUB / "jupyterhub_config.py")],
                cwd=self.folder,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited: {self.log.read_text()[-3000:]}")
            try:
                if requests.get(self.base + "/hub/health", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("jupyterhub did not answer /hub/health in 120 s")
            time.sleep(0.2)  # a readiness probe's interval

    def _visitors_processes(self) -> list[psutil.Process]:
        """The processes of this hub's visitors' servers (their prefix, a HOME in this hub's
        state), whoever their parent is now."""
        found = []
        for proc in psutil.process_iter():
            try:
                env = proc.environ()
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
            if env.get("JUPYTERHUB_SERVICE_PREFIX", "").startswith("/user/") and env.get(
                "HOME", ""
            ).startswith(f"{self.state}{os.sep}"):
                found.append(proc)
        return found

    def _tree(self) -> list[psutil.Process]:
        procs = {p.pid: p for p in _family(self.proc.pid)}
        for p in self._visitors_processes():
            procs.setdefault(p.pid, p)
        return list(procs.values())

    def visitor(self) -> Viewer:
        return HubVisitor(self.base)

    def _signal_stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)  # cleanup_servers: it stops every server

    def stop(self) -> None:
        try:
            super().stop()
            for p in self._visitors_processes():  # none seen yet: kill them too
                p.kill()
        finally:
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)


def measure(site: Site, visitors: int, moves: int) -> dict:
    row: dict = {"label": site.label}
    opened: list = []
    try:
        site.start()
        time.sleep(SETTLE_S)
        row["idle"] = memory(site.tree())

        def arrive(_):
            started = time.perf_counter()
            viewer = site.visitor()
            viewer.first_page = time.perf_counter() - started
            return viewer

        before = _cpu(site.tree())
        started = time.monotonic()
        opened = _together(list(range(visitors)), arrive, ARRIVING)
        row["arrivals_s"] = time.monotonic() - started
        pages = [v for v in opened if isinstance(v, Viewer)]
        row["failed"] = [str(e)[:160] for e in opened if not isinstance(e, Viewer)]
        if not pages:
            raise RuntimeError(f"{site.label}: no visitor got a page: {row['failed'][:3]}")
        row["visitors"] = len(pages)
        row["pending"] = sum(getattr(v, "pending", False) for v in pages)
        row["first_page"] = sorted(v.first_page for v in pages)
        row["view_cpu"] = (_cpu(site.tree()) - before) / len(pages)
        time.sleep(SETTLE_S)
        row["all_in"] = memory(site.tree())

        def drag(viewer: Viewer) -> None:
            for i in range(moves):
                viewer.move(850 if i % 2 == 0 else 800)
                time.sleep(THINK_S)  # the visitor's rhythm between two moves

        before = _cpu(site.tree())
        dragged = _together(pages, drag, len(pages))
        moved = [t for v in pages for t in v.latencies]
        row["move_cpu"] = (_cpu(site.tree()) - before) / max(len(moved), 1)
        row["failed"] += [str(e)[:160] for e in dragged if isinstance(e, Exception)]
        row["moves"] = len(moved)
        row["latency_median"] = statistics.median(moved)
        row["latency_p90"] = statistics.quantiles(moved, n=10)[-1]
    finally:
        for v in opened:
            if isinstance(v, Viewer):
                try:
                    v.close()
                except Exception:  # noqa: BLE001 - a socket the server closed already
                    pass
        site.stop()
    print(
        json.dumps({k: v for k, v in row.items() if k not in ("failed", "first_page")}),
        row["failed"],
        flush=True,
    )
    return row


def report(rows: list[dict], visitors: int, moves: int, took_s: float) -> str:
    def ms(x):
        return f"{1e3 * x:.0f} ms"

    def mib(x):
        return f"{x / 2**20:.0f} MiB"

    def s(x):
        return f"{x:.1f} s"

    pub, hub = rows[0], rows[-1]
    order = " then ".join(r["label"] for r in sorted(rows, key=lambda r: r["at"]))
    load = os.getloadavg()
    lines = [
        "# `make publish` against JupyterHub (`benchmarks/hub.py`)",
        "",
        f"This machine: {machine_memory_mib() / 1024:.0f} GiB, {os.cpu_count()} cores, shared "
        f"(load average at the end {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}). "
        "`deploy/publish.py --workers=1` (`make publish`; and `--workers=2`), nginx in front, "
        "no pool, against `jupyterhub -f deploy/hub/jupyterhub_config.py`, a server per "
        f"visitor; {visitors} new visitors arriving {ARRIVING} at a time at "
        f"{NOTEBOOK}?divisor=800 (under the hub: its share link), then all {visitors} moving its "
        f"divisor slider {moves} times, {THINK_S:g} s apart (the page's widget message, to the "
        f"kernel's idle for it). Measured in this order: {order}; the run took "
        f"{took_s / 60:.0f} min.",
        "",
        "| | " + " | ".join(r["label"] for r in rows) + " | hub / publish |",
        "|---|" + "---:|" * (len(rows) + 1),
    ]

    def line(name, show, value, ratio=True):
        """A row: ``show(value(r))`` for each column, hub / publish of ``value``."""
        cells = " | ".join(show(value(r)) for r in rows)
        quotient = f"{value(hub) / value(pub):.2f}" if ratio and value(pub) else ""
        lines.append(f"| {name} | {cells} | {quotient} |")

    line(f"visitors served (of {visitors})", str, lambda r: r["visitors"], ratio=False)
    line("time to a first page, median", s, lambda r: statistics.median(r["first_page"]))
    line("time to a first page, slowest", s, lambda r: r["first_page"][-1])
    line(f"all {visitors} in after", s, lambda r: r["arrivals_s"])
    line("CPU per new visitor (whole tree)", s, lambda r: r["view_cpu"])
    line("idle, before any visitor: PSS", mib, lambda r: r["idle"]["pss"])
    line("idle: RSS", mib, lambda r: r["idle"]["rss"])
    line(f"all {visitors} in: PSS", mib, lambda r: r["all_in"]["pss"])
    line(f"all {visitors} in: RSS", mib, lambda r: r["all_in"]["rss"])
    line(
        "**memory per visitor** (PSS / visitors)", mib, lambda r: r["all_in"]["pss"] / r["visitors"]
    )
    line("RSS / visitors", mib, lambda r: r["all_in"]["rss"] / r["visitors"])
    line(
        "PSS each visitor adds ((all in - idle) / visitors)",
        mib,
        lambda r: (r["all_in"]["pss"] - r["idle"]["pss"]) / r["visitors"],
    )
    line(
        "processes: " + ", ".join(ROLES),
        lambda counts: ", ".join(str(counts[role]) for role in ROLES),
        lambda r: r["all_in"]["count"],
        ratio=False,
    )
    for role, name in zip(ROLES, ROLE_NAMES):
        line(f"of which {name}", mib, lambda r, role=role: r["all_in"]["roles"][role])
    line(f"slider move ({visitors} together), median", ms, lambda r: r["latency_median"])
    line("slider move, 90th percentile", ms, lambda r: r["latency_p90"])
    line("CPU per move (whole tree)", ms, lambda r: r["move_cpu"])
    lines.append("")
    failed = [f"{r['label']}: {e}" for r in rows for e in r["failed"]]
    if failed:
        lines += ["Failures: " + "; ".join(failed), ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--visitors", type=int, default=VISITORS)
    ap.add_argument("--moves", type=int, default=MOVES)
    ap.add_argument("--no-two", action="store_true", help="without publish --workers=2")
    ap.add_argument(
        "--hub-first", action="store_true", help="measure the hub first (the load drifts)"
    )
    ap.add_argument("--append", action="store_true", help=f"append to {OUT.name}")
    ap.add_argument("--no-write", action="store_true", help=f"print only, no {OUT.name}")
    args = ap.parse_args()
    # a SIGTERM ends the run as Ctrl-C does: through every site's stop
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    sites = [Publish(1, args.visitors)]
    if not args.no_two:
        sites.append(Publish(2, args.visitors))
    sites.append(Hub(args.visitors))
    order = [sites[-1], *sites[:-1]] if args.hub_first else sites
    started = time.monotonic()
    rows = {}
    for at, site in enumerate(order):
        rows[site.label] = {**measure(site, args.visitors, args.moves), "at": at}
    text = report(
        [rows[s.label] for s in sites], args.visitors, args.moves, time.monotonic() - started
    )
    if args.append:
        text = OUT.read_text() + "\n" + text.split("\n", 2)[2]
    if not args.no_write:
        OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
