"""Publish the dashboards: Voilà on loopback, nginx in front of it, both in the foreground.

    make publish                      # http://<this machine>:8080/
    make publish PORT=8443 CERT=/etc/letsencrypt/live/example.org/fullchain.pem \\
                 KEY=/etc/letsencrypt/live/example.org/privkey.pem      # TLS

Voilà runs from the repository root (so it reads ``voila.json``: the gate, the
preheated pool, culling) on a free port of 127.0.0.1; nginx (``deploy/nginx.conf.in``)
listens on ``--port`` and is the only way in.  Ctrl-C (or SIGTERM) stops both; if
either dies, the other is stopped and the exit status is 1.

Behind a load balancer (or any reverse proxy) name it with ``--trusted-proxy=CIDR`` (repeatable):
nginx then takes the client's address from its ``X-Forwarded-For`` (``set_real_ip_from``),
else every viewer would share the balancer's address and its per-address ceilings. Voilà
trusts the ``X-Real-IP`` of its own nginx only (``--PublishedOnly.trusted_proxies=127.0.0.1``).

The preheated pool is sized by :func:`pool_languages` (``docs/capacity.md``): one kernel per
page, for as many languages as fit in a quarter of the machine's memory, English first; the
pages of the other languages are served cold (correct, slower to appear). Voilà options given
after ``--`` come later on its command line, so they override this.

Several processes (``make publish WORKERS=N``, ``--workers=N``; docs/publishing.md): N Voilà
processes on loopback, the i-th serving under ``/w<i>/``, each with its share (1/N) of the pool
and of the kernel ceilings (:func:`worker_options`); one nginx sends every request of a page to
the process that rendered it (``deploy/nginx_site.py``, :func:`~nginx_site.workers_server`),
and processes on other machines too (``--backend=host:port``, repeated: they serve under the
next prefixes). A process that dies is started again (:func:`serve_workers`); if every one is
down at once, or nginx dies, the others are stopped and the exit status is 1.
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from nginx_site import render_config, start_nginx, worker_prefix  # noqa: E402

POLL = 0.5  # seconds between two checks that both processes still run
POOL_SHARE = 0.25
"""The share of the machine's memory the preheated pool may take (the rest is for viewers)."""
POOLED_KERNEL_MIB = 115
"""A pooled kernel's memory, idle, its notebook run (RSS, ``benchmarks/POOL.md``)."""


TRUST_NGINX = ["--PublishedOnly.trusted_proxies=127.0.0.1"]
"""nginx reaches Voilà from 127.0.0.1 (``upstream voila`` in ``nginx.conf.in``)."""


def pool_languages(
    total_mib: int, pages: int = 11, kernel_mib: int = POOLED_KERNEL_MIB, share: float = POOL_SHARE
) -> tuple[str, ...]:
    """The languages whose pages get a preheated kernel: one kernel per page (``pages`` per
    language), English first, as many languages as fit in ``share`` of ``total_mib``.

    >>> pool_languages(24 * 1024)      # this machine: every language (44 x 115 MiB = 4.9 GiB)
    ('en', 'te', 'uk', 'el')
    >>> pool_languages(8 * 1024), pool_languages(4 * 1024), pool_languages(1024)
    (('en',), (), ())
    """
    from elo_explain.i18n import LANGUAGES

    fit = int(share * total_mib // (pages * kernel_mib))
    return LANGUAGES[:fit]


def pool_options(total_mib: int, pages: int = 11) -> list[str]:
    """Voilà's options for :func:`pool_languages`: none when every language is pooled (as
    ``voila.json`` says), a ``preheat_denylist`` of the others, or no pool at all.

    >>> pool_options(24 * 1024)
    []
    >>> pool_options(8 * 1024)
    ["--VoilaKernelManager.preheat_denylist=['.*/(te|uk|el)/[^/]+\\\\.ipynb$']"]
    >>> pool_options(1024)
    ['--VoilaConfiguration.preheat_kernel=False']
    """
    from elo_explain.i18n import LANGUAGES

    pooled = pool_languages(total_mib, pages)
    if len(pooled) == len(LANGUAGES):
        return []
    if not pooled:
        return ["--VoilaConfiguration.preheat_kernel=False"]
    cold = "|".join(lang for lang in LANGUAGES if lang not in pooled)
    return [f"--VoilaKernelManager.preheat_denylist=['.*/({cold})/[^/]+\\.ipynb$']"]


def _free_loopback_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the child: own process group (Ctrl-C reaches only us) and SIGTERM if we die."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_voila(
    port: int, extra: list[str], ip: str = "127.0.0.1", base_url: str = "/"
) -> subprocess.Popen:
    # Voilà, started by the package's launcher (one slow import fewer: elo_explain/server/__main__.py)
    cmd = [
        sys.executable,
        "-m",
        "elo_explain.server",
        "notebooks",
        f"--port={port}",
        "--no-browser",
        f"--Voila.ip={ip}",
        "--Voila.port_retries=0",
        f"--Voila.base_url={base_url}",  # nginx proxies the site's root (or /w<i>/)
        *extra,
    ]
    return subprocess.Popen(cmd, cwd=ROOT, start_new_session=True, preexec_fn=_die_with_parent)


