"""Test harness: a real Voilà server on a free port and headless Debian Chromium.

Used by the tests (through conftest.py), the screenshot script and the browser benchmarks.

Browser tests never sleep for a fixed time: they wait for a specific selector
(``.ee-ready`` on a dashboard's root widget) or a specific text. The page helpers at the
end (:func:`open_with_plots`, :func:`type_into`, :func:`slider_step`, :func:`plot_src`,
:func:`wait_changed`) are the browser tests' shared steps.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import requests
from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
READY = ".ee-ready"
LOAD_TIMEOUT_MS = 90_000
TIMEOUT = LOAD_TIMEOUT_MS  # for expect(...) and waits in the browser tests
# page.wait_for_function polls every 100 ms: Playwright's default ("raf", each animation frame)
# has headless Chromium draw frames all through a wait (measured on a loaded page: 0.07 CPU-s a
# second of waiting, against none at 100 ms)
POLL_MS = 100
MINUS = "\u2212"  # the dashboards' minus sign


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    """Poll ``url`` until it answers (the server is ready) or fail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # the server answered (e.g. 404 for a probe path): it is up
        except Exception:
            time.sleep(0.2)  # polling interval of a readiness probe, not a wait for the page
    raise RuntimeError(f"voila did not answer on {url} within {timeout} s")


def start_voila(
    *extra_args: str, notebooks: Path = NOTEBOOKS, cwd: Path = ROOT, log=None, preheat: bool = False
):
    """Start ``voila`` on a free port with the repo's published configuration.

    The published preheated kernel pool (``preheat_kernel``) is switched off unless
    ``preheat`` is true: a pool of one kernel per notebook, refilled in the background
    after every page, would add its CPU to every test on this 2-core machine and move the
    kernel counts the load test checks. ``tests/site/test_preheat.py`` tests the pool itself.
    """
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "elo_explain.server",
        str(notebooks),  # Voilà, as published
        f"--port={port}",
        "--no-browser",
        "--Voila.port_retries=0",
        "--Voila.ip=127.0.0.1",
        *([] if preheat else ["--VoilaConfiguration.preheat_kernel=False"]),
        *extra_args,
    ]
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdout=log or subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # a static path: answering it starts no kernel (the landing page would)
        wait_http(base + "/voila/static/ready-probe", proc)
    except Exception:
        proc.kill()
        raise
    return proc, base


