"""Several Voilà processes behind one nginx: ``deploy/publish.py --workers=2``, as
``make publish WORKERS=2`` runs it, on loopback, with a tiny pool (the English 03 only):

* the landing's choice is nginx's ``split_clients`` of the routing cookie: MurmurHash2 (nginx's
  own, written again here from its source) of the cookie below 50 % of 2^32 -> ``/w0/``; a new
  browser gets a random cookie, and 200 of them spread over both processes;
* eight viewers with their own cookies (four chosen for each process) each get a working page
  (a link's query reaches its kernel, pooled or not; a slider answers); each page's kernel lives
  on the process its prefix names and on no other; closed pages free their kernels on their
  owners within 10 s;
* one process killed (``publish.py`` held meanwhile, so it cannot start it again): its viewers
  see "This view has stopped" with the reopen link (nginx answers 502 for their kernels), the
  other's keep working, a new viewer sent to the dead one is rendered by the other; let go,
  ``publish.py`` starts it again; with every process dead it exits with 1.
"""

from __future__ import annotations

import doctest
import os
import re
import secrets
import signal
import subprocess
import sys
import time

import psutil
import pytest
import requests
from playwright.sync_api import expect

from harness import LOAD_TIMEOUT_MS, READY, ROOT, TIMEOUT, free_port, slider_step, wait_http

HTTP_TIMEOUT = 60
POLL = 0.25  # seconds between two checks (polling, not a wait for a result)
DIVISOR = "03_backgammon_divisor.ipynb"
# Voilà matches the pattern against the notebook's path (publish.py serves "notebooks", a
# relative path): a pool for the English 03 only
ONLY_03 = "--VoilaKernelManager.preheat_denylist=['^(?!(.*/)?notebooks/03_backgammon_divisor)']"
PREFIX = re.compile(r"/(w[01])/voila/render/")
KERNEL = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')

sys.path.insert(0, str(ROOT / "deploy"))
import nginx_site  # noqa: E402
import publish  # noqa: E402


def murmur2(data: bytes) -> int:
    """nginx's ``ngx_murmur_hash2`` (src/core/ngx_murmurhash.c), seed 0, which
    ``split_clients`` hashes its string with."""
    m, h = 0x5BD1E995, len(data) & 0xFFFFFFFF
    while len(data) >= 4:
        k = int.from_bytes(data[:4], "little")
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> 24
        k = (k * m) & 0xFFFFFFFF
        h = ((h * m) & 0xFFFFFFFF) ^ k
        data = data[4:]
    if data:
        for i in reversed(range(len(data))):
            h ^= data[i] << (8 * i)
        h = (h * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    return h ^ (h >> 15)


def process_of(cookie: str) -> str:
    """``split_clients`` with ``50.00% w0; * w1;``: the first part ends at 5000/10000 of
    0xffffffff (ngx_http_split_clients_module.c)."""
    return "w0" if murmur2(cookie.encode()) < 5000 * 0xFFFFFFFF // 10000 else "w1"


def cookies_for(process: str, count: int) -> list[str]:
    found = []
    while len(found) < count:
        cookie = secrets.token_hex(16)
        if process_of(cookie) == process:
            found.append(cookie)
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """``publish.py --workers=2`` on loopback: ``(base URL, publish process, log path)``."""
    folder = tmp_path_factory.mktemp("workers")
    port = free_port()
    log_path = folder / "publish.log"
    log = open(log_path, "w")
    pub = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "deploy" / "publish.py"),
            f"--port={port}",
            "--workers=2",
            "--host=127.0.0.1",
            "--",
            ONLY_03,
            "--ViewerKernels.max_kernels_per_address=20",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base + "/w0/voila/static/voila.js", pub, timeout=180)
        wait_http(base + "/w1/voila/static/voila.js", pub, timeout=180)
        for process in ("w0", "w1"):  # each pool holds its kernel for 03
            deadline = time.monotonic() + 180
            while not kernels_of(voila_of(pub, process)):
                assert time.monotonic() < deadline, f"/{process}/'s pool did not fill"
                time.sleep(POLL)
        yield base, pub, log_path
    finally:
        if pub.poll() is None:
            pub.send_signal(signal.SIGCONT)
            pub.send_signal(signal.SIGINT)
            try:
                pub.wait(timeout=90)
            except subprocess.TimeoutExpired:
                pub.kill()
        log.close()


def voila_of(pub: subprocess.Popen, process: str) -> psutil.Process:
    """The Voilà process serving ``/<process>/`` (a child of publish.py)."""
    for child in psutil.Process(pub.pid).children():
        try:
            if f"--Voila.base_url=/{process}/" in child.cmdline():
                return child
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue  # one killed a moment ago
    raise AssertionError(f"no voila serving /{process}/")


