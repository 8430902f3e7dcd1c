"""What a remote viewer waits for: direct Voilà against nginx (``deploy/``) over an emulated link.

One ``voila`` with the published configuration (``voila.json``: preheated pool of one
kernel per notebook) and, in front of the same server, nginx as ``make publish`` runs it,
plain HTTP/1.1 and TLS with HTTP/2 (a self-signed certificate).  Headless Chromium
emulates a remote link through the DevTools protocol (``Network.emulateNetworkConditions``:
20 Mbit/s down, 5 Mbit/s up, 40 ms latency).  For the landing page and every dashboard,
for each way in, in the same run and one after the other:

* first visit -- a new browser context (empty cache): time from navigation to the
  dashboard's ``.ee-ready`` being visible, and bytes on the wire (the sum of
  ``encodedDataLength`` of ``Network.loadingFinished``: headers and bodies as
  transferred, compressed when compressed) until the page's load event;
* repeat visit -- a second page in the same context (the browser cache is warm): the same
  two figures, plus the cacheable assets (Voilà's static files, extensions, template
  assets) fetched again with a body (200 not from the cache) and those revalidated (304).

Before every visit the preheated pool has its kernel for that notebook again (the page
took one; the benchmark waits for Voilà's "pool is filled" line and then until the kernels
are idle), so every visit gets a kernel that already ran its notebook, as a viewer of the
published site does.  Each left
page is navigated away, so its unload beacon shuts its kernel down.

Capacity, measured through nginx without the emulated link: for every dashboard, the
memory of the kernel a viewer holds (RSS, and USS: the pages no other process shares), the
CPU a page view costs (the kernel's CPU time when the page is ready: its start and
notebook run, done in the pool before the viewer came), and the CPU one slider move costs
(kernel + Voilà + nginx, over ``MOVES`` moves, each waited for until the numbers and plot
changed) -- turned into viewers per 24 GiB, 2-core machine with the preheated pool counted.

Run: ``.venv/bin/python benchmarks/remote_link.py`` (writes ``benchmarks/REMOTE.md``).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_dashboards import _slider_latency, _wait_pool_idle  # noqa: E402  (same waits)

from elo_explain.server.gate import published_notebooks  # noqa: E402
from harness import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    READY,
    self_signed_cert,
    start_proxy,
    start_voila,
    stop,
)

OUT = Path(__file__).resolve().parent / "REMOTE.md"
LINK = {
    "offline": False,
    "latency": 40,  # ms, added to every round trip
    "downloadThroughput": 20e6 / 8,
    "uploadThroughput": 5e6 / 8,
}  # bytes per second
TIMEOUT_MS = 90_000  # a visit not ready by then is counted as failed (and reported)
POOL_S = 300  # the pool refills one notebook run; generous on a shared 2-core machine
POLL = 0.25  # seconds between two reads of Voilà's log (polling, not a wait for a result)
CACHEABLE = re.compile(r"/voila/(static|labextensions|templates)/")
FILLED = re.compile(r"Kernel pool of \S+ is filled")
KERNEL_WS = re.compile(r"/api/kernels/([0-9a-f-]{36})/channels")
MOVES = 10  # slider moves per dashboard for its CPU cost
MACHINE_GIB = 24
CORES = 2
RESERVE_GIB = 2.0  # the system, Chromium-free server: Voilà, nginx, page cache headroom
CPU_BUDGET = 0.7  # of the cores, so a burst does not queue every viewer


class Pool:
    """Voilà's log, to wait until the preheated pool has refilled behind a visit, and the
    kernels' CPU, to wait until the refill has run its notebook (Voilà logs "filled" when
    the kernel has started, not when its notebook has run)."""

    def __init__(self, log: Path, voila, size: int):
        import psutil

        self.log, self.voila, self.fills, self.size = log, voila, 0, size
        self.server = psutil.Process(voila.pid)

    def _count(self) -> int:
        return len(FILLED.findall(self.log.read_text(errors="replace")))

    def wait(self, expected: int) -> None:
        deadline = time.monotonic() + POOL_S
        while self._count() < expected:
            if self.voila.poll() is not None:
                raise RuntimeError("voila exited")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the kernel pool did not refill within {POOL_S} s")
            time.sleep(POLL)
        self.fills = expected
        _wait_pool_idle(self.server, self.size, timeout=POOL_S)


def visit(context, url: str) -> dict:
    """One page view over the emulated link; returns its figures."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", LINK)
    urls: dict[str, str] = {}
    wire_status: dict[str, int] = {}  # the status that came over the network (none: from the cache)
    finished: dict[str, int] = {}
    ws = [0]
    cdp.on(
        "Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"])
    )
    cdp.on(
        "Network.responseReceivedExtraInfo",
        lambda e: wire_status.__setitem__(e["requestId"], e["statusCode"]),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: finished.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    cdp.on(
        "Network.webSocketFrameReceived",
        lambda e: ws.__setitem__(0, ws[0] + len(e["response"]["payloadData"])),
    )

    from playwright.sync_api import Error as PlaywrightError

    t0 = time.perf_counter()
    try:
        page.goto(url, timeout=TIMEOUT_MS, wait_until="commit")
        page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
        ready = time.perf_counter() - t0
        page.wait_for_load_state("load", timeout=TIMEOUT_MS)
    except PlaywrightError as exc:
        views = page.content().count("application/vnd.jupyter.widget-view+json")
        pending = [u for rid, u in urls.items() if rid not in finished]
        print(
            f"FAILED {url}: {str(exc).splitlines()[0][:120]}; widget views in the page: "
            f"{views}; requests not finished: {pending[:4]}",
            flush=True,
        )
        page.goto("about:blank")
        page.close()
        return None
    cacheable = [rid for rid, u in urls.items() if CACHEABLE.search(u)]
    result = {
        "ready_s": ready,
        "bytes": sum(finished.values()),
        "ws_bytes": ws[0],
        "requests": len(urls),
        "refetched": sum(wire_status.get(rid) == 200 for rid in cacheable),
        "revalidated": sum(wire_status.get(rid) == 304 for rid in cacheable),
    }
    page.goto("about:blank")  # the page's unload beacon shuts its kernel down
    page.close()
    return result


def _cpu(proc) -> float:
    t = proc.cpu_times()
    return t.user + t.system


def capacity(browser, base: str, voila, nginx, pool: Pool, pages: int | None = None) -> list[dict]:
    """Per dashboard, through nginx: kernel memory, CPU of a page view and of a slider move."""
    import psutil

    server, proxy = psutil.Process(voila.pid), psutil.Process(nginx.pid)
    rows = []
    for nb in published_notebooks()[1:pages]:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        sockets = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        try:
            page.goto(f"{base}/voila/render/{nb}", timeout=TIMEOUT_MS, wait_until="commit")
            page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
            page.wait_for_load_state("load", timeout=TIMEOUT_MS)
        except Exception as exc:  # noqa: BLE001 - reported, the other dashboards still measured
            print(f"FAILED capacity {nb}: {str(exc).splitlines()[0][:120]}", flush=True)
            pool.wait(pool.fills + 1)
            context.close()
            continue
        kernel_id = next(m.group(1) for u in sockets if (m := KERNEL_WS.search(u)))
        kernel = next(
            k
            for k in server.children(recursive=True)
            if any(kernel_id in part for part in k.cmdline())
        )
        pool.wait(pool.fills + 1)  # the refill's CPU is not counted in the moves
        mem = kernel.memory_full_info()
        row = {"notebook": nb, "rss": mem.rss, "uss": mem.uss, "view_cpu": _cpu(kernel)}
        workers = proxy.children()
        before = _cpu(kernel), _cpu(server), sum(_cpu(w) for w in workers)
        moved = 0
        for _ in range(MOVES):
            if _slider_latency(page, nb) is not None:
                moved += 1
        after = _cpu(kernel), _cpu(server), sum(_cpu(w) for w in workers)
        row.update(
            moves=moved,
            kernel_move=(after[0] - before[0]) / max(moved, 1),
            voila_move=(after[1] - before[1]) / max(moved, 1),
            nginx_move=(after[2] - before[2]) / max(moved, 1),
        )
        rows.append(row)
        print(
            f"{nb:32s} RSS {mem.rss / 2**20:.0f} MiB USS {mem.uss / 2**20:.0f} MiB, page "
            f"{row['view_cpu']:.2f} CPU-s, move {1e3 * row['kernel_move']:.0f} + "
            f"{1e3 * row['voila_move']:.0f} + {1e3 * row['nginx_move']:.1f} ms CPU "
            f"({moved}/{MOVES} moves answered)",
            flush=True,
        )
        page.goto("about:blank")
        page.close()
        context.close()
    return rows


def _spki(cert: Path) -> str:
    """The certificate's public-key hash, for Chromium's --ignore-certificate-errors-spki-list:
    the self-signed certificate is then trusted like a real one (Chromium keeps nothing in its
    HTTP cache from a host whose certificate is in error, which would void the repeat visit)."""
    import subprocess

    return subprocess.run(
        f"openssl x509 -in {cert} -pubkey -noout | openssl pkey -pubin -outform der"
        " | openssl dgst -sha256 -binary | base64",
        shell=True,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def measure(
    repeats: int = 1, pages: int | None = None
) -> tuple[list[dict], list[dict], int, list[str]]:
    from playwright.sync_api import sync_playwright

    notebooks = published_notebooks()[:pages]
    rows, failed = [], []
    with tempfile.TemporaryDirectory(prefix="ee-remote-") as tmp:
        tmp = Path(tmp)
        log_path = tmp / "voila.log"
        log = open(log_path, "w")
        voila, direct = start_voila(
            "--MappingKernelManager.cull_idle_timeout=300", log=log, preheat=True
        )
        cert, key = self_signed_cert(tmp)
        nginx_log = open(tmp / "nginx.log", "w")
        plain, proxy = start_proxy(direct, tmp / "plain", log=nginx_log, render_rate="600r/m")
        tls, proxy_tls = start_proxy(
            direct, tmp / "tls", cert=cert, key=key, log=nginx_log, render_rate="600r/m"
        )
        ways = [("direct Voilà", direct), ("nginx", proxy), ("nginx TLS + HTTP/2", proxy_tls)]
        try:
            pool = Pool(log_path, voila, len(published_notebooks()))
            pool.wait(len(published_notebooks()))
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM,
                    headless=True,
                    args=[*CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={_spki(cert)}"],
                )
                for _way, base in ways:  # warm-up, not measured: each server's first page
                    context = browser.new_context()
                    visit(context, f"{base}/voila/render/{notebooks[0]}")
                    pool.wait(pool.fills + 1)
                    context.close()
                for nb in notebooks:
                    for way, base in ways:
                        for r in range(repeats):
                            context = browser.new_context(viewport={"width": 1280, "height": 1000})
                            figures = {}
                            for kind in ("first", "repeat"):
                                figures[kind] = visit(context, f"{base}/voila/render/{nb}")
                                pool.wait(pool.fills + 1)
                            context.close()
                            if None in figures.values():
                                failed.append(f"{nb} {way} run {r}")
                                continue
                            rows.append({"notebook": nb, "way": way, "run": r, **figures})
                            print(
                                f"{nb:32s} {way:20s} first {figures['first']['ready_s']:.2f} s "
                                f"{figures['first']['bytes'] / 1e3:7.0f} kB | repeat "
                                f"{figures['repeat']['ready_s']:.2f} s {figures['repeat']['bytes'] / 1e3:6.0f} kB "
                                f"refetched {figures['repeat']['refetched']} 304 {figures['repeat']['revalidated']}",
                                flush=True,
                            )
                cap = capacity(browser, proxy, voila, plain, pool, pages)
                browser.close()
            import psutil

            voila_rss = psutil.Process(voila.pid).memory_info().rss
        finally:
            stop(plain)
            stop(tls)
            stop(voila)
            log.close()
            nginx_log.close()
    return rows, cap, voila_rss, failed


def _median(rows, nb, way, kind, key):
    values = [r[kind][key] for r in rows if r["notebook"] == nb and r["way"] == way]
    return statistics.median(values) if values else float("nan")


def report(rows: list[dict], repeats: int, failed: list[str]) -> str:
    notebooks = list(dict.fromkeys(r["notebook"] for r in rows))
    ways = list(dict.fromkeys(r["way"] for r in rows))
    lines = [
        "# A remote viewer: direct Voilà against nginx (`benchmarks/remote_link.py`)",
        "",
        f"Emulated link (Chromium DevTools `Network.emulateNetworkConditions`): "
        f"{LINK['downloadThroughput'] * 8 / 1e6:.0f} Mbit/s down, "
        f"{LINK['uploadThroughput'] * 8 / 1e6:.0f} Mbit/s up, {LINK['latency']} ms latency. "
        "One Voilà with the published `voila.json` (preheated pool: every visit gets a kernel "
        "that already ran its notebook); nginx from `deploy/` in front of the same server, plain "
        "HTTP/1.1 and TLS with HTTP/2; same run, one visit after the other, "
        f"{'median of ' + str(repeats) + ' runs' if repeats > 1 else 'one run'} per cell.",
        "",
        "ready = navigation until `.ee-ready` is visible; kB = bytes on the wire until the load "
        "event (sum of `encodedDataLength`, headers included; websocket frames not included); "
        "× direct = ready time against direct Voilà for the same page and visit; repeat = a "
        "second visit in the same browser context (warm cache): *refetched* = Voilà static, "
        "extension and template files downloaded again with a body, *304* = revalidated "
        "without a body.",
        "",
        "| page | way in | first: ready | × direct | kB | repeat: ready | × direct | kB | refetched | 304 |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    ratios = {w: [] for w in ways}
    for nb in notebooks:
        d_first = _median(rows, nb, ways[0], "first", "ready_s")
        d_rep = _median(rows, nb, ways[0], "repeat", "ready_s")
        for way in ways:
            first = _median(rows, nb, way, "first", "ready_s")
            rep = _median(rows, nb, way, "repeat", "ready_s")
            ratios[way].append(first / d_first)
            lines.append(
                f"| {nb.removesuffix('.ipynb')} | {way} | {first:.2f} s | {first / d_first:.2f} | "
                f"{_median(rows, nb, way, 'first', 'bytes') / 1e3:,.0f} | {rep:.2f} s | "
                f"{rep / d_rep:.2f} | {_median(rows, nb, way, 'repeat', 'bytes') / 1e3:,.1f} | "
                f"{_median(rows, nb, way, 'repeat', 'refetched'):.0f} | "
                f"{_median(rows, nb, way, 'repeat', 'revalidated'):.0f} |"
            )
    lines += [
        "",
        f"Visits that never became ready within {TIMEOUT_MS // 1000} s (left out of the "
        f"medians): {', '.join(failed) if failed else 'none'}.",
        "",
        "First visit, ready time against direct Voilà over all pages:",
        "",
    ]
    for way in ways[1:]:
        rs = ratios[way]
        lines.append(
            f"- {way}: median {statistics.median(rs):.2f} ×, range "
            f"{min(rs):.2f}–{max(rs):.2f} × (goal ≤ 0.60 ×: "
            f"{'met' if max(rs) <= 0.6 else 'met for ' + str(sum(r <= 0.6 for r in rs)) + ' of ' + str(len(rs)) + ' pages'})"
        )
    for way in ways:
        kb = [_median(rows, nb, way, "first", "bytes") / 1e3 for nb in notebooks]
        rkb = [_median(rows, nb, way, "repeat", "bytes") / 1e3 for nb in notebooks]
        ref = sum(_median(rows, nb, way, "repeat", "refetched") for nb in notebooks)
        lines.append(
            f"- {way}: first visit {statistics.median(kb):,.0f} kB (median), repeat visit "
            f"{statistics.median(rkb):,.1f} kB; cacheable files downloaded again on repeat "
            f"visits, all pages: {ref:.0f}"
        )
    return "\n".join(lines) + "\n"


def capacity_report(cap: list[dict], voila_rss: int, pooled: int) -> str:
    """Viewers per machine from the measured figures."""
    mib = 2**20
    rss = statistics.mean(r["rss"] for r in cap)
    view = statistics.mean(r["view_cpu"] for r in cap)
    move = statistics.mean(r["kernel_move"] + r["voila_move"] + r["nginx_move"] for r in cap)
    pool = pooled * rss
    free = MACHINE_GIB * 2**30 - RESERVE_GIB * 2**30 - voila_rss - pool
    open_viewers = int(free // rss)
    cpu = CORES * CPU_BUDGET
    lines = [
        "",
        "## Capacity (through nginx, no emulated link)",
        "",
        f"Load average of the machine at the end of the run: {os.getloadavg()[0]:.1f} "
        f"({os.cpu_count()} CPUs; other work on it slows the ready times, not the CPU times).",
        "",
        "| dashboard | kernel RSS | USS | CPU of a page view | CPU per slider move: kernel | Voilà | nginx |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in cap:
        lines.append(
            f"| {r['notebook'].removesuffix('.ipynb')} | {r['rss'] / mib:.0f} MiB | "
            f"{r['uss'] / mib:.0f} MiB | {r['view_cpu']:.2f} s | {1e3 * r['kernel_move']:.0f} ms | "
            f"{1e3 * r['voila_move']:.0f} ms | "
            f"{'≤ 1' if r['nginx_move'] < 0.0015 else format(1e3 * r['nginx_move'], '.0f')} ms |"
        )
    lines += [
        "",
        f"CPU of a page view = the kernel's CPU time when the page is ready (its start and "
        f"notebook run, done in the pool before the viewer came; the pool's refill costs it "
        f"again). Slider moves: {MOVES} per dashboard, each waited for until the numbers and "
        f"plot changed (the benchmark's `_slider_latency`); CPU times tick in 10 ms, so nginx's "
        f"share (0 or 1 tick over {MOVES} moves) is at most 1 ms. Voilà's server: "
        f"{voila_rss / mib:.0f} MiB RSS.",
        "",
        f"| {MACHINE_GIB} GiB, {CORES} cores | figure used | viewers |",
        "|---|---|---:|",
        f"| memory: open viewers (a kernel each, kept until 600 s idle) | {rss / mib:.0f} MiB per "
        f"kernel (mean RSS); pool {pooled} × {rss / mib:.0f} MiB = {pool / 2**30:.1f} GiB, Voilà "
        f"{voila_rss / mib:.0f} MiB, {RESERVE_GIB:.0f} GiB for the system | **{open_viewers}** |",
        f"| CPU: arriving viewers | {view:.2f} CPU-s per page view (the pool's refill), "
        f"{CPU_BUDGET:.0%} of {CORES} cores | **{60 * cpu / view:.0f} per minute** |",
        f"| CPU: slider moves | {1e3 * move:.0f} ms CPU per move (kernel + Voilà + nginx) | "
        f"**{cpu / move:.0f} moves/s**, i.e. {cpu / move / 0.5:.0f} viewers dragging a slider "
        f"at 2 moves/s at the same moment |",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=1, help="runs per page and way in (median)")
    ap.add_argument(
        "--pages",
        type=int,
        help="only the first PAGES pages (a quick check; REMOTE.md is then not written)",
    )
    args = ap.parse_args()
    rows, cap, voila_rss, failed = measure(args.repeats, args.pages)
    text = report(rows, args.repeats, failed) + capacity_report(
        cap, voila_rss, len(published_notebooks())
    )
    if args.pages:
        print(text)
        return
    OUT.write_text(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
