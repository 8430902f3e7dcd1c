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
  notebooks of :data:`elo_explain.dashboards.DASHBOARDS`, in English and in each translation
  (``/voila/render/<lang>/<notebook>``: :func:`~elo_explain.server.languages.published_pages`);
* the page's assets, its kernel's websocket and Voilà's shutdown call pass;
* everything else (contents API, files, login/logout, unknown notebooks,
  traversal tricks) is answered 404.

**Only the methods a page uses** pass (:func:`allowed_methods`): ``GET`` (and ``HEAD``) of
pages and assets, only ``GET`` on ``api/kernels/<id>`` (its model and the websocket upgrade),
only ``POST`` of the shutdown beacon; anything else is answered 405. jupyter_server's kernel
API would otherwise delete, restart or interrupt a viewer's kernel for anyone who forges an
``_xsrf`` cookie and header: the site has no login (every visitor is a user), and the XSRF
check only compares the cookie with the header, both of them the visitor's own.

It also guards what passes:

* **Renders are admitted** under the kernel ceilings of
  :class:`~elo_explain.server.kernels.ViewerKernels` (global and per client address);
  beyond them the answer is a short "busy" page, HTTP 503 with ``Retry-After``, and the
  viewers already admitted keep working; the busy page speaks the language of the page
  asked for (its path's ``<lang>/``). The client address (:func:`client_address`) is the
  peer's, or the ``X-Real-IP`` header only when the peer is one of
  :attr:`PublishedOnly.trusted_proxies` (none by default; ``make publish`` names its own
  nginx), so a forged header counts for nothing; an IPv6 address counts by its /64 (one
  household, one machine's privacy addresses).
* **A kernel websocket must ask for the v1 protocol** (HTTP 400 otherwise): Voilà reads every
  binary frame it sends as v1, and a legacy frame freezes the server
  (:mod:`elo_explain.server.channels`).
* **Shutting a kernel down needs its page's token** (``ee_token``, which only the page's HTML
  carries, :func:`~elo_explain.server.kernels.page_token`) and, when the browser sends
  one, an ``Origin`` of this site; the XSRF cookie Voilà's beacon would need is never set by
  a render (voila-dashboards/voila#1458, open: "403 POST: '_xsrf' argument missing from POST
  when closing kernel"), so the token replaces it: a beacon with its page's token is
  *token-authenticated* (:meth:`PublishedOnly.is_token_authenticated`, the identity
  provider's public answer to jupyter_server's question, which then skips its XSRF check).
  Without it: 403. What would let the replacement go: Voilà's shutdown beacon carrying the
  XSRF token (the fix #1458 asks for); the page token would then be a second check.

**Refusals are plain text** (:func:`refuse`): the status, a short reason, no page. The
error pages of the handlers Voilà mounts from jupyter_server would render jupyter_server's
templates, which need settings Voilà does not give them (``static_path``, a current user
before ``prepare``): every refused legacy websocket, unknown method or missing theme logged
a ``TemplateNotFound``/``static_path`` traceback and answered an empty page.
:func:`plain_errors` makes every error page of the server plain text; Voilà's template asset
handler answers a malformed path 404 instead of raising. What would let it go, each
reproduced with its fix in ``docs/upstream/``: Voilà giving jupyter_server's handlers a
``static_path`` (``voila_error_pages_static_path.md``), jupyter_server's ``write_error``
rendering for a request without a user yet, an unsupported method or a refusal of the
identity provider (``jupyter_server_error_page_without_user.md``), and Voilà's
``TemplateStaticFileHandler`` checking the path's shape before unpacking it
(``voila_template_static_path.md``); the page would then be jupyter_server's HTML, not plain
text, which is this site's choice.

A refused request gets no user (``handler.current_user = None``, tornado's public setter),
so nothing after the refusal (the access log's user name) asks the provider again.

Viewers still cannot run code: Voilà forwards only comm and info messages on
the kernel websocket (``allowed_message_types`` in ``voila/app.py``).

The list of served notebooks is configurable for a benchmark's bare notebook,
e.g. ``--PublishedOnly.notebooks="['bare.ipynb']"`` (it replaces the list).
"""

from __future__ import annotations

import html
import ipaddress
import logging
import re
from urllib.parse import unquote, urlsplit

from jupyter_server.auth.identity import PasswordIdentityProvider
from tornado import web
from traitlets import List, Unicode, default, validate

from elo_explain import i18n
from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK
from elo_explain.i18n import N_
from elo_explain.server.channels import asks_for_v1
from elo_explain.server.kernels import CURRENT_RENDER, token_matches
from elo_explain.server.languages import language_of, page_path, published_pages

__all__ = [
    "PublishedOnly",
    "route",
    "published_notebooks",
    "client_address",
    "address_group",
    "busy_page",
    "served_pages",
    "allowed_methods",
    "refuse",
    "plain_errors",
]

LANDING = "voila/render/" + INDEX_NOTEBOOK

_KERNEL = r"\w+-\w+-\w+-\w+-\w+"
# Paths (relative to the base URL) a dashboard page needs besides its own render URL.
_PASS = re.compile(
    "|".join(
        [
            rf"api/kernels/{_KERNEL}(/channels)?",  # the page's kernel and its websocket
            rf"voila/api/shutdown/{_KERNEL}",  # shutdown beacon when the page closes
            rf"voila/(query|execution)/{_KERNEL}",  # preheated kernels, progressive rendering
            r"voila/(static|templates|labextensions|api/themes)/.*",  # assets; handlers confine to roots
        ]
    )
)
_LANDING = re.compile(r"(voila/?|voila/tree(/.*)?)?")
_CHANNELS = re.compile(rf"api/kernels/{_KERNEL}/channels")
_SHUTDOWN = re.compile(rf"voila/api/shutdown/({_KERNEL})")
_KERNEL_API = re.compile(rf"api/kernels/{_KERNEL}(/channels)?")
RETRY_AFTER_S = 60


def allowed_methods(rel: str) -> tuple[str, ...]:
    """The HTTP methods a published page uses on ``rel`` (a path under the base URL that the
    gate lets through): only the beacon's ``POST`` on the shutdown path, only ``GET`` (the
    model, the websocket upgrade) on a kernel, ``GET``/``HEAD`` on everything else.

    >>> kid = "0f1e2d3c-aaaa-bbbb-cccc-123456789abc"
    >>> allowed_methods(f"api/kernels/{kid}"), allowed_methods(f"voila/api/shutdown/{kid}")
    (('GET',), ('POST',))
    >>> allowed_methods("voila/render/index.ipynb")
    ('GET', 'HEAD')
    """
    if _SHUTDOWN.fullmatch(rel):
        return ("POST",)
    if _KERNEL_API.fullmatch(rel):
        return ("GET",)
    return ("GET", "HEAD")


def refuse(handler: web.RequestHandler, status: int, reason: str, **headers: str):
    """Answer ``handler``'s request with ``status`` and ``reason`` as plain text, and stop it
    (raises :class:`tornado.web.Finish`): no error template, no traceback in the log."""
    handler.current_user = None
    handler.clear()
    handler.set_status(status)
    for name, value in headers.items():
        handler.set_header(name.replace("_", "-"), value)
    handler.set_header("Cache-Control", "no-store")
    plain = "text/plain; charset=UTF-8"
    handler.set_header("Content-Type", plain)
    from jupyter_server.base.handlers import APIHandler

    if isinstance(handler, APIHandler):  # its finish() sets JSON unless told otherwise
        handler.finish(f"{status} {reason}\n", set_content_type=plain)
    else:
        handler.finish(f"{status} {reason}\n")
    raise web.Finish()


def _plain_write_error(self, status_code: int, **kwargs) -> None:
    """An error page as plain text: the status and its standard reason, nothing of the
    exception (its message may name a file or a kernel)."""
    from http.client import responses

    self.set_header("Content-Type", "text/plain; charset=UTF-8")
    self.set_header("Cache-Control", "no-store")
    self.finish(f"{status_code} {responses.get(status_code, 'Error')}\n")


def plain_errors() -> None:
    """Every error page of this server plain text (the module's docstring: refusals).

    jupyter_server's ``JupyterHandler.write_error`` renders a template that fails in Voilà
    (no ``static_path``; no user before ``prepare``: ``docs/upstream/``); its JSON API
    handlers keep their own JSON errors. Voilà's ``TemplateStaticFileHandler`` unpacks
    ``template/static/path`` without a check: a path that ``normpath`` shortens is answered
    404 instead of an uncaught ``ValueError`` (``docs/upstream/voila_template_static_path.md``).
    Each replaced function keeps upstream's as ``__wrapped__`` (``tests/models/test_upstream.py``
    checks upstream's still fails). Idempotent."""
    from jupyter_server.base.handlers import JupyterHandler
    from voila.static_file_handler import TemplateStaticFileHandler

    if getattr(JupyterHandler.write_error, "__wrapped__", None) is not None:
        return
    write_error = JupyterHandler.write_error

    def plain_write_error(self, status_code: int, **kwargs) -> None:
        _plain_write_error(self, status_code, **kwargs)

    plain_write_error.__wrapped__ = write_error
    JupyterHandler.write_error = plain_write_error
    absolute = TemplateStaticFileHandler.get_absolute_path  # a classmethod, bound

    def get_absolute_path(cls, root, path):
        try:
            return absolute(root, path)
        except ValueError:  # not <template>/static/<file>
            raise web.HTTPError(404) from None

    get_absolute_path.__wrapped__ = absolute.__func__
    TemplateStaticFileHandler.get_absolute_path = classmethod(get_absolute_path)


class _NotTrusted(logging.Filter):
    """The notebooks are committed without outputs, so there is nothing to trust in them
    (trust only decides whether a notebook's *saved* outputs may run scripts when opened);
    Voilà executes them and renders the new outputs itself. jupyter_server still warns
    "Notebook … is not trusted" on every render: that line says nothing here."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Notebook %s is not trusted")


def proxy_networks(cidrs) -> tuple:
    """The networks of ``cidrs`` (``"127.0.0.1"``, ``"10.0.0.0/8"``, ``"::1"``), checked.

    >>> proxy_networks(["127.0.0.1", "10.0.0.0/8"])
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
    >>> proxy_networks(["nginx"])
    Traceback (most recent call last):
    ...
    ValueError: trusted_proxies: 'nginx' is not an IP address or network (CIDR)
    """
    networks = []
    for cidr in cidrs:
        try:
            networks.append(ipaddress.ip_network(str(cidr).strip(), strict=False))
        except ValueError:
            raise ValueError(
                f"trusted_proxies: {cidr!r} is not an IP address or network (CIDR)"
            ) from None
    return tuple(networks)


def address_group(address: str) -> str:
    """The key one client counts under for the per-address ceiling: an IPv4 address itself,
    an IPv6 address's /64 (a network hands each household or machine a /64 at least, and a
    machine changes its address within it at will), an IPv4-mapped IPv6 address as IPv4.

    >>> address_group("203.0.113.9"), address_group("2001:db8:1:2:aaaa::1")
    ('203.0.113.9', '2001:db8:1:2::/64')
    >>> address_group("2001:db8:1:2:ffff:ffff:ffff:ffff") == address_group("2001:db8:1:2::7")
    True
    >>> address_group("::ffff:198.51.100.7"), address_group("not an address")
    ('198.51.100.7', 'not an address')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(request, trusted=()) -> str:
    """The viewer's address, grouped (:func:`address_group`): the ``X-Real-IP`` header when
    the peer is in ``trusted`` (networks, :func:`proxy_networks`: the site's own proxy), else
    the peer's address, whatever the header says.

    >>> class R:
    ...     remote_ip, headers = "127.0.0.1", {"X-Real-IP": "203.0.113.9"}
    >>> client_address(R())                          # no trusted proxy: the header is ignored
    '127.0.0.1'
    >>> client_address(R(), proxy_networks(["127.0.0.1"]))    # nginx on this machine
    '203.0.113.9'
    >>> R.remote_ip = "198.51.100.7"; client_address(R(), proxy_networks(["127.0.0.1"]))
    '198.51.100.7'
    """
    peer = request.remote_ip or "?"
    forwarded = request.headers.get("X-Real-IP", "").strip()
    try:
        if forwarded and any(ipaddress.ip_address(peer) in net for net in trusted):
            return address_group(str(ipaddress.ip_address(forwarded)))
    except ValueError:
        pass
    return address_group(peer)


_BUSY = {
    "title": N_("Busy — try again in a minute"),
    "heading": N_("The site is busy — try again in a minute"),
    "address": N_(
        "Many pages of this site are open from your address at once: close some "
        "you no longer read, or try again in a minute."
    ),
    "busy": N_("Many people are reading it right now. Try again in a minute."),
    "again": N_("This page tries again by itself in a minute."),
    "now": N_("Try again now"),
}


def busy_page(landing_url: str, why: str, lang: str = "en") -> str:
    """The short page a render beyond a ceiling gets (with HTTP 503 and ``Retry-After``), in
    ``lang``.

    >>> "багато людей" in busy_page("/voila/render/uk/index.ipynb", "busy", "uk")
    True
    """
    lang = lang if lang in i18n.LANGUAGES else "en"
    w = {key: html.escape(i18n.gettext(text, lang=lang)) for key, text in _BUSY.items()}
    detail = w["address"] if why == "address" else w["busy"]
    home = html.escape(i18n.pgettext("busy page", "All topics", lang=lang))
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="{RETRY_AFTER_S}">
<title>{w["title"]} — elo-explain</title>
<style>
 body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b;
        background: #f6f7f9; margin: 0; display: flex; min-height: 100vh; align-items: center;
        justify-content: center; }}
 main {{ background: #fff; max-width: 32rem; margin: 1rem; padding: 1.5rem 1.75rem;
        border-radius: 10px; box-shadow: 0 2px 12px rgba(0,0,0,.08); line-height: 1.5; }}
 h1 {{ font-size: 1.4rem; margin: 0 0 .5rem; }}
 a {{ color: #1a5fb4; font-weight: 600; }}
</style></head>
<body><main role="main">
<h1>{w["heading"]}</h1>
<p>{detail} {w["again"]}</p>
<p><a href="">{w["now"]}</a> · <a href="{html.escape(landing_url)}">{home}</a></p>
</main></body></html>
"""


def published_notebooks() -> list[str]:
    """The notebooks the site serves: the landing page and every registered dashboard.

    >>> published_notebooks()[:2]
    ['index.ipynb', '01_chess_calculator.ipynb']
    """
    return [INDEX_NOTEBOOK, *(d.notebook for d in DASHBOARDS)]


def served_pages() -> list[str]:
    """Every page the site serves: :func:`published_notebooks` in English and in each
    translation (``<lang>/<notebook>``).

    >>> pages, english = served_pages(), published_notebooks()
    >>> len(pages) == 4 * len(english), pages[len(english)], "uk/03_backgammon_divisor.ipynb" in pages
    (True, 'te/index.ipynb', True)
    """
    return published_pages(published_notebooks())


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
    >>> pages = served_pages()
    >>> route("/voila/render/el/index.ipynb", pages), route("/voila/render/el/x.ipynb", pages)
    ('allow', 'refuse')
    >>> route("/voila/render/fr/index.ipynb", pages), route("/voila/render/uk/../index.ipynb", pages)
    ('refuse', 'refuse')
    """
    path = unquote(path)
    if not path.startswith(base_url):
        return "refuse"
    rel = path[len(base_url) :]
    if rel.startswith("voila/render/"):
        return "allow" if rel[len("voila/render/") :] in set(notebooks) else "refuse"
    if _LANDING.fullmatch(rel):
        return "landing"
    if _PASS.fullmatch(rel) and "/../" not in f"/{rel}/":
        return "allow"
    return "refuse"


class PublishedOnly(PasswordIdentityProvider):
    """Identity provider that lets through only the published site's URLs (see module doc)."""

    notebooks = List(
        Unicode(),
        config=True,
        help=(
            "Notebook files that may be rendered (default: landing page + DASHBOARDS, "
            "in every language: served_pages())."
        ),
    )

    trusted_proxies = List(
        Unicode(),
        config=True,
        help=(
            "Peers (IP addresses or CIDR networks) whose X-Real-IP header names the client: the "
            "site's own reverse proxy (make publish: its nginx, 127.0.0.1). Default: none, so the "
            "header of a direct request counts for nothing."
        ),
    )

    @default("notebooks")
    def _default_notebooks(self):
        return served_pages()

    @validate("trusted_proxies")
    def _check_proxies(self, proposal):
        proxy_networks(proposal["value"])  # ValueError naming the trait for a bad entry
        return proposal["value"]

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        logging.getLogger("Voila").addFilter(_NotTrusted())
        plain_errors()

    def get_user(self, handler: web.RequestHandler):
        base_url = handler.settings.get("base_url", "/") or "/"
        verdict = route(handler.request.path, self.notebooks, base_url)
        if verdict != "allow":
            handler.current_user = None  # refused: nobody
        if verdict == "landing":
            handler.redirect(base_url + LANDING)
            raise web.Finish()
        if verdict == "refuse":
            raise web.HTTPError(404)
        rel = unquote(handler.request.path)[len(base_url) :]
        methods = allowed_methods(rel)
        if handler.request.method not in methods:
            refuse(handler, 405, "Method Not Allowed", Allow=", ".join(methods))
        if rel.startswith("voila/render/"):
            self._admit(handler, base_url, language_of(rel[len("voila/render/") :]))
        elif _CHANNELS.fullmatch(rel):
            if not asks_for_v1(handler.request.headers.get("Sec-WebSocket-Protocol")):
                refuse(handler, 400, "Bad Request: the kernel websocket needs the v1 protocol")
        elif (match := _SHUTDOWN.fullmatch(rel)) is not None:
            self._check_shutdown(handler, match.group(1))
        return super().get_user(handler)

    def _admit(self, handler, base_url: str, lang: str = "en") -> None:
        """Reserve a kernel for this render, or answer "busy" (503) beyond a ceiling."""
        kernels = handler.settings.get("kernel_manager")
        if not hasattr(kernels, "admit"):
            return  # not the published kernel manager (a test's plain Voilà)
        trusted = proxy_networks(self.trusted_proxies)
        reservation, why = kernels.admit(client_address(handler.request, trusted))
        if reservation is None:
            handler.current_user = None
            handler.set_status(503)
            handler.set_header("Retry-After", str(RETRY_AFTER_S))
            handler.set_header("Content-Type", "text/html; charset=UTF-8")
            handler.set_header("Cache-Control", "no-store")
            landing = base_url + "voila/render/" + page_path(INDEX_NOTEBOOK, lang)
            handler.finish(busy_page(landing, why, lang))
            raise web.Finish()
        CURRENT_RENDER.set(reservation)
        done = handler.on_finish

        def on_finish():
            kernels.render_finished(reservation)
            done()

        handler.on_finish = on_finish

    def _check_shutdown(self, handler, kernel_id: str) -> None:
        """A shutdown needs the page's token (then :meth:`is_token_authenticated`)."""
        if not _page_token_ok(handler, kernel_id):
            refuse(handler, 403, "Forbidden: a kernel is shut down only by its own page")

    def is_token_authenticated(self, handler) -> bool:
        """Whether ``handler``'s request carried a token (jupyter_server's ``IdentityProvider``
        API: a token-authenticated request skips the XSRF cookie check). Here, the shutdown
        beacon with its page's token, from this site (:meth:`_check_shutdown`): the beacon
        cannot carry the XSRF cookie (voila-dashboards/voila#1458), and the page token is the
        stronger proof. Any other request: the parent provider's answer."""
        base_url = handler.settings.get("base_url", "/") or "/"
        path = unquote(handler.request.path)
        match = _SHUTDOWN.fullmatch(path[len(base_url) :]) if path.startswith(base_url) else None
        if match is not None and handler.request.method == "POST":
            return _page_token_ok(handler, match.group(1))
        return super().is_token_authenticated(handler)


def _page_token_ok(handler, kernel_id: str) -> bool:
    """Whether ``handler``'s request carries the page token of ``kernel_id`` (``ee_token``)
    and, when the browser names one, an ``Origin`` of this site."""
    request = handler.request
    origin = request.headers.get("Origin")
    same_site = origin is None or urlsplit(origin).netloc == request.host
    try:
        token = handler.get_body_argument("ee_token", "")
    except Exception:  # noqa: BLE001 - an unreadable body has no token
        token = ""
    return same_site and token_matches(kernel_id, token)
