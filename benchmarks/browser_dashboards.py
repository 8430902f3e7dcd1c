"""Dashboards in a real browser: time to ready, slider latency, widget models, kernel memory.

Every timing is a ratio against a baseline measured in the same run, against the
same ``voila`` server (the repository's published configuration), in headless
Chromium, median of ``repeats`` loads:

* time to ready -- navigation until the root's ``.ee-ready`` is visible and its
  first numbers (``.ee-value``) and plot (``img.ee-plot``) are shown; baseline:
  ``benchmarks/notebooks/bare.ipynb`` (imports numpy, matplotlib, ipywidgets,
  one slider), loaded cold; cold also against ``bare_figure.ipynb`` (the same plus one
  figure drawn to a PNG and a small table: what every dashboard page does at least
  once).  Measured cold and with Voilà's preheated kernel pool.
* slider latency -- from the key-down of an arrow key (a step the slider can take) on
  the dashboard's first visible slider (or the one ``SLIDERS`` names) until a shown
  number *and* the plot have changed (``None`` if nothing changed within 30 s);
  baseline: the bare notebook's slider-to-label echo.  The naive ``interact`` +
  re-created figure notebook is reported beside it.  Beside it, until the last of the
  notebook's live tables and sentences above the view that follow that slider has changed
  (``—`` where none does).
* phone slider latency -- the same step on a phone (Playwright's emulation: 390 × 844 CSS px,
  device scale 3, touch), once the page's figures are laid out for it (one column, twice the
  pixels: ``FigureView.fit``), against the same server in the same round; its ratio is to
  the desktop's latency of the same notebook.
* size -- widget models in the kernel after the notebook ran, and the kernel's
  resident memory (RSS) while a viewer has the page open.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from elo_explain.dashboards import INDEX_NOTEBOOK  # noqa: E402
from elo_explain.dashboards.index import published  # noqa: E402
from harness import kernel_pids, launch_chromium, start_voila  # noqa: E402

BENCH_NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"
BARE, FIGURE, NAIVE = "bare.ipynb", "bare_figure.ipynb", "naive_interact.ipynb"
TIMEOUT_MS = 120_000
DESKTOP = {"viewport": {"width": 1280, "height": 1000}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
# a phone's figures laid out for it: the kernel redraws each for the page's width at twice the
# pixels (``FigureView.fit``), so an image is the phone's once its pixel width is about twice
# its CSS width (the desktop's drawing, shrunk to fit the screen, passed the old test of
# "fits the screen": the step was then measured behind the phone's redraws, 02: 313 ms,
# instead of 34 ms once they had come)
PHONE_FITS = (
    "() => [...document.querySelectorAll('img.ee-plot')].every(i =>"
    " i.getAttribute('src') && i.naturalWidth > 0 &&"
    " i.getBoundingClientRect().width <= document.documentElement.clientWidth)"
)
PHONE_LAID_OUT = (
    "() => [...document.querySelectorAll('img.ee-plot')].every(i => {"
    " const w = i.getBoundingClientRect().width;"
    " return i.getAttribute('src') && w > 0 && w <= document.documentElement.clientWidth"
    " && Math.abs(i.naturalWidth - 2 * w) <= 0.1 * 2 * w; })"
)

READY_JS = """() => {
  const root = document.querySelector('.ee-ready');
  if (!root || root.offsetParent === null) return false;
  if (!document.querySelector('.ee-value, .ee-table, .ee-index')) return false;
  for (const img of document.querySelectorAll('img.ee-plot')) { if (!img.getAttribute('src')) return false; }
  return true;
}"""

# The slider each dashboard's latency is measured on, when not its first visible one:
# (a button to click first and what then shows, or None; the slider's CSS class; whether
# the slider moves a plot).
SLIDERS = {
    "bare_figure.ipynb": (None, ".widget-slider", False),  # its slider echoes to a label only
    # 01 has no slider in its default mode, and none of its sliders moves the plot (E
    # depends on the ratings only): the average-opponent mode's games slider, numbers only
    "01_chess_calculator.ipynb": (
        (".ee-mode button:has-text('Average opponent')", ".ee-n-games"),
        ".ee-n-games",
        False,
    ),
    "02_fide_rules.ipynb": (None, ".ee-games", True),  # the 700 rule: text and plot
    "05_volume_k.ipynb": (None, ".ee-swing-games", True),  # the weekly swing: its lines and plots
    "06_elo_vs_glicko.ipynb": (None, ".ee-rd", True),  # your RD: the summary lines and both plots
    "07_every_system.ipynb": (None, ".ee-rd", True),  # your RD: the summary (Lichess) and the chart
    "10_new_to_fide.ipynb": (None, ".ee-rating", False),  # the 2024 uplift: numbers only
}

# Resolves with the milliseconds from the key-down to the moment a shown number of the view
# changed and (when the page has figures) a figure's image changed, and to the last change of
# the notebook's live outputs above the view (``.ee-live``: its tables and sentences), null if
# none changed; the latter is read once no live output has changed for QUIET ms.
ARM_JS = """(needsPlot) => {
  // the numbers the kernel writes (HTML widgets), not the slider's own local readout
  const values = () => [...document.querySelectorAll('.ee-ready .widget-html')].map(e => e.textContent).join('|');
  const images = () => [...document.querySelectorAll('.ee-ready img')].map(i => i.src.length + i.src.slice(-80)).join('|');
  const lives = () => [...document.querySelectorAll('.ee-live')].map(e => e.textContent).join('|');
  const hasImages = needsPlot && document.querySelectorAll('.ee-ready img').length > 0;
  const v0 = values(), i0 = images();
  let l = lives();
  window.__eeLatency = new Promise(resolve => {
    let t0 = null, view = null, tables = null, quiet = null;
    const done = () => { observer.disconnect(); resolve({view, tables}); };
    document.addEventListener('keydown', () => { if (t0 === null) t0 = performance.now(); }, {capture: true, once: true});
    const check = () => {
      if (t0 === null) return;
      const now = performance.now() - t0;
      if (view === null && values() !== v0 && (!hasImages || images() !== i0)) view = now;
      const live = lives();
      if (live !== l) { l = live; tables = now; }
      if (view !== null) { clearTimeout(quiet); quiet = setTimeout(done, QUIET); }
    };
    const observer = new MutationObserver(check);
    setTimeout(done, 30000);
    observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  });
}""".replace("QUIET", "700")


def _kernels(server: psutil.Process) -> list[psutil.Process]:
    """The server's kernels (``harness.kernel_pids``: started or forked)."""
    kernels = []
    for pid in kernel_pids(server):
        try:
            kernels.append(psutil.Process(pid))
        except psutil.Error:  # a kernel that has just exited
            pass
    return kernels


