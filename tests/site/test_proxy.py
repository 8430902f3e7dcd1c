"""The published site through nginx (``deploy/``), as ``make publish`` serves it.

nginx runs with ``deploy/nginx.conf.in`` in front of the session's Voilà (the repo's
``voila.json``); a viewer's browser talks only to nginx:

* the landing page (through the site's root) and a dashboard load, and a slider answers:
  the kernel's websocket is upgraded through the proxy; a translated page loads and its
  language switch keeps the view;
* HTML and JavaScript arrive gzip-compressed, byte for byte what Voilà sends;
* content-addressed assets carry a one-year immutable cache header, pages none;
* every URL the hardening tests refuse is refused through the proxy too, most by nginx
  itself before Voilà's gate sees it; request size and method limits hold;
* the TLS variant (a self-signed certificate made with openssl) serves a dashboard over
  HTTP/2 with a working secure websocket;
* ``deploy/publish.py`` stops Voilà when nginx dies.
"""

from __future__ import annotations

import gzip
import re
import signal
import subprocess
import sys

import pytest
import requests
from playwright.sync_api import expect

from elo_explain.dashboards.index import published
from harness import (
    LOAD_TIMEOUT_MS,
    READY,
    ROOT,
    TIMEOUT,
    assert_clean,
    free_port,
    plot_src,
    self_signed_cert,
    slider_step,
    start_proxy,
    stop,
    wait_changed,
    wait_http,
)

from .test_hardening_server import REFUSED, _assert_refused

HTTP_TIMEOUT = 60
CUBE = "04_doubling_cube.ipynb"
YEAR = "max-age=31536000"
# Refused paths nginx passes on (its normalised form is a published page): Voilà's gate refuses them.
REACH_THE_GATE = {"/voila/render/.%2Findex.ipynb"}
NGINX_PAGE = "<center>nginx</center>"  # nginx's own error page, not Voilà's


@pytest.fixture(scope="module")
def proxy(voila_url, tmp_path_factory):
    prefix = tmp_path_factory.mktemp("nginx")
    log = open(prefix / "nginx.log", "w")
    proc, base = start_proxy(voila_url, prefix, log=log)
    yield base
    stop(proc)
    log.close()


@pytest.fixture(scope="module")
def tls_proxy(voila_url, tmp_path_factory):
    prefix = tmp_path_factory.mktemp("nginx-tls")
    cert, key = self_signed_cert(prefix)
    log = open(prefix / "nginx.log", "w")
    proc, base = start_proxy(voila_url, prefix / "run", cert=cert, key=key, log=log)
    yield base
    stop(proc)
    log.close()


def _cube_slider_answers(page) -> None:
    """Greek Gammon42 document: two players at 1500 -> ±16; cube 2 -> coefficient 1.17, ±19."""
    expect(page.locator(".ee-winner-change")).to_have_text("+16", timeout=TIMEOUT)
    page.locator("img.ee-plot").first.wait_for(state="visible", timeout=TIMEOUT)
    before = plot_src(page)
    slider_step(page, ".ee-cube", "ArrowRight")  # travels over the kernel's websocket
    expect(page.locator(".ee-coefficient")).to_have_text("1.17", timeout=TIMEOUT)
    expect(page.locator(".ee-winner-change")).to_have_text("+19", timeout=TIMEOUT)
    wait_changed(page, before)


