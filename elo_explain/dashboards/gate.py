"""The published site's gate: Voilà serves the published dashboards and nothing else.

Voilà started on a directory also serves a directory listing (``/`` and
``/voila/tree``), a contents API (``/voila/api/contents``) that lists the files
with their timestamps, and renders *any* notebook under the directory.  None of
that belongs on a public site.  Every Jupyter request handler asks the
server's identity provider who the user is before doing anything, so
:class:`PublishedOnly` -- an identity provider named in ``voila.json``
(``Voila.identity_provider_class``) -- is one place that sees every request:

* ``/``, ``/voila`` and ``/voila/tree...`` redirect to the landing page
  ``/voila/render/index.ipynb``;
* ``/voila/render/<notebook>`` is served only for the landing page and the
  notebooks of :data:`elo_explain.dashboards.DASHBOARDS`;
* the page's assets, its kernel's websocket and Voilà's shutdown call pass;
* everything else (contents API, files, login/logout, unknown notebooks,
  traversal tricks) is answered 404.

Viewers still cannot run code: Voilà forwards only comm and info messages on
the kernel websocket (``allowed_message_types`` in ``voila/app.py``).

The list of served notebooks is configurable for a benchmark's bare notebook,
e.g. ``--PublishedOnly.notebooks="['bare.ipynb']"`` (it replaces the list).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from jupyter_server.auth.identity import PasswordIdentityProvider
from tornado import web
from traitlets import List, Unicode, default

from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK

__all__ = ["PublishedOnly", "route", "published_notebooks"]

LANDING = "voila/render/" + INDEX_NOTEBOOK

_KERNEL = r"\w+-\w+-\w+-\w+-\w+"
# Paths (relative to the base URL) a dashboard page needs besides its own render URL.
_PASS = re.compile(
    "|".join([
        rf"api/kernels/{_KERNEL}(/channels)?",            # the page's kernel and its websocket
        rf"voila/api/shutdown/{_KERNEL}",                 # shutdown beacon when the page closes
        rf"voila/(query|execution)/{_KERNEL}",            # preheated kernels, progressive rendering
        r"voila/(static|templates|labextensions|api/themes)/.*",  # assets; handlers confine to roots
    ])
)
_LANDING = re.compile(r"(voila/?|voila/tree(/.*)?)?")


def published_notebooks() -> list[str]:
    """The notebooks the site serves: the landing page and every registered dashboard.

    >>> published_notebooks()[:2]
    ['index.ipynb', '01_chess_calculator.ipynb']
    """
    return [INDEX_NOTEBOOK, *(d.notebook for d in DASHBOARDS)]


def route(path: str, notebooks, base_url: str = "/") -> str:
    """``"allow"``, ``"landing"`` (redirect to the landing page) or ``"refuse"`` for a URL path.

    ``path`` is the request path as received (percent-encoded); ``notebooks`` the
    file names that may be rendered.

    >>> nbs = published_notebooks()
    >>> route("/voila/render/index.ipynb", nbs), route("/voila/render/secret.ipynb", nbs)
    ('allow', 'refuse')
    >>> route("/", nbs), route("/voila/tree/sub", nbs), route("/voila/api/contents", nbs)
    ('landing', 'landing', 'refuse')
    >>> route("/voila/render/..%2Fpyproject.toml", nbs), route("/voila/files/index.ipynb", nbs)
    ('refuse', 'refuse')
    >>> route("/api/kernels/0f1e2d3c-aaaa-bbbb-cccc-123456789abc/channels", nbs)
    'allow'
    """
    path = unquote(path)
    if not path.startswith(base_url):
        return "refuse"
    rel = path[len(base_url):]
    if rel.startswith("voila/render/"):
        return "allow" if rel[len("voila/render/"):] in set(notebooks) else "refuse"
    if _LANDING.fullmatch(rel):
        return "landing"
    if _PASS.fullmatch(rel) and "/../" not in f"/{rel}/":
        return "allow"
    return "refuse"


class PublishedOnly(PasswordIdentityProvider):
    """Identity provider that lets through only the published site's URLs (see module doc)."""

    notebooks = List(Unicode(), config=True,
                     help="Notebook files that may be rendered (default: landing page + DASHBOARDS).")

    @default("notebooks")
    def _default_notebooks(self):
        return published_notebooks()

    def get_user(self, handler: web.RequestHandler):
        base_url = handler.settings.get("base_url", "/") or "/"
        verdict = route(handler.request.path, self.notebooks, base_url)
        if verdict != "allow":
            # like jupyter_server's own refusal in prepare(): no user, so error pages render
            handler.current_user = handler._jupyter_current_user = None
        if verdict == "landing":
            handler.redirect(base_url + LANDING)
            raise web.Finish()
        if verdict == "refuse":
            raise web.HTTPError(404)
        return super().get_user(handler)
