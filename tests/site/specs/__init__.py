"""Each dashboard's audit spec (``tests/site/audit.py``): a link and what it shows, one control
step and what it changes, a bad link and the note it gets. One module a dashboard, named by
its notebook's number (``d03.py`` for ``03_backgammon_divisor.ipynb``); each names the
sources of its numbers. A registered dashboard without one fails its page visits."""

from __future__ import annotations

from importlib import import_module

from elo_explain.dashboards import DASHBOARDS
from tests.site.audit import Spec


def _spec(notebook: str) -> Spec:
    try:
        return import_module(f"tests.site.specs.d{notebook[:2]}").SPEC
    except ModuleNotFoundError as e:
        raise LookupError(
            f"{notebook} has no audit spec: add tests/site/specs/d{notebook[:2]}.py "
            "(docs/adding_a_dashboard.md)"
        ) from e


SPECS: dict[str, Spec] = {d.notebook: _spec(d.notebook) for d in DASHBOARDS}