def kernel_pids(voila: subprocess.Popen) -> set[int]:
    """The kernel processes the voila server started (descendants running ipykernel, started as
    a program or forked: ``elo_explain.server.forks`` gives a forked one its command line)."""
    import psutil

    pids = set()
    try:
        children = psutil.Process(voila.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return pids
    for child in children:
        try:
            if any("ipykernel" in part for part in child.cmdline()):
                pids.add(child.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return pids


def stop(proc: subprocess.Popen) -> None:
    """Terminate a server started by :func:`start_voila` (kill it after 30 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


_RECORD = re.compile(r"\n(?=\[|\d{3} [A-Z]+ /)")  # a log line of Voilà's or tornado's


def tracebacks(log: str) -> list[str]:
    """The log records of a server's ``log`` (its text) that hold a traceback."""
    return [r for r in _RECORD.split(log) if "Traceback" in r]


def launch_chromium(playwright):
    """Headless Debian Chromium with the flags this machine needs."""
    if not os.path.exists(CHROMIUM):
        raise RuntimeError(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)"
        )
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


class Devices:
    """Headless Chromium with one profile per device (a phone's emulation, a desktop's
    screen), each kept for the session: a visit is a new page in its device's profile, as a
    returning visitor's, so Voilà's 5 MB of scripts come from the profile's cache and V8's
    code cache (measured: Chromium's CPU for a phone's load of 03, 3.1 -> 1.6 s). Pages
    are new for each visit; the pages themselves keep nothing (no cookie, no storage)."""

    def __init__(self, playwright, folder):
        self.playwright = playwright
        self.folder = folder
        self.contexts: dict = {}

    def visit(self, device: dict) -> Visit:
        """A new page on ``device`` (Playwright's context options)."""
        key = repr(sorted(device.items()))
        if key not in self.contexts:
            self.contexts[key] = self.playwright.chromium.launch_persistent_context(
                str(self.folder / f"profile-{len(self.contexts)}"),
                executable_path=CHROMIUM,
                headless=True,
                args=CHROMIUM_ARGS,
                **device,
            )
        return Visit(self.contexts[key])

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


class Visit:
    """One visit's page in a device's profile; ``close()`` closes the page (as a tab closed:
    its ``pagehide`` beacon goes), not the profile."""

    def __init__(self, context):
        self.context = context
        self.page = context.new_page()

    def new_page(self):
        return self.page

    def new_cdp_session(self, page):
        return self.context.new_cdp_session(page)

    def close(self) -> None:
        self.page.close()


def open_dashboard(page, base: str, notebook: str):
    """Load a dashboard and wait until its root widget is rendered."""
    # the ready selector, not the page's "load" event (which waits for every asset)
    page.goto(f"{base}/voila/render/{notebook}", timeout=LOAD_TIMEOUT_MS, wait_until="commit")
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    return page


FORBIDDEN_TEXT = ("Traceback", "Error:", "Exception", "NameError", "ModuleNotFoundError")


def code_lines(notebook: str) -> list[str]:
    """Every non-trivial line of source in a notebook's code cells."""
    import nbformat

    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    return [
        line.strip()
        for cell in nb.cells
        if cell.cell_type == "code"
        for line in cell.source.splitlines()
        if len(line.strip()) > 3
    ]


def assert_clean(page, notebook: str | None = None) -> str:
    """No traceback or error text and no notebook source in the page; returns the visible text."""
    text = page.inner_text("body")
    for bad in FORBIDDEN_TEXT:
        assert bad not in text, f"page shows {bad!r}"
    if notebook:
        html = page.content()
        # also the text with tags stripped: highlighted source is split into spans
        stripped = re.sub(r"<[^>]+>", "", html)
        for line in code_lines(notebook):
            assert line not in html and line not in stripped and line not in text, (
                f"page contains notebook source {line!r}"
            )
    return text


# --- steps shared by the browser tests -------------------------------------------------------
def open_with_plots(page, base: str, notebook: str, plots: int = 1, css: str = ".ee-plot") -> str:
    """Open a dashboard, wait until its first ``plots`` plot images (``img`` elements with
    class ``css``) are visible, and :func:`assert_clean` the page; returns the page's visible text."""
    open_dashboard(page, base, notebook)
    for i in range(plots):
        page.locator(f"img{css}").nth(i).wait_for(state="visible", timeout=TIMEOUT)
    return assert_clean(page, notebook)


def type_into(page, css: str, text: str) -> None:
    """Type ``text`` into the text box inside ``css`` and press Enter (a NumberField's value)."""
    field = page.locator(f"{css} input")
    field.fill(text)
    field.press("Enter")


def slider_step(page, css: str, key: str = "ArrowRight", times: int = 1) -> None:
    """Focus the handle of the slider inside ``css`` and press ``key`` ``times`` times."""
    handle = page.locator(f"{css} .noUi-handle")
    handle.focus()
    for _ in range(times):
        handle.press(key)


def plot_src(page, css: str = ".ee-plot", nth: int = 0) -> str:
    """The ``src`` of the ``nth`` plot image with class ``css`` (``""`` if it has none)."""
    return page.locator(f"img{css}").nth(nth).get_attribute("src") or ""


def wait_changed(
    page, before: str, css: str = ".ee-plot", nth: int = 0, timeout: float = TIMEOUT
) -> None:
    """Wait until that plot image shows something other than ``before`` (its old ``src``)."""
    page.wait_for_function(
        "([css, nth, prev]) => { const i = document.querySelectorAll('img' + css)[nth];"
        " return i !== undefined && !!i.getAttribute('src') && i.getAttribute('src') !== prev; }",
        arg=[css, nth, before],
        timeout=timeout,
        polling=POLL_MS,
    )


def open_link(page, base: str, notebook: str, query: str):
    """Open a dashboard from a link (``query``: ``"?divisor=800"``) and wait for its root."""
    page.goto(
        f"{base}/voila/render/{notebook}{query}", timeout=LOAD_TIMEOUT_MS, wait_until="commit"
    )
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    return page


def above_the_view(page, method: str):
    """The live output of the model's ``method`` that a notebook cell shows (class
    ``ee-live-<method>``, underscores as dashes), checked to stand above the view: outside
    the view's root, before it in the page."""
    out = page.locator(f".ee-live-{method.strip('_').replace('_', '-')}")
    out.first.wait_for(state="attached", timeout=TIMEOUT)
    assert out.first.evaluate(
        "e => { const app = document.querySelector('.ee-app');"
        " return e.closest('.ee-app') === null && app !== null &&"
        " (e.compareDocumentPosition(app) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0; }"
    ), f"{method}: not a cell's output above the view"
    return out


def table_row(table, first: str):
    """The cells (``td``) of the row of ``table`` whose first cell reads exactly ``first``:
    ``expect(table_row(t, "300")).to_have_text(["300", "64.0 %", "70.3 %"])``."""
    return table.locator(
        "tr",
        has=table.page.locator("td:first-child", has_text=re.compile("^" + re.escape(first) + "$")),
    ).locator("td")


# --- nginx in front of Voilà (deploy/), as `make publish` runs it -----------------------------
def self_signed_cert(folder: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """A self-signed certificate and key for ``host`` made with openssl (the TLS variant's test)."""
    cert, key = Path(folder) / "cert.pem", Path(folder) / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            f"/CN={host}",
            "-addext",
            f"subjectAltName=IP:{host}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def start_proxy(
    voila_base: str,
    prefix: Path,
    *,
    cert: Path | None = None,
    key: Path | None = None,
    log=None,
    render_rate: str = "30r/m",
    trusted_proxies=(),
):
    """Start nginx with ``deploy/nginx.conf.in`` on a free loopback port in front of the
    Voilà at ``voila_base`` (from :func:`start_voila`); its temp files go to ``prefix``.
    HTTPS when ``cert`` and ``key`` are given; ``trusted_proxies``: a load balancer's
    addresses (``publish.py --trusted-proxy``). Returns ``(process, base URL)``; stop it
    with :func:`stop`."""
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_site import render_config, start_nginx

    port = free_port()
    conf = render_config(
        port,
        int(voila_base.rsplit(":", 1)[1]),
        prefix,
        host="127.0.0.1",
        cert=cert,
        key=key,
        render_rate=render_rate,
        trusted_proxies=trusted_proxies,
    )
    proc = start_nginx(prefix, conf, log=log)
    deadline = time.monotonic() + 30
    while True:  # nginx checked its configuration; wait until it listens
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"nginx did not listen on {port} within 30 s") from None
            time.sleep(0.1)  # polling interval of a readiness probe
    return proc, f"{'https' if cert else 'http'}://127.0.0.1:{port}"


