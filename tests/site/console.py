"""A clean browser console: no error, no uncaught exception and no front-end version mismatch
on a published page. Every page visit of ``test_every_reader.py`` (English, phone and desktop)
and ``test_languages.py`` (Telugu, Ukrainian, Greek) records its console from before the page
loads to the visit's end and checks it with :func:`unexpected`.

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

# Voilà 0.5.13's widgets-manager8 asks for JupyterLab 4.5.10's packages (voila#1539)
VOILA_OWN_BUNDLE = re.compile(
    r"(Unsatisfied version [\d.]+ from _JUPYTERLAB\.CORE_OUTPUT of shared singleton module "
    r"@jupyterlab/[a-z-]+ \(required \^[467]\.5\.10\)"
    r"|No satisfying version \(\^4\.5\.10\) of shared module @jupyterlab/[a-z-]+ found in "
    r"shared scope default\.\s*Available versions: 4\.2\.5 from _JUPYTERLAB\.CORE_OUTPUT)$"
)
UPSTREAM = {"0.5.13": VOILA_OWN_BUNDLE}


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
