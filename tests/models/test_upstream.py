"""Each patch of another package's behaviour that the site keeps, and the upstream defect or gap
it answers, exercised *unpatched*: each test asserts the defect is still there, and fails with
"upstream fixed: this patch can go" once the pinned package no longer has it (so the pin can
move and the patch go). The index of the patches, their reproductions and their fixes is
``docs/upstream/README.md``.

Only the Python packages are needed (no kernel, no browser, no Voilà server: a tornado app
served in this process where a request is needed); the whole file takes a few seconds.
Where this process may already hold the site's patch (:func:`elo_explain.server.gate.
plain_errors`, the published kernel's budget), the upstream function is taken from the
patch's ``__wrapped__`` (``_ee_unbudgeted``) and put back for the test's time.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import importlib.metadata
import importlib.util
import inspect
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from tornado import httpclient, httpserver, testing, web

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM = ROOT / "docs" / "upstream"
A = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"
B = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb"


def fixed(doc: str) -> str:
    assert (UPSTREAM / doc).is_file(), doc
    return f"upstream fixed: this patch can go, see docs/upstream/{doc}"


def upstream(function):
    """The package's own function behind a patch of the site's (or the function itself)."""
    return getattr(function, "__wrapped__", getattr(function, "_ee_unbudgeted", function))


async def fetch(app: web.Application, path: str, method: str = "GET"):
    """One request to ``app``, served in this process on a free port."""
    sock, port = testing.bind_unused_port()
    server = httpserver.HTTPServer(app)
    server.add_sockets([sock])
    try:
        return await httpclient.AsyncHTTPClient().fetch(
            f"http://127.0.0.1:{port}{path}",
            method=method,
            raise_error=False,
            allow_nonstandard_methods=True,
        )
    finally:
        server.stop()


@pytest.fixture
def upstream_error_pages(monkeypatch):
    """jupyter_server's own ``JupyterHandler.write_error`` for the test's time."""
    from jupyter_server.base.handlers import JupyterHandler

    monkeypatch.setattr(JupyterHandler, "write_error", upstream(JupyterHandler.write_error))


# --- Voilà's request-info socket (elo_explain/server/query.py) --------------------------------
def test_voila_request_info_on_close_deletes_another_kernels_waiter():
    """Two sockets for one made-up id, opened and closed, delete the waiter of the pooled
    kernel that opened first (Voilà 0.5.13 ``RequestInfoSocketHandler.on_close``)."""
    from voila.request_info_handler import RequestInfoSocketHandler as Handler

    saved = dict(Handler._waiters)
    Handler._waiters.clear()
    try:
        pooled, first, second = (object.__new__(Handler) for _ in range(3))
        pooled.open(A)
        first.open(B)
        second.open(B)  # overwrites first's entry
        first.on_close()
        left_after_first = dict(Handler._waiters)
        with contextlib.suppress(Exception):
            second.on_close()
        bug = Handler._waiters.get(A) is not pooled
        assert bug, fixed("voila_query_waiter.md")
        # what the patch answers, by hand: the first close took B's entry (the second socket's),
        # the second one then deleted A's
        assert left_after_first == {A: pooled} and Handler._waiters == {}
    finally:
        Handler._waiters.clear()
        Handler._waiters.update(saved)


def test_voila_names_its_request_info_handler_in_no_configuration():
    """The site's socket replaces Voilà's by pointing Voilà's two references at it
    (``query.install``): no trait of Voilà's names the handler class."""
    from voila.app import Voila
    from voila.configuration import VoilaConfiguration

    traits = [
        *Voila.class_trait_names(config=True),
        *VoilaConfiguration.class_trait_names(config=True),
    ]
    assert not [n for n in traits if "request_info" in n or "query" in n], fixed(
        "voila_query_waiter.md"
    )
    source = inspect.getsource(Voila.init_handlers)
    assert "RequestInfoSocketHandler" in source, fixed("voila_query_waiter.md")


