"""A topic notebook in a real JupyterLab (the ``make lab`` server) and headless Chromium.

The reader's path: open ``03_backgammon_divisor.ipynb``, Run → Run All Cells, read the
document's tables under the parameters cell and use the interactive view of the last cell.
The server runs on a copy of the notebook in a temporary folder, with JupyterLab settings
of its own (no autosave, no news prompt, the kernel started without asking, every cell
in the page), so the repository's notebook stays without outputs.

Run as a script, it retakes the README's screenshot of the parameters cell and its tables::

    PYTHONPATH=tests .venv/bin/python tests/notebooks/test_lab.py   # writes docs/screenshots/lab_read_and_tweak.png
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from harness import (
    LOAD_TIMEOUT_MS,
    NOTEBOOKS,
    ROOT,
    free_port,
    launch_chromium,
    stop,
    table_row,
    wait_http,
)

NOTEBOOK = "03_backgammon_divisor.ipynb"
SCREENSHOT = ROOT / "docs" / "screenshots" / "lab_read_and_tweak.png"
SETTINGS = {  # JupyterLab user settings: plugin id -> values
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {
        "windowingMode": "none",
        "autoStartDefaultKernel": True,
    },
}


@contextlib.contextmanager
def lab_server(folder: Path):
    """``jupyter lab`` (as ``make lab``) on a free port, serving ``folder``; yields the URL
    prefix of a notebook (``.../lab/tree/``) and the token query."""
    settings = folder / ".settings"
    for plugin, values in SETTINGS.items():
        package, name = plugin.rsplit("/", 1)
        path = settings / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        str(Path(sys.executable).with_name("jupyter")),
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={folder}",
        "--allow-root",
        f"--LabApp.user_settings_dir={settings}",
        f"--LabApp.workspaces_dir={folder / '.ws'}",
    ]
    log = open(folder / "lab.log", "w")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(f"{base}/api/status?token={token}", proc)
        yield f"{base}/lab/tree/", f"?token={token}"
    finally:
        stop(proc)
        log.close()


def run_all_cells(page, tree: str, token: str, notebook: str = NOTEBOOK) -> None:
    """Open the notebook, Run → Run All Cells, and wait for its tables and its view.

    Each notebook (``uk/03`` apart from ``03``) opens in a workspace of its own, so the page holds no other notebook
    (whose kernel status the status bar could show)."""
    name = Path(notebook).with_suffix("").as_posix().replace("/", "-")  # uk/03: uk-03_…
    workspace = tree.replace("/lab/tree/", f"/lab/workspaces/{name}/tree/")
    page.goto(f"{workspace}{notebook}{token}", timeout=LOAD_TIMEOUT_MS)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    # the kernel answers when the status bar reads "Python 3 ... | Idle" (before it: "No
    # Kernel | Initializing", "Connecting"; a Run All sent then is lost)
    expect(page.locator("#jp-main-statusbar")).to_contain_text(
        re.compile(r"Python 3[^|]*\| Idle"), timeout=LOAD_TIMEOUT_MS
    )
    page.locator("#jp-MainMenu .lm-MenuBar-item", has_text="Run").click()
    page.locator(".lm-Menu .lm-Menu-itemLabel").get_by_text("Run All Cells", exact=True).click()
    page.locator(".jp-OutputArea-output .ee-ready").wait_for(timeout=LOAD_TIMEOUT_MS)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """One JupyterLab for the module, on a folder with a copy of ``03`` and of ``uk/03`` with
    its parameters cell changed to ÷800 (as a reader edits it)."""
    folder = tmp_path_factory.mktemp("lab")
    shutil.copy(NOTEBOOKS / NOTEBOOK, folder / NOTEBOOK)
    nb = json.loads((NOTEBOOKS / "uk" / NOTEBOOK).read_text("utf-8"))
    params = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    assert "".join(params["source"]) == "DIVISOR = 1200\nDIFFERENCE = 300"
    params["source"] = ["DIVISOR = 800\n", "DIFFERENCE = 300"]
    (folder / "uk").mkdir()
    (folder / "uk" / NOTEBOOK).write_text(json.dumps(nb, ensure_ascii=False), "utf-8")
    with lab_server(folder) as (tree, token):
        yield tree, token


def check_03_tables_and_view(page) -> None:
    """03 after Run All: the document's tables in the cells' outputs, the view answering,
    and the tables above it following it."""
    outputs = page.locator(".jp-OutputArea-output")
    # the document's ÷1200 table (step 1: 300 points up -> 64.0 %) in a cell's output
    expect(outputs.locator("table.ee-table").first).to_contain_text("64.0")
    # the version history at 300 points up: 84.9 / 70.3 / 64.0 %, +5 / +9 / +12
    history = outputs.locator("table.ee-table", has_text="A favourite 300 points up")
    for text in ("84.9", "70.3", "64.0", "+5", "+9", "+12", "−27", "−23", "−20"):
        expect(history).to_contain_text(text)
    # the interactive view of the last cell, started from the parameters
    view = outputs.locator(".ee-ready")
    expect(view.locator(".ee-summary")).to_contain_text(
        "300 points up, ÷1200: expected win rate 64.0 %"
    )
    # it answers: type ÷800 (the document: 70.3 % at 300 points up)
    field = view.locator(".ee-divisor-field input")
    field.fill("800")
    field.press("Enter")
    expect(view.locator(".ee-summary")).to_contain_text(
        "÷800: expected win rate 70.3 %", timeout=LOAD_TIMEOUT_MS
    )
    # and the tables in the cells above follow the view: the document's
    # ÷800 at 300 points up, 70.3 %, +9 / −23, beside its ÷1200 column (64.0 %)
    win_rates = outputs.locator(".ee-live-win-rates")
    expect(win_rates).to_contain_text("÷800 (your divisor)", timeout=LOAD_TIMEOUT_MS)
    expect(table_row(win_rates, "300")).to_have_text(["300", "64.0 %", "70.3 %"])
    expect(
        table_row(outputs.locator(".ee-live-history"), "Your divisor (÷800)").nth(2)
    ).to_have_text("70.3 %")


def test_lab_runs_the_divisor_notebook(browser, lab):
    """03 as a reader opens it in JupyterLab: Run All Cells gives the document's tables above
    the interactive view, no cell shows an error, and the view answers
    (:func:`check_03_tables_and_view`). Every other topic notebook runs top to bottom with
    its tables and no error in ``test_notebooks_execute.py`` (nbclient: the same kernel,
    without JupyterLab's page around it; a notebook runs once per set of parameters)."""
    tree, token = lab
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    try:
        run_all_cells(page, tree, token, NOTEBOOK)
        outputs = page.locator(".jp-OutputArea-output")
        expect(outputs.locator(".ee-ready")).to_have_count(1)
        assert page.locator(".jp-OutputArea-output[data-mime-type*='error']").count() == 0
        assert "Traceback" not in page.locator(".jp-Notebook").inner_text()
        check_03_tables_and_view(page)
    finally:
        context.close()
    # the repository's notebook is untouched (no outputs written back)
    cells = json.loads((NOTEBOOKS / NOTEBOOK).read_text())["cells"]
    assert all(c.get("outputs", []) == [] for c in cells if c["cell_type"] == "code")


def test_lab_runs_a_translated_notebook_with_a_parameter_changed(browser, lab):
    """A Ukrainian reader in JupyterLab: ``uk/03`` with the parameters cell changed to ÷800
    (as a reader edits it), Run All: the tables and the view in Ukrainian, decimal commas."""
    tree, token = lab
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    try:
        run_all_cells(page, tree, token, f"uk/{NOTEBOOK}")
        outputs = page.locator(".jp-OutputArea-output")
        # the Greek document's ÷800 at 300 points up: 70.3 %, in Ukrainian 70,3%
        win_rates = outputs.locator(".ee-live-win-rates")
        expect(table_row(win_rates, "300")).to_have_text(
            ["300", "64,0%", "70,3%"], timeout=LOAD_TIMEOUT_MS
        )
        view = outputs.locator(".ee-ready")
        expect(view.locator(".ee-summary")).to_contain_text("70,3%")
        # the view answers in Ukrainian: ÷1000 at 300 points up, 1 / (1 + 10^-0.3) = 66,6%
        field = view.locator(".ee-divisor-field input")
        field.fill("1000")
        field.press("Enter")
        expect(view.locator(".ee-summary")).to_contain_text("66,6%", timeout=LOAD_TIMEOUT_MS)
        text = page.locator(".jp-Notebook").inner_text()
        from elo_explain.translate import english_left

        assert english_left(text, "uk") == []
        assert page.locator(".jp-OutputArea-output[data-mime-type*='error']").count() == 0
    finally:
        context.close()


def screenshot(target: Path = SCREENSHOT) -> None:
    """JupyterLab with the notebook's parameters cell at the top and its first tables."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        folder = Path(tmp)
        shutil.copy(NOTEBOOKS / NOTEBOOK, folder / NOTEBOOK)
        with lab_server(folder) as (tree, token):
            browser = launch_chromium(p)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            run_all_cells(page, tree, token)
            # room for the notebook: fold the file browser, the parameters cell on top
            page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()
            page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").wait_for(
                state="detached"
            )
            params = page.locator(".jp-Notebook .jp-CodeCell").first
            params.click()  # the parameters cell is the active one
            params.evaluate("cell => cell.scrollIntoView({block: 'start'})")
            page.locator(".jp-OutputArea-output table.ee-table").nth(1).wait_for(state="visible")
            page.mouse.move(2, 880)  # no row under the pointer (hover highlight)
            target.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(target))
            browser.close()
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    screenshot()
