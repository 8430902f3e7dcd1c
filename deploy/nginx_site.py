"""Fill in ``deploy/nginx.conf.in`` and run nginx in the foreground in front of Voilà.

Used by ``deploy/publish.py`` (``make publish``), by the proxy tests (``tests/harness.py``'s
``start_proxy``) and by ``benchmarks/remote_link.py``.  nginx runs as a non-daemon with
its own prefix: its pid file, temp folders and configuration live in a folder of ours,
so it needs no system paths and runs as root as well as as an ordinary user.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TEMPLATE = HERE / "nginx.conf.in"
TEMP_DIRS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def nginx_binary() -> str:
    """Debian's nginx (``apt-get install nginx``)."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not found:
        raise RuntimeError("nginx is missing: install Debian's nginx (apt-get install nginx)")
    return found


def published_notebooks() -> list[str]:
    """The landing page and every registered dashboard (``elo_explain.dashboards``), in
    English and in each translation (``<lang>/<notebook>``), as the gate serves them."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from elo_explain.server.gate import served_pages

    return served_pages()


# a notebook's file name, in a language's folder or not
_NOTEBOOK = re.compile(r"([a-z]{2}/)?[A-Za-z0-9_.-]+\.ipynb")


def _render_location(notebook: str) -> str:
    return (f"        location = /voila/render/{notebook} {{\n"
            f"            limit_except GET {{ deny all; }}\n"
            f"            limit_req zone=render burst=@RENDER_BURST@ nodelay;\n"
            f"            proxy_pass http://voila;\n"
            f"        }}")


def real_ip(trusted_proxies=()) -> str:
    """nginx's ``real_ip`` lines for a load balancer (or proxies) in front of nginx: the
    client's address is taken from ``X-Forwarded-For`` only when the peer is one of
    ``trusted_proxies`` (addresses or CIDR networks, checked).

    >>> print(real_ip(["10.0.0.0/8"]))
        set_real_ip_from 10.0.0.0/8;
        real_ip_header X-Forwarded-For;
        real_ip_recursive on;
    >>> real_ip([])
    '    # (no trusted proxy: the peer is the client)'
    >>> real_ip(["lb.example.org"])
    Traceback (most recent call last):
    ...
    ValueError: trusted proxy: 'lb.example.org' is not an IP address or network (CIDR)
    """
    lines = []
    for cidr in trusted_proxies:
        try:
            net = ipaddress.ip_network(str(cidr).strip(), strict=False)
        except ValueError:
            raise ValueError(f"trusted proxy: {cidr!r} is not an IP address or network (CIDR)"
                             ) from None
        lines.append(f"    set_real_ip_from {net};")
    if not lines:
        return "    # (no trusted proxy: the peer is the client)"
    return "\n".join([*lines, "    real_ip_header X-Forwarded-For;", "    real_ip_recursive on;"])


def render_config(port: int, voila_port: int, prefix: Path, *, host: str = "",
                  cert: Path | None = None, key: Path | None = None,
                  notebooks: list[str] | None = None, render_rate: str = "30r/m",
                  render_burst: int = 20, access_log: str = "off",
                  trusted_proxies=()) -> str:
    """The nginx configuration: listen on ``host:port`` (all addresses if ``host`` is
    empty), TLS with ``cert``/``key`` if given, proxy to Voilà on ``127.0.0.1:voila_port``;
    the client's address from ``X-Forwarded-For`` when the peer is one of
    ``trusted_proxies`` (:func:`real_ip`).

    >>> conf = render_config(8080, 8866, Path("site"), notebooks=["index.ipynb"])
    >>> "listen 8080;" in conf, "location = /voila/render/index.ipynb" in conf
    (True, True)
    >>> "location = /voila/render/uk/index.ipynb" in render_config(8080, 8866, Path("site"))
    True
    """
    notebooks = published_notebooks() if notebooks is None else notebooks
    for nb in notebooks:
        if not _NOTEBOOK.fullmatch(nb or ""):
            raise ValueError(f"notebooks: {nb!r} is not a plain notebook file name")
    if (cert is None) != (key is None):
        raise ValueError("cert and key: give both (TLS) or neither (plain HTTP)")
    listen = f"{host}:{port}" if host else str(port)
    tls = ""
    if cert is not None:
        listen += " ssl http2"
        tls = (f"        ssl_certificate {Path(cert).resolve()};\n"
               f"        ssl_certificate_key {Path(key).resolve()};\n"
               "        ssl_protocols TLSv1.2 TLSv1.3;\n"
               "        ssl_session_cache shared:TLS:1m;\n"
               "        ssl_session_timeout 1h;")
    user = ""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # as root, nginx's workers drop to an unprivileged user; they write the temp folders
        user = f"user {_worker_user()[0]} {_worker_user()[1]};"
    values = {
        "@RENDER_LOCATIONS@": "\n".join(_render_location(nb) for nb in notebooks),
        "@LANDING@": notebooks[0],
        "@LISTEN@": listen,
        "@TLS@": tls,
        "@USER@": user,
        "@PREFIX@": str(Path(prefix).resolve()),
        "@VOILA_PORT@": str(int(voila_port)),
        "@RENDER_RATE@": render_rate,
        "@RENDER_BURST@": str(int(render_burst)),
        "@ACCESS_LOG@": access_log,
        "@REAL_IP@": real_ip(trusted_proxies),
    }
    text = TEMPLATE.read_text()
    for name, value in values.items():
        text = text.replace(name, value)
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        raise ValueError(f"{TEMPLATE.name}: placeholders without a value: {sorted(set(left))}")
    return text


def _worker_user() -> tuple[str, str]:
    import grp
    import pwd

    for name in ("www-data", "nobody"):
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        return pw.pw_name, grp.getgrgid(pw.pw_gid).gr_name
    raise RuntimeError("no www-data or nobody user for nginx's workers")


def prepare_prefix(prefix: Path) -> None:
    """nginx's pid file and temp folders, writable by its workers."""
    prefix = Path(prefix)
    prefix.mkdir(parents=True, exist_ok=True)
    for name in TEMP_DIRS:
        (prefix / name).mkdir(exist_ok=True)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        import pwd

        pw = pwd.getpwnam(_worker_user()[0])
        os.chmod(prefix, 0o711)  # the workers reach their temp folders, not the config
        for name in TEMP_DIRS:
            os.chown(prefix / name, pw.pw_uid, pw.pw_gid)


def start_nginx(prefix: Path, conf_text: str, log=None, **popen) -> subprocess.Popen:
    """Write the configuration into ``prefix``, check it, and run nginx in the foreground
    (``popen``: further arguments for :class:`subprocess.Popen`)."""
    prefix = Path(prefix).resolve()
    prepare_prefix(prefix)
    conf = prefix / "nginx.conf"
    conf.write_text(conf_text)
    cmd = [nginx_binary(), "-p", str(prefix), "-c", str(conf), "-e", "stderr"]
    check = subprocess.run([*cmd, "-t", "-q"], capture_output=True, text=True)
    if check.returncode != 0:
        raise RuntimeError(f"nginx rejected {conf}:\n{check.stderr}")
    return subprocess.Popen(cmd, stdout=log or subprocess.DEVNULL, stderr=log or None, **popen)
