"""The published site on JupyterHub (deploy/hub/, ``make hub``), on loopback.

Eight anonymous visitors, each in a browser context of their own: the first comes to the
site's root (the landing page), opens 03, moves its slider and copies its link; the seven
others open that link. Each gets a temporary user and a server of their own showing the same
view, whose slider answers. Then: a ninth visitor gets the busy page; nothing one visitor
sends reaches another's server or the hub's API; each server runs in a control group with the
memory and CPU ceilings set here (EE_HUB_MEM, EE_HUB_CPUS), where a process past the memory
ceiling is killed and the other visitors go on; a killed server's page says "This view has
stopped" and its reopen link brings the view back; after the idle time every server is gone,
kernels and control groups included. The culler's times are made small here (EE_HUB_CULL_*).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import requests
from playwright.sync_api import expect

from harness import LOAD_TIMEOUT_MS, READY, ROOT, TIMEOUT, free_port, slider_step

HUB = ROOT / "deploy" / "hub"
CHP = HUB / "node_modules" / ".bin" / "configurable-http-proxy"
DIVISOR = "03_backgammon_divisor.ipynb"
VISITORS = 8
# an open page keeps its server: its kernel websocket's keep-alive ping (jupyter_server's
# ws_ping_interval, 30 s) passes the proxy, which counts it as the route's activity. The idle
# time outlasts one ping, so the first visitors' servers stay while the others are served.
CULL_TIMEOUT, CULL_EVERY, ACTIVITY = 40, 2, 2
# a server goes within the idle time, one look of the culler's, one reading of the proxy's
# activity, and the stops before it: jupyterhub-idle-culler 2.0.0 awaits each user's cull in
# turn, and a stop (a kill of the server's processes, visitors.VisitorSpawner.stop, and the
# hub's own bookkeeping) took 1.7-2.0 s each here
CULLED_WITHIN = CULL_TIMEOUT + CULL_EVERY + ACTIVITY + VISITORS * 3
MEM_BYTES, CPUS = 1 << 30, 1.0
CGROUPS = Path("/sys/fs/cgroup")
HTTP = 10


def _prefixed(state: Path, prefix: str) -> list[psutil.Process]:
    """The processes a server of this test's hub started: its JUPYTERHUB_SERVICE_PREFIX, and
    a HOME in the hub's state folder (another hub may run beside it)."""
    found = []
    for proc in psutil.process_iter():
        try:
            env = proc.environ()
            if env.get("JUPYTERHUB_SERVICE_PREFIX", "").startswith(prefix) and env.get(
                "HOME", ""
            ).startswith(f"{state}{os.sep}"):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def _server_of(state: Path, user: str) -> list[psutil.Process]:
    """A visitor's server and its descendants (fork server, kernels), from the pid the hub's
    spawner recorded in its state (LocalProcessSpawner.get_state: ``{"pid": ...}``)."""
    with sqlite3.connect(state / "jupyterhub.sqlite") as db:
        rows = db.execute(
            "SELECT spawners.state FROM spawners JOIN users ON spawners.user_id = users.id"
            " WHERE users.name = ? AND spawners.name = ''",
            (user,),
        ).fetchall()
    family = []
    for pid in filter(None, (json.loads(row[0] or "{}").get("pid") for row in rows)):
        try:
            server = psutil.Process(pid)
            family += [server, *server.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
    return family


def _cgroup_of(pid: int, hierarchy: str) -> str:
    """The control group of ``pid`` in a cgroup v1 hierarchy (/proc/<pid>/cgroup)."""
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if hierarchy in controllers.split(","):
            return path
    return ""


def _win_rate(difference: float, divisor: float) -> str:
    # the favourite's expected score with the page's divisor: 1 / (1 + 10^(-D / divisor))
    return f"{100 / (1 + 10 ** (-difference / divisor)):.1f} %"


def _shows(page, divisor: int) -> None:
    expect(page.locator(".ee-summary")).to_contain_text(
        f"÷{divisor}: expected win rate {_win_rate(300, divisor)}", timeout=TIMEOUT
    )


def _user_of(url: str) -> str:
    return url.split("/user/", 1)[1].split("/", 1)[0]


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    try:
        import jupyterhub  # noqa: F401
        import jupyterhub_idle_culler  # noqa: F401
        import tmpauthenticator  # noqa: F401
    except ImportError as e:
        pytest.fail(f"the hub's packages are missing ({e}): pip install the 'hub' extra")
    if not CHP.exists() or shutil.which("node") is None:
        pytest.fail(f"{CHP} is missing: npm ci --prefix deploy/hub (make hub does it)")
    folder = tmp_path_factory.mktemp("hub")
    port = free_port()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "EE_HUB_STATE": str(folder / "state"),
        "EE_HUB_PORT": str(port),
        "EE_HUB_API_PORT": str(free_port()),
        "EE_HUB_HUB_PORT": str(free_port()),
        "EE_HUB_MAX_SERVERS": str(VISITORS),
        "EE_HUB_CULL_TIMEOUT": str(CULL_TIMEOUT),
        "EE_HUB_CULL_EVERY": str(CULL_EVERY),
        "EE_HUB_ACTIVITY": str(ACTIVITY),
        "EE_HUB_MEM": str(MEM_BYTES),
        "EE_HUB_CPUS": str(CPUS),
        "PYTHONUNBUFFERED": "1",
    }
    log = open(folder / "hub.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(HUB / "jupyterhub_config.py")],
        cwd=folder,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, f"jupyterhub exited: {(folder / 'hub.log').read_text()[-3000:]}"
        try:
            if requests.get(base + "/hub/health", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            pass
        assert time.monotonic() < deadline, "jupyterhub did not answer in 60 s"
        time.sleep(0.2)  # a readiness probe's interval
    yield base, folder / "state"
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    log.close()
    for left in _prefixed(folder / "state", "/user/"):
        try:
            left.kill()
        except psutil.NoSuchProcess:
            continue


@pytest.fixture(scope="module")
def visitors(hub, browser):
    """The eight visitors' (context, page, user), their pages showing 03 at ÷850 (the first
    one's) or ÷900 (the others'), and the link the first one copied."""
    base, _ = hub
    opened = []

    def new_page():
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        opened.append(context)
        return context, context.new_page()

    # the first: the site's root sends a new visitor to the landing page of their own server
    context, page = new_page()
    page.goto(base + "/", timeout=LOAD_TIMEOUT_MS, wait_until="commit")
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/voila/render/index.ipynb"), page.url
    first = _user_of(page.url)
    page.goto(f"{base}/user/{first}/voila/render/{DIVISOR}?divisor=800", wait_until="commit")
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    _shows(page, 800)
    slider_step(page, ".ee-divisor-slider", "ArrowRight")  # over the websocket
    _shows(page, 850)
    href = page.locator("a.ee-link").get_attribute("href")
    assert href.startswith("?") and "divisor=850" in href, href
    page.locator("button.ee-copy").click()
    expect(page.locator("button.ee-copy")).to_have_text("Link copied", timeout=TIMEOUT)
    link = page.evaluate("() => navigator.clipboard.readText()")
    # anyone's own server, not the first visitor's (which refuses everyone else)
    assert link == f"{base}/hub/user-redirect/voila/render/{DIVISOR}{href}", link
    served = [(context, page, first)]

    # the seven others open that link, four then three at once
    for batch in (range(4), range(3)):
        arriving = [new_page() for _ in batch]
        for _, page in arriving:
            page.goto(link, timeout=LOAD_TIMEOUT_MS, wait_until="commit")
        for context, page in arriving:
            page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
            assert f"/voila/render/{DIVISOR}?" in page.url and "divisor=850" in page.url
            _shows(page, 850)  # the link's view
            slider_step(page, ".ee-divisor-slider", "ArrowRight")
            _shows(page, 900)
            served.append((context, page, _user_of(page.url)))
    yield served, link
    for context in opened:
        context.close()


def test_each_visitor_has_a_server_of_their_own(hub, visitors):
    _, state = hub
    served, _ = visitors
    users = [user for _, _, user in served]
    assert len(set(users)) == VISITORS, users
    for user in users:
        family = _server_of(state, user)
        assert family and "elo_explain.server" in " ".join(family[0].cmdline()), (user, family)
        # its processes carry its own prefix, what the spawner's stop ends
        assert {p.pid for p in family} <= {p.pid for p in _prefixed(state, f"/user/{user}/")}


def test_past_the_cap_a_new_visitor_gets_the_busy_page_in_the_links_language(
    hub, visitors, browser
):
    base, _ = hub
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        answer = page.goto(base + "/", timeout=LOAD_TIMEOUT_MS)
        assert answer.status == 429, answer.status
        assert answer.headers.get("retry-after") == "60"
        expect(page.locator("h1")).to_have_text("The site is busy — try again in a minute")
        # a link to a Ukrainian page: the same page in Ukrainian
        answer = page.goto(f"{base}/hub/user-redirect/voila/render/uk/{DIVISOR}")
        assert answer.status == 429, answer.status
        assert page.locator("html").get_attribute("lang") == "uk"
        expect(page.locator("main")).to_contain_text("багато людей")
        home = page.locator("main a").nth(1).get_attribute("href")
        assert home == "/hub/user-redirect/voila/render/uk/index.ipynb", home
    finally:
        context.close()


def test_nothing_a_visitor_sends_reaches_another_or_the_hub(hub, visitors):
    base, _ = hub
    served, _ = visitors
    (ctx_a, _, a), (_, _, b) = served[-2], served[-1]
    # A's cookies at B's prefix: the hub refuses A's OAuth for B's server
    answer = ctx_a.request.get(f"{base}/user/{b}/voila/render/index.ipynb")
    assert answer.status == 403, (answer.status, answer.url)
    # a forged cookie of B's: B's server sends the request to the hub's login, shows nothing
    forged = requests.get(
        f"{base}/user/{b}/voila/render/index.ipynb",
        cookies={f"jupyterhub-user-{b}": "2|forged|cookie", "jupyterhub-hub-login": "forged"},
        allow_redirects=False,
        timeout=HTTP,
    )
    assert forged.status_code == 302 and "/hub/api/oauth2/authorize" in forged.headers["Location"]
    # the kernel API and websocket of B's server without B's cookie: 403, no redirect
    for path in ("api/kernels/0f1e2d3c-aaaa-bbbb-cccc-123456789abc", "voila/api/shutdown/x"):
        refused = requests.get(f"{base}/user/{b}/{path}", allow_redirects=False, timeout=HTTP)
        assert refused.status_code == 403, (path, refused.status_code)
    # the hub's API with a visitor's own hub cookie: nothing to list, start or stop
    for method, path in (
        ("GET", "/hub/api/users"),
        ("GET", f"/hub/api/users/{b}"),
        ("DELETE", f"/hub/api/users/{b}/server"),
        ("POST", f"/hub/api/users/{b}/server"),
        ("GET", "/hub/api/proxy"),
    ):
        answer = ctx_a.request.fetch(
            base + path, method=method, headers={"Referer": base + "/hub/"}
        )
        assert answer.status in (403, 404), (method, path, answer.status)
    # what is not the site on a visitor's own server: refused, as with make publish
    for path in ("voila/api/contents", "voila/render/../pyproject.toml", "lab", "api/contents"):
        answer = ctx_a.request.get(f"{base}/user/{a}/{path}", max_redirects=0)
        assert answer.status == 404, (path, answer.status)


def test_each_server_has_its_ceilings_and_one_past_them_harms_no_other(hub, visitors):
    _, state = hub
    served, _ = visitors
    for _, _, user in served:
        for proc in _server_of(state, user):
            for hierarchy in ("memory", "cpu"):
                assert _cgroup_of(proc.pid, hierarchy) == f"/elo-explain-hub/{user}", proc.cmdline()
        group = f"elo-explain-hub/{user}"
        assert int((CGROUPS / "memory" / group / "memory.limit_in_bytes").read_text()) == MEM_BYTES
        quota = int((CGROUPS / "cpu" / group / "cpu.cfs_quota_us").read_text())
        period = int((CGROUPS / "cpu" / group / "cpu.cfs_period_us").read_text())
        assert quota == CPUS * period, (quota, period)

    # a process of the first visitor's group that takes 2 GiB: the kernel's OOM killer ends
    # it at the group's 1 GiB; the visitor's server and the others' go on
    _, page, user = served[0]
    procs = CGROUPS / "memory" / f"elo-explain-hub/{user}" / "cgroup.procs"
    hog = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys; open(sys.argv[1], 'w').write(str(os.getpid())); b = b'x' * (2 << 30)",
            str(procs),
        ],
        timeout=60,
    )
    assert hog.returncode == -signal.SIGKILL, hog.returncode
    oom = dict(
        line.split() for line in (procs.parent / "memory.oom_control").read_text().splitlines()
    )
    used = int((procs.parent / "memory.max_usage_in_bytes").read_text())
    assert int(oom["oom_kill"]) >= 1 and used <= MEM_BYTES, (oom, used)
    assert all(p.is_running() for p in _server_of(state, user))
    slider_step(page, ".ee-divisor-slider", "ArrowRight")
    _shows(page, 900)
    _, other, _ = served[1]
    slider_step(other, ".ee-divisor-slider", "ArrowRight")
    _shows(other, 950)


