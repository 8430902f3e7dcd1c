"""The published site: a real Voilà server on a free port and headless Debian Chromium
(marker ``site``); the proxy tests add nginx.

Browser tests never sleep for a fixed time: they wait for a specific selector
(``.ee-ready`` on a dashboard's root widget) or a specific text.
"""

from __future__ import annotations

import subprocess

import pytest

from harness import start_voila


@pytest.fixture(scope="session")
def voila_url(tmp_path_factory):
    log = open(tmp_path_factory.mktemp("voila") / "voila.log", "w")
    proc, base = start_voila(log=log)
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture
def page(devices):
    """A new page on a desktop's screen (its profile of the session's ``devices``)."""
    visit = devices.visit({"viewport": {"width": 1280, "height": 1000}})
    yield visit.page
    visit.close()