# --- the error pages of jupyter_server's handlers in Voilà (elo_explain/server/gate.py) ----------
def test_voila_gives_jupyter_servers_error_pages_no_static_path(
    upstream_error_pages, caplog, monkeypatch, tmp_path
):
    """Voilà's own settings and routes, without any configuration: an unknown theme's 404
    page fails to render (``static_url`` without ``static_path``) and is empty."""
    from voila.app import Voila

    monkeypatch.chdir(tmp_path)  # not the repository's voila.json
    voila = Voila()
    voila.initialize([str(tmp_path), "--no-browser", "--port=0"])
    settings = voila.init_settings()
    assert "static_path" not in settings, fixed("voila_error_pages_static_path.md")
    app = web.Application(**settings)
    app.add_handlers(".*$", voila.init_handlers())
    with caplog.at_level(logging.ERROR, logger="tornado.application"):
        r = asyncio.run(fetch(app, "/voila/api/themes/x"))
    assert r.code == 404
    failed = "static_path" in caplog.text and "Uncaught exception in write_error" in caplog.text
    assert failed and not r.body, fixed("voila_error_pages_static_path.md")


def _jupyter_app(provider):
    """A jupyter_server page handler with the settings its error template needs (as
    jupyter_server's own ``ServerApp`` gives them: its templates and static files)."""
    import jinja2
    from jupyter_server import DEFAULT_STATIC_FILES_PATH, DEFAULT_TEMPLATE_PATH_LIST
    from jupyter_server.base.handlers import JupyterHandler

    class Page(JupyterHandler):
        def get(self):
            self.finish("a page")

    return web.Application(
        [(r"/page", Page)],
        static_path=DEFAULT_STATIC_FILES_PATH,
        jinja2_env=jinja2.Environment(loader=jinja2.FileSystemLoader(DEFAULT_TEMPLATE_PATH_LIST)),
        identity_provider=provider,
        allow_remote_access=True,
    )


@pytest.mark.parametrize(
    "method,why",
    [
        ("PROPFIND", "a method the handler has not"),
        ("GET", "the identity provider refuses the request"),
    ],
)
def test_jupyter_servers_error_page_needs_a_user_prepare_has_not_set(
    upstream_error_pages, caplog, method, why
):
    """An error before ``prepare`` (tornado's 405) or in the identity provider's ``get_user``
    (how an identity provider refuses a request): ``write_error`` asks for the current user,
    and jupyter_server's ``get_current_user`` raises ``RuntimeError``; the page is empty."""
    from jupyter_server.auth.identity import IdentityProvider

    class Refusing(IdentityProvider):
        def get_user(self, handler):
            raise web.HTTPError(404)

    with caplog.at_level(logging.ERROR, logger="tornado.application"):
        r = asyncio.run(fetch(_jupyter_app(Refusing(token="")), "/page", method))
    assert r.code == (405 if method == "PROPFIND" else 404), why
    failed = "RuntimeError" in caplog.text and "get_current_user" in caplog.text
    assert failed and not r.body, fixed("jupyter_server_error_page_without_user.md")


# --- Voilà's template asset handler (elo_explain/server/gate.py) ------------------------------
def test_voila_template_assets_unpack_a_path_without_checking_its_shape():
    """A path ``normpath`` shortens (``lab/static/../../etc/passwd``) raises ``ValueError`` in
    ``get_absolute_path`` (the site's patch answers 404); a short one (``lab/conf.json``)
    raises in ``parse_url_path`` (not patched: tornado answers 500)."""
    from voila.static_file_handler import TemplateStaticFileHandler as Handler

    get_absolute_path = upstream(vars(Handler)["get_absolute_path"].__func__)

    def raised(call, *args) -> str:  # the exception's name, "" for none (a 404 is a fix)
        try:
            call(*args)
        except Exception as exc:  # noqa: BLE001
            return type(exc).__name__
        return ""

    assert raised(get_absolute_path, Handler, "/", "lab/static/../../etc/passwd") == "ValueError", (
        fixed("voila_template_static_path.md")
    )
    shapes = [
        raised(Handler.parse_url_path, object.__new__(Handler), path)
        for path in ("lab/conf.json", "lab", "/etc/passwd")
    ]
    assert shapes == ["ValueError", "ValueError", "AssertionError"], fixed(
        "voila_template_static_path.md"
    )


# --- the shutdown beacon (share/.../static/elo-explain.js: navigator.sendBeacon) -----------------
def _voila_bundle(needle: str) -> str:
    import voila

    found = [
        p
        for p in Path(voila.__file__).parent.glob("labextensions/*/static/*.js")
        if needle in p.read_text(errors="replace")
    ]
    assert found, f"no Voilà bundle has {needle!r}"
    return found[0].read_text(errors="replace")