def test_a_killed_servers_page_says_so_and_its_link_brings_the_view_back(hub, visitors):
    base, state = hub
    served, _ = visitors
    _, page, user = served[-1]
    for proc in _server_of(state, user):
        proc.kill()
    notice = page.locator(".ee-lost")
    expect(notice).to_be_visible(timeout=TIMEOUT)
    expect(notice).to_contain_text("This view has stopped.")
    reopen = notice.locator("a.ee-reopen")
    href = reopen.get_attribute("href")
    assert href.startswith(f"{base}/hub/user-redirect/voila/render/{DIVISOR}?"), href
    assert "divisor=900" in href, href
    reopen.click()  # the hub starts the visitor's server again
    page.wait_for_selector(READY, state="visible", timeout=LOAD_TIMEOUT_MS)
    assert _user_of(page.url) == user, page.url
    _shows(page, 900)
    assert _server_of(state, user)


def test_when_the_visitors_leave_their_servers_go_within_the_idle_time(hub, visitors):
    _, state = hub
    served, _ = visitors
    users = [user for _, _, user in served]
    assert all(_server_of(state, u) for u in users), "a server went while its page was open"
    left_at = time.monotonic()
    for context, _, _ in served:
        context.close()

    def left() -> list:
        """What is still there: processes of the visitors' servers, their control groups (a
        stop removes them after its processes are reaped)."""
        groups = [
            CGROUPS / hierarchy / "elo-explain-hub" / user
            for user in users
            for hierarchy in ("memory", "cpu")
        ]
        return [p.pid for p in _prefixed(state, "/user/")] + [str(g) for g in groups if g.exists()]

    while left() and time.monotonic() - left_at < CULLED_WITHIN + 30:
        time.sleep(0.5)  # polling the process table and the control groups
    gone = time.monotonic() - left_at
    print(
        f"every server, its processes and control groups gone {gone:.1f} s after the pages closed"
    )
    assert not left(), left()
    assert gone < CULLED_WITHIN, gone