def kernels_of(voila: psutil.Process) -> dict[str, psutil.Process]:
    """The kernels of a Voilà process, by kernel id (their connection file's name)."""
    found = {}
    for child in voila.children(recursive=True):
        try:
            for part in child.cmdline():
                if m := re.search(r"kernel-([0-9a-f-]{36})\.json", part):
                    found[m.group(1)] = child
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return found


def _ended(p: psutil.Process) -> bool:
    try:
        return p.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_the_routing_functions_examples():
    for module, names in (
        (nginx_site, ("worker_prefix", "workers_http", "workers_server")),
        (publish, ("worker_options", "overridden")),
    ):
        for name in names:
            for test in doctest.DocTestFinder().find(
                getattr(module, name), name, globs=vars(module)
            ):
                assert doctest.DocTestRunner().run(test).failed == 0, f"{name}'s examples"


@pytest.mark.parametrize(
    "backends", [["127.0.0.1"], ["127.0.0.1:0"], ["a b:80"], ["127.0.0.1:80"] * 65]
)
def test_backends_are_checked(backends):
    with pytest.raises(ValueError, match="backends"):
        nginx_site.render_config(8080, 8866, ROOT, notebooks=["index.ipynb"], backends=backends)


def test_the_landing_chooses_a_process_by_the_cookie_and_spreads_new_viewers(site):
    base, _, _ = site
    chosen = {"w0": 0, "w1": 0}
    for _ in range(200):
        r = requests.get(base + "/", allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert r.status_code == 302
        cookie = r.cookies.get("ee_route")
        assert re.fullmatch("[0-9a-f]{32}", cookie or ""), r.headers.get("Set-Cookie")
        process = process_of(cookie)
        assert r.headers["Location"] == f"/{process}/voila/render/index.ipynb"
        chosen[process] += 1
    # binomial(200, 1/2): outside 60-140 with probability below 1e-8
    assert 60 <= chosen["w0"] <= 140, chosen
    # a returning browser keeps its process, and an old link without a prefix gets one
    for process in ("w0", "w1"):
        (cookie,) = cookies_for(process, 1)
        r = requests.get(
            f"{base}/voila/render/{DIVISOR}?divisor=800",
            allow_redirects=False,
            cookies={"ee_route": cookie},
            timeout=HTTP_TIMEOUT,
        )
        assert r.status_code == 302 and "Set-Cookie" not in r.headers
        assert r.headers["Location"] == f"/{process}/voila/render/{DIVISOR}?divisor=800"
    # a link to a process there is no longer: a page of one that is
    (cookie,) = cookies_for("w1", 1)
    r = requests.get(
        f"{base}/w7/voila/render/uk/{DIVISOR}?divisor=800",
        allow_redirects=False,
        cookies={"ee_route": cookie},
        timeout=HTTP_TIMEOUT,
    )
    assert r.headers["Location"] == f"/w1/voila/render/uk/{DIVISOR}?divisor=800"
    # nothing is served without a process's prefix, nor under a prefix no process has
    for path in (
        "/voila/static/voila.js",
        "/api/kernels/0f1e2d3c-aaaa-bbbb-cccc-123456789abc",
        "/w2/voila/static/voila.js",
        "/w0/w1/voila/static/voila.js",
        "/w0/voila/api/contents",
        "/w1/voila/render/secret.ipynb",
    ):
        assert requests.get(base + path, timeout=HTTP_TIMEOUT).status_code == 404, path


def _win_rate(difference: float, divisor: float) -> str:
    """The logistic expected score (Greek document, version history), one decimal."""
    return f"{100 / (1 + 10 ** (-difference / divisor)):.1f} %"


def test_eight_viewers_on_two_processes_a_killed_one_and_publish_starting_it_again(site, browser):
    base, pub, log_path = site
    # four viewers for each process, opened two at a time (one on each: a loaded 2-core
    # machine renders eight at once slower than a page's load timeout)
    cookies = [c for pair in zip(cookies_for("w0", 4), cookies_for("w1", 4)) for c in pair]
    viewers = []  # (context, page, process, kernel id)
    try:
        for cookie in cookies:
            context = browser.new_context(viewport={"width": 1280, "height": 1000})
            context.add_cookies([{"name": "ee_route", "value": cookie, "url": base}])
            page = context.new_page()
            page.goto(
                f"{base}/voila/render/{DIVISOR}?divisor=800",
                timeout=LOAD_TIMEOUT_MS,
                wait_until="commit",
            )
            viewers.append([context, page, process_of(cookie), None])
            if len(viewers) % 2 == 0:
                for _, opened, _, _ in viewers[-2:]:
                    opened.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
        for viewer in viewers:
            context, page, process, _ = viewer
            assert PREFIX.search(page.url).group(1) == process, page.url
            kernel = KERNEL.search(page.content()).group(1)
            viewer[3] = kernel
            summary = page.locator(".ee-summary")
            expect(summary).to_contain_text(
                f"300 points up, ÷800: expected win rate {_win_rate(300, 800)}", timeout=TIMEOUT
            )
            slider_step(page, ".ee-divisor-slider", "ArrowRight")  # over the websocket
            expect(summary).to_contain_text(
                f"÷850: expected win rate {_win_rate(300, 850)}", timeout=TIMEOUT
            )
            # the page's kernel lives on the process its prefix names, and on no other
            other = "w1" if process == "w0" else "w0"
            assert (
                requests.get(
                    f"{base}/{process}/api/kernels/{kernel}", timeout=HTTP_TIMEOUT
                ).status_code
                == 200
            )
            assert (
                requests.get(
                    f"{base}/{other}/api/kernels/{kernel}", timeout=HTTP_TIMEOUT
                ).status_code
                == 404
            )
        assert {v[2] for v in viewers} == {"w0", "w1"}
        # each process handed its pooled kernel to its first viewer: the link's query reached
        # it over its own process's query socket (÷800 above, not the notebook's ÷1200)
        for process in ("w0", "w1"):
            kernels = kernels_of(voila_of(pub, process))
            pooled = [
                v[3]
                for v in viewers
                if v[2] == process
                and v[3] in kernels
                and kernels[v[3]].environ().get("VOILA_PREHEAT") == "True"
            ]
            assert pooled, f"no viewer of /{process}/ got its pooled kernel"

        # two pages close (their beacon reaches their owner): their kernels go within 10 s
        for viewer in (viewers.pop(0), viewers.pop()):
            context, page, process, kernel = viewer
            page.close(run_before_unload=True)
            context.close()
            closed = time.monotonic()
            while (
                requests.get(
                    f"{base}/{process}/api/kernels/{kernel}", timeout=HTTP_TIMEOUT
                ).status_code
                != 404
            ):
                assert time.monotonic() - closed < 10, f"{kernel} lived 10 s on /{process}/"
                time.sleep(POLL)

        # /w1/'s process is killed while publish.py is held (it cannot start it again yet)
        pub.send_signal(signal.SIGSTOP)
        victim = voila_of(pub, "w1")
        victim.send_signal(signal.SIGKILL)
        for _context, page, process, kernel in viewers:
            if process == "w1":
                notice = page.locator(".ee-lost")
                expect(notice).to_be_visible(timeout=TIMEOUT)
                expect(notice).to_contain_text("This view has stopped.")
                expect(notice.locator("a.ee-reopen")).to_have_attribute(
                    "href", re.compile(re.escape(f"{base}/w1/voila/render/{DIVISOR}?divisor=850"))
                )
                assert (
                    requests.get(
                        f"{base}/w1/api/kernels/{kernel}", timeout=HTTP_TIMEOUT
                    ).status_code
                    == 502
                )
        for _context, page, process, _kernel in viewers:
            if process == "w0":  # the other process's viewers keep working
                expect(page.locator(".ee-lost")).to_have_count(0)
                slider_step(page, ".ee-divisor-slider", "ArrowLeft")
                expect(page.locator(".ee-summary")).to_contain_text("÷800", timeout=TIMEOUT)
        # a new viewer sent to the dead process is rendered by the other
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        context.add_cookies([{"name": "ee_route", "value": cookies_for("w1", 1)[0], "url": base}])
        page = context.new_page()
        viewers.append([context, page, "w0", None])
        page.goto(f"{base}/", timeout=LOAD_TIMEOUT_MS, wait_until="commit")
        page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
        assert page.url == f"{base}/w0/voila/render/index.ipynb"

        # let go, publish.py starts /w1/'s process again; it renders pages
        pub.send_signal(signal.SIGCONT)
        wait_http(base + "/w1/voila/static/voila.js", pub, timeout=180)
        deadline = time.monotonic() + 180
        while (
            r := requests.get(f"{base}/w1/voila/render/index.ipynb", timeout=HTTP_TIMEOUT)
        ).status_code != 200:
            assert time.monotonic() < deadline, f"/w1/ answers {r.status_code} after its restart"
            time.sleep(POLL)
        assert "starting it again" in log_path.read_text()
    finally:
        for context, *_ in viewers:
            context.close()

    # every process dead at once (publish.py held meanwhile): it stops nginx and exits with 1
    (nginx,) = [c for c in psutil.Process(pub.pid).children() if c.name() == "nginx"]
    pub.send_signal(signal.SIGSTOP)
    dead = [voila_of(pub, process) for process in ("w0", "w1")]
    for voila in dead:
        voila.send_signal(signal.SIGKILL)
    # both gone before publish.py looks again: one it found dead while the other still ran
    # would be started again (a loaded machine takes a while to end a process)
    deadline = time.monotonic() + 30
    while not all(_ended(voila) for voila in dead):
        assert time.monotonic() < deadline, "a killed voila still runs"
        time.sleep(POLL)
    pub.send_signal(signal.SIGCONT)
    assert pub.wait(timeout=90) == 1
    assert "every voila exited" in log_path.read_text()
    assert not nginx.is_running() or nginx.status() == psutil.STATUS_ZOMBIE
