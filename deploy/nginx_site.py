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
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None
    )
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
    return (
        f"        location = /voila/render/{notebook} {{\n"
        f"            limit_except GET {{ deny all; }}\n"
        f"            limit_req zone=render burst=@RENDER_BURST@ nodelay;\n"
        f"            proxy_pass http://voila;\n"
        f"        }}"
    )


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
            raise ValueError(
                f"trusted proxy: {cidr!r} is not an IP address or network (CIDR)"
            ) from None
        lines.append(f"    set_real_ip_from {net};")
    if not lines:
        return "    # (no trusted proxy: the peer is the client)"
    return "\n".join([*lines, "    real_ip_header X-Forwarded-For;", "    real_ip_recursive on;"])


def render_config(
    port: int,
    voila_port: int,
    prefix: Path,
    *,
    host: str = "",
    cert: Path | None = None,
    key: Path | None = None,
    notebooks: list[str] | None = None,
    render_rate: str = "30r/m",
    render_burst: int = 20,
    access_log: str = "off",
    trusted_proxies=(),
    backends: list[str] | None = None,
) -> str:
    """The nginx configuration: listen on ``host:port`` (all addresses if ``host`` is
    empty), TLS with ``cert``/``key`` if given, proxy to Voilà on ``127.0.0.1:voila_port``;
    the client's address from ``X-Forwarded-For`` when the peer is one of
    ``trusted_proxies`` (:func:`real_ip`); with ``backends`` (``host:port`` of several Voilà
    processes, the i-th serving under ``/w<i>/``) to them instead: :func:`workers_http`,
    :func:`workers_server`.

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
        tls = (
            f"        ssl_certificate {Path(cert).resolve()};\n"
            f"        ssl_certificate_key {Path(key).resolve()};\n"
            "        ssl_protocols TLSv1.2 TLSv1.3;\n"
            "        ssl_session_cache shared:TLS:1m;\n"
            "        ssl_session_timeout 1h;"
        )
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
    if backends:
        text = _route_to_workers(text, backends, tls=cert is not None)
    text = text.replace("@WORKERS_HTTP@\n", "").replace("@WORKERS_SERVER@\n", "")
    for name, value in values.items():
        text = text.replace(name, value)
    if backends:  # the render locations too (filled in just now)
        text = text.replace(PROXY_PASS, PROXY_PASS_WORKER)
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        raise ValueError(f"{TEMPLATE.name}: placeholders without a value: {sorted(set(left))}")
    return text


# --- several Voilà processes behind one nginx (deploy/publish.py --workers / --backend) -------
# A page's URLs all carry its process's prefix (Voilà's base_url /w<i>/): its render, assets,
# kernel websocket and close beacon. The landing redirect chooses the prefix: split_clients on a
# routing cookie (ee_route, a random id nginx sets on the first answer), so new viewers spread
# evenly and a returning browser keeps its process. nginx strips the prefix once (server-level
# rewrite, before the location search), so every location of the single-process site applies
# unchanged, and passes the request on as received ($request_uri) to the prefix's process.
# A render whose process does not answer (502/504) is sent on to the next process; any other
# request of a page whose process is gone gets the 502 the page shows as "This view has stopped".

WORKER = re.compile(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}")
PROXY_PASS = "proxy_pass http://voila;"
PROXY_PASS_WORKER = "proxy_pass http://$ee_backend$request_uri;"


def worker_prefix(index: int) -> str:
    """The path prefix of the ``index``-th process (its Voilà ``base_url`` is ``/<prefix>/``).

    >>> worker_prefix(0), worker_prefix(11)
    ('w0', 'w11')
    """
    return f"w{int(index)}"


def _check_backends(backends: list[str]) -> None:
    if not 1 <= len(backends) <= 64:
        raise ValueError(f"backends: 1 to 64 host:port addresses, not {len(backends)}")
    for b in backends:
        if not WORKER.fullmatch(b or "") or not 0 < int(b.rsplit(":", 1)[1]) < 65536:
            raise ValueError(f"backends: {b!r} is not a host:port address (port 1-65535)")


def workers_http(backends: list[str]) -> str:
    """The ``http`` block's part for several processes: one upstream per process, the
    routing cookie, the landing's choice (``$ee_worker``) and each prefix's next process.

    >>> text = workers_http(["127.0.0.1:9001", "10.0.0.2:8866"])
    >>> "upstream ee_w1 {" in text, "server 10.0.0.2:8866 max_fails=0;" in text
    (True, True)
    >>> print(text[text.index("split_clients"):text.index("map $ee_prefix")].strip())
    split_clients $ee_route_key $ee_worker {
            50.00% w0;
            * w1;
        }
    >>> workers_http(["127.0.0.1"])
    Traceback (most recent call last):
    ValueError: backends: '127.0.0.1' is not a host:port address (port 1-65535)
    """
    _check_backends(backends)
    n = len(backends)
    names = [worker_prefix(i) for i in range(n)]
    lines = [
        "    # --- several Voilà processes: /w<i>/ is the i-th (nginx_site.workers_http);",
        "    # the prefix a page's URLs carry sends each of its requests to the process",
        "    # owning its kernel",
    ]
    for name, backend in zip(names, backends):
        lines += [
            f"    upstream ee_{name} {{",
            f"        server {backend} max_fails=0;",
            "        keepalive 8;",
            "    }",
        ]
    lines += [
        "    # the landing's choice: a random id in a cookie: new browsers get one",
        "    map $cookie_ee_route $ee_route_key {",
        '        "~^[0-9a-f]{32}$" $cookie_ee_route;',
        "        default           $request_id;",
        "    }",
        "    split_clients $ee_route_key $ee_worker {",
    ]
    share = f"{100 / n:.2f}%"
    lines += [f"        {share} {name};" for name in names[:-1]]
    lines += [f"        * {names[-1]};", "    }"]
    lines += ["    map $ee_prefix $ee_backend {", '        default "";']
    lines += [f"        {name} ee_{name};" for name in names] + ["    }"]
    lines += [
        "    # a render whose process is down goes on to the next (none with one process)",
        "    map $ee_prefix $ee_next {",
        '        default "";',
    ]
    lines += [f"        {name} {names[(i + 1) % n]};" for i, name in enumerate(names) if n > 1]
    lines += ["    }"]
    return "\n".join(lines)


def workers_server(backends: list[str], tls: bool = False) -> str:
    """The ``server`` block's part for several processes: the routing cookie, the landing
    redirects to a prefix, the prefix stripped before the location search (each known
    prefix once), nothing served without one, and a render sent on when its process is down.

    >>> text = workers_server(["127.0.0.1:9001", "127.0.0.1:9002"])
    >>> 'rewrite "^/(w0|w1)(/.*)$" $2 last;' in text, "return 404;" in text, "Secure" in text
    (True, True, False)
    >>> "SameSite=Lax; Secure" in workers_server(["127.0.0.1:9001"], tls=True)  # HTTPS only
    True
    """
    _check_backends(backends)
    names = "|".join(worker_prefix(i) for i in range(len(backends)))
    secure = "; Secure" if tls else ""
    return "\n".join(
        [
            "        # --- several Voilà processes (nginx_site.workers_server): a page's URLs carry",
            "        # its process's prefix; the landing chooses one, a page's every request keeps it",
            f'        set $ee_cookie "ee_route=$ee_route_key; Path=/; Max-Age=2592000; HttpOnly; '
            f'SameSite=Lax{secure}";',
            '        if ($cookie_ee_route ~ "^[0-9a-f]{32}$") { set $ee_cookie ""; }',
            "        add_header Set-Cookie $ee_cookie always;",
            "        proxy_connect_timeout 5s;   # a process on another machine that is down",
            "        rewrite ^/$ /$ee_worker/voila/render/@LANDING@ redirect;",
            "        rewrite ^/voila/?$ /$ee_worker/voila/render/@LANDING@ redirect;",
            "        rewrite ^/voila/tree(/.*)?$ /$ee_worker/voila/render/@LANDING@? redirect;",
            '        rewrite "^/voila/render/(([a-z]{2}/)?[A-Za-z0-9_.-]+\\.ipynb)$" '
            "/$ee_worker/voila/render/$1 redirect;",
            f'        if ($uri ~ "^/({names})/") {{ set $ee_prefix $1; }}',
            f'        rewrite "^/({names})(/.*)$" $2 last;',
            "        # a link to a page of a process there is no longer (fewer processes now)",
            '        rewrite "^/w[0-9]+/voila/render/(([a-z]{2}/)?[A-Za-z0-9_.-]+\\.ipynb)$" '
            "/$ee_worker/voila/render/$1 redirect;",
            "        return 404;                  # nothing is served without a process's prefix",
            "        error_page 502 504 = @ee_down;",
            "        location @ee_down {",
            '            if ($ee_next = "") { return 502; }',
            '            if ($uri ~ "^/voila/render/") { return 302 /$ee_next$uri$is_args$args; }',
            "            return 502;",
            "        }",
        ]
    )


def _route_to_workers(text: str, backends: list[str], tls: bool) -> str:
    """The template for several processes: their blocks in, every ``proxy_pass`` to the
    request's process, the request passed on as received (``$request_uri``: with its prefix)."""
    if PROXY_PASS not in text:
        raise ValueError(f"{TEMPLATE.name}: no {PROXY_PASS!r} to route to the processes")
    text = text.replace(PROXY_PASS, PROXY_PASS_WORKER)
    text = text.replace("@WORKERS_HTTP@\n", workers_http(backends) + "\n")
    return text.replace("@WORKERS_SERVER@\n", workers_server(backends, tls) + "\n")


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
