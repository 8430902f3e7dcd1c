"""Every notebook runs headlessly from top to bottom (nbclient) and is committed clean.

Each topic notebook starts with a cell tagged ``parameters`` (papermill's convention) of
plain assignments, and the dashboard its last cell returns starts from exactly those
values: the view model's ``params`` are the cell's names in lower case (also the names a
link's query string uses).
"""

import json

import nbformat
import pytest
from nbclient import NotebookClient

from harness import NOTEBOOKS
from elo_explain.dashboards import DASHBOARDS
from notebook_runner import parameters, run_notebook

NOTEBOOK_FILES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
TOPICS = [d.notebook for d in DASHBOARDS]


@pytest.mark.parametrize("name", TOPICS)
def test_topic_notebook_runs_and_starts_from_its_parameters(name):
    params = parameters(name)
    assert params, f"{name}: the parameters cell assigns nothing"
    run = run_notebook(name)
    assert set(run.state) == {p.lower() for p in params}, name
    for key, value in params.items():
        assert run.state[key.lower()] == (value if not isinstance(value, tuple) else list(value)), key
    # the last cell returns the root widget
    last = [c for c in run.nb.cells if c.cell_type == "code"][-2]  # [-1] is the state probe
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
               for o in last.outputs), f"{name}: last cell does not return a widget"
    # the document's tables above the view, and no cell's output shows Python's text (an
    # error output would have stopped the run: nbclient raises on it)
    shown = "\n".join(run.outputs)
    assert 'class="ee-table' in shown or "<table" in shown, f"{name}: no table in its outputs"
    assert "Traceback" not in shown, name


def test_landing_notebook_executes_without_error():
    nb = nbformat.read(NOTEBOOKS / "index.ipynb", as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
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
