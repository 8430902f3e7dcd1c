"""A pytest plugin (``-p without_site``): the packages of the dashboards and of the published
site cannot be imported, as in an install of ``elo-explain`` without its extras (numpy and
Babel alone). ``make test`` and ``make test-fast`` run ``tests/rules`` with it, so a rule or a
rules test that comes to need Jupyter, matplotlib or the server fails there.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder

#: what the extras bring (``pyproject.toml``: dashboards, publish) and the browser tests use
SITE_PACKAGES = frozenset(
    {
        "ipywidgets",
        "ipykernel",
        "IPython",
        "traitlets",
        "matplotlib",
        "PIL",
        "jupyter_server",
        "jupyter_client",
        "jupyter_core",
        "jupyterlab",
        "jupyterlab_widgets",
        "voila",
        "tornado",
        "zmq",
        "psutil",
        "websockets",
        "nbformat",
        "nbclient",
        "playwright",
        "requests",
        "bs4",
        "uharfbuzz",
    }
)


class _Absent(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in SITE_PACKAGES:
            raise ModuleNotFoundError(
                f"No module named {name!r} (tests/without_site.py: not a dependency of the rules)",
                name=name,
            )
        return None


for _name in SITE_PACKAGES:
    if any(m == _name or m.startswith(_name + ".") for m in sys.modules):
        raise RuntimeError(f"{_name} was imported before tests/without_site.py could refuse it")
sys.meta_path.insert(0, _Absent())
