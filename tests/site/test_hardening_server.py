"""Misuse of the published server: a viewer cannot run code or see more than the dashboards.

Everything runs against a real ``voila`` with the repo's ``voila.json`` (the ``voila_url``
fixture), through plain HTTP and the kernel websocket, the way a hostile viewer would.
The published configuration:

* Voilà forwards only comm and info messages over a kernel's websocket
  (``allowed_message_types`` in ``voila/app.py``): an ``execute_request`` is dropped.
* ``voila.json`` names the gate ``elo_explain.server.gate.PublishedOnly``: ``/`` and the
  tree listing redirect to the landing page, the contents API, files and any notebook
  not in ``DASHBOARDS`` answer 404; template/theme overrides are off.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from html import unescape

import pytest
import requests

from elo_explain.dashboards.index import published
from harness import (
    HTTP_TIMEOUT,
    NOTEBOOKS,
    ROOT,
    KernelSocket,
    Viewer,
    code_lines,
    start_voila,
)


def published_notebooks() -> list[str]:
    return ["index.ipynb", *(d.notebook for d in published())]


def _beacon(base: str, kernel_id: str, token: str) -> None:
    """What a page's beacon does (``Viewer.close``) for one kernel: its answer waits for the
    kernel to end."""
    other = Viewer(base)
    # (one that no websocket reached may be gone already, ``connect_timeout`` after its render)
    if other.get(f"/api/kernels/{kernel_id}").status_code == 200:
        other.shutdown(kernel_id, token=token)
    other.http.close()


@pytest.fixture(scope="module")
def _renders(voila_url):
    v = Viewer(voila_url)
    with ThreadPoolExecutor(max_workers=4) as pool:
        v.pool = pool
        yield v
    v.http.close()


@pytest.fixture
def viewer(_renders):
    """The module's viewer: the kernels a test's renders started are shut down after it, in
    the background (kept to its end, they took this address' share of kernels: a later page
    waited for one to go)."""
    before = len(_renders.kernels)
    yield _renders
    for kid in _renders.kernels[before:]:
        _renders.pool.submit(_beacon, _renders.base, kid, _renders.tokens[kid])


@pytest.fixture(scope="module")
def landing(voila_url):
    """One render of the landing page for the module's tests: ``(its HTML, its kernel id)``."""
    v = Viewer(voila_url)
    yield v.render("index.ipynb")
    v.close()


# ---------------------------------------------------------------- kernel websocket


@pytest.mark.parametrize("protocol", ["legacy", "v1"])
def test_viewer_cannot_execute_code_over_the_kernel_websocket(
    landing, voila_url, tmp_path, protocol
):
    target = tmp_path / "pwned.txt"
    code = f"open({str(target)!r}, 'w').write('pwned')"
    # control: the payload itself works when a kernel does run it
    control = tmp_path / "control.txt"
    subprocess.run([sys.executable, "-c", code.replace(str(target), str(control))], check=True)
    assert control.read_text() == "pwned"

    _html, kernel_id = landing
    if protocol == "legacy":  # refused outright: its frames froze the server
        from websockets.exceptions import InvalidStatus

        with pytest.raises(InvalidStatus) as refused:
            KernelSocket(voila_url, kernel_id, protocol)
        assert refused.value.response.status_code == 400
        assert not target.exists()
        return
    ws = KernelSocket(voila_url, kernel_id, protocol)
    try:
        attempts = {
            ws.send(
                "execute_request",
                {
                    "code": code,
                    "silent": False,
                    "store_history": True,
                    "user_expressions": {"x": code},
                    "allow_stdin": False,
                    "stop_on_error": True,
                },
            ): "execute_request (shell)",
            ws.send(
                "execute_request",
                {
                    "code": code,
                    "silent": True,
                    "store_history": False,
                    "user_expressions": {},
                    "allow_stdin": False,
                    "stop_on_error": True,
                },
                channel="control",
            ): "execute_request (control)",
            ws.send(
                "debug_request",
                {
                    "type": "request",
                    "seq": 1,
                    "command": "evaluate",
                    "arguments": {"expression": code},
                },
                channel="control",
            ): "debug_request",
            ws.send(
                "history_request",
                {"output": False, "raw": True, "hist_access_type": "tail", "n": 100},
            ): "history_request (would leak the notebook's source)",
            ws.send(
                "inspect_request", {"code": "open", "cursor_pos": 4, "detail_level": 1}
            ): "inspect_request",
            ws.send("complete_request", {"code": "import o", "cursor_pos": 8}): "complete_request",
        }
        comm_info = ws.send("comm_info_request", {})
        barrier = ws.send("kernel_info_request", {})  # the shell channel is served in order
        replies: dict[str, dict] = {}
        while barrier not in replies:
            msg = ws.receive()
            parent = msg.get("parent_header", {}).get("msg_id")
            if msg["header"]["msg_type"].endswith("_reply") and parent:
                replies[parent] = msg
    finally:
        ws.close()

    answered = [what for mid, what in attempts.items() if mid in replies]
    assert not answered, f"the kernel answered {answered}: forbidden message types reach it"
    assert not target.exists(), "a viewer executed code: the file was created"
    # the mechanism is not vacuous: allowed messages do get answered over the same socket
    assert replies[barrier]["content"]["status"] == "ok"
    assert replies[barrier]["content"]["language_info"]["name"] == "python"
    assert comm_info in replies and replies[comm_info]["content"]["status"] == "ok"


