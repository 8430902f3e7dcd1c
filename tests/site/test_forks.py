"""Kernels forked from the fork server (``elo_explain.server.forks``), as the published site
starts them: each is a kernel of its own, and none outlives what started it.

No browser: a render (an HTTP GET of a page) starts its kernel and runs the notebook; a
client on the kernel's connection file asks the kernel what it is; the page's shutdown
beacon (with its token) closes it. The server waits 10 s for a fork server that does not
answer (60 s published).
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import psutil
import pytest
from jupyter_client import BlockingKernelClient

from elo_explain.server.forks import _Forked
from harness import NOTEBOOKS, kernel_pids, start_voila, stop, tracebacks

# what a kernel says of itself (run in it through its connection file)
ASK = """import json, os, numpy
print(json.dumps({"query": os.environ.get("QUERY_STRING"), "cwd": os.getcwd(),
                  "ppid": os.getppid(), "sid": os.getsid(0), "random": numpy.random.random(),
                  "fds": sorted(os.readlink(f"/proc/self/fd/{fd}")
                                for fd in os.listdir("/proc/self/fd")
                                if os.path.exists(f"/proc/self/fd/{fd}"))}))"""
WITHIN = 15.0  # seconds for a process to end (ipykernel's parent poller looks every second)
ANSWER_TIMEOUT = 10  # seconds the server waits for its fork server (published: 60)


@pytest.fixture
def server(tmp_path):
    log = open(tmp_path / "voila.log", "w")
    proc, base = start_voila(f"--ForkedKernel.answer_timeout={ANSWER_TIMEOUT}", log=log)
    yield proc, base
    stop(proc)
    log.close()
    text = (tmp_path / "voila.log").read_text()
    assert tracebacks(text) == [], tracebacks(text)[0][:3000]


def _render(proc, base: str, notebook: str) -> tuple[str, psutil.Process, dict]:
    """Render ``notebook`` (its kernel stays for the server's ``connect_timeout``, 30 s):
    the page's HTML, its kernel's process and its page config."""
    before = kernel_pids(proc)
    with urllib.request.urlopen(f"{base}/voila/render/{notebook}", timeout=120) as response:
        html = response.read().decode()
    config = json.loads(
        re.search(
            r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    (pid,) = [
        p
        for p in kernel_pids(proc) - before
        if config["kernelId"] in " ".join(psutil.Process(p).cmdline())
    ]
    return html, psutil.Process(pid), config


def _close(base: str, config: dict) -> None:
    """What the page's shutdown beacon does as its tab closes (with the page's token)."""
    body = urllib.parse.urlencode({"ee_token": config["eePageToken"]}).encode()
    request = urllib.request.Request(
        f"{base}/voila/api/shutdown/{config['kernelId']}", data=body, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 204


def _ask(kernel: psutil.Process) -> dict:
    args = kernel.cmdline()
    client = BlockingKernelClient()
    client.load_connection_file(args[args.index("-f") + 1])
    client.start_channels()
    said: list[str] = []
    try:
        client.execute_interactive(
            ASK, timeout=60, output_hook=lambda m: said.append(m["content"].get("text", ""))
        )
    finally:
        client.stop_channels()
    return json.loads("".join(said))


def _ended(process: psutil.Process, what: str, *, reaped: bool = True) -> None:
    """``process`` ends within WITHIN seconds, and is reaped (no zombie left; ``reaped``
    false: a process whose parent was killed, which its new parent reaps, may stay a zombie)."""
    deadline = time.monotonic() + WITHIN
    while True:
        try:
            status = process.status()
        except psutil.NoSuchProcess:
            return
        if not reaped and status == psutil.STATUS_ZOMBIE:
            return
        assert time.monotonic() < deadline, f"{what} still there: {status}"
        time.sleep(0.2)  # polling interval


def _fork_server(proc) -> psutil.Process:
    (forks,) = [
        p
        for p in psutil.Process(proc.pid).children()
        if "elo_explain.server.forks" in " ".join(p.cmdline())
    ]
    return forks


def test_a_forked_kernel_is_a_kernel_of_its_own_and_is_reaped(server):
    proc, base = server
    html, first, first_page = _render(proc, base, "03_backgammon_divisor.ipynb?divisor=1000")
    assert "1000" in html
    forks = _fork_server(proc)
    _, second, second_page = _render(proc, base, "uk/03_backgammon_divisor.ipynb?difference=200")
    # the command line it would have been started with, its parent the fork server
    for kernel in (first, second):
        args = kernel.cmdline()
        assert args[args.index("-m") + 1] == "ipykernel_launcher"
        assert re.search(r"kernel-[0-9a-f-]{36}\.json$", args[args.index("-f") + 1])
        assert "--HistoryManager.enabled=False" in args
        assert kernel.ppid() == forks.pid
        assert kernel.rlimit(resource.RLIMIT_DATA) == (2**30, 2**30)
    a, b = _ask(first), _ask(second)
    # its own request's environment and folder, its own session (signals reach its group)
    assert a["query"] == "divisor=1000" and b["query"] == "difference=200"
    assert a["cwd"] == str(NOTEBOOKS) and b["cwd"] == str(NOTEBOOKS / "uk")
    assert a["sid"] == first.pid and b["sid"] == second.pid
    assert a["ppid"] == forks.pid
    # numpy's random state is its own (a fork would copy the fork server's): the same
    # notebook, the same draws, different numbers
    assert a["random"] != b["random"]
    # none of the fork server's descriptors: its socket is not the kernel's
    theirs = {
        os.readlink(f"/proc/{forks.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{forks.pid}/fd")
    } - {os.readlink(f"/proc/{forks.pid}/fd/{fd}") for fd in "012"}
    sockets = {t for t in theirs if t.startswith("socket:")}
    assert sockets and not sockets & set(a["fds"])
    # their pages closed: the server shuts them down, the fork server reaps them (no zombie)
    _close(base, first_page)
    _close(base, second_page)
    _ended(first, "a closed page's kernel")
    _ended(second, "a closed page's kernel")
    assert forks.is_running()


def test_no_process_outlives_the_one_that_started_it(server):
    proc, base = server
    _, first, _ = _render(proc, base, "index.ipynb")
    stuck = _fork_server(proc)
    # a fork server that stops answering: killed after its answer timeout, and the page is
    # forked by a new one
    stuck.send_signal(signal.SIGSTOP)
    t0 = time.monotonic()
    html, second, _ = _render(proc, base, "02_fide_rules.ipynb")
    assert "FIDE" in html and time.monotonic() - t0 >= ANSWER_TIMEOUT
    _ended(stuck, "a fork server that stopped answering")
    _ended(first, "a kernel of a killed fork server", reaped=False)
    forks = _fork_server(proc)
    assert forks.pid != stuck.pid and second.ppid() == forks.pid
    # the fork server killed: its kernels end; the next page gets a new fork server
    forks.send_signal(signal.SIGKILL)
    _ended(second, "a kernel of a killed fork server", reaped=False)
    html, third, _ = _render(proc, base, "04_doubling_cube.ipynb")
    assert "Doubling cube" in html
    again = _fork_server(proc)
    assert again.pid != forks.pid and third.ppid() == again.pid
    # the server killed (no shutdown of its own): the fork server and its kernel end
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    _ended(again, "the fork server of a killed server", reaped=False)
    _ended(third, "a kernel of a killed server", reaped=False)


def test_a_kernel_is_watched_past_select_s_1024_descriptors():
    """A busy server holds more than 1,024 descriptors (websockets, kernels' sockets): the
    forked kernel's pidfd is one of them, and its end is still seen."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        pidfd = os.pidfd_open(child.pid)
        high = os.dup2(pidfd, 2000)
        os.close(pidfd)
        kernel = _Forked(child.pid, high)
        assert kernel.poll() is None
        kernel.terminate()
        assert kernel.wait(timeout=10) == 0 and kernel.poll() == 0
    finally:
        child.kill()
        child.wait()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