def test_voilas_shutdown_beacon_carries_only_the_xsrf_cookie():
    """Voilà's page sends its shutdown beacon with the ``_xsrf`` cookie's value and nothing
    else (voila-dashboards/voila#1458: a render sets no such cookie, so the beacon gets 403);
    the site's script adds the page's token to it."""
    bundle = _voila_bundle("voila/api/shutdown/")
    at = bundle.index("voila/api/shutdown/")
    beacon = bundle[bundle.rindex("beforeunload", 0, at) : at]
    assert "_xsrf" in beacon and "sendBeacon" in beacon, fixed("voila_page_script_hooks.md")
    assert beacon.count(".append(") == 1, fixed("voila_page_script_hooks.md")


def test_voilas_page_tells_no_script_that_its_kernel_is_gone():
    """Voilà's widget manager makes the page's kernel connection itself and announces nothing
    about it to the page (no DOM event): the site's script watches the kernel's websocket
    (``window.WebSocket``) to say "this view has stopped"."""
    bundle = _voila_bundle("KernelConnection(")
    assert "CustomEvent" not in bundle and "dispatchEvent" not in bundle, fixed(
        "voila_page_script_hooks.md"
    )


# --- the end of an admitted render (elo_explain/server/gate.py, PublishedOnly._admit) -------------
def test_an_identity_provider_hears_nothing_when_a_request_ends():
    """jupyter_server's ``IdentityProvider`` (the configurable code that sees every request)
    has no end-of-request hook: the gate wraps the admitted render's ``on_finish``."""
    from jupyter_server.auth.identity import IdentityProvider

    hooks = [
        n
        for n in dir(IdentityProvider)
        if any(w in n for w in ("finish", "done", "complete", "request_end"))
    ]
    assert not hooks, fixed("README.md") + " (row 3: PublishedOnly._admit's on_finish)"