# ---------------------------------------------------------------- page content


@pytest.mark.parametrize("notebook", published_notebooks())
def test_rendered_page_contains_no_notebook_source(request, notebook):
    # the landing page: the module's render of it
    html, _ = (
        request.getfixturevalue("landing")
        if notebook == "index.ipynb"
        else request.getfixturevalue("viewer").render(notebook)
    )
    # syntax highlighting splits a source line into spans: compare with the tag-free text too
    text = unescape(re.sub(r"<[^>]+>", "", html))
    for line in code_lines(notebook):
        assert line not in html and line not in text, (
            f"{notebook}: the page contains notebook source {line!r}"
        )
    assert "Traceback" not in html, f"{notebook}: the page contains a traceback"
    for css in ("jp-InputArea-editor", "jp-InputPrompt", "hl-ipython3"):  # a code cell's input
        assert not re.search(rf'class="[^"]*\b{css}\b', html), f"{notebook}: an element {css!r}"


def test_template_and_theme_overrides_are_ignored(viewer, landing):
    plain, _ = landing
    for query in (
        "?template=classic",
        "?theme=dark",
        "?template=reveal&theme=dark",
        "?template=../../../etc&theme=../../x",
    ):
        html, _ = viewer.render("index.ipynb", query)
        for page, what in ((plain, "plain"), (html, query)):
            assert "templates/elo-explain/static" in page, f"{what}: not the published template"
            assert not re.search(r"templates/(classic|reveal)/", page), f"{what}: another template"
            assert '"jupyterLabTheme": "light"' in page, f"{what}: not the light theme"
            assert 'data-jp-theme-name="JupyterLab Light"' in page, f"{what}: not the light theme"


# ---------------------------------------------------------------- refused URLs

# Text that must never appear in a refused response: listings, sources, files.
LEAKS = (
    "index.ipynb",
    "01_chess",
    "nbformat",
    '"cells"',
    "pyproject",
    "[project]",
    "root:x:0:0",
    "elo_explain",
    '"content"',
    "last_modified",
    "Traceback",
)

REFUSED = [
    "/voila",
    "/voila/",
    "/tree",
    "/tree/notebooks",
    "/api/contents",
    "/api/contents/notebooks",
    "/api/contents/index.ipynb",
    "/voila/api/contents",
    "/voila/api/contents/",
    "/voila/api/contents/index.ipynb",
    "/voila/api/contents/..%2F",
    "/files/index.ipynb",
    "/files/notebooks/index.ipynb",
    "/voila/files/index.ipynb",
    "/voila/files/../pyproject.toml",
    "/voila/files/..%2Fpyproject.toml",
    "/voila/files/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
    "/voila/files/%2Fetc%2Fpasswd",
    "/terminals",
    "/terminals/1",
    "/api/terminals",
    "/lab",
    "/lab/tree/index.ipynb",
    "/notebooks/index.ipynb",
    "/edit/index.ipynb",
    "/api/kernels",
    "/api/sessions",
    "/api/kernelspecs",
    "/api/config/notebook",
    "/api/status",
    "/api/me",
    "/login",
    "/logout",
    "/voila/render/",
    "/voila/render/../pyproject.toml",
    "/voila/render/..%2Fpyproject.toml",
    "/voila/render/../benchmarks/x.ipynb",
    "/voila/render/..%2Fbenchmarks%2Fx.ipynb",
    "/voila/render/%2Fetc%2Fpasswd",
    "/voila/render/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
    "/voila/render/.%2Findex.ipynb",
    "/voila/render/index.ipynb/",
    "/voila/render/INDEX.ipynb",
    "/voila/render/%2Fwork%2Fmain%2Fnotebooks%2Findex.ipynb",
    "/voila/render/..%2Ftests%2Ftest_landing.py",
    "/voila/static/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
    "/voila/labextensions/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
    "/voila/api/themes/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
]