def wait_voila(port: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    url = f"http://127.0.0.1:{port}/voila/static/ready-probe"  # a static path starts no kernel
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"voila exited with {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answered
        except OSError:
            time.sleep(POLL)
    raise SystemExit(f"voila did not answer on port {port} within {timeout:.0f} s")


def stop(proc: subprocess.Popen, timeout: float = 30.0) -> None:
    if proc.poll() is None:
        proc.terminate()  # nginx: fast shutdown; voila: shuts its kernels down
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=8080, help="port nginx listens on (default 8080)")
    ap.add_argument("--host", default="", help="address nginx listens on (default: all)")
    ap.add_argument("--cert", type=Path, help="TLS certificate chain (PEM); with --key: HTTPS")
    ap.add_argument("--key", type=Path, help="TLS private key (PEM)")
    ap.add_argument(
        "--voila-port", type=int, default=0, help="Voilà's loopback port (default: free)"
    )
    ap.add_argument(
        "--render-rate",
        default="30r/m",
        help="page renders (= new kernels) per client address (nginx rate, default 30r/m)",
    )
    ap.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="CIDR",
        help="a load balancer or proxy in front of nginx whose X-Forwarded-For "
        "names the client (repeatable; default: none, the peer is the client)",
    )
    ap.add_argument(
        "--workers",
        type=int,
        default=1,
        help="Voilà processes on this machine, each with 1/N of it (default 1)",
    )
    ap.add_argument(
        "--backend",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="a Voilà process on another machine (repeat; see docs/publishing.md)",
    )
    ap.add_argument(
        "--no-nginx",
        action="store_true",
        help="start only the Voilà processes (a machine behind another's nginx)",
    )
    ap.add_argument(
        "--first-worker",
        type=int,
        default=0,
        metavar="K",
        help="with --no-nginx: the first process's prefix is /w<K>/ (default 0)",
    )
    ap.add_argument(
        "--voila-host",
        default="127.0.0.1",
        help="address the Voilà processes listen on (default 127.0.0.1)",
    )
    ap.add_argument(
        "voila_args",
        nargs="*",
        metavar="-- VOILA_OPTION",
        help="further options for voila, after --",
    )
    args = ap.parse_args(argv)
    if (args.cert is None) != (args.key is None):
        ap.error("--cert and --key go together")
    from nginx_site import real_ip

    try:
        real_ip(args.trusted_proxy)
    except ValueError as e:
        ap.error(str(e))
    if not 0 <= args.workers <= 64 or (args.workers == 0 and not args.backend):
        ap.error("--workers: 1 to 64 processes (0 only with --backend)")
    if args.workers != 1 or args.backend or args.no_nginx:
        return serve_workers(args)

    voila_port = args.voila_port or _free_loopback_port()
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append("SIGTERM"))
    signal.signal(signal.SIGINT, lambda *_: stopping.append("Ctrl-C"))

    with tempfile.TemporaryDirectory(prefix="ee-nginx-") as prefix:
        from elo_explain.server.gate import published_notebooks
        from elo_explain.server.kernels import machine_memory_mib

        pool = pool_options(machine_memory_mib(), len(published_notebooks()))
        # Voilà trusts the client address nginx sends (X-Real-IP) from nginx only
        voila = start_voila(voila_port, [*pool, *TRUST_NGINX, *args.voila_args])
        nginx = None
        try:
            wait_voila(voila_port, voila)
            conf = render_config(
                args.port,
                voila_port,
                Path(prefix),
                host=args.host,
                cert=args.cert,
                key=args.key,
                render_rate=args.render_rate,
                access_log="/dev/stdout",
                trusted_proxies=args.trusted_proxy,
            )
            nginx = start_nginx(
                Path(prefix), conf, start_new_session=True, preexec_fn=_die_with_parent
            )
            scheme = "https" if args.cert else "http"
            print(
                f"Publishing on {scheme}://{args.host or socket.gethostname()}:{args.port}/ "
                f"(Voilà on 127.0.0.1:{voila_port}); Ctrl-C stops",
                flush=True,
            )
            while not stopping:
                for name, proc in (("voila", voila), ("nginx", nginx)):
                    if proc.poll() is not None:
                        print(f"{name} exited with {proc.returncode}: stopping", file=sys.stderr)
                        return 1
                time.sleep(POLL)
            print(f"{stopping[0]}: stopping nginx and voila", file=sys.stderr)
            return 0
        finally:
            for proc in (nginx, voila):
                if proc is not None:
                    stop(proc)