def _idle(kernels: list[psutil.Process], below: float = 5.0) -> bool:
    """Whether ``kernels`` together use under ``below`` % of a CPU over a second (a kernel
    that exits meanwhile counts as idle)."""
    for k in kernels:
        try:
            k.cpu_percent(None)  # starts each kernel's measurement interval
        except psutil.Error:
            pass
    time.sleep(1.0)  # the interval the CPU use is measured over
    busy = 0.0
    for k in kernels:
        try:
            busy += k.cpu_percent(None)
        except psutil.Error:
            pass
    return busy < below


def _wait_pool_idle(
    server: psutil.Process, expected: int = 0, *, not_in: set = frozenset(), timeout: float = 300.0
) -> None:
    """Wait until ``expected`` kernels exist, one of them not among the pids ``not_in`` (a
    refill started after those), and together they use under 5 % of a CPU (the pool is
    filled and its notebooks have run)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kernels = _kernels(server)
        if len(kernels) >= expected and (not not_in or {k.pid for k in kernels} - not_in):
            if _idle(kernels):
                return
        else:
            time.sleep(0.5)  # poll interval
    raise RuntimeError(f"kernel pool did not fill to {expected} within {timeout} s")


def _load(page, url: str) -> float:
    """Seconds from navigation until READY_JS holds (not the page's "load" event, which
    waits for every asset; the ready test is what the reader sees)."""
    t0 = time.perf_counter()
    page.goto(url, timeout=TIMEOUT_MS, wait_until="commit")
    page.wait_for_function(READY_JS, timeout=TIMEOUT_MS, polling=20)
    return time.perf_counter() - t0


def _visit(browser, url: str, row: dict, kind: str, then=None, device=DESKTOP) -> None:
    """One load in a fresh browser context, its time appended to ``row[kind]``; a load
    that never becomes ready is counted in ``row["failed"]`` (and reported), not hidden."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.new_context(**device)
    try:
        page = context.new_page()
        row[kind].append(_load(page, url))
        if device is PHONE:
            # the baselines' figures are plain images, drawn once for any screen: they fit it
            plain = url.endswith((BARE, FIGURE, NAIVE))
            page.wait_for_function(
                PHONE_FITS if plain else PHONE_LAID_OUT, timeout=TIMEOUT_MS, polling=20
            )
        if then:
            then(page)
    except PlaywrightError as exc:
        row["failed"].append(f"{kind}: {str(exc).splitlines()[0][:160]}")
    finally:
        context.close()


