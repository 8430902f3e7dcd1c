"""The test suite, grouped by what each part needs (as voila's own ``tests/app``, ``tests/server``):

* ``rules/``     -- the package's rules and tables, property tests, the fuzz, project checks:
  plain Python on the package's own dependencies, seconds (``make test`` runs them with
  ``-p without_site``: Jupyter, matplotlib and the server's packages cannot be imported);
* ``models/``    -- each dashboard's model and view, without a kernel or a browser;
* ``notebooks/`` -- the notebooks executed in a Jupyter kernel (nbclient) and in JupyterLab
  (marker ``notebooks``);
* ``site/``      -- the published site: a real Voilà server, headless Chromium, nginx
  (marker ``site``).

``make test-fast`` runs the package's doctests, ``rules/`` and ``models/`` (no kernel, no
browser, no server); ``make test`` runs everything, fastest first. Each group's
``conftest.py`` holds what that group needs; ``harness.py`` the servers and browser steps.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import settings

from elo_explain.server import without_rfc3987_syntax

HERE = Path(__file__).resolve().parent

# the collection imports the server's modules (their doctests), hence jupyter_server
without_rfc3987_syntax()

# A test process's garbage collection, less often than Python's default (700, 10, 10): each
# test's views and figures are cycles that live to the test's end, so they reach the oldest
# generation, and each collection of it walked every object the process holds (49 of them,
# 13.5 s of a single process's 108 CPU-s over test-fast's files). At these thresholds: one
# such collection, 4.3 s of garbage collection in all, 95 CPU-s, the process's peak memory
# 1.15 GB against 1.00 (the two run side by side, one core each).
gc.set_threshold(10_000, 20, 20)

# ``make test`` runs the files on three workers (pytest-xdist, ``--dist loadfile``: a file's tests
# stay together, so its servers are started once). Each worker's kernels keep their IPython
# history in a folder of their own: kernels of two workers started at the same moment would
# otherwise share one history database ("database is locked").
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["IPYTHONDIR"] = tempfile.mkdtemp(
        prefix=f"ipython-{os.environ['PYTEST_XDIST_WORKER']}-"
    )

# No time limit on a property test's example: Hypothesis' default (200 ms) is a timed
# assertion, which a loaded 2-core machine fails without any rule being wrong; speed lives
# in benchmarks/.
settings.register_profile("elo-explain", deadline=None)
settings.load_profile("elo-explain")
MARKERS = {"notebooks": "notebooks", "site": "site"}  # folder -> marker


@pytest.fixture(autouse=True, scope="module")
def _widgets_closed_after_each_file():
    """Every widget a file's tests made, closed after the file: ipywidgets keeps each widget
    until it is closed, and with it the view and the figures it shows. Kept to the end, a
    worker's thousands of views made each full garbage collection walk them all, and the
    worker's exit took 7-10 s to free them."""
    yield
    ipywidgets = sys.modules.get("ipywidgets")  # none in a run of tests/rules alone
    if ipywidgets is not None:
        ipywidgets.Widget.close_all()


@pytest.fixture(scope="session")
def _playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(_playwright):
    """Headless Debian Chromium for the session (tests/notebooks' JupyterLab and tests/site)."""
    from harness import launch_chromium

    b = launch_chromium(_playwright)
    yield b
    b.close()


@pytest.fixture(scope="session")
def devices(_playwright, tmp_path_factory):
    """Headless Debian Chromium with a profile per device for the session
    (``harness.Devices``): the page visits of tests/site."""
    from harness import Devices

    d = Devices(_playwright, tmp_path_factory.mktemp("profiles"))
    yield d
    d.close()


def pytest_collection_modifyitems(config, items):
    for item in items:
        try:
            folder = Path(item.fspath).resolve().relative_to(HERE).parts[0]
        except ValueError:
            continue  # the package's doctests
        if folder in MARKERS:
            item.add_marker(getattr(pytest.mark, MARKERS[folder]))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # on workers (``make test``), the files with the largest shares first: pytest-xdist
        # hands out whole files in this order, and a long file handed out last kept one
        # worker busy alone at the end of the run (the order is the same on every worker)
        items.sort(key=lambda item: -_file_share(Path(item.fspath).resolve()))


def _file_share(path: Path) -> float:
    """A file's own share of the budget (a folder's share counts as the default's)."""
    try:
        name = path.relative_to(HERE.parent).as_posix()
    except ValueError:
        return DEFAULT_SHARE
    key, share = _share(name)
    return share if key == name else DEFAULT_SHARE


