"""Every notebook runs headlessly from top to bottom (nbclient) and is committed clean."""

import json

import matplotlib.pyplot as plt
import nbformat
import pytest
from nbclient import NotebookClient

from conftest import NOTEBOOKS

NOTEBOOK_FILES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


@pytest.mark.parametrize("name", NOTEBOOK_FILES)
def test_notebook_executes_without_error(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{name}: {out.get('ename')}: {out.get('evalue')}"
            assert "Traceback" not in json.dumps(out.get("data", {}))
    # the last cell returns the root widget
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
               for o in last.outputs), f"{name}: last cell does not return a widget"


@pytest.mark.parametrize("name", NOTEBOOK_FILES)
def test_notebook_committed_without_outputs_and_python3_kernel(name):
    nb = json.loads((NOTEBOOKS / name).read_text())
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, name