def _slider_latency(page, notebook: str) -> float | None:
    setup, css, needs_plot = SLIDERS.get(notebook, (None, ".widget-slider", True))
    if setup:
        click, shown = setup
        page.locator(click).click()
        page.locator(shown).wait_for(state="visible", timeout=TIMEOUT_MS)
    handle = page.locator(f"{css} .noUi-handle >> visible=true").first
    handle.wait_for(state="visible", timeout=TIMEOUT_MS)
    handle.focus()
    page.evaluate(ARM_JS, needs_plot)
    at_max = handle.evaluate(
        "h => Number(h.getAttribute('aria-valuenow')) >= Number(h.getAttribute('aria-valuemax'))"
    )
    page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")  # a step that moves it
    ms = page.evaluate("() => window.__eeLatency")
    return {k: (None if v is None else v / 1000.0) for k, v in ms.items()}


def _serve_dir() -> Path:
    tmp = Path(tempfile.mkdtemp(prefix="ee-bench-"))
    for nb in [INDEX_NOTEBOOK] + [d.notebook for d in published()]:
        shutil.copy(ROOT / "notebooks" / nb, tmp / nb)
    for nb in (BARE, FIGURE, NAIVE):
        shutil.copy(BENCH_NOTEBOOKS / nb, tmp / nb)
    return tmp


def measure(repeats: int = 5, preheat_pool: int = 1) -> list[dict]:
    from playwright.sync_api import sync_playwright

    folder = _serve_dir()
    names = [BARE, FIGURE, NAIVE] + [d.notebook for d in published()]
    rows = {
        n: {
            "notebook": n,
            "cold": [],
            "latency": [],
            "tables": [],
            "rss": [],
            "preheated": [],
            "phone_cold": [],
            "phone": [],
            "failed": [],
        }
        for n in names
    }
    log = open(LOG, "w")
    with sync_playwright() as p:
        browser = launch_chromium(p)
        # -- cold: one fresh kernel per load (start_voila switches the published pool off)
        # the published-only gate must also let the baseline notebooks through
        allow = [f"--PublishedOnly.notebooks={n}" for n in [INDEX_NOTEBOOK] + names]
        proc, base = start_voila(*allow, notebooks=folder, log=log)
        server = psutil.Process(proc.pid)

        def after_cold(n):
            before = {k.pid for k in _kernels(server)}

            def then(page):  # the memory of the kernel this page started
                new = [k for k in _kernels(server) if k.pid not in before]
                if len(new) == 1:
                    rows[n]["rss"].append(new[0].memory_info().rss)
                lat = _slider_latency(page, n)
                if lat["view"] is not None:
                    rows[n]["latency"].append(lat["view"])
                if lat["tables"] is not None:
                    rows[n]["tables"].append(lat["tables"])

            return then

        def on_phone(n):
            def then(page):
                lat = _slider_latency(page, n)
                if lat["view"] is not None:
                    rows[n]["phone"].append(lat["view"])

            return then

        try:
            for _ in range(repeats):
                for n in names:  # round-robin so every notebook sees the same machine state
                    _visit(browser, f"{base}/voila/render/{n}", rows[n], "cold", after_cold(n))
                    _visit(
                        browser,
                        f"{base}/voila/render/{n}",
                        rows[n],
                        "phone_cold",
                        on_phone(n),
                        device=PHONE,
                    )
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        # -- preheated: Voilà keeps a pool of kernels that already ran each notebook
        proc, base = start_voila(
            *allow,
            f"--VoilaConfiguration.default_pool_size={preheat_pool}",
            notebooks=folder,
            preheat=True,
            log=log,
        )
        server = psutil.Process(proc.pid)
        served = len(list(folder.glob("*.ipynb")))  # Voilà pools every notebook it serves
        try:
            _wait_pool_idle(server, preheat_pool * served)
            for _ in range(repeats):
                for n in names:
                    # a viewer arrives at a full, idle pool: after each page, wait for the
                    # refill (a kernel started after the page came, with every kernel idle)
                    before = {k.pid for k in _kernels(server)}
                    _visit(browser, f"{base}/voila/render/{n}", rows[n], "preheated")
                    _wait_pool_idle(server, not_in=before)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        browser.close()
    log.close()
    shutil.rmtree(folder, ignore_errors=True)
    return [rows[n] for n in names]