def _assert_refused(r: requests.Response, what: str, allow_5xx: bool = False) -> None:
    top = 600 if allow_5xx else 500
    assert 400 <= r.status_code < top, (
        f"{what}: HTTP {r.status_code} (final URL {r.url}), not refused"
    )
    for leak in LEAKS:
        assert leak not in r.text, f"{what}: HTTP {r.status_code} body leaks {leak!r}"


@pytest.mark.parametrize("path", REFUSED)
def test_url_is_refused(voila_url, path):
    r = requests.get(voila_url + path, timeout=HTTP_TIMEOUT)  # redirects are followed
    _assert_refused(r, path)


@pytest.mark.parametrize(
    "path",
    [
        "/voila/templates/lab/static/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "/voila/templates/../../../../etc/passwd",
        "/voila/templates/%2Fetc%2Fpasswd",
        "/voila/templates/lab/conf.json",
    ],
)
def test_template_asset_traversal_leaks_nothing(voila_url, path):
    # Voilà's TemplateStaticFileHandler is a plain tornado handler outside the gate; it
    # answers malformed paths with a bare 500 (upstream wart), never with the file.
    r = requests.get(voila_url + path, timeout=HTTP_TIMEOUT)
    _assert_refused(r, path, allow_5xx=True)


@pytest.mark.parametrize(
    "method,path",
    [
        ("PUT", "/voila/api/contents/evil.ipynb"),
        ("POST", "/voila/api/contents/"),
        ("POST", "/api/kernels"),
        ("POST", "/api/sessions"),
        ("POST", "/api/terminals"),
        ("DELETE", "/voila/api/contents/index.ipynb"),
        ("PATCH", "/voila/api/contents/index.ipynb"),
    ],
)
def test_writes_are_refused(voila_url, method, path):
    r = requests.request(method, voila_url + path, json={"type": "notebook"}, timeout=HTTP_TIMEOUT)
    _assert_refused(r, f"{method} {path}")


@pytest.mark.parametrize(
    "path", ["/", "/voila/tree", "/voila/tree/", "/voila/tree/sub", "/voila/tree/%2F"]
)
def test_root_and_tree_land_on_the_landing_page(voila_url, path):
    r = requests.get(voila_url + path, timeout=HTTP_TIMEOUT, allow_redirects=False)
    assert r.status_code in (301, 302), f"{path}: HTTP {r.status_code}, expected a redirect"
    assert r.headers["Location"].endswith("/voila/render/index.ipynb"), r.headers["Location"]
    assert "Voilà Home" not in r.text and ".ipynb" not in r.text


def test_notebook_outside_the_published_list_is_refused(tmp_path):
    """A notebook copied next to the published ones is not served (the gate reads DASHBOARDS)."""
    folder = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, folder)
    shutil.copy(NOTEBOOKS / "index.ipynb", folder / "secret.ipynb")
    (folder / "sub").mkdir()
    shutil.copy(NOTEBOOKS / "index.ipynb", folder / "sub" / "index.ipynb")
    log = open(tmp_path / "voila.log", "w")
    proc, base = start_voila(notebooks=folder, log=log)
    try:
        for path in (
            "/voila/render/secret.ipynb",
            "/voila/render/sub/index.ipynb",
            "/voila/render/sub%2Findex.ipynb",
            "/voila/render/./secret.ipynb",
            "/voila/api/contents/secret.ipynb",
            "/voila/files/secret.ipynb",
        ):
            r = requests.get(base + path, timeout=HTTP_TIMEOUT)
            _assert_refused(r, path)
            assert "secret" not in r.text
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def test_the_published_config_is_the_one_tested():
    config = json.loads((ROOT / "voila.json").read_text())
    vc = config["VoilaConfiguration"]
    assert vc["strip_sources"] is True and vc["show_tracebacks"] is False
    assert vc["allow_template_override"] == "NO" and vc["allow_theme_override"] == "NO"
    assert vc["file_allowlist"] == [] and ".*" in vc["file_denylist"]
    assert config["Voila"]["identity_provider_class"] == "elo_explain.server.gate.PublishedOnly"
    # under load (20 viewers, 2 cores) nbclient's default 4 s dropped outputs: blank dashboards
    assert config["VoilaExecutor"]["iopub_timeout"] >= 30
    cull = config["MappingKernelManager"]
    assert cull["cull_idle_timeout"] > 0 and cull["cull_interval"] > 0