# --- the preheated pool's hand-out (elo_explain/server/kernels.py) --------------------------------
def test_voilas_pool_hands_a_kernel_out_through_no_hook():
    """Voilà's pool manager subclasses the configured kernel manager and its
    ``get_rendered_notebook`` calls neither ``super()`` nor a hook: the site shadows it on the
    instance (``ViewerKernels.__init__``)."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    class Base(AsyncMappingKernelManager):
        async def get_rendered_notebook(self, *args, **kwargs):
            raise AssertionError("never called")

    managers = voila_kernel_manager_factory(Base, preheat_kernel=True, default_pool_size=1)
    used = managers.get_rendered_notebook
    hooks = [
        n
        for n in managers.class_trait_names(config=True)
        if any(w in n for w in ("hook", "callback", "handed", "taken"))
    ]
    assert (
        used is not Base.get_rendered_notebook
        and "super()" not in inspect.getsource(used)
        and not hooks
    ), fixed("voila_pool_handout_hook.md")


# --- the kernel's wait for its request (elo_explain/server/preheat.py) ----------------------------
def test_voilas_wait_for_request_imports_the_server():
    """``from voila.utils import wait_for_request`` (the helper a preheated kernel calls)
    imports jupyter_server and jupyterlab_server; ``preheat`` writes its client again."""
    probe = (
        "import sys; sys.modules.setdefault('rfc3987_syntax', None); "
        "from voila.utils import wait_for_request; "
        "print(' '.join(m for m in ('jupyter_server', 'jupyterlab_server') "
        "if m in sys.modules))"
    )
    with tempfile.TemporaryDirectory() as folder:
        out = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=folder
        ).stdout.split()
    assert out == ["jupyter_server", "jupyterlab_server"], fixed("voila_wait_for_request_import.md")


# --- jsonschema's URI grammars (elo_explain/server/__init__.py) -----------------------------------
def test_jsonschema_imports_rfc3987_syntax_as_it_is_imported():
    """jsonschema's ``_format`` module imports ``rfc3987_syntax`` as it is imported (at module
    level, in a ``try``, not in a function), and that import compiles its grammars: the
    launcher marks the module absent (python-jsonschema/jsonschema#1428)."""
    spec = importlib.util.find_spec("jsonschema._format")

    def eager_imports(node):  # the imports run at import time: none inside a function
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield ast.unparse(node)
        for child in ast.iter_child_nodes(node):
            yield from eager_imports(child)

    tree = ast.parse(Path(spec.origin).read_text())
    eager = [line for line in eager_imports(tree) if "rfc3987_syntax" in line]
    assert eager, (
        "upstream fixed: without_rfc3987_syntax can go "
        "(python-jsonschema/jsonschema#1428), see docs/upstream/README.md"
    )
    importlib.metadata.distribution("rfc3987-syntax")  # installed, so it would load


# --- the published kernel's guards (elo_explain/server/published_kernel.py) -----------------------
def test_ipywidgets_sets_any_size_of_state_a_page_sends():
    """ipywidgets' ``Widget._handle_msg`` sets a 1 MiB text from one message: no size limit
    and no hook before the state is set (the published kernel wraps the method)."""
    import ipywidgets

    handle = upstream(ipywidgets.Widget._handle_msg)
    box = ipywidgets.Text()
    text = "x" * 2**20
    handle(
        box,
        {
            "content": {"data": {"method": "update", "state": {"value": text}, "buffer_paths": []}},
            "buffers": [],
        },
    )
    limits = [n for n in ipywidgets.Widget.class_trait_names() if "max" in n or "limit" in n]
    assert box.value == text and not limits, fixed("ipywidgets_published_kernel.md")
    box.close()


def test_ipywidgets_shows_a_callbacks_error_with_the_shells_showtraceback(monkeypatch):
    """A widget callback's error goes to ``get_ipython().showtraceback()``: the traceback
    (the server's file paths) is published to the page; the published kernel replaces its
    shell's ``showtraceback``."""
    import ipywidgets
    from ipywidgets.widgets import widget

    shown = []

    class Shell:
        def showtraceback(self, *args, **kwargs):
            shown.append(sys.exc_info()[0])

    monkeypatch.setattr(widget, "get_ipython", lambda: Shell())
    button = ipywidgets.Button()
    button.on_click(lambda _b: 1 / 0)
    button.click()
    button.close()
    assert shown == [ZeroDivisionError], fixed("ipywidgets_published_kernel.md")


def test_ipywidgets_file_upload_has_no_size_limit():
    """ipywidgets' ``FileUpload`` takes a file of any size (no trait bounds it): the site's
    script checks a file's size before the widget reads it (``HTMLInputElement.click``)."""
    import ipywidgets

    traits = ipywidgets.FileUpload.class_trait_names()
    assert not [n for n in traits if "size" in n or "limit" in n or n.startswith("max")], fixed(
        "ipywidgets_published_kernel.md"
    )


# --- private reads (elo_explain/interactive/figures.py, elo_explain/translate.py) -------------
def test_matplotlib_has_no_getter_for_a_max_n_locators_bins():
    """``MaxNLocator.set_params(nbins=...)`` has no reading counterpart: the phone layout reads
    ``locator._nbins`` to give the desktop's back."""
    from matplotlib import ticker

    locator = ticker.MaxNLocator(nbins=6)
    getters = [n for n in dir(locator) if n.startswith("get") and "param" in n or n == "nbins"]
    assert not getters and locator._nbins == 6, fixed("README.md")


def test_babel_has_no_public_way_to_add_an_obsolete_message():
    """babel's ``Catalog.obsolete`` is keyed by ``Catalog._key_for`` (the msgid, or
    ``(msgid, context)``) and no public method adds to it: ``translate`` asks ``_key_for``."""
    from babel.messages.catalog import Catalog

    adders = [n for n in dir(Catalog) if "obsolete" in n and not n.startswith("_")]
    assert adders == ["obsolete"] or adders == [], fixed("README.md")
    assert Catalog()._key_for("a", "ctx") == ("a", "ctx") and Catalog()._key_for(("a", "b")) == "a"


def test_the_cheapest_reproduction_scripts_show_their_defect():
    """A ``docs/upstream/*.py`` exits 1 while its defect is there: the two cheapest run here
    (the tests above check every defect on its own, faster)."""
    for script in ("voila_template_static_path.py", "voila_pool_handout_hook.py"):
        with tempfile.TemporaryDirectory() as folder:
            run = subprocess.run(
                [sys.executable, str(UPSTREAM / script)],
                capture_output=True,
                text=True,
                cwd=folder,
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )
        assert run.returncode == 1, f"{script}: {fixed(script.replace('.py', '.md'))}\n{run.stdout}"