def widget_models() -> dict[str, int]:
    """Widget models each notebook creates, counted in a kernel after running it (nbclient)."""
    import nbformat
    from nbclient import NotebookClient

    counts = {}
    for n in [BARE, FIGURE, NAIVE] + [d.notebook for d in published()]:
        path = BENCH_NOTEBOOKS / n if n in (BARE, FIGURE, NAIVE) else ROOT / "notebooks" / n
        nb = nbformat.read(path, as_version=4)
        nb.cells.append(
            nbformat.v4.new_code_cell(
                "import ipywidgets.widgets.widget as _w\nprint('WIDGETS', len(_w._instances))"
            )
        )
        NotebookClient(
            nb,
            timeout=300,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
        text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
        counts[n] = int(text.split("WIDGETS")[1].split()[0])
    return counts


def _cell(value, fmt: str, base=None) -> str:
    """``value`` formatted, then its ratio to ``base`` (``—`` where either is missing)."""
    if value is None:
        return "— | —" if base is not None else "—"
    text = fmt.format(value)
    if base is None:
        return text
    return f"{text} | {value / base:.2f}" if base else f"{text} | —"


def report(repeats: int = 5) -> str:
    rows = measure(repeats)
    models = widget_models()
    med = {
        r["notebook"]: {
            k: (statistics.median(v) if v else None)
            for k, v in r.items()
            if k not in ("notebook", "failed")
        }
        for r in rows
    }
    bare, figure = med[BARE], med[FIGURE]
    lines = [
        f"Median of {repeats} loads each; ratios against `bare.ipynb` measured in the same run "
        f"(bare: ready {_cell(bare['cold'], '{:.2f} s')} cold, slider echo "
        f"{_cell(bare['latency'] and 1000 * bare['latency'], '{:.0f} ms')}); cold also against "
        f"`bare_figure.ipynb` (the bare notebook plus one drawn figure and a small table: "
        f"{_cell(figure['cold'], '{:.2f} s')}).",
        "",
        "| notebook | ready cold | × bare | × bare+figure | ready preheated | × bare cold | "
        "slider → numbers+plot | × bare echo | slider → tables above | slider on a phone | "
        "× desktop | widget models | kernel RSS | failed loads |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    failures = []
    for r in rows:
        n, m = r["notebook"], med[r["notebook"]]
        lat = m["latency"] and 1000 * m["latency"]
        lines.append(
            f"| {n} | {_cell(m['cold'], '{:.2f} s', bare['cold'])} | "
            f"{_cell(m['cold'] and figure['cold'] and m['cold'] / figure['cold'], '{:.2f}')} | "
            f"{_cell(m['preheated'], '{:.2f} s', bare['cold'])} | "
            f"{_cell(lat, '{:.0f} ms', bare['latency'] and 1000 * bare['latency'])} | "
            f"{_cell(m['tables'] and 1000 * m['tables'], '{:.0f} ms')} | "
            f"{_cell(m['phone'] and 1000 * m['phone'], '{:.0f} ms', lat)} | "
            f"{models[n]} | {_cell(m['rss'] and m['rss'] / 2**20, '{:.0f} MiB')} | "
            f"{len(r['failed'])} |"
        )
        failures += [f"- {n}, {f}" for f in r["failed"]]
    lines += ["", "The slider moved is each page's first visible one, except:"]
    lines += [
        f"- {n}: `{css}`"
        + (f" after clicking `{setup[0]}`" if setup else "")
        + ("" if plot else " (numbers only: no slider there moves the plot)")
        for n, (setup, css, plot) in SLIDERS.items()
    ]
    if failures:
        lines += [
            "",
            f"Loads that never became ready (the servers' log: `{LOG.name}` in the "
            "temporary folder of the machine that ran it):",
            *failures,
        ]
    return "\n".join(lines)


OUT = Path(__file__).resolve().parent / "DASHBOARDS.md"
NOTES = "\n## Notes\n"
"""DASHBOARDS.md's hand-written part (from this heading on), kept when the figures are taken
again."""
LOG = Path(tempfile.gettempdir()) / "ee-bench-voila.log"  # the servers' log, for failed loads


def main(repeats: int = 5) -> None:
    import datetime
    import os

    text = report(repeats)
    load = os.getloadavg()[0]
    old = OUT.read_text() if OUT.exists() else ""
    notes = old[old.index(NOTES) :] if NOTES in old else ""  # written by hand: kept
    OUT.write_text(
        "# Dashboards in the browser\n\n"
        f"Measured {datetime.date.today().isoformat()} by `make bench` "
        f"(`python benchmarks/browser_dashboards.py`), headless Chromium against a local "
        f"`voila` with the published configuration, {os.cpu_count()} CPUs, "
        f"load average {load:.1f} at the end.\n\n" + text + "\n" + notes
    )
    print(text)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
