"""A clean browser console: no error and no front-end version mismatch on a published page,
in English and Telugu, on a desktop and on a phone (Playwright's emulation: 390 × 844, touch).

Voilà's page loads JupyterLab's packages from its own core bundle (JupyterLab 4.2.5 in Voilà
0.5.13) and the federated extensions installed beside it; an extension built against newer
packages logs "Unsatisfied version … of shared singleton module …" and runs against the older
ones anyway. ``jupyterlab_widgets`` is pinned (``pyproject.toml``) to the build whose
``@jupyter-widgets/jupyterlab-manager`` asks for what Voilà's core has (``^4.2.4``); version
3.0.17 asked for ``^4.6.2`` and logged nine such warnings on every page.

What is left is Voilà's own widget manager (``@voila-dashboards/widgets-manager8``, shipped in
Voilà 0.5.13, built against JupyterLab 4.5.10 packages while Voilà's core has 4.2.5):
voila-dashboards/voila#1539, open. Those warnings, and only those (each required version
``^…5.10``), are allowed while Voilà is 0.5.13; any other Voilà makes the list void, so an
upgrade has to show its console clean or name its own upstream issue.
"""

from __future__ import annotations

import re
from importlib.metadata import version

import pytest

from harness import open_dashboard

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 1000}}

# Voilà 0.5.13's widgets-manager8 asks for JupyterLab 4.5.10's packages (voila#1539)
VOILA_OWN_BUNDLE = re.compile(
    r"(Unsatisfied version [\d.]+ from _JUPYTERLAB\.CORE_OUTPUT of shared singleton module "
    r"@jupyterlab/[a-z-]+ \(required \^[467]\.5\.10\)"
    r"|No satisfying version \(\^4\.5\.10\) of shared module @jupyterlab/[a-z-]+ found in "
    r"shared scope default\.\s*Available versions: 4\.2\.5 from _JUPYTERLAB\.CORE_OUTPUT)$")
UPSTREAM = {"0.5.13": VOILA_OWN_BUNDLE}

VISITS = [
    ("index.ipynb", DESKTOP),
    ("03_backgammon_divisor.ipynb", PHONE),
    ("te/01_chess_calculator.ipynb", DESKTOP),
    ("te/index.ipynb", PHONE),
]


def unexpected(messages, voila_version: str) -> list[str]:
    """The console messages a clean page must not have: errors, uncaught exceptions and
    warnings, except the known upstream ones of this Voilà.

    >>> upstream = ("Unsatisfied version 4.2.5 from _JUPYTERLAB.CORE_OUTPUT of shared "
    ...             "singleton module @jupyterlab/statedb (required ^4.5.10)")
    >>> ours = upstream.replace("^4.5.10", "^4.6.2")
    >>> msgs = [("warning", upstream), ("warning", ours), ("debug", "Starting WebSocket")]
    >>> unexpected(msgs, "0.5.13") == ["warning: " + ours]
    True
    >>> len(unexpected(msgs, "0.5.14"))     # another Voilà: no allowance
    2
    """
    allowed = UPSTREAM.get(voila_version)
    bad = []
    for kind, text in messages:
        if kind not in ("error", "warning", "pageerror"):
            continue
        if kind == "warning" and allowed is not None and allowed.match(text.strip()):
            continue
        bad.append(f"{kind}: {text}")
    return bad


@pytest.mark.parametrize("notebook, device", VISITS,
                         ids=[f"{nb}-{'phone' if d is PHONE else 'desktop'}" for nb, d in VISITS])
def test_a_page_loads_with_a_clean_console(voila_url, browser, notebook, device):
    context = browser.new_context(**device)
    page = context.new_page()
    messages: list[tuple[str, str]] = []
    page.on("console", lambda m: messages.append((m.type, m.text)))
    page.on("pageerror", lambda e: messages.append(("pageerror", str(e))))
    try:
        # ready: the root widget rendered, so every extension has loaded and the widget
        # manager has connected to the kernel
        open_dashboard(page, voila_url, notebook)
        seen = list(messages)
    finally:
        context.close()
    bad = unexpected(seen, version("voila"))
    assert not bad, f"{notebook}: " + "\n".join(bad)