# --- a viewer without a browser: plain HTTP renders and the kernel websocket --------------------
HTTP_TIMEOUT = 120  # a render executes the notebook; several voila servers share 2 cores
WS_TIMEOUT = 60
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
PAGE_TOKEN = re.compile(r'"eePageToken":\s*"([0-9a-f]+)"')
V1 = "v1.kernel.websocket.jupyter.org"


class Viewer:
    """A plain HTTP client that renders pages and shuts their kernels down afterwards, with
    the token each page carries (what the page's beacon sends when it closes)."""

    def __init__(self, base: str):
        self.base = base
        self.http = requests.Session()
        self.kernels: list[str] = []
        self.tokens: dict[str, str] = {}

    def get(self, path: str, **kw) -> requests.Response:
        return self.http.get(self.base + path, timeout=HTTP_TIMEOUT, **kw)

    def render(self, notebook: str, query: str = "") -> tuple[str, str]:
        """The rendered HTML of a published notebook and its kernel id."""
        r = self.get(f"/voila/render/{notebook}{query}")
        assert r.status_code == 200, f"{notebook}: HTTP {r.status_code}"
        m = KERNEL_ID.search(r.text)
        assert m, f"{notebook}: no kernelId in the rendered page"
        self.kernels.append(m.group(1))
        token = PAGE_TOKEN.search(r.text)
        self.tokens[m.group(1)] = token.group(1) if token else ""
        return r.text, m.group(1)

    def shutdown(self, kernel_id: str, token: str | None = None, **kw) -> requests.Response:
        """POST the shutdown beacon for ``kernel_id`` with the page's token (or ``token``)."""
        token = self.tokens.get(kernel_id, "") if token is None else token
        return self.http.post(
            f"{self.base}/voila/api/shutdown/{kernel_id}",
            files={"ee_token": (None, token)},
            timeout=HTTP_TIMEOUT,
            **kw,
        )

    def close(self) -> None:
        for kid in self.kernels:  # what the page's unload beacon does
            self.shutdown(kid)
        self.http.close()


