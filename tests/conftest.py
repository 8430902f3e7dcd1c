"""The test suite, grouped by what each part needs (as voila's own ``tests/app``, ``tests/server``):

* ``rules/``     -- the package's rules and tables, property tests, the fuzz, project checks:
  plain Python, seconds;
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

from pathlib import Path

import pytest
from hypothesis import settings

HERE = Path(__file__).resolve().parent

# No time limit on a property test's example: Hypothesis' default (200 ms) is a timed
# assertion, which a loaded 2-core machine fails without any rule being wrong; speed lives
# in benchmarks/.
settings.register_profile("elo-explain", deadline=None)
settings.load_profile("elo-explain")
MARKERS = {"notebooks": "notebooks", "site": "site"}  # folder -> marker


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium for the session (tests/notebooks' JupyterLab and tests/site)."""
    from playwright.sync_api import sync_playwright

    from harness import launch_chromium

    with sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()


def pytest_collection_modifyitems(config, items):
    for item in items:
        try:
            folder = Path(item.fspath).resolve().relative_to(HERE).parts[0]
        except ValueError:
            continue  # the package's doctests
        if folder in MARKERS:
            item.add_marker(getattr(pytest.mark, MARKERS[folder]))