def test_landing_page_and_a_dashboard_through_the_proxy(page, proxy):
    responses, sockets = [], []
    page.on("response", lambda r: responses.append(r))
    page.on("websocket", lambda ws: sockets.append(ws.url))

    # the site's root lands on the landing page, which links every dashboard
    page.goto(proxy + "/", timeout=LOAD_TIMEOUT_MS, wait_until="commit")
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    assert page.url == proxy + "/voila/render/index.ipynb"
    for d in published():
        expect(page.locator(f'ol.ee-index a[href="{d.notebook}"]')).to_have_text(d.title)
    assert_clean(page, "index.ipynb")

    # compression and caching of what the landing page loaded
    mine = [r for r in responses if r.url.startswith(proxy)]
    assert mine and all(r.status < 400 for r in mine), [
        (r.url, r.status) for r in mine if r.status >= 400
    ]
    html = next(r for r in mine if r.url.endswith("/voila/render/index.ipynb"))
    assert html.header_value("content-encoding") == "gzip"
    assert "no-store" in html.header_value("cache-control")
    scripts = [r for r in mine if "javascript" in (r.header_value("content-type") or "")]
    assert len(scripts) > 20, f"only {len(scripts)} scripts loaded"
    # files under nginx's gzip_min_length (256 bytes) gain nothing from compression
    plain = [
        r.url
        for r in scripts
        if r.header_value("content-encoding") != "gzip"
        and int(r.header_value("content-length") or 10**9) >= 256
    ]
    assert not plain, f"scripts sent uncompressed: {plain}"
    versioned = [r for r in mine if "?v=" in r.url or re.search(r"\.[0-9a-f]{16,}\.js$", r.url)]
    assert len(versioned) > 10, f"only {len(versioned)} versioned assets"
    for r in versioned:
        cache = r.header_value("cache-control") or ""
        assert YEAR in cache and "immutable" in cache, f"{r.url}: Cache-Control {cache!r}"

    # a viewer follows the link to a dashboard; its slider answers through the proxy
    page.locator(f'ol.ee-index a[href="{CUBE}"]').click()
    page.wait_for_url(f"{proxy}/voila/render/{CUBE}", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    _cube_slider_answers(page)
    assert_clean(page, CUBE)
    ws = proxy.replace("http://", "ws://")
    assert sockets and all(url.startswith(ws + "/api/kernels/") for url in sockets), sockets


def test_a_translated_page_through_the_proxy(page, proxy):
    """A page in Greek through nginx, its switch to Ukrainian keeping the view (Greek
    document, version history: ÷800, 300 points up, 70.3 %, with a decimal comma)."""
    page.goto(
        f"{proxy}/voila/render/el/03_backgammon_divisor.ipynb?divisor=800",
        timeout=LOAD_TIMEOUT_MS,
        wait_until="commit",
    )
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.lang") == "el"
    expect(page.locator(".ee-summary")).to_contain_text("70,3%", timeout=TIMEOUT)
    page.locator("nav.ee-langs a.ee-lang[lang=uk]").click()
    page.wait_for_url(
        f"{proxy}/voila/render/uk/03_backgammon_divisor.ipynb?divisor=800&difference=300",
        timeout=LOAD_TIMEOUT_MS,
    )
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.lang") == "uk"
    expect(page.locator(".ee-summary")).to_contain_text("70,3%", timeout=TIMEOUT)
    assert_clean(page)


def test_voila_bundle_is_compressed_and_unchanged_through_the_proxy(proxy, voila_url):
    direct = requests.get(voila_url + "/voila/static/voila.js", timeout=HTTP_TIMEOUT)
    proxied = requests.get(
        proxy + "/voila/static/voila.js",
        timeout=HTTP_TIMEOUT,
        stream=True,
        headers={"Accept-Encoding": "gzip"},
    )
    wire = proxied.raw.read(decode_content=False)
    assert direct.status_code == proxied.status_code == 200
    assert "Content-Encoding" not in direct.headers  # Voilà alone sends it uncompressed
    assert proxied.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(wire) == direct.content
    assert len(wire) < len(direct.content) / 2
    # no version in this URL: revalidated, and an unchanged file costs a 304 without a body
    assert proxied.headers["Cache-Control"] == "no-cache"
    again = requests.get(
        proxy + "/voila/static/voila.js",
        timeout=HTTP_TIMEOUT,
        headers={"If-None-Match": proxied.headers["ETag"]},
    )
    assert again.status_code == 304 and again.content == b""


@pytest.mark.parametrize(
    "path",
    REFUSED
    + [
        "/voila/templates/lab/static/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "/voila/templates/../../../../etc/passwd",
        "/voila/templates/%2Fetc%2Fpasswd",
        "/voila/templates/lab/conf.json",
        "/api/kernels/0f1e2d3c-aaaa-bbbb-cccc-123456789abc/x",
        "/voila/query",
        "/voila/execution/0f1e2d3c-aaaa-bbbb-cccc-123456789abc",
        "/voila/api/themes/light",
        "/static/x.js",
        "/metrics",
        "/favicon.ico/../api/contents",
        # a language's folder holds only its translations of the published pages
        "/voila/render/uk/secret.ipynb",
        "/voila/render/fr/index.ipynb",
        "/voila/render/uk/",
        "/voila/render/uk",
        "/voila/render/el/el/index.ipynb",
    ],
)
def test_url_is_refused_through_the_proxy(proxy, path):
    r = requests.get(proxy + path, timeout=HTTP_TIMEOUT)  # redirects are followed
    _assert_refused(r, path)
    if path not in REACH_THE_GATE:  # refused by nginx itself, not passed to Voilà
        assert NGINX_PAGE in r.text, f"{path}: HTTP {r.status_code} from Voilà, not from nginx"


@pytest.mark.parametrize(
    "method,path",
    [
        ("PUT", "/voila/api/contents/evil.ipynb"),
        ("POST", "/voila/api/contents/"),
        ("POST", "/api/kernels"),
        ("POST", "/api/sessions"),
        ("POST", "/api/terminals"),
        ("DELETE", "/voila/api/contents/index.ipynb"),
        ("PATCH", "/voila/api/contents/index.ipynb"),
        ("POST", "/voila/render/index.ipynb"),
        ("PUT", "/voila/static/voila.js"),
        ("DELETE", "/api/kernels/0f1e2d3c-aaaa-bbbb-cccc-123456789abc"),
        ("GET", "/voila/api/shutdown/0f1e2d3c-aaaa-bbbb-cccc-123456789abc"),
    ],
)
def test_writes_are_refused_by_the_proxy(proxy, method, path):
    r = requests.request(method, proxy + path, json={"type": "notebook"}, timeout=HTTP_TIMEOUT)
    _assert_refused(r, f"{method} {path}")
    assert NGINX_PAGE in r.text, f"{method} {path}: HTTP {r.status_code} not from nginx"


def test_request_limits(proxy):
    beacon = "/voila/api/shutdown/0f1e2d3c-aaaa-bbbb-cccc-123456789abc"
    r = requests.post(proxy + beacon, data=b"x" * 100_000, timeout=HTTP_TIMEOUT)
    assert r.status_code == 413, f"a 100 kB body: HTTP {r.status_code}"
    r = requests.get(
        proxy + "/voila/static/voila.js", headers={"X-Big": "y" * 20_000}, timeout=HTTP_TIMEOUT
    )
    assert r.status_code in (400, 431, 494), f"a 20 kB header: HTTP {r.status_code}"


def test_root_and_tree_land_on_the_landing_page_through_the_proxy(proxy):
    for path in ("/", "/voila/tree", "/voila/tree/", "/voila/tree/sub"):
        r = requests.get(proxy + path, timeout=HTTP_TIMEOUT, allow_redirects=False)
        assert r.status_code == 302, f"{path}: HTTP {r.status_code}"
        assert r.headers["Location"] == "/voila/render/index.ipynb"


def test_tls_variant_serves_a_dashboard_over_http2(browser, tls_proxy):
    context = browser.new_context(
        ignore_https_errors=True, viewport={"width": 1280, "height": 1000}
    )
    try:
        page = context.new_page()
        sockets = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"{tls_proxy}/voila/render/{CUBE}", timeout=LOAD_TIMEOUT_MS, wait_until="commit")
        page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
        _cube_slider_answers(page)
        assert_clean(page, CUBE)
        assert (
            page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
        )
        wss = tls_proxy.replace("https://", "wss://")
        assert sockets and all(url.startswith(wss + "/api/kernels/") for url in sockets), sockets
    finally:
        context.close()


