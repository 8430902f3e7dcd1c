"""Run a topic notebook headlessly with new parameters, as papermill injects them.

:func:`run_notebook` executes ``notebooks/<name>`` with nbclient after inserting, right after
the cell tagged ``parameters``, a cell that assigns the given values (papermill's
``injected-parameters`` convention; papermill itself is not needed). It returns the
executed notebook's visible text (:attr:`Run.text`, every output's HTML or plain text) and
the starting state of the dashboard the last cell returns (:attr:`Run.state`, the view
model's ``state()``).

``then="model.divisor = 800"`` runs more code in the same kernel after every cell ran (a
reader's next cell); :attr:`Run.live` then holds what each cell's live outputs show *now*
(their widgets' current HTML, as nbclient recorded the kernel's updates), beside the
outputs as first displayed (:attr:`Run.outputs`).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
STATE_MARK = "EE-STATE:"


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@dataclass
class Run:
    nb: nbformat.NotebookNode
    outputs: list[str]  # one text per code cell (its outputs' HTML / plain text joined)
    state: dict  # the dashboard's starting state (model.state(), before ``then``)
    live: list[str]  # per code cell: its live outputs' HTML now ('' if it has none)

    @property
    def text(self) -> str:
        """All outputs as text, tags stripped (what a reader sees)."""
        return "\n".join(re.sub(r"<[^>]+>", " ", o) for o in self.outputs)


def _live_now(cell, widget_state: dict) -> str:
    """The current HTML of the cell's live outputs (HTML widgets with class ``ee-live``)."""
    shown = []
    for out in cell.get("outputs", []):
        view = out.get("data", {}).get(WIDGET_VIEW)
        state = widget_state.get(view["model_id"], {}) if view else {}
        if "ee-live" in state.get("_dom_classes", ()):
            shown.append(state.get("value", ""))
    return "\n".join(shown)


def parameters_cell(nb) -> nbformat.NotebookNode:
    """The notebook's first code cell, which must be tagged ``parameters``."""
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert "parameters" in first.metadata.get("tags", []), (
        "first code cell is not tagged parameters"
    )
    return first


def parameters(name: str) -> dict:
    """The names and values the parameters cell assigns (plain literal assignments only)."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    tree = ast.parse(parameters_cell(nb).source)
    out = {}
    for node in tree.body:
        assert (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ), f"{name}: not a plain assignment"
        out[node.targets[0].id] = ast.literal_eval(node.value)
    return out


def _output_text(out) -> str:
    if out.output_type == "stream":
        return out.text
    data = out.get("data", {})
    return data.get("text/html") or data.get("text/markdown") or data.get("text/plain", "")


def run_notebook(name: str, timeout: int = 300, *, then: str | None = None, **params) -> Run:
    """Execute ``name`` with ``params`` (parameter names as in the cell) injected, then the
    code ``then`` (if given) in the same kernel."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    cell = parameters_cell(nb)
    at = nb.cells.index(cell) + 1
    if params:
        known = parameters(name)
        unknown = set(params) - set(known)
        assert not unknown, f"{name} has no parameters {unknown}"
        source = "\n".join(f"{k} = {v!r}" for k, v in params.items())
        injected = nbformat.v4.new_code_cell(source, metadata={"tags": ["injected-parameters"]})
        nb.cells.insert(at, injected)
    view = [c for c in nb.cells if c.cell_type == "code"][-1]
    view.source = "_ee_view = " + view.source.strip() + "\n_ee_view"  # kept for the probe
    extra = [nbformat.v4.new_code_cell(then)] if then else []
    probe = nbformat.v4.new_code_cell(
        f"import json as _json\nprint({STATE_MARK!r} + _json.dumps(_ee_view.model.state(), "
        "default=str))"
    )
    nb.cells += [probe, *extra]
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()
    outputs, live, state = [], [], None
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        for out in c.get("outputs", []):
            assert out.output_type != "error", f"{name}: {out.get('ename')}: {out.get('evalue')}"
        text = "\n".join(_output_text(o) for o in c.get("outputs", []))
        if c is probe:
            line = next(ln for ln in text.splitlines() if ln.startswith(STATE_MARK))
            state = json.loads(line[len(STATE_MARK) :])
        elif c not in extra:
            outputs.append(text)
            live.append(_live_now(c, client.widget_state))
    run = Run(nb=nb, outputs=outputs, state=state, live=live)
    starts_from_its_parameters(run, name, params)
    return run


def starts_from_its_parameters(run: Run, name: str, injected: dict) -> None:
    """What every run of a topic notebook must show, whatever was injected: the dashboard its
    last cell returns starts from exactly the parameters cell's values (``injected`` over
    them): its model's ``params`` are the cell's names in lower case, the names a link's
    query string uses; the last cell returns the root widget; the document's tables are in
    the outputs, and none shows Python's text (an error output stops the run already)."""
    params = parameters(name)
    assert params, f"{name}: the parameters cell assigns nothing"
    expected = {
        k.lower(): list(v) if isinstance(v, tuple) else v for k, v in {**params, **injected}.items()
    }
    assert set(run.state) == set(expected), name
    for key, value in expected.items():
        assert run.state[key] == value, f"{name}: {key} starts at {run.state[key]!r}, not {value!r}"
    view = next(
        c for c in run.nb.cells if c.cell_type == "code" and c.source.startswith("_ee_view = ")
    )
    assert any(WIDGET_VIEW in o.get("data", {}) for o in view.outputs), (
        f"{name}: the last cell does not return a widget"
    )
    shown = "\n".join(run.outputs)
    assert 'class="ee-table' in shown or "<table" in shown, f"{name}: no table in its outputs"
    assert "Traceback" not in shown, name