# --- each file's time against its share of the suite's budget ---------------------------------
# The suite's budget is 10 minutes of ``make test`` on 2 cores. Each file has a share (seconds of
# setup + call + teardown, summed over its tests, as on two workers: 1,200 worker-seconds in
# all; on n workers each share counts n / 2 times, the tests sharing the two cores); the run
# ends with every file's time beside its share, and a file past its share is marked, in every
# run (CI's log included). A file not listed here has DEFAULT_SHARE.
BUDGET_WALL_SECONDS = 600
BUDGET_SECONDS = 1200
DEFAULT_SHARE = 20.0
SHARES = {
    "elo_explain": 30.0,  # the doctests of the whole package
    "tests/rules": 60.0,  # the whole folder, each file far below
    "tests/site/test_languages.py": 150.0,
    "tests/site/test_hardening_inputs.py": 40.0,
    "tests/site/test_hardening_uploads.py": 30.0,  # 08's uploads and pastes, on one page  # one browser check a kind of box
    "tests/site/test_hardening_load.py": 90.0,
    "tests/site/test_hardening_limits.py": 90.0,
    "tests/site/test_every_reader.py": 150.0,  # with the dock, the keyboard walk, the specs
    "tests/site/test_kernels_lifecycle.py": 80.0,
    "tests/notebooks/test_lab.py": 40.0,  # one JupyterLab: 03 and uk/03
    "tests/notebooks/test_notebook_parameters.py": 55.0,
    "tests/site/test_preheat.py": 50.0,
    "tests/site/test_forks.py": 25.0,  # waits: a stuck fork server's 10 s, parent pollers
    "tests/models/test_figure_text.py": 70.0,  # every figure, every language and layout
    # past the default in every run (clean clone of 09d6138: 46.7, 42.7, 32.3 s on 3 workers)
    "tests/site/test_workers.py": 35.0,  # two servers' worker processes, each started and ended
    "tests/site/test_hardening_kernel_memory.py": 32.0,  # kernels filled to their ceiling
    "tests/site/test_proxy.py": 25.0,  # nginx in front, its own server
    "tests/site/test_hub.py": 120.0,  # eight visitors' servers started, then culled: 40 s idle
    "tests/notebooks/test_adding_a_dashboard.py": 30.0,  # the guide walked in a copy: 19-26 s
}
_FILE_SECONDS: dict[str, float] = defaultdict(float)
_STARTED = time.monotonic()
_WORKER_DONE: dict[str, float] = {}  # each worker's last report, seconds from the start


def pytest_runtest_logreport(report):
    # with pytest-xdist this runs in the controller, for every worker's reports
    _FILE_SECONDS[report.nodeid.split("::")[0]] += report.duration
    node = getattr(report, "node", None)
    if node is not None:
        _WORKER_DONE[node.gateway.id] = time.monotonic() - _STARTED


def _share(path: str) -> tuple[str, float]:
    for key, seconds in SHARES.items():
        if path == key or path.startswith(key + "/"):
            return key, seconds
    return path, DEFAULT_SHARE


def pytest_terminal_summary(terminalreporter):
    if not _FILE_SECONDS:
        return
    spent: dict[str, float] = defaultdict(float)
    shares: dict[str, float] = {}
    for path, seconds in _FILE_SECONDS.items():
        key, share = _share(path)
        spent[key] += seconds
        shares[key] = share
    total = sum(spent.values())
    tr = terminalreporter
    workers = getattr(tr.config.option, "numprocesses", None) or 2
    scale = max(workers, 2) / 2  # on more workers than cores, each test takes longer
    tr.section(
        f"time per file: {total:,.0f} s of tests on {workers} workers, budget "
        f"{BUDGET_WALL_SECONDS:,} s of wall time ({BUDGET_SECONDS * scale:,.0f} s of tests)"
    )
    for key in sorted(spent, key=spent.get, reverse=True):
        over = "  OVER ITS SHARE" if spent[key] > shares[key] * scale else ""
        tr.write_line(f"{spent[key]:8.1f} s  share {shares[key] * scale:6.0f} s  {key}{over}")
    if _WORKER_DONE:  # a worker far before the others: the files' order left it idle
        tr.write_line(
            "each worker's last test ended at "
            + ", ".join(f"{w} {t:.0f} s" for w, t in sorted(_WORKER_DONE.items()))
            + " from the start"
        )
