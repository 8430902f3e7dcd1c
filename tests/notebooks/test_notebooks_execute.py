"""Every notebook runs headlessly from top to bottom (nbclient) and is committed clean.

Each topic notebook starts with a cell tagged ``parameters`` (papermill's convention) of
plain assignments, and the dashboard its last cell returns starts from exactly those
values: the view model's ``params`` are the cell's names in lower case (also the names a
link's query string uses). Every kernel run checks it (``notebook_runner``); the runs
themselves are those with parameters injected (``test_notebook_parameters.py``).
"""

import ast
import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from elo_explain.dashboards import DASHBOARDS
from harness import NOTEBOOKS

HERE = Path(__file__).resolve().parent

NOTEBOOK_FILES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
TOPICS = [d.notebook for d in DASHBOARDS]


RUNNERS = (HERE / "test_notebook_parameters.py",)


def test_every_topic_notebook_is_run_in_a_kernel():
    """Each topic notebook runs in a kernel at least once (``notebook_runner.run_notebook``,
    with parameters injected: ``test_notebook_parameters.py``);
    each such run checks that it starts from its parameters (the cell's values with the
    injected ones over them), its last cell returns the widget, its tables are shown and no
    output holds Python's text (``notebook_runner.starts_from_its_parameters``). A notebook
    runs once per set of parameters: none at its defaults alone."""
    run = set()
    for path in RUNNERS:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "run_notebook"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                run.add(node.args[0].value)
    assert set(TOPICS) <= run, f"never run in a kernel: {sorted(set(TOPICS) - run)}"


def test_landing_notebook_executes_without_error():
    nb = nbformat.read(NOTEBOOKS / "index.ipynb", as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{out.get('ename')}: {out.get('evalue')}"


@pytest.mark.parametrize("name", NOTEBOOK_FILES)
def test_notebook_committed_without_outputs_and_python3_kernel(name):
    nb = json.loads((NOTEBOOKS / name).read_text())
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, name
