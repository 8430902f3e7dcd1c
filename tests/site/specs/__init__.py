"""Each dashboard's audit spec (``tests/site/audit.py``): a link and what it shows, one control
step and what it changes, a bad link and the note it gets. One module a dashboard, named by
its notebook's number; each names the sources of its numbers."""

from __future__ import annotations

from importlib import import_module

from elo_explain.dashboards import DASHBOARDS

from tests.site.audit import Spec

def _specs() -> dict[str, Spec]:
    specs = {}
    for d in DASHBOARDS:
        try:
            specs[d.notebook] = import_module(f"tests.site.specs.d{d.notebook[:2]}").SPEC
        except ModuleNotFoundError:
            pass
    return specs


SPECS: dict[str, Spec] = _specs()