# --- several Voilà processes ------------------------------------------------------------------
RESTARTS = 5
"""A process that died this many times within :data:`RESTART_WINDOW_S` is not started again."""
RESTART_WINDOW_S = 600.0


def worker_options(workers: int, total_mib: int, pages: int = 11) -> list[str]:
    """Voilà's options for one of ``workers`` processes on a machine of ``total_mib``: its
    share of the machine: the pool of :func:`pool_options` for ``total_mib / workers``, the
    ceilings of ``memory_share`` (``elo_explain.server.kernels.default_ceilings``). N
    processes hold what one did.

    >>> worker_options(2, 24 * 1024)[1:]      # this machine, 2 processes: en and te pooled in each
    ['--ViewerKernels.memory_share=0.5']
    >>> worker_options(2, 24 * 1024) == pool_options(12 * 1024) + worker_options(2, 24 * 1024)[1:]
    True
    """
    if not 1 <= workers <= 64:
        raise ValueError(f"workers: {workers} is not 1 to 64")
    return [
        *pool_options(total_mib // workers, pages),
        f"--ViewerKernels.memory_share={1 / workers:.6g}",
    ]


def overridden(ours: list[str], theirs: list[str]) -> list[str]:
    """``ours`` then ``theirs``, without those of ours that ``theirs`` set again: traitlets
    reads a list option given twice as a list of the two texts, not as the second list.

    >>> overridden(["--A.x=['a']", "--B.y=1"], ["--A.x=['b']"])
    ['--B.y=1', "--A.x=['b']"]
    """

    def name(option: str) -> str:
        return option.split("=", 1)[0]

    again = {name(option) for option in theirs}
    return [option for option in ours if name(option) not in again] + list(theirs)


def serve_workers(args) -> int:
    """``--workers`` / ``--backend`` / ``--no-nginx``: start the processes, nginx in front of
    them and of the other machines' (unless ``--no-nginx``), start a process again when it
    dies; stop everything on Ctrl-C (exit 0), when nginx dies or every process is down (1)."""
    from elo_explain.server.gate import published_notebooks
    from elo_explain.server.kernels import memory_at_start_mib

    stopping: list[str] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append("SIGTERM"))
    signal.signal(signal.SIGINT, lambda *_: stopping.append("Ctrl-C"))
    n, first = args.workers, args.first_worker if args.no_nginx else 0
    ports = (
        [args.voila_port + i for i in range(n)]
        if args.voila_port
        else [_free_loopback_port() for _ in range(n)]
    )
    total, pages = memory_at_start_mib(), len(published_notebooks())
    # Voilà trusts the client address nginx sends (X-Real-IP) from nginx only: on loopback here;
    # a process on another machine is started with its nginx machine's address in VOILA_ARGS
    options = overridden([*worker_options(max(n, 1), total, pages), *TRUST_NGINX], args.voila_args)
    bases = [f"/{worker_prefix(first + i)}/" for i in range(n)]
    procs = [start_voila(port, options, args.voila_host, base) for port, base in zip(ports, bases)]
    deaths: list[list[float]] = [[] for _ in procs]
    nginx = None
    with tempfile.TemporaryDirectory(prefix="ee-nginx-") as prefix:
        try:
            for port, proc in zip(ports, procs):
                wait_voila(port, proc)
            host = "127.0.0.1" if args.voila_host in ("", "0.0.0.0") else args.voila_host
            backends = [f"{host}:{port}" for port in ports] + list(args.backend)
            if not args.no_nginx:
                conf = render_config(
                    args.port,
                    ports[0] if ports else 1,
                    Path(prefix),
                    host=args.host,
                    cert=args.cert,
                    key=args.key,
                    render_rate=args.render_rate,
                    access_log="/dev/stdout",
                    trusted_proxies=args.trusted_proxy,
                    backends=backends,
                )
                nginx = start_nginx(
                    Path(prefix), conf, start_new_session=True, preexec_fn=_die_with_parent
                )
                scheme = "https" if args.cert else "http"
                print(
                    f"Publishing on {scheme}://{args.host or socket.gethostname()}:{args.port}/ "
                    f"({len(backends)} Voilà processes: "
                    + ", ".join(f"/{worker_prefix(i)}/ on {b}" for i, b in enumerate(backends))
                    + "); Ctrl-C stops",
                    flush=True,
                )
            else:
                print(
                    "Voilà processes "
                    + ", ".join(
                        f"/{worker_prefix(first + i)}/ on {b}" for i, b in enumerate(backends)
                    )
                    + "; Ctrl-C stops",
                    flush=True,
                )
            while not stopping:
                if nginx is not None and nginx.poll() is not None:
                    print(f"nginx exited with {nginx.returncode}: stopping", file=sys.stderr)
                    return 1
                if procs and all(proc.poll() is not None for proc in procs):
                    print("every voila exited: stopping", file=sys.stderr)
                    return 1
                for i, proc in enumerate(procs):
                    if proc.poll() is None or proc.returncode is _GAVE_UP:
                        continue
                    procs[i] = _start_again(
                        proc, ports[i], options, args.voila_host, bases[i], deaths[i]
                    )
                time.sleep(POLL)
            print(f"{stopping[0]}: stopping nginx and voila", file=sys.stderr)
            return 0
        finally:
            for proc in (nginx, *procs):
                if proc is not None:
                    stop(proc)


_GAVE_UP = "gave up"


class _Stopped:
    """A process not started again: what :func:`serve_workers` polls in its place."""

    returncode = _GAVE_UP

    def poll(self):
        return self.returncode


def _start_again(dead, port: int, options: list[str], ip: str, base_url: str, deaths: list[float]):
    now = time.monotonic()
    deaths[:] = [t for t in deaths if now - t < RESTART_WINDOW_S] + [now]
    name = f"voila {base_url} (port {port})"
    if len(deaths) > RESTARTS:
        print(
            f"{name} exited with {dead.returncode}, {len(deaths)} times in "
            f"{RESTART_WINDOW_S:.0f} s: not starting it again",
            file=sys.stderr,
        )
        return _Stopped()
    print(f"{name} exited with {dead.returncode}: starting it again", file=sys.stderr, flush=True)
    return start_voila(port, options, ip, base_url)


if __name__ == "__main__":
    sys.exit(main())