def _message(msg_type: str, content: dict, session: str) -> dict:
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "username": "viewer",
            "session": session,
            "version": "5.3",
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        },
        "parent_header": {},
        "metadata": {},
        "content": content,
        "buffers": [],
    }


class KernelSocket:
    """A kernel websocket speaking either the legacy JSON or the v1 binary protocol."""

    def __init__(self, base: str, kernel_id: str, protocol: str):
        self.protocol = protocol
        self.session = uuid.uuid4().hex
        url = (
            base.replace("http://", "ws://")
            + f"/api/kernels/{kernel_id}/channels?session_id={self.session}"
        )
        self.ws = connect(
            url,
            subprotocols=[V1] if protocol == "v1" else None,
            open_timeout=WS_TIMEOUT,
            max_size=None,
            proxy=None,
            legacy=True,
            ping_interval=None,  # a test client: no keepalive behind big sends
            max_queue=None,
        )  # reads on while unread messages wait: pongs go out
        if protocol == "v1":
            assert self.ws.subprotocol == V1, "server did not accept the v1 protocol"

    def send(self, msg_type: str, content: dict, channel: str = "shell", buffers=()) -> str:
        """Send a message (v1: with binary ``buffers``, as an upload's file goes)."""
        msg = _message(msg_type, content, self.session)
        if self.protocol == "v1":
            parts = [
                json.dumps(msg[k]).encode()
                for k in ("header", "parent_header", "metadata", "content")
            ]
            self.ws.send(serialize_msg_to_ws_v1(parts + [bytes(b) for b in buffers], channel))
        else:
            self.ws.send(json.dumps({**msg, "channel": channel}))
        return msg["header"]["msg_id"]

    def receive(self) -> dict:
        frame = self.ws.recv(timeout=WS_TIMEOUT)
        if self.protocol == "v1":
            channel, parts = deserialize_msg_from_ws_v1(frame)
            header, parent, _meta, content = (json.loads(p) for p in parts[:4])
            return {
                "channel": channel,
                "header": header,
                "parent_header": parent,
                "content": content,
                "bytes": len(frame),
            }
        return json.loads(frame) if isinstance(frame, str) else deserialize_binary_message(frame)

    def close(self) -> None:
        self.ws.close()


def send_updates(base: str, kernel_id: str, comm_id: str, values, each=None) -> int:
    """Send ``values`` to the widget ``comm_id`` as a page's updates, as fast as the server
    reads them, over a second v1 websocket; a websocket the server closes (its ping
    unanswered behind the frames, on a loaded machine) is opened again, as an abuser would.
    ``each(i)`` runs after each; returns how many websockets were needed."""
    from websockets.exceptions import ConnectionClosed

    ws, opened = KernelSocket(base, kernel_id, "v1"), 1
    for i, value in enumerate(values):
        message = {
            "comm_id": comm_id,
            "data": {"method": "update", "state": {"value": value}, "buffer_paths": []},
        }
        try:
            ws.send("comm_msg", message)
        except ConnectionClosed:
            ws, opened = KernelSocket(base, kernel_id, "v1"), opened + 1
            ws.send("comm_msg", message)
        if each is not None:
            each(i)
        # a moment for the client's own thread to answer the server's ping: its lock goes
        # back to this loop at once otherwise, and the server closes an unanswering socket
        time.sleep(0.002)
    ws.close()
    return opened


def widget_states(base: str, kernel_id: str) -> dict[str, dict]:
    """The state of every widget of a kernel's page, by comm id (what its page shows), over
    a second v1 websocket as the page's own widget manager asks for them (paced within the
    server's message rate, ``GuardedConnection``)."""
    ws = KernelSocket(base, kernel_id, "v1")
    ws.send("comm_info_request", {"target_name": "jupyter.widget"})
    comms = next(
        m["content"]["comms"]
        for m in iter(ws.receive, None)
        if m["header"]["msg_type"] == "comm_info_reply"
    )
    for i, comm_id in enumerate(comms):
        ws.send("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}})
        if i >= 40:
            time.sleep(1 / 30)  # pacing of the sender: within the server's message rate
    states: dict[str, dict] = {}
    while len(states) < len(comms):
        m = ws.receive()
        if m["header"]["msg_type"] == "comm_msg":
            states[m["content"]["comm_id"]] = m["content"]["data"].get("state", {})
    ws.close()
    return states
