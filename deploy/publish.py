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

from nginx_site import render_config, start_nginx  # noqa: E402

POLL = 0.5  # seconds between two checks that both processes still run
POOL_SHARE = 0.25
"""The share of the machine's memory the preheated pool may take (the rest is for viewers)."""
POOLED_KERNEL_MIB = 115
"""A pooled kernel's memory, idle, its notebook run (RSS, ``benchmarks/POOL.md``)."""


TRUST_NGINX = ["--PublishedOnly.trusted_proxies=127.0.0.1"]
"""nginx reaches Voilà from 127.0.0.1 (``upstream voila`` in ``nginx.conf.in``)."""


def pool_languages(total_mib: int, pages: int = 11, kernel_mib: int = POOLED_KERNEL_MIB,
                   share: float = POOL_SHARE) -> tuple[str, ...]:
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


def start_voila(port: int, extra: list[str]) -> subprocess.Popen:
    cmd = [str(Path(sys.executable).with_name("voila")), "notebooks", f"--port={port}",
           "--no-browser", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
           "--Voila.base_url=/",  # nginx proxies the site's root; keep both in step
           *extra]
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
    ap.add_argument("--voila-port", type=int, default=0, help="Voilà's loopback port (default: free)")
    ap.add_argument("--render-rate", default="30r/m",
                    help="page renders (= new kernels) per client address (nginx rate, default 30r/m)")
    ap.add_argument("--trusted-proxy", action="append", default=[], metavar="CIDR",
                    help="a load balancer or proxy in front of nginx whose X-Forwarded-For "
                         "names the client (repeatable; default: none, the peer is the client)")
    ap.add_argument("voila_args", nargs="*", metavar="-- VOILA_OPTION",
                    help="further options for voila, after --")
    args = ap.parse_args(argv)
    if (args.cert is None) != (args.key is None):
        ap.error("--cert and --key go together")
    from nginx_site import real_ip

    try:
        real_ip(args.trusted_proxy)
    except ValueError as e:
        ap.error(str(e))

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
            conf = render_config(args.port, voila_port, Path(prefix), host=args.host,
                                 cert=args.cert, key=args.key, render_rate=args.render_rate,
                                 access_log="/dev/stdout", trusted_proxies=args.trusted_proxy)
            nginx = start_nginx(Path(prefix), conf, start_new_session=True,
                                preexec_fn=_die_with_parent)
            scheme = "https" if args.cert else "http"
            print(f"Publishing on {scheme}://{args.host or socket.gethostname()}:{args.port}/ "
                  f"(Voilà on 127.0.0.1:{voila_port}); Ctrl-C stops", flush=True)
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


if __name__ == "__main__":
    sys.exit(main())