def test_publish_stops_voila_when_nginx_dies(tmp_path):
    """``make publish``'s script: both servers run; when one dies the other is stopped."""
    import psutil

    port = free_port()
    log = open(tmp_path / "publish.log", "w")
    pub = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "deploy" / "publish.py"),
            f"--port={port}",
            "--host=127.0.0.1",
            "--",
            "--VoilaConfiguration.preheat_kernel=False",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", pub, timeout=120)
        r = requests.get(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=HTTP_TIMEOUT)
        assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip"
        children = psutil.Process(pub.pid).children()
        names = sorted(c.name() for c in children)
        assert len(children) == 2 and "nginx" in names, names
        nginx = next(c for c in children if c.name() == "nginx")
        voila = next(c for c in children if c.name() != "nginx")
        nginx.terminate()
        assert pub.wait(timeout=60) == 1
        assert not voila.is_running() or voila.status() == psutil.STATUS_ZOMBIE
    finally:
        if pub.poll() is None:
            pub.send_signal(signal.SIGINT)
            pub.wait(timeout=60)
        log.close()
    assert "nginx exited" in (tmp_path / "publish.log").read_text()


def test_a_legacy_websocket_is_refused_by_the_proxy(proxy):
    """Nginx itself refuses a kernel websocket without the v1 protocol
    (it froze Voilà); with it, the socket is upgraded."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from harness import KernelSocket, Viewer

    viewer = Viewer(proxy)
    _, kernel_id = viewer.render("index.ipynb")
    url = proxy.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels?session_id=x"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=30, proxy=None)
    assert refused.value.response.status_code == 400
    assert NGINX_PAGE in refused.value.response.body.decode()  # nginx's answer, not Voilà's
    ws = KernelSocket(proxy, kernel_id, "v1")
    barrier = ws.send("kernel_info_request", {})
    reply = ws.receive()
    while (reply["parent_header"].get("msg_id"), reply["header"]["msg_type"]) != (
        barrier,
        "kernel_info_reply",
    ):
        reply = ws.receive()
    assert reply["content"]["status"] == "ok"
    ws.close()
    viewer.close()


def test_a_kernel_is_shut_down_through_the_proxy_only_with_its_pages_token(proxy):
    """A self-made _xsrf cookie and field no longer shut a kernel down."""
    from harness import Viewer

    viewer = Viewer(proxy)
    _, kernel_id = viewer.render("index.ipynb")
    forged = requests.post(
        f"{proxy}/voila/api/shutdown/{kernel_id}",
        data={"_xsrf": "abc"},
        cookies={"_xsrf": "abc"},
        headers={"X-XSRFToken": "abc"},
        timeout=HTTP_TIMEOUT,
    )
    assert forged.status_code == 403
    assert requests.get(f"{proxy}/api/kernels/{kernel_id}", timeout=HTTP_TIMEOUT).status_code == 200
    assert viewer.shutdown(kernel_id).status_code == 204
    assert requests.get(f"{proxy}/api/kernels/{kernel_id}", timeout=HTTP_TIMEOUT).status_code == 404
    viewer.close()


def test_nginx_holds_a_slowloris_while_pages_load(proxy):
    """3,000 half-open connections, each sending its headers a byte at a
    time (and opened again when nginx's 10 s header timeout drops it), while 13 probes of the
    site's root and a page render all succeed (one worker of 1024 connections reset 4 of 13
    probes under 1,100)."""
    import socket
    import threading

    import psutil

    from harness import Viewer

    host, port = proxy.split("//", 1)[1].split(":")
    head = b"GET /voila/render/index.ipynb HTTP/1.1\r\nHost: x\r\n"  # never finished

    def half_open() -> socket.socket:
        s = socket.socket()
        s.settimeout(5)
        s.connect((host, int(port)))
        s.sendall(head)
        return s

    def accepted() -> int:  # the connections nginx holds on its port now
        return sum(
            1
            for c in psutil.net_connections("tcp")
            if c.laddr and c.laddr.port == int(port) and c.status == psutil.CONN_ESTABLISHED
        )

    held = [half_open() for _ in range(3000)]
    stop_trickle = threading.Event()

    def trickle():  # a header byte now and then on every connection, as a slowloris does
        while not stop_trickle.wait(1.0):
            for i, s in enumerate(held):
                try:
                    s.send(b"X")
                except OSError:
                    s.close()
                    try:
                        held[i] = half_open()
                    except OSError:
                        pass

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        during = [accepted()]
        probes = []
        for _ in range(13):
            try:
                probes.append(
                    requests.get(proxy + "/", timeout=10, allow_redirects=False).status_code
                )
            except requests.RequestException as e:
                probes.append(type(e).__name__)
        viewer = Viewer(proxy)
        html, _ = viewer.render("index.ipynb")
        during.append(accepted())
        viewer.close()
    finally:
        stop_trickle.set()
        trickler.join(10)
        for s in held:
            s.close()
    assert probes == [302] * 13, probes
    assert "kernelId" in html
    assert min(during) >= 3000, f"nginx held only {during} connections: not a 3,000 slowloris"


def test_behind_a_load_balancer_each_client_counts_by_its_own_address(tmp_path):
    """Nginx takes the client's address from the X-Forwarded-For of a
    configured load balancer (``publish.py --trusted-proxy``; here the test itself, on
    loopback) and Voilà trusts nginx's X-Real-IP (``PublishedOnly.trusted_proxies``, as
    publish.py sets it): two clients behind the balancer get a per-address ceiling each, and
    two IPv6 addresses of one /64 count as one client."""
    sys.path.insert(0, str(ROOT / "deploy"))
    from publish import TRUST_NGINX

    from harness import Viewer, start_voila

    log = open(tmp_path / "voila.log", "w")
    voila, voila_base = start_voila(
        "--ViewerKernels.max_kernels_per_address=2",
        "--ViewerKernels.connect_timeout=600",
        *TRUST_NGINX,
        log=log,
    )
    nginx = None
    try:
        nginx, base = start_proxy(voila_base, tmp_path / "nginx", trusted_proxies=["127.0.0.1"])
        viewer = Viewer(base)

        def render(client: str) -> int:
            return viewer.get(
                "/voila/render/index.ipynb", headers={"X-Forwarded-For": client}
            ).status_code

        a = [render("203.0.113.7") for _ in range(3)]
        b = render("198.51.100.20")
        v6 = [render("2001:db8:1:2::1"), render("2001:db8:1:2:aaaa::2"), render("2001:db8:1:3::1")]
        r = viewer.get("/voila/render/index.ipynb", headers={"X-Forwarded-For": "2001:db8:1:2::9"})
        assert (a, b) == ([200, 200, 503], 200), (a, b)
        assert v6 == [200, 200, 200] and r.status_code == 503, (v6, r.status_code)
        assert "from your address" in r.text
        viewer.http.close()  # its kernels go with the server, all at once (stop below)
    finally:
        if nginx is not None:
            stop(nginx)
        stop(voila)
        log.close()
